"""The drawn pieces of the Ranagedon table: the wooden table with its lily
pad, the frog discs, the aim (press point, arrow, pull, power bar), the side
plates and the abilities legend.

Each item paints plain data handed to it and knows no rule. A frog is its
frog colour (red or green) inside a ring of its border colour (magenta, blue
or yellow); the owner's letter on it is the second cue that colour alone
never carries. Frogs higher in a stack are drawn a little larger with a
longer shadow, so a stack reads as a stack from above.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen, QRadialGradient
from PyQt6.QtWidgets import QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from ui.tables import look, textfit
from ui.tables.pieces import key_size, paint_key
from ui.tables.ranagedon.board import (
    FROG_DARK,
    FROG_MM,
    PAD,
    PAD_EDGE,
    PAD_MM,
    RING_IN_MM,
    WOOD,
    WOOD_EDGE,
    Board,
    border_colour,
    frog_colour,
)
from ui.words.i18n import _, ngettext

LEVEL_GROW = 0.08
"""Each stack level draws a frog this much larger: higher frogs look nearer."""


LIFT_SHOWN = 5.0
"""Above this many levels a frog is drawn no larger (a tall stack stays readable)."""
CHIP_DOTS = 6


def level_scale(level: float) -> float:
    return 1.0 + LEVEL_GROW * min(LIFT_SHOWN, max(0.0, level))


def paint_frog(painter: QPainter, centre: QPointF, r: float, colour: str, border: str,
               letter: str = "", lift: float = 0.0, shadow: bool = True,
               ghost: bool = False, mark: str | None = None) -> None:
    """One frog disc of radius ``r`` px; ``lift`` (in stack levels) lengthens its shadow.

    ``mark`` (a badge colour) draws ``letter`` as its owner's badge, a disc in the
    owner's colour on the rulebook-coloured frog; without it the letter is white."""
    if shadow:
        lift = min(LIFT_SHOWN, max(0.0, lift))
        off = r * (0.12 + 0.16 * lift)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, max(40, 110 - int(18 * lift))))
        painter.drawEllipse(QPointF(centre.x() + off, centre.y() + off * 1.2), r * 1.02,
                            r * 1.02)
    ring = border_colour(border)
    body = frog_colour(colour)
    if ghost:
        ring.setAlpha(150)
        body.setAlpha(150)
    painter.setPen(QPen(QColor("#1A1A1A"), max(1.0, r * 0.07)))
    painter.setBrush(ring)
    painter.drawEllipse(centre, r, r)
    inner = r * RING_IN_MM / FROG_MM
    gradient = QRadialGradient(QPointF(centre.x() - inner * 0.3, centre.y() - inner * 0.35),
                               inner * 1.4)
    gradient.setColorAt(0.0, body.lighter(130))
    gradient.setColorAt(1.0, body)
    painter.setPen(QPen(FROG_DARK.get(colour, QColor("#333333")), max(1.0, r * 0.05)))
    painter.setBrush(gradient)
    painter.drawEllipse(centre, inner, inner)
    if letter and mark:  # the owner's badge on the frog, its body still showing round it
        badge = QColor(mark)
        if ghost:
            badge.setAlpha(150)
        painter.setPen(QPen(QColor("#101010"), max(1.0, inner * 0.06)))
        painter.setBrush(badge)
        painter.drawEllipse(centre, inner * 0.64, inner * 0.64)
    if letter:
        painter.setPen(look.ink_for(QColor(mark)) if mark else QColor("#FFFFFF"))
        scale = 1.25 if len(letter) == 1 else 0.85 if len(letter) == 2 else 0.66
        painter.setFont(look.font(inner * scale, bold=True))
        box = QRectF(centre.x() - inner * 1.5, centre.y() - inner * 1.5, inner * 3, inner * 3)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, letter)


