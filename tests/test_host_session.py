"""A room over real TCP on 127.0.0.1: reconnects, resyncs, spectators, chat, the lobby
and heartbeats, each checked against the host's own Session."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from nethelpers import LOCAL, Tasks, all_agree, hosting, play_out, rejected, run, seat

from lanplay.host import Host
from lanplay.peer.bots import drive
from lanplay.peer.peer import JoinError, Peer
from protocol import delta
from protocol.codec import FrameReader, decode_body, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    Chat,
    Delta,
    Hello,
    Message,
    Ping,
    Snapshot,
    Welcome,
)


@contextlib.asynccontextmanager
async def table(**config: Any) -> AsyncIterator[tuple[Host, Tasks]]:
    """A host and the peers' tasks, joined once the host has stopped."""
    tasks = Tasks()
    async with hosting(**config) as host:
        yield host, tasks
    await tasks.join()


async def lossy_rex(host: Host, tasks: Tasks,
                    loses: Callable[[Peer, Delta], bool]) -> tuple[Peer, list[Delta]]:
    """Seat Rex, a bot that silently loses the first delta ``loses`` picks."""
    lost: list[Delta] = []
    rex = Peer("Rex", bot=True)
    handle = rex._handle

    def lossy(msg: Message) -> None:
        if not lost and isinstance(msg, Delta) and loses(rex, msg):
            lost.append(msg)
            return
        handle(msg)

    rex._handle = lossy  # type: ignore[method-assign]
    await rex.connect(LOCAL, host.port)
    tasks.add(drive(rex, 1))
    return rex, lost


def decoded(frames: list[bytes]) -> list[Message]:
    return [decode_body(body) for body in frames]


# --- reconnecting ---------------------------------------------------------------------


@pytest.mark.timeout(40)
def test_a_dropped_peer_comes_back_to_its_seat_by_itself_and_the_game_ends() -> None:
    async def main() -> None:
        async with table(autostart=3) as (host, tasks):
            mia = await seat(host, "Mia", tasks)  # plays by hand, so the test can pause
            mia.control("ready")
            frames: list[bytes] = []
            events: list[str] = []
            rex = await seat(host, "Rex", tasks, bot_seed=1, recorder=frames.append)
            rex.listeners.append(lambda event, _: events.append(event))
            ada = await seat(host, "Ada", tasks, bot_seed=2)
            first = rex.token
            # play until it is Mia's turn mid-game: the table then waits for her
            await play_out(mia, random.Random(3), until=lambda p: p.state_id >= 4)
            session = host.session
            assert session is not None and session.state.turn == mia.seat
            paused_at = session.state_id
            await rex.wait_until(lambda p: p.state_id == paused_at, 5)

            rex.drop()
            await rex.wait_until(lambda p: "view" in events[events.index("reconnected"):]
                                 if "reconnected" in events else False, 10)
            assert rex.state_id == paused_at
            assert events.index("reconnecting") < events.index("reconnected")
            assert rex.seat == 1 and rex.token == first
            assert host.room.seats[1].name == "Rex" and host.room.seats[1].connected
            assert len(host.room.seats) == 3
            received = decoded(frames)
            welcomes = [i for i, m in enumerate(received) if isinstance(m, Welcome)]
            assert len(welcomes) == 2 and received[welcomes[1]].seat == 1  # type: ignore
            after = [m for m in received[welcomes[1]:] if isinstance(m, Snapshot)]
            assert after and after[0].state_id == paused_at
            assert rex.view == session.view(1)

            tasks.add(play_out(mia, random.Random(4)))
            await all_agree(host, [mia, rex, ada])
            assert host.session is session and session.replay().state == session.state

    run(main())


