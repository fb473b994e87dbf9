"""Help -> Pictures: every picture, question and topic in play, and the pack it comes from.

Also the place a group learns about custom packs: packs that failed to load
are listed with their reasons, and a button opens the folder packs go in.
Pictures are drawn from their SVG (QtSvg) or PNG files, never from a font,
so they look the same on every laptop.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PyQt6 import sip
from PyQt6.QtCore import QSize, Qt, QUrl
from PyQt6.QtGui import QDesktopServices, QIcon, QImage
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from lanplay.content import Discovery, Library, Picture, about_text, builtin, discover
from lanplay.content.axes import AXES
from lanplay.content.model import Weights
from lanplay.content.packs import packs_dir
from ui.look import picture_render
from ui.look.tiles import tile_inset, tile_of
from ui.look.widgets import button, label
from ui.words.i18n import N_, _, content, ngettext

ICON = 80
SIDE_NAMES = {"red": N_("Red"), "blue": N_("Blue"), "": N_("Both")}


def describe(weights: Weights) -> str:
    """``value``, ``less size``, or ``cuteness +1, danger -1``, in the window's language."""
    if not weights:
        return _("no axis (bots guess)")
    if len(weights) == 1:
        name, weight = weights[0]
        axis = content("axis", name, name)
        return axis if weight > 0 else _("less {axis}").format(axis=axis)
    return ", ".join(f"{content('axis', name, name)} {weight:+g}" for name, weight in weights)


def picture_name(picture: Picture) -> str:
    """A picture's name in the window's language (a pack's own stays as written)."""
    return content("picture", picture.id, picture.name)


def _pack_names(library: Library) -> dict[str, str]:
    return {p.id: (_("built-in") if p.builtin else p.name) for p in library.packs}


def _tooltip(picture: Picture, pack_name: str) -> str:
    lines = [f"<b>{picture_name(picture)}</b>", _("Pack: {pack}").format(pack=pack_name)]
    if picture.category:
        lines.append(_("Kind: {kind}").format(
            kind=content("category", picture.category, picture.category)))
    if picture.scores:
        lines.append(", ".join(f"{content('axis', axis, axis)} {picture.score(axis):g}"
                               for axis in AXES if axis in picture.scores))
    return "<br>".join(lines)


