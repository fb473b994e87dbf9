"""What a tier-list board shows, as plain data, and where each part of it lies.

``BoardModel`` is which tile lies in which cell, which tiles may move and which
cells take a drop: a table builds one from its view. ``Placer`` lays a model
out on a board of a given size (``Geometry``): rows S..D with their lanes, the
pool below, each tile with its name beside its picture where a row has room,
else under it. No widget and no painting: ``ui.tables.s_tier.board`` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PyQt6.QtCore import QRectF
from PyQt6.QtGui import QFontMetricsF

from ui.tables import look, textfit

Cell = tuple[int, int]
"""(lane, tier)."""


@dataclass
class Tile:
    """One picture as the board shows it."""

    id: str
    name: str
    movable: bool = False
    fixed: bool = False
    """Pinned in place (the revealed hint): a pin, never movable."""
    flip: bool = False
    """Shows a flip badge; a click on it asks for the card's other face."""
    mark: str = ""
    """"right", "wrong" or "pending" (a ring and a sign, never colour alone)."""
    discs: tuple[tuple[str, str], ...] = ()
    """(colour, letter) of the seats tied to this picture (who holds or placed it)."""
    dim: bool = False
    caption: str = ""
    """A second line under the name ("Ben's", "extra")."""
    picture: str = ""
    """The picture to draw when it is not ``id`` (one picture twice on a board: the
    note's and the group's, side by side at a reveal)."""


@dataclass
class BoardModel:
    lanes: tuple[str, ...] = ("",)
    cells: dict[Cell, list[Tile]] = field(default_factory=dict)
    pool: list[Tile] = field(default_factory=list)
    pool_title: str = ""
    show_pool: bool = True
    targets: frozenset[Cell] = frozenset()
    pool_target: bool = False
    hint_tier: int | None = None
    """The tier marked as the one the leader reveals (a star by its letter)."""
    caption: str = ""
    """One line over the rows, e.g. what an old result on the board is."""
    highlight: str | None = None
    """A picture to pull the eye to (the one the leader must judge)."""
    pool_slots: tuple[Tile, ...] = ()
    """When set, the pool keeps one place per picture here (all the round's, in this
    order, sized as if all lay there), and a picture that leaves it leaves a gap:
    nothing the player may click next moves while they place the others."""

    def tiles(self) -> list[Tile]:
        out = [t for cell in sorted(self.cells) for t in self.cells[cell]]
        return out + list(self.pool)

    def movable(self) -> list[Tile]:
        return [t for t in self.tiles() if t.movable]


@dataclass
class Geometry:
    labels: list[QRectF]
    cells: dict[Cell, QRectF]
    lane_heads: list[QRectF]
    caption: QRectF
    pool: QRectF
    pool_title: QRectF
    tiles: dict[str, QRectF]
    tile_w: float
    under: dict[str, float] = field(default_factory=dict)
    """Tiles whose name lies under the picture: the height left for it. The others
    (in a tier row, with room) have it beside the picture."""
    bare: frozenset[str] = frozenset()
    """Tiles whose caption has no room under them (their disc says whose)."""


WIDE = 1.3
"""A tile is wider than its picture, so most names fit under it."""
NAME = 0.92
"""A tile's name, as a share of the board's text size."""
CAPTION = 0.85


def tile_h(pic: float, px: float) -> float:
    return pic + px * 1.5


def name_fit(tile: Tile, width: float, px: float, lines: int,
              height: float | None = None) -> textfit.Fitted:
    """A picture's name in bold, else plain (narrower), before a word is broken."""
    for bold in (True, False):
        fitted = textfit.fit(tile.name, width, px * NAME, lines, bold=bold, height=height,
                             hyphenate=False)
        if fitted.fits:
            return fitted
    return textfit.fit(tile.name, width, px * NAME, lines, height=height)


