"""The Home window lists hosts as they appear, change and leave."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from lanplay.discovery import FoundHost
from ui.app import HomeWindow


def _host(version: int = 1, seats: int = 2) -> FoundHost:
    return FoundHost("Mia._lanplay._tcp.local.", "Mia", "alles-klar", ("127.0.0.1",), 7531,
                     version, seats, 5, "lobby", False)


def test_home_lists_hosts_and_marks_other_versions(qtbot: QtBot) -> None:
    window = HomeWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.hosts.count() == 0 and window.empty.isVisible()
    window.on_host("added", _host())
    assert window.hosts.item(0).text() == "Mia — Alles klar? — 2/5 seats — lobby"
    assert not window.empty.isVisible()
    window.on_host("updated", _host(version=2, seats=3))
    assert "3/5 seats" in window.hosts.item(0).text()
    assert "cannot join" in window.hosts.item(0).text()
    window.on_host("removed", _host())
    assert window.hosts.count() == 0 and window.empty.isVisible()
