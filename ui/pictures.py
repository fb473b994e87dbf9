"""Picture ids to pixmaps for the game tables: the one place a table gets an image.

A view names pictures by id (and carries their names). The images come
from the content in play (``lanplay.content.in_play``): the built-in
Twemoji, or a custom pack once the host's pictures have arrived. Until
then a picture is drawn as a light tile with its name, so a table never
waits for a transfer; ``forget_cache`` (called when a pack completes) makes
the next render draw the real image.
"""

from __future__ import annotations

from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QColor, QFont, QImage, QPainter, QPixmap

from lanplay.content import in_play
from ui.content_browser import TILE, picture_image, tile_pixmap

_cache: dict[tuple[str, int, bool], QPixmap] = {}


def image(picture_id: str, size: int) -> QPixmap:
    """The bare picture (transparent background), or an empty square if not here yet."""
    key = (picture_id, size, False)
    found = _cache.get(key)
    if found is None:
        picture = in_play.picture(picture_id)
        if picture is None:
            blank = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
            blank.fill(Qt.GlobalColor.transparent)
            return QPixmap.fromImage(blank)
        found = QPixmap.fromImage(picture_image(picture, size))
        _cache[key] = found
    return found


def tile(picture_id: str, size: int, name: str = "") -> QPixmap:
    """The picture on a light rounded tile; its name on the tile while it is not here."""
    key = (picture_id, size, True)
    found = _cache.get(key)
    if found is not None:
        return found
    picture = in_play.picture(picture_id)
    if picture is not None:
        found = tile_pixmap(picture, size)
        _cache[key] = found
        return found
    return _name_tile(name or picture_id.rsplit("/", 1)[-1], size)


def _name_tile(name: str, size: int) -> QPixmap:
    out = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(Qt.GlobalColor.transparent)
    painter = QPainter(out)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(TILE))
    painter.drawRoundedRect(0, 0, size, size, size * 0.12, size * 0.12)
    painter.setPen(QColor("#333333"))
    font = QFont()
    font.setPixelSize(max(8, size // 7))
    painter.setFont(font)
    inset = size * 0.08
    painter.drawText(QRectF(inset, inset, size - 2 * inset, size - 2 * inset),
                     int(Qt.AlignmentFlag.AlignCenter) | int(Qt.TextFlag.TextWordWrap), name)
    painter.end()
    return QPixmap.fromImage(out)


def forget_cache() -> None:
    """Drop every cached pixmap: a pack has arrived, or the pictures changed."""
    _cache.clear()


def name_of(picture_id: str, fallback: str = "") -> str:
    picture = in_play.picture(picture_id)
    return picture.name if picture is not None else (fallback or picture_id)


__all__ = ["forget_cache", "image", "name_of", "tile"]
