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
from ui.look import icons
from ui.look.widgets import dialog_buttons, label
from ui.words.i18n import N_, _

COLOUR_NAMES = {"#E69F00": N_("orange"), "#56B4E9": N_("sky blue"), "#009E73": N_("green"),
                "#F0E442": N_("yellow"), "#0072B2": N_("blue"), "#D55E00": N_("vermilion"),
                "#CC79A7": N_("purple"), "#FFFFFF": N_("white")}
"""English, marked: ``colour_name`` says them in the window's language."""


def colour_name(colour: str) -> str:
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


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
        self.setWindowTitle(_("Welcome to lanplay") if first else _("Your name and colour"))
        self.setMinimumWidth(660)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(28, 24, 28, 24)
        layout.setSpacing(12)
        if first:
            layout.addWidget(label(_("Welcome!"), "title"))
            layout.addWidget(label(_("How should the others at the table see you?"), "muted"))
        layout.addWidget(label(_("Your name"), "heading"))
        self.name = QLineEdit(name or suggested_name())
        self.name.setMaxLength(24)
        self.name.setPlaceholderText(_("For example Mia"))
        self.name.textChanged.connect(self._check)
        layout.addWidget(self.name)
        layout.addWidget(label(_("Your colour"), "heading"))
        grid = QGridLayout()
        grid.setSpacing(8)
        self.colours = QButtonGroup(self)
        self.colours.setExclusive(True)
        for i, c in enumerate(PALETTE[:-1]):
            b = QPushButton(colour_name(c))
            b.setCheckable(True)
            b.setAutoDefault(False)  # Enter after picking a colour means "Let's play"
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
        self._badges()
        self.name.textChanged.connect(self._badges)
        layout.addWidget(label(_("The host gives you another colour if yours is taken."),
                               "muted", wrap=True))
        self.error = label("", "error")
        layout.addWidget(self.error)
        row, self.ok = dialog_buttons(_("Let's play") if first else _("Save"), self._accept,
                                      None if first else self.reject)
        layout.addLayout(row)
        self._check()

    def _badges(self) -> None:
        """Each colour shows your own badge in it (your initial), as the table will: a
        colour's own initial told nothing and collided ("A" for amarillo and azul)."""
        name = self.name.text().strip() or "?"
        for button in self.colours.buttons():
            colour = str(button.property("colour"))
            button.setIcon(QIcon(icons.badge_pixmap(name, colour, 28)))

    def colour(self) -> str:
        checked = self.colours.checkedButton()
        return str(checked.property("colour")) if checked is not None else PALETTE[0]

    def _check(self) -> None:
        self.ok.setEnabled(bool(self.name.text().strip()))

    def _accept(self) -> None:
        name = self.name.text().strip()
        if not name:
            self.error.setText(_("Type a name so the others know who you are."))

            return
        self.chosen.emit(name, self.colour())
        self.accept()
