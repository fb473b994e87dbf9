"""No Python exception ends the window: PyQt6 aborts the process on an exception in
a slot unless ``sys.excepthook`` is someone's own, and the window's ``SlipGuard`` is.
A slip is logged whole in the data folder, said once in one sentence, and the party
(connection, seat, table) goes on."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_ui_play import lit_cards, play_one
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from ui.dialogs.host_dialog import HostDialog
from ui.window.slips import LOG_NAME, QUIET_FOR, SlipGuard

SLOT_RAISES = r"""
import os, sys
from pathlib import Path
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PyQt6.QtCore import QTimer
from PyQt6.QtWidgets import QApplication, QPushButton
app = QApplication([])
said = []
if sys.argv[1] == "guarded":
    from ui.window.slips import SlipGuard
    SlipGuard(Path(sys.argv[2]), said.append).install()
button = QPushButton("x")
def boom():
    raise ValueError("raised on purpose")
button.clicked.connect(boom)
QTimer.singleShot(0, button.click)
QTimer.singleShot(100, app.quit)
app.exec()
print("alive", len(said))
"""


@pytest.mark.parametrize("guarded", [False, True])
def test_an_exception_in_a_slot_ends_the_process_unless_guarded(tmp_path: Path,
                                                                guarded: bool) -> None:
    """What the guard is for: without it PyQt6 aborts; with it the process lives."""
    done = subprocess.run([sys.executable, "-c", SLOT_RAISES,
                           "guarded" if guarded else "bare", str(tmp_path / "logs")],
                          capture_output=True, text=True, timeout=60)
    if guarded:
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "alive 1"
        text = (tmp_path / "logs" / LOG_NAME).read_text()
        assert "ValueError: raised on purpose" in text and "in boom" in text
    else:
        assert done.returncode != 0 and "alive" not in done.stdout


def test_slips_are_said_once_in_a_while_and_logged_every_time(tmp_path: Path) -> None:
    now = [100.0]
    said: list[str] = []
    guard = SlipGuard(tmp_path / "logs", said.append, clock=lambda: now[0])
    guard.install()
    try:
        for when in (0.0, 1.0, QUIET_FOR - 1):
            now[0] = 100.0 + when
            try:
                raise RuntimeError(f"slip at {when}")
            except RuntimeError as exc:
                guard.hook(type(exc), exc, exc.__traceback__)
        assert len(said) == 1 and len(guard.slips) == 3
        now[0] = 100.0 + QUIET_FOR + 1  # a while later, a new slip is said again
        try:
            raise KeyError("later")
        except KeyError as exc:
            guard.hook(type(exc), exc, exc.__traceback__)
        assert len(said) == 2
    finally:
        guard.uninstall()
    assert str(tmp_path / "logs" / LOG_NAME) in said[0]
    assert "your game goes on" in said[0]
    text = (tmp_path / "logs" / LOG_NAME).read_text()
    assert all(f"slip at {w}" in text for w in (0.0, 1.0, QUIET_FOR - 1))
    assert "KeyError: 'later'" in text


def test_a_full_log_folder_costs_the_log_never_the_window(tmp_path: Path) -> None:
    blocked = tmp_path / "logs"
    blocked.write_text("a file where the folder should be")
    said: list[str] = []
    guard = SlipGuard(blocked, said.append)
    guard.install()
    try:
        try:
            raise ValueError("nowhere to write")
        except ValueError as exc:
            guard.hook(type(exc), exc, exc.__traceback__)
    finally:
        guard.uninstall()
    assert len(said) == 1 and guard.slips == ["ValueError: nowhere to write"]


@pytest.mark.qt_no_exception_capture
@pytest.mark.timeout(90)
def test_a_window_at_a_table_survives_a_slip_and_plays_on(aloop: Runner,  # noqa: F811
                                                          tmp_path: Path) -> None:
    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"), data_dir=str(tmp_path / "data"))
        guard = ann.guard_slips()
        try:
            await ann.start()
            click(ann.home.host)
            dialog = ann.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("alles-klar")
            dialog.set_option("hand_size", 5)
            click(dialog.host)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 1, 15, ann)
            click(ann.room.add_bot_button)
            click(ann.room.add_bot_button)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 3, 15, ann)
            click(ann.room.ready_button)
            await until(lambda: ann.lobby is not None and ann.lobby.problem is None, 15, ann)
            click(ann.room.start_button)
            await until(lambda: ann.stack.currentWidget() is ann.game
                        and ann.game.view is not None, 15, ann)
            assert ann.conn is not None
            conn = ann.conn

            hooks: list[Any] = []

            def boom(*_args: Any) -> None:
                # Raised only while the guard is the hook: with Python's own, PyQt would
                # abort the whole test process (every later test of it lost); this test
                # then fails below and names the hook it found instead.
                if sys.excepthook != guard.hook:
                    hooks.append(sys.excepthook)
                    return
                raise ValueError("a slot that slips on every view")

            conn.bridge.view.connect(boom)  # beside the window's own slot
            rng, sent = random.Random(5), []
            ann.game.intent.connect(sent.append)
            start_id = conn.peer.state_id
            # Ann plays her cards; the bots answer; every view slips in our extra slot.
            table: Any = ann.game.table
            for _turn in range(3):
                await until(lambda: bool(lit_cards(ann)) and not table._pending, 20, ann)
                before = conn.peer.state_id
                assert play_one(ann, rng, sent)
                await until(lambda before=before: conn.peer.state_id > before, 20, ann)
            assert not hooks, f"the guard was not the hook while the slot slipped: {hooks[0]!r}"
            assert conn.peer.state_id >= start_id + 3
            assert ann.isVisible() and ann.party is not None and ann.conn is conn
            assert ann.stack.currentWidget() is ann.game
            assert ann.game.view is not None and ann.game.view.get("turn") is not None
            assert len(guard.slips) >= 3 and guard.said == 1
            assert ann.slip_notice.isVisible()
            words = ann.slip_notice.text.text()
            assert "Something went wrong in the window; your game goes on" in words
            log = tmp_path / "data" / "logs" / LOG_NAME
            assert str(log) in words
            text = log.read_text()
            assert text.count("a slot that slips on every view") >= 3
            assert "Traceback" in text and "in boom" in text
        finally:
            guard.uninstall()
            await close(ann)

    aloop(scenario(), 80)
