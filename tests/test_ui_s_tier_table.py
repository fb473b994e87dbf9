"""The S-tier table: clicks and drags become intents; views become a tier list.

Real widgets offscreen, real mouse events on the board and the buttons, and
views from the real rules (the pure mode modules driven to a moment, or a
seeded Session where the table plays one seat against bots to the end).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import QPoint, Qt
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from lanplay import games
from lanplay.peer.keeper import Laptops
from lanplay.session import Session
from ui.tables import table_for
from ui.tables.s_tier import STierTable
from ui.tables.s_tier.note import ONE_PER_TIER, SPREAD, NoteDraft
from ui.tools.demos.s_tier import MOMENTS, Game, coop_effects, demo_seats, viewers

GAME = games.load("s-tier")


@pytest.fixture
def table(qtbot: QtBot) -> STierTable:
    widget = STierTable()
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _record(table: STierTable) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    table.intent.connect(sent.append)
    return sent


def _at(table: STierTable, rect: Any) -> QPoint:
    return rect.center().toPoint()


def _click_tile(qtbot: QtBot, table: STierTable, picture: str) -> None:
    rect = table.board.tile_rect(picture)
    assert rect is not None, f"{picture} is not on the board"
    # Left of centre: the flip badge sits in the top-right corner.
    point = QPoint(int(rect.left() + rect.width() * 0.3), int(rect.center().y()))
    qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton, pos=point)


def _click_cell(qtbot: QtBot, table: STierTable, tier: int, lane: int = 0) -> None:
    rect = table.board.cell_rect(lane, tier)
    assert rect is not None
    point = QPoint(int(rect.right() - 20), int(rect.center().y()))
    qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton, pos=point)


def _click_button(qtbot: QtBot, table: STierTable, name: str) -> None:
    button = table.buttons[name]
    assert button.isEnabled(), f"{name} is disabled: {button.toolTip()}"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _drag(qtbot: QtBot, table: STierTable, picture: str, tier: int, lane: int = 0) -> None:
    start = table.board.tile_rect(picture)
    end = table.board.cell_rect(lane, tier)
    assert start is not None and end is not None
    a, b = _at(table, start), QPoint(int(end.right() - 30), int(end.center().y()))
    qtbot.mousePress(table.board, Qt.MouseButton.LeftButton, pos=a)
    for step in range(1, 6):
        QTest.mouseMove(table.board, a + (b - a) * step / 5)
    qtbot.mouseRelease(table.board, Qt.MouseButton.LeftButton, pos=b)


def _moment(name: str) -> tuple[Game, list[dict[str, Any]]]:
    _mode, players, build = MOMENTS[name]
    return build(), demo_seats(players)


def _leader_view(game: Game) -> tuple[int, dict[str, Any]]:
    seat = min(game.mod.actors(game.state))
    return seat, game.mod.view(game.state, seat)


# --- every mode and phase renders --------------------------------------------------

def test_table_for_names_the_s_tier_table() -> None:
    assert table_for("s-tier") is STierTable


@pytest.mark.parametrize("name", sorted(MOMENTS))
def test_every_mode_and_phase_renders_for_actor_waiter_and_spectator(
        qtbot: QtBot, table: STierTable, name: str) -> None:
    game, seats = _moment(name)
    for you in viewers(game.mod.view(game.state, None), game.players):
        view = game.mod.view(game.state, you)
        table.set_view(view, seats, you, animate=False)
        assert table.banner.text, name
        assert len(table.side.players.rows) == game.players
        if you is None:
            assert table.buttons == {} and table.board.model.movable() == []
        if view["over"]:
            assert table.banner.text.startswith(("Game over", "You won", "Lost"))
    assert len(table.log_panel.lines()) == len(game.mod.view(game.state, None)["log"])


def test_the_waiting_seat_sees_who_is_acting(qtbot: QtBot, table: STierTable) -> None:
    game, seats = _moment("coop-note")
    leader = game.state.leader
    other = next(s for s in range(game.players) if s != leader)
    table.set_view(game.mod.view(game.state, other), seats, other)
    assert table.banner.text == f"Waiting for {seats[leader]['name']} to write the note"
    assert "secret" in table.topic.text()
    assert table.buttons == {}


# --- the leader's note ---------------------------------------------------------------

def test_a_coop_note_built_by_clicks_emits_the_note(qtbot: QtBot, table: STierTable) -> None:
    game, seats = Game("cooperative", 4), demo_seats(4)
    seat, view = _leader_view(game)
    table.set_view(view, seats, seat)
    sent = _record(table)
    ids = [p["id"] for p in view["pictures"]]
    assert not table.buttons["submit"].isEnabled()
    for tier, pid in enumerate(reversed(ids)):
        _click_tile(qtbot, table, pid)
        _click_cell(qtbot, table, tier)
        if tier < 4:
            assert not table.buttons["submit"].isEnabled()
            assert "still below" in table.message.text()
    assert sent == []
    _click_button(qtbot, table, "submit")
    assert sent == [{"type": "note", "tiers": list(reversed(ids))}]
    GAME.check(game.state, seat, game.laptops.send(game.state, seat, sent[0]))


def test_a_drop_on_a_full_tier_swaps_in_the_note(qtbot: QtBot, table: STierTable) -> None:
    game = Game("cooperative", 3)
    seat, view = _leader_view(game)
    table.set_view(view, demo_seats(3), seat)
    a, b = view["pictures"][0]["id"], view["pictures"][1]["id"]
    _drag(qtbot, table, a, 0)
    _drag(qtbot, table, b, 1)
    _drag(qtbot, table, a, 1)
    panel = table.panel()
    assert panel is not None
    draft = panel.draft  # type: ignore[attr-defined]
    assert draft.shown(draft.card_of(a))[0] == a
    assert draft.in_tier(1) == [draft.card_of(a)] and draft.in_tier(0) == [draft.card_of(b)]


def test_choose_side_flips_a_card_and_place_one_needs_the_hint(
        qtbot: QtBot, table: STierTable) -> None:
    game = coop_effects(3)
    seat, view = _leader_view(game)
    assert len(view["cards"]) == 4
    table.set_view(view, demo_seats(3), seat)
    sent = _record(table)
    front, back = view["cards"][0][0], view["cards"][0][2]
    rect = table.board.tile_rect(front)
    assert rect is not None
    badge = QPoint(int(rect.right() - rect.height() * 0.12), int(rect.top() + rect.height() * 0.12))
    qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton, pos=badge)
    assert table.board.tile_rect(back) is not None and table.board.tile_rect(front) is None
    shown = [back] + [c[0] for c in view["cards"][1:]]
    for tier, pid in enumerate(shown):
        _click_tile(qtbot, table, pid)
        _click_cell(qtbot, table, tier)
    # Take four: D stays empty; place one: the hint must be chosen first.
    assert not table.buttons["submit"].isEnabled()
    assert "reveal" in table.message.text()
    assert not table.buttons["hint-D"].isEnabled()
    _click_button(qtbot, table, "hint-B")
    _click_button(qtbot, table, "submit")
    assert sent == [{"type": "note", "tiers": [*shown, None], "hint": 2}]
    GAME.check(game.state, seat, game.laptops.send(game.state, seat, sent[0]))


def test_a_competitive_note_needs_every_tier_and_at_most_two(
        qtbot: QtBot, table: STierTable) -> None:
    game = Game("competitive", 7)
    seat, view = _leader_view(game)
    ids = [p["id"] for p in view["pictures"]]
    assert len(ids) == 6
    table.set_view(view, demo_seats(7), seat)
    sent = _record(table)
    for pid in ids[:3]:
        _click_tile(qtbot, table, pid)
        _click_cell(qtbot, table, 0)
    for tier, pid in enumerate(ids[3:], start=1):
        _click_tile(qtbot, table, pid)
        _click_cell(qtbot, table, tier)
    assert not table.buttons["submit"].isEnabled()
    assert table.message.text() == "Tier S holds 3 pictures: at most 2 per tier."
    _click_tile(qtbot, table, ids[2])
    _click_cell(qtbot, table, 4)
    assert table.buttons["submit"].isEnabled()
    _click_button(qtbot, table, "submit")
    assert sent == [{"type": "note", "tiers": [0, 0, 4, 1, 2, 3]}]
    GAME.check(game.state, seat, game.laptops.send(game.state, seat, sent[0]))


def test_note_drafts_say_why_they_cannot_be_sent() -> None:
    one = NoteDraft(("k",), ONE_PER_TIER, [[("a", "A")], [("b", "B")]])
    assert "2 pictures" in one.problem()
    one.move("a", 0)
    one.move("b", 0)
    assert one.at == {1: 0} and "1 picture" in one.problem()
    spread = NoteDraft(("k",), SPREAD, [[(p, p)] for p in "abcde"])
    for i, p in enumerate("abcd"):
        spread.move(p, i)
    spread.move("e", 3)
    assert spread.problem() == "Tier D is empty: every tier needs a picture."
    spread.move("d", 3)
    spread.move("e", 4)
    assert spread.problem() == "" and spread.action() == {"type": "note",
                                                         "tiers": [0, 1, 2, 3, 4]}


# --- cooperative guessing -----------------------------------------------------------------

def _coop_guessing(players: int = 3) -> tuple[Game, int]:
    game = Game("cooperative", players)
    game.step()
    assert game.state.phase == "guess"
    return game, game.state.guessers[0]


def test_a_coop_drag_emits_move_and_lock_emits_lock(qtbot: QtBot, table: STierTable) -> None:
    game, me = _coop_guessing()
    view = game.mod.view(game.state, me)
    table.set_view(view, demo_seats(3), me)
    sent = _record(table)
    pid = view["pictures"][2]["id"]
    _drag(qtbot, table, pid, 3)
    assert sent == [{"type": "move", "picture": pid, "tier": 3}]
    assert not table.buttons["lock"].isEnabled()
    for tier, p in enumerate(view["pictures"]):
        game.state = game.mod.apply(game.state, me, {"type": "move", "picture": p["id"],
                                                     "tier": tier})
    table.set_view(game.mod.view(game.state, me), demo_seats(3), me)
    sent.clear()
    _click_tile(qtbot, table, view["pictures"][0]["id"])
    _click_cell(qtbot, table, 4)
    assert sent == [{"type": "move", "picture": view["pictures"][0]["id"], "tier": 4}]
    _click_button(qtbot, table, "lock")
    assert sent[-1] == {"type": "lock"}
    game.state = game.mod.apply(game.state, me, {"type": "lock"})
    table.set_view(game.mod.view(game.state, me), demo_seats(3), me)
    assert "unlock" in table.buttons and table.banner.text.startswith("You are locked in")
    _click_button(qtbot, table, "unlock")
    assert sent[-1] == {"type": "unlock"}


def test_a_picture_dropped_back_in_the_pool_moves_to_none(qtbot: QtBot,
                                                          table: STierTable) -> None:
    game, me = _coop_guessing()
    pid = game.mod.view(game.state, me)["pictures"][0]["id"]
    game.state = game.mod.apply(game.state, me, {"type": "move", "picture": pid, "tier": 0})
    table.set_view(game.mod.view(game.state, me), demo_seats(3), me)
    sent = _record(table)
    _click_tile(qtbot, table, pid)
    pool = table.board.pool_rect()
    qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton,
                     pos=QPoint(int(pool.left() + 10), int(pool.center().y())))
    assert sent == [{"type": "move", "picture": pid, "tier": None}]


# --- competitive placing --------------------------------------------------------------------

def test_a_click_on_a_tier_places_my_picture(qtbot: QtBot, table: STierTable) -> None:
    game = Game("competitive", 5)
    game.step()
    assert game.state.phase == "place"
    me = min(game.mod.actors(game.state))
    table.set_view(game.mod.view(game.state, me), demo_seats(5), me)
    sent = _record(table)
    assert table.banner.text.startswith("Place your picture")
    _click_cell(qtbot, table, 2)
    assert sent == [{"type": "place", "tier": 2}]
    game.state = game.mod.apply(game.state, me, sent[0])
    table.set_view(game.mod.view(game.state, me), demo_seats(5), me)
    assert table.board.model.movable() == []
    assert "Waiting for" in table.banner.text


# --- team ---------------------------------------------------------------------------------------

def _team_at(phase: str) -> Game:
    game = Game("team", 4)
    game.until(lambda s: s.phase == phase)
    assert game.state.phase == phase
    return game


def test_team_take_emits_take_on_my_side_only(qtbot: QtBot, table: STierTable) -> None:
    game = _team_at("take")
    me = min(game.mod.actors(game.state))
    view = game.mod.view(game.state, me)
    mine = me % 2
    table.set_view(view, demo_seats(4), me)
    sent = _record(table)
    pid = next(p["id"] for p in view["pictures"] if p["taken"] is None)
    _click_tile(qtbot, table, pid)
    _click_cell(qtbot, table, 1, lane=1 - mine)
    assert sent == []
    _click_cell(qtbot, table, 1, lane=mine)
    assert sent == [{"type": "take", "picture": pid, "tier": 1}]


def test_team_leader_says_wrong_or_silent_and_the_team_fixes(
        qtbot: QtBot, table: STierTable) -> None:
    game = _team_at("wrong")
    leader = min(game.mod.actors(game.state))
    view = game.mod.view(game.state, leader)
    table.set_view(view, demo_seats(4), leader)
    sent = _record(table)
    _click_button(qtbot, table, "silent")
    assert sent == [{"type": "silent"}]
    if table.buttons["wrong"].isEnabled():
        _click_button(qtbot, table, "wrong")
        assert sent[-1] == {"type": "wrong"}
    game = _team_at("fix")
    me = min(game.mod.actors(game.state))
    view = game.mod.view(game.state, me)
    table.set_view(view, demo_seats(4), me)
    sent = _record(table)
    pending = view["pending"]["picture"]
    now = next(p["tier"] for p in view["pictures"] if p["id"] == pending)
    _click_tile(qtbot, table, pending)
    _click_cell(qtbot, table, now, lane=view["pending"]["team"])
    assert sent == []
    target = (now + 1) % 5
    _drag(qtbot, table, pending, target, lane=view["pending"]["team"])
    assert sent == [{"type": "move", "picture": pending, "tier": target}]


# --- spectators and refusals ---------------------------------------------------------------------

def test_spectators_have_no_buttons_and_emit_nothing(qtbot: QtBot, table: STierTable) -> None:
    game, _me = _coop_guessing()
    view = game.mod.view(game.state, None)
    table.set_view(view, demo_seats(3), None)
    sent = _record(table)
    assert table.buttons == {}
    pid = view["pictures"][0]["id"]
    _drag(qtbot, table, pid, 0)
    _click_tile(qtbot, table, pid)
    _click_cell(qtbot, table, 1)
    assert sent == []


def test_show_rejection_shows_the_reason(qtbot: QtBot, table: STierTable) -> None:
    game, me = _coop_guessing()
    table.set_view(game.mod.view(game.state, me), demo_seats(3), me)
    table.show_rejection("That tier holds the leader's hint.")
    assert table.toast.isVisible() and table.toast.text() == "That tier holds the leader's hint."


# --- whole games through the table --------------------------------------------------------------

def _human_move(qtbot: QtBot, table: STierTable, view: dict[str, Any], me: int) -> None:
    """What a person does with the mouse on this view (one gesture or button)."""
    mode, phase = view["mode"], view["phase"]
    if phase in ("note", "notes"):
        pool = [t.id for t in table.board.model.pool]
        if pool:
            draft = table.panel().draft  # type: ignore[union-attr]
            used = {t for t in draft.at.values()}
            if mode == "competitive":
                counts = [sum(1 for t in draft.at.values() if t == k) for k in range(5)]
                tier = min(range(5), key=lambda k: (counts[k], k))
            else:
                tier = next(k for k in range(5) if k not in used)
            _click_tile(qtbot, table, pool[0])
            _click_cell(qtbot, table, tier)
            return
        hints = [n for n, b in table.buttons.items() if n.startswith("hint") and b.isEnabled()]
        if hints and not table.buttons["submit"].isEnabled():
            _click_button(qtbot, table, hints[0])
        _click_button(qtbot, table, "submit")
    elif mode == "cooperative":
        pool = [t.id for t in table.board.model.pool]
        if pool:
            free = [t for t, p in enumerate(view["board"]) if p is None and
                    (view["hint"] or {}).get("tier") != t]
            _drag(qtbot, table, pool[0], free[0])
        else:
            _click_button(qtbot, table, "lock")
    elif mode == "competitive":
        _click_cell(qtbot, table, 4)
    elif phase == "take":
        pool = [t.id for t in table.board.model.movable()]
        _click_tile(qtbot, table, pool[0])
        _click_cell(qtbot, table, 0, lane=me % 2)
    elif phase == "wrong":
        _click_button(qtbot, table, "wrong" if table.buttons["wrong"].isEnabled() else "silent")
    elif phase == "fix":
        tile = table.board.model.movable()[0]
        now = next(p["tier"] for p in view["pictures"] if p["id"] == tile.id)
        _click_tile(qtbot, table, tile.id)
        _click_cell(qtbot, table, (now + 2) % 5, lane=me % 2)


@pytest.mark.parametrize(("mode", "players", "options"), [
    ("cooperative", 3, {"coop_track": 3, "text_side": True}),
    ("competitive", 4, {}),
    ("team", 4, {"team_track": 3}),
])
def test_a_whole_game_played_through_the_table(qtbot: QtBot, table: STierTable, mode: str,
                                               players: int, options: dict[str, Any]) -> None:
    session = Session(GAME, players, mode=mode, options=options, seed=11)
    seats = demo_seats(players)
    me = 0
    rng = random.Random(5)
    sent = _record(table)
    gestures = reveals = 0
    laptops = Laptops(GAME, random.Random(3))  # each seat's: a note stays on its own
    for _ in range(3000):
        if session.result is not None:
            break
        owed = laptops.due(session.state)
        if owed is not None:
            session.submit(*owed)
            continue
        actors = sorted(session.actors())
        mine = laptops.shown(session.state, me)
        waiting = mine["phase"] == "guess" and me in mine["locked"]
        if me in actors and not waiting:
            view = mine
            table.set_view(view, seats, me)
            if table.revealing:  # the reveal lies on the board: a click goes on
                reveals += 1
                qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton)
                assert not table.revealing
            before = len(sent)
            _human_move(qtbot, table, view, me)
            gestures += 1
            if len(sent) > before:
                session.submit(me, laptops.send(session.state, me, sent[-1]))
            continue
        bots = [s for s in actors if s != me]
        moves = [(s, GAME.bot(laptops.shown(session.state, s), s, rng)) for s in bots]
        seat, action = next((s, a) for s, a in moves if a is not None)
        session.submit(seat, laptops.send(session.state, seat, action))
    assert session.result is not None, f"{mode} did not finish"
    assert any(a["type"] == "note" for a in sent) and gestures > 5
    assert reveals > 0, "every reveal lay on the board before the next round"
    final = session.view(me)
    table.set_view(final, seats, me)
    if table.revealing:  # the last round's reveal first, then the end
        assert table.banner.text.startswith("The reveal")
        qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton)
    assert table.buttons == {} or not any(b.isEnabled() for b in table.buttons.values())
    assert table.banner.text.startswith(("Game over", "You won", "Lost"))


def test_the_competitive_reveal_shows_each_holder_right_or_wrong(
        qtbot: QtBot, table: STierTable) -> None:
    game, seats = _moment("comp-over")
    me = 0
    for view in game.trail(me):
        table.set_view(view, seats, me, animate=False)
    last = game.mod.view(game.state, me)["last"]
    marks = {t.caption.split(" ")[0]: t.mark for cell in table.board.model.cells.values()
             for t in cell if t.mark}
    right = {seats[s]["name"] for s in last["correct"]}
    assert marks and {name for name, mark in marks.items() if mark == "right"} == right
    notes = {t.id: tier for (_, tier), cell in table.board.model.cells.items() for t in cell}
    ids = [p["id"] for p in game.mod.view(game.state, me)["pictures"]]
    assert [notes[pid] for pid in ids] == last["note"]


def _fresh_after_reveal(mode: str, players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The spectator's view just after round 1's reveal, and nothing before it."""
    game = Game(mode, players)
    game.until(lambda s: s.round == 2)
    assert game.state.round == 2 and game.state.last["kind"] == "reveal"
    return game.mod.view(game.state, None), demo_seats(players)


