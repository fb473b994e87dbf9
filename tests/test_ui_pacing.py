"""One move at a time: views that arrive together are shown in turn, key moments hold.

The Pacer alone (with a table that states its own pace), the hold of a decided
Alles klar? trick on the real table, and a window over real TCP where two
instant bots answer a person's card at once and the table still shows their
moves one after the other.
"""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import QPointF
from pytestqt.qtbot import QtBot
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from lanplay.games.alles_klar import GAME
from lanplay.session import Session
from ui.services.pacing import HOLD_MS, MAX_QUEUE, Pacer, actor
from ui.tables.alles_klar import AllesKlarTable
from ui.tables.alles_klar.table import FLY_MS, TRICK_MS
from ui.tools.demos.alles_klar import demo_seats


class Stage:
    """A stand-in table: records what it was shown and when, states a fixed pace."""

    def __init__(self, motion: int, hold: int = 0) -> None:
        self.motion, self.hold = motion, hold
        self.shown: list[tuple[int, bool, float]] = []

    def show(self, view: dict[str, Any], animate: bool) -> None:
        self.shown.append((int(view["n"]), animate, time.monotonic()))

    def pace(self) -> tuple[int, int]:
        return self.motion, self.hold


def views(*ns: int) -> list[dict[str, Any]]:
    return [{"n": n, "log": []} for n in ns]


def test_views_that_arrive_together_are_shown_one_after_another(qtbot: QtBot) -> None:
    stage = Stage(motion=120)
    pacer = Pacer(stage.show, stage.pace)
    for view in views(1, 2, 3):
        pacer.push(view, animate=True)
    assert [n for n, _, _ in stage.shown] == [1], "the first at once, the others wait"
    assert pacer.busy and len(pacer.queue) == 2
    qtbot.waitUntil(lambda: len(stage.shown) == 3, timeout=3000)
    qtbot.waitUntil(lambda: not pacer.busy, timeout=3000)
    times = [t for _, _, t in stage.shown]
    assert [n for n, _, _ in stage.shown] == [1, 2, 3]
    assert all(animate for _, animate, _ in stage.shown), "each with its animation"
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= 0.11, f"each move had its animation's time on the table: {gaps}"


def test_a_snapshot_jumps_over_what_waits(qtbot: QtBot) -> None:
    stage = Stage(motion=400)
    pacer = Pacer(stage.show, stage.pace)
    for view in views(1, 2, 3):
        pacer.push(view, animate=True)
    pacer.push(views(9)[0], animate=False)
    assert [(n, animate) for n, animate, _ in stage.shown] == [(1, True), (9, False)]
    assert not pacer.busy and not pacer.queue


def test_a_long_backlog_jumps_to_the_newest_view(qtbot: QtBot) -> None:
    stage = Stage(motion=400)
    pacer = Pacer(stage.show, stage.pace)
    for view in views(*range(MAX_QUEUE + 2)):
        pacer.push(view, animate=True)
    assert stage.shown[-1][:2] == (MAX_QUEUE + 1, False)
    assert not pacer.queue


def test_a_hold_waits_for_bots_but_not_for_a_person(qtbot: QtBot) -> None:
    stage = Stage(motion=50, hold=HOLD_MS)
    pacer = Pacer(stage.show, stage.pace)
    pacer.push(views(1)[0], animate=True)
    pacer.push(views(2)[0], animate=True)  # a bot's move: waits out the hold
    start = time.monotonic()
    qtbot.waitUntil(lambda: len(stage.shown) == 2, timeout=4000)
    assert stage.shown[1][2] - start >= HOLD_MS / 1000 - 0.05
    pacer.push(views(3)[0], animate=True, person=True)  # a person's move: the hold ends
    start = time.monotonic()
    qtbot.waitUntil(lambda: len(stage.shown) == 3, timeout=4000)
    assert stage.shown[2][2] - start < 0.5
    pacer.push(views(4)[0], animate=True)
    pacer.hurry()  # the player here clicked
    qtbot.waitUntil(lambda: len(stage.shown) == 4, timeout=4000)
    assert stage.shown[3][2] - stage.shown[2][2] < 0.8


