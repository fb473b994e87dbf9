"""Issue 11, points 2, 7 and 9: the table keeps its size with chat open, nothing the
player clicks next moves, keys are shown where they work and listed in F1, and the
dialogs read right (Enter, option words, a check box that can be seen).

Real widgets offscreen with real mouse and key events; views from the games' own
seeded demo moments.
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QPoint, Qt
from PyQt6.QtGui import QColor
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QCheckBox, QComboBox, QLabel, QPushButton
from pytestqt.qtbot import QtBot
from ui_harness import settle

from lanplay.room import PALETTE
from ui.dialogs.host_dialog import HostDialog
from ui.dialogs.identity import IdentityDialog
from ui.dialogs.rules_help import RulesDialog
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.tables.s_tier import STierTable
from ui.tools.demos.s_tier import Game, demo_seats
from ui.window.window import MainWindow


def _window(qtbot: QtBot, size: tuple[int, int]) -> MainWindow:
    window = MainWindow(Settings(name="Mia", colour="#E69F00"),
                        NetConfig(interfaces=["127.0.0.1"], save=False))
    qtbot.addWidget(window)
    window.show()
    window.resize(*size)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size)
    return window


def _ranagedon_board(qtbot: QtBot, size: tuple[int, int], chat: bool | None) -> float:
    """The board's scale on a Ranagedon table in the game page at ``size``."""
    from ui.tools.demos import ranagedon as demo

    window = _window(qtbot, size)
    page = window.game
    window.stack.setCurrentWidget(page)
    page.set_game("ranagedon", "Mia")
    _, _before, at = demo.demo_scene(2, "mid")
    seat = at[None]["turn"]
    page.set_seats(demo.demo_seats(2, 1), seat, True)
    if chat is not None:
        page._chat_chosen = chat
        page._show_chat(chat)
    settle()
    page.set_view(at[seat], animate=False)
    settle()
    table: Any = page.table
    size = float(table.board.size)
    window.close()
    return size


def test_the_chat_opening_by_itself_at_1600_does_not_shrink_the_board(qtbot: QtBot) -> None:
    """At 1600x1000 the chat opens by itself: it lies over the log, and the board is
    at least as large as at 1280x800 without it (it used to be smaller)."""
    small = _ranagedon_board(qtbot, (1280, 800), None)
    wide = _ranagedon_board(qtbot, (1600, 1000), None)
    assert small > 0 and wide >= small
    closed = _ranagedon_board(qtbot, (1280, 800), False)
    opened = _ranagedon_board(qtbot, (1280, 800), True)
    assert opened == closed  # opening the chat never squeezes the table


def test_the_chat_lies_over_the_log_and_not_over_the_table(qtbot: QtBot) -> None:
    from ui.tools.demos import alles_klar as demo

    window = _window(qtbot, (1024, 640))
    page = window.game
    window.stack.setCurrentWidget(page)
    page.set_game("alles-klar", "Mia")
    _, _before, at = demo.demo_scene(5, "mid")
    seat = at[None]["turn"]
    page.set_seats(demo.demo_seats(5, 3), seat, True)
    page.set_view(at[seat], animate=False)
    table: Any = page.table
    felt = table.graphics.width()
    qtbot.mouseClick(page.chat_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.panel.isVisible())
    assert table.graphics.width() == felt
    log = table.log_panel
    assert page.panel.geometry().left() == log.mapTo(page.area, QPoint(0, 0)).x()
    assert page.panel.width() == log.width()
    qtbot.mouseClick(table.banner.toggle, Qt.MouseButton.LeftButton)  # "Hide log"
    qtbot.waitUntil(lambda: not page.panel.isVisible())  # the chat goes with its place


def test_placing_a_note_s_pictures_moves_none_of_the_others(qtbot: QtBot) -> None:
    """S-tier team note: after each placement the pictures still below the tiers stay
    exactly where they were, so clicking them in order hits the ones meant."""
    table = STierTable()
    qtbot.addWidget(table)
    table.resize(1280, 800)
    table.show()
    game = Game("team", 6)
    game.until(lambda s: s.phase == "notes")
    seat = next(s for s in sorted(game.mod.actors(game.state)))
    table.set_view(game.mod.view(game.state, seat), demo_seats(6), seat)
    board = table.board
    pool = [t.id for t in board.model.pool]
    assert len(pool) >= 4
    for tier, picture in enumerate(pool[:3]):
        before = {pid: board.tile_rect(pid) for pid in pool[tier + 1:]}
        rect = board.tile_rect(picture)
        assert rect is not None
        qtbot.mouseClick(board, Qt.MouseButton.LeftButton,
                         pos=QPoint(int(rect.left() + rect.width() * 0.3),
                                    int(rect.center().y())))
        cell = board.cell_rect(0, tier)
        assert cell is not None
        qtbot.mouseClick(board, Qt.MouseButton.LeftButton,
                         pos=QPoint(int(cell.right() - 20), int(cell.center().y())))
        assert board.tile_rect(picture) is not None
        board.finish()
        after = {pid: board.tile_rect(pid) for pid in pool[tier + 1:]}
        assert after == before, f"placing {picture} moved the others"