def _tiles(table: STierTable) -> dict[str, tuple[tuple[int, int], Any]]:
    return {t.id: (cell, t) for cell, tiles in table.board.model.cells.items() for t in tiles}


def test_a_fresh_table_draws_the_whole_competitive_reveal_from_last(
        qtbot: QtBot, table: STierTable) -> None:
    view, seats = _fresh_after_reveal("competitive", 6)
    table.set_view(view, seats, None, animate=False)
    last = view["last"]
    tiles = _tiles(table)
    assert set(tiles) == {p["id"] for p in last["pictures"]}
    holders = {pid: seat for seat, pid in enumerate(last["dealt"]) if pid is not None}
    assert len(holders) == 5
    for pic, tier in zip(last["pictures"], last["note"], strict=True):
        (lane, at), t = tiles[pic["id"]]
        assert (lane, at) == (0, tier) and t.name == pic["name"]
        seat = holders.get(pic["id"])
        if seat is None:
            assert t.caption == "extra" and not t.mark
        else:
            assert t.caption.startswith(seats[seat]["name"])
            assert t.mark == ("right" if seat in last["correct"] else "wrong")
    assert {t.mark for _, t in tiles.values()} >= {"right", "wrong"}


def test_a_fresh_table_draws_the_whole_team_reveal_from_last(
        qtbot: QtBot, table: STierTable) -> None:
    view, seats = _fresh_after_reveal("team", 6)
    table.set_view(view, seats, None, animate=False)
    last = view["last"]
    tiles = _tiles(table)
    assert len(last["pictures"]) == 10 and set(tiles) == {p["id"] for p in last["pictures"]}
    for pic in last["pictures"]:
        (lane, tier), t = tiles[pic["id"]]
        assert (lane, tier) == (pic["taken"], pic["tier"]) and t.name == pic["name"]
        assert t.mark == ("right" if pic["id"] in last["correct"][pic["taken"]] else "wrong")
    assert {lane for lane, _ in (cell for cell, _ in tiles.values())} == {0, 1}
    assert {t.mark for _, t in tiles.values()} >= {"right", "wrong"}


