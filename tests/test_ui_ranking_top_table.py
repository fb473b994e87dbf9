"""The Ranking Top table: clicks, drags and keys become intents; views become a table.

Real widgets offscreen, real clicks through the view's viewport. Views come
from ``ranking_top.demo.sample_view`` (in the shape of the view contract, for
moments a game does not stop at on its own) and from the real rules played
by their bots in a seeded Session.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PyQt6.QtCore import QPoint, QPointF, QRectF, Qt
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication, QGraphicsSimpleTextItem
from pytestqt.qtbot import QtBot

from lanplay.session import Session
from ui.tables import table_for
from ui.tables.ranking_top import RankingTopTable
from ui.tables.ranking_top.items import CardItem
from ui.tools.demos.ranking_top import (
    MOMENTS,
    demo_seats,
    load_game,
    real_views,
    sample_view,
    song_card,
)
from ui.tools.fit_probe import TextProbe

SEATS = demo_seats(4, bots=2)
LA_SENORA_3 = song_card(2, 3)
DIENTE_3 = song_card(5, 3, 1)
OBJECION_1 = song_card(3, 1)
TOP = 80
RULE = 90


@pytest.fixture
def table(qtbot: QtBot) -> RankingTopTable:
    widget = RankingTopTable()
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _record(table: RankingTopTable) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    table.intent.connect(sent.append)
    return sent


def _point(table: RankingTopTable, item: CardItem) -> QPoint:
    """A point on the part of a hand card that shows (cards may overlap)."""
    right = item.x() + item.w
    for other in table.hand_items:
        if other.zValue() > item.zValue() and other.x() > item.x():
            right = min(right, other.x())
    x = (item.x() + right) / 2
    return table.graphics.mapFromScene(QPointF(x, item.y() + item.h * 0.6))


def _click(qtbot: QtBot, table: RankingTopTable, item: CardItem) -> None:
    qtbot.mouseClick(table.graphics.viewport(), Qt.MouseButton.LeftButton,
                     pos=_point(table, item))


def _hand(table: RankingTopTable, card_id: int) -> CardItem:
    return next(item for item in table.hand_items if item.card_id == card_id)


def test_table_for_names_the_ranking_top_table() -> None:
    assert table_for("ranking-top") is RankingTopTable


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("you", [0, None])
def test_every_phase_renders_for_a_player_and_a_spectator(table: RankingTopTable, moment: str,
                                                          you: int | None) -> None:
    view = sample_view(moment, you)
    table.set_view(view, SEATS, you, animate=False)
    assert table.banner.text
    assert len(table.plates) == 4
    assert sorted(table.ranking_items) == [0, 1, 2, 3]
    assert all(len(row) == 5 for row in table.ranking_items.values())
    assert len(table.hand_items) == (5 if you is not None else 0)
    assert len(table.discard_items) == 4
    assert len(table.chain_items) == (2 if moment == "window" else 0)
    assert table.stage_lines
    assert table.grab().width() == 1280


def test_the_turn_says_what_my_ranking_top_needs(table: RankingTopTable) -> None:
    table.set_view(sample_view("turn", 0), SEATS, 0)
    assert table.banner.text == "Your turn: play a card (your Ranking Top needs a 3)"
    assert all(item.lit for item in table.hand_items)
    assert table.plates[1].status == "needs 2"
    assert "Ranking Top: the next card must be a 3" in table.ranking_items[0][2].toolTip()


def test_a_card_click_then_to_my_ranking_top_plays_it_there(qtbot: QtBot,
                                                             table: RankingTopTable) -> None:
    table.set_view(sample_view("turn", 0), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, _hand(table, LA_SENORA_3))
    assert table.chooser.isVisible() and sent == []
    button = table.chooser.button("To my Ranking Top")
    assert button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert sent == [{"type": "play", "card": LA_SENORA_3, "to": "top"}]
    assert not table.chooser.isVisible()


def test_a_card_click_then_discard_plays_it_for_its_effect(qtbot: QtBot,
                                                          table: RankingTopTable) -> None:
    table.set_view(sample_view("turn", 0), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, _hand(table, DIENTE_3))
    assert "Draw 2 cards, then play 1 more card" in table.chooser.note.text()
    qtbot.mouseClick(table.chooser.button("Discard (effect)"), Qt.MouseButton.LeftButton)
    assert sent == [{"type": "play", "card": DIENTE_3, "to": "discard"}]


def test_a_card_that_cannot_go_in_the_ranking_top_says_why(qtbot: QtBot,
                                                           table: RankingTopTable) -> None:
    table.set_view(sample_view("turn", 0), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, _hand(table, OBJECION_1))
    rank = table.chooser.button("To my Ranking Top")
    assert not rank.isEnabled() and rank.isVisible()
    assert "Your Ranking Top needs a 3 next." in table.chooser.note.text()
    assert rank.toolTip() == "Your Ranking Top needs a 3 next."
    qtbot.mouseClick(table.chooser.buttons[-1], Qt.MouseButton.LeftButton)  # Cancel
    _click(qtbot, table, _hand(table, TOP))
    assert "A Top card never goes in a Ranking Top." in table.chooser.note.text()
    assert table.chooser.button("Discard (no effect)").isEnabled()
    assert sent == []


def test_a_primordial_rule_says_which_number_it_stands_for(qtbot: QtBot,
                                                           table: RankingTopTable) -> None:
    table.set_view(sample_view("turn", 0), SEATS, 0)
    sent = _record(table)
    _click(qtbot, table, _hand(table, RULE))
    qtbot.mouseClick(table.chooser.button("To my Ranking Top (as 3)"), Qt.MouseButton.LeftButton)
    assert sent == [{"type": "play", "card": RULE, "to": "top"}]


def _drag(qtbot: QtBot, table: RankingTopTable, item: CardItem, target: QPointF) -> None:
    viewport = table.graphics.viewport()
    assert viewport is not None
    start = _point(table, item)
    end = table.graphics.mapFromScene(target)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        QTest.mouseMove(viewport, start + (end - start) * step / 5)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)


def test_dragging_a_card_onto_the_discard_pile_plays_it_there(qtbot: QtBot,
                                                              table: RankingTopTable) -> None:
    table.set_view(sample_view("turn", 0), SEATS, 0)
    sent = _record(table)
    assert table.layout_ is not None
    _drag(qtbot, table, _hand(table, OBJECION_1), table.layout_.discard.center())
    assert sent == [{"type": "play", "card": OBJECION_1, "to": "discard"}]


def test_dragging_onto_my_ranking_top_plays_it_or_explains(qtbot: QtBot,
                                                           table: RankingTopTable) -> None:
    table.set_view(sample_view("turn", 0), SEATS, 0)
    sent = _record(table)
    assert table.layout_ is not None
    target = table.layout_.seats[0].ranking[2].center()
    _drag(qtbot, table, _hand(table, OBJECION_1), target)
    assert sent == [] and table.toast.isVisible()
    assert table.toast.text() == "Your Ranking Top needs a 3 next."
    _drag(qtbot, table, _hand(table, LA_SENORA_3), target)
    assert sent == [{"type": "play", "card": LA_SENORA_3, "to": "top"}]


def test_others_turn_leaves_my_hand_quiet(qtbot: QtBot, table: RankingTopTable) -> None:
    view = sample_view("turn", 1)
    view.update(hand=sample_view("turn", 0)["hand"])
    table.set_view(view, SEATS, 1)
    sent = _record(table)
    assert table.banner.text == "Waiting for Mia to play a card"
    for item in table.hand_items:
        _click(qtbot, table, item)
    assert sent == [] and not table.chooser.isVisible()
    assert not any(item.lit for item in table.hand_items)


def test_top_with_several_topping_cards_opens_a_chooser(qtbot: QtBot,
                                                         table: RankingTopTable) -> None:
    view = sample_view("window", 0)
    table.set_view(view, SEATS, 0)
    sent = _record(table)
    assert table.top_button.isVisible() and table.pass_button.isVisible()
    assert table.banner.text.startswith("TOP! or Pass?")
    qtbot.mouseClick(table.top_button, Qt.MouseButton.LeftButton)
    assert table.chooser.isVisible() and sent == []
    labels = [b.text() for b in table.chooser.buttons]
    assert labels == ["3 · La señora interesante (1)", "Top card (2)", "Cancel (Esc)"]
    qtbot.mouseClick(table.chooser.button("Top card"), Qt.MouseButton.LeftButton)
    assert sent == [{"type": "top", "card": TOP, "window": 7}]


def test_space_is_top_and_p_is_pass(qtbot: QtBot, table: RankingTopTable) -> None:
    view = sample_view("window", 0)
    view["can_top"] = [LA_SENORA_3]
    table.set_view(view, SEATS, 0)
    sent = _record(table)
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert sent == [{"type": "top", "card": LA_SENORA_3, "window": 7}], \
        "one topping card: Space tops with it at once"
    table.set_view(view, SEATS, 0)
    qtbot.keyClick(table, Qt.Key.Key_P)
    assert sent[-1] == {"type": "pass", "window": 7}
    table.set_view(view, SEATS, 0)
    qtbot.keyClick(table, Qt.Key.Key_Escape)
    assert sent[-1] == {"type": "pass", "window": 7} and len(sent) == 3


def test_pass_button_sends_pass_with_the_window(qtbot: QtBot, table: RankingTopTable) -> None:
    table.set_view(sample_view("window", 0), SEATS, 0)
    sent = _record(table)
    qtbot.mouseClick(table.pass_button, Qt.MouseButton.LeftButton)
    assert sent == [{"type": "pass", "window": 7}]
    assert not table.pass_button.isVisible(), "one answer per window"


def test_clicking_a_lit_hand_card_in_a_window_tops_with_it(qtbot: QtBot,
                                                          table: RankingTopTable) -> None:
    table.set_view(sample_view("window", 0), SEATS, 0)
    sent = _record(table)
    lit = sorted(item.card_id for item in table.hand_items if item.lit if item.card_id)
    assert lit == sorted([TOP, LA_SENORA_3])
    _click(qtbot, table, _hand(table, DIENTE_3))
    assert sent == []
    _click(qtbot, table, _hand(table, LA_SENORA_3))
    assert sent == [{"type": "top", "card": LA_SENORA_3, "window": 7}]


def test_top_without_a_topping_card_says_so_and_sends_nothing(qtbot: QtBot,
                                                              table: RankingTopTable) -> None:
    holding = sample_view("window", 0)
    empty = sample_view("window", 0)
    empty["can_top"] = []
    table.set_view(holding, SEATS, 0)
    shown = (table.top_button.text(), table.top_button.isEnabled(), table.pass_button.text())
    table.set_view(empty, SEATS, 0)
    assert (table.top_button.text(), table.top_button.isEnabled(),
            table.pass_button.text()) == shown, "the buttons never tell what I hold"
    sent = _record(table)
    qtbot.mouseClick(table.top_button, Qt.MouseButton.LeftButton)
    assert sent == []
    assert table.toast.isVisible() and "no card that can top" in table.toast.text()
    qtbot.mouseClick(table.pass_button, Qt.MouseButton.LeftButton)
    assert sent == [{"type": "pass", "window": 7}]


def test_the_owner_of_the_topped_card_waits_without_buttons(table: RankingTopTable) -> None:
    view = sample_view("window", 2)
    table.set_view(view, SEATS, 2)
    assert not table.top_button.isVisible() and not table.pass_button.isVisible()
    assert table.banner.text.startswith("Can anyone top your 3")
    assert "Passed: Jonas" in " ".join(table.stage_lines)


def test_keep_asks_and_sends_the_kept_card(qtbot: QtBot, table: RankingTopTable) -> None:
    table.set_view(sample_view("keep", 0), SEATS, 0)
    sent = _record(table)
    assert table.banner.text == "El Dinosaurio Anacleto: click the one card you keep"
    _click(qtbot, table, _hand(table, TOP))
    assert "The other 4 cards go to the discard pile" in table.chooser.note.text()
    qtbot.mouseClick(table.chooser.button("Keep this card"), Qt.MouseButton.LeftButton)
    assert sent == [{"type": "keep", "card": TOP}]


def test_a_second_card_by_objecion_says_it_cannot_be_topped(table: RankingTopTable) -> None:
    table.set_view(sample_view("again", 0), SEATS, 0)
    assert "cannot be topped" in table.banner.text
    assert all(item.lit for item in table.hand_items)


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_spectator_has_no_actions(qtbot: QtBot, table: RankingTopTable, moment: str) -> None:
    table.set_view(sample_view(moment, None), SEATS, None)
    sent = _record(table)
    assert table.hand_items == []
    assert not table.top_button.isVisible() and not table.pass_button.isVisible()
    qtbot.keyClick(table, Qt.Key.Key_Space)
    qtbot.keyClick(table, Qt.Key.Key_P)
    for item in [*table.chain_items, *table.discard_items]:
        qtbot.mouseClick(table.graphics.viewport(), Qt.MouseButton.LeftButton,
                         pos=table.graphics.mapFromScene(item.sceneBoundingRect().center()))
    assert sent == [] and not table.chooser.isVisible()


def test_show_rejection_shows_the_reason_and_unlocks(qtbot: QtBot,
                                                     table: RankingTopTable) -> None:
    table.set_view(sample_view("window", 0), SEATS, 0)
    sent = _record(table)
    qtbot.mouseClick(table.pass_button, Qt.MouseButton.LeftButton)
    table.show_rejection("That window has closed.")
    assert table.toast.isVisible() and table.toast.text() == "That window has closed."
    assert table.pass_button.isVisible()
    qtbot.mouseClick(table.pass_button, Qt.MouseButton.LeftButton)
    assert len(sent) == 2


def test_the_log_uses_names(table: RankingTopTable) -> None:
    table.set_view(sample_view("window", 0), SEATS, 0)
    assert "Ada says TOP! with 3 · La señora interesante." in table.log_panel.lines()


def test_a_play_flies_and_a_resync_jumps(qtbot: QtBot, table: RankingTopTable) -> None:
    before = sample_view("turn", 0)
    table.set_view(before, SEATS, 0)
    start = _hand(table, LA_SENORA_3).pos()
    after = sample_view("window", 0)
    after.update(chain=[{"card": before["hand"][0], "seat": 0, "to": "top", "stands": 3}],
                 hand=before["hand"][1:], actors=[1, 2, 3], can_top=[],
                 last={"kind": "play", "seat": 0, "card": before["hand"][0], "to": "top",
                       "stands": 3, "protected": False})
    table.set_view(after, SEATS, 0)
    assert table.animating
    flying = table.chain_items[0]
    assert flying.card_id == LA_SENORA_3
    assert (flying.pos() - start).manhattanLength() < 40, "it starts where it was in my hand"
    qtbot.waitUntil(lambda: not table.animating, timeout=2000)
    assert flying.scale() == 1.0 and (flying.pos() - start).manhattanLength() > 100
    table.set_view(after, SEATS, 0, animate=False)
    assert not table.animating


def test_real_views_render_for_every_viewer(qtbot: QtBot, table: RankingTopTable) -> None:
    found = real_views(3, seed=7)
    assert {"turn", "window", "over"} <= set(found)
    seats = demo_seats(3, bots=2)
    for _moment, (_before, at) in found.items():
        for viewer in (0, 1, 2, None):
            table.set_view(at[viewer], seats, viewer, animate=False)
            assert table.banner.text and table.stage_lines
            assert len(table.ranking_items) == 3
            acting = viewer is not None and viewer in at[None]["actors"]
            window = at[None]["phase"] == "window"
            assert table.top_button.isVisible() == (acting and window)


def _act(qtbot: QtBot, table: RankingTopTable, view: dict[str, Any],
         rng: random.Random) -> None:
    """Seat 0 plays by mouse and keys: a card and its destination, TOP!/Pass, a keep."""
    phase = view["phase"]
    if phase in ("turn", "again"):
        item = rng.choice(table.hand_items)
        _click(qtbot, table, item)
        rank = table.chooser.buttons[0]
        if rank.isEnabled() and rng.random() < 0.8:
            qtbot.mouseClick(rank, Qt.MouseButton.LeftButton)
        else:
            qtbot.mouseClick(table.chooser.buttons[1], Qt.MouseButton.LeftButton)
    elif phase == "window":
        if rng.random() < 0.4:
            qtbot.keyClick(table, Qt.Key.Key_Space)
            if table.chooser.isVisible():
                qtbot.mouseClick(table.chooser.buttons[0], Qt.MouseButton.LeftButton)
            elif not view["can_top"]:
                assert "no card that can top" in table.toast.text()
                qtbot.mouseClick(table.pass_button, Qt.MouseButton.LeftButton)
        else:
            qtbot.keyClick(table, Qt.Key.Key_P)
    elif phase == "keep":
        _click(qtbot, table, rng.choice(table.hand_items))
        qtbot.mouseClick(table.chooser.button("Keep this card"), Qt.MouseButton.LeftButton)


def test_a_whole_three_player_game_through_the_table(qtbot: QtBot,
                                                     table: RankingTopTable) -> None:
    game = load_game()
    seats = demo_seats(3, bots=2)
    session = Session(game, 3, seed=11)
    rng = random.Random(11)
    sent = _record(table)
    mine = 0
    for _ in range(4000):
        if session.result is not None:
            break
        view = session.view(0)
        table.set_view(view, seats, 0, animate=False)
        if 0 in session.actors():
            _act(qtbot, table, view, rng)
            assert len(sent) == mine + 1, f"the table sent nothing in phase {view['phase']}"
            session.submit(0, sent[-1])
            mine += 1
            continue
        seat = min(session.actors())
        action = game.bot(session.view(seat), seat, rng)
        assert action is not None
        session.submit(seat, action)
    assert session.result is not None, "the game did not end"
    table.set_view(session.view(0), seats, 0)
    assert table.banner.text.startswith("Game over")
    assert {a["type"] for a in sent} >= {"play", "pass", "top"}


def test_the_keep_box_in_german_at_the_smallest_window_is_whole(qtbot: QtBot) -> None:
    """At 1024x640 in German the "keep this card?" box once collapsed to a column about
    100 px wide, one word a line, with slivers of buttons; and the stage's "click the
    one card you keep" lay under it. Now it is as wide as its words want (within the
    stage), every button its own width, and the stage's words give way while it is
    open."""
    from lanplay import locale
    from ui.tools.fit import inspect
    from ui.tools.fit_probe import TextProbe

    widget = RankingTopTable()
    qtbot.addWidget(widget)
    widget.resize(1024, 588)  # the table's part of a 1024x640 window, its log open
    widget.show()
    qtbot.waitExposed(widget)
    locale.set_language("de")
    try:
        before, at = real_views(4)["keep"]
        seat = at[None]["actors"][0]
        widget.set_view(before[seat], SEATS, seat, animate=False)
        widget.set_view(at[seat], SEATS, seat, animate=False)
        item = widget.hand_items[0]
        widget._clicked(item)
        box = widget.chooser
        assert box.isVisible()
        for label in (box.label, box.note):
            words = max(label.fontMetrics().horizontalAdvance(w) for w in label.text().split())
            assert label.width() >= words
            assert label.height() >= label.heightForWidth(label.width())
        for button in box.buttons:
            assert button.width() >= button.sizeHint().width()
        assert box.note.height() <= 3 * box.note.fontMetrics().lineSpacing() + 4  # not a column
        assert not any(i.isVisible() for i in widget.stage_items
                       if isinstance(i, QGraphicsSimpleTextItem))
        QApplication.processEvents()  # the banner lays out its new words
        with TextProbe() as probe:
            assert inspect(widget, probe) == []
        box.cancelled.emit()
        assert any(i.isVisible() for i in widget.stage_items
                   if isinstance(i, QGraphicsSimpleTextItem))
    finally:
        locale.set_language(None)


def test_each_top_window_shows_its_own_countdown_and_a_late_top_is_not_carried_over(
        table: RankingTopTable) -> None:
    """The 4 s windows chained back to back: a Space meant for one landed in the next.
    Each window shows its countdown where the chain lies, and a window that closes
    untopped stays a moment before the next opens."""
    before, at = real_views(4)["window"]
    seat = next(s for s in at[None]["actors"] if s != at[None]["chain"][-1]["seat"])
    table.set_view(before[seat], SEATS, seat, animate=False)
    table.set_view(at[seat], SEATS, seat, animate=False)
    table.set_deadline(3.0)
    assert table.countdown.isVisible() and 2.5 < table.countdown.left() <= 3.0
    assert table.countdown.words() == "3 s to top"
    table.set_deadline(None)
    assert table.countdown.left() == 0.0


def test_a_window_that_closes_untopped_holds_a_moment(table: RankingTopTable) -> None:
    game = load_game()
    session = Session(game, 3, seed=7)
    rng = random.Random(7)
    seen = session.view(0)
    for _ in range(400):
        if session.result is not None:
            break
        actor = min(session.actors())
        session.submit(actor, game.bot(session.view(actor), actor, rng))
        now = session.view(0)
        last = now.get("last") or {}
        links = seen.get("chain") or []
        if last.get("kind") == "close" and len(links) == 1 and last != seen.get("last"):
            table.set_view(seen, SEATS[:3], 0, animate=False)
            table.set_view(now, SEATS[:3], 0, animate=True)
            assert table.pace()[1] > 0
            return
        seen = now
    raise AssertionError("no untopped close in 400 moves")


@contextmanager
def small_german_table(qtbot: QtBot, state: str) -> Iterator[RankingTopTable]:
    """The table of a 1024x640 screen's window (log open) in German, at the fit check's
    text size, showing the demo's ``state`` to the seat that acts in it."""
    from lanplay import locale
    from ui.tools.demos import ranking_top as demo

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)  # the window's text in the fit check's screenshots
    app.setFont(bigger)
    locale.set_language("de")
    try:
        widget = RankingTopTable()
        qtbot.addWidget(widget)
        widget.resize(1000, 522)
        widget.show()
        qtbot.waitExposed(widget)
        before, at = demo.real_views(4)[state]
        seat = at[None]["actors"][0]
        seats = demo.demo_seats(4, 3)
        widget.set_view(before[seat], seats, seat, animate=False)
        widget.set_view(at[seat], seats, seat, animate=False)
        yield widget
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en
        app.setFont(was)


