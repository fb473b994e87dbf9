"""Resume a game: the unfinished saves on this laptop, newest first.

A host that crashed (or a laptop that lost power) left its game saved; this
lists those games so the host picks one and the room reopens where it was.
The dialog stays open while the window resumes and shows why it could not,
in one sentence, under the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

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

from lanplay.store.listing import SaveInfo
from ui.look.widgets import dialog_buttons, label
from ui.words.game_words import game_name, when
from ui.words.i18n import N_, _

COLUMNS = (N_("Game"), N_("Players"), N_("Moves"), N_("Last played"))


class ResumeDialog(QDialog):
    resume = pyqtSignal(object)
    """Path of the save to resume; the window answers with ``failed`` or closes us."""

    def __init__(self, infos: Sequence[SaveInfo], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Resume a game"))
        self.setMinimumSize(640, 360)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(10)
        layout.addWidget(label(_("Resume a game"), "heading"))
        layout.addWidget(label(_("Games hosted on this laptop that did not finish. The room "
                                 "reopens where it stopped; the other players get back in "
                                 "by themselves."), "muted", wrap=True))
        self.games = QTreeWidget()
        self.games.setColumnCount(len(COLUMNS))
        self.games.setHeaderLabels([_(c) for c in COLUMNS])
        self.games.setRootIsDecorated(False)
        self.games.setUniformRowHeights(True)
        self.games.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.games.setAlternatingRowColors(True)
        header = self.games.header()
        assert header is not None
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for col in (0, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        for info in infos:
            item = QTreeWidgetItem([game_name(info.game), ", ".join(info.players),
                                    str(info.actions), when(info.updated)])
            item.setData(0, Qt.ItemDataRole.UserRole, str(info.path))
            item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight
                                  | Qt.AlignmentFlag.AlignVCenter)
            self.games.addTopLevelItem(item)
        first = self.games.topLevelItem(0)
        if first is not None:
            self.games.setCurrentItem(first)
        self.games.itemDoubleClicked.connect(lambda *_: self._try())
        self.games.itemSelectionChanged.connect(self._selection_changed)
        layout.addWidget(self.games, 1)
        self.error = label("", "error", wrap=True)
        layout.addWidget(self.error)
        row, self.ok = dialog_buttons(_("Resume"), self._try, self.reject)
        layout.addLayout(row)
        self._selection_changed()

    def selected(self) -> Path | None:
        items = self.games.selectedItems()
        if not items:
            return None
        return Path(str(items[0].data(0, Qt.ItemDataRole.UserRole)))

    def _selection_changed(self) -> None:
        self.ok.setEnabled(self.selected() is not None and not self._busy)

    _busy = False

    def _try(self) -> None:
        path = self.selected()
        if path is None or self._busy:
            return
        self._busy = True
        self.ok.setEnabled(False)
        self.error.setText(_("Reopening the room\u2026"))

        self.resume.emit(path)

    def failed(self, reason: str) -> None:
        """The resume did not work: say why, and let the host pick again or cancel."""
        self._busy = False
        self.error.setText(reason)
        self._selection_changed()


__all__ = ["ResumeDialog", "when"]