def test_a_move_glides_and_a_resync_jumps(qtbot: QtBot, table: STierTable) -> None:
    game, me = _coop_guessing()
    view = game.mod.view(game.state, me)
    table.set_view(view, demo_seats(3), me)
    pid = view["pictures"][0]["id"]
    game.state = game.mod.apply(game.state, me, {"type": "move", "picture": pid, "tier": 2})
    table.set_view(game.mod.view(game.state, me), demo_seats(3), me, animate=True)
    assert table.board.animating
    qtbot.waitUntil(lambda: not table.board.animating, timeout=2000)
    game.state = game.mod.apply(game.state, me, {"type": "move", "picture": pid, "tier": 4})
    table.set_view(game.mod.view(game.state, me), demo_seats(3), me, animate=False)
    assert not table.board.animating
    rect, cell = table.board.tile_rect(pid), table.board.cell_rect(0, 4)
    assert rect is not None and cell is not None and cell.contains(rect.center())


@pytest.mark.parametrize(("mode", "players"), [("competitive", 5), ("cooperative", 3),
                                               ("team", 4)])
def test_a_reveal_lies_on_the_board_before_the_next_round(
        qtbot: QtBot, table: STierTable, mode: str, players: int) -> None:
    """Even the next round's leader, whose view goes straight to writing a note,
    first sees the note just revealed on the tier list with right and wrong marked;
    a click on the board (or the hold running out) goes on to the next round."""
    from ui.tables.s_tier.table import REVEAL_MS
    from ui.tools.demos.s_tier import Game

    game = Game(mode, players)
    game.until(lambda s: s.round == 2)
    assert game.state.last["kind"] == "reveal"
    leaders = getattr(game.state, "leaders", None)
    me = int(leaders[0]) if leaders is not None else int(game.state.leader)
    seats = demo_seats(players)
    before, after = (game.mod.view(s, me) for s in game.states[-2:])
    table.set_view(before, seats, me, animate=False)
    table.set_view(after, seats, me)
    assert table.revealing and table.pace()[1] == REVEAL_MS
    assert table.banner.text.startswith("The reveal"), table.banner.text
    marks = [t.mark for cell in table.board.model.cells.values() for t in cell]
    marked = [m for m in marks if m]
    assert marked and set(marked) <= {"right", "wrong"}
    if mode == "competitive":  # every guesser's picture marked; the extras not
        assert len(marked) == players - 1 and len(marks) == len(after["pictures"])
    assert not any(b.isVisible() for b in table.buttons.values()), "nothing to press yet"
    qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton)
    assert not table.revealing and not table.banner.text.startswith("The reveal")
    if mode == "competitive":
        assert table.banner.text.startswith("Your note"), table.banner.text


