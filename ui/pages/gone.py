"""The page for a table that is gone: the host closed, we were removed, the network
is down. It says why and leads back to Home."""

from __future__ import annotations

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from ui.look.widgets import Card, button, label
from ui.words.i18n import _


class GonePage(QWidget):
    """The table is gone (host closed, we were removed, the network is down)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        card = Card(margin=30)
        card.setMinimumWidth(520)
        self.title = label(_("The room was closed"), "title")
        card.body.addWidget(self.title)
        self.reason = label("", "big", wrap=True)
        card.body.addWidget(self.reason)
        self.home = button(_("Back to Home"), "primary")
        self.home.setMinimumHeight(42)
        card.body.addWidget(self.home, 0, Qt.AlignmentFlag.AlignRight)
        row.addWidget(card)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)

    def say(self, reason: str, title: str = "") -> None:
        self.title.setText(title or _("The room was closed"))
        self.reason.setText(reason + " " + _("Go back to Home to find or host another game."))
