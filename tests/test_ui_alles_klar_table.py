"""The Alles klar? table: clicks and drags become intents; views become a table.

Real widgets offscreen, real clicks through the view's viewport, and views
from the real rules (``rules.build`` scenarios or a seeded Session).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from PyQt6.QtCore import QPoint, Qt
from PyQt6.QtGui import QFont
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from lanplay.games.alles_klar import GAME
from lanplay.games.alles_klar.rules import Placed, build, card_id
from lanplay.session import Session
from ui.tables import table_for
from ui.tables.alles_klar import AllesKlarTable
from ui.tables.alles_klar.items import CardItem, StackItem
from ui.tools.demos.alles_klar import demo_scene, demo_seats

SEVEN_III = card_id(7, 3)
NINE_PLAIN = card_id(9)
FOUR_I_V = card_id(4, 1, 5)
TWO_II = card_id(2, 2)
HAND = [SEVEN_III, NINE_PLAIN, FOUR_I_V, TWO_II]


@pytest.fixture
def table(qtbot: QtBot) -> AllesKlarTable:
    widget = AllesKlarTable()
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _view(seat: int | None = 0, turn: int = 0, up: tuple[int, ...] = (1, 2, 3, 4, 5),
          table: tuple[tuple[Any, ...], ...] = ()) -> dict[str, Any]:
    state = build([HAND, [card_id(1), card_id(3), card_id(5), card_id(6)]], turn=turn, up=up,
                  table=table, pile=[card_id(8), card_id(10), card_id(11)])
    return GAME.view(state, seat)


def _card(table: AllesKlarTable, card: int) -> CardItem:
    return next(item for item in table.hand_items if item.card_id == card)


def _point(table: AllesKlarTable, item: CardItem) -> QPoint:
    return table.graphics.mapFromScene(item.sceneBoundingRect().center())


def _click(qtbot: QtBot, table: AllesKlarTable, item: CardItem) -> None:
    qtbot.mouseClick(table.graphics.viewport(), Qt.MouseButton.LeftButton,
                     pos=_point(table, item))


def _record(table: AllesKlarTable) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    table.intent.connect(sent.append)
    return sent


def test_table_for_names_the_alles_klar_table() -> None:
    assert table_for("alles-klar") is AllesKlarTable
    with pytest.raises(KeyError, match="no-such-game"):
        table_for("no-such-game")


def test_a_click_on_a_card_plays_it_with_its_numeral(qtbot: QtBot,
                                                     table: AllesKlarTable) -> None:
    table.set_view(_view(), demo_seats(2), 0)
    sent = _record(table)
    assert table.banner.text == "Your turn: play a card"
    assert all(item.lit for item in table.hand_items)
    _click(qtbot, table, _card(table, SEVEN_III))
    assert sent == [{"type": "play", "card": SEVEN_III, "numeral": 3}]


def test_a_card_without_numeral_is_played_without_one(qtbot: QtBot,
                                                      table: AllesKlarTable) -> None:
    table.set_view(_view(), demo_seats(2), 0)
    sent = _record(table)
    _click(qtbot, table, _card(table, NINE_PLAIN))
    assert sent == [{"type": "play", "card": NINE_PLAIN}]


def test_a_two_numeral_card_asks_which_ranking_card_turns_down(qtbot: QtBot,
                                                               table: AllesKlarTable) -> None:
    table.set_view(_view(), demo_seats(2), 0)
    sent = _record(table)
    _click(qtbot, table, _card(table, FOUR_I_V))
    assert sent == [] and table.chooser.isVisible()
    labels = [b.text() for b in table.chooser.buttons]
    assert labels == ["Turn down I (1)", "Turn down V (2)", "Cancel (Esc)"]
    qtbot.mouseClick(table.chooser.buttons[1], Qt.MouseButton.LeftButton)
    assert sent == [{"type": "play", "card": FOUR_I_V, "numeral": 5}]
    assert not table.chooser.isVisible()
    GAME.check(build([HAND, [card_id(1)]], pile=[card_id(8)]), 0, sent[0])


def test_a_two_numeral_card_with_one_ranking_card_up_does_not_ask(
        qtbot: QtBot, table: AllesKlarTable) -> None:
    table.set_view(_view(up=(2, 3, 4, 5)), demo_seats(2), 0)
    sent = _record(table)
    _click(qtbot, table, _card(table, FOUR_I_V))
    assert not table.chooser.isVisible()
    assert sent == [{"type": "play", "card": FOUR_I_V, "numeral": 5}]


def test_cancel_closes_the_choice_and_sends_nothing(qtbot: QtBot,
                                                    table: AllesKlarTable) -> None:
    table.set_view(_view(), demo_seats(2), 0)
    sent = _record(table)
    _click(qtbot, table, _card(table, FOUR_I_V))
    qtbot.mouseClick(table.chooser.buttons[-1], Qt.MouseButton.LeftButton)
    assert sent == [] and not table.chooser.isVisible()


def test_cards_are_quiet_and_unclickable_when_it_is_not_your_turn(
        qtbot: QtBot, table: AllesKlarTable) -> None:
    table.set_view(_view(seat=0, turn=1), demo_seats(2), 0)
    sent = _record(table)
    assert table.banner.text == "Waiting for Ben"
    assert table.hand_items and not any(item.lit for item in table.hand_items)
    for item in table.hand_items:
        _click(qtbot, table, item)
    QTest.keyClick(table, Qt.Key.Key_1)
    assert sent == []


def test_dragging_a_card_onto_the_table_plays_it(qtbot: QtBot,
                                                 table: AllesKlarTable) -> None:
    table.set_view(_view(), demo_seats(2), 0)
    sent = _record(table)
    item = _card(table, TWO_II)
    viewport = table.graphics.viewport()
    start = _point(table, item)
    assert table.layout_ is not None
    target = table.graphics.mapFromScene(table.layout_.drop.center())
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        QTest.mouseMove(viewport, start + (target - start) * step / 5)
    assert table.zone is not None and table.zone.isVisible() and table.zone.hot
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=target)
    assert sent == [{"type": "play", "card": TWO_II, "numeral": 2}]
    assert not table.zone.isVisible()


def test_a_later_view_updates_turn_counts_and_log(qtbot: QtBot,
                                                  table: AllesKlarTable) -> None:
    session = Session(GAME, 3, seed=11)
    seats = demo_seats(3)
    first = min(session.actors())
    table.set_view(session.view(first), seats, first)
    assert table.banner.text == "Your turn: play a card"
    lines = len(table.log_panel.lines())
    pile = session.view(None)["pile"]
    action = GAME.legal(session.state, first)[0]
    session.submit(first, action)
    table.set_view(session.view(first), seats, first)
    after = session.view(None)
    waiting = seats[after["turn"]]["name"]
    assert table.banner.text == f"Waiting for {waiting}"
    piles = [i for i in table.scene.items() if isinstance(i, StackItem) and not i.out]
    assert [p.count for p in piles] == [pile - 1]
    assert len(table.log_panel.lines()) == lines + 1
    assert table.log_panel.lines()[-1].startswith(f"{seats[first]['name']} played ")
    assert set(table.table_items) == {c["id"] for row in after["table"] for c in row}
    assert not any(item.lit for item in table.hand_items)


def test_a_spectator_sees_no_hand(table: AllesKlarTable) -> None:
    _, _, after = demo_scene(5, "mid")
    table.set_view(after[None], demo_seats(5), None)
    assert table.hand_items == []
    assert all(not isinstance(i, CardItem) or not i.lit for i in table.scene.items())
    turn = after[None]["turn"]
    assert table.banner.text == f"Waiting for {demo_seats(5)[turn]['name']}"
    assert len(table.plates) == 5


def test_hovering_a_card_tells_what_playing_it_would_do(table: AllesKlarTable) -> None:
    on_table = ((), (card_id(2, 4), Placed(card_id(1), False)))
    table.set_view(_view(table=on_table, up=(1, 2, 3, 5)), demo_seats(2), 0)
    two = _card(table, TWO_II).toolTip()
    assert "Turns ranking card II face down." in two
    assert "It turns Ben's face-up 2 face down." in two
    assert "You choose which ranking card turns down: I or V." in _card(table, FOUR_I_V).toolTip()
    covered = table.table_items[card_id(1)]
    assert not covered.face_up and "face down" in covered.toolTip()
    assert table.table_items[card_id(2, 4)].face_up


def test_a_larger_application_font_redraws_the_table_larger(qtbot: QtBot,
                                                             table: AllesKlarTable) -> None:
    table.set_view(_view(), demo_seats(2), 0)
    assert table.layout_ is not None
    before = table.layout_.text_px
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    font = app.font()
    bigger = QFont(font)
    bigger.setPointSizeF(font.pointSizeF() * 2)
    try:
        app.setFont(bigger)
        qtbot.waitUntil(lambda: table.layout_ is not None and table.layout_.text_px > before,
                        timeout=2000)
    finally:
        app.setFont(font)
    qtbot.waitUntil(lambda: table.layout_ is not None and table.layout_.text_px == before,
                    timeout=2000)


def test_show_rejection_shows_the_reason_for_a_moment(qtbot: QtBot,
                                                      table: AllesKlarTable) -> None:
    table.set_view(_view(), demo_seats(2), 0)
    _click(qtbot, table, _card(table, SEVEN_III))
    table.show_rejection("The table changed before your move arrived; look again.")
    assert table.toast.isVisible()
    assert table.toast.text() == "The table changed before your move arrived; look again."
    assert table.toast.timer.isActive()
    assert table.graphics.viewport().rect().contains(table.toast.geometry())
    sent = _record(table)
    _click(qtbot, table, _card(table, NINE_PLAIN))
    assert sent == [{"type": "play", "card": NINE_PLAIN}], "a refused play frees the hand"


def test_a_trick_animates_to_its_winner_and_a_new_view_finishes_it(
        table: AllesKlarTable) -> None:
    _, before, after = demo_scene(2, "trick")
    seats = demo_seats(2)
    winner = after[None]["last"]["winner"]
    table.set_view(before[winner], seats, winner, animate=False)
    assert not table.animating
    table.set_view(after[winner], seats, winner)
    assert table.animating
    flying = [i for i in table.scene.items() if isinstance(i, CardItem) and i not in
              table.hand_items and i.card_id not in table.table_items]
    assert len(flying) == sum(len(r) for r in before[winner]["table"]) + 1
    table.set_view(after[winner], seats, winner, animate=False)
    assert not table.animating
    cards = [i for i in table.scene.items() if isinstance(i, CardItem)]
    assert len(cards) == len(table.hand_items) + len(table.table_items)


def test_a_decided_trick_held_on_the_table_shows_each_covered_card_by_its_index(
        table: AllesKlarTable) -> None:
    """Issue 31's decided trick, five players: while it is held to be read, a row of
    another player fanned four cards deep drew each card whole, so the next card lay
    over the big "11" of the one before; each covered card now shows its corner index
    (with its numerals), as the row did before the trick was decided."""
    from ui.tables.alles_klar.table import FLY_MS
    from ui.tables.motion import HOLD_MS
    from ui.tools.demos.alles_klar import choice_scene

    _, before, at = choice_scene(5, "won")
    seat = at[None]["turn"]
    table.set_view(before[seat], demo_seats(5, 3), seat, animate=False)
    table.set_view(at[seat], demo_seats(5, 3), seat)
    anim = table._anim
    assert anim is not None
    anim.pause()
    anim.setCurrentTime(FLY_MS + HOLD_MS // 2)
    held = [i for i in table.scene.items() if isinstance(i, CardItem)
            and i not in table.hand_items]
    rows: dict[float, list[CardItem]] = {}
    for item in held:
        rows.setdefault(round(item.y()), []).append(item)
    fanned = 0
    for row in rows.values():
        row.sort(key=lambda i: i.x())
        for lower, upper in pairwise(row):
            if upper.x() < lower.x() + lower.w - 1:
                fanned += 1
                assert lower.compact, (lower.card, upper.card)
    assert fanned >= 3


@pytest.mark.timeout(60)
def test_a_whole_game_is_played_by_clicking(qtbot: QtBot, table: AllesKlarTable) -> None:
    session = Session(GAME, 2, seed=5)
    seats = demo_seats(2)
    sent = _record(table)
    plays = animated = 0
    while session.result is None:
        seat = min(session.actors())
        table.set_view(session.view(seat), seats, seat)
        animated += table.animating
        _click(qtbot, table, next(item for item in table.hand_items if item.lit))
        if table.chooser.isVisible():
            qtbot.mouseClick(table.chooser.buttons[0], Qt.MouseButton.LeftButton)
        assert len(sent) == 1, "one click, one intent"
        session.submit(seat, sent.pop(), session.state_id)
        plays += 1
    table.set_view(session.view(0), seats, 0)
    result = session.result
    assert plays > 10 and animated > plays // 2, "clicks land while the last play animates"
    assert table.banner.text.startswith("Game over: ")
    best = max(result.scores)
    assert f"with {best} card" in table.banner.text
    assert not any(item.lit for item in table.hand_items)


def test_a_click_on_a_card_when_it_is_not_my_turn_says_why_near_the_pointer(
        qtbot: QtBot, table: AllesKlarTable) -> None:
    table.set_view(_view(turn=1), demo_seats(2), 0)
    sent = _record(table)
    item = table.hand_items[0]
    assert not item.lit
    _click(qtbot, table, item)
    assert sent == []
    assert table.toast.isVisible()
    assert table.toast.text().startswith("It is not your turn: waiting for "), \
        table.toast.text()
    near = table.graphics.mapFromScene(item.sceneBoundingRect().center())
    box = table.toast.geometry()
    assert abs(box.center().x() - near.x()) < 260 and box.bottom() <= near.y() + 40


@pytest.mark.parametrize("moment", ["won", "row"])
def test_the_turn_down_choice_lies_over_nothing_the_player_reads(qtbot: QtBot,
                                                                 moment: str) -> None:
    """Issue 31, five players at 1024x640 in German: the choice of the ranking card that
    turns down opened above the card, over the second line of "Mia gewinnt den Stich
    mit der 9 (dritthöchste, Rangkarte III): 18 Karten." (a trick just decided, its
    winner leading) and over my own cards of the trick. It now covers no piece that
    shows: it floats between the centre row's words and my hand, or lies over my hand,
    whose pieces under it give way until it closes; the last play, the ranking cards
    and every trick row stay in view."""
    from PyQt6.QtCore import QRectF

    from lanplay import locale
    from ui.tools.demos.alles_klar import choice_scene, open_choice

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)  # the window's text in the fit check's screenshots
    app.setFont(bigger)
    locale.set_language("de")
    try:
        widget = AllesKlarTable()
        qtbot.addWidget(widget)
        widget.resize(1000, 522)  # the table's part of a 1024x640 screen's window
        widget.show()
        qtbot.waitExposed(widget)
        _, before, at = choice_scene(5, moment)
        seat = at[None]["turn"]
        widget.set_view(before[seat], demo_seats(5, 3), seat, animate=False)
        widget.set_view(at[seat], demo_seats(5, 3), seat, animate=False)
        from PyQt6.QtWidgets import QGraphicsSimpleTextItem

        words = [i for i in widget.scene.items() if isinstance(i, QGraphicsSimpleTextItem)]
        last = [i for i in words if i.toolTip()]  # the last play's lines
        assert len(last) == (2 if moment == "won" else 1), [i.text() for i in last]
        mine = [widget.table_items[c["id"]] for c in at[seat]["table"][seat]]
        assert bool(mine) == (moment == "row")
        open_choice(widget)
        chooser = widget.chooser
        assert chooser.isVisible()
        box = QRectF(chooser.geometry())
        port = widget.graphics.viewport()
        assert port is not None
        assert QRectF(port.rect()).contains(box)
        read = [*words, *widget.ranking_items, *widget.table_items.values()]
        assert all(item.isVisible() for item in read)
        for item in widget.scene.items():
            if not item.isVisible() or item.parentItem() is not None:
                continue
            shown = QRectF(widget.graphics.mapFromScene(item.sceneBoundingRect())
                           .boundingRect())
            both = shown.intersected(box)
            assert both.width() <= 3 or both.height() <= 3, \
                (type(item).__name__, getattr(item, "text", lambda: "")(), shown, box)
        chooser.cancelled.emit()
        assert not chooser.isVisible()
        assert all(item.isVisible() for item in widget.hand_items)
        assert widget.plates[seat].isVisible()
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en
        app.setFont(was)