def test_the_keep_choice_stays_beside_the_direction_on_a_small_window(qtbot: QtBot) -> None:
    """Under X at 1024x640 in German "Diese Karte behalten (1)" and "Abbrechen (Esc)"
    made the choice wider than the stage: it covered the start of "rechtsherum". Now the
    keys' marks go first and the box stays within the stage."""
    from ui.tools.demos import ranking_top as demo

    with small_german_table(qtbot, "keep") as widget:
        demo.click_first_card(widget)
        chooser = widget.chooser
        assert chooser.isVisible()
        lay = widget.layout_
        assert lay is not None
        left = widget.graphics.mapFromScene(lay.stage.topLeft())
        right = widget.graphics.mapFromScene(lay.stage.topRight())
        box = chooser.geometry()
        assert box.left() >= left.x() - 1 and box.right() <= right.x() + 1, \
            (box, left, right)


def test_pieces_that_look_the_same_are_taken_back_with_their_pictures(
        qtbot: QtBot, table: RankingTopTable) -> None:
    """A view drawn again keeps each plate, empty slot and placed card that looks the
    same in the same place: the very item, whose cached picture the next frame blits
    (the first frame after a view drew some forty pieces again, 10 of its 16 ms); a
    piece that changed is drawn anew, and a tooltip is written once, not nested."""
    before, at = real_views(4)["keep"]
    table.set_view(before[0], SEATS, 0, animate=False)
    plates = dict(table.plates)
    slots = {id(i) for items in table.ranking_items.values() for i in items}
    table.set_view(before[0], SEATS, 0, animate=False)
    assert all(table.plates[s] is plates[s] for s in plates)
    assert slots == {id(i) for items in table.ranking_items.values() for i in items}
    table.set_view(at[0], SEATS, 0, animate=False)
    changed = [s for s in plates if table.plates[s] is not plates[s]]
    assert changed and all(table.plates[s].scene() is table.scene for s in plates)
    fresh = RankingTopTable()
    qtbot.addWidget(fresh)
    fresh.resize(1280, 800)
    fresh.set_view(at[0], SEATS, 0, animate=False)

    def tips(t: RankingTopTable) -> list[str]:
        return [i.toolTip() for items in t.ranking_items.values() for i in items]

    assert tips(table) == tips(fresh)


