"""Issue 23, finding 1: a small message from a hostile host cannot make a laptop build
gigabytes of text. A key of 333 ``{a}`` fields, nested, multiplied the text by 333 at
each level (nested messages were cut to 1,000 characters only at the very end): 3 KB
made a peer allocate 1.4 GB, and at depth 4 about 37 GB. Each nested message is now cut
as it is filled, and filling stops once the text passes its limit."""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from typing import Any

import hostile
import msgpack
import pytest

from lanplay.messages import MAX_TEXT, render
from lanplay.peer.peer import JoinError, Peer
from protocol.messages import Refused


def bomb(depth: int, inner: str = "x" * 80) -> dict[str, Any]:
    message: Any = inner
    for _ in range(depth):
        message = {"key": "{a}" * 333, "args": {"a": message}}
    assert isinstance(message, dict)
    return message


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_a_nested_key_of_333_fields_renders_in_bounded_time_and_memory(depth: int) -> None:
    tracemalloc.start()
    started = time.thread_time()  # the work done, however loaded the machine
    try:
        out = render(bomb(depth, "x" * 900), lang="en")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    took = time.thread_time() - started
    assert len(out) == MAX_TEXT and set(out) == {"x"}
    assert peak < 2_000_000, f"{peak} bytes to render a {depth}-deep bomb"  # was 100 MB at 2
    assert took < 1.0


def test_lists_and_seats_of_long_texts_stay_bounded() -> None:
    long = {"key": "{a}" * 333, "args": {"a": "y" * 900}}
    message = {"key": "{l}", "args": {"l": {"list": [long] * 64, "join": "and"}}}
    assert len(render(message, lang="en")) == MAX_TEXT
    legacy = {"text": "{0}" * 333, "seats": [0]}
    assert len(render(legacy, ["n" * 60], lang="en")) <= MAX_TEXT


def test_a_refusal_carrying_the_bomb_is_one_bounded_sentence_at_the_handshake() -> None:
    """The bomb fits in the ``refused`` that answers the hello (under the 4 KiB
    handshake limit): the peer says it in at most 1,000 characters, quickly."""
    message = bomb(3)
    assert len(msgpack.packb(message)) < 4000

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.msg(Refused("full", "Full.", message)))
        await writer.drain()
        await reader.read()

    async def main() -> JoinError:
        async with hostile.hostile_host(script) as port:
            peer = Peer("Ann", reconnect_for=0, dead_after=30)
            with pytest.raises(JoinError) as raised:
                await peer.connect("127.0.0.1", port, timeout=5)
            return raised.value

    tracemalloc.start()
    started = time.perf_counter()
    try:
        error = asyncio.run(asyncio.wait_for(main(), 20))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - started < 5
    assert peak < 20_000_000, f"{peak} bytes for one refusal"
    assert 0 < len(error.reason) <= MAX_TEXT
