"""The Ranking table: clicks become intents; views become a tower.

Real widgets offscreen, real clicks through the view's viewport. Views come
from the real rules (``rules.build`` scenarios, a seeded Session) and, for
moments a game does not stop at on its own, from ``ranking.demo.sample_view``.
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest
from PyQt6.QtCore import QPoint, Qt
from PyQt6.QtWidgets import QGraphicsSimpleTextItem
from pytestqt.qtbot import QtBot

from lanplay.games.ranking import GAME
from lanplay.games.ranking.rules import build
from lanplay.session import Session
from ui.tables import table_for
from ui.tables.ranking import RankingTable
from ui.tables.ranking.items import TileItem
from ui.tables.ranking.layout import track_position
from ui.tables.ranking.tower_items import RoofItem, ShelfItem
from ui.tools.demos.ranking import MOMENTS, demo_seats, sample_view

SEATS = demo_seats(4, bots=2)


@pytest.fixture
def table(qtbot: QtBot) -> RankingTable:
    widget = RankingTable()
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _record(table: RankingTable) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    table.intent.connect(sent.append)
    return sent


def _point(table: RankingTable, item: TileItem) -> QPoint:
    return table.graphics.mapFromScene(item.mapToScene(item.picture_rect().center()))


def _click(qtbot: QtBot, table: RankingTable, item: TileItem) -> None:
    qtbot.mouseClick(table.graphics.viewport(), Qt.MouseButton.LeftButton,
                     pos=_point(table, item))


def _compare_view(seat: int | None = 0) -> dict[str, Any]:
    """Seat 0 to compare: p0..p2 on floor 3, p3 and p4 on 4, p5 on 2, p6 on 3."""
    state = build([3, 3, 3, 4, 4, 2, 3], [0, 1, 2, 3, None, None, None], current=0)
    return GAME.view(state, seat)


def test_table_for_names_the_ranking_table() -> None:
    assert table_for("ranking") is RankingTable


def test_the_track_goes_up_to_the_roof_then_down_and_out() -> None:
    assert track_position(0) == (0, True)
    assert track_position(6) == (6, True)
    assert track_position(7) == (7, False)  # turned on the roof: points down
    assert track_position(8) == (6, False)
    assert track_position(14) == (0, False)
    assert track_position(15) == (None, False)


def test_a_stone_on_the_roof_is_drawn_pointing_down(table: RankingTable) -> None:
    # Mia reached the roof (7), Ben came back down to 6 (8), Ada climbs on 6.
    view = {**sample_view("compare", 0), "scores": [7, 8, 6, 0]}
    table.set_view(view, SEATS, 0, animate=False)
    items = table.scene.items()
    roof = next(i for i in items if isinstance(i, RoofItem))
    six = next(i for i in items if isinstance(i, ShelfItem) and i.floor == 6)
    assert [(m.letter, up) for m, up in roof.stones] == [("M", False)]
    assert sorted((m.letter, up) for m, up in six.stones) == [("A", True), ("B", False)]


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("you", [0, None])
def test_every_phase_renders(table: RankingTable, moment: str, you: int | None) -> None:
    view = sample_view(moment, you)
    table.set_view(view, SEATS, you, animate=False)
    assert table.banner.text
    assert len(table.plates) == 4
    shown = view["row"] or view["previous_row"]
    assert len(table.tiles) == len(shown)
    assert table.grab().width() == 1280


def test_clicking_a_hand_tile_places_it(qtbot: QtBot, table: RankingTable) -> None:
    view = sample_view("place", 0)
    table.set_view(view, SEATS, 0)
    sent = _record(table)
    assert table.banner.text.startswith("Your move")
    assert len(table.hand_items) == 6 and all(item.lit for item in table.hand_items)
    _click(qtbot, table, table.hand_items[2])
    assert sent == [{"type": "place", "tile": view["hand"][2]["id"]}]
    _click(qtbot, table, table.hand_items[3])
    assert len(sent) == 1, "one tile per round: the table waits for the host's answer"


def test_after_placing_the_table_says_what_we_wait_for(table: RankingTable) -> None:
    table.set_view(sample_view("placed", 0), SEATS, 0)
    assert table.banner.text == "Placed face down: waiting for Ben and Jonas"
    assert len(table.hand_items) == 5 and not any(item.lit for item in table.hand_items)


def test_two_tiles_on_one_floor_make_a_comparison(qtbot: QtBot, table: RankingTable) -> None:
    table.set_view(_compare_view(), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, table.tiles[0])
    assert table.first == 0
    lit = sorted(slot for slot, item in table.tiles.items() if item.lit)
    assert lit == [1, 2, 6], "only the partners on floor 3 light"
    _click(qtbot, table, table.tiles[2])
    assert table.chooser.isVisible() and sent == []
    labels = [b.text() for b in table.chooser.buttons]
    assert labels == ["P0 up (1)", "P2 up (2)", "Cancel (Esc)"]
    qtbot.mouseClick(table.chooser.buttons[1], Qt.MouseButton.LeftButton)
    assert sent == [{"type": "compare", "up": 2, "down": 0}]
    state = build([3, 3, 3, 4, 4, 2, 3], [0, 1, 2, 3, None, None, None], current=0)
    GAME.check(state, 0, sent[0])


def test_the_first_button_pushes_the_left_tile_up(qtbot: QtBot, table: RankingTable) -> None:
    table.set_view(_compare_view(), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, table.tiles[4])
    _click(qtbot, table, table.tiles[3])
    qtbot.mouseClick(table.chooser.buttons[0], Qt.MouseButton.LeftButton)
    assert sent == [{"type": "compare", "up": 3, "down": 4}]


def test_tiles_on_different_floors_cannot_be_paired(qtbot: QtBot,
                                                    table: RankingTable) -> None:
    table.set_view(_compare_view(), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, table.tiles[0])
    _click(qtbot, table, table.tiles[3])
    assert sent == [] and not table.chooser.isVisible()
    assert table.toast.isVisible() and "same floor" not in table.toast.text()
    assert "one floor" in table.toast.text() and "floor 4" in table.toast.text()
    assert table.first == 0, "the first pick stays; a partner on its floor still works"


def test_a_lonely_tile_explains_why_it_cannot_be_compared(qtbot: QtBot,
                                                          table: RankingTable) -> None:
    table.set_view(_compare_view(), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, table.tiles[5])
    assert sent == [] and table.first is None
    assert "alone on floor 2" in table.toast.text()


def test_cancel_and_escape_start_the_comparison_over(qtbot: QtBot,
                                                     table: RankingTable) -> None:
    table.set_view(_compare_view(), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, table.tiles[0])
    _click(qtbot, table, table.tiles[1])
    qtbot.mouseClick(table.chooser.buttons[-1], Qt.MouseButton.LeftButton)
    assert sent == [] and table.first is None and not table.chooser.isVisible()
    _click(qtbot, table, table.tiles[0])
    qtbot.keyClick(table, Qt.Key.Key_Escape)
    assert table.first is None


def test_others_tiles_are_not_clickable_when_someone_else_compares(
        qtbot: QtBot, table: RankingTable) -> None:
    table.set_view(_compare_view(seat=1), SEATS, 1)
    sent = _record(table)
    assert table.banner.text == "Waiting for Mia to compare two tiles"
    for item in table.tiles.values():
        _click(qtbot, table, item)
    assert sent == [] and table.first is None


def test_a_guess_click_sends_the_slot(qtbot: QtBot, table: RankingTable) -> None:
    view = sample_view("guess", 0)
    table.set_view(view, SEATS, 0)
    sent = _record(table)
    assert table.banner.text == "Guess which tile is Ben's: click a tile, or Pass"
    assert table.pass_button.isVisible()
    _click(qtbot, table, table.tiles[4])
    assert sent == [{"type": "guess", "slot": 4, "step": view["step"]}]


def test_pass_sends_pass(qtbot: QtBot, table: RankingTable) -> None:
    view = sample_view("guess", 0)
    table.set_view(view, SEATS, 0)
    sent = _record(table)
    qtbot.mouseClick(table.pass_button, Qt.MouseButton.LeftButton)
    assert sent == [{"type": "pass", "step": view["step"]}]


def test_my_pending_guess_shows_on_its_tile(table: RankingTable) -> None:
    view = sample_view("guess", 0)
    view["guess"] = 3
    view["answered"] = [True, False, False, False]
    table.set_view(view, SEATS, 0)
    assert table.tiles[3].pending is not None
    assert not table.pass_button.isVisible()
    assert table.banner.text.startswith("Answered: waiting for")


@pytest.mark.parametrize("moment", ["place", "compare", "guess"])
def test_a_spectator_has_no_actions(qtbot: QtBot, table: RankingTable, moment: str) -> None:
    view = sample_view(moment, None)
    table.set_view(view, SEATS, None)
    sent = _record(table)
    assert table.hand_items == [] and not table.pass_button.isVisible()
    for item in table.tiles.values():
        _click(qtbot, table, item)
    assert sent == []
    assert not any(item.lit for item in table.tiles.values())


def test_the_reveal_shows_owners_and_points(table: RankingTable) -> None:
    table.set_view(sample_view("reveal", 0), SEATS, 0)
    owned = {slot: item for slot, item in table.tiles.items() if item.owner is not None}
    assert sorted(owned) == [0, 1, 2, 4]
    assert owned[0].gain == 6 - 2, "floor 6 minus Ben's two stones in his own colour"
    assert owned[1].gain == 4
    assert table.tiles[3].supply
    assert table.plates[1].info.gain == 4


def test_a_comparison_animates_and_a_resync_jumps(qtbot: QtBot, table: RankingTable) -> None:
    state = build([3, 3, 3, 4, 4, 2, 3], [0, 1, 2, 3, None, None, None], current=0)
    before = GAME.view(state, 1)
    table.set_view(before, SEATS, 1)
    start = table.tiles[0].pos()
    after_state = GAME.apply(state, 0, {"type": "compare", "up": 0, "down": 1})
    table.set_view(GAME.view(after_state, 1), SEATS, 1)
    assert table.animating
    moving = table.tiles[0]
    qtbot.waitUntil(lambda: not table.animating, timeout=2000)
    assert moving.pos() != start
    table.set_view(GAME.view(after_state, 2), SEATS, 2, animate=False)
    assert not table.animating


def test_show_rejection_shows_the_reason_and_unlocks(qtbot: QtBot,
                                                     table: RankingTable) -> None:
    table.set_view(sample_view("place", 0), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, table.hand_items[0])
    table.show_rejection("That tile is not in your hand.")
    assert table.toast.isVisible() and table.toast.text() == "That tile is not in your hand."
    _click(qtbot, table, table.hand_items[1])
    assert len(sent) == 2


def test_the_log_uses_names(table: RankingTable) -> None:
    table.set_view(sample_view("compare", 0), SEATS, 0)
    assert "Ben compared Octopus (up) with Salad (down)." in table.log_panel.lines()


def _act_through_table(qtbot: QtBot, table: RankingTable, view: dict[str, Any],
                       rng: random.Random) -> None:
    """Seat 0 plays by mouse: a hand tile, a pair on one floor, a guess or a pass."""
    phase = view["phase"]
    if phase == "place":
        _click(qtbot, table, rng.choice(table.hand_items))
    elif phase == "compare":
        floors: dict[int, list[TileItem]] = {}
        for item in table.tiles.values():
            if item.floor is not None and 1 <= item.floor <= 5:
                floors.setdefault(item.floor, []).append(item)
        pairs = [group for group in floors.values() if len(group) >= 2]
        first, second = rng.sample(rng.choice(pairs), 2)
        _click(qtbot, table, first)
        _click(qtbot, table, second)
        qtbot.mouseClick(table.chooser.buttons[rng.randrange(2)], Qt.MouseButton.LeftButton)
    elif phase == "guess":
        if rng.random() < 0.3:
            qtbot.mouseClick(table.pass_button, Qt.MouseButton.LeftButton)
        else:
            _click(qtbot, table, rng.choice(list(table.tiles.values())))


def test_a_whole_three_player_game_through_the_table(qtbot: QtBot,
                                                     table: RankingTable) -> None:
    seats = demo_seats(3, bots=2)
    session = Session(GAME, 3, seed=21)
    rng = random.Random(21)
    sent = _record(table)
    mine = 0
    for _ in range(3000):
        if session.result is not None:
            break
        view = session.view(0)
        table.set_view(view, seats, 0, animate=False)
        if 0 in session.actors():
            _act_through_table(qtbot, table, view, rng)
            assert len(sent) == mine + 1, f"the table sent nothing in phase {view['phase']}"
            session.submit(0, sent[-1])
            mine += 1
            continue
        seat = min(session.actors())
        action = GAME.bot(session.view(seat), seat, rng)
        assert action is not None
        session.submit(seat, action)
    assert session.result is not None, "the game did not end"
    final = session.view(0)
    table.set_view(final, seats, 0)
    assert table.banner.text.startswith("Game over")
    assert {a["type"] for a in sent} >= {"place", "compare", "guess"}


def test_a_guess_stone_shows_who_put_it_down_and_whose_tile_it_bets_on(
        table: RankingTable) -> None:
    """A stone showed only the seat it guessed: nobody could see who bet on what. Now
    the guesser's badge is the stone and the guessed seat its ring (the tooltip says
    it in words)."""
    from lanplay.games.ranking import rules

    state = build([4, 3, 3, 3, 3, 3, 2], [0, 1, 2, 3, None, None, None],
                  stones=[[1], [0, 2]])
    view = rules.view(state, 0)
    assert view["row"][1]["stones"] == [0, 2] and len(view["row"][1]["by"]) == 2
    table.set_view(view, SEATS, 0, animate=False)
    tile = next(i for i in table.tiles.values() if i.slot == 1)
    for mark, guesser, guessed in zip(tile.stones, view["row"][1]["by"],
                                      view["row"][1]["stones"], strict=True):
        assert mark.letter == SEATS[guesser]["name"][0]
        assert mark.ring is not None and mark.ring.name().upper() == \
            SEATS[guessed]["colour"].upper()
    names = [s["name"] for s in SEATS]
    by = view["row"][1]["by"]
    assert f"{names[by[0]]} bets it is {names[0]}'s" in tile.toolTip()


def test_a_long_question_is_never_cut_at_the_smallest_window(qtbot: QtBot) -> None:
    """Under Xvfb at 1024x640 in German "Was wäre der bessere Sidekick für einen
    Super…" was cut: a long question takes a third line."""
    from PyQt6.QtCore import QRectF
    from PyQt6.QtGui import QPainter, QPixmap
    from PyQt6.QtWidgets import QApplication

    from ui.tables import look, textfit
    from ui.tables.ranking.layout import compute
    from ui.tables.ranking.tower_items import QuestionItem

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(14)  # Xvfb's default text, larger than offscreen's
    app.setFont(bigger)
    t = look.default_px() * 1.15
    # the table's part of a 1024x640 window with the log open, four players placing, the
    # score track as wide as three bots' pills (B1, B2, B3) make it
    rect = QRectF(compute(784, 548, t, 4, [0] * 7, 6, True, track_need=t * 7.5).question)
    item = QuestionItem(rect, "Was wäre der bessere Sidekick für einen Superhelden?", "red", t)
    shown: list[textfit.Fitted] = []
    draw = textfit.draw
    textfit.draw = lambda painter, fitted, *a, **k: (shown.append(fitted),  # type: ignore
                                                      draw(painter, fitted, *a, **k))
    try:
        picture = QPixmap(400, 120)
        painter = QPainter(picture)
        item.paint(painter, None)
        painter.end()
    finally:
        textfit.draw = draw  # type: ignore[assignment]
        app.setFont(was)
    assert shown and all(f.fits for f in shown), [f.lines for f in shown]