def test_the_hand_shows_its_keys_and_f1_lists_them(qtbot: QtBot) -> None:
    from ui.tables.alles_klar import AllesKlarTable
    from ui.tools.demos import alles_klar as demo

    table = AllesKlarTable()
    qtbot.addWidget(table)
    table.resize(1280, 800)
    table.show()
    _, _before, at = demo.demo_scene(3, "early")
    seat = at[None]["turn"]
    table.set_view(at[seat], demo.demo_seats(3), seat, animate=False)
    assert [c.key for c in table.hand_items] == [str(i + 1) for i in
                                                 range(len(table.hand_items))]
    assert all(c.lit for c in table.hand_items)
    sent: list[dict[str, Any]] = []
    table.intent.connect(sent.append)
    table.setFocus()
    QTest.keyClick(table, Qt.Key.Key_2)
    second = table.hand_items[1].card_id if table.hand_items else None
    assert (sent and sent[0]["card"] == second) or table.chooser.isVisible()
    for game, key in (("alles-klar", "1-9"), ("ranking", "1-7"), ("ranking-top", "Space"),
                      ("s-tier", "S, A, B, C, D"), ("ranagedon", "Left, Right")):
        rules = RulesDialog(game)
        qtbot.addWidget(rules)
        text = rules.text.toPlainText()
        assert "Keys" in text and key in text and "F1" in text, game


def test_enter_after_picking_a_colour_presses_lets_play(qtbot: QtBot) -> None:
    dialog = IdentityDialog("Mia", PALETTE[0], first=True)
    qtbot.addWidget(dialog)
    dialog.show()
    chosen: list[tuple[str, str]] = []
    dialog.chosen.connect(lambda name, colour: chosen.append((name, colour)))
    colour = dialog.colours.button(3)
    assert colour is not None
    qtbot.mouseClick(colour, Qt.MouseButton.LeftButton)
    assert colour.hasFocus() or dialog.focusWidget() is colour
    QTest.keyClick(colour, Qt.Key.Key_Return)
    assert chosen == [("Mia", str(colour.property("colour")))]
    assert colour.isChecked()


def test_the_host_dialog_shows_words_and_a_check_box_that_can_be_seen(qtbot: QtBot) -> None:
    dialog = HostDialog(game_id="alles-klar")
    qtbot.addWidget(dialog)
    dialog.show()
    combos = [w for w in dialog.findChildren(QComboBox) if w.isVisible()]
    shown = [c.itemText(i) for c in combos for i in range(c.count())]
    assert "Finish trick" in shown and "finish-trick" not in shown
    helps = " ".join(w.text() for w in dialog.findChildren(QLabel) if w.isVisible())
    assert "Finish trick:" in helps and "finish-trick:" not in helps
    dialog.select_game("s-tier")
    dialog.mode.setCurrentIndex(dialog.mode.findData("cooperative"))
    boxes = [b for b in dialog.findChildren(QCheckBox) if b.isVisible()]
    assert boxes, "the cooperative mode has the harder game's check box"
    image = boxes[0].grab().toImage()
    light = sum(1 for x in range(image.width()) for y in range(image.height())
                if QColor(image.pixel(x, y)).lightnessF() > 0.75)
    assert light > 40, "the box must stand out from the dark card"


def test_the_window_buttons_of_a_dialog_fit_the_window(qtbot: QtBot) -> None:
    """A dialog opened over a 1024x640 window is no larger than it."""
    window = _window(qtbot, (1024, 640))
    window.open_host_dialog()
    dialog = window.dialog
    assert isinstance(dialog, HostDialog)
    assert dialog.width() <= 1024 and dialog.height() <= 640
    host = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Host")
    assert host.isVisible()
    dialog.reject()


def test_the_room_shows_every_seat_it_has_room_for(qtbot: QtBot) -> None:
    """The seats scroll in their card: a few seats all show (the box once shrank to
    nothing when the room changed while shown), sixteen scroll, none squeezed."""
    from protocol.messages import Lobby
    from ui.pages.room import RoomPage
    from ui.tools.demos.s_tier import demo_seats as many

    room = RoomPage()
    qtbot.addWidget(room)
    room.resize(1024, 600)
    room.show()
    for count in (1, 4, 4, 16):
        seats = many(count)
        room.show_lobby(Lobby("Mia", "s-tier", "team", {}, seats, "lobby"), 0, True)
        settle()
        port = room.seats_area.viewport()
        assert port is not None
        shown = [row["name"] for row in room.seat_rows
                 if port.rect().contains(row["name"].geometry().translated(
                     row["name"].parentWidget().mapTo(port, QPoint(0, 0))))]  # type: ignore[union-attr]
        if count <= 4:
            assert len(shown) == count, count
        else:
            assert len(shown) >= 5 and room.seats_area.verticalScrollBar().maximum() > 0  # type: ignore[union-attr]
        for row in room.seat_rows:
            assert row["name"].height() >= row["name"].sizeHint().height()


def test_the_seats_box_grows_with_the_text(qtbot: QtBot) -> None:
    """A taller window makes all text larger (ui.window.window: 1080 lines read from as far
    as 800): the seats' box counts its rows again, so four seats still all show (it
    kept the height of the smaller text and cut the last row)."""
    from protocol.messages import Lobby
    from ui.look import theme
    from ui.pages.room import RoomPage
    from ui.tools.demos.s_tier import demo_seats as many

    room = RoomPage()
    qtbot.addWidget(room)
    room.resize(1900, 1000)
    room.show()
    room.show_lobby(Lobby("Mia", "s-tier", "team", {}, many(4), "lobby"), 0, True)
    settle()
    port = room.seats_area.viewport()
    assert port is not None

    def shown() -> int:
        return sum(1 for row in room.seat_rows
                   if port.rect().contains(row["name"].geometry().translated(
                       row["name"].parentWidget().mapTo(port, QPoint(0, 0)))))  # type: ignore[union-attr]

    assert shown() == 4
    try:
        theme.apply(1.4)
        qtbot.waitUntil(lambda: shown() == 4, timeout=2000)
    finally:
        theme.apply(1.0)