class ContentBrowser(QDialog):
    """Non-modal, so it can stay open beside the table while the game goes on."""

    def __init__(self, library: Library | None = None, found: Discovery | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        if found is None and library is None:
            found = discover()
        if library is None:
            assert found is not None
            library = Library([builtin(), *found.packs])
        self.library = library
        self.found = found
        self._names = _pack_names(library)
        self.setWindowTitle(_("Pictures, questions and topics"))
        self.resize(1100, 760)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        layout.setSpacing(10)

        bar = QHBoxLayout()
        bar.addWidget(label(_("Pack")))
        self.pack_filter = QComboBox()
        self.pack_filter.addItem(_("All packs"), "")
        for pack in library.packs:
            self.pack_filter.addItem(self._names[pack.id], pack.id)
        bar.addWidget(self.pack_filter)
        self.search = QLineEdit()
        self.search.setPlaceholderText(_("Search names and texts"))
        self.search.setClearButtonEnabled(True)
        bar.addWidget(self.search, 1)
        layout.addLayout(bar)

        self.tabs = QTabWidget()
        self.pictures = self._picture_list()
        self.questions = self._table([_("Side"), _("Question"), _("Bots weigh"), _("Pack")],
                                     stretch=1)
        self.topics = self._table([_("Topic"), _("Bots weigh"), _("Pack")], stretch=0)
        self._fill_texts()
        self.tabs.addTab(self.pictures, "")
        self.tabs.addTab(self.questions, "")
        self.tabs.addTab(self.topics, "")
        layout.addWidget(self.tabs, 1)

        self.problems = label("", "error", wrap=True)
        self.problems.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.problems)
        if found is not None and found.errors:
            count = len(found.errors)
            lines = [ngettext("{n} pack could not be loaded:", "{n} packs could not be loaded:",
                              count).format(n=count)]
            lines += [f"• {error}" for error in found.errors]
            self.problems.setText("\n".join(lines))
        else:
            self.problems.hide()

        self.credits = label(about_text(), "muted", wrap=True)
        layout.addWidget(self.credits)
        row = QHBoxLayout()
        folder = button(_("Open the packs folder"))
        folder.setToolTip(_("Put a pack folder (with its pack.toml) in {folder}").format(
            folder=packs_dir()))
        folder.clicked.connect(self._open_packs_folder)
        row.addWidget(folder)
        row.addStretch(1)
        close = button(_("Close"))
        close.clicked.connect(self.close)
        row.addWidget(close)
        layout.addLayout(row)

        self.pack_filter.currentIndexChanged.connect(self._apply_filter)
        self.search.textChanged.connect(self._apply_filter)
        self._apply_filter()

    # --- building ----------------------------------------------------------------

    def _picture_list(self) -> QListWidget:
        view = QListWidget()
        view.setViewMode(QListView.ViewMode.IconMode)
        view.setIconSize(QSize(ICON, ICON))
        view.setGridSize(QSize(ICON + 56, ICON + 52))
        view.setResizeMode(QListView.ResizeMode.Adjust)
        view.setMovement(QListView.Movement.Static)
        view.setWordWrap(True)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        renderer = picture_render.shared()
        inner = ICON - 2 * tile_inset(ICON)
        for row, picture in enumerate(self.library.pictures.values()):
            name = picture_name(picture)
            text = name
            if picture.pack != "builtin":
                text += f"\n({self._names.get(picture.pack, picture.pack)})"
            # The name until the picture is drawn (off the GUI thread; never, if
            # it is refused or too slow to draw).
            item = QListWidgetItem(QIcon(tile_of(None, ICON, name)), text)
            renderer.request(picture, inner, partial(self._drawn, view, row, name))
            item.setData(Qt.ItemDataRole.UserRole, (picture.pack, name.casefold()))
            item.setToolTip(_tooltip(picture, self._names.get(picture.pack, picture.pack)))
            item.setTextAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
            view.addItem(item)
        return view

    @staticmethod
    def _drawn(view: QListWidget, row: int, name: str, image: QImage | None) -> None:
        if sip.isdeleted(view) or image is None:  # closed meanwhile, or no picture
            return
        item = view.item(row)
        if item is not None:
            item.setIcon(QIcon(tile_of(image, ICON, name)))

    def _table(self, headers: list[str], stretch: int) -> QTableWidget:
        table = QTableWidget(0, len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setAlternatingRowColors(True)
        table.setWordWrap(True)
        vertical = table.verticalHeader()
        if vertical is not None:
            vertical.hide()
        header = table.horizontalHeader()
        if header is not None:
            for column in range(len(headers)):
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
            header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
        return table

    def _fill_texts(self) -> None:
        questions = [q for p in self.library.packs for q in p.questions]
        self.questions.setRowCount(len(questions))
        for row, question in enumerate(questions):
            side = SIDE_NAMES.get(question.side)
            text = content("question", question.id, question.text)
            cells = [_(side) if side is not None else question.side, text,
                     describe(question.weights), self._names.get(question.pack, "")]
            self._set_row(self.questions, row, cells, question.pack, text)
        topics = [t for p in self.library.packs for t in p.topics]
        self.topics.setRowCount(len(topics))
        for row, topic in enumerate(topics):
            text = content("topic", topic.id, topic.text)
            cells = [text, describe(topic.weights), self._names.get(topic.pack, "")]
            self._set_row(self.topics, row, cells, topic.pack, text)

    @staticmethod
    def _set_row(table: QTableWidget, row: int, cells: list[str], pack: str,
                 text: str) -> None:
        for column, value in enumerate(cells):
            item = QTableWidgetItem(value)
            if column == 0:
                item.setData(Qt.ItemDataRole.UserRole, (pack, text.casefold()))
            table.setItem(row, column, item)

    # --- filtering ---------------------------------------------------------------

    def _apply_filter(self) -> None:
        pack = self.pack_filter.currentData() or ""
        needle = self.search.text().strip().casefold()

        def shown(data: tuple[str, str]) -> bool:
            return (not pack or data[0] == pack) and needle in data[1]

        pictures = 0
        for index in range(self.pictures.count()):
            item = self.pictures.item(index)
            if item is not None:
                visible = shown(item.data(Qt.ItemDataRole.UserRole))
                item.setHidden(not visible)
                pictures += visible
        counts = [pictures]
        for table in (self.questions, self.topics):
            visible_rows = 0
            for row in range(table.rowCount()):
                first = table.item(row, 0)
                visible = first is not None and shown(first.data(Qt.ItemDataRole.UserRole))
                table.setRowHidden(row, not visible)
                visible_rows += visible
            counts.append(visible_rows)
        names = (_("Pictures ({n})"), _("Questions ({n})"), _("Topics ({n})"))
        for tab, (name, count) in enumerate(zip(names, counts, strict=True)):
            self.tabs.setTabText(tab, name.format(n=count))

    def _open_packs_folder(self) -> None:
        folder: Path = packs_dir()
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
