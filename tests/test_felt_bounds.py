"""Every piece on a felt table paints inside its boundingRect.

The felt keeps a picture of each piece (``ui.tables.widgets.CachedScene``: Qt's
``DeviceCoordinateCache``) of exactly its boundingRect, so whatever a piece paints
outside it is cut off on the table: a seat's stone on a crowded Ranking floor, the
German words under Ranking Top's direction arrow. Each piece of seeded games' scenes
is painted alone on a wide transparent image; once its rect (and one pixel of
antialiasing around it) is cleared, nothing may be left.
"""

from __future__ import annotations

from typing import Any

import pytest
from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QImage, QPainter
from PyQt6.QtWidgets import QApplication, QStyleOptionGraphicsItem
from pytestqt.qtbot import QtBot

from lanplay.tools import gamebench
from ui.tables import table_for
from ui.tools import bench

MARGIN = 200
FELT = [case for case in gamebench.CASES if case.game != "s-tier"]  # S-tier paints a widget


def outside(item: Any) -> int:
    """How many pixels ``item`` paints beyond its boundingRect (and 1 px around it)."""
    br: QRectF = item.boundingRect()
    w, h = int(br.width()) + 2 * MARGIN, int(br.height()) + 2 * MARGIN
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.translate(MARGIN - br.x(), MARGIN - br.y())
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Clear)
    painter.fillRect(br.toAlignedRect().adjusted(-1, -1, 1, 1), Qt.GlobalColor.transparent)
    painter.end()
    blank = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    blank.fill(Qt.GlobalColor.transparent)
    if image == blank:
        return 0
    bits = image.constBits()
    assert bits is not None
    bits.setsize(image.sizeInBytes())
    data = bytes(bits)
    return sum(1 for i in range(3, len(data), 4) if data[i] > 40)


@pytest.mark.parametrize("case", FELT, ids=[c.label for c in FELT])
def test_every_piece_paints_inside_its_bounds(qtbot: QtBot, case: gamebench.Case) -> None:
    app = QApplication.instance()
    assert app is not None
    views = bench._shown_views(case, 60)[::6]
    seats = [{"name": f"Player {i + 1}", "colour": bench.COLOURS[i], "bot": i > 0,
              "connected": True, "ready": True, "owner": i == 0, "away_for": None,
              "standin": False} for i in range(case.seats)]
    table = table_for(case.game)()
    qtbot.addWidget(table)
    table.resize(1024, 640)
    table.show()
    spilled: dict[str, int] = {}
    for view in views:
        table.set_view(view, seats, 0)  # type: ignore[attr-defined]
        for item in table.scene.items():  # type: ignore[attr-defined]
            br = item.boundingRect()
            if not (0 < br.width() < 4000 and 0 < br.height() < 4000):
                continue
            if (spill := outside(item)) > 0:
                name = type(item).__name__
                spilled[name] = max(spilled.get(name, 0), spill)
    assert not spilled, f"pieces paint outside their boundingRect (pixels): {spilled}"