def test_the_cooperative_reveal_shows_the_note_beside_the_groups_board() -> None:
    """Every secret-then-reveal moment shows both sides: the reveal showed the leader's
    note with right and wrong marks, but not where the group had put each picture."""
    from ui.tables.s_tier.coop import CoopPanel

    game = MOMENTS["coop-reveal"][2]()
    last = dict(game.views()[0]["last"])
    panel = CoopPanel(lambda action: None, lambda: None)
    board = panel.reveal_board(last)
    assert len(board.lanes) == 2
    for tier in range(5):
        note, ours = board.cells[(0, tier)][0], board.cells[(1, tier)][0]
        assert note.id == last["note"][tier]
        assert (ours.picture or ours.id) == last["board"][tier]
        right = last["note"][tier] == last["board"][tier]
        assert note.mark == ours.mark == ("right" if right else "wrong")
    ids = [t.id for t in board.tiles()]
    assert len(ids) == len(set(ids))  # one picture twice is two tiles


def test_the_untaken_pictures_stay_put_when_one_is_taken(table: STierTable) -> None:
    """The untaken row re-centred after each take: the picture the pointer was on slid
    away. A taken picture now leaves a gap; the others keep their places."""
    game = MOMENTS["team-take"][2]()
    seats = demo_seats(game.players)

    def pool_places() -> dict[str, Any]:
        pool = {t.id for t in table.board.model.pool}
        return {pid: rect for pid, rect in table.board.geo.tiles.items() if pid in pool}

    table.set_view(game.view(game.state, 0), seats, 0, animate=False)
    before = pool_places()
    takes = sum(1 for t in game.state.takers if t is not None)
    while sum(1 for t in game.state.takers if t is not None) == takes:
        game.step()
    table.set_view(game.view(game.state, 0), seats, 0, animate=False)
    after = pool_places()
    assert len(after) == len(before) - 1
    assert all(after[pid] == before[pid] for pid in after)


