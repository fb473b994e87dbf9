"""The core's machinery for the games still to come, proved with a toy game:
simultaneous secret choices, order-independent actions and host timers."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import toy_game

from lanplay import games
from lanplay.game import SYSTEM
from lanplay.host import Host, HostConfig
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from lanplay.session import Refusal, Session


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = games.Entry("toy", "Highest unique", (2, 4), ("standard",), "toy_game")
    monkeypatch.setattr(games, "CATALOGUE", (*games.CATALOGUE, entry))


def test_simultaneous_choices_are_order_independent_and_hidden() -> None:
    s = Session(toy_game.GAME, 3, seed=1)
    assert s.actors() == {0, 1, 2}
    s.submit(0, {"type": "pick", "n": 3}, state_id=0)
    # Seat 1 chose against state 0 too: not stale, because picks commute.
    s.submit(1, {"type": "pick", "n": 2}, state_id=0)
    assert s.view(1)["mine"] == 2
    assert s.view(2)["answered"] == [True, True, False]
    assert s.view(2)["mine"] is None
    assert "3" not in repr(s.view(2)["history"]) and s.view(None)["history"] == []
    s.submit(2, {"type": "pick", "n": 3}, state_id=1)
    assert s.view(None)["history"] == [[3, 2, 3]]
    assert s.view(None)["scores"] == [0, 1, 0]


def test_a_timer_is_an_action_the_test_applies_directly() -> None:
    s = Session(toy_game.GAME, 2, seed=1)
    timer = s.timer()
    assert timer is not None and timer.action == {"type": "timeout", "round": 0}
    s.submit(0, {"type": "pick", "n": 1})
    s.submit(SYSTEM, timer.action)
    assert s.view(0)["history"] == [[1, None]]
    with pytest.raises(Refusal) as exc:
        s.submit(SYSTEM, timer.action)  # the old round's timeout is stale now
    assert exc.value.code == "illegal"


def test_the_host_closes_a_window_when_a_seat_never_answers(toy: None) -> None:
    async def scenario() -> None:
        host = Host("toy", options={"window": 0.3},
                    config=HostConfig(bind="127.0.0.1", port=0, seed=3, autostart=2))
        port = await host.start()
        bot = Peer("Bot", bot=True)
        await bot.connect("127.0.0.1", port)
        silent = Peer("Sleepy")
        await silent.connect("127.0.0.1", port)
        silent_task = asyncio.create_task(silent.run())
        silent.control("ready", ready=True)
        bot_task = asyncio.create_task(drive(bot, seed=9))
        try:
            await asyncio.wait_for(host.finished.wait(), 10)
            await silent.wait_until(lambda p: p.result is not None, 5)
        finally:
            await host.stop()
            await asyncio.gather(bot_task, silent_task, return_exceptions=True)
        assert silent.view is not None
        history = silent.view["history"]
        assert len(history) == toy_game.ROUNDS
        assert all(round_[1] is None for round_ in history)  # the sleeper never picked
        assert all(round_[0] in (1, 2, 3) for round_ in history)
        assert silent.result is not None and silent.result["winners"] == [0]

    asyncio.run(scenario())


def test_every_peer_is_told_the_running_deadline_and_a_late_joiner_gets_what_is_left(
        toy: None) -> None:
    """G1: a window's countdown is on every laptop, also for one who joins mid-window."""
    from protocol.messages import Clock

    async def scenario() -> tuple[list[Clock | None], Clock | None, float]:
        host = Host("toy", options={"window": 5.0},
                    config=HostConfig(bind="127.0.0.1", port=0, seed=3, autostart=2))
        port = await host.start()
        one, two = Peer("One"), Peer("Two")
        clocks: list[Clock | None] = []
        one.listeners.append(lambda event, payload: clocks.append(payload)
                             if event == "clock" else None)
        tasks = []
        try:
            for peer in (one, two):
                await peer.connect("127.0.0.1", port)
                tasks.append(asyncio.create_task(peer.run()))
                peer.control("ready", ready=True)
            await one.wait_until(lambda p: p.clock is not None, 5)
            await asyncio.sleep(0.3)  # let the window run a little before the late joiner
            late = Peer("Late")
            await late.connect("127.0.0.1", port)
            tasks.append(asyncio.create_task(late.run()))
            await late.wait_until(lambda p: p.clock is not None, 5)
            late_left = late.clock_deadline - asyncio.get_running_loop().time()
            late_clock = late.clock
            one.intent({"type": "pick", "n": 1})
            two.intent({"type": "pick", "n": 2})
            # Both answered: the next round opens a new window with a new key.
            await one.wait_until(lambda p: len([c for c in clocks if c is not None]) >= 2, 5)
            return clocks, late_clock, late_left
        finally:
            await host.stop()
            await asyncio.gather(*tasks, return_exceptions=True)

    clocks, late_clock, late_left = asyncio.run(scenario())
    running = [c for c in clocks if c is not None]
    assert running[0].seconds == 5.0 and 4.0 < running[0].remaining <= 5.0
    assert running[1].key != running[0].key
    assert late_clock is not None and late_clock.key == running[0].key
    assert late_clock.remaining < 4.9 and 2.0 < late_left < 4.9


def test_what_every_viewer_shares_is_built_once_per_state_and_stays_out_of_the_state() -> None:
    """``per_state``: the log (and S-tier's board) of one state is the same object in
    every viewer's view, equal to one built afresh; the state's fields, equality,
    ``replace`` and its save never see the memo."""
    import dataclasses

    from lanplay import games
    from lanplay.store import saves
    from lanplay.tools import gamebench

    for case in (gamebench.Case("alles-klar", None, 4), gamebench.Case("s-tier", "team", 8)):
        game = games.load(case.game)
        seen: list[Any] = []
        gamebench.bot_actions(case, 2, lambda session, _, into=seen: into.append(
            session.state), limit=40)
        state = seen[-1]
        plain_before = saves.plain(state)
        views = [game.view(state, v) for v in (0, 1, None)]
        assert views[0]["log"] is views[1]["log"] is views[2]["log"]
        assert views[0]["log"] == [line.to_view() for line in state.log] != []
        assert "_log_view" in state.__dict__
        assert saves.plain(state) == plain_before
        assert dataclasses.replace(state) == state
        assert "_log_view" not in dataclasses.replace(state).__dict__
        assert game.view(seen[-2], 0)["log"] is not views[0]["log"]