def test_who_still_decides_stays_clear_of_my_row_on_a_small_window(qtbot: QtBot) -> None:
    """ranking-top at 1000x592 in German: under TOP! and Pass "Überlegen: Ada und Jonas"
    took two lines in the buttons' column and its second touched my first slot. It now
    takes one line out under the direction of play, above my row."""
    from PyQt6.QtWidgets import QGraphicsSimpleTextItem

    with small_german_table(qtbot, "window") as widget:
        lay = widget.layout_
        assert lay is not None
        words = [i for i in widget.scene.items() if isinstance(i, QGraphicsSimpleTextItem)
                 and ("Überlegen" in i.text() or "Jonas" in i.text())
                 and i.sceneBoundingRect().top() >= lay.buttons.bottom()]
        assert words, "who still decides is shown under the buttons"
        mine = lay.seats[lay.bottom]
        row_top = min(r.top() for r in mine.ranking) if mine.ranking else mine.plate.top()
        for item in words:
            assert "\u2026" not in item.text(), item.text()
            assert item.sceneBoundingRect().bottom() <= row_top - 1, \
                (item.text(), item.sceneBoundingRect(), row_top)


@contextmanager
def issue_31_table(qtbot: QtBot, who: str, size: tuple[int, int] = (1000, 531),
                   lang: str = "de") -> Iterator[tuple[RankingTopTable, TextProbe]]:
    """A top window of five, play going counter-clockwise, two passed and two deciding
    (``passed_views``), its countdown running, seen by ``who``: "passed" (my seat passed),
    "deciding" (mine decides) or "watching"; at ``size`` (the table of a 1024x640
    screen's window, its log open, by default) in ``lang``, at the fit check's text
    size; with the fit check's probe, installed before the table lays out (a text is
    shortened with "…" then, long before a paint)."""
    from lanplay import locale
    from ui.tools.demos import ranking_top as demo

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)  # the window's text in the fit check's screenshots
    app.setFont(bigger)
    locale.set_language(lang)
    probe = TextProbe()
    probe.install()
    try:
        widget = RankingTopTable()
        qtbot.addWidget(widget)
        widget.resize(*size)
        widget.show()
        qtbot.waitExposed(widget)
        before, at = demo.passed_views(5)
        window = at[None]
        assert window["direction"] == -1
        you = {"passed": next(s for s, p in enumerate(window["passed"]) if p),
               "deciding": window["actors"][0], "watching": None}[who]
        seats = demo.demo_seats(5, 4)
        widget.set_view(before[you], seats, you, animate=False)
        widget.set_view(at[you], seats, you, animate=False)
        widget.set_deadline(3.0)
        QApplication.processEvents()  # the banner lays out its new words
        yield widget, probe
    finally:
        probe.uninstall()
        locale.set_language(None)  # conftest's LANPLAY_LANG=en
        app.setFont(was)


