"""Watching from Home over real TCP and zeroconf: a running game, a full room.

A third window finds a running game in its Home list, where the button says
"Watch"; it sees the public table (no hand) under a "Watching" mark, with
chat, and the host sees who watches. A full room offers "Watch" too; when a
seat frees up between games the watcher takes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_harness import (  # noqa: F401
    Runner,
    aloop,
    click,
    close,
    double_click,
    type_and_enter,
    unique,
    until,
    window,
)

from lanplay.net.discovery import FoundHost
from ui.dialogs.host_dialog import HostDialog
from ui.window.window import MainWindow


async def host_room(win: MainWindow, bots: int) -> int:
    click(win.home.host)
    dialog = win.dialog
    assert isinstance(dialog, HostDialog)
    dialog.select_game("alles-klar")
    click(dialog.host)
    await until(lambda: win.lobby is not None and len(win.lobby.seats) == 1, 15, win)
    for _ in range(bots):
        click(win.room.add_bot_button)
    await until(lambda: win.lobby is not None and len(win.lobby.seats) == bots + 1, 15, win)
    assert win.conn is not None and win.conn.host is not None
    return win.conn.host.port


def listed(win: MainWindow, owner: MainWindow, port: int) -> FoundHost | None:
    return next((h for h in win.home._found.values()
                 if h.host_name == owner.settings.name and h.port == port), None)


def select(win: MainWindow, host: FoundHost) -> None:
    item = win.home.item_for(host.service)
    assert item is not None
    tree = win.home.hosts
    tree.scrollToItem(item)
    click(tree.viewport(), tree.visualItemRect(item).center())


@pytest.mark.timeout(60)
def test_a_third_window_watches_a_running_game_from_home_and_sees_no_hand(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"), "#E69F00")
        ben = window(tmp_path, unique("Ben"), "#56B4E9")
        cy = window(tmp_path, unique("Cy"), "#009E73")
        try:
            for win in (ann, ben, cy):
                await win.start()
            port = await host_room(ann, bots=1)
            await until(lambda: listed(ben, ann, port) is not None, 20, ben)
            host = listed(ben, ann, port)
            assert host is not None and ben.home.join.text() in ("Join", "Watch")
            item = ben.home.item_for(host.service)
            assert item is not None
            double_click(ben.home.hosts.viewport(),
                         ben.home.hosts.visualItemRect(item).center())
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 3, 15, ann)
            click(ann.room.ready_button)
            click(ben.room.ready_button)
            await until(lambda: ann.room.start_button.isEnabled(), 15, ann, ben)
            click(ann.room.start_button)
            await until(lambda: ann.stack.currentWidget() is ann.game
                        and ben.stack.currentWidget() is ben.game, 15, ann, ben)

            # Cy's Home lists the running game; its button says Watch.
            await until(lambda: (h := listed(cy, ann, port)) is not None
                        and h.state == "playing", 20, cy)
            running = listed(cy, ann, port)
            assert running is not None
            cy_item = cy.home.item_for(running.service)
            assert cy_item is not None and "Watch" in cy_item.text(4)
            select(cy, running)
            assert cy.home.join.text() == "Watch" and cy.home.join.isEnabled()
            click(cy.home.join)
            await until(lambda: cy.stack.currentWidget() is cy.game
                        and cy.game.view is not None, 15, cy)
            assert cy.conn is not None and cy.conn.peer.seat is None
            table: Any = cy.game.table
            assert cy.game.watching.isVisible() and cy.game.watching.text() == "Watching"
            assert table.you is None and table.hand_items == []
            assert cy.game.view is not None and not cy.game.view.get("hand")
            assert not cy.game.sit_button.isVisible(), "no seat to take while playing"

            # The host sees who watches; chat reaches the watcher and back.
            await until(lambda: ann.lobby is not None
                        and ann.lobby.watchers == [cy.settings.name], 10, ann)
            assert ann.game.watchers.isVisible() and ann.game.watchers.text() == "1 watching"
            assert cy.settings.name in ann.game.watchers.toolTip()
            click(ann.game.chat_button)
            type_and_enter(ann.game.chat.line, "welcome, Cy")
            await until(lambda: "welcome, Cy" in cy.game.chat.history.toPlainText(), 10, cy)
            click(cy.game.chat_button)
            type_and_enter(cy.game.chat.line, "thanks")
            await until(lambda: "thanks" in ann.game.chat.history.toPlainText(), 10, ann)
            # The log is the watcher's too.
            log = getattr(table, "log_panel", None)
            assert log is not None and log.lines()
        finally:
            await close(cy, ben, ann)

    aloop(scenario(), 55)


@pytest.mark.timeout(60)
def test_a_full_room_offers_watch_and_the_watcher_takes_a_seat_that_frees_up(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"), "#E69F00")
        eve = window(tmp_path, unique("Eve"), "#CC79A7")
        try:
            await ann.start()
            await eve.start()
            port = await host_room(ann, bots=4)  # alles-klar: 5 of 5 seats
            await until(lambda: (h := listed(eve, ann, port)) is not None
                        and h.seats_taken == 5, 20, eve)
            full = listed(eve, ann, port)
            assert full is not None
            select(eve, full)
            assert eve.home.join.text() == "Watch"
            click(eve.home.join)
            await until(lambda: eve.lobby is not None and eve.stack.currentWidget() is eve.room,
                        15, eve)
            assert eve.conn is not None and eve.conn.peer.seat is None
            assert eve.room.sit_button.isVisible() and not eve.room.sit_button.isEnabled()
            assert not eve.room.ready_button.isVisible()
            await until(lambda: ann.room.watchers.isVisible()
                        and eve.settings.name in ann.room.watchers.text(), 10, ann)

            click(ann.room.seat_rows[4]["remove"])  # a bot: no question
            await until(lambda: eve.room.sit_button.isEnabled(), 10, eve)
            click(eve.room.sit_button)
            await until(lambda: eve.conn is not None and eve.conn.peer.seat == 4
                        and eve.room.ready_button.isVisible(), 10, eve)
            assert eve.lobby is not None and eve.lobby.seats[4]["name"] == eve.settings.name
            assert eve.lobby.seats[4]["colour"] == "#CC79A7"
            assert not eve.room.sit_button.isVisible()
            await until(lambda: ann.lobby is not None and not ann.lobby.watchers, 10, ann)
            assert not ann.room.watchers.isVisible()
        finally:
            await close(eve, ann)

    aloop(scenario(), 55)
