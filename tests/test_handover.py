"""The room outlives its host (issue 34), in one process over TCP on 127.0.0.1: who may
send the hand-over's messages, a deputy that never answers, a room announced by two
hosts, a host's word a peer must not follow, and a copy of a room that is not one.

The whole story (a host killed mid-game, its deputy taking over, a page in Chromium)
is tests/test_handover_takeover.py; a window handing its room to another,
tests/test_ui_handover.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

import hostile
import pytest
from nethelpers import LOCAL, Tasks, host_until, rejected, run, seat

from lanplay.host import Host, HostConfig
from lanplay.messages import msg
from lanplay.net.discovery import Browser, room_finder
from lanplay.peer.bots import drive
from lanplay.peer.keeper import Keeper
from lanplay.peer.peer import Peer
from lanplay.peer.successor import Successor
from lanplay.store import roomcopy
from protocol.codec import FrameReader, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    Ack,
    Deputy,
    Journal,
    Moved,
    Offer,
    RoomPart,
    Stand,
    Welcome,
)


@contextlib.asynccontextmanager
async def room(**config: Any) -> AsyncIterator[Host]:
    config.setdefault("seed", 5)
    config.setdefault("save", False)
    config.setdefault("deputies", True)  # lanplay host --allow-deputy
    host = Host("alles-klar", config=HostConfig(host_name="Lea", bind=LOCAL, port=0, **config))
    await host.start()
    try:
        yield host
    finally:
        await host.stop("test over")


@pytest.mark.timeout(30)
def test_a_peer_that_sends_what_it_may_not_is_refused_and_nothing_moves() -> None:
    async def main() -> None:
        tasks = Tasks()
        async with room(deputies=False) as host:  # as a window's room: its owner names one
            eve = await seat(host, "Eve", tasks)
            term = host.room.term
            # nobody offered Eve the room
            answer = await rejected(eve, lambda: (eve.send(Stand("host", True, 7533)), 0)[1])
            assert answer.code == "not_offered"
            # an ack of nothing, and messages only a host sends
            assert (await rejected(eve, lambda: (eve.send(Ack(1)), 0)[1])).code == "unexpected"
            for message in (Moved(host.room.id, 9, "Eve", "10.0.0.9", 7533),
                            Deputy(host.room.id, 9, "Eve", "10.0.0.9", 7533),
                            Offer("host", host.room.id, 9, "Eve"),
                            RoomPart("host", host.room.id, 9, 1, 0, 1, b"{}"),
                            Journal(host.room.id, 9, 1, 0, b"")):
                answer = await rejected(eve, lambda m=message: (eve.send(m), 0)[1])
                assert answer.code == "unexpected", message
            # an answer naming no port to listen on
            answer = await rejected(eve, lambda: (eve.send(Stand("deputy", True, 0)), 0)[1])
            assert answer.code == "malformed"
            # and a laptop offering itself as deputy, unasked: it would hold every hand
            answer = await rejected(eve, lambda: (eve.send(Stand("deputy", True, 7533)), 0)[1])
            assert answer.code == "not_offered"
            assert host.room.term == term and host.room.deputy is None
            assert host.handover.moving is None and not host.status.stopping
        await tasks.join()

    run(main())


@pytest.mark.timeout(30)
def test_a_deputy_that_never_answers_costs_the_game_one_wait_and_is_dropped() -> None:
    async def main() -> None:
        tasks = Tasks()
        async with room(autostart=3, deputy_wait=0.3) as host:
            host.add_bot()
            ann = await seat(host, "Ann", tasks, bot_seed=1)
            mute = Peer("Mute", bot=True, contribution_seed=9)  # stands by, never acks
            await mute.connect(LOCAL, host.port)
            mute.send(Stand("deputy", True, 7533, 0))
            tasks.add(drive(mute, 9))
            await ann.wait_until(lambda p: p.deputy is not None, 5)
            assert ann.deputy is not None and ann.deputy.name == "Mute"
            # the game starts: its first move waits for the deputy, which never answers
            started = time.monotonic()
            await ann.wait_until(lambda p: p.deputy is None, 10)
            waited = time.monotonic() - started
            await ann.wait_until(lambda p: any("no longer stands by as deputy" in c.text
                                               and "did not answer" in c.text
                                               for c in p.chat), 5)
            assert host.room.deputy is None and host.saver.mirror is None
            before = ann.state_id
            await ann.wait_until(lambda p: p.state_id >= before + 3, 10)  # play goes on
            assert waited < 5
        await tasks.join()

    run(main())


@pytest.mark.timeout(40)
def test_two_hosts_announce_one_room_and_a_peer_follows_the_higher_term_only() -> None:
    async def main() -> None:
        tasks = Tasks()
        browser = Browser(interfaces=["127.0.0.1"])
        await browser.start()
        async with room(announce=True, interfaces=["127.0.0.1"]) as old:
            ann = await seat(old, "Ann", tasks)
            ann.finder = room_finder(browser)
            # the same room, one term up, at another host (a hand-over the old one missed)
            copy = roomcopy.decode(old.handover.source.blob())
            new = Host.adopt(copy, HostConfig(host_name="Jonas", bind=LOCAL, port=0,
                                              save=False, announce=True,
                                              interfaces=["127.0.0.1"]))
            await new.start()
            try:
                assert (new.room.id, new.room.term) == (old.room.id, 2)
                assert await browser.wait_for(lambda hosts: sorted(
                    h.term for h in hosts.values() if h.room == old.room.id) == [1, 2], 10)
                ann.drop()  # Ann loses her host: the LAN knows both; she takes term 2
                await ann.wait_until(lambda p: p.term == 2 and p.link is not None, 15)
                assert ann.home == (LOCAL, new.port) and ann.referee_line is not None
                assert "Jonas referees the game now" in ann.referee_line
                # and the old host, still there at term 1, is never her host again, even
                # when it is where she last looked
                link = ann.link
                ann.home = (LOCAL, old.port)
                ann.drop()
                await ann.wait_until(lambda p: p.link is not None and p.link is not link, 15)
                assert ann.term == 2 and ann.home == (LOCAL, new.port)
            finally:
                await new.stop("test over")
        await browser.stop()
        await tasks.join()

    run(main())


def moved_script(welcome_term: int, after: list[bytes]) -> hostile.Script:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(encode(Welcome(PROTOCOL_VERSION, 0, "t0k3n", "Mallory", "alles-klar",
                                    room="r00m", term=welcome_term)))
        for frame in after:
            writer.write(frame)
        await writer.drain()
        frames = FrameReader()
        while data := await reader.read(65536):
            frames.feed(data)
    return script


@pytest.mark.timeout(30)
def test_a_peer_follows_only_its_rooms_higher_term_and_never_a_hostile_address() -> None:
    async def main() -> None:
        # Lower term, another room, a bad address, an early deputy: all refused;
        # a journal or a copy nobody asked for: ignored. The peer stays put.
        stale = [encode(Moved("r00m", 1, "Eve", "10.0.0.9", 7533)),
                 encode(Moved("other", 5, "Eve", "10.0.0.9", 7533)),
                 encode(Deputy("other", 2, "Eve", "10.0.0.9", 7533)),
                 encode(RoomPart("host", "r00m", 2, 1, 0, 1, b"junk")),
                 encode(Journal("r00m", 2, 1, 0, b"junk\n"))]
        async with hostile.hostile_host(moved_script(2, stale)) as port:
            peer = Peer("Ann", reconnect_for=0)
            await peer.connect(LOCAL, port)
            task = asyncio.create_task(peer.run())
            await asyncio.sleep(0)
            await peer.wait_until(lambda p: p.frames_in + (p.link.frames_in if p.link
                                                            else 0) >= 6, 5)
            assert peer.link is not None and peer.term == 2 and peer.deputy is None
            assert peer.home == (LOCAL, port)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await peer.close()
        # a broken moved (an address with a space) costs the room, in one sentence
        broken = {"type": "moved", "room": "r00m", "term": 3, "name": "Eve",
                  "address": "evil host", "port": 7533, "web_port": 0}
        async with hostile.hostile_host(moved_script(2, [hostile.raw(broken)])) as port:
            peer = Peer("Ann", reconnect_for=0)
            await peer.connect(LOCAL, port)
            await asyncio.wait_for(peer.run(), 10)
            assert peer.closed_reason is not None and "Traceback" not in peer.closed_reason
            assert peer.closed_reason.startswith("The host sent a room")

    run(main())


@pytest.mark.timeout(30)
def test_a_copy_of_a_room_that_is_not_one_is_refused_in_a_sentence() -> None:
    async def main() -> None:
        async with room() as host:
            good = host.handover.source.blob()
        assert roomcopy.decode(good).room == host.room.id
        for junk in (b"", b"not json\n", good.replace(b'"term":1', b'"term":"x"'),
                     good + b'{"seat":0,"action":{"type":"play"},"state_id":9}\n',
                     b'{"format":1}\n'):
            with pytest.raises(roomcopy.CopyError) as caught:
                roomcopy.decode(junk)
            assert caught.value.reason and "Traceback" not in caught.value.reason

        # a laptop offered the room and sent junk stands down: no host, the game goes on
        tasks = Tasks()
        async with room(autostart=3) as host:
            host.add_bot()
            ann = await seat(host, "Ann", tasks, bot_seed=1)
            jonas = Peer("Jonas", bot=True, contribution_seed=4)
            successor = Successor(jonas, HostConfig(host_name="Jonas", bind=LOCAL, port=0,
                                                    save=False))
            told: list[str] = []
            successor.listeners.append(lambda event, payload: told.append(event))
            await jonas.connect(LOCAL, host.port)
            tasks.add(drive(jonas, 4))
            await host_until(host, lambda h: h.session is not None and h.session.state_id >= 2)
            conn = next(c for c in host.handover.candidates() if c.name == "Jonas")
            original = host.handover.source.blob
            host.handover.source.blob = lambda clock=None: b'{"format":1,"room":"x"}\n'  # type: ignore
            host.handover.offer(conn, "host")
            await ann.wait_until(lambda p: any("could not take the room over" in c.text
                                               for c in p.chat), 5)
            host.handover.source.blob = original  # type: ignore[method-assign]
            assert successor.host is None and "failed" in told
            before = ann.state_id
            await ann.wait_until(lambda p: p.state_id > before, 10)  # play goes on here
            assert host.room.term == 1 and not host.status.stopping
            await successor.close()
        await tasks.join()

    run(main())


@pytest.mark.timeout(30)
def test_a_host_back_after_its_deputy_took_over_learns_the_room_moved_and_steps_down() -> None:
    """The host's laptop slept (it takes no move; here ``freeze`` stands for the lid
    shut) and its deputy took the room over. Awake, it finds its deputy gone, asks there,
    learns the room is refereed at a higher term, sends its peers there and stops."""
    async def main() -> None:
        tasks = Tasks()
        async with room(autostart=3, save=True) as old:
            old.add_bot()
            ann = await seat(old, "Ann", tasks, bot_seed=1)
            dep = Peer("Dep", bot=True, contribution_seed=3)
            successor = Successor(dep, HostConfig(host_name="Dep", bind=LOCAL, port=0,
                                                  save=False), volunteer=True)
            await dep.connect(LOCAL, old.port)
            tasks.add(drive(dep, 3))
            await ann.wait_until(lambda p: p.deputy is not None and p.state_id >= 3, 10)
            # the deputy, standing by, sends an early comer to the host it still hears
            assert ann.deputy is not None
            eve = Peer("Eve", spectate=True)
            await eve.connect(LOCAL, ann.deputy.port)
            assert eve.home == (LOCAL, old.port) and eve.term == 1
            await eve.close()
            saved = old.save_path
            old.play.freeze(msg("asleep"))  # the lid shuts: no move is taken any more
            new = await successor.take_over()
            assert new is not None and new.room.term == 2
            dep.drop()  # the old host's link to its deputy breaks
            await host_until(old, lambda h: h.handover.moved_to is not None, 10)
            assert old.status.stopping and old.handover.moved_to.term == 2
            assert saved is not None and not saved.exists()  # no fork of the game is kept
            await ann.wait_until(lambda p: p.term == 2 and p.link is not None, 10)
            assert ann.home == (LOCAL, new.port)
            before = ann.state_id
            await ann.wait_until(lambda p: p.state_id > before, 10)  # play goes on there
            await dep.wait_until(lambda p: p.term == 2 and p.link is not None, 10)
            await successor.close()
            await new.stop("test over")
        await tasks.join()

    run(main())


@pytest.mark.timeout(60)
def test_an_s_tier_game_handed_over_mid_round_keeps_the_leaders_note_on_its_laptop() -> None:
    """The copy a hand-over sends holds the note's commitment, never the note: the
    leader's laptop keeps it and reveals it to the new host, and every audit checks."""
    async def main() -> None:
        tasks = Tasks()
        host = Host("s-tier", "cooperative", config=HostConfig(
            host_name="Lea", bind=LOCAL, port=0, seed=4, autostart=3, save=False))
        await host.start()
        keepers = [Keeper() for _ in range(3)]
        peers = [Peer(name, bot=True, contribution_seed=i)
                 for i, name in enumerate(("Ann", "Ben", "Jonas"))]
        successor = Successor(peers[2], HostConfig(host_name="Jonas", bind=LOCAL, port=0,
                                                   save=False))
        try:
            for i, peer in enumerate(peers):
                await peer.connect(LOCAL, host.port)
                tasks.add(drive(peer, 10 + i, keeper=keepers[i]))
            # a note is written, and not yet revealed
            await peers[0].wait_until(lambda p: any(k.kept and not any(
                s.get("revealed") for s in k.kept.values()) for k in keepers), 20)
            notes = [s for k in keepers for s in k.kept.values()]
            copy = host.handover.source.blob()
            assert notes and all(s["salt"].encode() not in copy for s in notes)
            assert all(s["commitment"].encode() in copy for s in notes)  # sealed, as sent
            conn = next(c for c in host.handover.candidates() if c.name == "Jonas")
            host.handover.offer(conn, "host")
            for peer in peers:
                await peer.wait_until(lambda p: p.result is not None and p.term == 2, 40)
                await peer.wait_until(lambda p: p.verdict is not None, 10)
                assert peer.verdict is not None and peer.verdict.ok, peer.verdict
            assert successor.host is not None
        finally:
            await host.stop("test over")
            await successor.close()
            if successor.host is not None:
                await successor.host.stop("test over")
        await tasks.join()

    run(main())


