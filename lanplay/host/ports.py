"""Which ports a room listens on: the game's TCP port and, after it, its web page's.

They come in pairs, the game on the odd port and the page on the next:
(7531, 7532) first; when another lanplay on this laptop has those,
(7533, 7534), and so on up to (7539, 7540). A second or third room on one
laptop then still opens, on a port that says why, and a firewall lets in one
range once (``sudo ufw allow 7531:7540/tcp``) instead of a port that changes
with every room. A port a person asked for (``--port``, a resumed game's,
which its peers remember) is taken as it is, or refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from lanplay.host.config import DEFAULT_PORT
from lanplay.messages import Msg, msg

FIRST = DEFAULT_PORT
"""The first pair's game port (the protocol's default port, 7531)."""
PAIRS = 5
"""Pairs tried from ``FIRST`` up: 7531 to 7540."""


@dataclass(frozen=True)
class Ports:
    """The pair a room listens on, and what was in the way of the usual one."""

    game: int
    """The TCP port of the game (what peers connect to, what the LAN is told)."""
    web: int
    """The port after it, for the room's web page (0: any free one, as ``game`` was)."""
    taken: tuple[int, ...] = ()
    """The usual ports found taken on the way here (7531, 7532, ...): none, usually."""

    def note(self) -> Msg | None:
        """Why this room is not on 7531, in one sentence (None when it is)."""
        if not self.taken:
            return None
        if len(self.taken) == 1:
            return msg("Port {taken} was taken (another lanplay on this laptop?), so this "
                       "room is on {port}.", taken=self.taken[0], port=self.game)
        return msg("Ports {first} to {last} were taken (other lanplay rooms on this "
                   "laptop?), so this room is on {port}.", first=self.taken[0],
                   last=self.taken[-1], port=self.game)


class NoFreePort(OSError):
    """Every usual pair is taken; ``message`` says so in one sentence."""

    def __init__(self, message: Msg) -> None:
        super().__init__(errno.EADDRINUSE, "every usual port is taken")
        self.message = message


def pairs(first: int = FIRST, count: int = PAIRS) -> list[tuple[int, int]]:
    """The usual pairs, in the order they are tried."""
    return [(first + 2 * i, first + 2 * i + 1) for i in range(count)]


def usual_range(first: int = FIRST, count: int = PAIRS) -> tuple[int, int]:
    """The lowest and highest usual port (what a firewall should let in)."""
    return first, first + 2 * count - 1


def in_usual_range(port: int, first: int = FIRST, count: int = PAIRS) -> bool:
    low, high = usual_range(first, count)
    return low <= port <= high


Start = Callable[[int], Awaitable[asyncio.Server]]
"""Listens on a port (``asyncio.start_server`` with the host's handler); OSError if not."""


async def listen(start: Start, bind: str, port: int | None, first: int = FIRST,
                 count: int = PAIRS) -> tuple[asyncio.Server, Ports]:
    """Listen on ``port`` as it is (0: any free one), or with None on the first usual
    pair whose two ports are free; the server and the pair. Raises OSError for a port
    given, ``NoFreePort`` when every usual pair is taken."""
    if port is not None:
        server = await start(port)
        bound = _bound(server)
        return server, Ports(bound, bound + 1 if port and bound < 65535 else 0)
    taken: list[int] = []
    for game, web in pairs(first, count):
        try:
            server = await start(game)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            taken.append(game)
            continue
        if not _free(bind, web):  # the pair's page port is someone else's: the next pair
            server.close()
            with contextlib.suppress(Exception):
                await server.wait_closed()
            taken.append(web)
            continue
        return server, Ports(game, web, tuple(taken))
    low, high = usual_range(first, count)
    raise NoFreePort(msg("Ports {first} to {last} are all taken (other lanplay rooms on "
                         "this laptop?): close one, or choose a free port with --port.",
                         first=low, last=high))


def _bound(server: asyncio.Server) -> int:
    return int(server.sockets[0].getsockname()[1])


def _free(bind: str, port: int) -> bool:
    """Whether a TCP server could listen on ``port`` now (as asyncio's would, with
    SO_REUSEADDR where it sets it: a port in TIME_WAIT is free)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        if hasattr(socket, "SO_REUSEADDR") and not hasattr(socket, "SO_EXCLUSIVEADDRUSE"):
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((bind or "0.0.0.0", port))
        except OSError:
            return False
    return True


__all__ = ["FIRST", "PAIRS", "NoFreePort", "Ports", "in_usual_range", "listen", "pairs",
           "usual_range"]
