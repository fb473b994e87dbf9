"""The host's web server: the page's files over HTTP and the protocol over ``/ws``.

One websockets server on the web port, running on the host's own event loop, the
room's: so no request may cost that loop more than about a millisecond, whatever it
says. ``process_request`` answers plain HTTP from what is ready (the page's files,
read at start; the catalogues and the QR codes of the host's own names, made at
start on the ``Worker``'s thread), sends what is not ready yet (a picture not read
before) to that thread, whose queue is bound, and lets a WebSocket upgrade through
only on ``/ws`` from the page's own origin; each WebSocket is then handed, as a
``WsLink``, to the same ``serve_link`` a TCP connection gets, so admission, the
password challenge, tokens, limits, rate bucket and views are the TCP link's.

Hostile or slow HTTP clients are bounded as TCP ones are: a request's line and
headers must arrive within ``open_timeout``, in at most ``HEADER_BYTES`` and
``MAX_HEADERS`` headers (431 beyond, the connection's bytes counted as they come,
so a half-open request holds at most that much of the host's memory); at most
``Budget.total`` connections are open at once and ``Budget.per_address`` from one
address, and when those are spent the oldest connection that has neither finished
a request in ``GRACE`` seconds nor been welcomed makes room for the newcomer
(``lanplay.web.budget``); a response the client does not read is dropped after
``close_timeout``. The ``Host`` header must be one well-formed header naming this
machine (``lanplay.web.hosts``: 400 when malformed, 421 when another machine's), so
a page of another site that a DNS trick points at this address can neither read
the page nor open the WebSocket (its origin is never the page's).
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast
from urllib.parse import urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from lanplay.net.carrier import Carrier
from lanplay.net.ws_link import WsLink
from lanplay.web import hosts
from lanplay.web.address import qr_svg
from lanplay.web.assets import Asset, Assets, make_asset
from lanplay.web.budget import GRACE, Budget
from lanplay.web.worker import Busy, Worker
from protocol.codec import CLIENT_FRAME, MAX_FRAME

log = logging.getLogger("lanplay.web")

OPEN_TIMEOUT = 5.0
CLOSE_TIMEOUT = 2.0
HEADER_BYTES = 8192
"""The request line and headers together: a browser's are under 2 KB."""
MAX_HEADERS = 32
"""Headers in one request: a browser sends about a dozen."""
ONE_VALUE = ("Host", "Origin", "Upgrade", "If-None-Match")
"""Headers read here that a request may carry at most once."""

CSP = ("default-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'")

ServeLink = Callable[[Carrier, str], Awaitable[None]]
Vouch = Callable[[str | None], bool]
"""Whether a hello's token names a seat here (``Reception.holds_seat``)."""

_TOO_LONG = (b"HTTP/1.1 414 URI Too Long\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n"
              b"Connection: close\r\n\r\n")


def same_origin(request: Request) -> bool:
    """The WebSocket's ``Origin`` is the page's own: ``http://`` and the ``Host`` it
    asked (a page of any other site, or no browser at all, sends another or none)."""
    origin = request.headers.get("Origin")
    host = request.headers.get("Host")
    return (origin is not None and host is not None
            and origin.strip().lower() == f"http://{host.strip().lower()}")


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


def _malformed(request: Request) -> str | None:
    """Why the request is a bad one (400), or None. Only what this server reads."""
    headers = request.headers
    if sum(1 for _ in headers.raw_items()) > MAX_HEADERS:
        return "Too many headers."
    for name in ONE_VALUE:
        if len(headers.get_all(name)) > 1:
            return f"Only one {name} header, please."
    if hosts.parse(headers.get("Host", "")) is None:
        return "A request names this host in one well-formed Host header."
    return None


