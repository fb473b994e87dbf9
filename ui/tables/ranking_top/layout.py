"""Where everything sits on the Ranking Top table, for one window size.

Pure geometry, recomputed on every view and resize so the table never
scrolls: the others across the top in seat order (each a name plate over its
Ranking Top 5..1), the shared things in the middle (deck, discard pile, the
stage where a contested play and its tops lie big, the direction of play),
my plate and my Ranking Top above my hand at the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PyQt6.QtCore import QRectF

CARD_RATIO = 0.70
GAP = 0.10
"""Space between two cards in a row, as a share of a card's width."""
COUNTDOWN_LINES = 1.7
"""The top window's countdown: its height with its gap, in text heights (over TOP! and
Pass, in their column or above their row)."""
WORDS_LINES = 1.6
"""Under TOP! and Pass in a row: who passed and who still decides, one line."""


@dataclass(frozen=True)
class Seat:
    """One seat's spots: its name plate and its Ranking Top (five places, 5 first)."""

    seat: int
    plate: QRectF
    ranking: list[QRectF]


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    text_px: float
    margin: float
    bottom: int
    seats: dict[int, Seat]
    deck: QRectF
    discard: QRectF
    """The discard pile's top card; older cards fan out to its left."""
    discard_fan: QRectF
    stage: QRectF
    """The middle: the chain of a top window, or what just happened."""
    stage_card: tuple[float, float]
    buttons: QRectF
    """Under the stage's cards (the countdown's row above them): TOP! and Pass; or,
    when the middle is low, their column beside the cards (the countdown at its head)."""
    direction: QRectF
    hand_band: QRectF
    hand: list[QRectF] = field(default_factory=list)
    hand_card: tuple[float, float] = (0.0, 0.0)
    chain_area: QRectF = field(default_factory=QRectF)
    """Where the chain's cards lie: the stage, less the buttons' column when they
    stand beside the cards (a low window has no room for them below)."""

    def chain_slots(self, count: int, label_w: float = 0.0) -> list[QRectF]:
        """The chain's cards side by side in the stage (far enough apart for labels
        ``label_w`` wide under them), overlapping when many."""
        w, h = self.stage_card
        chain = self.chain_area if not self.chain_area.isNull() else self.stage
        area = QRectF(chain.left(), self.stage.top() + self.text_px * 1.6, chain.width(), h)
        roomy = max(w * 1.5, label_w)
        if count > 1 and w + (count - 1) * roomy > area.width():
            roomy = max(w * 1.5, (area.width() - w) / (count - 1))
        if count > 1 and w + (count - 1) * roomy <= area.width():
            total = w + (count - 1) * roomy
            x0 = area.center().x() - total / 2
            return [QRectF(x0 + i * roomy, area.top(), w, h) for i in range(count)]
        return row_slots(area, count, w, h, min_step=0.55)


def row_slots(row: QRectF, count: int, card_w: float, card_h: float,
              min_step: float = 0.3) -> list[QRectF]:
    """``count`` cards centred in ``row``: side by side while they fit, then overlapped
    (never below ``min_step`` of a card in view: its corner index), then smaller."""
    if count <= 0:
        return []
    step = card_w * (1 + GAP)
    if count > 1 and card_w + (count - 1) * step > row.width():
        small = row.width() / (1 + min_step * (count - 1))
        if small < card_w:
            scale = max(0.55, small / card_w)
            card_w, card_h = card_w * scale, card_h * scale
        step = max(card_w * 0.12, (row.width() - card_w) / (count - 1))
    total = card_w + (count - 1) * step
    x0 = row.center().x() - total / 2
    y = row.top() + (row.height() - card_h) / 2
    return [QRectF(x0 + i * step, y, card_w, card_h) for i in range(count)]


def ranking_row(left: float, top: float, card_h: float) -> list[QRectF]:
    card_w = card_h * CARD_RATIO
    return [QRectF(left + i * card_w * (1 + GAP), top, card_w, card_h) for i in range(5)]


def row_width(card_h: float) -> float:
    card_w = card_h * CARD_RATIO
    return 5 * card_w + 4 * card_w * GAP


