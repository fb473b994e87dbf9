"""A hostile host cannot exhaust a peer's memory: chat is capped in length and in
history, a view cannot grow past its limits however the deltas come, a delta's
work is bounded (no copy of a whole list per op), and names from the host are
cleaned. Each attack runs over real TCP on 127.0.0.1 against a small hostile
host written here."""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from typing import Any

import hostile
import pytest

from lanplay.peer.peer import CHAT_KEPT, MAX_CHAT, JoinError, Peer
from protocol import delta
from protocol.codec import FrameReader, frame
from protocol.delta import EXTEND, VIEW_LIMITS, BoundedView, DeltaError, measure
from protocol.messages import PROTOCOL_VERSION, Delta, Lobby, Ping, Pong, Resync, Snapshot

LOCAL = "127.0.0.1"


async def joined(port: int) -> Peer:
    peer = Peer("Ann", reconnect_for=0, dead_after=30)
    await peer.connect(LOCAL, port, timeout=5)
    return peer


def test_chat_from_a_hostile_host_is_capped_in_length_and_in_number() -> None:
    """250 chat frames of 40 KB each (under the decoder's str limit): 10 MB of
    chat, of which the peer keeps the last 200 messages of 500 characters."""
    text = "spam " * 8_000

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.welcome())
        for i in range(250):
            writer.write(hostile.raw({"type": "chat", "text": f"{i} {text}",
                                      "sender": f"\x1b[31mMallory\r\n{i}", "seat": 1}))
            await writer.drain()
        writer.write(hostile.msg(Ping(99)))
        await writer.drain()
        await reader.read()

    async def main() -> None:
        async with hostile.hostile_host(script) as port:
            peer = await joined(port)
            tracemalloc.start()
            task = asyncio.create_task(peer.run())
            try:
                await peer.wait_until(lambda p: bool(p.chat) and p.chat[-1].text.startswith(
                    "249 "), 20)
                kept = tracemalloc.get_traced_memory()[0]
            finally:
                tracemalloc.stop()
                await peer.close()
                await asyncio.wait_for(task, 5)
            assert len(peer.chat) == CHAT_KEPT
            assert all(len(c.text) <= MAX_CHAT for c in peer.chat)
            assert peer.chat[0].text.startswith("50 ")
            assert peer.chat[-1].sender == "[31mMallory 249"  # no ESC, no CR/LF
            assert peer.stats()["bytes"] > 10_000_000
            assert kept < 2_000_000, f"{kept} bytes still held after 10 MB of chat"

    asyncio.run(asyncio.wait_for(main(), 60))


def test_a_chat_frame_of_a_megabyte_is_refused_and_the_host_dropped() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.welcome())
        for _ in range(150):
            writer.write(hostile.raw({"type": "chat", "text": "x" * 1_000_000,
                                      "sender": "Mallory", "seat": 1}))
            await writer.drain()
        await reader.read()

    async def main() -> None:
        async with hostile.hostile_host(script) as port:
            peer = await joined(port)
            start = time.thread_time()
            await asyncio.wait_for(peer.run(), 20)
            assert time.thread_time() - start < 1
            assert peer.chat == []
            assert peer.closed_reason == (
                "The host sent something this lanplay cannot use (a frame holds a str of "
                "1000000 bytes; at most 65536 is allowed).")
            assert peer.stats()["frames"] <= 3  # welcome, and the refused chat

    asyncio.run(asyncio.wait_for(main(), 30))


def test_deltas_extending_a_list_stop_at_the_view_limit_and_the_peer_asks_again() -> None:
    """The finding's attack, scaled to the frame limits: deltas of 40 extends of
    2048 items each (82k items a delta) to one list, 60 of them. On main the
    view grew by all of it and each op copied the whole list."""
    ops = [[EXTEND, ["hand_counts"], [0] * 2048] for _ in range(40)]
    resyncs: list[str] = []
    ponged = asyncio.Event()  # the peer answered the ping sent after every delta

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.welcome() + hostile.msg(Snapshot(0, hostile.game_view())))
        frames = FrameReader()

        async def listen() -> None:
            while data := await reader.read(65536):
                for m in frames.feed(data):
                    if isinstance(m, Resync):
                        resyncs.append(m.reason)
                    elif isinstance(m, Pong):
                        ponged.set()

        listening = asyncio.create_task(listen())
        for i in range(60):
            writer.write(hostile.msg(Delta(i, i + 1, ops)))
            await writer.drain()
        writer.write(hostile.msg(Ping(1, 60)))
        await writer.drain()
        await listening

    async def main() -> None:
        async with hostile.hostile_host(script) as port:
            peer = await joined(port)
            task = asyncio.create_task(peer.run())
            start = time.thread_time()
            try:
                await asyncio.wait_for(ponged.wait(), 30)
            finally:
                cpu = time.thread_time() - start
                await peer.close()
                await asyncio.wait_for(task, 5)
            view = peer.view
            assert view is not None
            # one delta in; the second would pass the limit
            assert len(view["hand_counts"]) == 3 + 81_920
            assert peer.state_id == 1
            assert measure(view).nodes <= VIEW_LIMITS.nodes
            assert resyncs[0] == ("a delta did not fit: delta op 8: the view would hold "
                                  "more than 100000 elements")
            assert cpu < 3, f"{cpu:.1f} s of CPU for 60 deltas"

    asyncio.run(asyncio.wait_for(main(), 60))