@pytest.mark.timeout(30)
def test_a_bot_whose_move_was_lost_in_a_drop_moves_again_after_reconnecting() -> None:
    async def main() -> None:
        async with table(autostart=2) as (host, tasks):
            rex = Peer("Rex", bot=True)
            dropped: list[int] = []

            def pull_cable(event: str, _: Any) -> None:
                # the cable goes just as Rex is about to move: his move is lost
                if (event == "view" and not dropped and rex.view is not None
                        and rex.view["turn"] == rex.seat and rex.state_id >= 3):
                    dropped.append(rex.state_id)
                    rex.drop()

            rex.listeners.append(pull_cable)
            await rex.connect(LOCAL, host.port)
            tasks.add(drive(rex, 1))
            ada = await seat(host, "Ada", tasks, bot_seed=2)
            try:
                await asyncio.wait_for(host.finished.wait(), 4)
            finally:
                assert dropped
            await all_agree(host, [rex, ada])

    run(main())


# --- resync ------------------------------------------------------------------------------


@pytest.mark.timeout(40)
def test_a_peer_that_misses_a_delta_asks_for_a_snapshot_once_and_ends_in_step() -> None:
    async def main() -> None:
        async with table(autostart=3, seed=9) as (host, tasks):
            def loses(rex: Peer, msg: Delta) -> bool:
                # lose one delta after which someone else moves (a later delta
                # then shows the gap; if Rex moved next, no one would send one)
                return (msg.state_id >= 3 and rex.view is not None
                        and delta.apply(rex.view, msg.ops)["turn"] not in (rex.seat, None))

            rex, lost = await lossy_rex(host, tasks, loses)
            others = [await seat(host, name, tasks, bot_seed=n)
                      for n, name in enumerate(("Ada", "Bo"), start=2)]
            await all_agree(host, [rex, *others])
            assert len(lost) == 1
            assert rex.resyncs == 1
            assert [p.resyncs for p in others] == [0, 0]
            session = host.session
            assert session is not None
            assert rex.state_id == session.state_id
            assert rex.view == session.view(rex.seat)

    run(main())


@pytest.mark.timeout(40)
def test_a_lost_delta_that_gave_the_peer_its_turn_is_noticed_by_the_heartbeat() -> None:
    """No later delta can reveal this loss (the game waits for the peer), so the
    host's ping carries its state_id and the peer resyncs from that."""

    async def main() -> None:
        async with table(autostart=2, seed=4, heartbeat=0.2) as (host, tasks):
            def loses(rex: Peer, msg: Delta) -> bool:
                return (rex.view is not None
                        and delta.apply(rex.view, msg.ops)["turn"] == rex.seat
                        and rex.view["turn"] != rex.seat)

            rex, lost = await lossy_rex(host, tasks, loses)
            other = await seat(host, "Ada", tasks, bot_seed=2)
            await all_agree(host, [rex, other])
            assert len(lost) == 1 and rex.resyncs >= 1
            session = host.session
            assert session is not None and rex.view == session.view(rex.seat)

    run(main())


# --- spectators and chat ---------------------------------------------------------------------


@pytest.mark.timeout(40)
def test_spectators_see_the_public_view_and_never_a_hand() -> None:
    async def main() -> None:
        async with table(autostart=2) as (host, tasks):
            early = await seat(host, "Early", tasks, spectate=True)
            assert early.seat is None and early.token is None
            hands: list[list[Any]] = []
            early.listeners.append(lambda e, _: e == "view" and hands.append(early.view["hand"]))
            bots = [await seat(host, f"Bot {n}", tasks, bot_seed=n) for n in (1, 2)]
            await bots[0].wait_until(lambda p: p.state_id >= 5, 10)
            late = await seat(host, "Late", tasks, spectate=True)
            assert late.seat is None
            await all_agree(host, [*bots, early, late])
            session = host.session
            assert session is not None
            public = session.view(None)
            assert early.view == public and late.view == public
            assert public["hand"] == [] and public["you"] is None
            assert len(hands) > 5 and all(h == [] for h in hands)
            assert host.room.spectators == 2 and len(host.room.seats) == 2
            await early.wait_until(lambda p: p.lobby is not None and p.lobby.spectators == 2, 5)

    run(main())