def compute(width: float, height: float, text_px: float, players: int, bottom: int,
            hand_count: int, watching: bool) -> Layout:
    """The table for ``players`` seats seen from ``bottom`` (my seat, or seat 0 when
    watching); ``hand_count`` cards in my hand."""
    w, h, t = float(width), float(height), float(text_px)
    m = max(8.0, 0.014 * min(w, h))
    plate_h = t * 2.7
    others = [(bottom + i) % players for i in range(1, players)]
    col_w = (w - 2 * m) / max(1, len(others))
    op_h = min(h * 0.12, (col_w - m * 1.5) / (5 + 4 * GAP) / CARD_RATIO)
    seats: dict[int, Seat] = {}
    for i, seat in enumerate(others):
        x = m + i * col_w
        row_w = row_width(op_h)
        plate_w = max(row_w, min(col_w - m, t * 16))
        px = x + (col_w - plate_w) / 2
        plate = QRectF(px, m, plate_w, plate_h)
        rx = x + (col_w - row_w) / 2
        seats[seat] = Seat(seat, plate, ranking_row(rx, plate.bottom() + m * 0.5, op_h))
    strip_bottom = m + plate_h + m * 0.5 + op_h

    hand_h = 0.0 if watching else min(h * 0.2, t * 10.5)
    hand_band = QRectF(m, h - m - max(hand_h, t * 2.2), w - 2 * m, max(hand_h, t * 2.2))
    my_h = min(h * (0.2 if watching else 0.145), t * (10.0 if watching else 7.5))
    my_top = hand_band.top() - m * 0.9 - my_h
    my_plate_w = min(max(t * 14, w * 0.2), t * 18)
    my_plate = QRectF(m, my_top + (my_h - plate_h) / 2, my_plate_w, plate_h)
    my_row_left = my_plate.right() + m * 2
    seats[bottom] = Seat(bottom, my_plate, ranking_row(my_row_left, my_top, my_h))

    mid_top = strip_bottom + m * 1.2
    mid_bottom = my_top - m * 1.2
    mid_h = mid_bottom - mid_top
    button_h = t * 2.8
    # Over the chain's cards its title, under each who played it where.
    above_below = t * 4.3
    # Under the cards, in rows of their own: the window's countdown, TOP! and Pass, and
    # who passed and who still decides (the countdown lay over two-line labels under
    # the cards, and the words under the buttons over my first slot: issue 31).
    count_h, words_h = t * COUNTDOWN_LINES, t * WORDS_LINES
    room = mid_h - above_below - count_h - button_h - words_h - m * 1.2
    stage_card_h = max(t * 4.0, min(room, t * 13.0))
    side_buttons = room < t * 6.5
    if side_buttons:  # TOP! over Pass beside the cards, which take the whole height
        stage_card_h = max(t * 4.0, min(mid_h - above_below, t * 13.0))
    stage_card = (stage_card_h * CARD_RATIO, stage_card_h)
    pile_h = max(t * 4.0, min(stage_card_h * 0.8, mid_h - t * 1.6))
    pile_w = pile_h * CARD_RATIO
    pile_top = mid_top + t * 1.5
    deck = QRectF(m * 1.5, pile_top, pile_w, pile_h)
    # A low middle (a small window) gives the stage the width: the discard pile shows
    # its top card only, the direction of play a narrower column.
    fan = QRectF(deck.right() + m * 2.5, pile_top, pile_w * (1.0 if side_buttons else 1.9),
                 pile_h)
    discard = QRectF(fan.right() - pile_w, pile_top, pile_w, pile_h)
    dir_w = t * (7.0 if side_buttons else 9.5)
    direction = QRectF(w - m - dir_w, mid_top, dir_w, mid_h)
    stage = QRectF(fan.right() + m * 3, mid_top, direction.left() - fan.right() - m * 4,
                   mid_h)
    buttons = QRectF(stage.left(), stage.top() + above_below + stage_card_h + m * 0.6
                     + count_h, stage.width(), button_h)
    chain_area = QRectF(stage)
    if side_buttons:
        column = t * 9.5
        buttons = QRectF(stage.right() - column, stage.top() + t * 1.6, column,
                         2 * button_h + t * 0.6)
        chain_area = QRectF(stage.left(), stage.top(), stage.width() - column - m, mid_h)

    hand: list[QRectF] = []
    card = (0.0, 0.0)
    if not watching and hand_count:
        card_h = hand_h
        card = (card_h * CARD_RATIO, card_h)
        hand = row_slots(hand_band, hand_count, card[0], card_h, min_step=0.3)
    return Layout(w, h, t, m, bottom, seats, deck, discard, fan, stage, stage_card, buttons,
                  direction, hand_band, hand, card, chain_area)
