"""F1: the rules of the game being played, from the game module's own help text."""

from __future__ import annotations

from PyQt6.QtWidgets import QDialog, QHBoxLayout, QTextBrowser, QVBoxLayout, QWidget

from lanplay import games
from ui.widgets import button

WINDOW_KEYS = (("F1", "these rules"), ("Enter", "in the chat line: send what you typed"),
               ("Ctrl + plus, Ctrl + minus", "larger or smaller text; Ctrl + 0 the usual"))


def game_keys(game_id: str) -> tuple[tuple[str, str], ...]:
    """The keys a game's table answers to (its table's ``KEYS``)."""
    try:
        from ui.tables import table_for

        keys: tuple[tuple[str, str], ...] = tuple(getattr(table_for(game_id), "KEYS", ()))
    except (ImportError, KeyError):
        return ()
    return keys


def keys_markdown(game_id: str) -> str:
    """The keys, the game's first, as a section at the end of the rules."""
    rows = [*game_keys(game_id), *WINDOW_KEYS]
    lines = ["## Keys", ""]
    lines += [f"- **{key}**: {what}" for key, what in rows]
    return "\n".join(lines) + "\n"


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
        self.text.setMarkdown(game.rules_help + "\n\n" + keys_markdown(game_id))
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
