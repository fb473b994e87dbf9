"""One move at a time: the views a window receives, shown in turn at a readable pace.

Bots answer in a second and a host sends a delta per move, so two or three
views can arrive while the table still animates the last one. The Pacer
queues them: each is shown (with its animation) once the one before has had
its time on the table, which the table states itself (``pace()``: the
animation's length and, for a key moment such as a decided trick or a
reveal, a hold of about 1.5 s on top). A snapshot (a resync, a reconnect)
jumps: the queue is dropped and the view shown at once, unanimated.

A person's move is never kept waiting behind a hold: when the next view is
a person's action (or the player here clicks, ``hurry``), the hold ends and
only the animation still runs out. A long backlog (a laptop that dozed, a
host that rushed) drops its holds, and past ``MAX_QUEUE`` the table jumps to
the newest view, so a window never lags far behind the game. ``scale`` 0
shows every view at once (the tests of everything else).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PyQt6.QtCore import QObject, QTimer, pyqtSignal

from ui.tables.motion import HOLD_MS

BACKLOG = 3
"""From this many waiting views on, holds are skipped (animations still play)."""
MAX_QUEUE = 8
"""More waiting views than this: jump to the newest one."""

Show = Callable[[dict[str, Any], bool], None]
Pace = Callable[[], tuple[int, int]]
"""The table's (animation ms, hold ms) for the view it shows now."""


@dataclass
class Queued:
    view: dict[str, Any]
    person: bool
    """The move was a person's (its hold must not keep them waiting)."""


def actor(previous: dict[str, Any] | None, view: dict[str, Any]) -> int | None:
    """The seat whose move turned ``previous`` into ``view``, from the public log:
    the first seat of the first new log line (None when no line names one)."""
    old = (previous or {}).get("log") or []
    new = view.get("log") or []
    if not isinstance(old, list) or not isinstance(new, list) or new == old:
        return None
    fresh = new[len(old):] if len(new) > len(old) and new[:len(old)] == old else new[-1:]
    for entry in fresh:
        seats = entry.get("seats") if isinstance(entry, dict) else None
        if isinstance(seats, list) and seats and isinstance(seats[0], int):
            return seats[0]
    return None


def by_person(seats: Sequence[dict[str, Any]], seat: int | None) -> bool:
    """Whether ``seat`` is played by a person now (not a bot, not a stand-in)."""
    if seat is None or not 0 <= seat < len(seats):
        return False
    return not seats[seat].get("bot") and not seats[seat].get("standin")


class Pacer(QObject):
    idle = pyqtSignal()
    """Every view waiting has had its time: the table shows the newest one."""

    def __init__(self, show: Show, pace: Pace, scale: float = 1.0,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._show = show
        self._pace = pace
        self.scale = scale
        self.queue: deque[Queued] = deque()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._next)
        self._motion_end = 0.0
        """When the current view's animation ends (monotonic seconds); its hold follows."""
        self._idle: list[Callable[[], None]] = []
        self.shown = 0
        """Views shown so far (tests count them)."""

    @property
    def busy(self) -> bool:
        """A view is still having its time on the table, or others wait."""
        return self._timer.isActive() or bool(self.queue)

    def push(self, view: dict[str, Any], animate: bool, person: bool = False) -> None:
        """A view arrived: show it now, or after the ones before it."""
        if not animate:
            self.jump(view)
            return
        self.queue.append(Queued(view, person))
        if len(self.queue) > MAX_QUEUE:
            self.jump(self.queue[-1].view)
            return
        if person and self._timer.isActive() and len(self.queue) == 1:
            self._cut_hold()
        if not self._timer.isActive():
            self._next()

    def jump(self, view: dict[str, Any]) -> None:
        """Show ``view`` at once without animating; whatever waited is dropped."""
        self.queue.clear()
        self._timer.stop()
        self.shown += 1
        self._show(view, False)
        self._settled()

    def hurry(self) -> None:
        """The person at this window acted: the hold on the table ends now."""
        if self._timer.isActive():
            self._cut_hold()

    def clear(self) -> None:
        """A new table or none: forget what waited (and who waited for the end)."""
        self.queue.clear()
        self._timer.stop()
        self._idle.clear()

    def when_idle(self, then: Callable[[], None]) -> None:
        """Run ``then`` once every view waiting has had its time (the end screen waits
        for the last trick); at once when nothing waits."""
        if self.busy:
            self._idle.append(then)
        else:
            then()

    # --- inside ---------------------------------------------------------------------------

    def _next(self) -> None:
        while self.queue:
            item = self.queue.popleft()
            self.shown += 1
            self._show(item.view, True)
            motion, hold = self._pace()
            if len(self.queue) >= BACKLOG or (self.queue and self.queue[0].person):
                hold = 0
            motion_s, hold_s = max(0, motion) * self.scale / 1000, max(0, hold) * self.scale / 1000
            self._motion_end = time.monotonic() + motion_s
            wait = motion_s + hold_s
            if wait > 0.001:
                self._timer.start(max(1, round(wait * 1000)))
                return
        self._settled()

    def _cut_hold(self) -> None:
        left = self._motion_end - time.monotonic()
        self._timer.start(max(0, round(left * 1000)))

    def _settled(self) -> None:
        waiting, self._idle = self._idle, []
        for then in waiting:
            then()
        self.idle.emit()


__all__ = ["BACKLOG", "HOLD_MS", "MAX_QUEUE", "Pacer", "actor", "by_person"]
