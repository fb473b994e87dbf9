"""A tier-list board: five rows S..D, picture tiles in them and in a pool below.

Reusable by any table that ranks pictures into tiers. It paints a
``BoardModel`` (plain data: which tile lies in which cell, which tiles may
move, which cells take a drop) and turns the mouse into ``moved(picture,
target)``: a drag, or a click on a tile and then a click on a cell (or the
pool). It holds no rules: a table decides what a move means. Rows may be
split into lanes (team mode's Green and Red sides). Tiles glide to their new
places when a model arrives with ``animate=True``.
"""

from __future__ import annotations

from PyQt6.QtCore import QEasingCurve, QPointF, QRectF, Qt, QVariantAnimation, pyqtSignal
from PyQt6.QtGui import (
    QColor,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PyQt6.QtWidgets import QSizePolicy, QWidget

from ui.look import pictures
from ui.tables import look, textfit
from ui.tables.pieces import key_box, key_size, paint_key
from ui.tables.s_tier.board_model import (
    CAPTION,
    WIDE,
    BoardModel,
    Cell,
    Geometry,
    Placer,
    Tile,
    name_fit,
    tile_h,
)
from ui.words.i18n import _

TIERS = ("S", "A", "B", "C", "D")
TIER_COLOURS = ("#FF7F7F", "#FFBF7F", "#FFDF7F", "#FFFF7F", "#BFFF7F")
"""The classic tier-list colours, top to bottom."""
RIGHT = QColor("#009E73")
WRONG = QColor("#D55E00")
LANE_TINTS = {"Green": QColor(0, 158, 115, 120), "Red": QColor(213, 94, 0, 140)}
ROW_BODY = QColor(10, 22, 17, 150)
MOVE_MS = 260
DRAG_START = 6.0

class TierBoard(QWidget):
    """The board widget; ``moved`` carries (picture id, (lane, tier) or None for the pool)."""

    moved = pyqtSignal(str, object)
    flipped = pyqtSignal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = BoardModel()
        self.geo: Geometry | None = None
        self._captions_for: Geometry | None = None  # what _discs_on_captions answered for
        self._captions_px = 0.0
        self._captions_hold = False
        self.selected: str | None = None
        self.hover_cell: Cell | None = None
        self.hover_pool = False
        self._press: QPointF | None = None
        self._press_tile: str | None = None
        self._drag: str | None = None
        self._drag_at = QPointF()
        self._drag_offset = QPointF()
        self._from: dict[str, QRectF] = {}
        self._progress = 1.0
        self._anim = QVariantAnimation(self)
        self._anim.setDuration(MOVE_MS)
        self._anim.setEasingCurve(QEasingCurve.Type.OutCubic)
        self._anim.setStartValue(0.0)
        self._anim.setEndValue(1.0)
        self._anim.valueChanged.connect(self._step)
        self.key_caps: dict[str, str] = {}
        """Picture id -> the key that takes it ("1"), drawn on the tile (``ui.tables.keys``)."""
        self.pool_key = ""
        """The key that puts the chosen picture back under the tiers, shown by the pool."""
        self.setMouseTracking(True)
        self.setMinimumSize(420, 300)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    # --- data in ------------------------------------------------------------

    def set_model(self, model: BoardModel, animate: bool = False) -> None:
        """Show ``model``; tiles that changed place glide there unless ``animate`` is off."""
        before = dict(self.geo.tiles) if self.geo is not None else {}
        if self._drag is not None and self._drag in before:
            before[self._drag] = self._drag_rect()
        self._anim.stop()
        self.model = model
        self._drag = None
        self._press = None
        ids = {t.id for t in model.movable()}
        if self.selected not in ids:
            self.selected = None
        self.geo = self._compute()
        self._from = {}
        if animate:
            self._from = {pid: rect for pid, rect in before.items()
                          if pid in self.geo.tiles and rect != self.geo.tiles[pid]}
        if self._from:
            self._progress = 0.0
            self._anim.start()
        else:
            self._progress = 1.0
        self.update()

    def finish(self) -> None:
        """Jump any glide to its end (a new view arrived, or a test wants the final picture)."""
        self._anim.stop()
        self._progress = 1.0
        self._from = {}
        self.update()

    @property
    def animating(self) -> bool:
        return self._progress < 1.0

    def _step(self, value: object) -> None:
        self._progress = float(value) if isinstance(value, float) else 1.0
        self.update()

    # --- geometry -------------------------------------------------------------

    def text_px(self) -> float:
        return max(float(look.default_px()), min(self.width(), self.height()) * 0.022)

    def _compute(self) -> Geometry:
        return Placer().compute(self.model, self.width(), self.height(), self.text_px())

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        self.geo = self._compute()
        self.finish()

    # --- hit tests --------------------------------------------------------------

    def tile_rect(self, picture: str) -> QRectF | None:
        return self.geo.tiles.get(picture) if self.geo else None

    def cell_rect(self, lane: int, tier: int) -> QRectF | None:
        return self.geo.cells.get((lane, tier)) if self.geo else None

    def pool_rect(self) -> QRectF:
        return self.geo.pool if self.geo else QRectF()

    def _tile_at(self, at: QPointF) -> Tile | None:
        if self.geo is None:
            return None
        for tile in reversed(self.model.tiles()):
            rect = self.geo.tiles.get(tile.id)
            if rect is not None and rect.contains(at):
                return tile
        return None

    def _cell_at(self, at: QPointF) -> Cell | None:
        if self.geo is None:
            return None
        for cell, rect in self.geo.cells.items():
            if rect.contains(at):
                return cell
        for tier, rect in enumerate(self.geo.labels):
            if rect.contains(at) and len(self.model.lanes) == 1:
                return (0, tier)
        return None

    def _in_pool(self, at: QPointF) -> bool:
        return (self.geo is not None and self.model.show_pool
                and (self.geo.pool.contains(at) or self.geo.pool_title.contains(at)))

    def _flip_badge(self, rect: QRectF) -> QRectF:
        r = max(12.0, rect.height() * 0.24)
        return QRectF(rect.right() - r * 1.05, rect.top() + r * 0.05, r, r)

    def _active(self) -> str | None:
        """The picture a click on a cell moves: the selected one, or the only movable one."""
        if self.selected is not None:
            return self.selected
        movable = self.model.movable()
        return movable[0].id if len(movable) == 1 else None

    # --- mouse ------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent | None) -> None:
        if event is None or event.button() != Qt.MouseButton.LeftButton:
            return
        at = event.position()
        tile = self._tile_at(at)
        if (tile is not None and tile.flip and self.geo is not None
                and self._flip_badge(self.geo.tiles[tile.id]).contains(at)):
            self.flipped.emit(tile.id)
            return
        if tile is not None and tile.movable and self.geo is not None:
            self._press, self._press_tile = at, tile.id
            self._drag_offset = at - self.geo.tiles[tile.id].topLeft()
            return
        self._press, self._press_tile = None, None
        self._click_place(at)

    def mouseMoveEvent(self, event: QMouseEvent | None) -> None:
        if event is None:
            return
        at = event.position()
        if (self._press is not None and self._press_tile is not None and self._drag is None
                and (at - self._press).manhattanLength() > DRAG_START):
            self._drag = self._press_tile
            self.selected = None
        if self._drag is not None:
            self._drag_at = at
            cell = self._cell_at(at)
            self.hover_cell = cell if cell in self.model.targets else None
            self.hover_pool = self.model.pool_target and self._in_pool(at)
            self.update()
            return
        tile = self._tile_at(at)
        movable = tile is not None and (tile.movable or tile.flip)
        self.setCursor(Qt.CursorShape.PointingHandCursor if movable
                       else Qt.CursorShape.ArrowCursor)
        if tile is not None:
            self.setToolTip(tile.name + (f" ({tile.caption})" if tile.caption else ""))
        else:
            self.setToolTip("")

    def mouseReleaseEvent(self, event: QMouseEvent | None) -> None:
        if event is None or event.button() != Qt.MouseButton.LeftButton:
            return
        at = event.position()
        dragged, pressed = self._drag, self._press_tile
        self._drag, self._press, self._press_tile = None, None, None
        self.hover_cell, self.hover_pool = None, False
        if dragged is not None:
            cell = self._cell_at(at)
            rect = self._drag_rect_at(at)
            if cell in self.model.targets:
                self._emit_from(dragged, cell, rect)
            elif self.model.pool_target and self._in_pool(at):
                self._emit_from(dragged, None, rect)
            else:
                # An illegal drop glides back to where the tile lies.
                self._from = {dragged: rect}
                self._progress = 0.0
                self._anim.start()
            self.update()
            return
        if pressed is not None:
            if self.selected == pressed:
                self.selected = None
            elif self.selected is not None and self._cell_at(at) in self.model.targets:
                self._click_place(at)
                return
            else:
                self.selected = pressed
            self.update()

    def _click_place(self, at: QPointF) -> None:
        active = self._active()
        if active is None:
            return
        cell = self._cell_at(at)
        if cell is not None and cell in self.model.targets:
            self.selected = None
            self._emit_from(active, cell, None)
        elif self.model.pool_target and self._in_pool(at):
            self.selected = None
            self._emit_from(active, None, None)
        self.update()

    def _emit_from(self, picture: str, target: Cell | None, rect: QRectF | None) -> None:
        if rect is not None and self.geo is not None:
            # The next model glides the tile from where it was dropped.
            self.geo.tiles[picture] = rect
        self.moved.emit(picture, target)

    def _drag_rect_at(self, at: QPointF) -> QRectF:
        home = self.geo.tiles.get(self._press_tile or "", QRectF()) if self.geo else QRectF()
        if self.geo is not None and home.isNull():
            home = QRectF(0, 0, self.geo.tile_w * WIDE, tile_h(self.geo.tile_w, self.text_px()))
        return QRectF(at - self._drag_offset, home.size())

    def _drag_rect(self) -> QRectF:
        return self._drag_rect_at(self._drag_at)

    # --- painting -----------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent | None) -> None:
        if self.geo is None:
            self.geo = self._compute()
        geo, m = self.geo, self.model
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        px = self.text_px()
        if m.caption:
            painter.setFont(look.font(px * 1.05, bold=True))
            painter.setPen(look.MUTED_ON_FELT)
            fitted = textfit.fit(m.caption, geo.caption.width(), px * 1.05, 1, bold=True,
                                 height=geo.caption.height() + 2)
            textfit.draw(painter, fitted, geo.caption, Qt.AlignmentFlag.AlignLeft)
        for lane, rect in enumerate(geo.lane_heads):
            name = m.lanes[lane]
            if rect.height() <= 0:  # one lane: no heads
                continue
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(LANE_TINTS.get(name, QColor(255, 255, 255, 30)))
            painter.drawRoundedRect(rect.adjusted(0, 2, 0, -2), 6, 6)
            painter.setPen(look.INK_ON_FELT)
            painter.setFont(look.font(px * 1.1, bold=True))
            side = {"Green": _("Green side"), "Red": _("Red side")}.get(name) or name
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, side)
        for tier, rect in enumerate(geo.labels):
            self._paint_label(painter, tier, rect, px)
        for (lane, _tier), rect in geo.cells.items():
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(ROW_BODY)
            painter.drawRect(rect)
            tint = LANE_TINTS.get(m.lanes[lane]) if len(m.lanes) > 1 else None
            if tint is not None:
                painter.setBrush(QColor(tint.red(), tint.green(), tint.blue(), 22))
                painter.drawRect(rect)
        self._paint_targets(painter)
        if m.show_pool:
            painter.setFont(look.font(px * 1.05, bold=True))
            painter.setPen(look.MUTED_ON_FELT)
            painter.drawText(geo.pool_title, Qt.AlignmentFlag.AlignHCenter
                             | Qt.AlignmentFlag.AlignVCenter, m.pool_title)
            if self.pool_key:
                paint_key(painter, geo.pool_title.topRight(), self.pool_key)
            if self.hover_pool:
                painter.setPen(QPen(look.LIT, 3, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(geo.pool.adjusted(2, 2, -2, -2), 8, 8)
        dragged = self._drag
        for tile in m.tiles():
            if tile.id == dragged:
                continue
            spot = geo.tiles.get(tile.id)
            if spot is None:
                continue
            self._paint_tile(painter, tile, self._glide(tile.id, spot), px)
        if dragged is not None:
            held = next((t for t in m.tiles() if t.id == dragged), None)
            if held is not None:
                painter.setOpacity(0.92)
                self._paint_tile(painter, held, self._drag_rect(), px, lifted=True)
                painter.setOpacity(1.0)
        painter.end()

    def _glide(self, picture: str, rect: QRectF) -> QRectF:
        start = self._from.get(picture)
        if start is None or self._progress >= 1.0:
            return rect
        p = self._progress
        return QRectF(start.x() + (rect.x() - start.x()) * p,
                      start.y() + (rect.y() - start.y()) * p,
                      start.width() + (rect.width() - start.width()) * p,
                      start.height() + (rect.height() - start.height()) * p)

    def _paint_label(self, painter: QPainter, tier: int, rect: QRectF, px: float) -> None:
        colour = QColor(TIER_COLOURS[tier])
        painter.setPen(QPen(QColor("#101010"), 1.5))
        painter.setBrush(colour)
        painter.drawRect(rect)
        painter.setPen(QColor("#111111"))
        painter.setFont(look.font(min(rect.height(), rect.width()) * 0.5, bold=True))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, TIERS[tier])
        if self.model.hint_tier == tier:
            star = QRectF(rect.left() + 2, rect.top() + 2, rect.width() * 0.32,
                          rect.height() * 0.32)  # in the corner, clear of the letter
            painter.setFont(look.font(star.height() * 0.8, bold=True))
            painter.setPen(QColor("#0B3D91"))
            painter.drawText(star, Qt.AlignmentFlag.AlignCenter, "\u2605")

    def _paint_targets(self, painter: QPainter) -> None:
        """Legal drop cells light up while a tile is held (dragged or selected)."""
        assert self.geo is not None
        holding = self._drag is not None or self.selected is not None
        if not holding:
            return
        for cell in self.model.targets:
            rect = self.geo.cells.get(cell)
            if rect is None:
                continue
            hot = cell == self.hover_cell
            painter.setBrush(QColor(255, 216, 102, 60 if hot else 22))
            painter.setPen(QPen(look.LIT, 3 if hot else 1.5, Qt.PenStyle.DashLine))
            painter.drawRect(rect.adjusted(1.5, 1.5, -1.5, -1.5))

    def _paint_tile(self, painter: QPainter, tile: Tile, rect: QRectF, px: float,
                    lifted: bool = False) -> None:
        under = self.geo.under.get(tile.id) if self.geo is not None else None
        side = rect.height() - under if under is not None else rect.height()
        radius = side * 0.1
        lit = tile.id == self.selected or lifted or tile.id == self.model.highlight
        if tile.movable or lit:
            width = max(2.5, side * 0.05) if lit else max(1.5, side * 0.025)
            painter.setPen(QPen(look.LIT, width))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            grow = width / 2 + 1
            painter.drawRoundedRect(rect.adjusted(-grow, -grow, grow, grow), radius + grow,
                                    radius + grow)
        painter.setPen(QPen(look.CARD_EDGE, 1.0))
        painter.setBrush(look.CARD_FACE)
        painter.drawRoundedRect(rect, radius, radius)
        shown = self.picture_box(tile.id, rect)
        pic = int(shown.width())
        painter.drawPixmap(shown.toRect(), pictures.tile(tile.picture or tile.id, max(16, pic),
                                                         tile.name))
        painter.setPen(look.CARD_INK)
        if under is not None:
            self._paint_name_under(painter, tile, rect, side, under, px)
        else:
            self._paint_name_beside(painter, tile, rect, side, px)
        if tile.dim:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(20, 30, 26, 130))
            painter.drawRoundedRect(rect, radius, radius)
        self._paint_marks(painter, tile, rect, px, side)
        key = self.key_caps.get(tile.id, "")
        if key and tile.movable:
            paint_key(painter, *self._key_corner(tile.id, rect, key))

    def picture_box(self, tile_id: str, rect: QRectF) -> QRectF:
        """Where a tile at ``rect`` shows its picture: centred over its name, or at its
        left with the name beside it."""
        under = self.geo.under.get(tile_id) if self.geo is not None else None
        side = rect.height() - under if under is not None else rect.height()
        inset = side * 0.06
        pic = int(side - 2 * inset)
        left = rect.left() + ((rect.width() - pic) / 2 if under is not None else inset)
        return QRectF(left, rect.top() + inset, pic, pic)

    def _key_corner(self, tile_id: str, rect: QRectF, key: str) -> tuple[QPointF, str, bool]:
        """``paint_key``'s corner, key and ``above`` for a tile's key cap: on the picture's
        lower right, clear of the name; a small picture over its name (a pool of two-line
        Spanish names at 1000x592) was hidden under its cap and its owner's disc, so there
        the cap goes to the tile's top right, beside the picture where the tile is wider."""
        shown = self.picture_box(tile_id, rect)
        under = self.geo is not None and tile_id in self.geo.under
        if not under or shown.width() >= 3 * key_size(key)[1]:
            return QPointF(shown.right() + 2, shown.bottom() + 2), key, True
        return QPointF(rect.right() - 1, rect.top() - 2), key, False

    def key_rect(self, tile_id: str) -> QRectF | None:
        """Where the tile's key cap is drawn (None: it has none)."""
        rect = self.geo.tiles.get(tile_id) if self.geo is not None else None
        key = self.key_caps.get(tile_id, "")
        return key_box(*self._key_corner(tile_id, rect, key)) if rect and key else None

    def _paint_name_under(self, painter: QPainter, tile: Tile, rect: QRectF, side: float,
                          under: float, px: float) -> None:
        """The name under the picture (two lines if it must), the caption under the tile."""
        box = QRectF(rect.left() + 2, rect.top() + side - side * 0.03, rect.width() - 4,
                     under)
        textfit.draw(painter, name_fit(tile, box.width(), px, 3, box.height()), box,
                     Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        if tile.caption and (self.geo is None or tile.id not in self.geo.bare):
            painter.setPen(look.LIT)
            cap = self._caption_box(rect, side, px)
            disc = self.caption_disc(tile, rect, px)
            if disc is not None:  # the disc, then the name it stands for, centred
                hex_colour, letter = tile.discs[0]
                look.draw_disc(painter, disc.center(), disc.width() / 2, QColor(hex_colour),
                               letter)
                painter.setPen(look.LIT)
                cap = QRectF(disc.right() + 3, cap.top(), cap.right() - disc.right() - 3,
                             cap.height())
                fitted = textfit.fit(tile.caption, cap.width(), px * CAPTION)
                textfit.draw(painter, fitted, cap, Qt.AlignmentFlag.AlignLeft)
                return
            fitted = textfit.fit(tile.caption, cap.width(), px * CAPTION)
            if fitted.fits:  # "de Omar" under a narrow tile: its disc says whose, uncut
                textfit.draw(painter, fitted, cap)

    @staticmethod
    def _caption_box(rect: QRectF, side: float, px: float) -> QRectF:
        """The line under a tile whose name lies under its picture."""
        return QRectF(rect.left() - side * 0.1, rect.bottom() + 1, rect.width() + side * 0.2,
                      px * 1.3)

    def caption_disc(self, tile: Tile, rect: QRectF, px: float) -> QRectF | None:
        """Where a tile's one disc stands on its caption line, left of the name it stands
        for ("A Ada"), or None: it stays on the tile. In a pool of small pictures (ten
        at an S-tier team round's start in a 1024x640 window) disc and key cap hid half
        of each picture, while the caption under it already said whose."""
        geo = self.geo
        if geo is None or not self._discs_on_captions(geo, px):
            return None
        return self._disc_beside_caption(tile, rect, px)

    def _disc_beside_caption(self, tile: Tile, rect: QRectF, px: float) -> QRectF | None:
        """Where the disc stands left of the caption, if this tile can have it so."""
        geo = self.geo
        if len(tile.discs) != 1 or not tile.caption or geo is None \
                or tile.id not in geo.under or tile.id in geo.bare:
            return None
        side = rect.height() - geo.under[tile.id]
        cap = self._caption_box(rect, side, px)
        d = min(cap.height() - 2, px * 1.1)
        text = QFontMetricsF(look.font(px * CAPTION)).horizontalAdvance(tile.caption)
        width = d + 3 + text
        if width > cap.width():
            return None
        left = cap.left() + (cap.width() - width) / 2
        return QRectF(left, cap.top() + (cap.height() - d) / 2, d, d)

    def _discs_on_captions(self, geo: Geometry, px: float) -> bool:
        """Whether every tile with a disc and a caption under it has room for the disc
        there: all of them, or none (a row half one way, half the other, reads as two
        kinds of tile; Spanish "de Ada" under a narrow tile has no room)."""
        if self._captions_for is not geo or self._captions_px != px:
            self._captions_for, self._captions_px = geo, px
            ids = [t for t in self.model.tiles() if t.id in geo.under and t.id not in geo.bare
                   and len(t.discs) == 1 and t.caption]
            self._captions_hold = all(
                self._disc_beside_caption(t, geo.tiles[t.id], px) is not None
                for t in ids if t.id in geo.tiles)
        return self._captions_hold

    def _paint_name_beside(self, painter: QPainter, tile: Tile, rect: QRectF, side: float,
                           px: float) -> None:
        """Right of the picture: the name (two lines if it must) over the caption."""
        box = QRectF(rect.left() + side + px * 0.2, rect.top() + 2,
                     rect.width() - side - px * 0.5, rect.height() - 4)
        cap = textfit.fit(tile.caption, box.width(), px * CAPTION) if tile.caption else None
        if cap is not None and not cap.fits:
            cap = None  # the tile's disc says whose: no cut caption
        room = box.height() - (cap.height() if cap is not None else 0.0)
        name = name_fit(tile, box.width(), px, 2, room)
        top = box.top() + (box.height() - name.height()
                           - (cap.height() if cap is not None else 0.0)) / 2
        textfit.draw(painter, name, QRectF(box.left(), top, box.width(), name.height()),
                     Qt.AlignmentFlag.AlignLeft)
        if cap is not None:
            painter.setPen(QColor("#5A4A1A"))
            textfit.draw(painter, cap, QRectF(box.left(), top + name.height(), box.width(),
                                              cap.height()), Qt.AlignmentFlag.AlignLeft)

    def _paint_marks(self, painter: QPainter, tile: Tile, rect: QRectF, px: float,
                     side: float) -> None:
        if tile.fixed:
            self._badge(painter, QRectF(rect.left() - 4, rect.top() - 4, side * 0.3,
                                        side * 0.3), QColor("#0B3D91"), "\u2605")
        if tile.flip:
            self._badge(painter, self._flip_badge(rect), QColor("#0072B2"), "\u21bb")
        if tile.mark in ("right", "wrong", "pending"):
            colour = {"right": RIGHT, "wrong": WRONG, "pending": look.LIT}[tile.mark]
            painter.setPen(QPen(colour, max(3.0, side * 0.06)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-1, -1, 1, 1), side * 0.1, side * 0.1)
            sign = {"right": "\u2713", "wrong": "\u2717", "pending": "?"}[tile.mark]
            r = max(px * 1.3, side * 0.28)
            self._badge(painter, QRectF(rect.right() - r * 0.7, rect.top() - r * 0.3, r, r),
                        colour, sign)
        if self.caption_disc(tile, rect, px) is not None:
            return  # it stands on the caption line
        r = max(px * 1.2, side * 0.24)
        for i, (hex_colour, letter) in enumerate(tile.discs[:4]):
            centre = QPointF(rect.left() + r * 0.35 + i * r * 0.8, rect.top() + r * 0.35)
            look.draw_disc(painter, centre, r / 2, QColor(hex_colour), letter)

    @staticmethod
    def _badge(painter: QPainter, rect: QRectF, colour: QColor, text: str) -> None:
        painter.setPen(QPen(QColor("#FFFFFF"), 1.5))
        painter.setBrush(colour)
        painter.drawEllipse(rect)
        painter.setPen(look.ink_for(colour))
        painter.setFont(look.font(rect.height() * 0.7, bold=True))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


__all__ = ["TIERS", "TIER_COLOURS", "BoardModel", "TierBoard", "Tile"]
