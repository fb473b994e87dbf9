"""The room a window hosts says how a browser joins: the page's address (the host's web
port beside its TCP port) and its QR code; a room joined at another laptop shows none."""

from __future__ import annotations

from pathlib import Path

import pytest
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
