"""Host a game: pick one from the catalogue, its mode, its options, a password.

Everything shown comes from the game modules (names, player ranges, the
one-line summary, options with their defaults and choices), so a new game
appears here without touching this file. Games not written yet are listed,
greyed, as "coming".
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QEvent, QObject, QSize, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QResizeEvent
from PyQt6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from lanplay import games
from lanplay.content import discover, in_play
from lanplay.game import Game, Option, player_range
from lanplay.host import HostConfig
from ui.look import icons, theme
from ui.look.widgets import Card, dialog_buttons, label, pixmap_label
from ui.services.connection import supports
from ui.words.i18n import _, content, ngettext, pgettext
from ui.words.option_words import choice_words, help_words, label_words


@dataclass(frozen=True)
class HostChoice:
    game: str
    mode: str
    options: dict[str, Any]
    password: str = ""


def _players(lo: int, hi: int) -> str:
    if lo == hi:
        return ngettext("{n} player", "{n} players", lo).format(n=lo)
    return _("{low}-{high} players").format(low=lo, high=hi)


def _relative(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)


def breakable(path: str) -> str:
    """A folder's path that may wrap after each "/" (a zero-width space there): a
    long path is one word, wider than the dialog."""
    return path.replace("/", "/\u200b").replace("\\", "\\\u200b")


class HostDialog(QDialog):
    chosen = pyqtSignal(object)
    """HostChoice: the player pressed Host."""

    def __init__(self, parent: QWidget | None = None, game_id: str | None = None,
                 room: bool = False) -> None:
        """``room``: the owner changes the game of an open room (no password here)."""
        super().__init__(parent)
        self.for_room = room
        self.setWindowTitle(_("Change the game") if room else _("Host a game"))
        self.resize(960, 720)
        self._inputs: dict[str, QWidget] = {}
        self._game: Game | None = None
        self._pack_combo = QComboBox()
        self._pack_notes: list[QWidget] = []
        self._rows: list[tuple[Option, list[QWidget]]] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 20, 24, 20)
        outer.setSpacing(14)
        outer.addWidget(label(_("Change the game") if room else _("Host a game"), "title"))
        body = QHBoxLayout()
        body.setSpacing(18)
        outer.addLayout(body, 1)

        self.list = QListWidget()
        self.list.setIconSize(QSize(40, 40))
        self.list.setMinimumWidth(250)
        self.list.setMaximumWidth(300)
        for e in sorted(games.CATALOGUE, key=lambda e: not e.available):  # playable first
            lo, hi = e.players
            name = content("game", e.id, e.name)
            text = name if e.available else _("{game}  (coming)").format(game=name)
            item = QListWidgetItem(icons.game_icon(e.id, e.available), text)
            item.setData(Qt.ItemDataRole.UserRole, e.id)
            tip = _("{game}: {players}").format(game=name, players=_players(lo, hi))
            item.setToolTip(tip if e.available else
                            _("{game}: {players} (not playable yet)").format(
                                game=name, players=_players(lo, hi)))
            if not e.available:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            self.list.addItem(item)
        body.addWidget(self.list)

        detail = Card()
        body.addWidget(detail, 1)
        head = QHBoxLayout()
        head.setSpacing(16)
        self.picture = pixmap_label(icons.game_pixmap("alles-klar", 96))
        head.addWidget(self.picture, 0, Qt.AlignmentFlag.AlignTop)
        names = QVBoxLayout()
        self.name = label("", "heading")
        self.players = label("", "muted")
        self.summary = label("", wrap=True)
        names.addWidget(self.name)
        names.addWidget(self.players)
        names.addWidget(self.summary)
        names.addStretch(1)
        head.addLayout(names, 1)
        detail.body.addLayout(head)
        # Options scroll rather than squeeze: a game with many options (S-tier)
        # must never clip its help lines.
        scroller = QScrollArea()
        self.scroller = scroller
        # Tab goes from the games to the first option, as in the room's seats: the area
        # itself took the focus between them, with nothing to show it had (a person's
        # Down then scrolled the options instead of choosing the mode), and it scrolls to
        # whatever option has the focus by itself.
        scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        scroller.setWidgetResizable(True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroller.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget "
                               "{ background: transparent; }")
        inner = QWidget()
        self.form = QFormLayout(inner)
        self.form.setContentsMargins(0, 0, 8, 0)
        self.form.setHorizontalSpacing(16)
        self.form.setVerticalSpacing(10)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        scroller.setWidget(inner)
        inner.installEventFilter(self)  # a new width: the wrapped lines measured again
        detail.body.addWidget(scroller, 1)
        self.mode = QComboBox()
        self.mode_help = label("")
        self.password = QLineEdit()
        self.password_supported = supports(HostConfig, "password") and not room

        self.error = label("", "error", wrap=True)
        # translators: the button that opens the room (to host a game)
        row, self.host = dialog_buttons(_("Change") if room else pgettext("button", "Host"),
                                        self._accept,
                                        self.reject, lead=self.error)
        outer.addLayout(row)

        self.list.currentItemChanged.connect(lambda *_: self._show())
        self.select_game(game_id or next((e.id for e in games.CATALOGUE if e.available), ""))
        self._show()

    def select_game(self, game_id: str) -> None:
        """Show ``game_id`` as if the player had clicked it in the list."""
        for i in range(self.list.count()):
            entry = self.list.item(i)
            if entry is not None and entry.data(Qt.ItemDataRole.UserRole) == game_id:
                self.list.setCurrentRow(i)

    # --- the chosen game ------------------------------------------------------------

    def game_id(self) -> str:
        item = self.list.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else ""

    def _show(self) -> None:
        gid = self.game_id()
        entry = games.entry(gid) if gid else None
        while self.form.rowCount():
            self.form.removeRow(0)
        self._inputs = {}
        self._rows = []
        self.mode = QComboBox()
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.mode_help = label("", "muted", wrap=True)
        self.password = QLineEdit()
        self.password.setPlaceholderText(_("Leave empty for an open room"))
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.error.setText("")
        if entry is None:
            return
        self.picture.setPixmap(icons.game_pixmap(entry.id, 96, entry.available))
        self.name.setText(content("game", entry.id, entry.name))
        if not entry.available:
            self._game = None
            lo, hi = entry.players
            self.players.setText(_players(lo, hi))
            self.summary.setText(_("Coming in a later version of lanplay."))
            self.host.setEnabled(False)
            return
        game = games.load(entry.id)
        self._game = game
        self.players.setText(_players(*player_range(game)))
        self.summary.setText(content("game-summary", game.id, game.summary))
        self.host.setEnabled(True)
        for mode in game.modes:
            self.mode.addItem(_("{mode} ({players})").format(
                mode=content("mode", f"{game.id}:{mode.id}", mode.name),
                players=_players(mode.min_players, mode.max_players)), mode.id)
        mode_field = QWidget()
        column = QVBoxLayout(mode_field)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addWidget(self.mode)
        column.addWidget(self.mode_help)
        self.form.addRow(_("Mode"), mode_field)
        for option in game.options:
            widget = self._input(option)
            self._inputs[option.key] = widget
            words = help_words(option, game.id)
            widget.setToolTip(words)
            notes = self._pack_notes if option.key == in_play.PACK_OPTION else []
            self._rows.append((option, [self._field(label_words(game.id, option), widget,
                                                    words, notes)]))
        if self.password_supported:
            self.form.addRow(_("Password"), self.password)
        self._mode_changed()
        self._chain_tabs()
        # Rows built while the dialog shows are measured before their fields have a
        # width: once they have one, the wrapped lines (three of them in Spanish) get
        # their height.
        QTimer.singleShot(0, self.form.invalidate)

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        """The options' width changed (the scroll bar came or went, the dialog was
        resized): the form measures its wrapped lines again at the new width. Qt's form
        keeps the heights of a width it was laid out at before, and a German pack note
        three lines long at the new width lost its last line."""
        if (event is not None and event.type() == QEvent.Type.Resize
                and isinstance(event, QResizeEvent)
                and event.size().width() != event.oldSize().width()):
            QTimer.singleShot(0, self.form.invalidate)
        return super().eventFilter(watched, event)

    def _field(self, text: str, widget: QWidget, help_text: str,
               notes: list[QWidget] | None = None) -> QWidget:
        """A form row: the input, its notes (the packs' problems) and its help line
        right under it, as one field (each line a child of the field itself, so each
        gets the height its wrapped words need)."""
        field = QWidget()
        column = QVBoxLayout(field)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addWidget(widget)
        for note in notes or []:
            column.addWidget(note)
        if help_text:
            column.addWidget(label(help_text, "muted", wrap=True))
        self.form.addRow(text, field)
        return field

    def _input(self, option: Option) -> QWidget:
        if option.key == in_play.PACK_OPTION:
            return self._pack_input(option)
        if option.choices:
            combo = QComboBox()
            for choice in option.choices:
                combo.addItem(choice_words(option.key, choice, self.game_id()), choice)
            combo.setCurrentIndex(max(0, list(option.choices).index(option.default)))
            return combo
        if isinstance(option.default, bool):
            box = QCheckBox()
            box.setChecked(option.default)
            theme.light_indicator(box)  # a dark box on the dark card was not seen
            return box
        if isinstance(option.default, int):
            spin = QSpinBox()
            spin.setRange(-10_000, 10_000)
            spin.setValue(option.default)
            return spin
        line = QLineEdit(str(option.default))
        return line

    def _pack_input(self, option: Option) -> QWidget:
        """The custom packs found in the packs folder, and why any others were not loaded.

        Read afresh each time a game is picked, so a pack dropped in while the
        window is open appears without a restart.
        """
        found = discover()
        combo = QComboBox()
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(18)
        combo.addItem(_("Built-in pictures only"), "")
        for pack in found.packs:
            n = len(pack.pictures)
            counts = [ngettext("{n} picture", "{n} pictures", n).format(n=n)]
            if pack.questions:
                n = len(pack.questions)
                counts.append(ngettext("{n} question", "{n} questions", n).format(n=n))
            if pack.topics:
                n = len(pack.topics)
                counts.append(ngettext("{n} topic", "{n} topics", n).format(n=n))
            combo.addItem(_("{pack}  ({counts})").format(pack=pack.name,
                                                         counts=", ".join(counts)), pack.id)
        if option.default:
            combo.setCurrentIndex(max(0, combo.findData(option.default)))
        self._pack_notes = []
        if found.errors:
            lines = [f"{_relative(e.file, found.folder)}: {e.problem}" for e in found.errors]
            self._pack_notes.append(label(_("Not usable: {problems}").format(
                problems="; ".join(lines)), "error", wrap=True))
        elif not found.packs:
            self._pack_notes.append(label(_("No custom packs yet: put a pack folder in "
                                            "{folder} (README, \"Custom packs\").").format(
                                                folder=breakable(str(found.folder))),
                                            "muted", wrap=True))
        self._pack_combo = combo
        return combo

    def _chain_tabs(self) -> None:
        """Tab goes from the games to the mode, down the options, then to the buttons:
        the options are made when a game is picked, after the buttons, so Qt's own order
        went from the games to Cancel and reached the options last."""
        chain: list[QWidget] = [self.list, self.mode]
        fields = list(self._inputs.values())
        if self.password_supported:
            fields.append(self.password)
        for field in fields:
            if field.focusPolicy() & Qt.FocusPolicy.TabFocus:
                chain.append(field)
            else:  # a field of several parts (the packs' choice): its parts in turn
                chain.extend(w for w in field.findChildren(QWidget)
                             if w.focusPolicy() & Qt.FocusPolicy.TabFocus)
        for before, after in itertools.pairwise(chain):
            QWidget.setTabOrder(before, after)

    def _mode_changed(self) -> None:
        game = self._game
        if game is None or len(game.modes) == 0:
            return
        mode = next((m for m in game.modes if m.id == self.mode.currentData()), game.modes[0])
        self.mode_help.setText(content("mode-help", f"{game.id}:{mode.id}", mode.description))
        self.mode_help.setVisible(bool(mode.description))
        for option, rows in self._rows:  # only the options that apply to this mode
            for row in rows:
                self.form.setRowVisible(row, not option.modes or mode.id in option.modes)

    def choice(self) -> HostChoice | None:
        game = self._game
        if game is None:
            return None
        options: dict[str, Any] = {}
        mode = str(self.mode.currentData())
        applies = {o.key for o in game.options if not o.modes or mode in o.modes}
        for key, widget in self._inputs.items():
            if key not in applies:
                continue
            if key == in_play.PACK_OPTION:
                options[key] = str(self._pack_combo.currentData() or "")
            elif isinstance(widget, QComboBox):
                options[key] = widget.currentData()
            elif isinstance(widget, QCheckBox):
                options[key] = widget.isChecked()
            elif isinstance(widget, QSpinBox):
                options[key] = widget.value()
            elif isinstance(widget, QLineEdit):
                options[key] = widget.text()
        password = self.password.text() if self.password_supported else ""
        return HostChoice(game.id, str(self.mode.currentData()), options, password)

    def set_option(self, key: str, value: Any) -> None:
        """Pick an option's value (tests and the screenshots use it as a person would)."""
        widget = self._inputs[key]
        if key == in_play.PACK_OPTION:
            self._pack_combo.setCurrentIndex(self._pack_combo.findData(value))
        elif isinstance(widget, QComboBox):
            widget.setCurrentIndex(widget.findData(value))
        elif isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QSpinBox) and isinstance(value, int):
            widget.setValue(value)
        elif isinstance(widget, QLineEdit):
            widget.setText(str(value))

    def preset(self, game_id: str, mode: str, options: dict[str, Any]) -> None:
        """Show the room's game as it is now: its mode and options chosen."""
        self.select_game(game_id)
        index = self.mode.findData(mode)
        if index >= 0:
            self.mode.setCurrentIndex(index)
        for key, value in options.items():
            if key in self._inputs:
                self.set_option(key, value)

    def scroll_to_end(self) -> None:
        """Show the last option (tests and the screenshots look at its help line)."""
        inner = self.scroller.widget()
        layout = inner.layout() if inner is not None else None
        if layout is not None:
            layout.activate()
        bar = self.scroller.verticalScrollBar()
        if bar is not None:
            bar.setValue(bar.maximum())

    def _accept(self) -> None:
        choice = self.choice()
        if choice is None:
            self.error.setText(_("That game is not playable yet; pick another one."))
            return
        self.chosen.emit(choice)
        self.accept()