@pytest.mark.timeout(30)
def test_chat_is_relayed_to_everyone_with_the_senders_name() -> None:
    async def main() -> None:
        async with table() as (host, tasks):
            olga = await seat(host, "Olga", tasks, token=host.owner_token)
            pia = await seat(host, "Pia", tasks)
            watcher = await seat(host, "Watcher", tasks, spectate=True)
            everyone = [olga, pia, watcher]
            olga.say("  hello table  ")
            olga.say("   ")  # nothing to say: not relayed
            olga.send(Chat("I am the host", sender="Host", seat=3))  # the host fills these
            watcher.say("hi from the rail")
            pia.say("x" * 2000)
            for peer in everyone:
                await peer.wait_until(lambda p: len(p.chat) >= 4, 5)
            for peer in everyone:
                assert [(c.text, c.sender, c.seat) for c in peer.chat[:3]] == [
                    ("hello table", "Olga", 0), ("I am the host", "Olga", 0),
                    ("hi from the rail", "Watcher", None)]  # a watcher chats by name
                assert (peer.chat[3].sender, peer.chat[3].seat) == ("Pia", 1)
                assert 0 < len(peer.chat[3].text) <= 500

    run(main())


# --- the lobby ---------------------------------------------------------------------------------


def lobby_of(peer: Peer) -> list[tuple[str, bool, bool]]:
    assert peer.lobby is not None
    return [(s["name"], s["ready"], s["owner"]) for s in peer.lobby.seats]


async def refused(peer: Peer, command: str, **args: Any) -> str:
    return (await rejected(peer, lambda: peer.control(command, **args))).reason


@pytest.mark.timeout(60)
def test_the_lobby_seats_readiness_owner_controls_and_play_again() -> None:
    async def main() -> None:
        async with table(seed=11) as (host, tasks):
            olga = await seat(host, "Olga", tasks, token=host.owner_token)
            assert olga.owner and olga.seat == 0
            reason = await refused(olga, "start")
            assert reason.startswith("Alles klar? needs 2-5 players")
            pia = await seat(host, "Pia", tasks)
            assert not pia.owner and pia.seat == 1
            await olga.wait_until(lambda p: len(p.lobby.seats) == 2, 5)  # type: ignore
            assert lobby_of(olga) == [("Olga", False, True), ("Pia", False, False)]
            assert "Waiting for Olga and Pia to be ready" in await refused(olga, "start")

            assert olga.lobby is not None and olga.lobby.bots == "relaxed"  # by default
            assert "relaxed or strong" in await refused(olga, "bots", strength="unbeatable")
            assert "Only the player who opened" in await refused(pia, "bots", strength="strong")
            olga.control("bots", strength="strong")
            await pia.wait_until(lambda p: p.lobby is not None and p.lobby.bots == "strong", 5)
            olga.control("bots", strength="relaxed")
            await pia.wait_until(lambda p: p.lobby is not None and p.lobby.bots == "relaxed", 5)

            pia.control("ready")
            await olga.wait_until(lambda p: lobby_of(p)[1][1], 5)
            olga.control("add_bot")
            await olga.wait_until(lambda p: len(lobby_of(p)) == 3, 10)
            assert olga.lobby is not None
            assert olga.lobby.seats[2]["bot"] and olga.lobby.seats[2]["ready"]
            assert "Waiting for Olga to be ready" in await refused(olga, "start")

            olga.control("move_seat", seat=2, to=0)
            await pia.wait_until(lambda p: lobby_of(p)[0][0] == "Bot 1", 5)
            assert [s.name for s in host.room.seats] == ["Bot 1", "Olga", "Pia"]
            # each person still knows which seat is theirs
            await olga.wait_until(lambda p: p.seat == 1, 5)
            await pia.wait_until(lambda p: p.seat == 2, 5)

            olga.control("remove_seat", seat=2)
            await pia.wait_until(lambda p: p.closed_reason is not None, 5)
            assert "removed" in pia.closed_reason  # type: ignore[operator]
            await olga.wait_until(lambda p: len(lobby_of(p)) == 2, 5)
            with pytest.raises(JoinError) as caught:
                await Peer("Pia again", token=pia.token).connect(LOCAL, host.port)
            assert caught.value.code == "removed"
            assert [s.name for s in host.room.seats] == ["Bot 1", "Olga"]

            olga.control("ready")
            olga.control("start")
            await olga.wait_until(lambda p: p.view is not None, 5)
            first = host.session
            assert first is not None and host.room.phase == "playing"
            assert olga.seat == 1 and olga.view["you"] == 1  # type: ignore[index]
            await play_out(olga, random.Random(1))
            result = await all_agree(host, [olga])
            assert host.room.phase == "over" and host.games_played == 1

            # play again: the bot is ready by itself, Olga must say so again
            assert "Waiting for Olga to be ready" in await refused(olga, "start")
            olga.control("ready")
            olga.control("start")
            await olga.wait_until(lambda p: p.result is None and p.view is not None
                                  and p.lobby is not None and p.lobby.phase == "playing", 5)
            assert host.session is not first and host.room.phase == "playing"
            assert host.session is not None and host.session.seed != first.seed
            await play_out(olga, random.Random(2))
            await all_agree(host, [olga])
            assert len(host.results) == 2 and host.results[0].to_wire() == result

    run(main())


