"""The drawn pieces of the Ranking table: the picture tiles and the marks on them (the
tower's shelves, roof and question are in ``tower_items``, the players' plates in
``plates``).

Each item paints one thing from plain data (picture ids and names, seat
colours and initials) and knows nothing of the rules. Pictures come only
from ``ui.look.pictures``. Items are QGraphicsObjects so the table can animate
their position and opacity.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen
from PyQt6.QtWidgets import (
    QGraphicsObject,
    QGraphicsSceneHoverEvent,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ui.look import pictures
from ui.tables import look, textfit
from ui.tables.pieces import key_size, paint_key
from ui.tables.ranking.layout import TRACK_COLUMN
from ui.words.i18n import _

SHELF = QColor("#8A6D2F")
SHELF_DARK = QColor("#5E4A20")
TOWER = QColor(0, 0, 0, 55)
SIDE_COLOURS = {"red": QColor("#D55E00"), "blue": QColor("#0072B2")}


@dataclass(frozen=True)
class SideRow:
    """Where the parts of a tile whose name stands beside its picture go (x from the
    tile's left)."""

    lead_x: float
    """The owner's disc or the tag."""
    name_x: float
    fitted: textfit.Fitted
    stones_x: float
    steps: list[float]
    """The width of each guess stone in the row."""
    end: float


@dataclass(frozen=True)
class Mark:
    """A seat's colour with its initial: a guess stone, a scoring stone, an owner."""

    colour: QColor
    letter: str
    ring: QColor | None = None
    """A guess stone: the guesser is the disc (a person is one colour and badge), the
    seat it bets on (the stone's colour in the rulebook) the ring around it."""


def draw_mark(painter: QPainter, centre: QPointF, r: float, mark: Mark,
              ghost: bool = False) -> None:
    if ghost:
        painter.setPen(QPen(mark.colour, max(2.0, r * 0.25), Qt.PenStyle.DashLine))
        painter.setBrush(QColor(0, 0, 0, 90))
        painter.drawEllipse(centre, r, r)
        painter.setPen(look.INK_ON_FELT)
        painter.setFont(look.font(r * 1.1, bold=True))
        painter.drawText(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r),
                         Qt.AlignmentFlag.AlignCenter, "?")
        return
    if mark.ring is not None:
        painter.setPen(QPen(QColor("#101010"), 1.0))
        painter.setBrush(mark.ring)
        half = look.disc_half_width(r, mark.letter)
        painter.drawRoundedRect(QRectF(centre.x() - half - r * 0.22, centre.y() - r * 1.22,
                                       2 * half + r * 0.44, r * 2.44), r * 1.22, r * 1.22)
    look.draw_disc(painter, centre, r * (0.86 if mark.ring is not None else 1.0),
                   mark.colour, mark.letter)


def stone_marks(slot: dict[str, Any], mark: Callable[[int], Mark]) -> list[Mark]:
    """A tile's guess stones, each showing who put it down (its badge) and whose tile
    it bets on (the ring): a stone once showed only the seat it guessed."""
    by = [b for b in slot.get("by") or [] if isinstance(b, int)]
    out = []
    for i, seat in enumerate(s for s in slot.get("stones") or [] if isinstance(s, int)):
        guessed = mark(seat)
        if i < len(by):
            who = mark(by[i])
            out.append(Mark(who.colour, who.letter, guessed.colour))
        else:
            out.append(guessed)
    return out


def stone_step(r: float, letters: Sequence[str]) -> tuple[float, float]:
    """(half the width of the widest of these marks, the least step between the
    centres of marks in a row that may overlap): discs overlap as they always did;
    pills (a badge of two or three characters, where initials collide) only so far
    that the next one leaves their letters clear."""
    half = max((look.disc_half_width(r, x) for x in letters), default=r)
    if half <= r:
        return r, 1.25 * r
    return half, max(look.disc_text_width(r, x) for x in letters) + r * 0.4


def track_room(letters: Sequence[str], t: float) -> float:
    """The least width of the score track beside the tower where these scoring stones
    (those on one floor) lie in one row with their marks readable; 0 when the usual
    column does (single initials, up to four of them: five, at every five-player game's
    start, reached past the track into the players' plates)."""
    r = t * 0.62
    half, least = stone_step(r, letters)
    need = 2 * half + 4 + least * max(0, len(letters) - 1)
    if half <= r and need <= t * TRACK_COLUMN:
        return 0.0
    return need