def _window_words(widget: RankingTopTable) -> list[QGraphicsSimpleTextItem]:
    """The stage's lines of who passed and who still decides (German)."""
    return [i for i in widget.scene.items() if isinstance(i, QGraphicsSimpleTextItem)
            and any(w in i.text() for w in ("gepasst", "Gepasst", "Überlegen"))]


@pytest.mark.parametrize("who", ["passed", "deciding", "watching"])
def test_the_countdown_leaves_who_passed_and_who_decides_whole_and_clear(
        qtbot: QtBot, who: str) -> None:
    """Issue 31, five at 1024x640 in German: a seat that had passed (or a watcher) saw
    the window's countdown drawn over "Du hast gepasst · G…", itself cut short; the
    deciding seat's "Gepasst: Mia und B…" was cut short too. Each part is now whole,
    clear of the countdown, of TOP! and Pass and of my Ranking Top."""
    from PyQt6.QtCore import QRectF

    with issue_31_table(qtbot, who) as (widget, _probe):
        countdown = widget.countdown
        assert countdown.isVisible()
        words = _window_words(widget)
        assert words
        lay = widget.layout_
        assert lay is not None
        mine = lay.seats[lay.bottom].ranking
        row = QRectF(mine[0].topLeft(), mine[-1].bottomRight())
        controls = [countdown.geometry()]
        if who == "deciding":
            controls += [widget.top_button.geometry(), widget.pass_button.geometry()]
        for item in words:
            rect = item.sceneBoundingRect()
            assert not rect.intersects(row), (item.text(), rect, row)
            on_port = QRectF(widget.graphics.mapFromScene(rect).boundingRect())
            for control in controls:
                both = on_port.intersected(QRectF(control))
                assert both.width() <= 2 or both.height() <= 2, (item.text(), on_port, control)
        shown = " ".join(i.text() for i in words)
        assert ("Du hast gepasst" in shown) == (who == "passed")
        assert "Gepasst:" in shown and "Überlegen:" in shown
        assert "\u2026" not in shown, shown


