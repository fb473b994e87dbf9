"""The host's web server: the page's files over HTTP and the protocol over ``/ws``.

One websockets server on the web port. Its ``process_request`` hook answers
plain HTTP from the closed list of ``Assets`` (GET only: websockets refuses any
other method), and lets a WebSocket upgrade through only on ``/ws`` from the
page's own origin; each WebSocket is then handed, as a ``WsLink``, to the same
``serve_link`` a TCP connection gets, so admission, the password challenge,
tokens, limits, rate bucket and views are the TCP link's.

Hostile or slow HTTP clients are bounded as TCP ones are: the request line and
headers must arrive within ``open_timeout`` (websockets caps a line at 8 KiB and
the headers at 128), at most ``MAX_CONNECTIONS`` connections are open at once,
``PER_ADDRESS`` from one address, and a response the client does not read is
dropped after ``close_timeout``. The ``Host`` header must name this machine by an
address, ``localhost``, its host name or a ``.local`` name, so a page of another
site that a DNS trick points at this address can neither read the page nor open
the WebSocket (its origin is never the page's).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http
import ipaddress
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Any, cast
from urllib.parse import urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from lanplay.net.carrier import Carrier
from lanplay.net.ws_link import WsLink
from lanplay.web.address import qr_svg
from lanplay.web.assets import Asset, Assets, make_asset
from protocol.codec import CLIENT_FRAME, MAX_FRAME

log = logging.getLogger("lanplay.web")

MAX_CONNECTIONS = 256
PER_ADDRESS = 32
"""A phone loading the page opens a handful at once; a flood from one address
cannot take the others' share."""
OPEN_TIMEOUT = 5.0
CLOSE_TIMEOUT = 2.0

CSP = ("default-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'")

ServeLink = Callable[[Carrier, str], Awaitable[None]]


def known_host(value: str) -> bool:
    """Whether a ``Host`` header names this machine as a LAN page would reach it."""
    host = value.strip().lower()
    if host.startswith("["):  # [v6]:port
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    if not host:
        return False
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(host)
        return True
    names = {"localhost", socket.gethostname().lower()}
    return host in names or host.endswith(".local") or host.endswith(".localhost")


def same_origin(request: Request) -> bool:
    """The WebSocket's ``Origin`` is the page's own: ``http://`` and the ``Host`` it
    asked (a page of any other site, or no browser at all, sends another or none)."""
    origin = request.headers.get("Origin")
    host = request.headers.get("Host")
    return (origin is not None and host is not None
            and origin.strip().lower() == f"http://{host.strip().lower()}")


@functools.lru_cache(maxsize=16)
def qr_asset(host: str) -> Asset:
    """The QR code of ``http://host/`` (the watch screen shows it while people join)."""
    return make_asset(qr_svg(f"http://{host.strip()}/"), "image/svg+xml")


def _response(status: http.HTTPStatus, body: bytes, kind: str,
              extra: dict[str, str] | None = None) -> Response:
    headers = Headers()
    headers["Content-Type"] = kind
    headers["Content-Length"] = str(len(body))
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    headers["Connection"] = "close"
    for key, value in (extra or {}).items():
        headers[key] = value
    return Response(status.value, status.phrase, headers, body)


def _plain(status: http.HTTPStatus, text: str) -> Response:
    return _response(status, (text + "\n").encode(), "text/plain; charset=utf-8")


class WebServer:
    def __init__(self, serve_link: ServeLink, assets: Assets,
                 max_frame: int = MAX_FRAME, open_timeout: float = OPEN_TIMEOUT) -> None:
        self._serve_link = serve_link
        self.open_timeout = open_timeout
        self.assets = assets
        self.max_frame = max_frame
        self._server: Server | None = None
        self._open: dict[str, int] = {}
        self.port = 0
        self.refused = 0
        """Connections turned away at once (over the caps): for tests and logs."""

    async def start(self, bind: str, port: int) -> int:
        """Listen; the port actually bound."""
        self._server = await serve(
            self._handle, bind, port, process_request=self._request,
            compression=None, open_timeout=self.open_timeout, close_timeout=CLOSE_TIMEOUT,
            ping_interval=None, max_size=CLIENT_FRAME, max_queue=8,
            server_header="lanplay", logger=log, create_connection=self._connection_class())
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def stop(self) -> None:
        if self._server is None:
            return
        self._server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), CLOSE_TIMEOUT + 1)

    def close(self) -> None:
        """Stop listening at once (a killed host)."""
        if self._server is not None:
            self._server.close(close_connections=False)

    @property
    def connections(self) -> int:
        return sum(self._open.values())

    # --- HTTP ---------------------------------------------------------------------

    def _request(self, connection: ServerConnection, request: Request) -> Response | None:
        if not known_host(request.headers.get("Host", "")):
            return _plain(http.HTTPStatus.MISDIRECTED_REQUEST,
                          "This is a lanplay host: open it by its address.")
        path = urlsplit(request.path).path
        if path == "/ws":
            if not same_origin(request):
                return _plain(http.HTTPStatus.FORBIDDEN,
                              "Only the lanplay page of this host may open its WebSocket.")
            return None  # the upgrade goes on
        if path == "/qr.svg":  # the page's own address as the one asking sees it
            return self._file(request, qr_asset(request.headers["Host"]))
        asset = self.assets.lookup(path)
        if asset is None:
            return _plain(http.HTTPStatus.NOT_FOUND, "Not here.")
        if request.headers.get("Upgrade"):
            return _plain(http.HTTPStatus.BAD_REQUEST, "A WebSocket goes to /ws.")
        return self._file(request, asset)

    def _file(self, request: Request, asset: Asset) -> Response:
        extra = {"ETag": asset.etag, "Cache-Control": asset.cache}
        if asset.type.startswith("text/html"):
            extra["Content-Security-Policy"] = CSP
        else:
            extra["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
        if request.headers.get("If-None-Match") == asset.etag:
            return _response(http.HTTPStatus.NOT_MODIFIED, b"", asset.type, extra)
        return _response(http.HTTPStatus.OK, asset.body, asset.type, extra)

    # --- WebSocket ------------------------------------------------------------------

    async def _handle(self, connection: ServerConnection) -> None:
        link = WsLink(connection, self.max_frame)
        await self._serve_link(link, _address(connection.remote_address))

    # --- bounds on connections --------------------------------------------------------

    def _connection_class(self) -> type[ServerConnection]:
        web = self

        class Counted(ServerConnection):
            """Counted per address from the first byte; over the caps, dropped at once."""

            lanplay_address: str | None = None

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                super().connection_made(transport)
                address = _address(transport.get_extra_info("peername"))
                if not web._admit(address):
                    web.refused += 1
                    cast(asyncio.Transport, transport).abort()
                    return
                self.lanplay_address = address

            def connection_lost(self, exc: Exception | None) -> None:
                if self.lanplay_address is not None:
                    web._release(self.lanplay_address)
                    self.lanplay_address = None
                super().connection_lost(exc)

        return Counted

    def _admit(self, address: str) -> bool:
        if self.connections >= MAX_CONNECTIONS or self._open.get(address, 0) >= PER_ADDRESS:
            return False
        self._open[address] = self._open.get(address, 0) + 1
        return True

    def _release(self, address: str) -> None:
        left = self._open.get(address, 0) - 1
        if left > 0:
            self._open[address] = left
        else:
            self._open.pop(address, None)


def _address(peer: Any) -> str:
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
