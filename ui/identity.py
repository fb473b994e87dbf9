"""The first-run question, and later its edit: your name and your colour."""

from __future__ import annotations

import getpass

from PyQt6.QtCore import QSize, pyqtSignal
from PyQt6.QtGui import QIcon
from PyQt6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QGridLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from lanplay.room import PALETTE
from ui import icons
from ui.widgets import dialog_buttons, label

COLOUR_NAMES = {"#E69F00": "orange", "#56B4E9": "sky blue", "#009E73": "green",
                "#F0E442": "yellow", "#0072B2": "blue", "#D55E00": "vermilion",
                "#CC79A7": "purple", "#999999": "grey"}


def suggested_name() -> str:
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        return ""
    return "" if name in ("root", "user") else name.capitalize()[:24]


class IdentityDialog(QDialog):
    """Asks for a name and a colour, nothing else (UX: first-run state)."""

    chosen = pyqtSignal(str, str)

    def __init__(self, name: str, colour: str, first: bool,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Welcome to lanplay" if first else "Your name and colour")
        self.setMinimumWidth(660)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(28, 24, 28, 24)
        layout.setSpacing(12)
        if first:
            layout.addWidget(label("Welcome!", "title"))
            layout.addWidget(label("How should the others at the table see you?", "muted"))
        layout.addWidget(label("Your name", "heading"))
        self.name = QLineEdit(name or suggested_name())
        self.name.setMaxLength(24)
        self.name.setPlaceholderText("For example Mia")
        self.name.textChanged.connect(self._check)
        layout.addWidget(self.name)
        layout.addWidget(label("Your colour", "heading"))
        grid = QGridLayout()
        grid.setSpacing(8)
        self.colours = QButtonGroup(self)
        self.colours.setExclusive(True)
        for i, c in enumerate(PALETTE[:-1]):
            b = QPushButton(COLOUR_NAMES.get(c, c))
            b.setCheckable(True)
            b.setAutoDefault(False)  # Enter after picking a colour means "Let's play"
            b.setIcon(QIcon(icons.badge_pixmap(COLOUR_NAMES.get(c, "?"), c, 28)))
            b.setIconSize(QSize(24, 24))
            b.setProperty("colour", c)
            b.setChecked(c == colour)
            self.colours.addButton(b, i)
            grid.addWidget(b, i // 4, i % 4)
        if self.colours.checkedButton() is None:
            first_button = self.colours.button(0)
            if first_button is not None:
                first_button.setChecked(True)
        layout.addLayout(grid)
        layout.addWidget(label("The host gives you another colour if yours is taken.",
                               "muted", wrap=True))
        self.error = label("", "error")
        layout.addWidget(self.error)
        row, self.ok = dialog_buttons("Let's play" if first else "Save", self._accept,
                                      None if first else self.reject)
        layout.addLayout(row)
        self._check()

    def colour(self) -> str:
        checked = self.colours.checkedButton()
        return str(checked.property("colour")) if checked is not None else PALETTE[0]

    def _check(self) -> None:
        self.ok.setEnabled(bool(self.name.text().strip()))

    def _accept(self) -> None:
        name = self.name.text().strip()
        if not name:
            self.error.setText("Type a name so the others know who you are.")
            return
        self.chosen.emit(name, self.colour())
        self.accept()
