"""A picture on its light tile, as the tables and the Pictures dialog show it.

Dark pictures (an ant, a spider) stay visible on the dark window because each
sits on a light rounded tile; without its image yet, the tile shows the name.
Drawn here on the calling thread; a window's tables go through
``ui.look.pictures``, which draws off the GUI thread.
"""

from __future__ import annotations

from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QColor, QFont, QImage, QPainter, QPixmap

from lanplay.content.model import Picture
from ui.look.picture_render import draw

TILE = "#eef2f4"


def picture_image(picture: Picture, size: int) -> QImage:
    """``picture`` drawn into a transparent ``size`` square, aspect kept, centred, now,
    on this thread (tools and tests; windows use ``ui.look.picture_render``).

    An unreadable or refused file gives a transparent image rather than an
    error: the name under it still says what it is.
    """
    image = draw(picture, size)
    if image is None:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
    return image


def picture_pixmap(picture: Picture, size: int) -> QPixmap:
    return QPixmap.fromImage(picture_image(picture, size))


def tile_inset(size: int) -> int:
    """The margin around a picture on its tile: it is drawn ``size - 2 * inset`` wide."""
    return round(size * 0.12)


def tile_of(inner: QImage | None, size: int, name: str = "") -> QPixmap:
    """A light rounded tile with ``inner`` (drawn by ``draw`` at ``size - 2 * inset``) on it,
    as on the table: dark pictures (an ant, a spider) stay visible on the dark window.
    Without a picture the tile shows ``name`` instead."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(TILE))
    painter.drawRoundedRect(0, 0, size, size, size * 0.12, size * 0.12)
    if inner is not None:
        inset = tile_inset(size)
        painter.drawImage(inset, inset, inner)
    elif name:
        painter.setPen(QColor("#333333"))
        font = QFont()
        font.setPixelSize(max(8, size // 7))
        painter.setFont(font)
        margin = size * 0.08
        painter.drawText(QRectF(margin, margin, size - 2 * margin, size - 2 * margin),
                         int(Qt.AlignmentFlag.AlignCenter) | int(Qt.TextFlag.TextWordWrap),
                         name)
    painter.end()
    return QPixmap.fromImage(image)


def tile_pixmap(picture: Picture, size: int) -> QPixmap:
    """The picture on its tile, drawn now on this thread (tools and tests)."""
    return tile_of(picture_image(picture, size - 2 * tile_inset(size)), size)
