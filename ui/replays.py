"""Replays in the window: the list of finished games, and keeping the game just played.

``ReplaysDialog`` lists the finished games on this laptop (the history of the
games it hosted and the audits it kept of the games it played or watched:
game, players, date, result) and opens the one picked in a ``ReplayWindow``.
``LastGame`` keeps, at each game's end, the audit this laptop received: in
memory, for the end screen's "Replay", and in ``audits/`` of the data
directory (written off the event loop), so the game can be replayed later
even by a player who did not host it.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Coroutine, Mapping, Sequence
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
from lanplay.replay.model import Replay, ReplayError
from protocol.messages import Audit
from ui.home import game_name
from ui.i18n import N_, _
from ui.replay_window import ReplayWindow
from ui.result_words import result_words
from ui.resume_dialog import when
from ui.widgets import dialog_buttons, label

log = logging.getLogger(__name__)

COLUMNS = (N_("Game"), N_("Players"), N_("Played"), N_("Result"))
EMPTY = N_("No finished game on this laptop yet. Every game played to its end here, "
           "hosted or joined, can be gone over move by move.")
Spawn = Callable[[Coroutine[Any, Any, Any]], Any]


class LastGame:
    """The game this window just played, for "Replay" now and the list later."""

    def __init__(self) -> None:
        self.record: dict[str, Any] | None = None
        self.path: Path | None = None

    def keep(self, audit: Audit, seats: Sequence[Mapping[str, Any]], you: int | None,
             result: Mapping[str, Any] | None, verdict: str, host: str,
             root: str | os.PathLike[str] | None, spawn: Spawn) -> None:
        """Note the game's audit; write it into the data directory in a worker thread."""
        self.record = files.audit_record(audit, seats, you, result, verdict, host)
        self.path = None
        record = self.record

        async def write() -> None:
            try:
                path = await asyncio.to_thread(files.keep_audit, audit, seats, you, result,
                                               verdict, host, root, record["saved"])
            except OSError as exc:  # the game is over: a full disk costs only the replay
                log.warning("Could not keep this game for replays (%s).",
                            exc.strerror or exc)
                return
            if self.record is record:
                self.path = path

        spawn(write())

    def replay(self) -> Replay:
        """The game just played; ReplayError if there is none or it does not replay."""
        if self.record is None:
            raise ReplayError(_("There is no finished game to replay yet."))
        title = _("The game just played")
        return Replay(files.from_record(self.record, title), title)


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
            item = QTreeWidgetItem([game_name(game.game), players,
                                    when(game.played) if game.played else "",
                                    result_words(game.outcome, game.players, False)
                                    or game.result])
            item.setData(0, Qt.ItemDataRole.UserRole, str(game.path))
            item.setToolTip(1, players)
            item.setToolTip(3, result_words(game.outcome, game.players) or game.scores)
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


def open_replay(parent: QWidget, replay: Replay, seat: int | None = None) -> ReplayWindow:
    """A window of its own for ``replay`` (the game's room stays as it is behind it)."""
    window = ReplayWindow(replay, parent, seat)
    window.show()
    window.raise_()
    window.activateWindow()
    return window


def open_file(parent: QWidget, path: Path) -> ReplayWindow:
    """The replay of a file of the list; ReplayError says why there is none."""
    return open_replay(parent, files.open_replay(path))


__all__ = ["LastGame", "ReplaysDialog", "open_file", "open_replay"]
