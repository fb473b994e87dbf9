"""Connections going wrong, as a player sees them in the window.

A wrong address gives a clear error next to the field and the window stays
usable; a host that dies mid-game dims the table under a "Reconnecting"
banner until it is back (the seat and the game return by themselves); a host
that stays gone ends with a clear message and a way back to Home.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtWidgets import QLineEdit
from ui_harness import Runner, aloop, click, close, type_and_enter, until, window  # noqa: F401

from lanplay.host import Host, HostConfig
from ui.dialogs.join_dialog import JoinAddressDialog


def retype(field: QLineEdit, text: str) -> None:
    field.clear()
    type_and_enter(field, text)


@pytest.mark.timeout(60)
def test_wrong_address_then_reconnect_banner_then_host_gone(aloop: Runner,  # noqa: F811
                                                            tmp_path: Path) -> None:
    async def scenario() -> None:
        config = HostConfig(host_name="Tess", bind="127.0.0.1", port=0, seed=1, autostart=2,
                            data_dir=tmp_path / "saves")
        host = Host("alles-klar", config=config)
        port = await host.start()
        host.add_bot()
        ben = window(tmp_path, "Ben", reconnect_for=3.0)
        again: Host | None = None
        try:
            await ben.start()

            # Wrong addresses: each says what is wrong, right under the field.
            click(ben.home.join_address)
            dialog = ben.dialog
            assert isinstance(dialog, JoinAddressDialog)
            retype(dialog.address, "")
            assert "Type the address" in dialog.error.text()
            retype(dialog.address, "127.0.0.1:http")
            assert "port" in dialog.error.text() and dialog.ok.isEnabled()
            retype(dialog.address, "127.0.0.1:1")
            await until(lambda: "Could not reach 127.0.0.1:1" in dialog.error.text(), 10, ben)
            assert "connection refused" in dialog.error.text()
            # ...and the window stays usable: the same dialog joins the right address.
            assert dialog.isVisible() and dialog.ok.isEnabled() and ben.conn is None
            assert ben.home.host.isEnabled()
            retype(dialog.address, f"127.0.0.1:{port}")
            await until(lambda: ben.lobby is not None and len(ben.lobby.seats) == 2, 10, ben)
            assert ben.dialog is None

            # Ready: the host starts by itself (autostart) and Ben sees the table.
            click(ben.room.ready_button)
            await until(lambda: ben.stack.currentWidget() is ben.game and ben.conn is not None
                        and ben.conn.peer.view is not None, 10, ben)
            assert not ben.banner.isVisible() and not ben.game.dimmer.isVisible()

            # The host dies: a banner, the table dimmed, while the peer keeps trying.
            save = host.save_path
            assert save is not None
            host.kill()
            await until(lambda: ben.banner.isVisible(), 10, ben)
            assert "Reconnecting" in ben.banner.text.text()
            assert ben.game.dimmer.isVisible()
            assert ben.stack.currentWidget() is ben.game  # the table stays, dimmed

            # It comes back on the same port: the banner goes, the game is where it was.
            again = Host.resume(save, config, port=port)
            await again.start()
            await until(lambda: not ben.banner.isVisible(), 15, ben)
            assert not ben.game.dimmer.isVisible()
            session = again.session
            assert session is not None
            await until(lambda: ben.conn is not None
                        and ben.conn.peer.state_id == session.state_id, 10, ben)
            table: Any = ben.game.table
            assert table.view == ben.conn.peer.view

            # It dies for good: after the reconnect window, a clear message and Home.
            again.kill()
            await until(lambda: ben.stack.currentWidget() is ben.gone, 15, ben)
            assert "lost" in ben.gone.reason.text() and "Home" in ben.gone.reason.text()
            assert not ben.banner.isVisible()
            click(ben.gone.home)
            assert ben.stack.currentWidget() is ben.home and ben.conn is None
        finally:
            await close(ben)
            await host.stop()
            if again is not None:
                await again.stop()

    aloop(scenario(), 55)