# --- issue 31: the last banner says who won as the end screen does -------------------


def test_the_last_banner_says_a_draw_and_gilds_no_one(qtbot: QtBot, table: STierTable) -> None:
    """Four players ended at 0 each: every seat read "share the win", in gold."""
    game = Game("competitive", 4, seed=12)  # seeded: no placement is ever right
    game.until(lambda s: False)
    assert game.mod.result(game.state).scores == (0.0,) * 4
    for you in (0, 3, None):
        for view in game.trail(you):
            table.set_view(view, demo_seats(4), you, animate=False)
        if table.revealing:
            qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton)
        assert table.banner.text == "Game over: a draw, everyone has 0 pictures"
        assert not table.banner.turn.accent


def test_a_won_cooperative_game_tells_a_watcher_the_table_won(
        qtbot: QtBot, table: STierTable) -> None:
    from test_s_tier_coop import IDENTITY, guess, start, write

    state = guess(write(guess(write(start(players=3)), IDENTITY)), IDENTITY)
    assert GAME.result(state).detail["outcome"] == "victory"
    seats = demo_seats(3)
    table.set_view(GAME.view(state, None), seats, None, animate=False)
    if table.revealing:
        qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton)
    assert table.banner.text == "The table won: the green token reached the star!"
    assert not table.banner.turn.accent  # a watcher did not win
    table.set_view(GAME.view(state, 1), seats, 1, animate=False)
    if table.revealing:
        qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton)
    assert table.banner.text == "You won: the green token reached the star!"
    assert table.banner.turn.accent



