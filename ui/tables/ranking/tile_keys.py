"""Ranking by keys: 1-6 place a hand's tile; while comparing or guessing 1-7 choose
the tower's tiles (then 1 or 2 which goes up, in the choice); P passes; Esc drops
a comparison half made. The keys do what the clicks do, through the same methods;
what they need of the table is ``KeyedTower``, so this module does not import the
table that imports it.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Protocol

from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QKeyEvent
from PyQt6.QtWidgets import QWidget

from ui.tables.keys import Target, key_name
from ui.tables.ranking.items import TileItem
from ui.words.i18n import N_, _

KEYS = (("1-6", N_("place the tile at that place in your hand, from the left (the key "
                   "shows on each tile while you place)")),
        ("1-7", N_("while you compare or guess: choose the tower's tile with that key "
                   "(it shows on each tile)")),
        ("1, 2", N_("which of the two tiles compared goes up")),
        ("P", N_("pass instead of guessing")),
        (N_("Esc"), N_("drop a comparison half made")))
"""The keys F1 lists for Ranking (English, marked)."""


class KeyedTower(Protocol):
    """What the keys read and click on the table (``RankingTable`` is one)."""

    @property
    def chooser(self) -> QWidget: ...

    @property
    def first(self) -> int | None: ...

    @property
    def hand_items(self) -> list[TileItem]: ...

    @property
    def tiles(self) -> dict[int, TileItem]: ...

    def _can_place(self) -> bool: ...

    def _can_compare(self) -> bool: ...

    def _can_guess(self) -> bool: ...

    def _item_rect(self, item: Any, pad: float = 0.0) -> QRectF: ...

    def _hand_clicked(self, item: TileItem) -> None: ...

    def _tile_clicked(self, item: TileItem) -> None: ...

    def _cancel_choice(self) -> None: ...

    def _pass(self) -> None: ...


def targets(t: KeyedTower) -> list[Target]:
    """My hand's tiles while I place; the tower's tiles while I compare or guess (a
    tile on the top or bottom floor, which cannot be compared, is read only)."""
    if t.chooser.isVisible():
        return []
    out: list[Target] = []
    if t._can_place():
        for item in t.hand_items:
            out.append(Target(("hand", item.picture), _("Your hand: {name}").format(
                name=item.name), partial(t._hand_clicked, item),
                t._item_rect(item), item.key, item.toolTip()))
    elif t._can_compare() or t._can_guess():
        for item in sorted(t.tiles.values(), key=lambda tile: tile.slot or 0):
            if item.on_click is None:
                continue
            where = _("{name}, floor {n}").format(name=item.name, n=item.floor)
            if item.selected:
                where = _("{tile}, chosen to compare").format(tile=where)
            out.append(Target(("tower", item.slot), where,
                              partial(t._tile_clicked, item),
                              t._item_rect(item), item.key if item.lit else "",
                              item.toolTip(), enabled=item.lit or item.selected))
    return out


def claim(t: KeyedTower, event: QKeyEvent) -> bool:
    """Esc drops a half-made comparison (the choice's own keys choose); P passes."""
    choosing = t.chooser.isVisible() or t.first is not None
    if event.key() == Qt.Key.Key_Escape and choosing:
        t._cancel_choice()
        return True
    if key_name(event) == "P" and t._can_guess():  # the Pass button says so
        t._pass()
        return True
    return False


__all__ = ["KEYS", "KeyedTower", "claim", "targets"]
