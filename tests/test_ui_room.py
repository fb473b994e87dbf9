"""The room through two windows: join by address, chat, reorder, remove, leave, close.

Window A hosts; window B joins by typing A's address (the fallback when
multicast is blocked). Everything is clicked or typed; the assertions read
what each window shows and what the real host holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QLabel
from ui_harness import (  # noqa: F401
    Runner,
    aloop,
    click,
    close,
    type_and_enter,
    unique,
    until,
    window,
)

from ui.dialogs.confirm import Confirm
from ui.dialogs.host_dialog import HostDialog
from ui.dialogs.join_dialog import JoinAddressDialog
from ui.dialogs.rules_help import RulesDialog
from ui.window.window import MainWindow


async def host_room(win: MainWindow) -> int:
    """Host Alles klar? from the Home screen; the port the room listens on."""
    click(win.home.host)
    dialog = win.dialog
    assert isinstance(dialog, HostDialog)
    dialog.select_game("alles-klar")
    click(dialog.host)
    await until(lambda: win.lobby is not None, 15, win)
    assert win.conn is not None and win.conn.host is not None
    return win.conn.host.port


async def join_by_address(win: MainWindow, text: str) -> JoinAddressDialog:
    click(win.home.join_address)
    dialog = win.dialog
    assert isinstance(dialog, JoinAddressDialog) and dialog.isVisible()
    dialog.address.setFocus()
    type_and_enter(dialog.address, text)
    return dialog


def names(win: MainWindow) -> list[str]:
    assert win.lobby is not None
    return [s["name"] for s in win.lobby.seats]


@pytest.mark.timeout(60)
def test_room_chat_order_remove_leave_and_close(aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"), "#E69F00")
        ben = window(tmp_path, "Ben", "#009E73")
        try:
            await ann.start()
            await ben.start()
            port = await host_room(ann)
            click(ann.room.add_bot_button)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 2, 10, ann)

            # Ben types the address; the dialog closes once he is in.
            await join_by_address(ben, f"127.0.0.1:{port}")
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 3
                        and ben.lobby is not None and len(ben.lobby.seats) == 3, 15,
                        ann, ben)
            assert ben.dialog is None and ben.stack.currentWidget() is ben.room  # closed
            assert names(ann)[2] == "Ben" and ben.room.you == 2
            assert "(you)" in ben.room.seat_rows[2]["name"].text()  # type: ignore[attr-defined]

            # Chat: Enter sends, both rooms show it with the sender's name.
            type_and_enter(ben.room.chat.line, "hello from Ben")
            await until(lambda: "hello from Ben" in ann.room.chat.history.toPlainText(), 10,
                        ann)
            assert "Ben: hello from Ben" in ann.room.chat.history.toPlainText()
            assert ben.room.chat.line.text() == ""

            # F1 shows the rules of the game in the room; Esc closes them.
            ben.activateWindow()
            await until(lambda: ben.isActiveWindow(), 5, ben, ann)
            QTest.keyClick(ben.room, Qt.Key.Key_F1)
            rules = ben.rules_dialog
            assert isinstance(rules, RulesDialog) and rules.isVisible()
            assert "ranking card" in rules.text.toPlainText()
            QTest.keyClick(rules, Qt.Key.Key_Escape)
            await until(lambda: ben.rules_dialog is None, 5, ben)

            # The owner moves Ben up a seat; Ben's window follows his new number.
            assert "remove" in ann.room.seat_rows[2] and "up" in ann.room.seat_rows[2]
            assert "remove" not in ben.room.seat_rows[2]  # not the owner: no controls
            click(ann.room.seat_rows[2]["up"])
            await until(lambda: ben.lobby is not None and names(ben)[1] == "Ben"
                        and ben.room.you == 1, 10, ann, ben)
            assert ben.conn is not None and ben.conn.peer.seat == 1

            # The owner removes Ben, after a question that says what happens to him.
            click(ann.room.seat_rows[1]["remove"])
            question = ann.dialog
            assert isinstance(question, Confirm) and "Ben goes back to Home" in \
                question.text.text()
            click(question.yes_button)
            await until(lambda: ben.stack.currentWidget() is ben.gone, 10, ben)
            assert "removed you" in ben.gone.reason.text()
            await until(lambda: ann.lobby is not None and "Ben" not in names(ann), 10, ann)
            click(ben.gone.home)
            assert ben.stack.currentWidget() is ben.home and ben.conn is None

            # Ben joins again (a new seat), then leaves by himself.
            await join_by_address(ben, f"127.0.0.1:{port}")
            await until(lambda: ben.lobby is not None and ann.lobby is not None
                        and "Ben" in names(ann), 15, ann, ben)
            click(ben.room.leave_button)
            # Leaving between games says goodbye, and the host frees the seat.
            await until(lambda: ben.stack.currentWidget() is ben.home and ann.lobby is not None
                        and "Ben" not in names(ann), 10, ann, ben)
            assert ben.conn is None
            assert "Ben" not in ann.room.problem.text()

            # Ben joins once more; the owner closes the room: Ben is told the host is gone.
            await join_by_address(ben, f"127.0.0.1:{port}")
            await until(lambda: ben.lobby is not None, 15, ben)
            assert ann.room.leave_button.text() == "Close the room"
            click(ann.room.leave_button)  # Ben is there: first a question, "Stay" stays
            question = ann.dialog
            assert isinstance(question, Confirm)
            assert question.text.text() == "Ben goes back to Home."
            click(question.no_button)
            assert ann.conn is not None and ann.stack.currentWidget() is ann.room
            click(ann.room.leave_button)
            question = ann.dialog
            assert isinstance(question, Confirm)
            click(question.yes_button)
            await until(lambda: ben.stack.currentWidget() is ben.gone
                        and ann.stack.currentWidget() is ann.home, 10, ann, ben)
            assert "host closed the room" in ben.gone.reason.text()
            assert ann.conn is None
            click(ben.gone.home)
            assert ben.home.host.isEnabled() and ben.home.join_address.isEnabled()

            # Closing the host's window asks what "Close the room" asks (Ben is there),
            # then closes its room too, after the goodbyes.
            port = await host_room(ann)
            await join_by_address(ben, f"127.0.0.1:{port}")
            await until(lambda: ben.lobby is not None, 15, ben)
            assert ann.done is not None and not ann.done.is_set()
            ann.close()
            question = ann.dialog
            assert isinstance(question, Confirm)
            assert question.text.text() == "Ben goes back to Home."
            assert ann.isVisible() and not ann.done.is_set()
            click(question.yes_button)
            await until(lambda: ben.stack.currentWidget() is ben.gone
                        and ann.done is not None and ann.done.is_set(), 10, ann, ben)
            assert not ann.isVisible() and "host closed the room" in ben.gone.reason.text()
        finally:
            await close(ben, ann)

    aloop(scenario(), 55)


def test_the_room_marks_each_seat_s_team_where_the_mode_plays_in_teams(qtbot: Any) -> None:
    from protocol.messages import Lobby
    from ui.pages.room import RoomPage, seat_teams

    seats = [{"name": n, "colour": "#E69F00", "ready": False, "bot": True, "connected": True}
             for n in ("Ann", "Ben", "Cat", "Dan")]
    team = Lobby("h", "s-tier", "team", {}, seats, "lobby")
    assert seat_teams(team) == {0: "Green team", 1: "Red team", 2: "Green team",
                                3: "Red team"}
    assert seat_teams(Lobby("h", "s-tier", "cooperative", {}, seats, "lobby")) == {}
    assert seat_teams(Lobby("h", "alles-klar", "standard", {}, seats, "lobby")) == {}
    page = RoomPage()
    qtbot.addWidget(page)
    page.show_lobby(team, 0, True)
    marks = page.seat_rows[2]["marks"]
    texts = [w.text() for w in marks.findChildren(QLabel)]
    assert texts[0] == "Green team"


def test_the_room_names_the_mode_s_options_in_words() -> None:
    from lanplay.game import resolve_options
    from lanplay.games import load
    from protocol.messages import Lobby
    from ui.pages.room import options_text

    every = resolve_options(load("s-tier"), {})  # the host resolves all of them
    coop = options_text(Lobby("h", "s-tier", "cooperative", every, [], "lobby"))
    # "built\u2011in": a non-breaking hyphen (the subtitle broke "built-" / "in")
    assert coop == ("Cooperative \u00b7 Picture pack: built\u2011in \u00b7 Harder game (text "
                    "side): no \u00b7 Steps to the star: 4 \u00b7 Time to guess (s): 300")
    team = options_text(Lobby("h", "s-tier", "team", {**every, "pack": "office"}, [], "lobby"))
    assert team == "Team \u00b7 Picture pack: office \u00b7 Steps to the star: 5"


@pytest.mark.timeout(60)
def test_the_owner_chooses_relaxed_or_strong_bots(aloop: Runner,  # noqa: F811
                                                  tmp_path: Path) -> None:
    """Bots won by a lot (48 to 10 and 6): the room offers two strengths, relaxed by
    default; the host's bots read the room's choice."""
    async def scenario() -> None:
        win = window(tmp_path, "Mia")
        win.settings.host_hint_seen = True
        await win.start()
        try:
            await host_room(win)
            room = win.room
            assert room.bots_box.isVisible()
            assert room.bots_box.currentData() == "relaxed"
            room.bots_box.setCurrentIndex(room.bots_box.findData("strong"))
            room.bots_box.activated.emit(room.bots_box.currentIndex())
            assert win.conn is not None and win.conn.host is not None
            host = win.conn.host
            await until(lambda: host.room.bots == "strong" and win.lobby is not None
                        and win.lobby.bots == "strong", 10, win)
        finally:
            await close(win)

    aloop(scenario(), 50)
