"""The host's window says when play is paused because its disk is full (issue 12,
finding 3), and where to make room; the banner goes once the game is saved again.

A window hosts Alles klar? with a bot, its games saved on a real 256 KiB tmpfs
(root only; skipped with the reason otherwise). The disk is filled, the person
plays a card: the move is held, the banner says why, and the table stays where
the save left it. Room is made again: the banner goes and the card can be played.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from smalldisk import empty, fill, small_disk
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from lanplay.store import saves
from ui.dialogs.host_dialog import HostDialog
from ui.window.window import MainWindow


def lit_cards(win: MainWindow) -> list[Any]:
    table: Any = win.game.table
    if win.stack.currentWidget() is not win.game or win.game.end.isVisible():
        return []
    if table.chooser.isVisible():
        return []
    return [item for item in getattr(table, "hand_items", []) if item.lit]


def click_a_card(win: MainWindow, rng: random.Random) -> None:
    table: Any = win.game.table
    item = rng.choice(lit_cards(win))
    click(table.graphics.viewport(),
          table.graphics.mapFromScene(item.sceneBoundingRect().center()))
    if table.chooser.isVisible():
        click(rng.choice(table.chooser.buttons[:-1]))  # the last button is Cancel


@pytest.mark.timeout(90)
def test_the_hosts_window_says_play_is_paused_until_the_game_can_be_saved(
        aloop: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    # Every move a full save (a new file): a move's journal line could still fit in
    # the last page the journal already has on the full disk.
    monkeypatch.setattr(saves, "COMPACT_EVERY", 1)
    with small_disk() as disk:
        async def scenario() -> None:
            win = window(tmp_path, unique("Hilde"), save=True, data_dir=disk)
            try:
                await win.start()
                click(win.home.host)
                dialog = win.dialog
                assert isinstance(dialog, HostDialog)
                dialog.select_game("alles-klar")
                click(dialog.host)
                await until(lambda: win.lobby is not None and len(win.lobby.seats) == 1, 15,
                            win)
                assert win.conn is not None and win.conn.host is not None
                host = win.conn.host
                click(win.room.add_bot_button)
                await until(lambda: win.lobby is not None and len(win.lobby.seats) == 2, 15,
                            win)
                click(win.room.ready_button)
                await until(lambda: win.room.start_button.isEnabled(), 15, win)
                click(win.room.start_button)
                await until(lambda: bool(lit_cards(win)), 15, win)
                assert win.conn is not None and host.session is not None
                before = win.conn.peer.state_id
                assert before == host.session.state_id

                filler = fill(disk)
                rng = random.Random(3)
                click_a_card(win, rng)
                await until(lambda: win.banner.isVisible(), 15, win)
                text = win.banner.text.text()
                assert "Play is paused" in text and "disk is full" in text, text
                assert "This laptop is the host" in text and str(disk) in text, text
                assert win.conn.peer.state_id == before == host.session.state_id
                shots = Path(os.environ.get("LANPLAY_SHOTS", tmp_path))  # to look at it
                assert win.grab().save(str(shots / "host-paused.png"))

                empty(filler)
                await until(lambda: not win.banner.isVisible(), 15, win)
                await until(lambda: bool(lit_cards(win)), 15, win)
                click_a_card(win, rng)
                await until(lambda: win.conn is not None
                            and win.conn.peer.state_id > before, 15, win)
            finally:
                await close(win)

        aloop(scenario(), 85)