@pytest.mark.parametrize(("size", "lang"), [((1000, 531), "de"), ((1240, 654), "en"),
                                            ((1240, 654), "es"), ((1500, 934), "en")])
def test_counter_clockwise_is_whole_in_the_direction_column(
        qtbot: QtBot, size: tuple[int, int], lang: str) -> None:
    """Issue 31: at 1280x800 "counter-clockwise" was wider than the words' box under the
    arrow and was cut at both ends. It is whole (on two lines where it must: "counter-"
    over "clockwise"), inside its piece and inside the direction's column, in every
    language and size; and nothing on the table is cut, covered or overlapping."""
    from ui.tables.ranking_top.seats import DirectionItem
    from ui.tools.fit import inspect
    from ui.words.i18n import _

    with issue_31_table(qtbot, "deciding", size, lang) as (widget, probe):
        found = inspect(widget, probe)
        item = next(i for i in widget.scene.items() if isinstance(i, DirectionItem))
        lay = widget.layout_
        assert lay is not None
        piece = item.sceneBoundingRect()
        assert lay.direction.adjusted(-1, -1, 1, 1).contains(piece), (piece, lay.direction)
        port = widget.graphics.viewport()
        assert port is not None
        shown = widget.graphics.mapFromScene(piece).boundingRect()
        box = QRectF(shown.translated(port.mapTo(widget, QPoint(0, 0))))
        lines = [d for d in probe.drawn if d.item is item and d.text != item.caption]
        assert "".join(d.text for d in lines) == _("counter-clockwise"), \
            [d.text for d in lines]
        for line in lines:
            assert box.adjusted(-2, -2, 2, 2).contains(line.rect), (line.text, line.rect, box)
            assert not line.box_short, line
        assert found == [], found


