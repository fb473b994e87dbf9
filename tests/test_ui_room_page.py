"""The room a window hosts says how a browser joins: the page's address (the host's web
port beside its TCP port) and its QR code; a room joined at another laptop shows none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import QPoint
from pytestqt.qtbot import QtBot
from test_ui_room import host_room, join_by_address
from ui_harness import Runner, aloop, close, keep_look, unique, until, window  # noqa: F401

from lanplay.net.discovery import local_addresses


@pytest.mark.timeout(60)
def test_the_hosts_room_shows_the_page_and_its_qr_code(aloop: Runner,  # noqa: F811
                                                      tmp_path: Path) -> None:
    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"))
        ben = window(tmp_path, "Ben")
        try:
            await ann.start()
            await ben.start()
            port = await host_room(ann)
            assert ann.conn is not None and ann.conn.host is not None
            web = ann.conn.host.web_port
            assert web and web != port
            room = ann.room
            assert room.page_address.isVisible()
            assert room.page_address.text() == f"http://{local_addresses()[0]}:{web}/"
            assert room.page_qr.isVisible() and not room.page_qr.pixmap().isNull()
            await join_by_address(ben, f"127.0.0.1:{port}")
            await until(lambda: ben.lobby is not None, 15, ann, ben)
            assert not ben.room.page_address.isVisible() and not ben.room.page_qr.isVisible()
        finally:
            await close(ann, ben)

    aloop(scenario(), 50)


def test_a_combo_box_draws_its_arrow_inside_its_border(qapp: object,
                                                      keep_look: None) -> None:  # noqa: F811
    """The room's "Relaxed bots" box (and every combo box) had the Fusion style's own
    drop-down button inside our rounded border: its dark frame (#0c1013) ran along the
    right edge and the arrow looked cut off. Now only the arrow is drawn, in our colours:
    nothing inside the border is darker than the window's background."""
    from PyQt6.QtGui import QColor
    from PyQt6.QtWidgets import QComboBox

    from ui.look import theme

    theme.apply(1.0)
    box = QComboBox()
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    box.addItem("Lockere Bots")
    box.show()
    image = box.grab().toImage()
    darkest = QColor(theme.BG).lightness()
    dark = [(x, y) for x in range(2, image.width() - 2) for y in range(2, image.height() - 2)
            if image.pixelColor(x, y).lightness() < darkest]
    assert not dark, dark[:5]
    arrow = [x for x in range(image.width() // 2, image.width() - 2)
             if image.pixelColor(x, image.height() // 2).lightness() > 100]
    assert arrow, "the arrow is drawn"
    box.close()


def _settle(page: Any) -> None:
    """Run Qt's events until the seats' box stops changing its height: the rows lay out,
    their marks wrap, the box counts them again, by events, not within a time (20 ms of
    the event loop were not enough on a machine shared with other heavy work)."""
    from PyQt6.QtWidgets import QApplication

    seen, same = -1, 0
    for _turn in range(200):
        QApplication.processEvents()
        height = page.seats_area.maximumHeight()
        same = same + 1 if height == seen else 0
        seen = height
        if same >= 3:
            return
    raise AssertionError("the seats' box never settled")


def _four_seats(game: str, mode: str, stand_in: bool) -> object:
    """A room of four as its owner sees it: Mia (the host, not ready yet) and three bots;
    with ``stand_in`` Jonas has lost his connection and a bot plays for him."""
    from protocol.messages import Lobby
    from ui.tools.demos.s_tier import demo_seats

    seats = demo_seats(4)
    for i, seat in enumerate(seats):
        seat.update(bot=i > 0, ready=i > 0, owner=i == 0, connected=True,
                    name=seat["name"] if i == 0 else f"Bot {i}")
    if stand_in:
        seats[1].update(name="Jonas", bot=False, connected=False, standin=True, ready=False)
    return Lobby("Mia", game, mode, {}, seats, "lobby", problem="Waiting for Mia to be ready.")


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize(("game", "mode", "stand_in"), [
    ("ranagedon", "standard", False), ("s-tier", "team", False),
    ("alles-klar", "standard", True), ("ranagedon", "standard", True)],
    ids=["ranagedon-teams", "s-tier-team", "stand-in", "teams-and-stand-in"])
def test_a_seats_row_stays_whole_in_a_small_window(qtbot: QtBot, keep_look: None,  # noqa: F811
                                                   lang: str, game: str, mode: str,
                                                   stand_in: bool) -> None:
    """A room of four in a 1024x640 screen's window (the page 1000x569): with a team mark
    ('Grünes Team  Host  Nicht bereit', German) or a seat a bot plays for ('Disconnected
    A bot plays for now', every language) the marks made the row wider than the seats'
    box, which does not scroll sideways: 'Entfernen' (and ▲ ▼) cut at its right edge.
    The marks now wrap to a second line where the row is short of room."""
    from lanplay import locale
    from ui.look import theme
    from ui.pages.room import RoomPage
    from ui.tools.fit import FitCheck

    theme.apply(1.0)  # the window's look and text size
    locale.set_language(lang)
    try:
        page = RoomPage()
        qtbot.addWidget(page)
        page.resize(1000, 569)  # the room page of a 1000x592 window
        page.show()
        qtbot.waitExposed(page)
        page.show_lobby(_four_seats(game, mode, stand_in), 0, True)  # type: ignore[arg-type]
        _settle(page)  # the seats' box counts its rows once they are laid out
        port = page.seats_area.viewport()
        assert port is not None
        for row in page.seat_rows:
            for widget in row.values():
                box = widget.geometry().translated(widget.parentWidget().mapTo(  # type: ignore[union-attr]
                    port, QPoint(0, 0)))
                assert port.rect().contains(box), (widget, box, port.rect())
        fit = FitCheck((1000, 592))
        with fit:
            found = fit.screen("room", page)
        assert not found, found
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en