def test_a_reveal_beside_small_pictures_keeps_names_whole_and_nothing_over_another(
        qtbot: QtBot) -> None:
    """A 1024x640 screen's window (1000x592), five bots' seats, the reveal: each floor
    holds one tile, its name beside its picture. The names were cut ("Babyflas…"), the
    owner's '+0' and the "supply" tag lay over the pictures and the names. Now each is
    one row right of its picture: the mark, the name whole, the guess stones."""
    from PyQt6.QtCore import QRectF
    from PyQt6.QtWidgets import QApplication

    from lanplay import locale
    from ui.tools.demos import ranking as demo
    from ui.tools.screenshot_tables import _bots

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)  # the window's text in the fit check's screenshots
    app.setFont(bigger)
    before, at = demo.real_views(5)["reveal"]
    seats = _bots(demo.demo_seats(5, 4))
    locale.set_language("de")
    try:
        widget = RankingTable()
        qtbot.addWidget(widget)
        widget.resize(1000, 522)  # the window's table with its bar and the log open
        widget.show()
        qtbot.waitExposed(widget)
        widget.set_view(before[0], seats, 0, animate=False)
        widget.set_view(at[0], seats, 0, animate=False)
        tiles = list(widget.tiles.values())
        assert len(tiles) == 7 and all(t.name_side for t in tiles)
        for tile in tiles:
            row = tile._side_row()
            assert row.fitted.fits and row.fitted.lines == [tile.name], row.fitted.lines
            lead = tile._owner_width() if tile.owner is not None else tile._tag_width()
            assert lead > 0, f"{tile.name}: an owner's mark or the supply tag"
            assert row.lead_x >= tile.size, f"{tile.name}: its mark on the picture"
            assert row.name_x >= row.lead_x + lead, f"{tile.name}: its mark on the name"
            assert row.stones_x >= row.name_x + row.fitted.width()
            assert tile.x() + row.end <= widget.layout_.shelves[0].right()
        texts = [item.text() for item in widget.scene.items()
                 if isinstance(item, QGraphicsSimpleTextItem)]
        assert not [t for t in texts if "\u2026" in t], texts
        assert widget.layout_.caption == QRectF() or "Letzte Runde" in " ".join(texts)
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en
        app.setFont(was)


