"""The ports a laptop holds from the moment it agreed to referee, until it does.

A laptop that accepts a hand-over, or stands by as deputy, listens at once on the
pair of ports it names in its answer (the game's and its page's: ``lanplay.host.ports``),
so the host can tell every peer where to go before anything moves. Until this laptop
referees, whoever comes is answered in one message and let go:

* while the host is heard from: ``moved``, naming where the room is (a peer, or a
  browser page, that came too early goes back there);
* once it is silent: ``refused`` with code ``standby`` (try again in a moment: the
  deputy takes over soon), and the seat that came is counted as a *witness*: a peer
  that lost the host too, which is what lets the deputy take over at once.

Its page is served here too (the same ``lanplay.web`` server, whose WebSocket gets
the same answers), so a browser that lost the host can load it and wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from lanplay.host.config import HostConfig
from lanplay.host.ports import Ports, listen
from lanplay.host.words import refused
from lanplay.messages import msg
from lanplay.net.carrier import Carrier
from lanplay.net.link import Link, LinkClosed
from protocol.codec import HANDSHAKE
from protocol.messages import PROTOCOL_VERSION, Hello, Moved, ProtocolError

HELLO_WITHIN = 2.0
MOST_WITNESSES = 256


class Standby:
    def __init__(self, config: HostConfig, where: Callable[[], Moved | None],
                 name: str) -> None:
        """``where``: the room's place while its host is heard (None once it is silent)."""
        self.config = config
        self.where = where
        self.name = name
        self.ports: Ports | None = None
        self.own: set[str] = set()
        """Tokens of this laptop's own seat: its peer coming here is no witness."""
        self._witnesses: dict[str, float] = {}
        self._server: asyncio.Server | None = None
        self._web: object | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> Ports:
        """Listen on the pair (the config's port, else the first free usual pair), and
        serve the page beside it when the config serves one; OSError if it cannot."""
        cfg = self.config
        self._server, ports = await listen(
            lambda port: asyncio.start_server(self._serve, cfg.bind, port,
                                              limit=cfg.max_frame),
            cfg.bind, cfg.port, cfg.first_port)
        web = 0
        if cfg.web_port is not None or cfg.web:
            from lanplay.content import in_play
            from lanplay.web.assets import Assets
            from lanplay.web.server import WebServer

            server = WebServer(self.serve_link, Assets(in_play.picture), cfg.max_frame,
                               cfg.handshake_timeout)
            try:
                web = await server.start(cfg.bind, cfg.web_port if cfg.web_port is not None
                                         else ports.web)
                self._web = server
            except OSError:
                web = 0  # the page is a convenience: the game's port is what counts
        self.ports = Ports(ports.game, web)
        return self.ports

    def witnesses(self, within: float) -> int:
        """Seats (other than this laptop's) that came in the last ``within`` seconds."""
        since = time.monotonic() - within
        return sum(1 for token, at in self._witnesses.items()
                   if at >= since and token not in self.own)

    async def close(self) -> None:
        """Let the ports go (the host about to listen on them, or standing down)."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
            self._server = None
        web, self._web = self._web, None
        if web is not None:
            await web.stop()  # type: ignore[attr-defined]
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        await self.serve_link(Link(reader, writer, self.config.max_frame, limits=HANDSHAKE),
                              address)

    async def serve_link(self, link: Carrier, address: str) -> None:
        """One hello, one answer, then goodbye (a TCP ``Link`` or the page's WebSocket)."""
        link.limits = HANDSHAKE
        try:
            hello = await asyncio.wait_for(link.recv(), HELLO_WITHIN)
            if not isinstance(hello, Hello) or hello.version != PROTOCOL_VERSION:
                return
            where = self.where()
            if where is not None:
                link.send(where)
                return
            if len(self._witnesses) < MOST_WITNESSES or hello.token in self._witnesses:
                self._witnesses[hello.token or f"@{address}"] = time.monotonic()
            link.send(refused("standby", msg(
                "The host is silent; {name}'s laptop takes the room over in a moment. "
                "Trying again\u2026", name=self.name)))
        except (TimeoutError, LinkClosed, ProtocolError, ConnectionError, OSError):
            return
        finally:
            await link.close()


__all__ = ["Standby"]