class WebServer:
    def __init__(self, serve_link: ServeLink, assets: Assets,
                 max_frame: int = MAX_FRAME, open_timeout: float = OPEN_TIMEOUT,
                 vouch: Vouch | None = None, budget: Budget | None = None,
                 names: Callable[[int], hosts.Names] | None = None) -> None:
        self._serve_link = serve_link
        self.open_timeout = open_timeout
        self.assets = assets
        self.max_frame = max_frame
        self.vouch = vouch
        self.budget = budget or Budget()
        self.worker = Worker()
        self._names_for = names or _machine_names
        self.names = hosts.Names([], 0)
        self._qr: dict[str, Asset] = {}
        self._warm: asyncio.Task[None] | None = None
        self._server: Server | None = None
        self.port = 0
        self.refused = 0
        """Connections turned away at once (over the caps): for tests and logs."""
        self.evicted = 0
        """Connections closed to make room for a newcomer."""

    async def start(self, bind: str, port: int) -> int:
        """Listen; the port actually bound. The QR codes and the catalogues are made on
        the worker meanwhile (``_warm_up``)."""
        self._server = await serve(
            self._handle, bind, port, process_request=self._request,
            compression=None, open_timeout=self.open_timeout, close_timeout=CLOSE_TIMEOUT,
            ping_interval=None, max_size=CLIENT_FRAME, max_queue=8,
            server_header="lanplay", logger=log, create_connection=self._connection_class())
        self.port = int(self._server.sockets[0].getsockname()[1])
        self.names = hosts.Names([] if bind in ("", "0.0.0.0") else [bind], self.port)
        self._warm = asyncio.get_running_loop().create_task(self._warm_up(bind))
        return self.port

    async def _warm_up(self, bind: str) -> None:
        """This machine's names and their QR codes, and the catalogues, made before
        anyone asks: once each, on the worker's thread."""
        port = self.port
        names_for = self._names_for

        def make() -> tuple[hosts.Names, dict[str, Asset]]:
            names = names_for(port)
            if bind not in ("", "0.0.0.0"):
                names = hosts.Names([bind, *names.names], port, names.machine)
            codes = {value.lower(): make_asset(qr_svg(f"http://{value}/"), "image/svg+xml")
                     for value in names.own()}
            return names, codes

        try:
            self.names, self._qr = await self.worker.run(make)
            await self.worker.run(self.assets.warm)
        except Exception:  # a host with no QR code still serves its page
            log.warning("The page's QR codes or catalogues could not be made.", exc_info=True)

    async def stop(self) -> None:
        if self._warm is not None:
            self._warm.cancel()
            await asyncio.gather(self._warm, return_exceptions=True)
        if self._server is None:
            return
        self._server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), CLOSE_TIMEOUT + 1)
        self.worker.close()

    def close(self) -> None:
        """Stop listening at once (a killed host)."""
        if self._server is not None:
            self._server.close(close_connections=False)
        self.worker.close()

    @property
    def connections(self) -> int:
        return self.budget.count()

    # --- HTTP ---------------------------------------------------------------------

    async def _request(self, connection: ServerConnection, request: Request
                       ) -> Response | None:
        why = _malformed(request)
        if why is not None:
            return _plain(http.HTTPStatus.BAD_REQUEST, why)
        host = hosts.parse(request.headers["Host"])
        assert host is not None
        if not self.names.local(host):
            return _plain(http.HTTPStatus.MISDIRECTED_REQUEST,
                          "This is a lanplay host: open it by its address.")
        path = urlsplit(request.path).path
        if path == "/ws":
            if not same_origin(request):
                return _plain(http.HTTPStatus.FORBIDDEN,
                              "Only the lanplay page of this host may open its WebSocket.")
            return None  # the upgrade goes on
        if request.headers.get("Upgrade"):
            return _plain(http.HTTPStatus.BAD_REQUEST, "A WebSocket goes to /ws.")
        if path == "/qr.svg":  # the page's own address as the one asking reached it
            return await self._qr_code(request, host)
        found = self.assets.lookup(path)
        if callable(found):
            try:
                found = await self.worker.run(found)
            except Busy:
                return _plain(http.HTTPStatus.SERVICE_UNAVAILABLE, "Busy: try again.")
        if found is None:
            return _plain(http.HTTPStatus.NOT_FOUND, "Not here.")
        return self._file(request, found)

    async def _qr_code(self, request: Request, host: hosts.HostName) -> Response:
        """Only for the host's own names, drawn before anyone asked: any other name
        (however long, however new) costs nothing but a 421."""
        wanted = host.value.lower()
        if wanted not in self._qr and self._warm is not None and not self._warm.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._warm), OPEN_TIMEOUT)
        code = self._qr.get(wanted)
        if code is None:
            return _plain(http.HTTPStatus.MISDIRECTED_REQUEST,
                          "This host has no QR code under that name: open it by an "
                          "address it shows.")
        return self._file(request, code)

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
        budget = self.budget
        link = WsLink(connection, self.max_frame, vouch=self.vouch,
                      trusted=lambda: budget.trust(connection))
        await self._serve_link(link, _address(connection.remote_address))

    # --- bounds on connections --------------------------------------------------------

    def _connection_class(self) -> type[ServerConnection]:
        web = self

        class Counted(ServerConnection):
            """Counted per address from the first byte, its request's bytes counted as
            they come; over the caps, the oldest untrusted one makes room or it is
            dropped at once."""

            lanplay_counted = False
            lanplay_bytes = 0
            lanplay_line = -1
            """Where the request line ended (-1: not yet)."""

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                super().connection_made(transport)
                address = _address(transport.get_extra_info("peername"))
                admitted, evicted = web.budget.open(self, address, self.loop.time())
                for old in evicted:
                    web.evicted += 1
                    cast(Counted, old).lanplay_counted = False
                    cast(Counted, old).transport.abort()
                if not admitted:
                    web.refused += 1
                    cast(asyncio.Transport, transport).abort()
                    return
                self.lanplay_counted = True

            def data_received(self, data: bytes) -> None:
                if self.request is None:
                    if self.lanplay_line < 0 and (end := data.find(b"\n")) >= 0:
                        self.lanplay_line = self.lanplay_bytes + end
                    self.lanplay_bytes += len(data)
                    if self.lanplay_bytes > HEADER_BYTES:
                        long_line = not 0 <= self.lanplay_line <= HEADER_BYTES
                        self.transport.write(_TOO_LONG if long_line else _TOO_LARGE)
                        self.transport.close()  # what was read goes with it
                        return
                super().data_received(data)

            def connection_lost(self, exc: Exception | None) -> None:
                if self.lanplay_counted:
                    web.budget.close(self)
                    self.lanplay_counted = False
                super().connection_lost(exc)

        return Counted


def _machine_names(port: int) -> hosts.Names:
    from lanplay.net.discovery import local_addresses

    return hosts.Names(local_addresses(), port)


def _address(peer: Any) -> str:
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)


__all__ = ["CLOSE_TIMEOUT", "GRACE", "HEADER_BYTES", "MAX_HEADERS", "OPEN_TIMEOUT",
           "WebServer", "same_origin"]