def arrow(painter: QPainter, centre: QPointF, size: float, up: bool, fill: QColor) -> None:
    s = size
    path = QPainterPath()
    if up:
        path.moveTo(centre.x(), centre.y() - s)
        path.lineTo(centre.x() + s * 0.8, centre.y() + s * 0.5)
        path.lineTo(centre.x() - s * 0.8, centre.y() + s * 0.5)
    else:
        path.moveTo(centre.x(), centre.y() + s)
        path.lineTo(centre.x() + s * 0.8, centre.y() - s * 0.5)
        path.lineTo(centre.x() - s * 0.8, centre.y() - s * 0.5)
    path.closeSubpath()
    painter.setPen(QPen(QColor("#101010"), 1.0))
    painter.setBrush(fill)
    painter.drawPath(path)


class TileItem(QGraphicsObject):
    """A picture tile with its name below, and what lies on it.

    On it: guess stones (discs in seat colours with initials), a "yours" tag
    on my own tile, my pending guess as a dashed disc, an arrow for the last
    comparison, and after scoring the owner's disc with the points it earned.
    """

    def __init__(self, picture: str, name: str, size: float, text_px: float,
                 name_h: float, key: object = None, name_room: float = 0.0,
                 name_side: bool = False, marks_h: float = 0.0,
                 beside_room: float = 0.0) -> None:
        super().__init__()
        self.beside_room = 0.0 if name_side else beside_room
        """The free width right of a small picture (up to the next one's key cap): its
        marks stand there, centred on it, when they fit."""
        self._untagged = False
        """Beside the picture there is room for the stones but not the "yours" tag as
        well: mine is then said by the bold gold name and the gold frame."""
        self.name_side = name_side
        self.marks_h = 0.0 if name_side else marks_h
        """A line under a small picture for what lies on a big one: the owner's disc,
        the "yours"/"supply" tag, the guess stones (they covered 25 px pictures)."""
        self.picture, self.name = picture, name
        self.size, self.text_px, self.name_h = size, text_px, name_h
        self.name_room = max(name_room, size * 1.12)
        self.ident = key  # which tile this is across redraws (its animation follows it)
        self.slot: int | None = None
        self.floor: int | None = None
        self.stones: list[Mark] = []
        self.pending: Mark | None = None
        self.owner: Mark | None = None
        self.gain: int | None = None
        self.mine = False
        self.supply = False
        """Revealed as no one's: it came from the supply."""
        self.moved: str | None = None
        """"up" or "down" after the last comparison."""
        self.lit = False
        self.selected = False
        self.quiet = False
        self.hover_lift = False
        self.hovered = False
        self.on_click: Callable[[TileItem], None] | None = None
        self.key = ""  # the key that takes it ("1"), shown on it while it is lit
        self._row_cache: tuple[object, SideRow] | None = None
        self.name_column: tuple[float, float] | None = None
        """Where the name under the picture stands, (left from the tile's x, width),
        when its row gave it a column other than ``name_room`` centred under the
        picture (``name_columns.spread``)."""
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip(name)

    def make_clickable(self, on_click: Callable[[TileItem], None]) -> None:
        self.on_click = on_click
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def boundingRect(self) -> QRectF:
        pad = max(max(6.0, self.size * 0.12) + 3, key_size("9")[1] * 0.5 + 2)  # ring, cap
        if self.name_side:
            right = max(self.size + self.name_room, self._side_row().end)
            return QRectF(-pad, -pad * 1.6, right + 2 * pad, self.size + 2.6 * pad)
        side = max(pad, (self.name_room - self.size) / 2 + 2)
        right = max(side, self.beside_room + 2) if self.beside_room else side
        right = max(right, self._tag_width() - self.size * 0.96 + 2)  # a tag on its top
        rect = QRectF(-side, -pad * 1.6, self.size + side + right,
                      self.size + self.name_h + 2.6 * pad)
        if self.name_column is not None:
            left, width = self.name_column
            rect = rect.united(QRectF(left - 2, rect.top(), width + 4, rect.height()))
        return rect

    def set_name_column(self, left: float, width: float) -> None:
        """The name under the picture in its own column (see ``name_column``)."""
        self.prepareGeometryChange()
        self.name_column = (left, width)
        self.update()

    def picture_rect(self) -> QRectF:
        return QRectF(0, 0, self.size, self.size)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        rect = self.picture_rect()
        radius = self.size * 0.12
        if self.lit or self.selected:
            glow = max(3.0, self.size * (0.05 if self.selected else 0.04))
            colour = QColor("#FFFFFF") if self.selected else look.LIT
            painter.setPen(QPen(colour, glow))
            painter.setBrush(Qt.BrushStyle.NoBrush if not self.selected
                             else QColor(255, 216, 102, 90))
            grow = glow * 0.6
            painter.drawRoundedRect(rect.adjusted(-grow, -grow, grow, grow),
                                    radius + grow, radius + grow)
        px = max(16, round(self.size))
        painter.drawPixmap(rect, pictures.tile(self.picture, px, self.name),
                           QRectF(0, 0, px, px))
        if self.mine:
            painter.setPen(QPen(look.LIT, max(2.0, self.size * 0.035)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect, radius, radius)
        if self.quiet:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(20, 30, 26, 120))
            painter.drawRoundedRect(rect, radius, radius)
        self._paint_name(painter)
        if self.marks_h or self.marks_beside():
            self._paint_marks_line(painter)
        else:
            self._paint_stones(painter)
            tag = self._tag()
            spills = not self.name_side and self._tag_width() > self.size * 1.1
            if tag is not None and not (spills and self.mine):
                # "yours" wider than a small tile lay over the next tile's key: it gives
                # way, my tile told by its bold gold name and frame
                self._paint_tag(painter, *tag)
        if self.moved in ("up", "down"):
            s = max(look.default_px() * 0.7, self.size * 0.13)
            arrow(painter, QPointF(self.size - s * 0.9, s * 1.1), s, self.moved == "up",
                   look.LIT)
        if self.owner is not None and not (self.marks_h or self.marks_beside()):
            self._paint_owner(painter)
        if self.key and self.lit:  # my hand's tile: top right; a tower's (small): left edge
            at = QPointF(0, self.size * 0.5) if self.slot is not None else QPointF(self.size, 0)
            paint_key(painter, at, self.key, straddle=self.slot is not None)

    def marks_beside(self) -> bool:
        """The marks stand right of the picture (there is room, and no line under it)."""
        if self.marks_h or not self.beside_room:
            return False
        if not (self.stone_groups() or self._tag() or self.owner is not None):
            return False
        for untagged in (False, True):
            if untagged and not (self.mine and self.owner is None and self.stone_groups()):
                return False
            self._untagged = untagged
            _zero, stones_x, steps = self._marks_parts()
            if stones_x + sum(steps) + self.text_px * 0.3 <= self.beside_room:
                return True
        self._untagged = False
        return False

    def _marks_parts(self) -> tuple[float, float, list[float]]:
        """(0, where the stones start, their widths): the marks' row from its left end."""
        r = self.stone_radius()
        groups = self.stone_groups()
        lead = self._owner_width() if self.owner is not None else self._tag_width()
        gap = self.text_px * 0.25 if lead and groups else 0.0
        steps = self._stone_steps(groups, r, False)
        if lead + gap + sum(steps) > max(self.name_room, self.beside_room):
            steps = self._stone_steps(groups, r, True)
        return 0.0, lead + gap, steps

    def marks_y(self) -> float:
        """The middle of the marks' row: in its line under the picture, or beside it."""
        return self.size + self.marks_h / 2 + 1 if self.marks_h else self.size / 2

    def marks_row(self) -> tuple[float, float, list[float]]:
        """The marks' line under a small picture (x from the tile's left): where the
        owner's mark or the tag starts, where the stones start, each stone's width. The
        row is centred under the picture and closes up (letters still clear) to stay
        within the name's room."""
        _zero, stones_at, steps = self._marks_parts()
        if not self.marks_h:  # beside the picture
            left = self.size + self.text_px * 0.3
            return left, left + stones_at, steps
        left = (self.size - stones_at - sum(steps)) / 2
        return left, left + stones_at, steps

    def _paint_marks_line(self, painter: QPainter) -> None:
        left, stones_x, steps = self.marks_row()
        y = self.marks_y()
        if self.owner is not None:
            self._paint_owner(painter, QPointF(left, y))
        else:
            tag = self._tag()
            if tag is not None:
                self._paint_tag(painter, *tag, at=QPointF(left, y))
        r = self.stone_radius()
        x = stones_x
        for (mark, count, ghost), step in zip(self.stone_groups(), steps, strict=True):
            half = look.disc_half_width(r, mark.letter)
            ring = r * 0.22 if mark.ring is not None else 0.0
            self._paint_stone(painter, QPointF(x + half + ring, y), r, mark, count, ghost)
            x += step

    def _tag(self) -> tuple[str, bool] | None:
        """The word tagged on the tile (and whether it is the quiet grey one)."""
        if self._untagged:
            return None
        if self.mine and self.owner is None:
            return _("yours"), False
        if self.supply:
            # translators: a tile of the supply (nobody's), tagged on the tower
            return _("supply"), True
        return None

    def _name_px(self) -> float:
        return max(look.default_px(), self.text_px * 0.92)

    def _side_row(self) -> SideRow:
        """A name beside its picture: one row right of it, nothing over the picture or
        over another: the owner's disc with its points (or the "supply"/"yours" tag),
        the name, the guess stones. The name gets what the others leave of
        ``name_room``, in one line, else two where the picture is tall enough; the
        stones close up (their letters still clear) before a name is cut."""
        groups = self.stone_groups()
        key = (self.size, self.name_room, self.text_px, self.name, self.mine,
               self.owner, self.gain, self.supply, tuple(groups))
        cached = self._row_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        gap = self.text_px * 0.4
        x = self.size + gap
        lead = self._owner_width() if self.owner is not None else self._tag_width()
        name_x = x + lead + gap if lead else x
        end = self.size + self.name_room
        r = self.stone_radius()
        fitted = textfit.fit(self.name, 1.0, self._name_px())
        steps: list[float] = []
        for tight in (False, True):
            steps = self._stone_steps(groups, r, tight)
            stones = sum(steps) + (gap if steps else 0.0)
            room = max(1.0, end - name_x - stones)
            fitted = textfit.fit(self.name, room, self._name_px(), 1, bold=self.mine)
            if not fitted.fits:
                fitted = textfit.fit(self.name, room, self._name_px(), 2, bold=self.mine,
                                     height=self.size + self.text_px * 0.3)
            if fitted.fits:
                break
        else:  # a narrow table: the name whole at the least size, the stones close up
            fitted = textfit.fit(self.name, 10_000.0, look.default_px(), 1, bold=self.mine)
            room = end - (name_x + fitted.width() + gap)
            if steps and sum(steps) > room:
                each = max(r * 0.9, room / len(steps))
                steps = [min(step, each) for step in steps]
        stones_x = name_x + fitted.width() + gap
        row = SideRow(x, name_x, fitted, stones_x, steps,
                      stones_x + sum(steps) if steps else name_x + fitted.width())
        self._row_cache = (key, row)
        return row

    def _stone_steps(self, groups: list[tuple[Mark, int, bool]], r: float,
                     tight: bool) -> list[float]:
        """The width each stone takes in a row beside the name: its disc or pill, the
        ring round it, the count badge; ``tight`` lets them overlap as far as their
        letters stay clear."""
        steps = []
        for mark, count, _ghost in groups:
            half = look.disc_half_width(r, mark.letter)
            ring = r * 0.22 if mark.ring is not None else 0.0
            width = 2 * (half + ring) + r * 0.2
            if count > 1:
                width += self._count_width(r, mark, str(count)) - half
            if tight:
                width = min(width, max(look.disc_text_width(r, mark.letter) + r * 0.5,
                                       1.25 * r))
            steps.append(width)
        return steps

    def _count_width(self, r: float, mark: Mark, text: str) -> float:
        """How far right of a stone's centre its count badge ('2') ends."""
        fnt = look.font(look.default_px(), bold=True)
        right = max(r * 0.55, look.disc_text_width(r, mark.letter) / 2 + r * 0.1)
        return right + QFontMetrics(fnt).horizontalAdvance(text) + 4

    def _paint_name(self, painter: QPainter) -> None:
        room = self.name_room
        if self.name_side:
            painter.setPen(look.LIT if self.mine else look.INK_ON_FELT)
            row = self._side_row()
            box = QRectF(row.name_x, 0, row.fitted.width() + 1, self.size)
            textfit.draw(painter, row.fitted, box, Qt.AlignmentFlag.AlignLeft)
            return
        left, room = self.name_column or ((self.size - room) / 2, room)
        box = QRectF(left, self.size + self._name_drop(), room,
                     self.name_h - self._name_drop())
        fitted = self.fit_under(room)
        painter.setPen(look.LIT if self.mine else look.INK_ON_FELT)
        textfit.draw(painter, fitted, box,
                     Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)

    def _name_drop(self) -> float:
        """From the picture's foot down to the name: a gap (more round a lit picture's
        glow) and the marks' line, if any."""
        return (max(2.0, self.size * 0.065) if (self.lit or self.selected) else 1.0) \
            + self.marks_h

    def fit_under(self, width: float) -> textfit.Fitted:
        """The name under the picture in a column ``width`` wide: on one line a little
        smaller, else on the lines its height holds."""
        size = self._name_px()
        name_h = self.name_h - self.marks_h
        lines = 3 if name_h >= self.text_px * 3.4 else \
            2 if name_h >= self.text_px * 2.3 else 1
        fitted = textfit.fit(self.name, width, size, 1, bold=self.mine, min_px=size * 0.85)
        if not fitted.fits:
            fitted = textfit.fit(self.name, width, size, lines, bold=self.mine,
                                 height=self.name_h - self._name_drop())
        return fitted

    def stone_radius(self) -> float:
        return max(look.default_px() * 0.55, self.size * 0.12)

    def stone_groups(self) -> list[tuple[Mark, int, bool]]:
        """The stones on this tile, one disc per seat: (mark, how many, pending)."""
        groups: list[tuple[Mark, int, bool]] = []
        for mark in self.stones:
            if groups and groups[-1][0] == mark:
                groups[-1] = (mark, groups[-1][1] + 1, False)
            else:
                groups.append((mark, 1, False))
        if self.pending is not None:
            groups.append((self.pending, 1, True))
        return groups

    def ink_right(self) -> float:
        """The scene x where what this tile draws ends (its name and stones beside it)."""
        if not self.name_side:
            return self.sceneBoundingRect().right()
        return self.x() + self._side_row().end

    def _paint_stones(self, painter: QPainter) -> None:
        groups = self.stone_groups()
        if not groups:
            return
        r = self.stone_radius()
        if self.name_side:  # in a row after the name, none over another
            row = self._side_row()
            y, x = self.size / 2, row.stones_x
            for (mark, count, ghost), step in zip(groups, row.steps, strict=True):
                half = look.disc_half_width(r, mark.letter)
                ring = r * 0.22 if mark.ring is not None else 0.0
                self._paint_stone(painter, QPointF(x + half + ring, y), r, mark, count,
                                  ghost)
                x += step
            return
        half, least = stone_step(r, [mark.letter for mark, _, _ in groups])
        room = self.size - 2 * half
        step = 2 * half * 1.05
        per_row = len(groups)
        if len(groups) > 1:
            step = min(step, room / (len(groups) - 1))
            if half > r and step < least:  # pills would hide each other's letters: rows
                per_row = max(1, int(room // least) + 1)
                step = min(2 * half * 1.05, room / max(1, per_row - 1))
        y = self.size - r * 0.9
        for start in range(0, len(groups), per_row):
            x = self.size - half + r * 0.3
            for mark, count, ghost in reversed(groups[start:start + per_row]):
                self._paint_stone(painter, QPointF(x, y), r, mark, count, ghost)
                x -= step
            y -= r * 2.2

    def _paint_stone(self, painter: QPainter, centre: QPointF, r: float, mark: Mark,
                     count: int, ghost: bool) -> None:
        """A seat's stone; several of one seat as one stone with their number on it."""
        draw_mark(painter, centre, r, mark, ghost)
        if count > 1:
            fnt = look.font(look.default_px(), bold=True)
            text = str(count)
            w = QFontMetrics(fnt).horizontalAdvance(text) + 4
            h = QFontMetrics(fnt).height()
            # Right of the mark's letters (a pill's are wider than a disc's).
            right = max(r * 0.55, look.disc_text_width(r, mark.letter) / 2 + r * 0.1)
            box = QRectF(centre.x() + right, centre.y() - h * 0.95, w, h)
            painter.setPen(QPen(QColor("#101010"), 1.0))
            painter.setBrush(look.RANK_FACE)
            painter.drawRoundedRect(box, h * 0.3, h * 0.3)
            painter.setFont(fnt)
            painter.setPen(look.CARD_INK)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _tag_font(self) -> QFont:
        return look.font(max(look.default_px(), self.text_px * 0.8), bold=True)

    def _tag_width(self) -> float:
        tag = self._tag()
        if tag is None:
            return 0.0
        return QFontMetrics(self._tag_font()).horizontalAdvance(tag[0]) + self.text_px * 0.7

    def _paint_tag(self, painter: QPainter, text: str, quiet: bool = False,
                   at: QPointF | None = None) -> None:
        fnt = self._tag_font()
        metrics = QFontMetrics(fnt)
        w = metrics.horizontalAdvance(text) + self.text_px * 0.7
        h = metrics.height() * 1.05
        if at is not None:  # in the marks' line: ``at`` is its left end's middle
            box = QRectF(at.x(), at.y() - h / 2, w, h)
        elif self.name_side:  # right of the picture, before the name
            box = QRectF(self._side_row().lead_x, (self.size - h) / 2, w, h)
        else:  # on the tile's top edge, not over the floor above
            box = QRectF(-self.size * 0.04, -h * 0.15, w, h)
        painter.setPen(QPen(QColor("#101010"), 1.0))
        painter.setBrush(QColor("#6F7F78") if quiet else look.LIT)
        painter.drawRoundedRect(box, h * 0.4, h * 0.4)
        painter.setFont(fnt)
        painter.setPen(QColor("#FFFFFF") if quiet else look.CARD_INK)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _owner_radius(self) -> float:
        return max(look.default_px() * 0.75, self.size * 0.16)

    def _gain_font(self, r: float) -> QFont:
        return look.font(max(look.default_px() * 1.1, r * 1.25), bold=True)

    def _owner_width(self) -> float:
        """The owner's disc with its '+4' (0 with no owner shown)."""
        if self.owner is None:
            return 0.0
        r = self._owner_radius()
        half = look.disc_half_width(r, self.owner.letter)
        width = 2 * half
        if self.gain is not None:
            width += QFontMetrics(self._gain_font(r)).horizontalAdvance(
                f"+{self.gain}") + r * 0.6
        return width

    def _paint_owner(self, painter: QPainter, at: QPointF | None = None) -> None:
        """The owner's disc (on the picture's corner, beside a small one, or at ``at``,
        the left end of the marks' line) and, after scoring, '+4' beside it."""
        assert self.owner is not None
        r = self._owner_radius()
        half = look.disc_half_width(r, self.owner.letter)  # a pill where initials collide
        if at is not None:
            centre = QPointF(at.x() + half, at.y())
        elif self.name_side:  # right of the picture, before the name
            centre = QPointF(self._side_row().lead_x + half, self.size / 2)
        else:  # on the picture's top left corner
            centre = QPointF(half - r * 0.2, r * 0.5)
        text = f"+{self.gain}" if self.gain is not None else ""
        if text:
            fnt = self._gain_font(r)
            metrics = QFontMetrics(fnt)
            w = metrics.horizontalAdvance(text) + r * 0.6
            pill = QRectF(centre.x(), centre.y() - r * 0.85, half + w, r * 1.7)
            painter.setPen(QPen(QColor("#101010"), 1.0))
            painter.setBrush(QColor("#142920"))
            painter.drawRoundedRect(pill, r * 0.85, r * 0.85)
            painter.setFont(fnt)
            painter.setPen(look.LIT if self.gain else look.MUTED_ON_FELT)
            painter.drawText(pill.adjusted(half, 0, 0, 0), Qt.AlignmentFlag.AlignCenter, text)
        draw_mark(painter, centre, r, self.owner)

    # --- input -------------------------------------------------------------------

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent | None) -> None:
        self.hovered = True
        if self.hover_lift:
            self.setY(self.y() - self.size * 0.06)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent | None) -> None:
        if self.hovered and self.hover_lift:
            self.setY(self.y() + self.size * 0.06)
        self.hovered = False
        super().hoverLeaveEvent(event)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent | None) -> None:
        if event is not None and self.on_click is not None:
            event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent | None) -> None:
        if event is None or self.on_click is None:
            return
        if self.contains(event.pos()):
            self.on_click(self)
