"""F1: the rules of the game being played, from the game module's own help text."""

from __future__ import annotations

from PyQt6.QtWidgets import QDialog, QHBoxLayout, QTextBrowser, QVBoxLayout, QWidget

from lanplay import games
from ui.widgets import button


class RulesDialog(QDialog):
    """Non-modal, so the table stays visible and playable beside it; Esc closes."""

    def __init__(self, game_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        game = games.load(game_id)
        self.setWindowTitle(f"Rules: {game.name}")
        self.resize(640, 720)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setMarkdown(game.rules_help)
        document = self.text.document()
        if document is not None:
            document.setDocumentMargin(14)
        layout.addWidget(self.text, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        close = button("Close")
        close.clicked.connect(self.close)
        row.addWidget(close)
        layout.addLayout(row)
