"""Where everything sits on the Alles klar? table, for one window size.

Pure geometry, recomputed on every resize so the table scales with the
window and never scrolls: the others across the top in clockwise seat
order, the ranking cards I-V with the pile in the centre, my trick row above
my hand at the bottom. Card sizes come from the space, text from the
platform default upwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PyQt6.QtCore import QRectF

CARD_RATIO = 0.70
RANK_WIDER = 1.15
"""Ranking cards are this much wider than playing cards."""


@dataclass(frozen=True)
class Place:
    """One seat's spots: its name plate and the row of cards in front of it."""

    seat: int
    plate: QRectF
    row: QRectF


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    text_px: float
    card_w: float
    card_h: float
    hand_w: float
    hand_h: float
    bottom: int
    places: dict[int, Place]
    ranking: list[QRectF]
    pile: QRectF
    out: QRectF
    hand: list[QRectF] = field(default_factory=list)
    hand_band: QRectF = field(default_factory=QRectF)
    drop: QRectF = field(default_factory=QRectF)

    def row_slots(self, seat: int, count: int) -> list[QRectF]:
        """The spots of ``count`` cards in play order in front of ``seat``, fanned to fit."""
        return row_slots(self.places[seat].row, count, self.card_w, self.card_h)


MIN_STEP = 0.40
"""An overlapped card keeps this share of its width in view: its corner index."""


def row_slots(row: QRectF, count: int, card_w: float, card_h: float) -> list[QRectF]:
    """Side by side while they fit; then overlapped down to the corner index; then smaller."""
    if count <= 0:
        return []
    gap = card_w * 0.10
    step = card_w + gap
    if count > 1 and card_w + (count - 1) * step > row.width():
        small = row.width() / (1 + MIN_STEP * (count - 1))
        if small < card_w:
            scale = max(0.6, small / card_w)
            card_w, card_h = card_w * scale, card_h * scale
        step = max(card_w * 0.15, (row.width() - card_w) / (count - 1))
    total = card_w + (count - 1) * step
    x0 = row.center().x() - total / 2
    y = row.top() + (row.height() - card_h) / 2
    return [QRectF(x0 + i * step, y, card_w, card_h) for i in range(count)]


def compute(width: float, height: float, players: int, bottom: int, text_px: float,
            hand_count: int, rank_min: float = 0.0) -> Layout:
    """The table for ``players`` seats seen from ``bottom`` (my seat, or seat 0 when
    watching); ``rank_min`` is the least width a ranking card's shortest words need."""
    w, h, t = float(width), float(height), float(text_px)
    m = max(8.0, 0.015 * min(w, h))
    plate_h = t * 3.3
    caption = t * 2.9
    """Under the centre row: the piles' names, and the last play in up to two lines."""
    card_h = (h - plate_h - caption - 6.0 * m) / 4.22
    # The centre row (out pile, ranking cards I-V a little wider, so that "2nd
    # highest" reads in two lines, and the draw pile) is 9.15 card widths.
    card_h = min(card_h, (w - 2 * m) / (9.4 * CARD_RATIO), 240.0)
    card_h = max(card_h, 40.0)
    card_w = card_h * CARD_RATIO

    others = [(bottom + i) % players for i in range(1, players)]
    places: dict[int, Place] = {}
    top = m
    col_w = (w - 2 * m) / max(1, len(others))
    plate_w = min(col_w - m, max(t * 14, min(t * 22, col_w * 0.8)))
    for i, seat in enumerate(others):
        x = m + i * col_w
        plate = QRectF(x + (col_w - plate_w) / 2, top, plate_w, plate_h)
        row = QRectF(x + m / 2, top + plate_h + 0.4 * m, col_w - m, card_h)
        places[seat] = Place(seat, plate, row)

    centre_top = top + plate_h + 0.4 * m + card_h + 1.6 * m
    gap = card_w * 0.10
    wide_gap = card_w * 0.5
    rank_w = card_w * RANK_WIDER
    if rank_min > rank_w:  # text zoomed in a small window: "down" whole, not "do…"
        room = (w - 2 * m - 2 * card_w - 4 * gap - 2 * wide_gap) / 5
        rank_w = max(rank_w, min(rank_min, room))
    band = 2 * card_w + 5 * rank_w + 4 * gap + 2 * wide_gap
    x = (w - band) / 2
    out = QRectF(x, centre_top, card_w, card_h)
    x += card_w + wide_gap
    ranking = []
    for _ in range(5):
        ranking.append(QRectF(x, centre_top, rank_w, card_h))
        x += rank_w + gap
    pile = QRectF(x - gap + wide_gap, centre_top, card_w, card_h)

    row_top = centre_top + card_h + caption + m * 0.6
    my_row = QRectF(m, row_top, w - 2 * m, card_h)
    band_top = row_top + card_h + m
    band_h = h - band_top - m
    my_plate_w = min(max(t * 14, w * 0.22), t * 20, w * 0.32)
    plate = QRectF(m, band_top + max(0.0, (band_h - plate_h) / 2), my_plate_w, plate_h)
    places[bottom] = Place(bottom, plate, my_row)

    hand_area = QRectF(plate.right() + m, band_top, w - plate.right() - 2 * m, band_h)
    slots = max(1, hand_count)
    hand_h = min(band_h * 0.94, card_h * 1.22)
    hand_w = hand_h * CARD_RATIO
    hand_gap = hand_w * 0.12
    if slots * hand_w + (slots - 1) * hand_gap > hand_area.width():
        hand_w = hand_area.width() / (slots + (slots - 1) * 0.12)
        hand_h = hand_w / CARD_RATIO
        hand_gap = hand_w * 0.12
    total = hand_count * hand_w + max(0, hand_count - 1) * hand_gap
    hx = hand_area.center().x() - total / 2
    hy = band_top + (band_h - hand_h) / 2
    hand = [QRectF(hx + i * (hand_w + hand_gap), hy, hand_w, hand_h) for i in range(hand_count)]
    drop = my_row.adjusted(-m / 2, -m / 2, m / 2, m / 2)
    return Layout(w, h, t, card_w, card_h, hand_w, hand_h, bottom, places, ranking, pile, out,
                  hand, hand_area, drop)
