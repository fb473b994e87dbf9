"""Away seats: a peer that drops comes back by itself; a laptop that sleeps is noticed
by the heartbeats, its seat waits, then a stand-in bot plays it until it wakes, when
the seat is handed back at once. Every game ends with every peer holding its own view."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from nethelpers import run
from resilience import GAME, Table, config

from lanplay import games
from lanplay.host import Host
from lanplay.peer.peer import JoinError, Peer
from lanplay.room import Room
from protocol.messages import Lobby


def test_an_away_seat_says_for_how_long_and_whether_a_stand_in_plays_it() -> None:
    room = Room(GAME)
    mia = room.add("Mia")
    room.standin_after = 30.0
    assert room.lobby_message(now=5.0).seats[0] | {} == {
        "name": "Mia", "colour": mia.colour, "ready": False, "bot": False,
        "connected": True, "owner": False, "away_for": None, "standin": False}
    mia.connected, mia.away_since = False, 100.0
    lobby = room.lobby_message(now=112.345)
    assert lobby.seats[0]["away_for"] == 12.3  # seconds: the laptops' clocks differ
    assert lobby.standin_after == 30.0
    mia.standin = True
    assert room.lobby_message(now=200.0).seats[0]["standin"] is True


async def play_by_hand(peer: Peer, rng: random.Random) -> int:
    """Play ``peer``'s seat with the game's bot from its own view; count accepted moves."""
    game, acted, accepted = games.load(GAME), -1, 0

    def on_event(event: str, payload: Any) -> None:
        nonlocal accepted, acted
        if event == "accepted":
            accepted += 1
        elif event in ("rejected", "reconnected"):
            acted = -1

    peer.listeners.append(on_event)

    def my_move(p: Peer) -> bool:
        return p.result is not None or (
            p.view is not None and p.view["turn"] == p.seat and p.state_id != acted)

    while True:
        await peer.wait_until(my_move, 20)
        if peer.result is not None:
            return accepted
        assert peer.view is not None and peer.seat is not None
        acted = peer.state_id
        peer.intent(game.bot(peer.view, peer.seat, rng))  # type: ignore[arg-type]


@pytest.mark.timeout(60)
def test_peers_dropped_at_random_come_back_by_themselves_and_end_with_their_views(
        data_dir: Path) -> None:
    async def one(seed: int) -> None:
        chooser = random.Random(seed)
        table = Table(Host(GAME, config=config(data_dir / f"g{seed}", seed=seed, autostart=4)))
        await table.host.start()
        drops: dict[int, list[Peer]] = {}
        try:
            for i in range(4):
                await table.seat(f"Bot {i}", "drive", seed=seed * 10 + i)
            watcher = await table.seat("Watcher", "none", spectate=True)
            for at in sorted(chooser.sample(range(1, 50), 6)):
                drops.setdefault(at, []).append(chooser.choice(table.peers))

            def on_event(what: str) -> None:
                session = table.host.session
                if what == "action" and session is not None:
                    for peer in drops.pop(session.state_id, []):
                        peer.drop()  # a pulled cable: no goodbye on either side

            table.host.listeners.append(on_event)
            await table.finish()
            assert not drops, "the game ended before every planned drop"
            assert watcher.view == table.host.session.view(None)  # type: ignore[union-attr]
        finally:
            await table.close()

    async def main() -> None:
        for seed in range(4):
            await one(seed)

    run(main())


def lobbies(peer: Peer) -> list[Lobby]:
    """Every lobby ``peer`` receives from now on (none is missed between two waits)."""
    seen: list[Lobby] = []
    peer.listeners.append(lambda event, msg: seen.append(msg) if event == "lobby" else None)
    return seen


async def lobby_shows(peer: Peer, seen: list[Lobby], seat: int,
                      **expected: Any) -> dict[str, Any]:
    """Wait until a lobby ``peer`` received showed ``seat`` with ``expected`` values."""
    def match() -> dict[str, Any] | None:
        return next((lobby.seats[seat] for lobby in seen
                     if all(lobby.seats[seat].get(k) == v for k, v in expected.items())),
                    None)

    await peer.wait_until(lambda p: match() is not None, 10)
    found = match()
    assert found is not None
    return found


@pytest.mark.timeout(40)
def test_a_sleeping_laptop_waits_then_a_stand_in_plays_until_it_wakes(data_dir: Path) -> None:
    async def main() -> None:
        cfg = config(data_dir, autostart=3, heartbeat=0.1, dead_after=0.6, standin_after=0.6)
        table = Table(Host(GAME, config=cfg))
        await table.host.start()
        try:
            mia = await table.seat("Mia", "none", dead_after=30)
            mia.control("ready")
            bots = [await table.seat(f"Bot {i}", "drive", seed=i) for i in range(2)]
            seen = lobbies(bots[0])
            await mia.wait_until(lambda p: p.view is not None, 10)
            host, me = table.host, mia.seat
            assert me is not None
            played_for_mia: list[int] = []
            host.listeners.append(lambda what: played_for_mia.append(host.session.state_id)
                                  if what == "action" and host.session is not None
                                  and host.session.log[-1].seat == me
                                  and host.room.seats[me].standin else None)
            back = asyncio.Event()
            mia.listeners.append(lambda event, _: back.set() if event == "reconnected"
                                 else None)
            mia.doze()
            away = await lobby_shows(bots[0], seen, me, connected=False, standin=False)
            assert away["away_for"] is not None
            await lobby_shows(bots[0], seen, me, standin=True)  # after standin_after
            await bots[0].wait_until(lambda p: len(played_for_mia) >= 2, 20)
            mia.wake()  # she reconnects by herself: no action by the person
            await asyncio.wait_for(back.wait(), 10)
            seat = host.room.seats[me]
            assert seat.connected and not seat.standin and seat.away_since is None
            handed_back = host.session.state_id  # type: ignore[union-attr]
            stand_in_moves = len(played_for_mia)
            moves = await play_by_hand(mia, random.Random(3))
            await table.finish()
            session = host.session
            assert session is not None
            after = [e for e in session.log if e.state_id > handed_back and e.seat == me]
            assert len(played_for_mia) == stand_in_moves  # not one move more by the bot
            assert len(after) == moves  # every later move of that seat was Mia's own
            assert session.replay().state == session.state
        finally:
            await table.close()

    run(main())


@pytest.mark.timeout(30)
def test_without_stand_ins_the_game_waits_for_the_sleeper(data_dir: Path) -> None:
    async def main() -> None:
        cfg = config(data_dir, autostart=3, heartbeat=0.1, dead_after=0.6, standin_after=None)
        table = Table(Host(GAME, config=cfg))
        await table.host.start()
        try:
            mia = await table.seat("Mia", "none", dead_after=30)
            mia.control("ready")
            bots = [await table.seat(f"Bot {i}", "drive", seed=i) for i in range(2)]
            seen = lobbies(bots[0])
            await mia.wait_until(lambda p: p.view is not None and p.view["turn"] == p.seat,
                                 20)
            session = table.host.session
            assert session is not None and mia.seat is not None
            waiting_at = session.state_id
            mia.doze()
            await lobby_shows(bots[0], seen, mia.seat, connected=False)
            await asyncio.sleep(0.5)  # many heartbeats: nothing may happen meanwhile
            assert session.state_id == waiting_at
            assert session.actors() == {mia.seat}
            assert not table.host.room.seats[mia.seat].standin
            mia.wake()
            await play_by_hand(mia, random.Random(5))
            await table.finish()
        finally:
            await table.close()

    run(main())


@pytest.mark.timeout(40)
def test_a_person_who_closed_the_window_takes_the_seat_back_from_the_stand_in(
        data_dir: Path) -> None:
    """A goodbye mid-game (the window closed) puts a stand-in in at once, but the seat
    stays the person's for as long as the game runs: their token takes it back, with
    their hand. A wrong token is refused and says what to do, and changes nothing."""
    async def main() -> None:
        cfg = config(data_dir, autostart=3, standin_after=30.0, bot_delay=0.3)
        table = Table(Host(GAME, config=cfg))
        await table.host.start()
        try:
            mia = await table.seat("Mia", "none")
            mia.control("ready")
            bots = [await table.seat(f"Bot {i}", "drive", seed=i) for i in range(2)]
            await mia.wait_until(lambda p: p.view is not None, 10)
            host, me, token = table.host, mia.seat, mia.token
            assert me is not None and token
            seen = lobbies(bots[0])
            await mia.close("closed the window")  # a goodbye, not a drop
            await lobby_shows(bots[0], seen, me, connected=False, standin=True)

            stranger = Peer("Mia", token="not-" + token)
            with pytest.raises(JoinError) as refused:
                await stranger.connect("127.0.0.1", host.port)
            assert refused.value.code == "bad_token"
            assert "no longer has your seat" in refused.value.reason
            assert "token" not in refused.value.reason.lower()
            assert host.room.seats[me].standin, "a wrong token changes nothing"

            again = Peer("Mia", token=token)
            welcome = await again.connect("127.0.0.1", host.port)
            table.seat_peer(again, "none")
            assert welcome.seat == me and welcome.token == token
            await again.wait_until(lambda p: p.view is not None, 10)
            session = host.session
            assert session is not None and session.result is None, "still playing"
            seat = host.room.seats[me]
            assert seat.connected and not seat.standin
            assert again.view is not None and again.view["hand"], "the hand comes back"
            await lobby_shows(bots[0], seen, me, connected=True, standin=False)
        finally:
            await table.close()

    run(main())
