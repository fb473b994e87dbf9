"""Status lines that were stale or read wrong: the chat count, the clock, the room's wait."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from ui.game_page import GamePage
from ui.room import _with_you


def test_the_rooms_wait_reads_as_a_sentence() -> None:
    ann = {"name": "Ann"}
    problem = "Waiting for Ben, Ann to be ready."
    assert _with_you(problem, ann) == ("Waiting for you and Ben to be ready: press "
                                       "\u201cI'm ready\u201d.")
    assert _with_you("Waiting for Ann to be ready.", ann) == \
        "Waiting for you to be ready: press \u201cI'm ready\u201d."
    assert _with_you("Waiting for Ben, Cy, Dee to be ready.", ann) == \
        "Waiting for Ben, Cy and Dee to be ready."
    assert _with_you("Waiting for Ben to reconnect.", ann) == "Waiting for Ben to reconnect."


def test_the_chat_count_of_an_earlier_room_does_not_carry_over(qtbot: QtBot) -> None:
    page = GamePage()
    qtbot.addWidget(page)
    page.resize(1280, 800)
    page.show()
    page.add_chat("Ben", "#56B4E9", "hi", "B")
    assert not page.panel.isVisible() and page.chat_button.text() == "Chat (1)"
    page.clear_chat()  # the window enters another room
    assert page.chat_button.text() == "Chat" and page.unread == 0
    assert page.chat.history.toPlainText() == ""


def test_the_clock_shows_seconds_left_and_goes_at_none(qtbot: QtBot) -> None:
    page = GamePage()
    qtbot.addWidget(page)
    page.show()
    page.set_clock(3.2)
    assert page.clock.isVisible() and page.clock.text() == "4 s left"
    page.set_clock(0.0)  # the window closed: never "0 s left"
    assert not page.clock.isVisible()
    page.set_clock(0.4)
    assert page.clock.text() == "1 s left"
    qtbot.waitUntil(lambda: not page.clock.isVisible(), timeout=2000)
    assert page.clock.text() != "0 s left" or not page.clock.isVisible()
