"""A finished game replayed step by step, the way Board Game Arena players go over one.

The game's own table (``ui.tables.table_for``) shows each step as the chosen
seat's laptop showed it (its hand, its own S-tier note), or as a spectator saw
it; stepping forward one move animates as the game did, any other jump (back,
a click in the moves, the slider) sets the table at once. Beside it, the moves
(the deal, then each move with the log lines it added; a click goes there) and,
with "Everything open", what every seat held that a spectator could not see.
The table is read-only: what it sends is answered with a note, never played.

Keys: Left and Right step back and forward, Page Up and Page Down ten moves,
Home and End go to the deal and the end, Esc closes the window. All it shows comes from
``lanplay.replay.model.Replay``.
"""

from __future__ import annotations

import html
from typing import Any

from PyQt6.QtCore import QSize, Qt, QTimer
from PyQt6.QtGui import QBrush, QColor, QGuiApplication, QKeySequence, QShortcut, QShowEvent
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QListView,
    QListWidget,
    QListWidgetItem,
    QSlider,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from lanplay.badges import badges
from lanplay.game import SYSTEM, mode_of
from lanplay.replay.model import Replay
from lanplay.replay.words import holding
from ui.look import theme
from ui.look.widgets import Card, button, label
from ui.tables import make_table
from ui.words.game_words import when
from ui.words.i18n import N_, _, content
from ui.words.result_words import result_words

READ_ONLY = N_("This is a replay: nothing you do here is played.")
SPECTATOR = -1
"""The viewer chooser's value for the spectator's view."""


def replay_size(parent: QWidget | None) -> QSize:
    """The window it opens over (a replay is read where the game was played), else
    1280x800; never larger than the screen's free area (on a 1024x640 screen a fixed
    1280x800 put the step buttons off the screen)."""
    owner = parent.window() if parent is not None else None
    if owner is not None and owner.isVisible():
        return owner.size().expandedTo(QSize(800, 500))  # it already fits its screen
    size = QSize(1280, 800)
    screen = QGuiApplication.primaryScreen()
    if screen is not None:
        free = screen.availableGeometry().size()
        size = size.boundedTo(QSize(max(800, free.width()), max(500, free.height())))
    return size.expandedTo(QSize(800, 500))


