"""The tower's fixed pieces in the Ranking table: a floor's shelf with its scoring
stones, the roof with the round's number, and the question under it.

Split from ``items`` (the tiles) by what they are: each paints one thing from plain
data and knows nothing of the rules.
"""

from __future__ import annotations

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QPainter, QPainterPath, QPen
from PyQt6.QtWidgets import QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from ui.tables import look, textfit
from ui.tables.ranking.items import (
    SHELF,
    SHELF_DARK,
    SIDE_COLOURS,
    TOWER,
    Mark,
    arrow,
    stone_step,
)
from ui.words.i18n import _


class ShelfItem(QGraphicsObject):
    """One floor of the tower: the scoring stones standing there, the number, the shelf."""

    def __init__(self, rect: QRectF, floor: int, track_w: float, label_w: float,
                 text_px: float, stones: list[tuple[Mark, bool]], hint: str = "",
                 band_lead: float = 0.0) -> None:
        super().__init__()
        self.band_lead = band_lead
        """The stones stand in the floor, right of its number, this wide (0: in the
        track): too many for the track stand together here."""
        self.rect = rect
        self.floor = floor
        self.track_w, self.label_w, self.text_px = track_w, label_w, text_px
        self.stones = stones
        self.hint = hint
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(-5)

    def boundingRect(self) -> QRectF:
        # Many stones on one floor overlap leftwards past the track (draw_track_stones).
        return self.rect.adjusted(-self.text_px * 2, -2, 2, 2)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r, t = self.rect, self.text_px
        tower = QRectF(r.left() + self.track_w, r.top(), self.label_w, r.height())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#2C3A35") if self.floor % 2 else QColor("#34453F"))
        painter.drawRect(tower)
        painter.setBrush(TOWER if self.floor % 2 else QColor(0, 0, 0, 30))
        painter.drawRect(QRectF(tower.right(), r.top(), r.right() - tower.right(), r.height()))
        shelf_h = max(3.0, t * 0.28)
        painter.setBrush(SHELF)
        painter.setPen(QPen(SHELF_DARK, 1.0))
        painter.drawRect(QRectF(tower.left(), r.bottom() - shelf_h, r.right() - tower.left(),
                                shelf_h))
        size = min(r.height() * 0.7, t * 1.9)
        painter.setFont(look.font(size, bold=True))
        painter.setPen(look.RANK_FACE)
        painter.drawText(tower.adjusted(0, 0, 0, -shelf_h), Qt.AlignmentFlag.AlignCenter,
                         str(self.floor))
        if self.hint:
            painter.setPen(look.MUTED_ON_FELT)
            box = QRectF(tower.right() + self.band_lead + t * 0.6, r.top(),
                         r.right() - tower.right() - self.band_lead - t * 1.0,
                         r.height() - shelf_h)
            fitted = textfit.fit(self.hint, box.width(), t * 0.9, 2, height=box.height())
            if fitted.fits:  # a hint never cut: on a floor too thin, none
                textfit.draw(painter, fitted, box, Qt.AlignmentFlag.AlignLeft)
        if self.band_lead:
            draw_track_stones(painter, QRectF(tower.right() + t * 0.2, r.top(),
                                              self.band_lead - t * 0.4, r.height() - shelf_h),
                              self.stones, t)
            return
        draw_track_stones(painter, QRectF(r.left(), r.top(), self.track_w, r.height() - shelf_h),
                          self.stones, t)


