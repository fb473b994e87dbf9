"""Drawn pieces more than one card table uses: a card you click or drag, its back,
its glow, and the fading ring that marks what just changed.

Each game keeps its own faces; what is here looks and behaves the same on
every table (UX: click or drag, both always work).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen
from PyQt6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ui.tables import look


def paint_back(painter: QPainter, rect: QRectF, radius: float) -> None:
    """A card's back: the blue of ``look.BACK`` with a cross-hatched inset."""
    w = rect.width()
    painter.setPen(QPen(QColor("#F2F2F2"), max(1.0, w * 0.03)))
    painter.setBrush(look.BACK)
    painter.drawRoundedRect(rect, radius, radius)
    inner = rect.adjusted(w * 0.12, w * 0.12, -w * 0.12, -w * 0.12)
    painter.setBrush(QBrush(look.BACK_LINE, Qt.BrushStyle.DiagCrossPattern))
    painter.setPen(QPen(look.BACK_LINE, 1.0))
    painter.drawRoundedRect(inner, radius * 0.6, radius * 0.6)


def paint_glow(painter: QPainter, rect: QRectF, radius: float, width: float,
               colour: QColor) -> None:
    """A ring just outside a card: lit (may be played) or selected."""
    painter.setPen(QPen(colour, width))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(rect.adjusted(-width / 2, -width / 2, width / 2, width / 2),
                            radius + width / 2, radius + width / 2)


def paint_quiet(painter: QPainter, rect: QRectF, radius: float, alpha: int) -> None:
    """A veil over a card that cannot be played now."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(20, 30, 26, alpha))
    painter.drawRoundedRect(rect, radius, radius)


def key_size(key: str) -> tuple[float, float]:
    """How big ``paint_key`` draws a key cap (its text is never below the platform's
    size, so a small piece gets it over its corner rather than a smaller cap)."""
    metrics = QFontMetricsF(look.font(look.default_px(), bold=True))
    return metrics.horizontalAdvance(key) + 8, metrics.height() + 2


def key_box(corner: QPointF, key: str, above: bool = False,
            straddle: bool = False) -> QRectF:
    """Where ``paint_key`` draws the cap (the same arguments)."""
    w, h = key_size(key)
    if straddle:
        return QRectF(corner.x() - w * 0.6, corner.y() - h * 0.45, w, h)
    return QRectF(corner.x() - w - 3, corner.y() - h - 3 if above else corner.y() + 3, w, h)


def paint_key(painter: QPainter, corner: QPointF, key: str, above: bool = False,
              straddle: bool = False) -> QRectF:
    """A small key cap ("1") hanging from ``corner`` (a piece's top-right; with
    ``above``, standing on its bottom-right; with ``straddle``, centred on the corner,
    half off a small piece): the key that plays this piece, shown where the player
    looks."""
    fnt = look.font(look.default_px(), bold=True)
    box = key_box(corner, key, above, straddle)
    painter.setPen(QPen(QColor("#101010"), 1.0))
    painter.setBrush(QColor("#F3F1E7"))
    painter.drawRoundedRect(box, 3, 3)
    painter.setPen(QPen(QColor(0, 0, 0, 90), 2.0))
    painter.drawLine(QPointF(box.left() + 2, box.bottom()), QPointF(box.right() - 2, box.bottom()))
    painter.setFont(fnt)
    painter.setPen(look.CARD_INK)
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, key)
    return box


class HandCard(QGraphicsObject):
    """A card of my hand: a click plays it, a drag carries it (``on_drag`` each move,
    then once with ``released=True``). A subclass paints it; ``w`` and ``h`` are its size."""

    w: float
    h: float

    def __init__(self) -> None:
        super().__init__()
        self.lit = False
        self.quiet = False
        self.hovered = False
        self.key = ""
        """The key that plays it ("1"), shown on it while it is lit."""
        self.on_click: Callable[[Any], None] | None = None
        self.on_drag: Callable[[Any, QPointF, bool], None] | None = None
        self._press: QPointF | None = None
        self._grab = QPointF()
        self._dragging = False
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def make_playable(self, lit: bool, on_click: Callable[[Any], None],
                      on_drag: Callable[[Any, QPointF, bool], None] | None) -> None:
        """A card in my hand: lit when it may be played now, quiet otherwise."""
        self.lit, self.quiet = lit, not lit
        self.on_click, self.on_drag = on_click, on_drag
        self.setAcceptHoverEvents(True)
        if lit:
            self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)
            self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.update()

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent | None) -> None:
        if event is None or not self.lit:
            return
        self._press = event.scenePos()
        self._grab = event.scenePos() - self.pos()
        self._dragging = False
        event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent | None) -> None:
        if event is None or self._press is None or self.on_drag is None:
            return
        if not self._dragging:
            moved = event.scenePos() - self._press
            if moved.manhattanLength() < max(8.0, self.w * 0.08):
                return
            self._dragging = True
            self.setZValue(50)
        self.setPos(event.scenePos() - self._grab)
        self.on_drag(self, event.scenePos(), False)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent | None) -> None:
        if event is None or self._press is None:
            return
        dragging, self._press = self._dragging, None
        self._dragging = False
        if dragging:
            if self.on_drag:
                self.on_drag(self, event.scenePos(), True)
        elif self.on_click:
            self.on_click(self)


class RingItem(QGraphicsObject):
    """A short-lived ring ``gap`` outside ``rect`` that marks what just changed."""

    def __init__(self, rect: QRectF, gap: float = 4.0) -> None:
        super().__init__()
        self.rect = QRectF(rect)
        self.gap = gap
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresParentOpacity)

    def boundingRect(self) -> QRectF:
        pad = self.gap + 4
        return self.rect.adjusted(-pad, -pad, pad, pad)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(look.LIT, 4.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        g = self.gap
        painter.drawRoundedRect(self.rect.adjusted(-g, -g, g, g), 10, 10)


def paint_plate(painter: QPainter, rect: QRectF, radius: float, colour: QColor,
                active: bool, text_px: float) -> None:
    """A seat's plate: darker and ringed in the seat's colour while we wait for it."""
    painter.setBrush(QColor(0, 0, 0, 120) if active else look.PLATE)
    painter.setPen(QPen(colour, max(3.0, text_px * 0.22)) if active
                   else QPen(QColor(255, 255, 255, 40), 1.0))
    painter.drawRoundedRect(rect, radius, radius)


def paint_drop_zone(painter: QPainter, rect: QRectF, hot: bool, alpha: tuple[int, int]) -> None:
    """A dashed drop area, brighter (``alpha[1]`` over ``alpha[0]``) under the dragged card."""
    painter.setPen(QPen(look.LIT, 3.0 if hot else 2.0, Qt.PenStyle.DashLine))
    painter.setBrush(QColor(255, 216, 102, alpha[1] if hot else alpha[0]))
    painter.drawRoundedRect(rect, 12, 12)
