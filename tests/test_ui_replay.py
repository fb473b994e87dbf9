"""Replays in the window: a finished game gone over step by step with the game's own table.

The game is a real one (bots over real TCP, every frame each peer received kept):
stepping forward and back with the buttons, the arrow keys, the moves and the
slider puts on the table, at every step, exactly the view that seat was sent;
switching seat, the spectator, everything open, and a table that is read-only.
Then a window plays a game to its end: "Replay" on its end screen opens the game
just played from its own seat, its audit is kept in the data directory, and
Help -> Replays lists the finished games (each once) and opens one.
"""

from __future__ import annotations

import asyncio
import copy
import random
from pathlib import Path
from typing import Any

import pytest
from nethelpers import run
from PyQt6.QtCore import Qt
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication
from replay_games import Played, play
from test_replay import same
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from lanplay.games import load
from lanplay.replay import files
from lanplay.replay.model import ReplayError
from lanplay.store import folders
from protocol.messages import GameOver
from ui.dialogs.host_dialog import HostDialog
from ui.dialogs.replays import ReplaysDialog
from ui.pages.replay_window import READ_ONLY, ReplayWindow


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return run(play("alles-klar", 3, None, tmp_path_factory.mktemp("ui-replay"), seed=9))


def on_table(win: ReplayWindow, played: Played) -> None:
    """The table shows the replay's view of this step, and it is what the seat was sent."""
    table: Any = win.table
    assert table.view is win.replay.shown(win.step, win.viewer)
    assert same(table.view, played.views[win.viewer][win.step]), (win.viewer, win.step)
    assert table.you == win.viewer
    assert win.slider.value() == win.step and win.moves.currentRow() == win.step


@pytest.mark.timeout(60)
def test_stepping_forward_and_back_shows_the_views_the_seat_saw(qtbot: Any,
                                                                played: Played) -> None:
    replay = files.open_replay(played.history)
    win = ReplayWindow(replay, seat=1)
    qtbot.addWidget(win)
    with qtbot.waitActive(win):  # the keys are the window's shortcuts
        win.show()
        win.activateWindow()
    assert win.step == 0 and win.where.text() == "The deal"
    on_table(win, played)
    assert win.moves.count() == replay.steps
    assert not win.back_button.isEnabled() and win.forward_button.isEnabled()

    for _ in range(4):  # forward with the button, one move at a time
        QTest.mouseClick(win.forward_button, Qt.MouseButton.LeftButton)
        on_table(win, played)
    assert win.step == 4 and win.where.text() == f"Move 4 of {replay.moves}"
    QTest.keyClick(win, Qt.Key.Key_Right)
    assert win.step == 5
    on_table(win, played)
    for _ in range(3):  # back with the arrow key
        QTest.keyClick(win, Qt.Key.Key_Left)
        on_table(win, played)
    assert win.step == 2
    QTest.mouseClick(win.back_button, Qt.MouseButton.LeftButton)
    assert win.step == 1
    QTest.keyClick(win, Qt.Key.Key_PageDown)
    assert win.step == 11
    on_table(win, played)
    QTest.keyClick(win, Qt.Key.Key_End)
    assert win.step == replay.moves and not win.forward_button.isEnabled()
    on_table(win, played)
    assert win.table.view["over"]
    QTest.keyClick(win, Qt.Key.Key_Right)  # nothing after the end
    assert win.step == replay.moves
    QTest.keyClick(win, Qt.Key.Key_Home)
    assert win.step == 0
    on_table(win, played)

    # a click on a move goes there; so does the slider
    item = win.moves.item(20)
    assert item is not None
    win.moves.scrollToItem(item)
    QTest.mouseClick(win.moves.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, win.moves.visualItemRect(item).center())
    assert win.step == 20
    on_table(win, played)
    assert item.text().startswith("20. ") and replay.added(20, 1)[0] in item.text()
    win.slider.setValue(30)
    assert win.step == 30
    on_table(win, played)

    # stepping forward animates the move as the game did; stepping back jumps
    play_at = next(s for s in range(31, replay.moves)
                   if (replay.action(s + 1) or {}).get("type") == "play")
    win.go(play_at)
    QTest.keyClick(win, Qt.Key.Key_Right)
    assert win.table.animating
    QTest.keyClick(win, Qt.Key.Key_Left)
    assert not win.table.animating
    on_table(win, played)


