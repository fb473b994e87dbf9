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


@pytest.mark.timeout(60)
def test_a_guest_at_a_paused_game_reads_paused_and_then_why_its_seat_is_gone(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    """Ann closes her room mid-game (saved: paused); Ben's table says "paused", not
    "Reconnecting…". Ann then opens a new room on the same port: Ben's window, coming
    back, is refused its seat, and its page no longer says the game is paused."""
    async def scenario() -> None:
        data = tmp_path / "data"
        ann = window(tmp_path, unique("Ann"), "#E69F00", save=True, data_dir=str(data))
        ben = window(tmp_path, unique("Ben"), "#56B4E9")
        try:
            await ann.start()
            await ben.start()
            click(ann.home.host)
            dialog = ann.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("alles-klar")
            click(dialog.host)
            await until(lambda: ann.lobby is not None, 15, ann)
            assert ann.conn is not None and ann.conn.host is not None
            port = ann.conn.host.port
            from test_ui_room import join_by_address

            await join_by_address(ben, f"127.0.0.1:{port}")
            await until(lambda: ben.lobby is not None and len(ben.lobby.seats) == 2, 15,
                        ann, ben)
            click(ann.room.ready_button)
            click(ben.room.ready_button)
            await until(lambda: ann.room.start_button.isEnabled(), 15, ann, ben)
            click(ann.room.start_button)
            await until(lambda: ben.stack.currentWidget() is ben.game
                        and ben.game.view is not None, 15, ann, ben)
            click(ann.game.leave_button)
            click(ann.dialog.yes_button)  # "Pause and close"
            await until(lambda: ben.game.dimmer.isVisible(), 15, ann, ben)
            assert ben.game.dimmer.text.text() == "The game is paused"
            assert "paused the game" in ben.banner.text.text()

            await until(lambda: ann.party is None and ann.stack.currentWidget() is ann.home
                        and ann.home.host.isEnabled(), 15, ann)
            ann.net.port = port  # a new room, on the same port
            click(ann.home.host)
            dialog = ann.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("ranking")
            click(dialog.host)
            await until(lambda: ben.stack.currentWidget() is ben.gone, 20, ann, ben)
            await until(lambda: ann.lobby is not None and ann.lobby.game == "ranking", 15, ann)
            title = ben.gone.title.text()
            assert "paused" not in title.lower(), title
        finally:
            await close(ben, ann)

    aloop(scenario(), 55)


@pytest.mark.timeout(30)
def test_a_window_closed_while_its_room_opens_leaves_no_room_behind(
        aloop: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """The room is listening, the window's own seat is still on its way in, and the
    window closes: the room closes with it (it ran on with nobody holding it)."""
    import asyncio

    from lanplay.host import server
    from lanplay.peer.peer import Peer

    hosts: list[server.Host] = []
    started = server.Host.start

    async def start(self: server.Host) -> int:
        hosts.append(self)
        return await started(self)

    held = asyncio.Event()

    async def slow_connect(self: Peer, *args: Any, **kwargs: Any) -> None:
        held.set()
        await asyncio.Event().wait()  # the seat's handshake never finishes

    monkeypatch.setattr(server.Host, "start", start)
    monkeypatch.setattr(Peer, "connect", slow_connect)

    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"), "#E69F00")
        await ann.start()
        click(ann.home.host)
        dialog = ann.dialog
        assert isinstance(dialog, HostDialog)
        click(dialog.host)
        await asyncio.wait_for(held.wait(), 10)
        assert hosts and hosts[0].status.port and ann.party is None
        await close(ann)
        assert hosts[0].status.stopping, "the room ran on after its window closed"
        with socket.socket() as again:  # its port is free again
            again.bind(("127.0.0.1", hosts[0].status.port))

    aloop(scenario(), 25)
