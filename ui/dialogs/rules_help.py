"""F1: the rules of the game being played, from the game module's own help text, in
the window's language (``help.<lang>.md`` beside ``help.md``, ``lanplay.locale.help_path``)."""

from __future__ import annotations

from PyQt6.QtWidgets import QDialog, QHBoxLayout, QTextBrowser, QVBoxLayout, QWidget

from lanplay import games, teaching
from ui.look.widgets import button
from ui.words.i18n import N_, _, content, language

TABLE_KEYS = ((N_("Tab, arrows"), N_("from piece to piece on the table, then to its buttons")),
              (N_("Enter or Space"), N_("take the piece or press the button that has the "
                                        "focus")))
"""Every table's: its pieces are reached like buttons (``ui.tables.keys``)."""
WINDOW_KEYS = ((N_("F1"), N_("these rules")),
               (N_("Enter"), N_("with nothing chosen on the table: open the chat; in the chat "
                                "line: send what you typed")),
               (N_("Esc"), N_("close the chat, a dialog, these rules or a replay")),
               (N_("Ctrl + plus, Ctrl + minus"), N_("larger or smaller text; Ctrl + 0 the usual")))
"""English, marked: a table's ``KEYS`` are too; ``keys_markdown`` translates them."""


def rules_text(game_id: str, lang: str | None = None) -> str:
    """The game's rules help in ``lang`` (default: the window's), English where there is
    no translation (``lanplay.teaching``: the page's "Rules" reads the same)."""
    return teaching.rules_text(game_id, lang or language())


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
    rows = [*game_keys(game_id), *TABLE_KEYS, *WINDOW_KEYS]
    lines = ["## " + _("Keys"), ""]
    lines += [f"- **{_(key)}**: {_(what)}" for key, what in rows]
    return "\n".join(lines) + "\n"


class RulesDialog(QDialog):
    """Non-modal, so the table stays visible and playable beside it; Esc closes."""

    def __init__(self, game_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        game = games.load(game_id)
        self.setWindowTitle(_("Rules: {game}").format(game=content("game", game_id, game.name)))
        self.resize(640, 720)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setMarkdown(rules_text(game_id) + "\n\n" + keys_markdown(game_id))
        document = self.text.document()
        if document is not None:
            document.setDocumentMargin(14)
        layout.addWidget(self.text, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        close = button(_("Close"))
        close.clicked.connect(self.close)
        row.addWidget(close)
        layout.addLayout(row)