class TableItem(QGraphicsObject):
    """The 800 x 800 mm playing area: wood, its edge, the golden lily pad."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board
        self.wedge: QPainterPath | None = None
        """While I deploy: where my frogs may go, tinted."""

    def boundingRect(self) -> QRectF:
        b = self.board
        pad = b.size * 0.02
        return QRectF(b.left - pad, b.top - pad, b.size + 2 * pad, b.size + 2 * pad)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        b = self.board
        rect = QRectF(b.left, b.top, b.size, b.size)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 80))
        painter.drawRoundedRect(rect.translated(b.size * 0.006, b.size * 0.01), 8, 8)
        gradient = QRadialGradient(rect.center(), b.size * 0.75)
        gradient.setColorAt(0.0, WOOD.lighter(106))
        gradient.setColorAt(1.0, WOOD.darker(108))
        painter.setBrush(gradient)
        painter.setPen(QPen(WOOD_EDGE, max(2.0, b.size * 0.006)))
        painter.drawRoundedRect(rect, 8, 8)
        painter.setPen(QPen(QColor(120, 90, 50, 40), 1.0))
        for i in range(1, 12):
            y = rect.top() + rect.height() * i / 12
            painter.drawLine(QPointF(rect.left() + 4, y), QPointF(rect.right() - 4, y))
        if self.wedge is not None:
            painter.setBrush(QColor(255, 216, 102, 60))
            painter.setPen(QPen(QColor(255, 255, 255, 170), 2.0, Qt.PenStyle.DashLine))
            painter.drawPath(self.wedge)
        centre = b.to_scene(400, 400)
        pr = b.mm(PAD_MM)
        pad = QRadialGradient(QPointF(centre.x() - pr * 0.3, centre.y() - pr * 0.3), pr * 1.5)
        pad.setColorAt(0.0, PAD.lighter(125))
        pad.setColorAt(1.0, PAD)
        painter.setBrush(pad)
        painter.setPen(QPen(PAD_EDGE, max(1.5, pr * 0.05)))
        path = QPainterPath()
        path.moveTo(centre)
        path.arcTo(QRectF(centre.x() - pr, centre.y() - pr, 2 * pr, 2 * pr), 75, 345)
        path.closeSubpath()
        painter.drawPath(path)
        painter.setPen(QPen(PAD_EDGE.lighter(120), 1.0))
        for angle in (20, 110, 200, 290):
            a = math.radians(angle)
            painter.drawLine(centre, QPointF(centre.x() + pr * 0.8 * math.cos(a),
                                             centre.y() - pr * 0.8 * math.sin(a)))


class FrogItem(QGraphicsObject):
    """One frog disc, positioned at its centre; ``lift`` and scale follow its level."""

    def __init__(self, frog: dict[str, object], radius: float, letter: str,
                 mark: str | None = None) -> None:
        super().__init__()
        self.frog = frog
        self.frog_id = int(frog.get("id", -1))  # type: ignore[call-overload]
        self.colour = str(frog.get("colour", ""))
        self.border = str(frog.get("border", ""))
        self.radius = radius
        self.letter = letter
        self.mark = mark
        """The owner's badge colour (a one-player side), drawn under ``letter``."""
        self.level = float(frog.get("level", 0) or 0)  # type: ignore[arg-type]
        self.lift = self.level
        self.lit = False
        """One of my free frogs on my move: it can be aimed."""
        self.hot = False
        self.selected = False
        self.ghost = False
        self.last = False
        """The frog that moved last: a thin white halo."""
        self.badge = ""
        """Points it brings from the lily pad ("+2", "+1")."""
        self.key = ""
        """The key that chooses it to aim ("1"), shown by it while it is lit."""
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(10 + 10 * self.level)
        self.setScale(level_scale(self.level))

    def set_lift(self, lift: float) -> None:
        """Height above the table in stack levels (a flight goes higher)."""
        self.lift = lift
        self.setScale(level_scale(lift))
        self.update()

    def boundingRect(self) -> QRectF:
        r = self.radius * 1.9
        w, h = key_size("9")  # the key cap over the disc's upper left
        left = max(r, self.radius * 0.75 + w * 0.6 + 2)
        top = max(r * 1.4, self.radius * 0.75 + h * 0.45 + 2)
        return QRectF(-left, -top, left + r + self.radius * 2, top + r)

    def opaqueArea(self) -> QPainterPath:
        """The disc and its points badge hide what lies under them (a frog on a frog)."""
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self.radius, self.radius)
        if self.badge:
            path.addRect(self._badge_box())
        return path

    def _badge_box(self) -> QRectF:
        r = self.radius
        metrics = QFontMetrics(look.font(r * 0.8, bold=True))
        w, h = metrics.horizontalAdvance(self.badge) + 6, metrics.height()
        return QRectF(r * 0.55, -r * 1.15 - h * 0.3, w, h)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = self.radius
        if self.lit or self.selected:
            glow = QColor(look.LIT if not self.selected else QColor("#FFFFFF"))
            glow.setAlpha(255 if (self.hot or self.selected) else 200)
            painter.setPen(QPen(glow, max(2.5, r * (0.26 if self.hot else 0.18))))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), r * 1.28, r * 1.28)
        elif self.last:
            painter.setPen(QPen(QColor(255, 255, 255, 170), max(1.5, r * 0.1),
                                Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), r * 1.25, r * 1.25)
        paint_frog(painter, QPointF(0, 0), r, self.colour, self.border, self.letter,
                   self.lift, ghost=self.ghost, mark=self.mark)
        if self.key and self.lit:  # over the disc's upper left, clear of the points badge
            paint_key(painter, QPointF(-r * 0.75, -r * 0.75), self.key, straddle=True)
        if self.badge:
            fnt = look.font(r * 0.8, bold=True)
            box = self._badge_box()
            h = box.height()
            painter.setPen(QPen(PAD_EDGE, 1.5))
            painter.setBrush(PAD.lighter(115))
            painter.drawRoundedRect(box, h / 2, h / 2)
            painter.setFont(fnt)
            painter.setPen(QColor("#111111"))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.badge)


