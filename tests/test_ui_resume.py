"""A host killed mid-game comes back from Home with "Resume a game…".

A window hosts Alles klar? with a bot (games saved into the test's data
directory) and plays a few cards with real clicks; then the host dies as a
crash would (``Host.kill``) and the window goes with it. A fresh window finds
the unfinished game, first fails to reopen it while its port is taken (the
reason shows in the dialog, which stays usable), then resumes it: the table
is exactly where it was and the game plays on to its end.
"""

from __future__ import annotations

import copy
import os
import random
import socket
from pathlib import Path
from typing import Any

import pytest
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from ui.dialogs.host_dialog import HostDialog
from ui.dialogs.resume_dialog import ResumeDialog
from ui.window.window import MainWindow


def lit_cards(win: MainWindow) -> list[Any]:
    table: Any = win.game.table
    if win.stack.currentWidget() is not win.game or win.game.end.isVisible():
        return []
    if table.chooser.isVisible():
        return []
    return [item for item in getattr(table, "hand_items", []) if item.lit]


async def play_card(win: MainWindow, rng: random.Random) -> None:
    """Click one lit card (and a numeral if asked); wait until the host took it."""
    assert win.conn is not None
    before = win.conn.peer.state_id
    table: Any = win.game.table
    item = rng.choice(lit_cards(win))
    click(table.graphics.viewport(),
          table.graphics.mapFromScene(item.sceneBoundingRect().center()))
    if table.chooser.isVisible():
        click(rng.choice(table.chooser.buttons[:-1]))  # the last button is Cancel
    await until(lambda: win.conn is not None and win.conn.peer.state_id > before, 10, win)


@pytest.mark.timeout(90)
def test_killed_host_resumes_from_home(aloop: Runner, tmp_path: Path,  # noqa: F811
                                       data_dir: Path) -> None:
    name = unique("Hana")

    async def scenario() -> None:
        first: MainWindow | None = window(tmp_path, name, save=True, data_dir=data_dir)
        second: MainWindow | None = None
        try:
            await first.start()
            first.resize(960, 640)
            assert not first.home.resume.isVisible()  # nothing saved yet

            # Host Alles klar? with a bot, start, play a few cards.
            click(first.home.host)
            dialog = first.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("alles-klar")
            dialog.set_option("hand_size", 5)
            click(dialog.host)
            await until(lambda: first.lobby is not None and len(first.lobby.seats) == 1, 15,
                        first)
            assert first.conn is not None and first.conn.host is not None
            host = first.conn.host
            click(first.room.add_bot_button)
            await until(lambda: first.lobby is not None and len(first.lobby.seats) == 2, 15,
                        first)
            click(first.room.ready_button)
            await until(lambda: first.room.start_button.isEnabled(), 15, first)
            click(first.room.start_button)
            rng = random.Random(5)
            for _ in range(3):
                await until(lambda: bool(lit_cards(first)), 15, first)
                await play_card(first, rng)

            # The host dies at a moment when it waits for us; the app goes with it.
            await until(lambda: bool(lit_cards(first)) and host.session is not None
                        and first.conn is not None
                        and first.conn.peer.state_id == host.session.state_id, 15, first)
            assert first.conn is not None and host.session is not None
            state_id, view = host.session.state_id, copy.deepcopy(first.conn.peer.view)
            port, save = host.port, host.save_path
            assert save is not None and save.parent.parent == data_dir
            host.kill()
            await close(first)
            first = None
            assert save.exists()

            # A new window offers the unfinished game.
            second = window(tmp_path, name, save=True, data_dir=data_dir)
            await second.start()
            second.resize(960, 640)
            assert second.home.resume.isVisible() and second.home.resume.isEnabled()
            click(second.home.resume)
            resume = second.dialog
            assert isinstance(resume, ResumeDialog) and resume.isVisible()
            assert resume.games.topLevelItemCount() == 1
            row = resume.games.topLevelItem(0)
            assert row is not None
            assert row.text(0) == "Alles klar?" and name in row.text(1)
            assert int(row.text(2)) == state_id  # one state per accepted move
            assert resume.selected() == save and resume.ok.isEnabled()
            shots = Path(os.environ.get("LANPLAY_SHOTS", tmp_path))  # to look at them
            assert resume.grab().save(str(shots / "resume.png"))

            # Its port is taken: the dialog says so and stays usable.
            blocker = socket.socket()
            try:
                blocker.bind(("127.0.0.1", port))
                blocker.listen()
                click(resume.ok)
                await until(lambda: "try again" in resume.error.text(), 10, second)
                assert f"port {port}" in resume.error.text()
                assert resume.isVisible() and resume.ok.isEnabled() and second.conn is None
                assert resume.grab().save(str(shots / "resume-error.png"))
            finally:
                blocker.close()

            # Resumed: the same table, the owner's seat, and play goes on to the end.
            click(resume.ok)
            await until(lambda: second is not None and second.conn is not None
                        and second.conn.peer.view is not None
                        and second.stack.currentWidget() is second.game, 15, second)
            assert second.dialog is None
            conn = second.conn
            assert conn is not None and conn.host is not None and conn.host.port == port
            assert conn.peer.owner and conn.peer.seat == 0
            assert conn.peer.state_id == state_id and conn.peer.view == view
            table: Any = second.game.table
            assert table.view == view
            again = conn.host
            while not second.game.end.isVisible():
                await until(lambda: bool(lit_cards(second))  # type: ignore[arg-type]
                            or second.game.end.isVisible(), 20, second)  # type: ignore[union-attr]
                if lit_cards(second):
                    await play_card(second, rng)
            assert again.results and again.results[-1].scores is not None
            await until(lambda: not save.exists(), 10, second)  # filed in the history
            assert second.stack.currentWidget() is second.game
        finally:
            await close(*(w for w in (first, second) if w is not None))

    aloop(scenario(), 85)
