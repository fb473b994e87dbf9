"""The seats around the Ranking Top table: each seat's name plate, the direction of
play, and a seat's disc beside a caption on the felt.
"""

from __future__ import annotations

import math
from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen
from PyQt6.QtWidgets import (
    QGraphicsObject,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ui.tables import look, textfit
from ui.tables.pieces import (
    paint_back,
    paint_plate,
)
from ui.tables.ranking_top.faces import CARD_RATIO
from ui.words.i18n import _, ngettext


class PlateItem(QGraphicsObject):
    """A seat's name plate: colour disc with initial, name, cards in hand, a status.

    The seat to play gets a ring in its own colour and a drawn pointer, so the
    turn reads without relying on colour alone; the status says what the seat
    is doing in words ("to play", "deciding", "passed", "needs 3").
    """

    def __init__(self, seat: int, seat_map: dict[str, Any], colour: QColor, width: float,
                 height: float, text_px: float, in_hand: int, status: str, active: bool,
                 you: bool) -> None:
        super().__init__()
        self.seat = seat
        self.seat_map = seat_map
        self.name = str(seat_map.get("name") or _("Seat {n}").format(n=seat + 1))
        self.bot = bool(seat_map.get("bot"))
        self.connected = bool(seat_map.get("connected", True))
        self.colour = colour
        self.w, self.h, self.text_px = width, height, text_px
        self.in_hand, self.status = in_hand, status
        self.active, self.you = active, you
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(True)
        self.setToolTip(self.describe())

    def describe(self) -> str:
        who = _("{name} (you)").format(name=self.name) if self.you else self.name
        extra = "" if self.connected else " " + _("(not connected)")
        status = f", {self.status}" if self.status else ""
        return ngettext("{who}: {n} card in hand", "{who}: {n} cards in hand",
                        self.in_hand).format(who=who, n=self.in_hand) + status + extra

    def hand_point(self) -> QPointF:
        """Where this seat's cards come from when it plays (a card flies from here)."""
        return self.mapToScene(QPointF(self.w * 0.5, self.h * 0.5))

    def boundingRect(self) -> QRectF:
        return QRectF(-4, -4, self.w + 8, self.h + 8)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.w, self.h)
        paint_plate(painter, rect, self.h * 0.22, self.colour, self.active, self.text_px)
        t = self.text_px
        disc_r = self.h * 0.32
        centre = QPointF(self.h * 0.12 + disc_r, self.h * 0.5)
        look.draw_disc(painter, centre, disc_r, self.colour, look.letter_of(self.seat_map))
        left = centre.x() + disc_r + t * 0.45
        if self.active:  # a drawn pointer beside the disc: the turn without colour
            path = QPainterPath()
            tip = QPointF(left + t * 0.55, self.h / 2)
            path.moveTo(tip)
            path.lineTo(left, self.h / 2 - t * 0.42)
            path.lineTo(left, self.h / 2 + t * 0.42)
            path.closeSubpath()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(look.LIT)
            painter.drawPath(path)
            left += t * 0.85
        # Right end: the hand as a small back with its count (on a narrow plate, on
        # the second line, so the whole name has the first).
        count_font = look.font(t * 1.0, bold=True)
        count = str(self.in_hand)
        count_w = QFontMetrics(count_font).horizontalAdvance(count)
        back_h = self.h * 0.52
        back_w = back_h * CARD_RATIO
        right = self.w - t * 0.5 - count_w
        room = right - back_w - t * 0.6 - left
        tag = _("(you)") if self.you else _("(bot)") if self.bot else ""
        name = self.name + (f" {tag}" if tag else "")
        status = self.status
        name_font = look.font(t * 1.0, bold=True)
        status_font = look.font(t * 0.9)
        two_lines = bool(status) and self.h >= (QFontMetrics(name_font).height()
                                                + QFontMetrics(status_font).height())
        fitted = textfit.fit(name, room, name_font.pixelSize(), bold=True)
        band = (0.0, self.h)
        name_room = room
        if not fitted.fits and two_lines:
            name_room = self.w - t * 0.5 - left
            fitted = textfit.fit(name, name_room, name_font.pixelSize(), bold=True)
            back_h = self.h * 0.36
            back_w = back_h * CARD_RATIO
            band = (self.h / 2, self.h / 2)
        status_room = room
        if two_lines and not textfit.fit(status, room, status_font.pixelSize()).fits \
                and band == (0.0, self.h):
            # a long status ("se queda una carta") takes the whole width under the name;
            # the hand's back and count move up beside the name
            status_room = self.w - t * 0.5 - left
            back_h = self.h * 0.36
            back_w = back_h * CARD_RATIO
            band = (0.0, self.h / 2)
        top, tall = band
        paint_back(painter, QRectF(right - back_w - t * 0.3, top + (tall - back_h) / 2,
                                   back_w, back_h), back_w * 0.12)
        painter.setPen(look.INK_ON_FELT)
        painter.setFont(count_font)
        painter.drawText(QRectF(right, top, count_w + 2, tall),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, count)
        name_font, shown = fitted.font, fitted.lines[0]
        painter.setFont(name_font)
        painter.setPen(look.INK_ON_FELT if self.connected else look.MUTED_ON_FELT)
        if two_lines:
            half = self.h / 2
            painter.drawText(QRectF(left, 0, name_room, half + 1),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, shown)
            fitted = textfit.fit(status, status_room, status_font.pixelSize())
            painter.setFont(fitted.font)
            painter.setPen(look.LIT if self.active else look.MUTED_ON_FELT)
            painter.drawText(QRectF(left, half, status_room, half),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                             fitted.lines[0])
        else:
            painter.drawText(QRectF(left, 0, room, self.h),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)