def test_a_round_handed_over_mid_count_keeps_the_time_it_had_left() -> None:
    """The count of a round (Ranking's minute to place a tile) went with the room, with
    what it had left: the new host started it again from the whole minute, so a hand-over
    gave the slow players time the rules do not."""
    async def main() -> None:
        tasks = Tasks()
        host = Host("ranking", None, {"place_seconds": 60}, config=HostConfig(
            host_name="Lea", bind=LOCAL, port=0, seed=4, autostart=3, save=False))
        await host.start()
        peers = [Peer(name, bot=True, contribution_seed=i)
                 for i, name in enumerate(("Ann", "Ben", "Jonas"))]
        successor = Successor(peers[2], HostConfig(host_name="Jonas", bind=LOCAL, port=0,
                                                   save=False))
        try:
            for i, peer in enumerate(peers):  # nobody places: the minute runs
                await peer.connect(LOCAL, host.port)
                tasks.add(drive(peer, 10 + i, choose=lambda _v, _s, _i: None))
            await peers[0].wait_until(lambda p: p.clock is not None
                                      and p.clock.key == "place-1", 20)
            await asyncio.sleep(0.3)  # some of the minute goes by
            before = host.play.clock()
            assert before.key == "place-1" and before.remaining < 59.8, before
            conn = next(c for c in host.handover.candidates() if c.name == "Jonas")
            host.handover.offer(conn, "host")

            def counting(_p: Peer) -> bool:
                new = successor.host
                return new is not None and new.play.clock().key == "place-1"
            await peers[0].wait_until(lambda p: p.term == 2 and counting(p), 20)
            assert successor.host is not None
            after = successor.host.play.clock()
            assert after.seconds == 60  # the round's length, as it was
            assert after.remaining <= before.remaining + 0.01, (before, after)
        finally:
            await host.stop("test over")
            await successor.close()
            if successor.host is not None:
                await successor.host.stop("test over")
            for peer in peers:
                await peer.close()
        await tasks.join()

    run(main())