def test_plates_and_three_line_names_fit_a_small_window_under_x(qapp: Any) -> None:
    """Under X at 1024x640 (its larger default type: the table's text 19 px) five plates
    ran 30 px past the window's foot, and five tiles on one floor cut "Stöckelschuh"
    to "Stö-ckel…" in two lines. The plates now give up height and gaps down to what
    their lines need, and a floor whose names need three lines gets them."""
    from ui.tables.ranking.layout import THREE_LINES, compute

    t = 19.2
    lay = compute(760, 469, t, 5, [0, 0, 0, 5, 1, 1, 0], 5, False)
    assert lay.plates[-1].bottom() <= 469 - lay.margin + 0.5
    assert min(p.height() for p in lay.plates) >= t * 4.5
    three = compute(760, 469, t, 5, [0, 0, 0, 5, 1, 1, 0], 5, False,
                    frozenset({3}), taller=frozenset({3}))
    assert three.name_below(3) == pytest.approx(three.name_h * THREE_LINES)
    assert three.name_below(3) > compute(760, 469, t, 5, [0, 0, 0, 5, 1, 1, 0], 5, False,
                                         frozenset({3})).name_below(3)


def test_marks_go_under_small_pictures_where_the_tower_has_the_height(
        qtbot: QtBot) -> None:
    """Under small pictures (names under them) the guess stones and the "yours" tag lay
    on the picture (25 px at 1000x592 with five seats). Where the tower has the height
    they now stand in a line between the picture and its name, clear of both."""
    from PyQt6.QtWidgets import QApplication

    from ui.tables import look
    from ui.tables.ranking.tower import SMALL_TILE
    from ui.tools.demos import ranking as demo
    from ui.tools.screenshot_tables import _bots

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)  # the window's text in the fit check's screenshots
    app.setFont(bigger)
    before, at = demo.real_views(5)["stones"]
    seat = at[None]["current"]
    seats = _bots(demo.demo_seats(5, 4))
    try:
        widget = RankingTable()
        qtbot.addWidget(widget)
        widget.resize(640, 900)  # narrow and tall: small pictures, height to spare
        widget.show()
        qtbot.waitExposed(widget)
        widget.set_view(before[seat], seats, seat, animate=False)
        widget.set_view(at[seat], seats, seat, animate=False)
        lay = widget.layout_
        assert lay is not None and lay.tile < look.default_px() * SMALL_TILE
        marked = [t for t in widget.tiles.values()
                  if not t.name_side and (t.stones or t.mine)]
        assert marked
        spans: dict[int, list[tuple[float, float, str]]] = {}
        for tile in marked:
            assert tile.marks_h > 0, tile.name
            left, stones_x, steps = tile.marks_row()
            assert stones_x >= left
            assert tile.floor is not None
            spans.setdefault(tile.floor, []).append(
                (tile.x() + left, tile.x() + stones_x + sum(steps), tile.name))
        for row in spans.values():  # neighbours' marks never on each other
            row.sort()
            for (_a, end, name), (start, _b, other) in pairwise(row):
                assert end <= start + 0.5, (name, other)
        assert lay.shelves[0].bottom() <= lay.hand_band.top() - lay.margin * 0.8 + 0.5
    finally:
        app.setFont(was)


