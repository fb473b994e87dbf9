"""Short words in a row that wrap to the next line where the row has no room, as
words in a sentence do (a seat's marks in the room: its team, Host, Ready).

Each item keeps its own width and is never squeezed: a row of marks wider than its
column goes on under itself instead of pushing the buttons beside it out of sight.
"""

from __future__ import annotations

from PyQt6.QtCore import QPoint, QRect, QSize, Qt
from PyQt6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    """Items left to right, on as many lines as the width needs."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 12,
                 line_spacing: int = 2) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self._line_gap = line_spacing
        self.setContentsMargins(0, 0, 0, 0)

    # --- a layout's list of items ------------------------------------------------------

    def addItem(self, item: QLayoutItem | None) -> None:
        if item is not None:
            self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    # --- sizes ----------------------------------------------------------------------------

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def sizeHint(self) -> QSize:
        """All on one line."""
        shown = self._shown()
        margins = self.contentsMargins()
        width = sum(i.sizeHint().width() for i in shown) + self._gap * max(0, len(shown) - 1)
        height = max((i.sizeHint().height() for i in shown), default=0)
        return QSize(width + margins.left() + margins.right(),
                     height + margins.top() + margins.bottom())

    def minimumSize(self) -> QSize:
        """The widest item: everything else can go on a line of its own."""
        margins = self.contentsMargins()
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    # --- placing ---------------------------------------------------------------------------

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _lines(self, width: int) -> list[list[QLayoutItem]]:
        lines: list[list[QLayoutItem]] = []
        used = 0
        for item in self._shown():
            hint = item.sizeHint().width()
            if lines and used + self._gap + hint <= width:
                lines[-1].append(item)
                used += self._gap + hint
            else:
                lines.append([item])  # the first, or no room left on this line
                used = hint
        return lines

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the items out in ``rect``, the lines centred in its height as one row's
        words are (or only measure); the height they take."""
        margins = self.contentsMargins()
        inner = rect.adjusted(margins.left(), margins.top(), -margins.right(),
                              -margins.bottom())
        lines = self._lines(inner.width())
        heights = [max(i.sizeHint().height() for i in line) for line in lines]
        need = sum(heights) + self._line_gap * max(0, len(lines) - 1)
        if move:
            y = inner.y() + max(0, (inner.height() - need) // 2)
            for line, height in zip(lines, heights, strict=True):
                x = inner.x()
                for item in line:
                    hint = item.sizeHint()
                    item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), hint))
                    x += hint.width() + self._gap
                y += height + self._line_gap
        return need + margins.top() + margins.bottom()


__all__ = ["FlowLayout"]
