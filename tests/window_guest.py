"""A guest's real window in a process of its own, for tests/test_seat_back_process.py.

``python tests/window_guest.py DATA_DIR ROOM`` starts lanplay as the installed command
does (``ui.main.main(["--data-dir", DATA_DIR])``: the settings and the kept seats of
that folder, the window, qasync, its close) and does on Home what a person would: it
waits for the room named ROOM in the list, prints ``listed MARK`` (the row's last
column: "Your seat: Jonas", "Watch", or "-"), selects the row and presses Enter; in the
room before a game it presses Ready. Each view its seat receives is printed as
``view SEAT STATE_ID HAND`` (HAND: the hand as JSON). Nothing here decides for the
window: it only presses what a person would press.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from PyQt6.QtCore import Qt
from PyQt6.QtTest import QTest

from ui import main as lanplay
from ui.window.window import MainWindow


def room_row(win: MainWindow, room: str) -> str | None:
    return next((h.service for h in win.home._found.values() if h.host_name == room), None)


def say_view(win: MainWindow) -> None:
    conn = win.conn
    view = conn.peer.view if conn is not None else None
    if conn is None or view is None:
        return
    hand = view.get("hand") or []
    print(f"view {conn.peer.seat} {conn.peer.state_id} {json.dumps(hand)}", flush=True)


async def take_a_seat(win: MainWindow, room: str) -> None:
    await win.wait_until(lambda: room_row(win, room) is not None, 30)
    item = win.home.item_for(room_row(win, room) or "")
    assert item is not None
    print(f"listed {item.text(4) or '-'}", flush=True)
    win.home.hosts.setCurrentItem(item)
    win.home.hosts.setFocus()
    QTest.keyClick(win.home.hosts, Qt.Key.Key_Return)  # Enter on the row: Join
    await win.wait_until(lambda: win.conn is not None and win.lobby is not None, 30)
    conn = win.conn
    assert conn is not None

    def on_event(event: str, payload: Any) -> None:
        if event == "view":
            say_view(win)

    conn.peer.listeners.append(on_event)
    say_view(win)  # one that came before we listened
    lobby = win.lobby
    if lobby is not None and lobby.phase == "lobby":
        button = win.room.ready_button
        await win.wait_until(lambda: button.isVisible() and button.isEnabled(), 30)
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
        print("ready", flush=True)


def run(data: str, room: str) -> int:
    start = MainWindow.start

    async def start_then_join(self: MainWindow) -> None:
        await start(self)
        self.spawn(take_a_seat(self, room))

    MainWindow.start = start_then_join  # type: ignore[method-assign]
    return lanplay.main(["--data-dir", data])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], sys.argv[2]))
