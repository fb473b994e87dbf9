"""Every game played to the end from the window, as a person would.

One window hosts from the Host dialog (the game, its mode, its options),
adds two bots, presses ready and starts; then every move of the person is a
mouse gesture on the game's own table inside the window, travelling to the
real host over TCP. The table tests play whole games against the rules
alone; this proves the window, the connection and the host carry them.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import Qt
from pytestqt.qtbot import QtBot
from test_ui_ranagedon_table import _gesture
from test_ui_ranking_table import _act_through_table
from test_ui_ranking_top_table import _act as _act_ranking_top
from test_ui_s_tier_table import _human_move
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from lanplay.games import load
from ui.dialogs.host_dialog import HostDialog
from ui.window.window import MainWindow


def _my_turn(win: MainWindow) -> bool:
    conn = win.conn
    if conn is None or conn.peer.view is None or conn.peer.seat is None:
        return False
    view = conn.peer.view
    if view.get("over") or win.stack.currentWidget() is not win.game:
        return False
    if view.get("phase") == "guess" and conn.peer.seat in view.get("locked", []):
        return False  # locked in on S-tier's shared board: the others decide now
    if view.get("game") == "s-tier" and view.get("phase") in ("count", "reveal"):
        return False  # the S-tier leader's laptop counts and reveals by itself
    return conn.peer.seat in view.get("actors", [])


def _ranking_top_by_mouse(qtbot: QtBot, table: Any, view: dict[str, Any],
                          rng: random.Random) -> None:
    """A card and where it goes, or TOP!/Pass by mouse: the table test's player, but
    clicking the buttons (a window can close under a slow hand, which the host refuses
    and the loop simply looks again)."""
    if view["phase"] != "window":
        _act_ranking_top(qtbot, table, view, rng)
        return
    def ready(button: Any) -> bool:
        return bool(button.isVisible() and button.isEnabled())

    if view.get("can_top") and rng.random() < 0.4 and ready(table.top_button):
        click(table.top_button)
        if table.chooser.isVisible():
            click(table.chooser.buttons[0])
    elif ready(table.pass_button):
        click(table.pass_button)
    # else: the table is between two windows (mine was just closed): look again


def _frog_by_mouse(qtbot: QtBot, table: Any, view: dict[str, Any], seat: int,
                   rng: random.Random) -> None:
    """The bot picks (frog, angle, strength); the table's own aiming turns it into a
    press on the frog's ring and a pull, as a person's hand would."""
    choice = load("ranagedon").bot(view, seat, rng)
    assert choice is not None
    if choice["type"] == "deploy":
        click(table.cluster_buttons[choice["cluster"]])
        click(table.confirm_button)
    elif choice["type"] == "stop":
        click(table.stop_button)
    else:
        if (choice["type"] == "dive") != table.dive_mode:
            click(table.dive_button)
        press, release = table.aim_points(choice["frog"], float(choice["theta"]),
                                          max(0.02, float(choice["s"])))
        _gesture(qtbot, table, press, release)


def _over(win: MainWindow) -> bool:
    return win.game.end.isVisible()


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("game", "mode", "options"), [
    ("ranking", "standard", {}),
    ("s-tier", "cooperative", {"coop_track": 3}),
    ("s-tier", "team", {"team_track": 3}),
    ("ranking-top", "standard", {}),
    ("ranagedon", "standard", {}),
])
def test_a_whole_game_from_the_window(aloop: Runner, qtbot: QtBot, tmp_path: Path,  # noqa: F811
                                      game: str, mode: str, options: dict[str, Any]) -> None:
    players = {"team": 4}.get(mode, 2 if game == "ranagedon" else 3)

    async def scenario() -> None:
        win = window(tmp_path, unique("Mia"), "#E69F00")
        try:
            await win.start()
            click(win.home.host)
            dialog = win.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game(game)
            dialog.mode.setCurrentIndex(dialog.mode.findData(mode))
            for key, value in options.items():
                dialog.set_option(key, value)
            click(dialog.host)
            await until(lambda: win.lobby is not None and len(win.lobby.seats) == 1, 15, win)
            for _ in range(players - 1):
                click(win.room.add_bot_button)
            await until(lambda: win.lobby is not None
                        and len(win.lobby.seats) == players, 15, win)
            click(win.room.ready_button)
            await until(lambda: win.lobby is not None and win.lobby.problem is None, 15, win)
            click(win.room.start_button)
            await until(lambda: win.stack.currentWidget() is win.game, 15, win)
            assert win.conn is not None and win.conn.host is not None
            host = win.conn.host
            assert host.room.mode == mode
            for key, value in options.items():
                assert host.room.options[key] == value

            rng = random.Random(4)
            sent: list[dict[str, Any]] = []
            win.game.intent.connect(sent.append)
            table: Any = win.game.table
            gestures = silent = 0
            while not _over(win):
                await until(lambda: _my_turn(win) or _over(win), 30, win)
                if _over(win):
                    break
                conn = win.conn
                assert conn is not None and conn.peer.view is not None
                view, before, said = conn.peer.view, conn.peer.state_id, len(sent)
                # A person waits for the tiles to land before clicking them.
                if game == "s-tier":
                    if table.revealing:  # the reveal lies on the board: a click goes on
                        qtbot.mouseClick(table.board, Qt.MouseButton.LeftButton)
                    table.board.finish()
                    _human_move(qtbot, table, view, conn.peer.seat)
                else:
                    table._finish_animation()
                if game == "ranking":
                    _act_through_table(qtbot, table, view, rng)
                elif game == "ranking-top":
                    _ranking_top_by_mouse(qtbot, table, view, rng)
                elif game == "ranagedon":  # the bot aims; the table's own gesture jumps
                    _frog_by_mouse(qtbot, table, view, conn.peer.seat, rng)
                gestures += 1
                if len(sent) == said:  # a gesture that only builds (a note being written)
                    silent += 1
                    assert silent < 12, f"gestures in phase {view.get('phase')} send nothing"
                    if game == "ranking-top":  # a closing window: wait for the next view
                        await until(lambda c=conn, b=before: c.peer.state_id > b  # type: ignore[misc]
                                    or _over(win), 15, win)
                    await asyncio.sleep(0)  # let Qt deliver what the clicks did
                    continue
                silent = 0
                # My move was applied, refused (a shared board moved under me), or
                # the game moved on without it: look again either way.
                await until(lambda c=conn, b=before: c.peer.state_id > b  # type: ignore[misc]
                            or len(c.peer.rejections) > 0 or _over(win), 15, win)
                conn.peer.rejections.clear()
            assert gestures >= 3 and sent
            if game == "s-tier":  # my notes stayed on my laptop; it revealed each one
                assert host.session is not None
                mine = [e.action["type"] for e in host.session.log if e.seat == 0]
                assert "note" not in mine and mine.count("commit") == mine.count("reveal")
                assert "commit" in mine, "the person never led: pick another seed"
            result = host.results[-1]
            assert win.game.end.scores == [f"{s:g}" for s in result.scores]
        finally:
            await close(win)

    aloop(scenario(), 110)