@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_the_pools_captions_stay_on_the_board_at_a_small_screen(
        qapp: QApplication, tmp_path: Path, lang: str) -> None:
    """S-tier team's 'Wrong' step (six players) in a 1024x640 screen's window (1000x592;
    offscreen the check drew it 8 px taller and saw nothing): two lines of name under each
    untaken picture left no height for "Ada's" / "Ben's" under them, drawn past the
    board's foot and cut in half, in English, German and Spanish. The disc on each tile
    says whose: there the caption gives way."""
    from window_screens import named, screen_problems

    found = screen_problems(qapp, tmp_path, named("s-tier-team-wrong"), lang=lang)
    assert found == {"s-tier-team-wrong": []}, found


@pytest.mark.parametrize("lang", ["es", "de", "en"])
def test_a_small_pool_picture_is_not_hidden_under_its_key_cap(
        qapp: QApplication, tmp_path: Path, lang: str) -> None:
    """S-tier team's pool in a 1024x640 screen's window in Spanish: two lines of name
    under each untaken picture left it about 25 px, and the key cap on its lower right
    (with the owner's disc on its upper left) hid it; a person saw "1 Dodo", "2 Alieni-
    gena" and no pictures. Where the tile is wider than its picture, the cap now stands
    beside it."""
    from window_screens import drawn, named

    with drawn(qapp, tmp_path, named("s-tier-team"), lang=lang) as (window, _fit):
        table = window.game.table
        assert isinstance(table, STierTable)
        board = table.board
        assert board.geo is not None
        checked = 0
        for tile in board.model.pool:
            rect = board.geo.tiles.get(tile.id)
            cap = board.key_rect(tile.id)
            if rect is None or cap is None or not tile.movable:
                continue
            shown = board.picture_box(tile.id, rect)
            if rect.width() - shown.width() < 2 * cap.width():
                continue  # a tile no wider than its picture: the cap has no room beside it
            checked += 1
            covered = cap.intersected(shown)
            assert covered.width() * covered.height() < 0.1 * shown.width() * shown.height(), \
                f"{tile.name}: its key cap {cap} covers its picture {shown}"
        assert checked, "no pool tile wider than its picture to check"


