"""Help -> Replays: the list of finished games on this laptop.

``ReplaysDialog`` lists the history of the games this laptop hosted and the
audits it kept of the games it played or watched (game, players, date,
result) and says which one was picked; the window opens it in a
``ReplayWindow`` (``ui.window.dialogs``), and the game just played is kept by
``ui.services.last_game``.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from lanplay.replay import files
from ui.look.widgets import dialog_buttons, label
from ui.words.game_words import game_and_mode, when
from ui.words.i18n import N_, _
from ui.words.result_words import result_words

log = logging.getLogger(__name__)

COLUMNS = (N_("Game"), N_("Players"), N_("Played"), N_("Result"))
EMPTY = N_("No finished game on this laptop yet. Every game played to its end here, "
           "hosted or joined, can be gone over move by move.")
FAILED = N_("{result} (failed this laptop's check)")
"""A kept audit whose check at the game's end found that it does not add up."""
CHECKED = N_("This laptop's check of the game at its end: {verdict}")
Spawn = Callable[[Coroutine[Any, Any, Any]], Any]


class ReplaysDialog(QDialog):
    chosen = pyqtSignal(object)
    """The path of the game to replay; the window answers with ``failed`` or closes us."""

    def __init__(self, listed: Sequence[files.Listing], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Replays"))
        # Wide enough for a full table's names at any text size (the window may enlarge it).
        self.setMinimumSize(max(760, self.fontMetrics().averageCharWidth() * 100), 420)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(10)
        layout.addWidget(label(_("Replays"), "heading"))
        layout.addWidget(label(_("Finished games on this laptop: those it hosted, and those "
                                 "it played or watched. Go over one move by move, from any "
                                 "seat, or with every hand open."), "muted", wrap=True))
        self.games = QTreeWidget()
        self.games.setColumnCount(len(COLUMNS))
        self.games.setHeaderLabels([_(c) for c in COLUMNS])
        self.games.setRootIsDecorated(False)
        self.games.setUniformRowHeights(False)
        self.games.setWordWrap(True)  # long player lists and results take two lines
        self.games.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.games.setAlternatingRowColors(True)
        header = self.games.header()
        assert header is not None
        header.setStretchLastSection(False)
        for col in (0, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        for col in (1, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        for game in listed:
            players = ", ".join(_("{name} (you)").format(name=n) if i == game.you else n
                                for i, n in enumerate(game.players))
            won = result_words(game.outcome, game.players, False) or game.result
            scores = result_words(game.outcome, game.players) or game.scores
            if game.failed:  # said as clearly as the result: the host's word is doubtful
                won = _(FAILED).format(result=won)
                scores = "<p>{}</p><p>{}</p>".format(html.escape(scores), html.escape(
                    _(CHECKED).format(verdict=game.verdict)))
            item = QTreeWidgetItem([game_and_mode(game.game, game.mode), players,
                                    when(game.played) if game.played else "", won])
            item.setData(0, Qt.ItemDataRole.UserRole, str(game.path))
            item.setToolTip(1, players)
            item.setToolTip(3, scores)
            self.games.addTopLevelItem(item)
        first = self.games.topLevelItem(0)
        if first is not None:
            self.games.setCurrentItem(first)
        self.games.itemDoubleClicked.connect(lambda *_: self._try())
        self.games.itemSelectionChanged.connect(self._selection_changed)
        layout.addWidget(self.games, 1)
        self.empty = label(_(EMPTY), "muted", wrap=True)
        self.empty.setVisible(not listed)
        self.games.setVisible(bool(listed))
        layout.addWidget(self.empty, 1)
        self.error = label("", "error", wrap=True)
        layout.addWidget(self.error)
        row, self.ok = dialog_buttons(_("Replay"), self._try, self.reject)
        layout.addLayout(row)
        self._selection_changed()

    def selected(self) -> Path | None:
        items = self.games.selectedItems()
        if not items:
            return None
        return Path(str(items[0].data(0, Qt.ItemDataRole.UserRole)))

    def _selection_changed(self) -> None:
        self.ok.setEnabled(self.selected() is not None)

    def _try(self) -> None:
        path = self.selected()
        if path is not None:
            self.error.setText("")
            self.chosen.emit(path)

    def failed(self, reason: str) -> None:
        """That game cannot be replayed: say why; another may be picked."""
        self.error.setText(reason)


__all__ = ["ReplaysDialog"]