@pytest.mark.timeout(60)
def test_another_seat_the_spectator_and_everything_open(qtbot: Any, played: Played) -> None:
    replay = files.open_replay(played.history)
    win = ReplayWindow(replay, seat=0)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.go(12)
    on_table(win, played)
    assert [win.chooser.itemText(i) for i in range(win.chooser.count())] == [
        "Bot 1", "Bot 2", "Bot 3", "A spectator"]
    for index, viewer in ((2, 2), (3, None), (1, 1)):  # as the chooser does it
        win.chooser.setCurrentIndex(index)
        win.chooser.activated.emit(index)
        assert win.viewer == viewer and win.step == 12
        on_table(win, played)
        win.go(13)
        on_table(win, played)
        win.go(12)
    hands = {seat: hidden["hand"] for seat, hidden in replay.everything(12)}
    assert set(hands) == {0, 1, 2} and all(hands.values())

    assert not win.open_card.isVisible()
    QTest.mouseClick(win.everything, Qt.MouseButton.LeftButton)
    assert win.everything.isChecked() and win.open_card.isVisible()
    text = win.open_text.toPlainText()
    for seat in range(3):
        assert f"Bot {seat + 1}" in text and replay.describe(hands[seat], 12) in text
    assert win.open_lines() == [f"Bot {s + 1}: hand {replay.describe(hands[s], 12)}"
                                for s in range(3)]
    win.go(40)
    assert win.open_lines() != [f"Bot {s + 1}: hand {replay.describe(hands[s], 12)}"
                                for s in range(3)]  # the hands move on with the game
    on_table(win, played)

    # the table is read-only: what it sends is answered, never played
    table: Any = win.table
    card = played.views[1][40]["hand"][0]
    table.intent.emit({"type": "play", "card": card["id"]})
    assert win.refused == 1 and win.step == 40
    assert table.toast.isVisible() and table.toast.text() == READ_ONLY
    on_table(win, played)


# --- the window: the game just played, and the list -----------------------------------------


def lit_cards(win: Any) -> list[Any]:
    table: Any = win.game.table
    if win.stack.currentWidget() is not win.game or win.game.end.isVisible():
        return []
    if table.chooser.isVisible():
        return []
    return [item for item in getattr(table, "hand_items", []) if item.lit]


@pytest.mark.timeout(120)
def test_replay_from_the_end_screen_and_from_the_list(aloop: Runner, tmp_path: Path,  # noqa: F811
                                                      data_dir: Path) -> None:
    async def scenario() -> None:
        win = window(tmp_path, unique("Rita"), save=True, data_dir=data_dir)
        try:
            await win.start()
            win.resize(960, 640)
            click(win.home.host)
            dialog = win.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("alles-klar")
            dialog.set_option("hand_size", 3)
            click(dialog.host)
            await until(lambda: win.lobby is not None and len(win.lobby.seats) == 1, 15, win)
            click(win.room.add_bot_button)
            await until(lambda: win.lobby is not None and len(win.lobby.seats) == 2, 15, win)
            click(win.room.ready_button)
            await until(lambda: win.room.start_button.isEnabled(), 15, win)
            conn = win.conn
            assert conn is not None
            seen: dict[int, dict[str, Any]] = {}

            def note(event: str, payload: Any) -> None:
                if event == "view" and conn.peer.view is not None:
                    seen[conn.peer.state_id] = copy.deepcopy(conn.peer.view)

            conn.peer.listeners.append(note)
            click(win.room.start_button)
            game, rng = load("alles-klar"), random.Random(4)
            while not win.game.end.isVisible():
                await until(lambda: bool(lit_cards(win)) or win.game.end.isVisible(), 30, win)
                if win.game.end.isVisible():
                    break
                view, before = conn.peer.view, conn.peer.state_id
                assert view is not None and conn.peer.seat is not None
                action = game.bot(view, conn.peer.seat, rng)
                assert action is not None
                win.game.table.intent.emit(action)  # type: ignore[attr-defined]
                await until(lambda b=before: conn.peer.state_id > b  # type: ignore[misc]
                            or win.game.end.isVisible(), 10, win)
            end = win.game.end
            await until(lambda: end.replay_button.isVisible(), 15, win)
            await until(lambda: win.last_game.path is not None, 15, win)
            kept = win.last_game.path
            assert kept is not None and kept.parent == files.audits_dir(data_dir)
            assert end.verdict.isVisible()

            # The end screen waits for the last moves on the table (the pacer); the audit
            # that comes meanwhile still shows on it, and so does "Replay"
            win.game.clear_result()
            win.pacer._timer.start(60_000)  # as if the last trick were still flying
            assert conn.peer.result is not None and conn.peer.verdict is not None
            conn.bridge.game_over.emit(GameOver(conn.peer.state_id, conn.peer.result))
            conn.bridge.audit.emit(conn.peer.verdict)
            assert not end.isVisible() and not end.replay_button.isVisible()
            win.pacer.jump(conn.peer.view or {})  # the table has caught up
            assert end.isVisible() and end.verdict.isVisible() \
                and end.replay_button.isVisible()

            # "Replay" on the end screen: the game just played, from this laptop's seat
            click(end.replay_button)
            assert len(win.replay_windows) == 1
            replay_win = win.replay_windows[0]
            assert isinstance(replay_win, ReplayWindow) and replay_win.isVisible()
            assert replay_win.viewer == conn.peer.seat
            assert replay_win.replay.steps == max(seen) + 1
            for step in (0, 1, 2, replay_win.replay.moves):
                replay_win.go(step)
                table: Any = replay_win.table
                assert same(table.view, seen[step]), step
            assert win.stack.currentWidget() is win.game and end.isVisible()  # untouched
            replay_win.close()
            await asyncio.sleep(0)
            await until(lambda: not win.replay_windows, 5, win)

            # Help -> Replays: the history and the kept audit are one game, listed once
            # (the host files the history once the end is told: wait for it)
            await until(lambda: any(folders.history_dir(data_dir).glob("*.json")), 10, win)
            win.replays_action.trigger()
            listing = win.dialog
            assert isinstance(listing, ReplaysDialog)
            assert listing.games.topLevelItemCount() == 1
            row = listing.games.topLevelItem(0)
            assert row is not None and row.text(0) == "Alles klar?"
            assert f"{win.settings.name} (you)" in row.text(1) and row.text(3)
            assert listing.selected() is not None \
                and listing.selected().parent.name == "history"  # type: ignore[union-attr]
            click(listing.ok)
            assert len(win.replay_windows) == 1 and not listing.isVisible()
            win.replay_windows[0].close()
        finally:
            await close(win)

    aloop(scenario(), 100)


