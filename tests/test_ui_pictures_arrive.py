"""A picture drawn after its table shows it replaces its name on the table.

Pictures are drawn off the GUI thread (``ui.look.picture_render``); until one is,
its tile shows the picture's name. The felt's pieces keep a picture of themselves
(``CachedScene``) and are painted again only when they change, so a repaint of the
window alone left every tile that had shown a name showing it for good: under X,
the Ranking tower of a first round kept "Schere", "Bau…" as text where the pictures
had long been drawn (the screenshots, which draw pictures at once, never saw it).
What a person sees (the view, through the pieces' caches) must be what the pieces
paint now (the scene rendered afresh).
"""

from __future__ import annotations

from PyQt6.QtCore import QPoint, QRectF
from PyQt6.QtGui import QColor, QImage, QPainter, QRegion
from PyQt6.QtWidgets import QApplication, QGraphicsItem, QWidget
from pytestqt.qtbot import QtBot

from ui.look import picture_render, pictures
from ui.tables.ranking.table import RankingTable
from ui.tools.demos import ranking


def _seen_and_painted(table: RankingTable, rect: QRectF) -> tuple[QImage, QImage]:
    """The viewport's pixels over ``rect`` (scene), and the scene painted afresh there.

    The viewport is drawn without its child widgets: the keys' stand-ins over the pieces
    draw a focus frame on the piece that has the keyboard (once a person has used keys,
    in this process: an earlier test's key presses), which is on screen by design and
    not in the scene; a grab with them read as a stale tile in 9 of 53 orders of test
    files (test_ui_badges.py, then this one, every time)."""
    view = table.graphics
    area = view.mapFromScene(rect).boundingRect()
    viewport = view.viewport()
    assert viewport is not None
    seen = QImage(area.size(), QImage.Format.Format_ARGB32)
    seen.fill(QColor("#000000"))
    viewport.render(seen, QPoint(0, 0), QRegion(area),
                    QWidget.RenderFlag.DrawWindowBackground)
    fresh = QImage(seen.size(), QImage.Format.Format_ARGB32)
    fresh.fill(QColor("#000000"))
    painter = QPainter(fresh)
    view.render(painter, QRectF(fresh.rect()), area)
    painter.end()
    return seen, fresh


def test_pictures_drawn_late_reach_the_tiles_that_showed_their_names(qtbot: QtBot) -> None:
    pictures.set_synchronous(False)
    pictures.forget_cache()
    table = RankingTable()
    qtbot.addWidget(table)
    table.resize(1000, 540)
    table.show()
    _before, at = ranking.real_views(4)["compare"]
    seat = at[None]["current"]
    table.set_view(at[seat], ranking.demo_seats(4), seat, animate=False)
    QApplication.processEvents()
    tiles = [t for t in table.tiles.values() if t.isVisible()]
    assert tiles
    _all_drawn()
    _check(table, [t for t in table.tiles.values() if t.isVisible()])
    # The next view draws the table again, taking back the pieces it kept: they too.
    table.set_view(at[seat], ranking.demo_seats(4), seat, animate=False)
    _all_drawn()
    _check(table, [t for t in table.tiles.values() if t.isVisible()])


def _all_drawn() -> None:
    """Until the table has painted (a tile asks for its picture as it paints), every
    picture asked for is drawn and has reached the cache, the repaint it asked for has
    run, and a whole round of events after that brought no new picture: by events,
    however loaded the machine (a picture finished on the worker reaches the GUI thread
    a few events later, and its repaint a few after that)."""
    renderer = picture_render.shared()
    last = -1
    for _round in range(200):
        for _turn in range(5):
            QApplication.processEvents()
        if renderer.pending():
            assert renderer.wait(20), "the pictures were not drawn"
            continue
        timer = pictures._repaint
        if timer is not None and timer.isActive():
            continue
        if pictures.drawn() == last:
            return
        last = pictures.drawn()
    raise AssertionError("the table kept asking for pictures")


def _check(table: RankingTable, tiles: list[object]) -> None:
    for tile in tiles:
        assert isinstance(tile, QGraphicsItem)
        seen, fresh = _seen_and_painted(table, tile.sceneBoundingRect())
        differ = _differing(seen, fresh)
        # A piece's cached picture and a fresh paint differ by a pixel or two of
        # antialiasing; a name where the picture should be differs by hundreds.
        assert differ < 0.01 * seen.width() * seen.height(), \
            f"{getattr(tile, 'name', tile)}: the table still shows what it drew before " \
            f"its picture came ({differ} pixels differ; renderer pending " \
            f"{picture_render.shared().pending()}, given up {picture_render.shared().given_up}, " \
            f"pictures drawn {pictures.drawn()}, repaint timer {pictures._repaint})"


def _differing(a: QImage, b: QImage) -> int:
    return sum(1 for y in range(a.height()) for x in range(a.width())
               if a.pixel(x, y) != b.pixel(x, y))