class Placer:
    """Lays out one board (a fresh one per layout: it keeps where names go)."""

    def __init__(self) -> None:
        self._under: dict[str, float] = {}
        self._bare: set[str] = set()

    def compute(self, m: BoardModel, width: float, height: float, px: float) -> Geometry:
        """Where every label, cell and tile lies on a board ``width`` x ``height``."""
        w, h = float(max(width, 200)), float(max(height, 200))
        pad = px * 0.5
        head = px * 1.8 if len(m.lanes) > 1 else 0.0
        cap = px * 1.7 if m.caption else 0.0
        pool_title = px * 1.6 if m.show_pool else 0.0
        gap = max(3.0, px * 0.25)
        # Rows take what is left after the pool's tile row: the row's tile is
        # 86% of the row height, and the pool's tile matches it.
        fixed = head + cap + pool_title + 4 * gap + (pad * 2 if m.show_pool else 0)
        share = 0.9 if m.show_pool else 0.0
        row_h = (h - fixed - (px * 1.5 if m.show_pool else 0) * 1.0) / (5 + share)
        if m.show_pool:
            # The pool holds a picture worth seeing, two lines of name and a caption.
            captions = any(t.caption for t in (m.pool or list(m.pool_slots)))
            need = px * (2.6 + 3.0 + (1.3 if captions else 0.0)) + pad
            if share * row_h + px * 1.5 < need:
                row_h = (h - fixed - need) / 5
        row_h = max(px * 3.0, row_h)
        label_w = min(row_h * 1.05, w * 0.12)
        top = cap
        lanes = len(m.lanes)
        lane_w = (w - label_w - gap * lanes) / lanes
        labels, cells, heads = [], {}, []
        for lane in range(lanes):
            x = label_w + gap + lane * (lane_w + gap)
            heads.append(QRectF(x, top, lane_w, head))
        for tier in range(5):
            y = top + head + tier * (row_h + gap)
            labels.append(QRectF(0, y, label_w, row_h))
            for lane in range(lanes):
                x = label_w + gap + lane * (lane_w + gap)
                cells[(lane, tier)] = QRectF(x, y, lane_w, row_h)
        board_bottom = top + head + 5 * row_h + 4 * gap
        pool_title_r = QRectF(0, board_bottom + pad, w, pool_title)
        pool_r = QRectF(0, pool_title_r.bottom(), w, max(0.0, h - pool_title_r.bottom()))
        if not m.show_pool:
            pool_r = QRectF(0, h, w, 0)
        tile_max = (row_h - 2 * gap - px * 1.5)
        tiles: dict[str, QRectF] = {}
        self._under, self._bare = {}, set()
        for cell, rect in cells.items():
            self._row_of(m.cells.get(cell, []), rect.adjusted(gap, gap, -gap, -gap),
                         row_h - 2 * gap, px, tiles, align_left=True)
        if m.show_pool:  # pictures as large as a row's (their names lie under them)
            self._row_of(m.pool, pool_r.adjusted(pad, 0, -pad, -pad), row_h - 2 * gap, px,
                         tiles, align_left=False, slots=m.pool_slots)
        return Geometry(labels, cells, heads, QRectF(0, 0, w, cap), pool_r, pool_title_r,
                        tiles, tile_max, dict(self._under), frozenset(self._bare))

    def _row_of(self, row: list[Tile], area: QRectF, side: float, px: float,
                out: dict[str, QRectF], align_left: bool,
                slots: tuple[Tile, ...] = ()) -> None:
        """Tiles side by side in ``area``; smaller when there are too many to fit.

        In a tier row (wide, not tall) a name stands beside its picture, with the
        caption under it, while the row has room; in the pool (and a full row) it lies
        under the picture in up to two lines. With ``slots`` the pool keeps a place
        for each picture named there, empty once it has left.
        """
        if not row or area.height() <= 0:
            return
        if align_left and self._row_beside(row, area, side, px, out):
            return
        gap = px * 0.5
        present = {t.id for t in row}
        places = list(slots) if slots else row
        if slots and not present <= {t.id for t in places}:
            places = row  # a picture the slots do not know: plain order
        caption = any(t.caption for t in places)
        cap_h = px * 1.3 if caption else 0.0
        top_side = max(px * 2, min(side, area.height() - px * 2.7 - cap_h))
        even = (area.width() - gap * (len(places) - 1)) / max(1, len(places)) / px - 0.45

        def total(widths: list[float]) -> float:
            return sum(widths) + gap * (len(widths) - 1)

        for names in (7.0, max(0.0, even), 0.0):  # names as wide as they need, or a share
            side = top_side
            for _attempt in range(12):
                widths = [self._under_w(t, side, px, names) for t in places]
                if total(widths) <= area.width() or side <= px * 1.5:
                    break
                side = max(px * 1.5, side * 0.9)
            if total(widths) <= area.width():
                if 0.0 < names < 7.0:
                    # An even share each: the long names ("Auto de carreras") may have
                    # what the short ones leave of it.
                    low, high = names, 7.0
                    for _attempt in range(10):
                        mid = (low + high) / 2
                        fits = total([self._under_w(t, side, px, mid) for t in places]) \
                            <= area.width()
                        low, high = (mid, high) if fits else (low, mid)
                    widths = [self._under_w(t, side, px, low) for t in places]
                break
            if places is not row and names == 0.0:
                places = row  # too many to keep every place: the ones still here
                widths = [self._under_w(t, side, px, 0.0) for t in places]
        # A name of three words on a narrow tile ("Auto de carreras") takes a third
        # line; the pictures of the row give up the height it needs.
        name_h = max((name_fit(t, w - px * 0.2, px, 3).height() for t, w
                      in zip(places, widths, strict=True)), default=px * 1.2)
        name_h = min(name_h, px * 3.9) + px * 0.3
        if cap_h and px * 1.5 + name_h + cap_h > area.height():
            # Two lines of name leave no height for "Ada's" under them, even over the
            # least picture (S-tier team's pool of six players at 1000x592, drawn past
            # the board's foot): the tiles' discs say whose.
            cap_h = 0.0
            self._bare.update(t.id for t in places)
        if side + name_h + cap_h > area.height():
            side = max(px * 1.5, area.height() - name_h - cap_h)
        x = area.left() + (0 if align_left else max(0.0, (area.width() - total(widths)) / 2))
        y = area.top() + max(0.0, (area.height() - side - name_h - cap_h) / 2)
        for t, w in zip(places, widths, strict=True):
            if t.id in present:
                out[t.id] = QRectF(x, y, w, side + name_h)
                self._under[t.id] = name_h
            x += w + gap

    def _under_w(self, tile: Tile, side: float, px: float, names: float = 7.0) -> float:
        """A tile's width with its name under the picture: the picture's, or as wide
        as the name needs up to ``names`` text heights (it wraps to two lines)."""
        one = QFontMetricsF(look.font(px * NAME, bold=True)).horizontalAdvance(tile.name)
        cap = QFontMetricsF(look.font(px * CAPTION)).horizontalAdvance(tile.caption) \
            if tile.caption else 0.0
        widest = max(min(one, px * names), min(cap, px * names)) + px * 0.4
        return max(side * WIDE, widest)

    def _row_beside(self, row: list[Tile], area: QRectF, side: float, px: float,
                    out: dict[str, QRectF]) -> bool:
        """A tier row's tiles with each name (and caption) beside its picture, if the
        row is wide enough at a picture size worth showing; False otherwise."""
        gap = px * 0.6
        side = min(side, area.height())
        while side >= px * 2.4:
            widths = [side + self._beside_w(t, side, px) for t in row]
            if sum(widths) + gap * (len(row) - 1) <= area.width():
                x = area.left()
                y = area.top() + (area.height() - side) / 2
                for t, w in zip(row, widths, strict=True):
                    out[t.id] = QRectF(x, y, w, side)
                    x += w + gap
                return True
            side *= 0.9
        return False

    def _beside_w(self, tile: Tile, side: float, px: float) -> float:
        """The width a name (in up to two lines) and caption take right of a picture."""
        lines = 2 if side >= px * (2.9 if not tile.caption else 4.0) else 1
        room = px * 11.0  # "Auto de carreras" on one line beside its picture
        name = name_fit(tile, room, px, lines)
        width = name.width() if name.fits else room
        if tile.caption:
            cap = QFontMetricsF(look.font(px * CAPTION)).horizontalAdvance(tile.caption)
            width = max(width, min(cap, room))
        return width + px * 0.8
