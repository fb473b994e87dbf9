"""The Ranking Top table's small pop-ups: where a card goes, which card tops, which to keep.

One panel for all three: a prompt, a line that explains what cannot be done
and why, one button per choice (a choice that cannot be made stays visible,
disabled, with its reason as tooltip) and Cancel. Game-neutral: it shows
labels and emits the key of the chosen one.
"""

from __future__ import annotations

from dataclasses import dataclass

from PyQt6.QtCore import QPoint, Qt, pyqtSignal
from PyQt6.QtGui import QFontMetrics, QHideEvent, QKeyEvent, QShowEvent
from PyQt6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.tables import look
from ui.tables.keys import CHOICE, HELD
from ui.tables.widgets import BUTTON_STYLE
from ui.words.i18n import _

DISABLED = ("QPushButton:disabled { background: #5A5F5C; color: #C9CFCB;"
            " border: 2px dashed #8A908C; }")


@dataclass(frozen=True)
class Choice:
    key: object
    label: str
    enabled: bool = True
    why: str = ""


class ChoicePanel(QFrame):
    """A prompt with one button per choice, shown over the table near what was clicked."""

    chosen = pyqtSignal(object)
    cancelled = pyqtSignal()
    opened = pyqtSignal(bool)
    """Shown (True) or hidden (False): the table quiets the words under it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("rtopChoice")
        self.setProperty(CHOICE, True)
        self.setStyleSheet(
            "#rtopChoice { background: #142920; border: 2px solid #FFD866;"
            " border-radius: 10px; }"
            "#rtopChoice QLabel { color: #F3F1E7; }"
            "#rtopChoice QLabel#rtopNote { color: #FFD866; }" + BUTTON_STYLE + DISABLED)
        self.purpose = ""
        self.subject: object = None
        self.buttons: list[QPushButton] = []
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.note = QLabel(self)
        self.note.setObjectName("rtopNote")
        self.note.setWordWrap(True)
        self.row = QHBoxLayout()
        self.row.setSpacing(8)
        self.row.setAlignment(Qt.AlignmentFlag.AlignLeft)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 10, 12, 12)
        column.setSpacing(6)
        column.addWidget(self.label)
        column.addWidget(self.note)
        column.addLayout(self.row)
        self.hide()

    def ask(self, purpose: str, subject: object, prompt: str, choices: list[Choice],
            note: str, at: QPoint, text_px: float, below: bool = False,
            room: int = 0) -> None:
        """Show ``choices`` centred above the point ``at`` (or below it), at most
        ``room`` wide where that holds its buttons (the stage's width: the piles and
        the direction beside it stay in sight)."""
        for button in self.buttons:
            self.row.removeWidget(button)
            button.hide()  # gone now, not only once the event loop deletes it
            button.deleteLater()
        self.buttons = []
        self.purpose, self.subject = purpose, subject
        self.label.setFont(look.font(text_px * 1.05, bold=True))
        self.label.setText(prompt)
        self.note.setFont(look.font(text_px * 0.95))
        self.note.setText(note)
        self.note.setVisible(bool(note))
        for i, choice in enumerate(choices):
            label = choice.label if i >= 9 else \
                _("{choice} ({key})").format(choice=choice.label, key=i + 1)
            button = QPushButton(label, self)
            button.setAccessibleName(choice.label)
            if choice.why:
                button.setAccessibleDescription(choice.why)
            button.setFont(look.font(text_px * 1.05, bold=True))
            button.setEnabled(choice.enabled)
            if choice.why:
                button.setToolTip(choice.why)
            button.clicked.connect(lambda _=False, key=choice.key: self.chosen.emit(key))
            self.row.addWidget(button)
            self.buttons.append(button)
        cancel = QPushButton(_("{choice} ({key})").format(choice=_("Cancel"), key=_("Esc")),
                             self)
        cancel.setAccessibleName(_("Cancel"))
        cancel.setFont(look.font(text_px * 0.95))
        cancel.clicked.connect(self.cancelled.emit)
        self.row.addWidget(cancel)
        self.buttons.append(cancel)
        parent = self.parentWidget()
        bounds = parent.rect() if parent else self.rect()
        self.label.setMinimumWidth(0)
        wanted = sum(b.sizeHint().width() for b in self.buttons) \
            + self.row.spacing() * (len(self.buttons) - 1)
        limit = bounds.width() - 32
        if room > 0:  # beside the stage: the direction of play and the piles in sight
            limit = min(limit, room - 32)
        if wanted > limit:  # the keys' marks go first (the keys still work, F1 says)
            cancel.setText(_("Cancel"))
            for button in self.buttons[:-1]:
                button.setText(button.accessibleName())
        self._size_to(bounds.width() - 8, room)
        x = at.x() - self.width() // 2
        if 0 < self.width() <= room:  # kept within the stage (``at`` is its foot)
            x = max(at.x() - room // 2, min(x, at.x() + room // 2 - self.width()))
        y = at.y() + 10 if below else at.y() - self.height() - 10
        x = max(4, min(x, bounds.width() - self.width() - 4))
        y = max(4, min(y, bounds.height() - self.height() - 4))
        self.move(x, y)
        self.show()
        self.raise_()
        first = next((b for b in self.buttons if b.isEnabled()), self.buttons[-1])
        first.setFocus(Qt.FocusReason.OtherFocusReason)

    def take_key(self, event: QKeyEvent) -> bool:
        """1-9 take a choice, Esc cancels: True if ``event`` was one of them (the table
        hands them over wherever on it the focus is: ``keys.choice_keys``)."""
        index = event.key() - Qt.Key.Key_1
        if 0 <= index < min(9, len(self.buttons) - 1) and not event.modifiers() & HELD:
            if self.buttons[index].isEnabled():
                self.buttons[index].click()
            return True
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            return True
        return False

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """1-9 take a choice, the arrows go from button to button, Esc cancels (Enter
        and Space press the button with the focus)."""
        if event is None or self.take_key(event):
            return
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Up: -1, Qt.Key.Key_Right: 1,
                Qt.Key.Key_Down: 1}.get(Qt.Key(event.key()))
        live = [b for b in self.buttons if b.isEnabled()]
        focus = QApplication.focusWidget()
        if step is not None and focus in live:
            at = live.index(focus)
            live[(at + step) % len(live)].setFocus(Qt.FocusReason.TabFocusReason)
            return
        super().keyPressEvent(event)

    def setVisible(self, visible: bool) -> None:
        """Closing with the focus inside gives it back to the table."""
        focus = QApplication.focusWidget()
        inside = not visible and focus is not None and self.isAncestorOf(focus)
        super().setVisible(visible)
        if inside:
            table = self.parentWidget()
            while table is not None and not table.property("table"):
                table = table.parentWidget()
            if table is not None:
                table.setFocus(Qt.FocusReason.OtherFocusReason)

    def showEvent(self, event: QShowEvent | None) -> None:
        super().showEvent(event)
        self.opened.emit(True)

    def hideEvent(self, event: QHideEvent | None) -> None:
        super().hideEvent(event)
        self.opened.emit(False)

    def _size_to(self, room: int, wanted_room: int = 0) -> None:
        """As wide as its buttons or its words want (the words on one line where they
        can, wrapped at the table's width at most), never narrower than its longest
        word: a wrapping label left to Qt's own guess once made a 100 px column, one
        word a line, with slivers of buttons. Buttons too many for one row stand in a
        column."""
        column = self.layout()
        assert column is not None
        margins = column.contentsMargins()
        self.ensurePolished()
        frame = self.contentsMargins()  # the style sheet's border
        side = margins.left() + margins.right() + frame.left() + frame.right()
        for widget in (self.label, self.note, *self.buttons):
            widget.ensurePolished()  # the style sheet's padding and bold type count
        wanted = [b.sizeHint().width() for b in self.buttons]
        row = sum(wanted) + self.row.spacing() * max(0, len(wanted) - 1)
        across = min(room, wanted_room) if wanted_room > 0 else room
        self.row.setDirection(QBoxLayout.Direction.LeftToRight if row + side <= across
                              else QBoxLayout.Direction.TopToBottom)
        if row + side > across:
            row = max(wanted, default=0)
        words = max(_one_line(self.label), _one_line(self.note) if self.note.text() else 0)
        longest = max(_longest_word(self.label), _longest_word(self.note))
        soft = min(room, wanted_room) if wanted_room > 0 else round(room * 0.7)
        width = max(320, row + side, min(words + side, soft), longest + side)
        width = min(width, max(room, 200))
        self.setFixedWidth(width)
        column.activate()
        self.setFixedHeight(max(column.totalHeightForWidth(width),
                                column.totalMinimumSize().height())
                            + frame.top() + frame.bottom())
    def button(self, label: str) -> QPushButton:
        """The button labelled ``label`` (for tests and keys)."""
        for button in self.buttons:
            if label in (button.text(), button.accessibleName()):
                return button
        raise KeyError(label)


def _one_line(label: QLabel) -> int:
    """How wide ``label``'s text is on one line (its widest line)."""
    metrics = QFontMetrics(label.font())
    return max((metrics.horizontalAdvance(line) for line in label.text().splitlines()),
               default=0)


def _longest_word(label: QLabel) -> int:
    metrics = QFontMetrics(label.font())
    return max((metrics.horizontalAdvance(word) for word in label.text().split()), default=0)