class ReplayWindow(QWidget):
    """One finished game, step by step, from any seat or with everything open."""

    def __init__(self, replay: Replay, parent: QWidget | None = None,
                 seat: int | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.replay = replay
        f = replay.finished
        self.step = 0
        self.viewer: int | None = seat if seat is not None else f.you
        self.seats = replay.seats()
        self.refused = 0
        """How many intents the table sent (each answered, none played)."""
        game = replay.game
        mode = mode_of(game, f.mode)
        name = content("game", game.id, game.name)
        self.title_text = name if len(game.modes) == 1 else _("{game} ({mode})").format(
            game=name, mode=content("mode", f"{game.id}:{mode.id}", mode.name))
        self.setWindowTitle(_("Replay: {game}").format(game=self.title_text) + " \u2014 lanplay")
        self.setMinimumSize(800, 500)
        self.resize(replay_size(parent))

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self._top_bar())
        middle = QHBoxLayout()
        middle.setContentsMargins(0, 0, 0, 0)
        middle.setSpacing(0)
        outer.addLayout(middle, 1)
        self.table: Any = make_table(game.id)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        intent = getattr(self.table, "intent", None)
        if intent is not None:
            intent.connect(self._intent)
        middle.addWidget(self.table, 1)
        self._log_folded = False
        middle.addWidget(self._side())
        outer.addWidget(self._bottom_bar())

        keys = ((Qt.Key.Key_Right, 1), (Qt.Key.Key_Left, -1), (Qt.Key.Key_PageDown, 10),
                (Qt.Key.Key_PageUp, -10))
        for key, by in keys:
            QShortcut(QKeySequence(key), self, lambda by=by: self.go(self.step + by))
        QShortcut(QKeySequence(Qt.Key.Key_Home), self, lambda: self.go(0))
        QShortcut(QKeySequence(Qt.Key.Key_End), self, lambda: self.go(self.replay.moves))
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close)
        self._fill_moves()
        self.go(0, animate=False)

    # --- building -----------------------------------------------------------------------

    def _top_bar(self) -> QWidget:
        f, replay = self.replay.finished, self.replay
        bar = QFrame()
        theme.role(bar, "bar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(14, 6, 10, 6)
        row.setSpacing(10)
        column = QVBoxLayout()
        column.setSpacing(0)
        self.title = label(_("Replay: {game}").format(game=self.title_text), "heading")
        column.addWidget(self.title)
        said = [", ".join(replay.names)]
        if f.played:
            said.append(when(f.played))
        said.append(result_words(replay.result.to_wire(), replay.names))
        self.about = label(" \u00b7 ".join(said), "muted", wrap=True)
        self.about.setTextFormat(Qt.TextFormat.PlainText)  # names come from a file
        self.about.setToolTip(" \u00b7 ".join(said))
        column.addWidget(self.about)
        row.addLayout(column, 1)
        row.addWidget(label(_("View from"), "muted"))
        self.chooser = QComboBox()
        for seat, name in enumerate(replay.names):
            self.chooser.addItem(_("{name} (you)").format(name=name) if seat == f.you else name,
                                 seat)
        self.chooser.addItem(_("A spectator"), SPECTATOR)
        index = self.chooser.findData(SPECTATOR if self.viewer is None else self.viewer)
        self.chooser.setCurrentIndex(max(0, index))
        self.chooser.setToolTip(_("Whose table to look at: their hand and what they saw."))
        self.chooser.activated.connect(self._chosen)
        row.addWidget(self.chooser)
        self.everything = QCheckBox(_("Everything open"))
        self.everything.setToolTip(_("After the game every hand may be shown: what each "
                                     "player held that the others could not see."))
        self.everything.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.everything.toggled.connect(self._open_toggled)
        row.addWidget(self.everything)
        self.close_button = button(_("Close"))
        self.close_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.close_button.clicked.connect(self.close)
        row.addWidget(self.close_button)
        return bar

    def _side(self) -> QWidget:
        side = QWidget()
        side.setFixedWidth(330)
        column = QVBoxLayout(side)
        column.setContentsMargins(10, 10, 10, 10)
        column.setSpacing(10)
        self.open_card = Card(margin=12)
        self.open_card.body.addWidget(label(_("Everything open"), "heading"))
        self.open_text = QTextBrowser()
        self.open_text.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.open_text.setOpenLinks(False)
        self.open_card.body.addWidget(self.open_text, 1)
        self.open_card.hide()
        column.addWidget(self.open_card, 2)
        moves = Card(margin=12)
        moves.body.addWidget(label(_("Moves"), "heading"))
        verdict = self.replay.finished.verdict
        if verdict and verdict != "verified":
            warning = label(_("This laptop's check of the game at its end: {verdict}").format(
                verdict=verdict), "error", wrap=True)
            warning.setTextFormat(Qt.TextFormat.PlainText)
            moves.body.addWidget(warning)
        self.moves = QListWidget()
        self.moves.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.moves.setWordWrap(True)
        self.moves.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.moves.setResizeMode(QListView.ResizeMode.Adjust)
        self.moves.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.moves.setAlternatingRowColors(True)
        # no side padding: the wrapped height Qt computes for a line ignores it
        self.moves.setStyleSheet("QListWidget::item { padding: 5px 0px; }")
        self.moves.currentRowChanged.connect(self._row_chosen)
        moves.body.addWidget(self.moves, 1)
        column.addWidget(moves, 3)
        return side

    def _bottom_bar(self) -> QWidget:
        bar = QFrame()
        theme.role(bar, "bar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(14, 8, 14, 8)
        row.setSpacing(8)
        self.first_button = button("\u00ab " + _("Deal"))
        self.first_button.setToolTip(_("Back to the deal (Home)"))
        self.back_button = button("\u25c0 " + _("Back"))
        self.back_button.setToolTip(_("One move back (Left arrow)"))
        self.forward_button = button(_("Forward") + " \u25b6", "primary")
        self.forward_button.setToolTip(_("One move forward (Right arrow)"))
        self.last_button = button(_("End") + " \u00bb")
        self.last_button.setToolTip(_("To the end of the game (End)"))
        self.first_button.clicked.connect(lambda: self.go(0))
        self.back_button.clicked.connect(lambda: self.go(self.step - 1))
        self.forward_button.clicked.connect(lambda: self.go(self.step + 1))
        self.last_button.clicked.connect(lambda: self.go(self.replay.moves))
        for b in (self.first_button, self.back_button, self.forward_button, self.last_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        row.addWidget(self.first_button)
        row.addWidget(self.back_button)
        row.addWidget(self.forward_button)
        row.addWidget(self.last_button)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, self.replay.moves)
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.slider.valueChanged.connect(self._slid)
        row.addWidget(self.slider, 1)
        self.where = label("", "big")
        self.where.setMinimumWidth(self.where.fontMetrics().horizontalAdvance(
            _("Move {n} of {total}").format(n=self.replay.moves, total=self.replay.moves)) + 12)
        self.where.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        row.addWidget(self.where)
        return bar

    def _fill_moves(self) -> None:
        """One line per step: the deal, then each move and the log lines it added."""
        self.moves.blockSignals(True)
        self.moves.clear()
        replay = self.replay
        for step in range(replay.steps):
            lines = replay.added(step, self.viewer)
            mover = replay.mover(step)
            who = _("the host's timer") if mover == SYSTEM else replay.who(mover)
            head = _("The deal.") if step == 0 else f"{step}."
            # the log's lines name who moved; a move that added none says who and what
            text = f"{head} {' '.join(lines)}" if lines \
                else _("{step} {who}: {what}.").format(step=head, who=who,
                                                        what=replay.doing(step))
            item = QListWidgetItem(text)
            item.setToolTip(_("Move {n}, by {who}").format(n=step, who=who) if step
                            else _("The deal"))
            self.moves.addItem(item)
        self.moves.blockSignals(False)
        self._dimmed = self.replay.moves + 1  # rows from here are not dimmed yet

    def showEvent(self, event: QShowEvent | None) -> None:
        super().showEvent(event)
        if not self._log_folded and callable(getattr(self.table, "toggle_log", None)):
            # the moves beside the table are this replay's log (a click goes there); the
            # table's own log stays a click away on its banner
            self._log_folded = True
            panel = getattr(self.table, "log_panel", None)
            if panel is not None and panel.isVisible():
                self.table.toggle_log()
        QTimer.singleShot(0, self._scroll_to_current)

    # --- stepping -----------------------------------------------------------------------

    def go(self, step: int, animate: bool | None = None) -> None:
        """Show ``step`` (0: the deal); one move forward animates unless told otherwise."""
        step = max(0, min(self.replay.moves, step))
        if animate is None:
            animate = step == self.step + 1
        self.step = step
        view = self.replay.shown(step, self.viewer)
        self.table.set_view(view, self.seats, self.viewer, animate)
        for widget in (self.slider, self.moves):
            widget.blockSignals(True)
        self.slider.setValue(step)
        self.moves.setCurrentRow(step)
        self._dim_after(step)
        self._scroll_to_current()
        for widget in (self.slider, self.moves):
            widget.blockSignals(False)
        self.where.setText(_("The deal") if step == 0 else _("Move {n} of {total}").format(
            n=step, total=self.replay.moves))
        self.first_button.setEnabled(step > 0)
        self.back_button.setEnabled(step > 0)
        self.forward_button.setEnabled(step < self.replay.moves)
        self.last_button.setEnabled(step < self.replay.moves)
        self._show_open()

    def _scroll_to_current(self) -> None:
        item = self.moves.item(self.step)
        if item is not None:
            self.moves.scrollToItem(item, QAbstractItemView.ScrollHint.PositionAtCenter)

    def _dim_after(self, step: int) -> None:
        """Moves after the one shown are greyed, as a log that has not happened yet."""
        muted, plain = QBrush(QColor(theme.MUTED)), QBrush()
        low, high = sorted((self._dimmed, step + 1))
        for row in range(low, min(high, self.moves.count())):
            item = self.moves.item(row)
            if item is not None:
                item.setForeground(muted if row > step else plain)
        self._dimmed = step + 1

    def see_from(self, viewer: int | None) -> None:
        """Look at the game from another seat (None: as a spectator), at the same step."""
        self.viewer = viewer
        index = self.chooser.findData(SPECTATOR if viewer is None else viewer)
        if index >= 0 and index != self.chooser.currentIndex():
            self.chooser.setCurrentIndex(index)
        self._fill_moves()
        self.go(self.step, animate=False)

    def set_open(self, shown: bool) -> None:
        self.everything.setChecked(shown)

    def _chosen(self, index: int) -> None:
        data = self.chooser.itemData(index)
        self.see_from(None if data == SPECTATOR else int(data))
        self.setFocus()  # the arrow keys step through the game, not through the seats

    def _open_toggled(self, shown: bool) -> None:
        self.open_card.setVisible(shown)
        self._show_open()
        QTimer.singleShot(0, self._scroll_to_current)  # once the moves have their new height

    def _row_chosen(self, row: int) -> None:
        if row >= 0:
            self.go(row, animate=False)

    def _slid(self, value: int) -> None:
        self.go(value, animate=False)

    def _intent(self, action: dict[str, Any]) -> None:
        """A click on the table: nothing is played; say so where the player looked."""
        self.refused += 1
        show = getattr(self.table, "show_rejection", None)
        if show is not None:
            show(_(READ_ONLY))

    # --- everything open ------------------------------------------------------------------

    def open_lines(self) -> list[str]:
        """What every seat held at this step, one line each (what the panel shows)."""
        return [f"{self.replay.who(seat)}: {holding(self.replay, hidden, self.step)}"
                for seat, hidden in self.replay.everything(self.step)]

    def _show_open(self) -> None:
        if not self.everything.isChecked():
            return
        rows = []
        marks = badges(self.seats)  # each seat's colour, as the table marks it
        for seat, hidden in self.replay.everything(self.step):
            colour = marks[seat].colour if seat < len(marks) else theme.MUTED
            name = html.escape(self.replay.who(seat))
            what = html.escape(holding(self.replay, hidden, self.step))
            look = "" if hidden else f' style="color:{theme.MUTED}"'
            rows.append(f'<p><span style="color:{colour}">\u25cf</span> <b>{name}</b>'
                        f'<br><span{look}>{what}</span></p>')
        self.open_text.setHtml("".join(rows))


__all__ = ["READ_ONLY", "ReplayWindow"]
