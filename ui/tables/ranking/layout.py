"""Where everything sits on the Ranking table, for one window size and one row.

Pure geometry, recomputed on every view and resize so the table never
scrolls: the players down the left, the question card on top of the tower,
the roof (track space 7), the floors 6..0 as shelves, my hand at the bottom.
A floor with tiles on it gets the room a tile and its name need; an empty
floor stays a thin shelf, so the pictures are as large as the window allows.
Tiles sit on a floor left-aligned in slot order ("pushed back against the
tower", as the rulebook says), so a tile only moves when its floor changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PyQt6.QtCore import QRectF

from lanplay.games.ranking.rules import track
from ui.tables import look

FLOORS = 7
TRACK_COLUMN = 3.8
"""The score track's usual width beside the tower, in text heights."""
GAP = 0.14
"""Space between two tiles on a shelf, as a share of a tile."""
TWO_LINES = 1.95
"""A name's room under its tile in two lines, as a share of one line's."""
THREE_LINES = 2.9
"""... and in three (a hand's long names on a small window: "Carrito de compras")."""
HAND_LABEL = 2.9
"""The width of the "Your hand" column, in text heights."""


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    text_px: float
    margin: float
    plates: list[QRectF]
    question: QRectF
    roof: QRectF
    shelves: dict[int, QRectF]
    """Floor -> its band (the whole width of the tower, track column included)."""
    track_w: float
    label_w: float
    tile: float
    name_h: float
    hand_band: QRectF
    hand: list[QRectF] = field(default_factory=list)
    hand_tile: float = 0.0
    hand_step: float = 0.0
    action: QRectF = field(default_factory=QRectF)
    """Right end of the hand band: the Pass button and what I placed."""
    side: dict[int, bool] = field(default_factory=dict)
    """Floors with few tiles show each name beside its picture (saves height)."""
    side_w: float = 0.0
    tall: frozenset[int] = frozenset()
    """Floors whose names need two lines under their tiles."""
    hand_name_h: float = 0.0
    caption: QRectF = field(default_factory=QRectF)
    """The line over the floors kept for the row's caption (empty: none kept)."""
    taller: frozenset[int] = frozenset()
    """Floors whose names need three lines (five tiles on a floor of a small window
    under X: "Stöckelschuh", "Filmprojektor")."""
    marked: frozenset[int] = frozenset()
    """Floors whose pictures are too small to carry their marks (guess stones, the
    "yours" tag, the owner's disc): those get a line between picture and name."""
    marks_h: float = 0.0
    band_lead: dict[int, float] = field(default_factory=dict)
    """Floor -> the width its scoring stones take in the floor itself, right of its
    number, where too many stand together for the track (five at the round's start
    made the track 137 px wide for every floor); that floor's tiles start after them."""

    def marks_below(self, floor: int) -> float:
        """The height of the marks' line under a tile on ``floor`` (0: on the picture)."""
        if self.side.get(floor) or floor not in self.marked:
            return 0.0
        return self.marks_h

    def name_below(self, floor: int) -> float:
        """The height under a tile on ``floor`` for its name (none when beside)."""
        if self.side.get(floor):
            return 0.0
        return self.name_h * _lines(floor, self.tall, self.taller) + self.marks_below(floor)

    def tiles_left(self, floor: int | None = None) -> float:
        lead = self.band_lead.get(floor, 0.0) if floor is not None else 0.0
        return self.shelves[0].left() + self.track_w + self.label_w + lead

    def step(self, count: int, floor: int | None = None) -> float:
        """Distance between tiles on a floor holding ``count``: wider when few, so
        their names fit in full."""
        area = self.shelves[0].right() - self.tiles_left(floor) - self.margin * 0.5
        if floor is not None and self.side.get(floor):  # the floor shared out evenly
            return area / max(1, count)
        tight = self.tile * (1 + GAP)
        roomy = self.tile + self.text_px * 5.0
        return max(tight, min(roomy, area / max(1, count)))

    def name_room(self, count: int, floor: int) -> float:
        """Under a tile: its name's width; beside it: the room right of the picture for
        the owner's mark, the name and the stones (up to the next tile)."""
        if self.side.get(floor):
            return self.step(count, floor) - self.tile - self.text_px * 1.2
        return self.step(count, floor) - self.text_px * 0.3

    def tile_rect(self, floor: int, index: int, count: int = 7) -> QRectF:
        """The ``index``-th tile (from the tower) on ``floor``: the picture's square."""
        band = self.shelves[floor]
        step = self.step(count, floor)
        below = self.name_below(floor)
        lead = self.text_px * 0.6 if self.side.get(floor) else (step - self.tile) / 2
        x = self.tiles_left(floor) + lead + index * step
        y = band.bottom() - self.tile - below - self.margin * 0.35 - self.text_px * 0.2
        return QRectF(x, y, self.tile, self.tile + below)