# --- heartbeats -------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_a_connection_that_goes_silent_is_dropped_and_a_live_one_is_kept() -> None:
    async def main() -> None:
        async with table(heartbeat=0.1, dead_after=0.5) as (host, tasks):
            olga = await seat(host, "Olga", tasks, token=host.owner_token)
            reader, writer = await asyncio.open_connection(LOCAL, host.port)
            writer.write(encode(Hello(PROTOCOL_VERSION, "Silent")))
            frames = FrameReader()
            seen: list[Message] = []
            started = time.monotonic()
            with contextlib.suppress(ConnectionError):
                async with asyncio.timeout(5):
                    while data := await reader.read(65536):
                        seen.extend(frames.feed(data))  # read, but never answer
            gone_after = time.monotonic() - started
            writer.close()
            assert isinstance(seen[0], Welcome) and seen[0].seat == 1
            assert sum(isinstance(m, Ping) for m in seen) >= 2
            assert 0.5 <= gone_after < 3, gone_after
            await olga.wait_until(lambda p: p.lobby is not None
                                  and not p.lobby.seats[1]["connected"], 5)
            assert olga.lobby is not None
            assert olga.lobby.problem == "Waiting for Silent to reconnect."
            # Olga answered every ping and is still there
            assert olga.link is not None and not olga.link.closed
            assert olga.closed_reason is None and host.room.seats[0].connected
            assert len(host.conns) == 1

    run(main())


@pytest.mark.timeout(30)
def test_a_player_who_says_goodbye_in_the_lobby_frees_the_seat_and_may_come_back() -> None:
    async def main() -> None:
        tasks = Tasks()
        async with hosting() as host:
            ada = await seat(host, "Ada", tasks)
            bo = await seat(host, "Bo", tasks)
            cy = await seat(host, "Cy", tasks)
            await bo.close("going home")
            await ada.wait_until(lambda p: p.lobby is not None
                                 and [s["name"] for s in p.lobby.seats] == ["Ada", "Cy"], 10)
            await cy.wait_until(lambda p: p.seat == 1, 10)  # Cy moved up a seat, and knows
            again = await seat(host, "Bo", tasks)  # not banned: a new seat at the end
            assert again.seat == 2
            await again.close("bye again")
            await ada.wait_until(lambda p: p.lobby is not None and len(p.lobby.seats) == 2, 10)
        await tasks.join()

    run(main())
