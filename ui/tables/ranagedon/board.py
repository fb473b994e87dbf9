"""Where the 800 x 800 mm playing area sits on screen, and the frog palette.

The host speaks millimetres; the table draws pixels. ``Board`` is the one
place that converts between them (a scale, an offset and a quarter-turn
rotation, so my own deploying side can sit at the bottom), which is why an
aimed angle always comes out in the host's coordinates whatever the screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PyQt6.QtCore import QPointF
from PyQt6.QtGui import QColor

TABLE_MM = 800.0
CENTRE_MM = 400.0
PAD_MM = 55.0
FROG_MM = 16.0
RING_IN_MM = 11.0
RING_SEND = (11.25, 15.75)
"""The press radius sent to the host is clamped here, safely inside its ring."""

FROG_COLOURS = {"red": QColor("#D8413A"), "green": QColor("#2E9E57")}
FROG_DARK = {"red": QColor("#8E1F1A"), "green": QColor("#16613A")}
BORDER_COLOURS = {"magenta": QColor("#D0399E"), "blue": QColor("#2F7FE0"),
                  "yellow": QColor("#F2D21B")}
WOOD = QColor("#D9C39A")
WOOD_EDGE = QColor("#A88A58")
PAD = QColor("#E9B73A")
PAD_EDGE = QColor("#A8791A")


def frog_colour(name: object) -> QColor:
    return QColor(FROG_COLOURS.get(str(name), QColor("#888888")))


def border_colour(name: object) -> QColor:
    return QColor(BORDER_COLOURS.get(str(name), QColor("#DDDDDD")))


@dataclass(frozen=True)
class Board:
    """The playing area drawn at ``left, top`` with ``size`` pixels a side.

    ``turns`` quarter-turns clockwise: the model point (x, y) is drawn where
    the rotated table puts it. y grows downwards in both systems.
    """

    left: float
    top: float
    size: float
    turns: int = 0

    @property
    def scale(self) -> float:
        """Pixels per millimetre."""
        return self.size / TABLE_MM

    def to_scene(self, x: float, y: float) -> QPointF:
        dx, dy = x - CENTRE_MM, y - CENTRE_MM
        for _ in range(self.turns % 4):
            dx, dy = -dy, dx
        k = self.scale
        return QPointF(self.left + self.size / 2 + dx * k, self.top + self.size / 2 + dy * k)

    def to_model(self, point: QPointF) -> tuple[float, float]:
        k = self.scale
        dx = (point.x() - self.left - self.size / 2) / k
        dy = (point.y() - self.top - self.size / 2) / k
        for _ in range(self.turns % 4):
            dx, dy = dy, -dx
        return CENTRE_MM + dx, CENTRE_MM + dy

    def angle_to_scene(self, theta: float) -> float:
        """A model angle as seen on screen (the rotation adds quarter turns)."""
        return theta + (self.turns % 4) * math.pi / 2

    def mm(self, length: float) -> float:
        return length * self.scale