def test_the_end_waits_for_the_last_views(qtbot: QtBot) -> None:
    stage = Stage(motion=80)
    pacer = Pacer(stage.show, stage.pace)
    ended: list[int] = []
    for view in views(1, 2):
        pacer.push(view, animate=True)
    pacer.when_idle(lambda: ended.append(len(stage.shown)))
    assert not ended
    qtbot.waitUntil(lambda: bool(ended), timeout=3000)
    assert ended == [2], "the end screen comes after the last move was shown"


def test_the_actor_of_a_move_is_the_first_seat_of_its_first_new_log_line() -> None:
    before = {"log": [{"text": "{0} plays 3", "seats": [0]}]}
    after = {"log": [*before["log"], {"text": "{0} plays 9", "seats": [2]},
                     {"text": "{0} wins the trick", "seats": [1]}]}
    assert actor(before, after) == 2
    assert actor(after, after) is None
    assert actor(None, {"log": [{"text": "Shuffled", "seats": []}]}) is None


# --- the decided trick on the real table ---------------------------------------------------


def decided_trick(players: int = 3, seed: int = 4) -> tuple[dict[str, Any], dict[str, Any]]:
    """The views (seat 0) just before and at the first trick decided by a play."""
    session = Session(GAME, players, seed=seed)
    rng = random.Random(seed)
    before = session.view(0)
    for _ in range(200):
        seat = min(session.actors())
        session.submit(seat, GAME.bot(session.view(seat), seat, rng))
        now = session.view(0)
        if (now.get("last") or {}).get("result") == "won":
            return before, now
        before = now
    raise AssertionError("no trick was won")


def test_a_decided_trick_stays_on_the_table_before_it_flies_to_its_winner(
        qtbot: QtBot) -> None:
    table = AllesKlarTable()
    qtbot.addWidget(table)
    table.resize(1280, 800)
    table.show()
    qtbot.waitExposed(table)
    before, decided = decided_trick()
    seats = demo_seats(3)
    table.set_view(before, seats, 0)
    table.set_view(decided, seats, 0)
    motion, hold = table.pace()
    assert hold == HOLD_MS and motion == FLY_MS + HOLD_MS + TRICK_MS
    anim = table._anim
    assert anim is not None and table._ghosts
    winner = int(decided["last"]["winner"])
    goal = table.plates[winner].won_point()
    ghosts = [g for g in table._ghosts if hasattr(g, "card")]
    on_table = [QPointF(g.pos()) for g in ghosts]

    anim.setCurrentTime(FLY_MS + 50)  # early in the hold: the deciding card has landed
    landed = [QPointF(g.pos()) for g in ghosts]
    lay = table.layout_
    assert lay is not None
    # Where they lay, but for the player's own row, which made room for the new card.
    assert all((now - was).manhattanLength() < lay.card_w
               for now, was in zip(landed[:-1], on_table[:-1], strict=True))
    anim.setCurrentTime(FLY_MS + HOLD_MS - 100)  # late in the hold: still where it lay
    assert [QPointF(g.pos()) for g in ghosts] == landed
    assert all(g.scale() == 1.0 for g in ghosts), "the trick is read at full size"

    anim.setCurrentTime(FLY_MS + HOLD_MS + TRICK_MS - 1)  # the end: at the winner
    assert all(g.scale() < 0.4 for g in ghosts)
    assert all((g.pos() - goal).manhattanLength() < 80 for g in ghosts)