def test_a_lit_top_card_shows_its_key_clear_of_its_word(qtbot: QtBot) -> None:
    """Issue 31's deciding seat holds a Top card, lit in the window: the key's mark
    (left, beside the big word, as on every card) lay over the "T" of "TOP!", which
    fills the card's width. It now sits above the word."""
    from ui.tools.fit import inspect

    with issue_31_table(qtbot, "deciding") as (widget, probe):
        top = next(i for i in widget.hand_items if i.face.kind == "top")
        assert top.lit and top.key
        inspect(widget, probe)
        drawn = [d for d in probe.drawn if d.item is top]
        word = next(d.rect for d in drawn if d.text == "TOP!")
        key = next(d.rect for d in drawn if d.text == top.key)
        both = word.intersected(key)
        assert both.width() <= 1 or both.height() <= 1, (word, key)


def test_my_own_topped_card_is_named_short_enough_for_the_banner(qtbot: QtBot) -> None:
    """Five at 1024x640 in German, my card the one to top: "Toppt jemand deine
    3 · Arwrarwrirwrarwro? warten auf 4 Spieler" outgrew the banner's two lines and was
    cut. My card is named by its number there (it lies big on the stage)."""
    from lanplay import locale
    from ui.tools.demos import kit
    from ui.tools.demos import ranking_top as demo

    found = kit.real_views(demo.load_game(), 5, 7, {"mine": lambda v: (
        v["phase"] == "window" and len(v["actors"]) == 4 and v["chain"][-1]["card"]
        .get("kind") == "song" and len(v["chain"][-1]["card"]["title"]) >= 15)}, 20000)
    before, at = found["mine"]
    you = at[None]["chain"][-1]["seat"]
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)
    app.setFont(bigger)
    locale.set_language("de")
    try:
        widget = RankingTopTable()
        qtbot.addWidget(widget)
        widget.resize(1000, 522)
        widget.show()
        qtbot.waitExposed(widget)
        seats = demo.demo_seats(5, 4)
        widget.set_view(before[you], seats, you, animate=False)
        widget.set_view(at[you], seats, you, animate=False)
        QApplication.processEvents()
        number = str(at[None]["chain"][-1]["card"]["number"])
        assert widget.banner.text.startswith(f"Toppt jemand deine {number}?"), \
            widget.banner.text
        line = widget.banner.turn
        h = line.height()
        room = line.width() - (h * 0.25 + 2 * h * 0.3 + h * 0.25) - 8
        assert line.fitted(room).fits, (widget.banner.text, room)
    finally:
        locale.set_language(None)
        app.setFont(was)


