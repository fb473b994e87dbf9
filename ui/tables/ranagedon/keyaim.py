"""Aiming a frog by keys: choose a frog, turn the aim with the arrows, set the strength,
Enter jumps.

The keys make the same ``Aim`` the mouse makes (a press on the border and a
pull straight back, or for a dive a pull from the disc's middle), so the aim is
drawn and sent exactly as a mouse aim is; nothing here predicts a landing.
An aim starts pointing at the lily pad, at half strength.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PyQt6.QtCore import Qt

from ui.tables.ranagedon.aim import Aim, press_point, pull_point
from ui.tables.ranagedon.board import CENTRE_MM, Board

TURN = math.radians(5)
FINE_TURN = math.radians(1)
STEP = 0.05
FINE_STEP = 0.01
LEAST = 0.02
"""The weakest key aim: a jump of no strength at all is no jump."""
R_MM = 13.5
"""Where on the border a key aim presses (the middle of the ring)."""


@dataclass
class KeyAim:
    frog: int
    kind: str
    """"jump" or "dive"."""
    theta: float
    """The model angle the frog is pushed from (it leaves towards theta + pi)."""
    s: float = 0.5

    @classmethod
    def towards_pad(cls, frog: int, kind: str, at: tuple[float, float]) -> KeyAim:
        """An aim that sends the frog at the lily pad, at half strength."""
        leave = math.atan2(CENTRE_MM - at[1], CENTRE_MM - at[0])
        return cls(frog, kind, math.remainder(leave + math.pi, 2 * math.pi))

    def key(self, key: int, fine: bool) -> bool:
        """Left and Right turn the aim (as seen on screen), Up and Down set the strength,
        Page Up and Page Down in big steps; True if the key was one of them."""
        turn = FINE_TURN if fine else TURN
        step = FINE_STEP if fine else STEP
        if key == Qt.Key.Key_Left:
            self.theta -= turn  # the screen's y points down: a smaller angle turns left
        elif key == Qt.Key.Key_Right:
            self.theta += turn
        elif key == Qt.Key.Key_Up:
            self.s += step
        elif key == Qt.Key.Key_Down:
            self.s -= step
        elif key == Qt.Key.Key_PageUp:
            self.s += 0.25
        elif key == Qt.Key.Key_PageDown:
            self.s -= 0.25
        else:
            return False
        self.theta = math.remainder(self.theta, 2 * math.pi)
        self.s = round(min(1.0, max(LEAST, self.s)), 3)
        return True

    def aim(self, board: Board, at: tuple[float, float]) -> Aim:
        """The mouse's aim for the same push: drawn and sent as that one is."""
        r = R_MM if self.kind == "jump" else 0.0
        press = press_point(board, at, self.theta, r)
        pointer = pull_point(board, at, self.theta, self.s, r)
        return Aim(self.frog, self.kind, board.to_scene(*at), press, pointer, self.theta,
                   R_MM, board)

    def heading(self, board: Board) -> int:
        """Where the frog leaves, in degrees clockwise from the top of the screen."""
        leave = board.angle_to_scene(self.theta) + math.pi
        return round(math.degrees(leave) + 90) % 360


__all__ = ["KeyAim"]