def _five_bots_table(qtbot: QtBot, moment: str, size: tuple[int, int],
                     bots: bool = True) -> RankingTable:
    """The fit check's five seats (four bots) at ``moment``, in German, the window's
    text 15 px (as in its screenshots); the caller restores the font and language."""
    from lanplay import locale
    from ui.tools.demos import ranking as demo
    from ui.tools.screenshot_tables import _bots

    before, at = demo.real_views(5)[moment]
    viewer = at[None]
    seat = viewer["current"] if moment in ("stones", "compare") else next(
        s for s in viewer["actors"] if s != viewer.get("guess_for"))
    locale.set_language("de")
    widget = RankingTable()
    qtbot.addWidget(widget)
    widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)
    seats = _bots(demo.demo_seats(5, 4)) if bots else demo.demo_seats(5, 4)
    widget.set_view(before[seat], seats, seat, animate=False)
    widget.set_view(at[seat], seats, seat, animate=False)
    return widget


def test_five_scoring_stones_together_stand_in_their_floor_not_a_wide_track(
        qtbot: QtBot, fit_type: None) -> None:
    """Five seats start on 0: their pills made the track 137-139 px wide beside every
    floor, and seven tiles on one floor got 35 px pictures with their names cut. Stones
    too many for the track's column stand in their floor right of its number; that
    floor's tiles start after them and the others get the width."""
    from ui.tables.ranking.items import track_room

    widget = _five_bots_table(qtbot, "guess", (1000, 522))
    lay = widget.layout_
    assert lay is not None
    t = lay.text_px
    assert lay.track_w == pytest.approx(t * 3.8)  # the usual column
    letters = ["B4", "B3", "B2", "B1", "M"]
    assert lay.band_lead.get(0, 0) >= track_room(letters, t)
    shelf = next(i for i in widget.scene.items()
                 if isinstance(i, ShelfItem) and i.floor == 0)
    assert shelf.band_lead == lay.band_lead[0]
    assert lay.tiles_left(0) == pytest.approx(lay.tiles_left() + lay.band_lead[0])
    for tile in widget.tiles.values():  # no tile on the stones
        if tile.floor == 0:
            assert tile.x() >= lay.tiles_left(0) - 0.5


