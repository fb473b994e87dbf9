"""A window closed mid-game takes its seat back when it opens again.

Jonas joins a room found on Home; once the game runs his window closes (the close
box's goodbye: a stand-in plays his seat at once). A new window with his settings'
folder lists the room as "Your seat: Jonas" with Join, not Watch; Enter on the
row takes the seat back from the stand-in, with his hand. Closed again, "Join by
address…" takes it back too. Lea's window kept a seat the host does not know (a
room opened anew): Join forgets it, and she watches, told why in words.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from nethelpers import host_until
from PyQt6.QtCore import Qt
from PyQt6.QtTest import QTest
from test_ui_room import join_by_address
from ui_harness import LOOPBACK, Runner, aloop, click, close, unique, until, window  # noqa: F401

from lanplay.host import Host, HostConfig
from ui.services import seats
from ui.services.seats import KeptSeat
from ui.window.window import MainWindow


def row_for(win: MainWindow, host_name: str) -> str | None:
    """The service of the room named ``host_name`` on ``win``'s Home, once listed."""
    return next((h.service for h in win.home._found.values() if h.host_name == host_name),
                None)


async def enter_on_row(win: MainWindow, host_name: str) -> None:
    """Select the room's row on Home and press Enter, as a person with the keyboard."""
    await until(lambda: row_for(win, host_name) is not None, 20, win)
    item = win.home.item_for(row_for(win, host_name) or "")
    assert item is not None
    win.home.hosts.setCurrentItem(item)
    win.home.hosts.setFocus()
    QTest.keyClick(win.home.hosts, Qt.Key.Key_Return)


def hand_of(win: MainWindow) -> list[object]:
    view = win.conn.peer.view if win.conn is not None else None
    return list(view.get("hand") or []) if view is not None else []


@pytest.mark.timeout(90)
def test_a_window_closed_mid_game_takes_its_seat_back_from_home(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    room_name = unique("Mia")

    async def scenario() -> None:
        host = Host("alles-klar", config=HostConfig(
            host_name=room_name, bind="127.0.0.1", port=0, announce=True,
            interfaces=LOOPBACK, save=False, autostart=3, bot_delay=1.0,
            standin_after=30.0))
        await host.start()
        windows: list[MainWindow] = []

        def open_window(name: str) -> MainWindow:
            win = window(tmp_path, name)
            windows.append(win)
            return win

        async def shut(win: MainWindow) -> None:
            windows.remove(win)
            await close(win)

        try:
            jonas = open_window("Jonas")
            await jonas.start()
            await enter_on_row(jonas, room_name)
            await until(lambda: jonas.lobby is not None, 15, jonas)
            (kept,) = seats.read(tmp_path / "Jonas" / seats.FILE)  # from the welcome on
            assert kept.seat == 0 and kept.name == "Jonas" and kept.port == host.port
            click(jonas.room.ready_button)
            host.add_bot()
            host.add_bot()
            await until(lambda: jonas.lobby is not None and jonas.lobby.phase == "playing"
                        and bool(hand_of(jonas)), 20, jonas)
            token = host.room.seats[0].token

            # The window closes mid-game: a stand-in plays at once, the seat stays kept.
            await shut(jonas)
            await host_until(host, lambda h: h.room.seats[0].standin, 10)
            assert [s.token for s in seats.read(tmp_path / "Jonas" / seats.FILE)] == [token]

            # Opened again: Home says whose seat it is, and offers Join, not Watch.
            again = open_window("Jonas")
            await again.start()
            await until(lambda: row_for(again, room_name) is not None, 20, again)
            service = row_for(again, room_name)
            item = again.home.item_for(service or "")
            assert item is not None and item.text(4) == "Your seat: Jonas"
            again.home.hosts.setCurrentItem(item)
            assert again.home.join.text() == "Join" and again.home.join.isEnabled()
            await enter_on_row(again, room_name)
            await until(lambda: again.conn is not None and bool(hand_of(again)), 15, again)
            assert again.conn is not None and again.conn.peer.seat == 0
            assert again.stack.currentWidget() is again.game
            seat = host.room.seats[0]
            assert seat.connected and not seat.standin and seat.token == token
            assert len(host.room.seats) == 3, "no second Jonas"

            # Closed once more; "Join by address…" takes the seat back as well.
            await shut(again)
            await host_until(host, lambda h: h.room.seats[0].standin, 10)
            third = open_window("Jonas")
            await third.start()
            await join_by_address(third, f"127.0.0.1:{host.port}")
            await until(lambda: third.conn is not None and bool(hand_of(third)), 15, third)
            assert third.conn is not None and third.conn.peer.seat == 0
            assert not host.room.seats[0].standin

            # Lea kept a seat this room does not know: she watches, and reads why.
            seats.write(tmp_path / "Lea" / seats.FILE, [KeptSeat(
                "", room_name, ("127.0.0.1",), host.port, 1, "Lea", "a-token-from-before",
                "alles-klar", kept.kept_at)])
            lea = open_window("Lea")
            await lea.start()
            await until(lambda: row_for(lea, room_name) is not None, 20, lea)
            item = lea.home.item_for(row_for(lea, room_name) or "")
            assert item is not None and item.text(4) == "Your seat: Lea"
            await enter_on_row(lea, room_name)
            await until(lambda: lea.conn is not None and lea.lobby is not None, 15, lea)
            assert lea.conn is not None and lea.conn.peer.seat is None, "watching"
            assert "Your seat from before is gone" in lea.game.chat.history.toPlainText()
            assert seats.read(tmp_path / "Lea" / seats.FILE) == []
            assert len(host.room.seats) == 3
        finally:
            await close(*windows)
            await host.stop("test over")

    aloop(scenario(), 85)