@pytest.mark.timeout(30)
def test_a_deputy_that_takes_over_mid_count_keeps_the_time_that_was_left() -> None:
    """A host gone without a word cannot say what was left of a round's count; the
    deputy heard it (every laptop does) and goes on from there, stopped when the host
    was last heard. Before, the deputy started Ranking's placing minute from 60 again."""
    async def main() -> None:
        tasks = Tasks()
        host = Host("ranking", None, {"place_seconds": 60}, config=HostConfig(
            host_name="Lea", bind=LOCAL, port=0, seed=4, autostart=3, save=False,
            deputies=True, takeover_after=1.0))  # the deputy pings it each 0.25 s
        await host.start()
        peers = [Peer(name, bot=True, contribution_seed=i)
                 for i, name in enumerate(("Ann", "Ben", "Jonas"))]
        successor = Successor(peers[2], HostConfig(host_name="Jonas", bind=LOCAL, port=0,
                                                   save=False), volunteer=True)
        try:
            for i, peer in enumerate(peers):  # nobody places: the minute runs
                await peer.connect(LOCAL, host.port)
                tasks.add(drive(peer, 10 + i, choose=lambda _v, _s, _i: None))
            await peers[0].wait_until(lambda p: p.deputy is not None and p.clock is not None
                                      and p.clock.key == "place-1", 20)
            await peers[2].wait_until(lambda _p: successor.base is not None  # stands by
                                      and successor.standby is not None, 10)
            await asyncio.sleep(2.0)  # some of the minute goes by
            left = host.play.clock().remaining
            host.play.freeze(msg("asleep"))  # the lid shuts: no move is taken any more
            silent = time.monotonic() - peers[2].heard_at  # the deputy's last word from it
            assert left < 58.5, left
            began = time.monotonic()
            new = await successor.take_over()
            taken = time.monotonic() - began
            assert new is not None and new.room.term == 2
            after = new.play.clock()
            assert after.key == "place-1" and after.seconds == 60
            # what was left when the deputy last heard the host (a ping ago, 0.25 s, or
            # later on a loaded machine), less only what the taking over took
            assert after.remaining <= left + silent + 0.05, (left, silent, after)
            assert after.remaining >= left - taken - 0.05, (left, taken, after)
            await new.stop("test over")
        finally:
            await host.stop("test over")
            await successor.close()
            for peer in peers:
                await peer.close()
        await tasks.join()

    run(main())