def test_a_watcher_reads_the_window_whole(qtbot: QtBot) -> None:
    """Issue 31's window as a watcher sees it (1024x640, German): the stage's title
    "Toppt niemand zurück: 5 von Ben wird aufgehoben" was wider than the stage and cut
    short; it now reaches over the direction's column, above its arrow. Nothing on the
    table is cut, covered or overlapping."""
    from ui.tools.fit import inspect

    with issue_31_table(qtbot, "watching") as (widget, probe):
        assert any(line.startswith("Toppt niemand zurück") for line in widget.stage_lines)
        assert inspect(widget, probe) == []


def test_a_long_chain_names_its_players_by_their_badges_without_overlap(qtbot: QtBot) -> None:
    """A window topped three times over, watched at 1024x640 in German: the chain's cards
    overlap, and each label, as wide as its card, ran over the next card's badge ("Lea
    → Ablage" under Mia's "M"). A label now keeps to its card's strip; where the strip
    is too narrow for words, the badge alone says who (its tooltip the rest)."""
    from lanplay import locale
    from ui.tables.ranking_top.seats import DiscItem
    from ui.tools.demos import kit
    from ui.tools.demos import ranking_top as demo
    from ui.tools.fit import inspect

    found = kit.real_views(demo.load_game(), 5, 7, {"long": lambda v: (
        v["phase"] == "window" and len(v["chain"]) >= 4)}, 20000)
    before, at = found["long"]
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)
    app.setFont(bigger)
    locale.set_language("de")
    probe = TextProbe()
    probe.install()  # before the table lays out: a text is shortened with "…" then
    try:
        widget = RankingTopTable()
        qtbot.addWidget(widget)
        widget.resize(1000, 531)
        widget.show()
        qtbot.waitExposed(widget)
        seats = demo.demo_seats(5, 4)
        widget.set_view(before[None], seats, None, animate=False)
        widget.set_view(at[None], seats, None, animate=False)
        widget.set_deadline(3.0)
        QApplication.processEvents()
        discs = [i for i in widget.stage_items if isinstance(i, DiscItem)]
        words = [i for i in widget.stage_items if isinstance(i, QGraphicsSimpleTextItem)]
        assert len(discs) == len(at[None]["chain"])
        for disc in discs:
            for line in words:
                both = disc.sceneBoundingRect().intersected(line.sceneBoundingRect())
                assert both.width() <= 2 or both.height() <= 2, (line.text(), both)
        assert inspect(widget, probe) == []
    finally:
        probe.uninstall()
        locale.set_language(None)
        app.setFont(was)


