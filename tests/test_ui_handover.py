"""A room handed over from the host's window to a guest's, mid-game (issue 34).

Lea's window hosts Alles klar? with a bot; Jonas's window joins by address, Mia
watches (a spectator peer). A few moves in, Lea picks Room → "Hand the room over…",
chooses Jonas; his window asks him and he accepts. His window now referees the room,
one term up, with the same seats; every laptop reads the one line that says so; the
bot plays on at Jonas's; Lea closes her window (a stand-in plays her seat) and the
watcher follows to the end, where every audit checks.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
from test_ui_room import host_room, join_by_address
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from lanplay import games
from lanplay.peer.peer import Peer
from ui.dialogs.confirm import Confirm
from ui.window.handing import Pick
from ui.window.window import MainWindow

REFEREES = "Jonas referees the game now"


async def play_seat(peer: Peer) -> None:
    """Play ``peer``'s seat with its game's bot to the end, as its person would, also
    across the move to the new host (a move made while the room moves is made again)."""
    game = games.load(peer.game_id)
    rng = random.Random(3)
    acted = [-1]  # the state last acted on (a listener resets it)

    def on_event(event: str, payload: Any) -> None:
        if event == "reconnected" or (event == "rejected" and payload.code != "moving"):
            acted[0] = -1

    peer.listeners.append(on_event)
    while True:
        await peer.wait_until(lambda p: p.result is not None or (
            p.view is not None and p.view.get("turn") == p.seat and p.state_id != acted[0]
            and p.link is not None), 60)
        if peer.result is not None:
            return
        assert peer.view is not None and peer.seat is not None
        acted[0] = peer.state_id
        peer.intent(game.bot(peer.view, peer.seat, rng))


def chat_of(win: MainWindow) -> str:
    return win.game.chat.history.toPlainText() + win.room.chat.history.toPlainText()


@pytest.mark.timeout(90)
def test_the_host_window_hands_the_room_to_a_guest_window_mid_game(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    async def scenario() -> None:
        lea = window(tmp_path, unique("Lea"), "#E69F00")
        jonas = window(tmp_path, "Jonas", "#009E73")
        mia = Peer("Mia", spectate=True)
        tasks: list[asyncio.Task[Any]] = []
        windows = [lea, jonas]
        try:
            await lea.start()
            await jonas.start()
            port = await host_room(lea)
            click(lea.room.add_bot_button)
            await join_by_address(jonas, f"127.0.0.1:{port}")
            await until(lambda: lea.lobby is not None and len(lea.lobby.seats) == 3, 15,
                        lea, jonas)
            await mia.connect("127.0.0.1", port)
            tasks.append(asyncio.create_task(mia.run()))
            click(jonas.room.ready_button)
            click(lea.room.ready_button)
            await until(lambda: lea.room.start_button.isEnabled(), 15, lea)
            click(lea.room.start_button)
            assert lea.conn is not None and jonas.conn is not None
            tasks += [asyncio.create_task(play_seat(w.conn.peer)) for w in (lea, jonas)
                      if w.conn is not None]
            await mia.wait_until(lambda p: p.state_id >= 4, 20)

            # Room -> Hand the room over...: Jonas is on the list (the bot is not)
            lea.handing.refresh()
            assert lea.handing.hand_action.isEnabled()
            old_host = lea.conn.host
            clicked = time.monotonic()
            lea.handing.hand_action.trigger()
            pick = lea.dialog
            assert isinstance(pick, Pick)
            assert [c.name for c in pick.conns] == ["Jonas", "Mia"]
            click(pick.ok)
            await until(lambda: isinstance(jonas.dialog, Confirm), 10, jonas)
            question = jonas.dialog
            assert "Lea" in question.text.text() and "every hand" in question.text.text()
            click(question.yes_button)

            await until(lambda: jonas.conn is not None and jonas.conn.host is not None, 15,
                        jonas)
            new_host = jonas.conn.host
            assert new_host.room.term == 2 and new_host.room.id == mia.room
            before = new_host.session.state_id
            await mia.wait_until(lambda p: p.term == 2 and p.state_id > before, 20)
            took = time.monotonic() - clicked
            print(f"hand-over: {took:.2f} s from the click to the first move at the new host")
            assert took < 5
            await until(lambda: lea.conn is not None and lea.conn.host is None, 10, lea)
            assert old_host.status.stopping  # the old host is done; Lea's window is a guest
            assert mia.referee_line is not None and REFEREES in mia.referee_line
            await until(lambda: REFEREES in chat_of(lea) and REFEREES in chat_of(jonas), 10,
                        lea, jonas)
            assert [s.name for s in new_host.room.seats] == \
                [s["name"] for s in lea.lobby.seats]  # the same seats
            assert jonas.conn.peer.owner and not lea.conn.peer.owner

            windows.remove(lea)
            await close(lea)  # the old window closes; a stand-in plays Lea's seat
            await mia.wait_until(lambda p: p.result is not None, 60)
            await mia.wait_until(lambda p: p.verdict is not None, 10)
            assert mia.verdict is not None and mia.verdict.ok, mia.verdict
            await jonas.conn.peer.wait_until(lambda p: p.verdict is not None, 10)
            assert jonas.conn.peer.verdict.ok
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await mia.close()
            await close(*windows)

    aloop(scenario(), 80)
