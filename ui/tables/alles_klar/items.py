"""The drawn pieces of the Alles klar? table: cards, ranking cards, pile, plates.

Each item paints one thing from plain data (a card map of the view, a seat
map of the lobby) and knows nothing of the rules. Items are QGraphicsObjects
so a table can animate their position and opacity.
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QBrush, QColor, QFontMetrics, QPainter, QPainterPath, QPen
from PyQt6.QtWidgets import (
    QGraphicsObject,
    QGraphicsSceneHoverEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from lanplay.games.alles_klar.rules import ROMAN
from ui.tables import look, textfit
from ui.tables.pieces import (
    HandCard,
    paint_back,
    paint_drop_zone,
    paint_glow,
    paint_key,
    paint_plate,
    paint_quiet,
)
from ui.words.i18n import N_, _

ORDINAL_SHORT = (N_("highest"), N_("2nd highest"), N_("3rd highest"), N_("4th highest"),
                 N_("5th highest"))
ORDINAL_WORDS = ((N_("highest"), N_("top")), (N_("2nd highest"), N_("2nd")),
                 (N_("3rd highest"), N_("3rd")), (N_("4th highest"), N_("4th")),
                 (N_("5th highest"), N_("5th")))
"""What a face-up ranking card says, and its shorter words for a small card (English,
marked: translated where drawn)."""


def rank_caption_width() -> float:
    """The width a ranking card needs for its shortest words at the smallest type
    ("top", "2nd", ..., "down"), its caption box being 90% of the card."""
    metrics = QFontMetrics(look.font(look.default_px(), bold=True))
    words = [w[-1] for w in ORDINAL_WORDS] + [N_("down")]
    return max(metrics.horizontalAdvance(_(w)) for w in words) / 0.9 + 4


def numerals_text(numerals: list[int]) -> str:
    return " ".join(ROMAN[n - 1] for n in numerals if 1 <= n <= 5)


def _rounded(rect: QRectF, radius: float) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(rect, radius, radius)
    return path


class CardItem(HandCard):
    """A playing card: face up (ivory), face down on the table (dimmed), or a back.

    The corner index (value over numerals) stays visible when cards overlap in a
    row, so a fanned trick still reads card by card.
    """

    def __init__(self, card: dict[str, Any] | None, width: float, height: float,
                 face_up: bool = True, back: bool = False) -> None:
        super().__init__()
        self.card = card or {}
        self.w, self.h = width, height
        self.face_up = face_up
        self.back = back or card is None
        self.compact = False
        """Overlapped in a row: the corner index carries the numerals too."""

    @property
    def card_id(self) -> int | None:
        value = self.card.get("id")
        return value if isinstance(value, int) else None

    def boundingRect(self) -> QRectF:
        pad = max(3.0, self.w * 0.05)
        return QRectF(-pad, -pad, self.w + 2 * pad, self.h + 2 * pad)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.w, self.h)
        radius = self.w * 0.09
        if self.lit:
            paint_glow(painter, rect, radius, max(2.5, self.w * 0.035), look.LIT)
        if self.back:
            paint_back(painter, rect, radius)
        elif self.face_up:
            self._paint_face(painter, rect, radius, look.CARD_FACE, look.CARD_INK,
                             look.NUMERAL_INK)
        else:
            self._paint_face(painter, rect, radius, look.DOWN_FACE, look.DOWN_INK,
                             look.DOWN_INK, hatch=True)
        if self.quiet:
            paint_quiet(painter, rect, radius, 95)
        if self.key and self.lit:
            paint_key(painter, QPointF(self.w, 0), self.key)

    def _paint_face(self, painter: QPainter, rect: QRectF, radius: float, face: QColor,
                    ink: QColor, numeral_ink: QColor, hatch: bool = False) -> None:
        painter.setPen(QPen(look.CARD_EDGE, max(1.0, self.w * 0.018)))
        painter.setBrush(face)
        painter.drawRoundedRect(rect, radius, radius)
        if hatch:
            painter.setBrush(QBrush(QColor(60, 70, 66, 90), Qt.BrushStyle.BDiagPattern))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawRoundedRect(rect.adjusted(2, 2, -2, -2), radius, radius)
        value = str(self.card.get("value", "?"))
        numerals = numerals_text(list(self.card.get("numerals", [])))
        corner = max(look.default_px() * 1.15, self.h * 0.15)
        pad = self.w * 0.07
        painter.setPen(ink)
        painter.setFont(look.font(corner, bold=True))
        wide = QFontMetrics(look.font(corner, bold=True)).horizontalAdvance(value) + 2
        index = QRectF(pad, pad * 0.6, max(self.w * 0.5, wide), corner * 1.2)
        painter.drawText(index, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, value)
        if self.compact and numerals:
            size = max(look.default_px() * 0.95, self.h * 0.095)
            painter.setPen(numeral_ink)
            painter.setFont(look.font(size, bold=True))
            top = index.top() + corner * 1.15
            for line in numerals.split():
                painter.drawText(QRectF(pad, top, self.w, size * 1.2),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, line)
                top += size * 1.1
            painter.setPen(ink)
        if not self.compact:
            # The big value, the number that decides the trick (an overlapped card
            # shows only its index: the next card hides the middle anyway).
            # Below the corner index, however large the text (Ctrl+plus): never over it.
            top = max(self.h * 0.18, index.bottom())
            centre = QRectF(0, top, self.w, self.h * 0.70 - top)
            big = min(self.h * 0.40, centre.height() * 0.95)
            painter.setFont(look.font(big, bold=True))
            painter.drawText(centre, Qt.AlignmentFlag.AlignCenter, value)
        if numerals and not self.compact:
            self._paint_numerals(painter, numerals, numeral_ink)

    def _paint_numerals(self, painter: QPainter, text: str, ink: QColor) -> None:
        """The Roman numerals in a framed strip at the foot: what this card turns down."""
        size = max(look.default_px() * 1.0, self.h * 0.13)
        fnt = look.font(size, bold=True)
        metrics = QFontMetrics(fnt)
        while metrics.horizontalAdvance(text) > self.w * 0.84 and size > look.default_px():
            size -= 1
            fnt = look.font(size, bold=True)
            metrics = QFontMetrics(fnt)
        strip = QRectF(self.w * 0.08, self.h * 0.76, self.w * 0.84, max(size * 1.3, self.h * 0.18))
        if strip.bottom() > self.h - 3:
            strip.moveBottom(self.h - 3)
        painter.setPen(QPen(ink, max(1.0, self.w * 0.015)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(strip, 3, 3)
        painter.setFont(fnt)
        painter.drawText(strip, Qt.AlignmentFlag.AlignCenter, text)

    # --- input: click or drag, both always work -------------------------------

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent | None) -> None:
        self.hovered = True
        if self.lit:
            self.setY(self.y() - self.h * 0.06)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent | None) -> None:
        if self.hovered and self.lit and not self._dragging:
            self.setY(self.y() + self.h * 0.06)
        self.hovered = False
        super().hoverLeaveEvent(event)


class RankingItem(QGraphicsObject):
    """Ranking card N: face up it says which face-up value would win if it stays last."""

    def __init__(self, numeral: int, up: bool, width: float, height: float) -> None:
        super().__init__()
        self.numeral, self.up = numeral, up
        self.w, self.h = width, height
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        # With its outline's half width: the felt keeps a picture of each piece of
        # exactly this size (ui.tables.widgets.CachedScene), so nothing may lie outside.
        edge = max(1.5, self.w * 0.04) / 2 + 1
        return QRectF(-edge, -edge, self.w + 2 * edge, self.h + 2 * edge)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.w, self.h)
        radius = self.w * 0.09
        roman = ROMAN[self.numeral - 1]
        if self.up:
            painter.setPen(QPen(look.RANK_EDGE, max(1.5, self.w * 0.04)))
            painter.setBrush(look.RANK_FACE)
            ink = look.CARD_INK
        else:
            painter.setPen(QPen(QColor("#0F1714"), max(1.0, self.w * 0.02)))
            painter.setBrush(look.RANK_DOWN)
            ink = look.RANK_DOWN_INK
        painter.drawRoundedRect(rect, radius, radius)
        painter.setPen(ink)
        size = self.h * 0.34
        fnt = look.font(size, bold=True)
        while QFontMetrics(fnt).horizontalAdvance(roman) > self.w * 0.86 and size > 8:
            size -= 1
            fnt = look.font(size, bold=True)
        painter.setFont(fnt)
        painter.drawText(QRectF(0, self.h * 0.06, self.w, self.h * 0.42),
                         Qt.AlignmentFlag.AlignCenter, roman)
        box = QRectF(self.w * 0.05, self.h * 0.48, self.w * 0.90, self.h * 0.48)
        words = ORDINAL_WORDS[self.numeral - 1] if self.up else (N_("down"),)
        for caption in map(_, words):  # the whole words, else the short ones ("2nd")
            fitted = textfit.fit(caption, box.width(), self.h * 0.095, 2,
                                 height=box.height(), hyphenate=False)
            if fitted.fits:
                break
        textfit.draw(painter, fitted, box)


class StackItem(QGraphicsObject):
    """A face-down stack with its count on top: the draw pile, or the cards out of game."""

    def __init__(self, count: int, width: float, height: float, out: bool = False) -> None:
        super().__init__()
        self.count, self.out = count, out
        self.w, self.h = width, height
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        off = self.w * 0.08
        return QRectF(-1, -off - 1, self.w + off + 2, self.h + off + 2)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        radius = self.w * 0.09
        layers = 0 if self.count == 0 else min(3, 1 + self.count // 15)
        fill = QColor("#4A4F4D") if self.out else look.BACK
        for i in range(layers, -1, -1):
            rect = QRectF(i * self.w * 0.03, -i * self.w * 0.03, self.w, self.h)
            if self.count == 0:
                painter.setPen(QPen(look.MUTED_ON_FELT, 1.5, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
            else:
                painter.setPen(QPen(QColor("#E8E8E8"), max(1.0, self.w * 0.025)))
                painter.setBrush(fill)
            painter.drawRoundedRect(rect, radius, radius)
        painter.setPen(look.INK_ON_FELT if self.count else look.MUTED_ON_FELT)
        painter.setFont(look.font(self.h * 0.30, bold=True))
        painter.drawText(QRectF(0, 0, self.w, self.h), Qt.AlignmentFlag.AlignCenter,
                         str(self.count))


class PlateItem(QGraphicsObject):
    """A seat's name plate: colour disc with initial, name, cards in hand, cards won.

    The seat to play gets a ring in its own colour and a drawn pointer, so the
    turn reads without relying on colour alone.
    """

    def __init__(self, seat: int, seat_map: dict[str, Any], colour: QColor, width: float,
                 text_px: float, in_hand: int, won: int, active: bool, you: bool) -> None:
        super().__init__()
        self.seat = seat
        self.seat_map = seat_map
        self.name = str(seat_map.get("name") or _("Seat {n}").format(n=seat + 1))
        self.bot = bool(seat_map.get("bot"))
        self.connected = bool(seat_map.get("connected", True))
        self.colour = colour
        self.w = width
        self.text_px = text_px
        self.h = text_px * 3.3
        self.in_hand, self.won = in_hand, won
        self.active, self.you = active, you
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(True)
        self.setToolTip(self.describe())

    def describe(self) -> str:
        who = _("{name} (you)").format(name=self.name) if self.you else self.name
        extra = [_("bot") if self.bot else "", _("not connected") if not self.connected else ""]
        tail = ", ".join(e for e in extra if e)
        text = _("{who}: {in_hand} in hand, {won} won").format(who=who, in_hand=self.in_hand,
                                                               won=self.won)
        return text + (f" ({tail})" if tail else "")

    def boundingRect(self) -> QRectF:
        return QRectF(-4, -4, self.w + 8, self.h + 8)

    def hand_point(self) -> QPointF:
        """Where this seat's hand is drawn: a played card flies from here."""
        return self.mapToScene(QPointF(self.h * 0.95, self.h * 0.72))

    def won_point(self) -> QPointF:
        """Where this seat's won cards are counted: a won trick flies here."""
        x, _width = self._won_box()
        return self.mapToScene(QPointF(x + self.text_px * 0.4, self.h * 0.56 + self.text_px * 0.6))

    def _left(self) -> float:
        """Where the name and counts start, right of the disc (and the turn pointer)."""
        disc_r = self.h * 0.30
        return self.h * 0.12 + 2 * disc_r + self.text_px * (1.15 if self.active else 0.5)

    def _won_text(self) -> str:
        """'won 12', or just '12' beside its drawn stack when the words would leave the
        cards in hand no room (German's "12 gewonnen" on a narrow plate hid the '4')."""
        full = _("won {n}").format(n=self.won)
        if self.you:
            return full
        t = self.text_px
        metrics = QFontMetrics(look.font(t * 0.95))
        icon = t * 1.05 * 0.7 + t * 0.35
        hand = icon + metrics.horizontalAdvance(str(self.in_hand)) + t * 0.4
        won = icon + metrics.horizontalAdvance(full)
        return full if self._left() + hand + won + t * 0.5 <= self.w else str(self.won)

    def _won_box(self) -> tuple[float, float]:
        """The x and width of the drawn stack plus 'won N'."""
        t = self.text_px
        metrics = QFontMetrics(look.font(t * 0.95))
        icon_w = t * 1.05 * 0.7
        width = icon_w + t * 0.35 + metrics.horizontalAdvance(self._won_text())
        return (self._left() if self.you else self.w - width - t * 0.5), width

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.w, self.h)
        paint_plate(painter, rect, self.h * 0.22, self.colour, self.active, self.text_px)
        t = self.text_px
        disc_r = self.h * 0.30
        centre = QPointF(self.h * 0.12 + disc_r, self.h * 0.5)
        if self.active:
            self._paint_pointer(painter, QPointF(centre.x() + disc_r + t * 0.25, t * 0.95))
        look.draw_disc(painter, centre, disc_r, self.colour, look.letter_of(self.seat_map),
                       bot=self.bot)
        left = self._left()
        name_font = look.font(t * 1.05, bold=True)
        tag_font = look.font(t * 0.95)
        tag = " " + _("(you)") if self.you else " " + _("(bot)") if self.bot else ""
        tag += "" if self.connected else " " + _("offline")
        name_box = QRectF(left, self.h * 0.08, self.w - left - t * 0.4, t * 1.5)
        # The tag is never elided: "offline" must stay readable on a long name.
        tag_w = QFontMetrics(tag_font).horizontalAdvance(tag)
        fitted = textfit.fit(self.name, max(t * 2, name_box.width() - tag_w),
                             name_font.pixelSize(), bold=True)
        if not fitted.fits and self.bot and tag == " " + _("(bot)"):
            # A narrow plate (a 1024x640 screen, the text zoomed): the name whole, and
            # the square disc and the tooltip say "bot" ("Jon… (bot)" said neither).
            tag, tag_w = "", 0
            fitted = textfit.fit(self.name, max(t * 2, name_box.width()),
                                 name_font.pixelSize(), bold=True)
        shown, name_font = fitted.lines[0], fitted.font
        name_w = QFontMetrics(name_font).horizontalAdvance(shown)
        painter.setFont(name_font)
        painter.setPen(look.INK_ON_FELT if self.connected else look.MUTED_ON_FELT)
        painter.drawText(name_box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         shown)
        if tag:
            painter.setFont(tag_font)
            painter.setPen(look.LIT if not self.connected else look.MUTED_ON_FELT)
            painter.drawText(name_box.adjusted(name_w, 0, 0, 0),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, tag)
        self._paint_counts(painter, left, t)

    def _paint_pointer(self, painter: QPainter, tip: QPointF) -> None:
        s = self.text_px * 0.55
        path = QPainterPath()
        path.moveTo(tip.x() + s, tip.y())
        path.lineTo(tip.x(), tip.y() - s * 0.8)
        path.lineTo(tip.x(), tip.y() + s * 0.8)
        path.closeSubpath()
        painter.setPen(QPen(QColor("#101010"), 1.0))
        painter.setBrush(look.LIT)
        painter.drawPath(path)

    def _paint_counts(self, painter: QPainter, left: float, t: float) -> None:
        """A drawn card back with '4 in hand' (not for me: my hand is in view), and a
        drawn stack with 'won 12' at the right, where won tricks fly to."""
        small = look.font(t * 0.95)
        painter.setFont(small)
        metrics = QFontMetrics(small)
        y = self.h * 0.56
        line_h = t * 1.2
        icon_h = t * 1.05
        icon_w = icon_h * 0.7
        won_text = self._won_text()
        wx, won_w = self._won_box()
        for i in range(2):
            r = QRectF(wx + i * 3, y + (line_h - icon_h) / 2 - i * 3, icon_w, icon_h)
            painter.setPen(QPen(QColor("#303030"), 1.0))
            painter.setBrush(look.CARD_FACE if self.won else QColor("#6F7F78"))
            painter.drawRoundedRect(r, 2, 2)
        painter.setPen(look.INK_ON_FELT)
        painter.drawText(QRectF(wx + icon_w + t * 0.35, y, won_w, line_h),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, won_text)
        if self.you:
            return
        r = QRectF(left, y + (line_h - icon_h) / 2, icon_w, icon_h)
        painter.setPen(QPen(QColor("#E8E8E8"), 1.0))
        painter.setBrush(look.BACK)
        painter.drawRoundedRect(r, 2, 2)
        x = left + icon_w + t * 0.35
        room = wx - x - t * 0.4
        for text in (_("{n} in hand").format(n=self.in_hand), str(self.in_hand)):
            if metrics.horizontalAdvance(text) <= room:
                painter.setPen(look.INK_ON_FELT)
                painter.drawText(QRectF(x, y, room, line_h),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
                break


class ZoneItem(QGraphicsObject):
    """A dashed area that lights while a card is dragged: drop here to play."""

    def __init__(self, rect: QRectF, text_px: float) -> None:
        super().__init__()
        self.rect = rect
        self.text_px = text_px
        self.hot = False
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setVisible(False)

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-3, -3, 3, 3)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_drop_zone(painter, self.rect, self.hot, (18, 45))
        painter.setFont(look.font(self.text_px, bold=True))
        painter.setPen(look.LIT)
        painter.drawText(self.rect.adjusted(self.text_px, 0, 0, 0),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         _("Drop here\nto play"))
