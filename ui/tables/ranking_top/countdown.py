"""A top window's own countdown on the Ranking Top table: a bar that drains, and the
seconds left, beside the chain the window is about.

Windows are short (4 s) and chain back to back; the bar's seconds in the game's bar
were easy to miss, so a Space meant for one window landed in the next. Each window
now shows its start (a full bar) and its end (an empty one) where the eyes are.
The deadline is the host's (the game page hands it on); this only draws it.
"""

from __future__ import annotations

import math
import time

from PyQt6.QtCore import QRectF, Qt, QTimer
from PyQt6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PyQt6.QtWidgets import QWidget

from ui.tables import look
from ui.words.i18n import _


class Countdown(QWidget):
    """The seconds left of the open window, as a draining bar with its number."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.deadline: float | None = None
        self.total = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)
        self.hide()

    def set_left(self, seconds: float | None) -> None:
        """The host's deadline for the window now open (None: none runs); a new
        deadline is a new window, its bar full again."""
        if seconds is None:
            self.deadline = None
            self._timer.stop()
            self.update()
            return
        now = time.monotonic()
        if self.deadline is None or seconds > self.left() + 0.3:
            self.total = max(seconds, 0.1)
        self.deadline = now + seconds
        self._timer.start()
        self.update()

    def left(self) -> float:
        if self.deadline is None:
            return 0.0
        return max(0.0, self.deadline - time.monotonic())

    def _tick(self) -> None:
        if self.left() <= 0:
            self._timer.stop()
        self.update()

    def words(self) -> str:
        left = self.left()
        return _("{n} s to top").format(n=math.ceil(left)) if left > 0 else _("closing")

    def paintEvent(self, event: QPaintEvent | None) -> None:
        if self.deadline is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        box = QRectF(self.rect()).adjusted(1, 1, -1, -1)
        fnt = look.font(max(look.default_px(), box.height() * 0.62), bold=True)
        painter.setFont(fnt)
        words_w = painter.fontMetrics().horizontalAdvance(self.words()) + 10
        bar = QRectF(box.left(), box.top() + box.height() * 0.25,
                     max(10.0, box.width() - words_w), box.height() * 0.5)
        painter.setPen(QPen(QColor("#101010"), 1.0))
        painter.setBrush(QColor(0, 0, 0, 110))
        painter.drawRoundedRect(bar, bar.height() / 2, bar.height() / 2)
        share = self.left() / self.total if self.total else 0.0
        if share > 0:
            full = QRectF(bar.left(), bar.top(), bar.width() * share, bar.height())
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(look.LIT if share > 0.3 else QColor("#D55E00"))
            painter.drawRoundedRect(full, bar.height() / 2, bar.height() / 2)
        painter.setPen(look.INK_ON_FELT)
        painter.drawText(QRectF(bar.right() + 6, box.top(), words_w, box.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         self.words())
        painter.end()


__all__ = ["Countdown"]
