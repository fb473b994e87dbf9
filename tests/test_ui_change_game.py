"""The owner changes the game from inside the room; the room stays open, seats stay."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from ui.dialogs.host_dialog import HostDialog


@pytest.mark.timeout(60)
def test_the_owner_picks_another_game_and_mode_without_closing_the_room(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"), "#E69F00")
        ben = window(tmp_path, unique("Ben"), "#56B4E9")
        try:
            await ann.start()
            await ben.start()
            click(ann.home.host)
            dialog = ann.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("alles-klar")
            click(dialog.host)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 1, 15, ann)
            for _ in range(3):
                click(ann.room.add_bot_button)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 4, 15, ann)
            assert ann.conn is not None and ann.conn.host is not None
            port = ann.conn.host.port
            from test_ui_room import join_by_address

            await join_by_address(ben, f"127.0.0.1:{port}")
            await until(lambda: ben.lobby is not None and len(ben.lobby.seats) == 5, 15, ben)
            assert not ben.room.change_button.isVisible(), "only the owner changes the game"

            # Ranagedon seats 4: a bot gives up its seat, Ben keeps his.
            assert ann.room.change_button.isVisible()
            click(ann.room.change_button)
            change = ann.dialog
            assert isinstance(change, HostDialog) and change.for_room
            assert change.game_id() == "alles-klar" and change.host.text() == "Change"
            change.select_game("ranagedon")
            click(change.host)
            await until(lambda: ben.lobby is not None and ben.lobby.game == "ranagedon"
                        and len(ben.lobby.seats) == 4, 15, ann, ben)
            names = [s["name"] for s in ben.lobby.seats]
            assert names[0] == ann.settings.name and ben.settings.name in names
            assert ben.conn is not None and ben.conn.peer.seat == names.index(ben.settings.name)
            assert ann.conn is not None and ann.conn.host is not None  # the same room
            assert ann.conn.host.port == port
            assert "Ranagedon" in ben.room.title.text()

            # Another mode of another game, options kept from the dialog.
            click(ann.room.change_button)
            change = ann.dialog
            assert isinstance(change, HostDialog) and change.game_id() == "ranagedon"
            change.select_game("s-tier")
            change.mode.setCurrentIndex(change.mode.findData("competitive"))
            click(change.host)
            await until(lambda: ben.lobby is not None and ben.lobby.mode == "competitive",
                        15, ann, ben)
            assert len(ben.lobby.seats) == 4 and ben.stack.currentWidget() is ben.room
        finally:
            await close(ben, ann)

    aloop(scenario(), 55)
