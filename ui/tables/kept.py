"""Pieces a table's rebuild draws again exactly as they were: taken back, not made anew.

A felt table draws its scene afresh from each view, and every new piece paints
itself into its cache (``CachedScene``) on the next frame: on the Ranking Top
table that first frame drew some forty pieces (empty slots, plates, cards)
that looked exactly as the frame before, 10 ms of the 16 a frame has. A piece
taken from ``Kept`` under the key of what it shows is the very item of the
last rebuild, with the picture its cache holds; only what changed is drawn.

The key must name everything its ``paint`` reads (the table's constructor
arguments and what it sets before showing it); ``take`` adds the place and the
window's language and font, which every piece's text depends on. Only passive pieces
belong here: an item a table connects signals to, or that changes as the
player points at it, is made anew each time.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from PyQt6.QtCore import QPointF
from PyQt6.QtWidgets import QApplication, QGraphicsItem, QGraphicsScene

from ui.look import pictures
from ui.words.i18n import language

Item = TypeVar("Item", bound=QGraphicsItem)


class Kept:
    """The passive pieces of a table's last rebuild, by what they show."""

    def __init__(self) -> None:
        self._spare: dict[Hashable, list[QGraphicsItem]] = {}
        self._taken: dict[Hashable, list[QGraphicsItem]] = {}
        self._context: tuple[str, str, int] = ("", "", 0)

    def save(self, scene: QGraphicsScene) -> None:
        """Before the scene is cleared: lift the pieces of this rebuild out of it (they
        stay alive, and their caches with them) for the next to take; the ones the
        last rebuild did not take again are let go."""
        for items in self._taken.values():
            for item in items:
                if item.scene() is scene:
                    scene.removeItem(item)
        self._spare, self._taken = self._taken, {}
        app = QApplication.instance()
        font = app.font().key() if isinstance(app, QApplication) else ""
        context = (language(), font, pictures.drawn())
        if context != self._context:  # every text would read or fit differently, or a
            # piece that showed a picture's name would go on showing it
            self._spare = {}
            self._context = context

    def take(self, key: Hashable, at: QPointF, make: Callable[[], Item]) -> Item:
        """The spare piece saved under ``key`` at ``at`` (its stacking, opacity and scale
        as new), or ``make()``'s placed there. The place is part of the key: a cached
        picture is drawn for the piece's fraction of a pixel, so one taken back where
        it was paints exactly what a new one would."""
        place = (key, at.x(), at.y())
        spare = self._spare.get(place)
        if spare:
            item = spare.pop()
            item.setZValue(0.0)
            item.setOpacity(1.0)
            item.setScale(1.0)
            item.setVisible(True)
        else:
            item = make()
        item.setPos(at)
        self._taken.setdefault(place, []).append(item)
        return item  # type: ignore[return-value]
