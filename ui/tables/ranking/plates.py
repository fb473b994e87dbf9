"""The players' plates of the Ranking table, in its side panel: a seat's disc, name,
score and place on the scoring track, and the guess stones it still holds.

Drawn from plain data (``PlateInfo``), as the other pieces in ``items``.
"""

from __future__ import annotations

from dataclasses import dataclass

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen
from PyQt6.QtWidgets import (
    QGraphicsObject,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ui.tables import look, textfit
from ui.tables.pieces import paint_plate
from ui.tables.ranking.items import Mark
from ui.tables.ranking.layout import track_position
from ui.words.i18n import _, ngettext


@dataclass
class PlateInfo:
    seat: int
    name: str
    colour: QColor
    score: int
    you: bool
    bot: bool
    connected: bool
    active: bool
    status: str
    """A short word: "placed", "to guess", "+4 last round"..."""
    stones: list[tuple[Mark, int, int]]
    """Per other colour: its mark, stones of it still held, stones of it at the start."""
    gain: int | None = None
    """Points earned in the round just scored (shown while its row is on show)."""
    letter: str = ""
    """The seat's badge text (``look.seat_letter``)."""


class PlateItem(QGraphicsObject):
    """A player in the side panel: disc, name, score and track place, guess stones left.

    The seat we wait for gets a ring in its colour and a drawn pointer, so
    it reads without relying on colour alone.
    """

    def __init__(self, info: PlateInfo, rect: QRectF, text_px: float) -> None:
        super().__init__()
        self.info, self.rect, self.text_px = info, rect, text_px
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(True)
        self.setToolTip(self.describe())

    def describe(self) -> str:
        i = self.info
        who = _("{name} (you)").format(name=i.name) if i.you else i.name
        left = ", ".join(_("{n} of {badge}").format(n=held, badge=m.letter)
                         for m, held, _total in i.stones)
        return ngettext("{who}: {score} point. Guess stones left: {left}.",
                        "{who}: {score} points. Guess stones left: {left}.", i.score).format(
            who=who, score=i.score, left=left or _("none"))

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-4, -4, 4, 4)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        i, r, t = self.info, self.rect, self.text_px
        paint_plate(painter, r, t * 0.8, i.colour, i.active, t)
        disc_r = t * 1.0
        centre = QPointF(r.left() + t * 0.5 + disc_r, r.top() + t * 0.45 + disc_r)
        look.draw_disc(painter, centre, disc_r, i.colour, i.letter or look.initial(i.name))
        left = centre.x() + disc_r + t * (1.2 if i.active else 0.5)
        if i.active:
            tip = QPointF(centre.x() + disc_r + t * 0.2, centre.y())
            s = t * 0.5
            path = QPainterPath()
            path.moveTo(tip.x() + s, tip.y())
            path.lineTo(tip.x(), tip.y() - s * 0.8)
            path.lineTo(tip.x(), tip.y() + s * 0.8)
            path.closeSubpath()
            painter.setPen(QPen(QColor("#101010"), 1.0))
            painter.setBrush(look.LIT)
            painter.drawPath(path)
        # Line 1: the name and the score.
        score_font = look.font(t * 1.35, bold=True)
        score_text = str(i.score)
        score_w = QFontMetrics(score_font).horizontalAdvance(score_text)
        line1 = QRectF(left, r.top() + t * 0.3, r.right() - left - t * 0.6, t * 1.6)
        name_font = look.font(t * 1.05, bold=True)
        tag = " " + _("(you)") if i.you else " " + _("(bot)") if i.bot else ""
        tag += "" if i.connected else " " + _("offline")
        tag_font = look.font(t * 0.9)
        tag_w = QFontMetrics(tag_font).horizontalAdvance(tag)
        room = int(max(t * 2, line1.width() - score_w - tag_w - t * 0.6))
        shown = QFontMetrics(name_font).elidedText(i.name, Qt.TextElideMode.ElideRight, room)
        painter.setFont(name_font)
        painter.setPen(look.INK_ON_FELT if i.connected else look.MUTED_ON_FELT)
        painter.drawText(line1, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)
        if tag:
            name_w = QFontMetrics(name_font).horizontalAdvance(shown)
            painter.setFont(tag_font)
            painter.setPen(look.LIT if not i.connected else look.MUTED_ON_FELT)
            painter.drawText(line1.adjusted(name_w, 0, 0, 0),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, tag)
        painter.setFont(score_font)
        painter.setPen(look.LIT)
        painter.drawText(line1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                         score_text)
        # Line 2: where the scoring stone stands on the tower.
        small = look.font(t * 0.9)
        painter.setFont(small)
        place, up = track_position(i.score)
        if place is None:
            track = _("out: left the tower")
        elif place == 7:
            track = _("roof 7") + " ▼"
        else:
            track = _("floor {n}").format(n=place) + (" ▲" if up else " ▼")
        if i.gain is not None:
            track += f" · +{i.gain}"
        line2 = QRectF(left, line1.bottom() - t * 0.1, r.right() - left - t * 0.5, t * 1.3)
        status_w = 0.0
        if i.status:
            status_font = look.font(t * 0.95, bold=True)
            painter.setFont(status_font)
            painter.setPen(look.LIT if i.active else look.INK_ON_FELT)
            status_w = min(line2.width() * 0.6,
                           QFontMetrics(status_font).horizontalAdvance(i.status) + t * 0.4)
            shown = QFontMetrics(status_font).elidedText(i.status, Qt.TextElideMode.ElideRight,
                                                         int(status_w))
            painter.drawText(line2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             shown)
        painter.setPen(look.MUTED_ON_FELT)
        textfit.draw(painter, textfit.fit(track, line2.width() - status_w, t * 0.9),
                     line2.adjusted(0, 0, -status_w, 0), Qt.AlignmentFlag.AlignLeft)
        painter.setFont(small)
        # Line 3: guess stones still held, by colour (a used one is an empty ring); status.
        y = r.bottom() - t * 1.05
        x = r.left() + t * 0.7
        # translators: before the guess stones a player still holds, on their plate
        label = _("stones")
        painter.drawText(QRectF(x, y - t * 0.7, t * 5, t * 1.4),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
        sr = t * 0.58
        x += QFontMetrics(small).horizontalAdvance(label) + t * 0.9 - sr  # the first's left
        for mark, held, total in i.stones:
            half = look.disc_half_width(sr, mark.letter)  # a pill where initials collide
            for k in range(max(total, held)):
                if k < held:
                    look.draw_disc(painter, QPointF(x + half, y), sr, mark.colour,
                                   mark.letter)
                else:
                    painter.setPen(QPen(mark.colour, 1.5, Qt.PenStyle.DashLine))
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawEllipse(QPointF(x + half, y), sr * 0.8, sr * 0.8)
                x += 2 * half + sr * 0.2
            x += sr * 0.6