def draw_track_stones(painter: QPainter, box: QRectF, stones: list[tuple[Mark, bool]],
                      t: float) -> None:
    """Scoring stones side by side (overlapping when many), each with its up/down arrow."""
    if not stones:
        return
    r = min(t * 0.62, box.height() * 0.36)
    half, least = stone_step(r, [mark.letter for mark, _ in stones])
    per_row = max(1, int((box.width() - 4) // (2.1 * half)))
    rows = [stones]
    if len(stones) > per_row and box.height() >= 5.2 * r:
        middle = (len(stones) + 1) // 2
        rows = [stones[:middle], stones[middle:]]
    for n, part in enumerate(rows):
        y = box.center().y() + (n - (len(rows) - 1) / 2) * r * 2.6
        step = max(least, min(2 * half * 1.05,
                              (box.width() - 2 * half - 4) / max(1, len(part) - 1)))
        x = box.right() - half - 2
        arrows = step >= 2 * half
        for mark, up in part:
            look.draw_disc(painter, QPointF(x, y), r, mark.colour, mark.letter)
            if arrows:
                arrow(painter, QPointF(x, y - r * 1.3 if up else y + r * 1.3), r * 0.4, up,
                       QColor("#F3F1E7"))
            x -= step


class RoofItem(QGraphicsObject):
    """The tower's roof beside the question: track space 7 and the stones on it."""

    def __init__(self, rect: QRectF, track_w: float, label_w: float, text_px: float,
                 stones: list[tuple[Mark, bool]]) -> None:
        super().__init__()
        self.rect = rect
        self.track_w, self.label_w, self.text_px = track_w, label_w, text_px
        self.stones = stones
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(True)
        self.setZValue(-5)
        self.setToolTip(_("The score track: scoring stones climb the tower to the roof (7), "
                          "then come back down; at 15 a stone leaves the tower and the game "
                          "ends after that round."))

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-self.text_px, -2, self.text_px, 2)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r, t = self.rect, self.text_px
        left = r.left() + self.track_w
        path = QPainterPath()
        path.moveTo(left - t * 0.4, r.bottom())
        path.lineTo(left + self.label_w * 0.5, r.top() + r.height() * 0.1)
        path.lineTo(left + self.label_w + t * 0.4, r.bottom())
        path.closeSubpath()
        painter.setPen(QPen(SHELF_DARK, 1.5))
        painter.setBrush(SHELF)
        painter.drawPath(path)
        painter.setFont(look.font(t * 1.3, bold=True))
        painter.setPen(look.CARD_INK)
        painter.drawText(QRectF(left, r.top() + r.height() * 0.4, self.label_w,
                                r.height() * 0.6), Qt.AlignmentFlag.AlignCenter, "7")
        draw_track_stones(painter, QRectF(r.left(), r.top() + r.height() * 0.3, self.track_w,
                                          r.height() * 0.7), self.stones, t)


class QuestionItem(QGraphicsObject):
    """The round's question on top of the tower, large, with the side's coloured flag."""

    def __init__(self, rect: QRectF, text: str, side: str, text_px: float,
                 caption: str = "") -> None:
        super().__init__()
        self.rect, self.text, self.side, self.text_px = rect, text, side, text_px
        self.caption = caption
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip(text)

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-3, -3, 3, 3)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r, t = self.rect, self.text_px
        radius = r.height() * 0.18
        painter.setPen(QPen(look.RANK_EDGE, max(2.0, t * 0.15)))
        painter.setBrush(look.RANK_FACE if self.text else QColor("#2C3A35"))
        painter.drawRoundedRect(r, radius, radius)
        flag_w = r.height() * 1.3
        flag = QRectF(r.left() + t * 0.6, r.top() + r.height() * 0.2, flag_w,
                      r.height() * 0.6)
        colour = SIDE_COLOURS.get(self.side, QColor("#777777"))
        painter.setPen(QPen(QColor("#101010"), 1.0))
        painter.setBrush(colour)
        painter.drawRoundedRect(flag, 4, 4)
        painter.setFont(look.font(t * 0.85, bold=True))
        painter.setPen(look.ink_for(colour))
        side = {"red": _("red\nside"), "blue": _("blue\nside")}.get(
            self.side, _("{side}\nside").format(side=self.side))
        painter.drawText(flag, Qt.AlignmentFlag.AlignCenter, side)
        box = QRectF(flag.right() + t * 0.8, r.top(), r.right() - flag.right() - t * 1.4,
                     r.height())
        text = self.text or self.caption
        size = min(r.height() * 0.5, t * 2.0)
        fitted = textfit.fit(text, box.width(), size, 1, bold=True, min_px=t)
        if not fitted.fits:  # two lines before the platform's size gives up
            fitted = textfit.fit(text, box.width(), min(size, r.height() * 0.36), 2,
                                 bold=True, height=r.height() - 4)
        if not fitted.fits:  # long words (German) on a narrow card: plain type is narrower
            fitted = textfit.fit(text, box.width(), min(size, r.height() * 0.36), 2,
                                 height=r.height() - 4)
        if not fitted.fits:  # a long question on a narrow table: three lines
            fitted = textfit.fit(text, box.width(), min(size, r.height() * 0.3), 3,
                                 height=r.height() - 2)
        painter.setPen(look.CARD_INK if self.text else look.INK_ON_FELT)
        textfit.draw(painter, fitted, box, Qt.AlignmentFlag.AlignLeft)
