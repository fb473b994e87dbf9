"""Status lines that were stale or read wrong: the chat count, the clock, the room's wait."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from ui.pages.game.page import GamePage
from ui.pages.room import _with_you


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


def test_the_questions_before_closing_leaving_and_removing_say_what_happens() -> None:
    from protocol.messages import Lobby
    from ui.dialogs.confirm import close_question, leave_question, remove_question

    seats = [{"name": "Ann", "bot": False}, {"name": "Bot 1", "bot": True},
             {"name": "Ben", "bot": False}, {"name": "Cy", "bot": False},
             {"name": "Dee", "bot": False}]
    playing = Lobby("Ann", "alles-klar", "standard", {}, seats, "playing", standin_after=30)
    title, text, yes, no = close_question(playing, 0, saved=True) or ("", "", "", "")
    assert text.startswith("End the game for 3 other players? They can come back if you "
                           "resume it")
    assert (title, yes, no) == ("Close the room?", "Pause and close", "Keep playing")
    assert "cannot be resumed" in (close_question(playing, 0, saved=False) or ("",) * 4)[1]
    leave = leave_question(playing, 2)
    # leaving on purpose, a stand-in plays at once (a dropped laptop waits 30 s)
    assert leave is not None and "A bot plays your seat from now on" in leave[1]
    room = Lobby("Ann", "alles-klar", "standard", {}, seats[:3], "lobby", spectators=2)
    assert (close_question(room, 0, saved=True) or ("",) * 4)[1] == \
        "Ben and 2 spectators go back to Home."
    alone = Lobby("Ann", "alles-klar", "standard", {}, seats[:2], "lobby")
    assert close_question(alone, 0, saved=True) is None, "only a bot: nothing to ask"
    assert leave_question(room, 2) is None, "leaving a room before a game harms nobody"
    assert remove_question(room, 1) is None and "Ben goes back to Home" in \
        (remove_question(room, 2) or ("",) * 4)[1]