# --- a window over real TCP ------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_instant_bots_moves_are_shown_in_turn_in_the_window(aloop: Runner,  # noqa: F811
                                                            tmp_path: Path) -> None:
    """Ann plays a card; two instant bots answer at once (their deltas arrive
    together); the table shows one, then the other, each for its animation."""
    async def scenario() -> None:
        ann = window(tmp_path, unique("Pace"), pace=1.0)
        try:
            await ann.start()
            from ui.dialogs.host_dialog import HostDialog

            click(ann.home.host)
            dialog = ann.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("alles-klar")
            click(dialog.host)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 1, 15, ann)
            for _ in range(2):
                click(ann.room.add_bot_button)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 3, 15, ann)
            click(ann.room.ready_button)
            await until(lambda: ann.room.start_button.isEnabled(), 15, ann)
            shown: list[tuple[float, Any]] = []
            assert ann.party is not None
            show = ann.party._show_view

            def record(view: dict[str, Any], animate: bool) -> None:
                shown.append((time.monotonic(), view.get("turn")))
                show(view, animate)

            ann.pacer._show = record
            click(ann.room.start_button)
            table: Any = ann.game.table

            def my_turn() -> bool:
                return (ann.game.view is not None and ann.game.view.get("turn") == 0
                        and not ann.pacer.busy and any(i.lit for i in table.hand_items))

            for _ in range(1):  # Ann's card and the bots' answers
                await until(my_turn, 20, ann)
                mark = len(shown)
                item = next(i for i in table.hand_items if i.lit)
                click(table.graphics.viewport(),
                      table.graphics.mapFromScene(item.sceneBoundingRect().center()))
                if table.chooser.isVisible():
                    click(table.chooser.buttons[0])
                await until(lambda m=mark: len(shown) >= m + 3 and not ann.pacer.busy, 20,
                            ann)
                times = [t for t, _ in shown[mark:mark + 3]]
                gaps = [b - a for a, b in itertools.pairwise(times)]
                assert min(gaps) >= FLY_MS / 1000 * 0.9, \
                    f"the bots' moves came together but were shown in turn: {gaps}"
        finally:
            await close(ann)

    aloop(scenario(), 50)


def test_a_resolved_ranking_top_chain_stays_where_it_lay(qtbot: QtBot) -> None:
    """A top window with tops closes: its cards stay in the chain for the hold, then go."""
    from lanplay.games import load
    from ui.tables.ranking_top import RankingTopTable
    from ui.tools.demos.ranking_top import demo_seats as top_seats

    game = load("ranking-top")
    found = None
    for seed in range(1, 40):
        session = Session(game, 3, seed=seed)
        rng = random.Random(seed)
        before = session.view(0)
        for _ in range(400):
            if session.result is not None:
                break
            seat = min(session.actors())
            action = game.bot(session.view(seat), seat, rng)
            if action is None:
                break
            session.submit(seat, action)
            now = session.view(0)
            if (now.get("last") or {}).get("kind") == "close" and len(before["chain"]) > 1:
                found = (before, now)
                break
            before = now
        if found:
            break
    assert found is not None, "no chain with a top was resolved"
    before, now = found
    table = RankingTopTable()
    qtbot.addWidget(table)
    table.resize(1280, 800)
    table.show()
    qtbot.waitExposed(table)
    seats = top_seats(3)
    table.set_view(before, seats, 0, False)
    chain = {item.card_id: QPointF(item.pos()) for item in table.chain_items}
    table.set_view(now, seats, 0)
    motion, hold = table.pace()
    assert hold == HOLD_MS and motion >= HOLD_MS
    anim = table._anim
    assert anim is not None
    anim.setCurrentTime(HOLD_MS - 100)
    moved = {}
    for item in table.scene.items():
        card_id = getattr(item, "card_id", None)
        if card_id in chain:
            moved[card_id] = (item.pos() - chain[card_id]).manhattanLength()
    assert moved and max(moved.values()) < 1, f"the chain's cards moved during the hold: {moved}"


def test_a_held_fade_outlives_its_test_without_crashing_the_next_one(qtbot: QtBot) -> None:
    """The ranking-top hold fades plain text items: the fade sets their opacity itself
    (ui.tables.motion.Tween), so it runs on after the table is closed and its Python
    callers are gone without touching freed memory (a lambda on valueChanged was freed
    while the animation ran, and the next test's event loop crashed the process)."""
    import gc

    from PyQt6.QtWidgets import QGraphicsSimpleTextItem

    from ui.tables.motion import Tween

    item = QGraphicsSimpleTextItem("fading")
    seen: list[float] = []

    def step(value: float) -> None:
        seen.append(value)
        item.setOpacity(value)

    anim = Tween(step, None)
    anim.setDuration(150)
    anim.setStartValue(1.0)
    anim.setEndValue(0.0)
    anim.start()
    del step
    gc.collect()
    qtbot.waitUntil(lambda: anim.state() == anim.State.Stopped, timeout=3000)
    assert seen and seen[-1] == 0.0 and item.opacity() == 0.0
