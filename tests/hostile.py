"""Hostile bytes for the limit tests: frames built to cost a receiver as much as
possible, and a tiny "host" on 127.0.0.1 that answers a hello with whatever a
test scripts (written raw, so nothing of ours checks it on the way out)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgpack

from protocol.codec import HANDSHAKE_FRAME, FrameReader, encode, frame
from protocol.messages import PROTOCOL_VERSION, Hello, Message, Welcome

JUST_UNDER = (1 << 20) - 64


def hello_with(payload: bytes) -> bytes:
    """A hello body with one more field, ``x``, holding ``payload`` (packed msgpack):
    decoding must get through it before the message is known to be a hello."""
    head = msgpack.packb({"type": "hello", "version": 1, "name": "x"})
    return bytes([head[0] + 1]) + head[1:] + b"\xa1x" + payload


def array(items: bytes, count: int) -> bytes:
    return b"\xdd" + count.to_bytes(4, "big") + items


def rows(items: list[bytes], width: int = 1024) -> bytes:
    """``items`` as an array of arrays of ``width``: every container within msgpack's
    per-container length limits."""
    chunks = [items[i:i + width] for i in range(0, len(items), width)]
    return array(b"".join(array(b"".join(c), len(c)) for c in chunks), len(chunks))


def nested_arrays() -> bytes:
    """The finding's frame: arrays 60 deep, as many as fit in 1 MiB."""
    one = b"\x91" * 59 + b"\x90"
    n = (JUST_UNDER - 40) // len(one)
    return hello_with(array(one * n, n))


def empty_maps() -> bytes:
    n = JUST_UNDER - 40
    return hello_with(array(b"\x80" * n, n))


def short_strings() -> bytes:
    n = (JUST_UNDER - 40) // 3
    return hello_with(array(b"\xa2AB" * n, n))


def wide_map() -> bytes:
    n = (JUST_UNDER - 40) // 9
    return hello_with(b"\xdf" + n.to_bytes(4, "big")
                      + b"".join(b"\xa7k%06d\xc0" % i for i in range(n)))


def nested_rows() -> bytes:
    return hello_with(rows([b"\x91" * 59 + b"\x90"] * ((JUST_UNDER - 4000) // 60)))


def empty_map_rows() -> bytes:
    return hello_with(rows([b"\x80"] * (JUST_UNDER - 8000)))


def string_rows() -> bytes:
    return hello_with(rows([b"\xa2AB"] * ((JUST_UNDER - 8000) // 3)))


def map_rows() -> bytes:
    maps = [b"\xde" + (1000).to_bytes(2, "big")
            + b"".join(b"\xa7k%06d\xc0" % j for j in range(1000)) for _ in range(110)]
    return hello_with(array(b"".join(maps), len(maps)))


FINDING = {"60-deep nested arrays": nested_arrays, "empty maps": empty_maps,
           "2-letter strings": short_strings, "a map of 116k keys": wide_map}
"""The finding's four kinds of frame, just under 1 MiB each."""
WITHIN_WIDTHS = {"60-deep nested arrays in rows": nested_rows,
                 "empty maps in rows": empty_map_rows, "2-letter strings in rows": string_rows,
                 "maps of 1000 keys": map_rows}
"""The same, each container short enough to pass msgpack's length limits."""

Script = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_hello(reader: asyncio.StreamReader) -> Hello:
    frames = FrameReader(max_frame=HANDSHAKE_FRAME)
    while True:
        data = await reader.read(4096)
        if not data:
            raise ConnectionError("the peer left before its hello")
        for msg in frames.feed(data):
            assert isinstance(msg, Hello)
            return msg


def welcome(seat: int | None = 0) -> bytes:
    return encode(Welcome(PROTOCOL_VERSION, seat, "t0k3n" if seat is not None else "",
                          "Mallory's laptop", "alles-klar"))


def game_view(game_id: str = "alles-klar", players: int = 3, seat: int | None = 0,
              seed: int = 1, mode: str | None = None) -> dict[str, Any]:
    """A real view of a game just dealt: a peer checks a view against its game's shape
    (``lanplay.peer.views``), so a hostile host that wants its deltas applied starts
    from one."""
    from lanplay.game import resolve_options
    from lanplay.games import load

    game = load(game_id)
    chosen = mode or game.modes[0].id
    state = game.setup(players, chosen, resolve_options(game, {}), seed)
    view: dict[str, Any] = game.view(state, seat)
    return view


def raw(msg: dict[str, object]) -> bytes:
    """A frame of any map at all, unchecked."""
    return frame(msgpack.packb(msg, use_bin_type=True), 1 << 32)


def msg(message: Message) -> bytes:
    return encode(message)


@contextlib.asynccontextmanager
async def hostile_host(script: Script) -> AsyncIterator[int]:
    """A listening "host" on 127.0.0.1 (port 0) running ``script`` per connection."""
    tasks: set[asyncio.Task[None]] = set()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        tasks.add(task)
        try:
            await script(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass  # the test is over, or the peer left: either way this one is done
        finally:
            writer.transport.abort()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await server.wait_closed()
