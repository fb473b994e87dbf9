"""A host's real window in a process of its own, for tests/test_close_box.py.

``python tests/window_host.py DATA_DIR`` opens the window and runs it as the app
does (``ui.app._main``: the window's start, its close, the goodbyes, the end of
the process), hosts Alles klar? as "Mia" on 127.0.0.1 (saved in DATA_DIR),
prints ``room PORT WINDOW`` (the X window id, for a close box sent from
outside), starts the game once two people sit with Mia, and prints ``playing``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PyQt6.QtWidgets import QApplication

from ui import app
from ui.dialogs.host_dialog import HostChoice
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.window.window import MainWindow


async def host_and_start(window: MainWindow) -> None:
    await window.joining.host(HostChoice("alles-klar", None, {}, ""))
    conn = window.conn
    assert conn is not None and conn.host is not None
    print(f"room {conn.host.port} {int(window.winId())}", flush=True)
    await window.wait_until(lambda: window.lobby is not None
                            and sum(not s.get("bot") for s in window.lobby.seats) == 3, 60)
    assert window.party is not None
    window.party.control("ready", ready=True)
    await window.wait_until(lambda: window.lobby is not None
                            and all(s.get("ready") for s in window.lobby.seats), 30)
    window.party.control("start")
    await window.wait_until(lambda: window.lobby is not None
                            and window.lobby.phase == "playing", 30)
    print("playing", flush=True)


def run(data: Path) -> int:
    import qasync

    qt = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(qt, QApplication)
    qt.setQuitOnLastWindowClosed(False)  # as the app: the loop ends after the goodbyes
    settings = Settings(name="Mia", colour="#CC79A7", path=data / "settings.json")
    settings.host_hint_seen = True
    net = NetConfig(interfaces=["127.0.0.1"], bind="127.0.0.1", port=0, bot_delay=0.0,
                    pace=0.0, data_dir=data)
    window = MainWindow(settings, net)
    start = window.start

    async def start_then_host() -> None:
        await start()
        window.spawn(host_and_start(window))

    window.start = start_then_host  # type: ignore[method-assign]
    window.show()
    qasync.run(app._main(window))
    return 0


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1])))