@pytest.mark.parametrize("size", [(1000, 531), (1240, 654)])
def test_top_and_pass_beside_the_cards_show_their_keys(qtbot: QtBot,
                                                       size: tuple[int, int]) -> None:
    """Where TOP! and Pass stand beside the chain's cards (a 1024x640 screen's window,
    and since issue 31 a 1280x800 one, whose cards come out larger so) they say their
    keys in English: "TOP! (Space)" a little smaller rather than "TOP!" alone, whole."""
    with issue_31_table(qtbot, "deciding", size, "en") as (widget, _probe):
        lay = widget.layout_
        assert lay is not None and lay.buttons.height() >= lay.text_px * 5.6  # a column
        top, pass_ = widget.top_button, widget.pass_button
        assert top.isVisible() and pass_.isVisible()
        assert (top.text(), pass_.text()) == ("TOP! (Space)", "Pass (P)")
        for button in (top, pass_):
            assert button.width() >= button.sizeHint().width()
        assert top.font().pixelSize() >= pass_.font().pixelSize()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_cards_key_stands_clear_of_its_big_number(qtbot: QtBot, lang: str,
                                                   fit_type: None) -> None:
    """A real window in Spanish at 1024x640, my turn: each playable card's key cap stood
    left of its big number, on its line, so the "3" key and a 5 read as 35 (every card
    of the hand: 12, 23, 35, 42). The cap stands on the card's top edge, over the band,
    above the number; a fanned card keeps it in the strip it shows."""
    from lanplay import locale
    from ui.tools.demos import ranking_top as demo
    from ui.tools.fit import inspect

    locale.set_language(lang)
    probe = TextProbe()
    probe.install()
    try:
        widget = RankingTopTable()
        qtbot.addWidget(widget)
        widget.resize(1000, 531)
        widget.show()
        qtbot.waitExposed(widget)
        before, at = demo.real_views(3)["turn"]
        you = at[None]["current"]
        widget.set_view(before[you], demo.demo_seats(3), you, animate=False)
        widget.set_view(at[you], demo.demo_seats(3), you, animate=False)
        QApplication.processEvents()
        inspect(widget, probe)
        checked = 0
        for item in widget.hand_items:
            if not (item.lit and item.key) or item.compact or item.face.kind != "song":
                continue
            drawn = [d for d in probe.drawn if d.item is item]
            number = str(item.face.number)
            big = max((d.rect for d in drawn if d.text == number),
                      key=lambda r: r.height())  # the big one, not the band's index
            key = next(d.rect for d in drawn if d.text == item.key)
            assert key.bottom() <= big.top() + 1, (item.face.title, key, big)
            checked += 1
        assert checked >= 2, "no lit cards to look at"
    finally:
        probe.uninstall()