def test_five_single_initials_on_one_floor_stand_in_it_not_over_the_plates(
        qtbot: QtBot, fit_type: None) -> None:
    """ranking-5p-guess (German, 1024x640): at every five-player game's start the five
    stones on 0, single initials, overlapped leftwards past the track's column and the
    last one lay on Lea's plate. Too many for the column, they stand in their floor as
    pills do, and every stone stays right of the track's left edge."""
    from ui.tables.ranking.items import track_room

    widget = _five_bots_table(qtbot, "guess", (1000, 522), bots=False)
    lay = widget.layout_
    assert lay is not None
    t = lay.text_px
    letters = ["M", "B", "A", "J", "L"]
    assert track_room(letters, t) > t * 3.8  # a row of five is wider than the column
    assert lay.track_w == pytest.approx(t * 3.8)
    assert lay.band_lead.get(0, 0) >= track_room(letters, t)
    shelf = next(i for i in widget.scene.items()
                 if isinstance(i, ShelfItem) and i.floor == 0)
    assert shelf.band_lead == lay.band_lead[0]
    assert track_room(letters[:4], t) == 0.0  # four still fit the column


def test_marks_stand_beside_small_pictures_where_the_floor_has_room(
        qtbot: QtBot, fit_type: None) -> None:
    """ranking-5p-bots (1000x592, the table 1000x522): the guess stones and the "yours"
    tag lay on 27 px pictures. Where the gap to the next picture holds them they stand
    right of the picture, clear of it, of the next one's key cap and of the names."""
    from ui.tables.pieces import key_size

    widget = _five_bots_table(qtbot, "guess", (1000, 522))
    tiles = sorted(widget.tiles.values(), key=lambda t: (t.floor or 0, t.x()))
    beside = [t for t in tiles if t.marks_beside()]
    assert len(beside) >= 2, [t.name for t in tiles if t.stones]
    cap = key_size("9")[0] * 0.5
    for tile in beside:
        left, stones_x, steps = tile.marks_row()
        assert left >= tile.size  # not on its picture
        end = tile.x() + stones_x + sum(steps)
        after = [o for o in tiles if o.floor == tile.floor and o.x() > tile.x()]
        if after:
            assert end <= after[0].x() - cap + 0.5, tile.name
        assert tile.boundingRect().right() >= stones_x + sum(steps)  # drawn whole


