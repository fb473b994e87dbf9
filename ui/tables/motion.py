"""How a table moves: one running animation, snap-backs, and short-lived ghosts.

Mixed into a table widget (``FeltTable``). UX rule: never block input for
an animation, and a new view arriving mid-animation finishes the old one at
once, so ``_finish_animation`` jumps everything to its end and drops the
temporary pieces (rings, ghost cards) from the scene.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, cast

from PyQt6.QtCore import (
    QAbstractAnimation,
    QAnimationGroup,
    QEasingCurve,
    QObject,
    QPointF,
    QPropertyAnimation,
    QVariantAnimation,
)
from PyQt6.QtWidgets import QGraphicsItem, QGraphicsObject, QGraphicsScene

HOLD_MS = 1500
"""How long a key moment (a decided trick, a reveal, a scoring, a resolved chain) stays
on the table to be read before it is cleared (``ui.services.pacing`` holds the next view)."""


class Motion:
    """The animation state of a table; the class it is mixed into is a QObject."""

    scene: QGraphicsScene
    _anim: QAbstractAnimation | None
    _ghosts: list[QGraphicsItem]
    _snaps: list[QPropertyAnimation]
    _motion_ms: int
    _hold_ms: int

    def _init_motion(self) -> None:
        self._anim = None
        self._ghosts = []
        self._snaps = []
        self._motion_ms = 0
        self._hold_ms = 0

    def pace(self) -> tuple[int, int]:
        """(animation ms, hold ms) of the view just shown: how long it wants the
        table before the next view comes (``ui.services.pacing``); the hold, for a key
        moment, is the part a person's next move may cut short."""
        return self._motion_ms, self._hold_ms

    @property
    def animating(self) -> bool:
        return self._anim is not None

    def _finish_animation(self) -> None:
        """Jump the running animation to its end and drop its temporary pieces."""
        anim, self._anim = self._anim, None
        self._motion_ms = self._hold_ms = 0
        if anim is not None:
            with contextlib.suppress(TypeError):
                anim.finished.disconnect()
            anim.setCurrentTime(anim.totalDuration())
            anim.stop()
        for snap in self._snaps:
            snap.setCurrentTime(snap.totalDuration())
            snap.stop()
        self._snaps = []
        self._settle()
        for ghost in self._ghosts:
            if ghost.scene() is self.scene:
                self.scene.removeItem(ghost)
        self._ghosts = []

    def _settle(self) -> None:
        """After the animation ends, before its ghosts go: put pieces exactly in place."""

    def _fly(self, item: Any, start: Any, end: Any, ms: int,
             prop: bytes = b"pos") -> QPropertyAnimation:
        """One eased move (or fade, or shrink) of a scene object."""
        anim = QPropertyAnimation(item, prop, cast(QObject, self))
        anim.setDuration(ms)
        anim.setEasingCurve(QEasingCurve.Type.OutCubic)
        anim.setStartValue(start)
        anim.setEndValue(end)
        return anim

    def _ghost(self, item: QGraphicsItem) -> None:
        """Add a piece that lives only until the animation ends."""
        self.scene.addItem(item)
        self._ghosts.append(item)

    def _pulse(self, group: QAnimationGroup, ring: QGraphicsObject, ms: int,
               z: float = 60) -> None:
        """A ring that fades out over ``ms``, marking what just changed."""
        ring.setZValue(z)
        self._ghost(ring)
        group.addAnimation(self._fly(ring, 1.0, 0.0, ms, b"opacity"))

    def _start_animation(self, anim: QAbstractAnimation) -> None:
        """Run ``anim`` as the table's animation (an empty group is not run)."""
        if isinstance(anim, QAnimationGroup) and anim.animationCount() == 0:
            return
        anim.finished.connect(self._finish_animation)
        self._anim = anim
        self._motion_ms = max(0, anim.totalDuration())
        anim.start()

    def _snap_to(self, item: QGraphicsObject, home: QPointF, ms: int) -> None:
        """Glide ``item`` back to ``home`` (an illegal drop, a refused play)."""
        anim = self._fly(item, item.pos(), home, ms)
        anim.finished.connect(self._snap_done)
        self._snaps.append(anim)
        anim.start()

    def _snap_done(self) -> None:
        self._snaps = [a for a in self._snaps
                       if a.state() != QAbstractAnimation.State.Stopped]


class Tween(QVariantAnimation):
    """An animation that hands each value to ``step`` (a fade of a plain text item, a
    frog's path): by overriding ``updateCurrentValue``, not through a Python
    callable on ``valueChanged``, which can be freed while the animation still
    runs, so the next tick crashed the process. The item may be gone by then
    (the scene rebuilt): that step is skipped."""

    def __init__(self, step: Callable[[float], None], parent: QObject | None) -> None:
        super().__init__(parent)
        self._step = step

    def updateCurrentValue(self, value: Any) -> None:
        if isinstance(value, int | float):
            with contextlib.suppress(RuntimeError):
                self._step(float(value))

