"""The window's entry point: Qt and asyncio on one thread through qasync.

For now the window is Home only: the games found on this network, live, and
this laptop's addresses. Hosting and joining from the window, the room and
the tables come with the window issue; until then the headless commands host
and join.
"""

from __future__ import annotations

import asyncio
import sys

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QFont
from PyQt6.QtWidgets import (
    QApplication,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QVBoxLayout,
    QWidget,
)

from lanplay.discovery import Browser, FoundHost, local_addresses
from lanplay.games import CATALOGUE


def _host_line(host: FoundHost) -> str:
    name = next((e.name for e in CATALOGUE if e.id == host.game), host.game)
    lock = " — password needed" if host.password else ""
    mark = "" if host.compatible else f"  (other version {host.version}: cannot join)"
    return (f"{host.host_name} — {name} — {host.seats_taken}/{host.seats_total} seats — "
            f"{host.state}{lock}{mark}")


class HomeWindow(QMainWindow):
    """Lists the hosts the Browser reports; renders, never decides."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("lanplay")
        self.resize(1280, 800)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(48, 36, 48, 36)
        layout.setSpacing(16)
        title = QLabel("Games on this network")
        font = QFont(title.font())
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setBold(True)
        title.setFont(font)
        layout.addWidget(title)
        self.hosts = QListWidget()
        self.hosts.setAlternatingRowColors(True)
        self.hosts.setStyleSheet("QListWidget { font-size: 12pt; }"
                                 "QListWidget::item { padding: 10px 8px; }")
        layout.addWidget(self.hosts, 1)
        self.empty = QLabel("No games found yet. Start one with "
                            "`lanplay host alles-klar --headless --bots 2`, or join one by "
                            "address with `lanplay join ADDRESS --bot`.")
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)
        addresses = ", ".join(local_addresses())
        self.addresses = QLabel(f"This laptop: {addresses}")
        self.addresses.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.addresses)
        self.setCentralWidget(body)
        self._items: dict[str, QListWidgetItem] = {}

    def on_host(self, kind: str, host: FoundHost) -> None:
        item = self._items.get(host.service)
        if kind == "removed":
            if item is not None:
                self.hosts.takeItem(self.hosts.row(item))
                del self._items[host.service]
        elif item is None:
            item = QListWidgetItem(_host_line(host))
            self._items[host.service] = item
            self.hosts.addItem(item)
        else:
            item.setText(_host_line(host))
        self.empty.setVisible(not self._items)


async def _main(window: HomeWindow) -> None:
    browser = Browser(window.on_host)
    await browser.start()
    closed = asyncio.Event()
    app = QApplication.instance()
    assert app is not None
    app.aboutToQuit.connect(closed.set)
    try:
        await closed.wait()
    finally:
        await browser.stop()


def run() -> int:
    import qasync

    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("lanplay")
    window = HomeWindow()
    window.show()
    qasync.run(_main(window))
    return 0