def compute(width: float, height: float, text_px: float, players: int,
            floor_counts: list[int], hand_count: int, big_hand: bool,
            tall: frozenset[int] = frozenset(), tall_hand: bool | int = False,
            action_room: bool = True, track_need: float = 0.0,
            caption_h: float = 0.0, taller: frozenset[int] = frozenset(),
            marked: frozenset[int] = frozenset(),
            band_need: dict[int, float] | None = None) -> Layout:
    """The table for ``players`` seats and a row with ``floor_counts`` tiles per floor.

    ``big_hand``: the hand is what matters now (placing), so it gets more room;
    otherwise it is a small reminder strip and the tower takes the height.
    ``tall`` floors (and the hand, with ``tall_hand``) hold names too long for one
    line under their tiles: they get two (the table measures, then asks again); a
    ``tall_hand`` of 3 gives the hand's names three, as ``taller`` does to its floors.
    Without ``action_room`` (nothing to show right of the hand) the hand has the band.
    ``track_need``: the score track's least width (its stones' marks, ``track_room``).
    ``caption_h``: a line kept over the floors for a caption about the row (the
    finished round's) that has no room beside the tiles.
    ``marked`` floors (names under small pictures) get a line for the tiles' marks
    between picture and name. ``band_need``: floor -> the width of the scoring stones
    that stand in that floor, right of its number (``Layout.band_lead``).
    """
    w, h, t = float(width), float(height), float(text_px)
    m = max(8.0, 0.014 * min(w, h))
    panel_w = min(max(t * 14.5, w * 0.21), t * 19)
    # Five plates on a 1024x640 screen under X (its larger default type) ran 30 px past
    # the window's foot: they give up some of their height and gaps, down to what their
    # three lines need.
    gap = m * 0.7
    room = h - 2 * m - gap * max(0, players - 1)
    plate_h = min(t * 4.9, max(t * 4.5, room / max(1, players)))
    if players > 1 and plate_h * players + gap * (players - 1) > h - 2 * m:
        gap = max(2.0, (h - 2 * m - plate_h * players) / (players - 1))
    plates = [QRectF(m, m + i * (plate_h + gap), panel_w, plate_h) for i in range(players)]

    x0 = m + panel_w + m * 1.5
    x1 = w - m
    track_w = max(t * TRACK_COLUMN, track_need)
    label_w = t * 2.8
    roof = QRectF(x0, m, track_w + label_w, max(t * 3.4, look.default_px() * 4.6))
    question = QRectF(roof.right() + t * 0.6, m, x1 - roof.right() - t * 0.6, roof.height())

    name_h = t * 1.35
    marks_h = max(look.default_px() * 1.55, t * 1.1)
    lines = 2 if tall_hand is True else int(tall_hand)
    hand_name_h = name_h * {2: TWO_LINES, 3: THREE_LINES}.get(lines, 1.0)
    band_h = max(t * 6.5, h * 0.17) if big_hand else t * 5.6
    band = QRectF(x0, h - m - band_h, x1 - x0, band_h)

    area_w = x1 - x0 - track_w - label_w - m * 0.5
    leads = {f: w_ for f, w_ in (band_need or {}).items() if 0 <= f < FLOORS and w_ > 0}
    widest = max(4, *floor_counts)
    tile_w = min([area_w / (widest * (1 + GAP))]
                 + [(area_w - leads[f]) / (max(4, c) * (1 + GAP))
                    for f, c in enumerate(floor_counts) if f in leads])
    top = roof.bottom() + m * 0.6 + caption_h
    floors_h = band.top() - m * 0.8 - top
    empty_h = t * 2.0
    pad = m * 0.35 + t * 0.4
    occupied = sum(1 for c in floor_counts if c > 0)
    side_w = t * 6.5
    cap = min(tile_w, t * 9.0)
    tile = cap

    def beside(count: int, size: float, floor: int) -> bool:
        return count * (size + side_w + t * 2.0) <= area_w - leads.get(floor, 0.0)

    side: dict[int, bool] = {}
    if occupied:
        for _ in range(4):
            side = {f: beside(c, tile, f) for f, c in enumerate(floor_counts) if c > 0}
            extra = sum(pad + (0.0 if side[f] else name_h * _lines(f, tall, taller)
                               + (marks_h if f in marked else 0.0))
                        for f in side)
            free = floors_h - (FLOORS - occupied) * empty_h - extra
            tile = max(t * 2.2, min(cap, free / occupied))
        side = {f: beside(c, tile, f) for f, c in enumerate(floor_counts) if c > 0}
    below = [0.0 if side.get(f) else name_h * _lines(f, tall, taller)
             + (marks_h if f in marked else 0.0) for f in range(FLOORS)]
    over = sum(tile + pad + below[f] if c > 0 else empty_h
               for f, c in enumerate(floor_counts)) - floors_h
    if occupied and over > 0:
        # A small window: thinner empty floors first, then smaller pictures, but the
        # tower never runs into the hand below it.
        least = max(t * 1.3, look.default_px() * 1.75)  # a scoring stone's letter fits
        thinner = min(over, (FLOORS - occupied) * max(0.0, empty_h - least))
        empty_h -= thinner / max(1, FLOORS - occupied)
        tile = max(t * 1.5, tile - (over - thinner) / occupied)
    heights = [tile + pad + below[f] if c > 0 else empty_h
               for f, c in enumerate(floor_counts)]
    if not occupied:
        heights = [floors_h / FLOORS] * FLOORS
    spare = max(0.0, floors_h - sum(heights))
    heights = [hh + spare / FLOORS for hh in heights]
    shelves: dict[int, QRectF] = {}
    y = top
    for floor in range(FLOORS - 1, -1, -1):
        shelves[floor] = QRectF(x0, y, x1 - x0, heights[floor])
        y += heights[floor]

    action_w = min(t * 11, band.width() * 0.27) if action_room else 0.0
    action = QRectF(band.right() - action_w, band.top(), action_w, band_h)
    # "Your hand" stands in its own column left of the tiles, never over the tower.
    hand_area = QRectF(band.left() + HAND_LABEL * t, band.top(),
                       band.width() - action_w - (HAND_LABEL + 0.5) * t, band_h)
    slots = max(1, hand_count)
    hand_tile = min(band_h - hand_name_h - m * 0.8,
                    hand_area.width() / (slots + (slots - 1) * GAP), t * 8)
    # As on a floor: wider apart when there is room, so the names fit.
    hand_step = max(hand_tile * (1 + GAP), min(hand_tile + t * 5.0, hand_area.width() / slots))
    total = hand_tile + max(0, hand_count - 1) * hand_step
    hx = hand_area.left() + max(0.0, (hand_area.width() - total) / 2)
    hy = band.top() + (band_h - hand_tile - hand_name_h) / 2
    hand = [QRectF(hx + i * hand_step, hy, hand_tile, hand_tile + hand_name_h)
            for i in range(hand_count)]
    caption = QRectF()
    if caption_h:
        left = x0 + track_w + label_w + t * 0.6
        caption = QRectF(left, roof.bottom() + m * 0.3, x1 - left - t * 0.5, caption_h)
    return Layout(w, h, t, m, plates, question, roof, shelves, track_w, label_w, tile, name_h,
                  band, hand, hand_tile, hand_step, action, side, side_w, tall, hand_name_h,
                  caption, taller, frozenset(marked), marks_h, leads)


def _lines(floor: int, tall: frozenset[int], taller: frozenset[int]) -> float:
    """A floor's name room under its tiles, in lines' heights."""
    return THREE_LINES if floor in taller else TWO_LINES if floor in tall else 1.0


def track_position(score: int) -> tuple[int | None, bool]:
    """Where a scoring stone stands on the tower (0..7) and whether it points up.

    The rules' ``track``: 0..6 go up, the roof (7) turns the stone to point
    down, 8..14 come back down (8 is floor 6 again), 15 or more has left the
    tower (None).
    """
    place, way = track(max(0, score))
    return (None if way == "out" else place), way == "up"