@pytest.mark.parametrize("lang", ["de", "en", "es"])
def test_a_full_pools_discs_stand_on_the_caption_line_not_on_the_pictures(
        qapp: QApplication, tmp_path: Path, lang: str) -> None:
    """S-tier team at a round's first take, all ten pictures in the pool (the fit check
    never drew a full pool): each picture had its leader's disc on one corner and its
    key cap on the other, and little of the picture was left ("Axt", "Lama"), while the
    caption under it already said whose ("Ada"). The disc now stands on the caption
    line ("A Ada"), for every tile or, where one has no room there (Spanish "de Ada"
    under a narrow tile), for none. (A 1024x640 screen's window has no caption line:
    the disc is all that says whose there, and it stays on the picture.)"""
    from window_screens import drawn, named

    with drawn(qapp, tmp_path, named("s-tier-team-start"), size=(1280, 760),
               lang=lang) as (window, _fit):
        table = window.game.table
        assert isinstance(table, STierTable)
        board = table.board
        geo = board.geo
        assert geo is not None and len(board.model.pool) == 10
        px = board.text_px()
        discs = {t.id: board.caption_disc(t, geo.tiles[t.id], px)
                 for t in board.model.pool}
        placed = [d for d in discs.values() if d is not None]
        assert len(placed) in (0, 10), discs  # all on the caption line, or none
        if lang != "es":
            assert len(placed) == 10, discs
        for tile in board.model.pool:
            disc = discs[tile.id]
            if disc is None:
                continue
            rect = geo.tiles[tile.id]
            assert disc.top() >= rect.bottom(), (tile.name, disc, rect)  # under the tile
            assert not disc.intersects(board.picture_box(tile.id, rect)), tile.name
