"""A plain stand-in table, used only when a game has no table widget yet.

It keeps the window usable (and testable) for any game: it lists the view's
hand as buttons and sends a ``play`` for the one clicked. It follows the same
contract as the real tables (``ui/tables/__init__.py``).
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import pyqtSignal
from PyQt6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from ui.look.widgets import label
from ui.words.i18n import _

ROMAN = ("I", "II", "III", "IV", "V")


class PlaceholderTable(QWidget):
    intent = pyqtSignal(dict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(30, 30, 30, 30)
        self.status = label("", "heading", wrap=True)
        layout.addWidget(self.status)
        self.board = label("", wrap=True)
        layout.addWidget(self.board)
        layout.addStretch(1)
        self.note = label("", "error", wrap=True)
        layout.addWidget(self.note)
        self.hand = QHBoxLayout()
        layout.addLayout(self.hand)
        self.buttons: dict[int, QPushButton] = {}

    def set_view(self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
                 animate: bool = True) -> None:
        names = [str(s.get("name", _("Seat {n}").format(n=i + 1))) for i, s in enumerate(seats)]
        turn = view.get("turn")
        if view.get("over"):
            self.status.setText(_("The game is over."))
        elif turn is None:
            self.status.setText(_("Waiting."))
        elif turn == you:
            self.status.setText(_("Your turn: play a card."))
        else:
            who = names[turn] if isinstance(turn, int) and 0 <= turn < len(names) else "?"
            self.status.setText(_("Waiting for {name}.").format(name=who))
        ranking = view.get("ranking") or []
        up = " ".join(ROMAN[i] for i, r in enumerate(ranking) if r and i < len(ROMAN))
        self.board.setText(_("Ranking cards up: {up} \u00b7 pile: {pile}").format(
            up=up or _("none"), pile=view.get("pile")))
        while self.hand.count():
            item = self.hand.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons = {}
        mine = turn == you and not view.get("over")
        for card in view.get("hand") or []:
            numerals = [n for n in card.get("numerals", []) if 0 < n <= len(ranking)
                        and ranking[n - 1]]
            text = f"{card['value']} ({', '.join(ROMAN[n - 1] for n in card['numerals'])})" \
                if card.get("numerals") else str(card["value"])
            b = QPushButton(text)
            b.setEnabled(mine)
            numeral = numerals[0] if len(numerals) > 1 else None
            action: dict[str, Any] = {"type": "play", "card": card["id"]}
            if numeral is not None:
                action["numeral"] = numeral
            b.clicked.connect(lambda _=False, a=action: self.intent.emit(dict(a)))
            self.hand.addWidget(b)
            self.buttons[int(card["id"])] = b

    def show_rejection(self, reason: str) -> None:
        self.note.setText(reason)
