"""The game page's first-turn tours: which table gets one, and how long it lives.

The first time a person plays a game on this laptop its table walks them through a
first turn (``ui.tables.teach.Walkthrough``). The tour is a child of the table it
points at, so it dies with that table: when the game changes, the page drops it
first (cut short, not remembered as read), and a tour deleted some other way reads
as gone (``Held``), never as a wrapper of a deleted object. When a tour ends (read,
skipped or closed) the keys go back to the table at once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QKeyEvent
from PyQt6.QtWidgets import QWidget

from ui.services.lifetime import Held
from ui.tables.keys import HELD
from ui.tables.teach import Walkthrough, tour_key


class TourGuide:
    """The tour over the page's table, if one is due or running."""

    def __init__(self, focus_table: Callable[[], None]) -> None:
        self._walk: Held[Walkthrough] = Held()
        self._taught: set[str] = set()
        self._remember: Callable[[str], None] | None = None
        self._focus_table = focus_table

    @property
    def walkthrough(self) -> Walkthrough | None:
        return self._walk.get()

    @property
    def showing(self) -> bool:
        """A step is on the table now (Enter and Esc are the tour's)."""
        walk = self._walk.get()
        return walk is not None and walk.active and walk.isVisible()

    def set_teaching(self, taught: Collection[str], remember: Callable[[str], None]) -> None:
        """The games already taught on this laptop, and how to remember a new one."""
        self._taught, self._remember = set(taught), remember

    def drop(self) -> None:
        """The table goes (another game): its tour goes with it, not counted as read."""
        walk = self._walk.get()
        if walk is not None:
            walk.abandon()
        self._walk.set(None)

    def place(self) -> None:
        """The table changed size: the tour points at its pieces again."""
        walk = self._walk.get()
        if walk is not None:
            walk.place()

    def view_shown(self, table: QWidget, game: str, view: Mapping[str, Any],
                   you: int | None) -> None:
        """A view is on ``table``: the running tour follows its pieces, or the first
        tour of ``game`` (in the view's mode) begins, for a seated player, at a moment
        that gives time to read."""
        walk = self._walk.get()
        if walk is not None and walk.active and walk.parentWidget() is table:
            walk.place()  # its pieces may have moved; a real-time moment's controls appeared
            return
        if walk is not None and not walk.active:  # over: the next game (another mode of
            self._walk.set(None)                   # it, at the same table) may have its own
            walk.deleteLater()
        remember = self._remember
        key = tour_key(game, view.get("mode"))
        if remember is None or you is None or key in self._taught:
            return
        ready = getattr(table, "teach_ready", None)
        if callable(ready) and not ready():
            return  # a moment that gives no time to read (a top window): later
        walk = Walkthrough(table)

        def done() -> None:
            self._taught.add(key)
            remember(key)
            self._focus_table()  # the table's keys play at once

        if walk.start(table, key, done):
            self._walk.set(walk)
        else:
            walk.deleteLater()

    def key(self, event: QKeyEvent) -> bool:
        """Enter goes on to the next step, Esc closes the tour; True if taken."""
        walk = self._walk.get()
        if walk is None or not self.showing or event.modifiers() & HELD:
            return False
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            walk.next()
            return True
        if event.key() == Qt.Key.Key_Escape:
            walk.finish()
            return True
        return False


__all__ = ["TourGuide"]