@dataclass
class AimPicture:
    """What the aim shows: scene points and a strength, no landing."""

    centre: QPointF
    press: QPointF
    pointer: QPointF
    angle: float
    """Screen angle the frog will leave along (away from the pressed point)."""
    s: float
    radius: float
    kind: str = "jump"
    armed: bool = False
    landing: QPointF | None = None
    """Where the jump lands without the scatter (the host's draw moves it a little):
    shown before letting go, so nobody jumps backwards off the table by surprise."""


class AimItem(QGraphicsObject):
    """The press point, an arrow opposite it, the pull line and the power bar."""

    def __init__(self, bounds: QRectF) -> None:
        super().__init__()
        self.bounds = bounds
        self.picture: AimPicture | None = None
        self.setZValue(500)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def show_aim(self, picture: AimPicture | None) -> None:
        self.picture = picture
        self.update()

    def boundingRect(self) -> QRectF:
        return self.bounds

    def opaqueArea(self) -> QPainterPath:
        """The power bar and its label lie over the board while aiming."""
        path = QPainterPath()
        if self.picture is not None:
            path.addRect(self.bar_rect())
            path.addRect(self.label_rect())
        return path

    def label_rect(self) -> QRectF:
        """The strength in words ("55%") beside the bar."""
        p = self.picture
        if p is None:
            return QRectF()
        bar = self.bar_rect()
        fnt = look.font(look.default_px(), bold=True)
        width = QFontMetrics(fnt).horizontalAdvance(f"{round(p.s * 100)}%")
        left_of = bar.center().x() < p.pointer.x()
        return QRectF(bar.left() - width - 12 if left_of else bar.right() + 4,
                      bar.top(), width + 8, fnt.pixelSize() + 6)

    def bar_rect(self) -> QRectF:
        """The power bar beside the pointer, on the side away from the frog."""
        p = self.picture
        if p is None:
            return QRectF()
        w, h = max(12.0, p.radius * 0.8), max(90.0, p.radius * 7.0)
        away = 1.0 if p.pointer.x() >= p.centre.x() else -1.0
        x = p.pointer.x() + away * p.radius * 1.6 - (w if away < 0 else 0.0)
        if x + w > self.bounds.right() - 4 or x < self.bounds.left() + 4:
            x = p.pointer.x() - away * p.radius * 1.6 - (w if away > 0 else 0.0)
        y = max(self.bounds.top() + 4, min(p.pointer.y() - h / 2, self.bounds.bottom() - h - 4))
        return QRectF(x, y, w, h)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        p = self.picture
        if painter is None or p is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = p.radius
        # The pull: a rubber band from the pressed point to the pointer.
        painter.setPen(QPen(QColor(255, 255, 255, 150), max(1.5, r * 0.12),
                            Qt.PenStyle.DashLine))
        painter.drawLine(p.press, p.pointer)
        # The arrow: from the disc's edge away from the pressed point, fixed length.
        ux, uy = math.cos(p.angle), math.sin(p.angle)
        start = QPointF(p.centre.x() + ux * r * 1.3, p.centre.y() + uy * r * 1.3)
        length = r * 3.2
        tip = QPointF(start.x() + ux * length, start.y() + uy * length)
        colour = look.LIT if p.armed else QColor(255, 255, 255, 190)
        painter.setPen(QPen(QColor(20, 20, 20, 160), max(4.0, r * 0.42),
                            Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawLine(start, tip)
        painter.setPen(QPen(colour, max(2.5, r * 0.26), Qt.PenStyle.SolidLine,
                            Qt.PenCapStyle.RoundCap))
        painter.drawLine(start, tip)
        head = QPainterPath()
        size = max(7.0, r * 0.8)
        head.moveTo(tip.x() + ux * size, tip.y() + uy * size)
        head.lineTo(tip.x() - uy * size * 0.8, tip.y() + ux * size * 0.8)
        head.lineTo(tip.x() + uy * size * 0.8, tip.y() - ux * size * 0.8)
        head.closeSubpath()
        painter.setPen(QPen(QColor(20, 20, 20, 200), 1.5))
        painter.setBrush(colour)
        painter.drawPath(head)
        if p.landing is not None:  # about here: a dashed disc where it lands, and a trail
            painter.setPen(QPen(colour, max(1.5, r * 0.14), Qt.PenStyle.DotLine))
            painter.drawLine(tip, p.landing)
            painter.setPen(QPen(QColor(20, 20, 20, 200), max(2.0, r * 0.18),
                                Qt.PenStyle.DashLine))
            painter.setBrush(QColor(255, 255, 255, 60))
            painter.drawEllipse(p.landing, r, r)
            painter.setPen(QPen(colour, max(1.5, r * 0.12), Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(p.landing, r * 0.92, r * 0.92)
        # The pressed point.
        painter.setPen(QPen(QColor("#111111"), 2.0))
        painter.setBrush(QColor("#FFFFFF"))
        dot = max(3.5, r * 0.28)
        painter.drawEllipse(p.press, dot, dot)
        self._paint_bar(painter)

    def _paint_bar(self, painter: QPainter) -> None:
        p = self.picture
        assert p is not None
        bar = self.bar_rect()
        painter.setPen(QPen(QColor("#111111"), 1.5))
        painter.setBrush(QColor(20, 20, 20, 170))
        painter.drawRoundedRect(bar, 4, 4)
        inner = bar.adjusted(3, 3, -3, -3)
        filled = QRectF(inner.left(), inner.bottom() - inner.height() * p.s, inner.width(),
                        inner.height() * p.s)
        fill = QColor.fromHsvF(max(0.0, 0.33 - 0.33 * p.s), 0.85, 0.95)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        painter.drawRoundedRect(filled, 2, 2)
        painter.setPen(look.INK_ON_FELT)
        fnt = look.font(look.default_px(), bold=True)
        painter.setFont(fnt)
        text = f"{round(p.s * 100)}%"
        painter.setPen(QColor("#111111"))
        painter.setBrush(QColor(255, 255, 255, 220))
        label = self.label_rect()
        painter.drawRoundedRect(label, 3, 3)
        painter.drawText(label, Qt.AlignmentFlag.AlignCenter, text)


@dataclass
class PlateInfo:
    """One side's plate: names, its frogs' look, score, free frogs, turn."""

    title: str
    names: list[tuple[QColor, str]]
    colour: str
    border: str
    letter: str
    score: int
    free: int
    turn: bool
    mine: bool
    note: str = ""
    words: str = ""
    """What the side's frogs look like: "green frogs", "blue border"."""
    mark: str | None = None
    """The owner's badge colour on a one-player side's frog icon."""


class PlateItem(QGraphicsObject):
    """A side's plate in the side column."""

    def __init__(self, info: PlateInfo, rect: QRectF, text_px: float) -> None:
        super().__init__()
        self.info, self.rect, self.text_px = info, rect, text_px

    def describe(self) -> str:
        i = self.info
        return ngettext("{side}: {score} point, {free} free", "{side}: {score} points, "
                        "{free} free", i.score).format(side=i.title, score=i.score,
                                                       free=i.free)

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-3, -3, 3, 3)

    @staticmethod
    def height_for(info: PlateInfo, width: float, px: float) -> float:
        """A plate's height: three text heights, more where its second line needs two."""
        plate = PlateItem(info, QRectF(0, 0, width, px * 3.0), px)
        _left, room = plate._columns()
        fitted = textfit.fit(plate._second_line(), room, px * 0.9, 1)
        if fitted.fits:
            return px * 3.0
        two = textfit.fit(plate._second_line(), room, px * 0.9, 2)
        title_h = QFontMetrics(look.font(px, bold=True)).height()
        return px * 3.0 * 0.12 + title_h * 1.05 + two.height() + px * 0.45

    def _columns(self) -> tuple[float, float]:
        """Where the words start, and their width left of the score."""
        rect, px = self.rect, self.text_px
        icon_r = min(rect.height() * 0.3, px * 1.2)
        x = rect.left() + 10 + 2 * icon_r + 10
        score_font = look.font(px * 1.6, bold=True)
        score_w = QFontMetrics(score_font).horizontalAdvance(f"{self.info.score}") + 6
        return x, rect.right() - x - 8 - score_w

    def _second_line(self) -> str:
        i = self.info
        parts = [i.note] if i.note else []
        if i.words:
            parts.append(i.words)
        if i.free >= 0:
            parts.append(_("{n} free").format(n=i.free))
        return ", ".join(parts)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        i, rect, px = self.info, self.rect, self.text_px
        painter.setPen(QPen(look.LIT, 3.0) if i.turn else QPen(QColor(0, 0, 0, 0), 1.0))
        painter.setBrush(look.PANEL if not i.mine else QColor("#22382F"))
        painter.drawRoundedRect(rect, 8, 8)
        icon_r = min(rect.height() * 0.3, px * 1.2)
        icon = QPointF(rect.left() + 10 + icon_r, rect.top() + rect.height() / 2)
        paint_frog(painter, icon, icon_r, i.colour, i.border, i.letter, shadow=False,
                   mark=i.mark)
        x = icon.x() + icon_r + 10
        fnt = look.font(px, bold=True)
        small = look.font(px * 0.9)
        metrics = QFontMetrics(fnt)
        painter.setFont(fnt)
        painter.setPen(look.LIT if i.turn else look.INK_ON_FELT)
        room = rect.right() - x - 8
        score = f"{i.score}"
        score_font = look.font(px * 1.6, bold=True)
        score_w = QFontMetrics(score_font).horizontalAdvance(score) + 6
        fitted = textfit.fit(i.title, room - score_w, px, bold=True)
        top = rect.top() + rect.height() * 0.12
        painter.setFont(fitted.font)
        painter.drawText(QRectF(x, top, room - score_w, metrics.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         fitted.lines[0])
        painter.setFont(score_font)
        painter.setPen(look.INK_ON_FELT)
        painter.drawText(QRectF(rect.right() - score_w - 8, rect.top(), score_w,
                                rect.height() * 0.62),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, score)
        painter.setFont(small)
        painter.setPen(look.MUTED_ON_FELT)
        line = self._second_line()
        below = QRectF(x, top + metrics.height() * 1.05, room - score_w,
                       rect.bottom() - top - metrics.height() * 1.05 - 2)
        fitted = textfit.fit(line, below.width(), px * 0.9, 1)
        if not fitted.fits:  # two smaller lines where the plate is narrow
            fitted = textfit.fit(line, below.width(), px * 0.9, 2, height=below.height())
        textfit.draw(painter, fitted, below,
                     Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        painter.drawText(QRectF(rect.right() - score_w - 8, rect.top() + rect.height() * 0.55,
                                score_w, rect.height() * 0.4),
                         # translators: short for "points", under a side's score
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, _("pts"))


@dataclass
class LegendRow:
    colour: str
    border: str
    text: str


class LegendItem(QGraphicsObject):
    """Which frogs can do what: a small frog of the right look before each ability."""

    def __init__(self, title: str, rows: list[LegendRow], rect: QRectF, text_px: float) -> None:
        super().__init__()
        self.title, self.rows, self.rect, self.text_px = title, rows, rect, text_px

    def boundingRect(self) -> QRectF:
        return self.rect

    def texts(self) -> list[str]:
        return [row.text for row in self.rows]

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect, px = self.rect, self.text_px
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 60))
        painter.drawRoundedRect(rect, 8, 8)
        head = look.font(px * 0.95, bold=True)
        body = look.font(px * 0.9)
        painter.setFont(head)
        painter.setPen(look.INK_ON_FELT)
        line_h = QFontMetrics(body).height() * 1.35
        painter.drawText(QRectF(rect.left() + 10, rect.top() + 6, rect.width() - 20, line_h),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.title)
        y = rect.top() + 6 + line_h
        icon_r = line_h * 0.36
        for row, fitted in zip(self.rows, self.fitted(rect.width(), px), strict=True):
            tall = max(line_h, fitted.height())
            centre = QPointF(rect.left() + 12 + icon_r, y + line_h / 2)
            paint_frog(painter, centre, icon_r, row.colour or "none", row.border or "none",
                       shadow=False)
            x = centre.x() + icon_r + 8
            painter.setPen(look.INK_ON_FELT)
            textfit.draw(painter, fitted, QRectF(x, y, rect.right() - x - 6, tall),
                         Qt.AlignmentFlag.AlignLeft)
            y += tall

    def fitted(self, width: float, px: float) -> list[textfit.Fitted]:
        """Each ability in one line, or two where the column is narrow."""
        line_h = QFontMetrics(look.font(px * 0.9)).height() * 1.35
        room = width - 12 - line_h * 0.72 - 8 - 6
        return [textfit.fit(row.text, room, px * 0.9, 2) for row in self.rows]

    @staticmethod
    def height_for(rows: list[LegendRow], width: float, px: float) -> float:
        """The legend's height at ``width``: its title and every row, wrapped."""
        line_h = QFontMetrics(look.font(px * 0.9)).height() * 1.35
        legend = LegendItem("", rows, QRectF(), px)
        body = sum(max(line_h, f.height()) for f in legend.fitted(width, px))
        return 12 + line_h + body


class StackChip(QGraphicsObject):
    """Beside the top frog of a stack: a dot for each frog beneath it, top to bottom,
    because from above a stack hides the frogs it steps on."""

    def __init__(self, below: list[tuple[str, str]], radius: float) -> None:
        super().__init__()
        self.below, self.radius = below, radius
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(450)

    def _dot(self) -> float:
        return max(4.5, self.radius * 0.42)

    def _label(self) -> str:
        extra = len(self.below) - CHIP_DOTS
        return f"+{extra}" if extra > 0 else ""

    def _box(self) -> QRectF:
        d = self._dot()
        dots = min(CHIP_DOTS, len(self.below))
        label = self._label()
        text_w = QFontMetrics(look.font(d * 2)).horizontalAdvance(label) + d if label else 0
        return QRectF(0, 0, dots * d * 2.3 + d * 0.6 + text_w, d * 2.6)

    def boundingRect(self) -> QRectF:
        return self._box().adjusted(-3, -3, 3, 3)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        d = self._dot()
        box = self._box()
        painter.setPen(QPen(QColor("#111111"), 1.0))
        painter.setBrush(QColor(20, 20, 20, 200))
        painter.drawRoundedRect(box, d * 1.3, d * 1.3)
        for i, (colour, border) in enumerate(self.below[:CHIP_DOTS]):
            centre = QPointF(d * 1.45 + i * d * 2.3, d * 1.3)
            paint_frog(painter, centre, d, colour, border, shadow=False)
        label = self._label()
        if label:
            painter.setFont(look.font(d * 2))
            painter.setPen(look.INK_ON_FELT)
            x = d * 0.6 + CHIP_DOTS * d * 2.3
            painter.drawText(QRectF(x, 0, box.right() - x, box.height()),
                             Qt.AlignmentFlag.AlignCenter, label)
