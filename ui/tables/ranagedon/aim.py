"""Aiming a frog by mouse: press on its border, pull back, let go.

A jump is pressed where the rulebook says to press, on the coloured border:
the pressed point gives ``theta`` (seen from the disc's centre, in the host's
millimetres) and the frog leaves the other way. How far the pointer is then
pulled from the pressed point sets the strength ``s``, in any direction (my
frogs sit at the bottom of the window, where pulling straight back would
leave the screen). A dive (a slide)
may be pressed anywhere on the disc; the direction of the pull gives its
``theta``, so the frog slides away from the pull like a struck coin.

Decisions of our own: the border ring is only a few pixels wide on a laptop,
so a press up to ``SLOP_PX`` outside the disc still counts as the border (the
radius sent is clamped into the ring, so the host never refuses it for that);
a press on the frog's inner disc is refused here with a hint, as the rulebook
forbids it. A release closer than ``DEAD_PX`` to the pressed point cancels,
so a stray click never jumps a frog. The table shows where the jump lands
without the scatter (``model.reach``); the host's scatter moves it a little.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PyQt6.QtCore import QPointF

from ui.tables.ranagedon.board import FROG_MM, RING_IN_MM, RING_SEND, Board

SLOP_PX = 7.0
DEAD_PX = 6.0


def span_px(board: Board) -> float:
    """The pull (in pixels beyond ``DEAD_PX``) that gives full strength."""
    return max(90.0, board.size * 0.22)


def strength(drag_px: float, board: Board) -> float:
    """The strength for a pull of ``drag_px`` pixels: 0 at the dead zone, 1 at full span."""
    return round(min(1.0, max(0.0, (drag_px - DEAD_PX) / span_px(board))), 3)


def drag_for(s: float, board: Board) -> float:
    """The pull in pixels that gives strength ``s`` (the inverse of ``strength``)."""
    return DEAD_PX + min(1.0, max(0.0, s)) * span_px(board)


@dataclass(frozen=True)
class Press:
    """Where a press fell on a frog: ``where`` is "ring", "centre" or "outside"."""

    where: str
    theta: float
    r: float
    """The press radius in mm, clamped into the ring when ``where`` is "ring"."""


def classify(board: Board, frog_xy: tuple[float, float], point: QPointF) -> Press:
    """Which part of the frog at ``frog_xy`` (mm) the scene ``point`` presses."""
    x, y = board.to_model(point)
    dx, dy = x - frog_xy[0], y - frog_xy[1]
    r = math.hypot(dx, dy)
    theta = math.atan2(dy, dx)
    outer = FROG_MM + SLOP_PX / board.scale
    if r < RING_IN_MM:
        return Press("centre", theta, r)
    if r <= outer:
        return Press("ring", theta, min(RING_SEND[1], max(RING_SEND[0], r)))
    return Press("outside", theta, r)


@dataclass
class Aim:
    """One aim in progress: a frog, the pressed point, and the pointer now."""

    frog: int
    kind: str
    """"jump" or "dive"."""
    centre: QPointF
    press: QPointF
    pointer: QPointF
    theta_pressed: float
    r: float
    board: Board

    @property
    def drag(self) -> float:
        d = self.pointer - self.press
        return math.hypot(d.x(), d.y())

    @property
    def s(self) -> float:
        return strength(self.drag, self.board)

    @property
    def armed(self) -> bool:
        """Pulled far enough that letting go sends the move."""
        return self.drag >= DEAD_PX

    @property
    def theta(self) -> float:
        """The model angle the frog is pushed from (it moves towards theta + pi)."""
        if self.kind == "jump":
            return self.theta_pressed
        a = self.board.to_model(self.press)
        b = self.board.to_model(self.pointer)
        if math.hypot(b[0] - a[0], b[1] - a[1]) < 1e-9:
            return self.theta_pressed
        return math.atan2(b[1] - a[1], b[0] - a[0])

    def action(self) -> dict[str, Any]:
        theta = round(math.remainder(self.theta, 2 * math.pi), 4)
        if self.kind == "dive":
            return {"type": "dive", "frog": self.frog, "theta": theta, "s": self.s}
        return {"type": "jump", "frog": self.frog, "theta": theta, "r": round(self.r, 2),
                "s": self.s}


def press_point(board: Board, frog_xy: tuple[float, float], theta: float,
                r: float = 13.5) -> QPointF:
    """The scene point on the frog's border at model angle ``theta`` (for tests and bots)."""
    return board.to_scene(frog_xy[0] + r * math.cos(theta), frog_xy[1] + r * math.sin(theta))


def pull_point(board: Board, frog_xy: tuple[float, float], theta: float, s: float,
               r: float = 13.5) -> QPointF:
    """Where to let go after pressing at ``theta`` to send strength ``s``: straight back."""
    start = press_point(board, frog_xy, theta, r)
    angle = board.angle_to_scene(theta)
    d = drag_for(s, board)
    return QPointF(start.x() + d * math.cos(angle), start.y() + d * math.sin(angle))