@pytest.mark.timeout(30)
def test_the_list_says_why_a_file_does_not_replay_and_when_there_is_none(
        qtbot: Any, played: Played, tmp_path: Path) -> None:
    empty = ReplaysDialog([])
    qtbot.addWidget(empty)
    empty.show()
    assert empty.empty.isVisible() and not empty.games.isVisible()
    assert not empty.ok.isEnabled()

    broken = tmp_path / "saves" / "history" / played.history.name
    broken.parent.mkdir(parents=True)
    data = played.history.read_text().replace('"type":"play"', '"type":"pass"', 1)
    broken.write_text(data)
    listed = files.finished_games(tmp_path)
    assert [i.path for i in listed] == [broken]  # it reads as a game; its replay fails
    dialog = ReplaysDialog(listed)
    qtbot.addWidget(dialog)
    dialog.show()
    chosen: list[Path] = []
    dialog.chosen.connect(chosen.append)
    QTest.mouseClick(dialog.ok, Qt.MouseButton.LeftButton)
    assert chosen == [broken]
    try:
        files.open_replay(broken)
    except ReplayError as exc:
        dialog.failed(exc.reason)
    assert "does not follow the rules" in dialog.error.text()
    assert dialog.isVisible()


@pytest.mark.timeout(30)
def test_a_game_whose_check_failed_says_so_beside_its_moves(qtbot: Any, played: Played,
                                                            tmp_path: Path) -> None:
    reason = "At state 3: seat 1's view this laptop was sent differs from the replay in: hand."
    kept = files.keep_audit(played.audits[0], played.seats, 0, played.results[0], reason,
                            root=tmp_path)
    win = ReplayWindow(files.open_replay(kept))
    qtbot.addWidget(win)
    win.show()
    shown = [w.text() for w in win.findChildren(type(win.where)) if w.isVisible()]
    assert f"This laptop's check of the game at its end: {reason}" in shown
    assert win.viewer == 0 and win.chooser.currentText() == "Bot 1 (you)"


@pytest.mark.timeout(30)
def test_esc_closes_the_replay_window(qtbot: Any, played: Played) -> None:
    win = ReplayWindow(files.open_replay(played.history), seat=0)
    closed: list[bool] = []
    win.destroyed.connect(lambda *_: closed.append(True))  # it deletes itself on close
    with qtbot.waitActive(win):
        win.show()
        win.activateWindow()
    focus = QApplication.focusWidget()
    assert focus is not None and win.isAncestorOf(focus)
    QTest.keyClick(focus, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: bool(closed), timeout=5000)