def test_names_and_texts_from_a_hostile_host_are_cleaned() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.raw({
            "type": "welcome", "version": PROTOCOL_VERSION, "seat": 0, "token": "t",
            "host_name": "Evil\u202e host\x00\x1b[2J", "game": "alles-klar"}))
        lobby = Lobby("Evil\u202ehost", "alles-klar", "standard", {},
                      [{"name": "A\x00B\x1b[31mC\r\n", "colour": "#E69F00", "ready": True,
                        "bot": False, "connected": True},
                       {"name": "\u200b\u200b", "colour": "#56B4E9", "ready": True,
                        "bot": False, "connected": True}], "lobby")
        writer.write(hostile.msg(lobby))
        writer.write(hostile.raw({"type": "rejected", "id": 1, "code": "x" * 5000,
                                  "reason": "no " * 10_000}))
        writer.write(hostile.raw({"type": "bye", "reason": "bye " * 10_000}))
        await writer.drain()
        await reader.read()

    async def main() -> None:
        async with hostile.hostile_host(script) as port:
            peer = await joined(port)
            await asyncio.wait_for(peer.run(), 10)
            assert peer.host_name == "Evil host[2J"
            assert peer.lobby is not None and peer.lobby.host_name == "Evilhost"
            assert [s["name"] for s in peer.lobby.seats] == ["AB[31mC", "?"]
            (rejected,) = peer.rejections
            assert len(rejected.code) == 40 and len(rejected.reason) == 500
            assert peer.closed_reason is not None and len(peer.closed_reason) == 500

    asyncio.run(asyncio.wait_for(main(), 20))


def test_a_peer_decodes_nothing_big_from_a_host_before_its_welcome() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(frame(hostile.empty_maps(), 1 << 21))
        await writer.drain()
        await reader.read()

    async def main() -> None:
        async with hostile.hostile_host(script) as port:
            peer = Peer("Ann", reconnect_for=0)
            start = time.thread_time()
            with pytest.raises(JoinError, match="did not answer like a lanplay host"):
                await peer.connect("127.0.0.1", port, timeout=5)
            assert time.thread_time() - start < 0.2

    asyncio.run(asyncio.wait_for(main(), 20))


def test_a_host_breaking_the_protocol_again_and_again_is_left_after_five_tries(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each connection: a welcome, then a frame no peer may decode. Reconnecting at
    once each time would spin; the peer backs off and gives up, saying why."""
    monkeypatch.setattr("lanplay.peer.peer.MAX_BACKOFF", 0.05)  # the waits, shortened
    connections = 0

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        await hostile.read_hello(reader)
        connections += 1
        writer.write(hostile.welcome() + hostile.raw({"type": "chat", "text": "x" * 70_000}))
        await writer.drain()
        await reader.read()

    async def main() -> None:
        async with hostile.hostile_host(script) as port:
            peer = Peer("Ann", reconnect_for=600)
            await peer.connect(LOCAL, port)  # seated, with a token: it would come back
            await asyncio.wait_for(peer.run(), 20)
            assert connections == 5
            assert peer.closed_reason is not None
            assert "a str of 70000 bytes" in peer.closed_reason

    asyncio.run(asyncio.wait_for(main(), 30))


# --- the view's limits, without sockets ------------------------------------------------


def test_many_extends_to_one_list_in_one_delta_cost_in_proportion_to_the_items() -> None:
    """Was quadratic: every op copied the whole list (``_resize``)."""
    view = BoundedView({"log": list(range(50_000))})
    ops: list[Any] = [[EXTEND, ["log"], [1] * 20] for _ in range(2000)]
    start = time.thread_time()  # the work done, however loaded the machine
    view.apply(ops)
    took = time.thread_time() - start
    assert len(view.value["log"]) == 90_000
    assert took < 0.25  # copied once: 50k items, then 40k appended in place
    plain = delta.apply({"log": list(range(50_000))}, ops)
    assert plain == view.value


def test_a_delta_over_the_work_limit_is_refused_and_changes_nothing() -> None:
    small = delta.ViewLimits(nodes=1000, text=1000, cost=500)
    view = BoundedView({"a": list(range(400)), "b": []}, small)
    before = view.value
    with pytest.raises(DeltaError, match="more than 500 elements of work"):
        view.apply([[0, ["a", 0], 1], [0, ["b"], list(range(200))]])
    assert view.value is before and view.size == measure(before)
    with pytest.raises(DeltaError, match="more than 1000 characters of text"):
        view.apply([[0, ["t"], "x" * 1001]])
    with pytest.raises(delta.ViewTooBig, match="more than 1000 elements"):
        BoundedView({"a": [0] * 1000}, small)


@pytest.mark.parametrize("seed", range(40))
def test_a_bounded_views_size_stays_exact(seed: int) -> None:
    """After any sequence of fitting deltas the kept size equals a fresh count."""
    import random

    rng = random.Random(seed)

    def value(depth: int = 0) -> Any:
        roll = rng.random()
        if depth < 3 and roll < 0.3:
            return {rng.choice("abcde"): value(depth + 1) for _ in range(rng.randint(0, 3))}
        if depth < 3 and roll < 0.55:
            return [value(depth + 1) for _ in range(rng.randint(0, 3))]
        return rng.choice([None, True, 3, 2.5, "xy", b"z", "", "long text"])

    old: Any = {"k": value(), "l": [value()]}
    view = BoundedView(old)
    for _ in range(15):
        new = {"k": value(), "l": [value() for _ in range(rng.randint(0, 4))], "m": value()}
        if rng.random() < 0.3:
            new = old
        view.apply(delta.diff(old, new))
        assert view.value == new and view.size == measure(new)
        old = new
    view.apply([[2, ["l"], 0], [3, ["l"], ["abc", {"q": "r"}]], [1, ["k"]]])
    assert view.size == measure(view.value)
    view.apply([[0, [], {"z": "é"}]])
    assert view.size == measure({"z": "é"}) == delta.Size(2, 2)