def direction_words(clockwise: bool, width: float, t: float) -> textfit.Fitted:
    """The direction's name, whole, in ``width`` (the direction's column): on one line,
    or on two where it is long ("counter-" over "clockwise": at 1280x800 its one line
    was wider than the words' box and was cut at both ends, issue 31)."""
    words = _("clockwise") if clockwise else _("counter-clockwise")
    return textfit.fit(words, width, t * 0.95, 2, bold=True)


CAPTION_LINES = 1.5
"""Who is next, under the direction's name, in text heights."""


def direction_place(box: QRectF, t: float, clockwise: bool) -> tuple[float, QRectF]:
    """The arrow's size and the whole direction (arrow, name, who is next), centred in
    its column ``box``."""
    words = direction_words(clockwise, box.width(), t)
    below = max(t * 1.5, words.height() + t * 0.2) + t * CAPTION_LINES
    size = min(box.width() * 0.55, box.height() - below - t * 0.6, t * 5)
    top = box.top() + (box.height() - size - below) / 2
    return size, QRectF(box.left(), top, box.width(), size + below)


class DirectionItem(QGraphicsObject):
    """The direction of play: a circular arrow, its name in words, and who is next,
    centred in the direction's column (``width``)."""

    def __init__(self, clockwise: bool, size: float, text_px: float, caption: str,
                 width: float) -> None:
        super().__init__()
        self.clockwise, self.size, self.text_px = clockwise, size, text_px
        self.caption = caption
        self.w = width
        self.words = direction_words(clockwise, width, text_px)
        self.words_h = max(text_px * 1.5, self.words.height() + text_px * 0.2)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip((_("Play goes clockwise ({song} reverses it).") if clockwise else
                         _("Play goes counter-clockwise ({song} reverses it).")).format(
                             song="Severlá"))

    def boundingRect(self) -> QRectF:
        # The felt keeps a picture of each piece of exactly this size: the words, which
        # are wider than the arrow, lie inside it.
        return QRectF(0, 0, self.w, self.size + self.words_h
                      + self.text_px * CAPTION_LINES)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        s = self.size
        c = QPointF(self.w / 2, s / 2)
        r = s * 0.32
        pen = QPen(look.INK_ON_FELT, max(2.0, s * 0.06))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        box = QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)
        # An arc of 300 degrees; the arrowhead at its end shows the way round.
        start = 90
        span = -300 if self.clockwise else 300
        painter.drawArc(box, start * 16, span * 16)
        end = math.radians(start + span)
        tip = QPointF(c.x() + r * math.cos(end), c.y() - r * math.sin(end))
        # Tangent direction of travel at the end of the arc.
        sign = -1 if self.clockwise else 1
        tx, ty = -math.sin(end) * sign, -math.cos(end) * sign
        head = s * 0.14
        path = QPainterPath()
        path.moveTo(tip.x() + tx * head, tip.y() + ty * head)
        path.lineTo(tip.x() - ty * head * 0.8 - tx * head * 0.3,
                    tip.y() + tx * head * 0.8 - ty * head * 0.3)
        path.lineTo(tip.x() + ty * head * 0.8 - tx * head * 0.3,
                    tip.y() - tx * head * 0.8 - ty * head * 0.3)
        path.closeSubpath()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(look.INK_ON_FELT)
        painter.drawPath(path)
        painter.setPen(look.INK_ON_FELT)
        textfit.draw(painter, self.words, QRectF(0, s, self.w, self.words_h))
        if self.caption:
            painter.setPen(look.MUTED_ON_FELT)
            textfit.draw(painter, textfit.fit(self.caption, self.w, self.text_px * 0.9),
                         QRectF(0, s + self.words_h, self.w, self.text_px * CAPTION_LINES))


class DiscItem(QGraphicsObject):
    """A seat's disc (colour and initial) beside a caption on the felt."""

    def __init__(self, colour: QColor, letter: str, radius: float) -> None:
        super().__init__()
        self.colour, self.letter, self.r = colour, letter, radius
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        # Two initials that collide make the disc a wider pill (look.disc_half_width).
        half = look.disc_half_width(self.r, self.letter)
        return QRectF(self.r - half - 2, -2, 2 * half + 4, 2 * self.r + 4)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        look.draw_disc(painter, QPointF(self.r, self.r), self.r, self.colour, self.letter)