def test_the_choice_of_a_first_comparison_fits_a_small_window_in_german(
        qtbot: QtBot) -> None:
    """Seven tiles on floor 3, the two longest names picked, on a 1024x640 screen's
    table, in German: the choice stays on the table (it ran off its right edge, its
    "Cancel" cut), the turn line says the pair whole (it was elided after the
    question; the question stands on the table), and my hand's names under the choice
    give way until it closes."""
    from lanplay import locale
    from ui.tools.demos import ranking

    locale.set_language("de")
    try:
        table = RankingTable()
        qtbot.addWidget(table)
        table.resize(1000, 522)
        table.show()
        before, at = ranking.real_views(3, seed=11)["first-compare"]
        seat = at[None]["actors"][0]
        table.set_view(before[seat], ranking.demo_seats(3, 1), seat, animate=False)
        table.set_view(at[seat], ranking.demo_seats(3, 1), seat, animate=False)
        ranking.pick_pair(table)
        chooser = table.chooser
        assert chooser.isVisible()
        viewport = table.graphics.viewport()
        assert viewport.rect().contains(chooser.geometry()), chooser.geometry()
        turn = table.banner.turn
        assert turn.fitted(turn.width() - turn.height()).fits, turn.text
        box = table.graphics.mapToScene(chooser.geometry()).boundingRect()
        under = [item for item in table.hand_items
                 if item.isVisible() and item.sceneBoundingRect().intersects(box)]
        assert not under, [item.name for item in under]
        table._cancel_choice()
        assert all(item.isVisible() for item in table.hand_items)
    finally:
        locale.set_language(None)


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_five_names_on_one_floor_stay_whole_in_a_small_window(
        qapp: Any, tmp_path: Any, lang: str) -> None:
    """A seeded game of five (seed 11) played by the rules' bots to the first guess, in a
    1024x640 screen's window (1000x592, German): five tiles share floor 3, each name in a
    column a fifth of the floor wide, and "Schwamm" (78 px, one syllable) came out
    "Schwa…", Ben's own bold "Küchen-" "Küch…", and the hand's "Wasser-" "sertr…". A
    name wider than its column now borrows what its neighbours' shorter names leave; every
    seat's screen and a watcher's show every name whole."""
    from window_screens import screen_problems

    from ui.tools.demos.ranking import first_guess
    from ui.tools.screenshot_tables import TableScreen

    before, at = first_guess(5, seed=11)
    floor_3 = [t["name"] for t in at[None]["row"] if t["floor"] == 3]
    assert len(floor_3) == 5, floor_3
    seats = demo_seats(5, 4)
    screens = [TableScreen(f"ranking-first-guess-{who}", "ranking", seats, who,
                           [before[who], at[who]]) for who in [*range(5), None]]
    found = screen_problems(qapp, tmp_path, screens, lang=lang)
    assert not [p for problems in found.values() for p in problems], found
