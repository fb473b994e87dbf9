"""The game screen: a slim bar, the game's table, the chat drawer, the overlays.

The table itself belongs to the game (``ui.tables.table_for``) and shows the
players, the turn and the log; this page frames it: a bar with the rules,
the chat and the way out, a dimmer while the connection is being restored,
and the end screen laid over it. The chat is a drawer laid over the table's
log (its place, its size): opening it never squeezes or moves the table.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection
from typing import Any

from PyQt6.QtCore import QEvent, QObject, QPoint, QRect, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QColor, QKeyEvent, QPainter, QPaintEvent, QResizeEvent, QShowEvent
from PyQt6.QtWidgets import (
    QApplication,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.look import theme
from ui.look.widgets import Card, ChatPanel, button, label
from ui.pages.game.end_screen import EndScreen
from ui.pages.game.tour import TourGuide
from ui.tables import make_table
from ui.tables.placeholder import PlaceholderTable
from ui.tables.teach import Walkthrough
from ui.words.game_words import game_name
from ui.words.i18n import _, ngettext

LAST_SECONDS = 3
"""A timer's last seconds tick (softly) so nobody misses a closing window."""


def _max_players(lobby: Any) -> int:
    """The most seats the lobby's game and mode allow (its seats when unknown)."""
    from lanplay import games
    from lanplay.game import mode_of

    try:
        return mode_of(games.load(lobby.game), lobby.mode).max_players
    except (KeyError, ValueError):
        return len(lobby.seats)


class Dimmer(QWidget):
    """Greys the table out and swallows clicks while the connection is away."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.text = label(_("Reconnecting\u2026"), "title")
        self.text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text.setStyleSheet("background: rgba(10, 16, 20, 200); border-radius: 12px;"
                                " padding: 14px 28px;")
        layout.addWidget(self.text, 0, Qt.AlignmentFlag.AlignCenter)

    def paintEvent(self, event: QPaintEvent | None) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(10, 16, 20, 165))
        painter.end()


class GamePage(QWidget):
    intent = pyqtSignal(dict)
    leave = pyqtSignal()
    rules = pyqtSignal()
    again = pyqtSignal()
    sit = pyqtSignal()
    """A spectator takes a seat that freed up between games."""
    change_game = pyqtSignal()
    tick = pyqtSignal()
    """A second passed in the timer's last seconds (the window ticks softly)."""
    sound_toggled = pyqtSignal(bool)

    WIDE = 1600
    """From this window width the chat opens by itself (over the log)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game_id = ""
        self.table: QWidget = PlaceholderTable()
        self.seats: list[dict[str, Any]] = []
        self.you: int | None = None
        self.result: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        """The view on the table now (the window's pacer may hold newer ones)."""
        self.unread = 0
        self._chat_chosen: bool | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)

        bar = QFrame()
        theme.role(bar, "bar")
        top = QHBoxLayout(bar)
        top.setContentsMargins(14, 6, 10, 6)
        top.setSpacing(8)
        self.title = label("", "heading")
        top.addWidget(self.title)
        self.where = label("", "muted")
        top.addWidget(self.where)
        top.addStretch(1)  # (not the label's: it gives way when the bar is short, _fit_bar)
        self.watching = label(_("Watching"), "heading")
        self.watching.setStyleSheet("background: #F0E442; color: #111111; border-radius: 6px;"
                                    " padding: 2px 10px;")
        self.watching.setToolTip(_("You are a spectator: you see the public table, never a "
                                   "hand; chat and the log are yours too."))
        self.watching.hide()
        top.addWidget(self.watching)
        self.watchers = label("", "muted")
        self.watchers.hide()
        top.addWidget(self.watchers)
        self.sit_button = button(_("Take a seat"), "primary")
        self.sit_button.setToolTip(_("A seat is free: play the next game."))
        self.sit_button.clicked.connect(self.sit)
        self.sit_button.hide()
        top.addWidget(self.sit_button)
        self.clock = label("", "heading")
        self.clock.setToolTip(_("Time left to answer; when it runs out the host moves on."))
        self.clock.hide()
        top.addWidget(self.clock)
        self._deadline = 0.0
        self._last_left = -1
        self._ticker = QTimer(self)
        self._ticker.setInterval(250)
        self._ticker.timeout.connect(self._tick)
        self.scores_button = button(_("Scores"))
        self.scores_button.clicked.connect(self._show_end)
        self.scores_button.hide()
        top.addWidget(self.scores_button)
        self.sound_button = button(_("Sound on"))
        self.sound_button.setCheckable(True)
        self.sound_button.setChecked(True)
        self.sound_button.setToolTip(_("Short sounds for your turn, a play, a top!, a trick "
                                       "won, a timer's last seconds and the end; one click "
                                       "turns them off (remembered)."))
        self.sound_button.clicked.connect(self._sound_clicked)
        top.addWidget(self.sound_button)
        self.rules_button = button(_("Rules (F1)"))
        self.rules_button.clicked.connect(self.rules)
        top.addWidget(self.rules_button)
        self.chat_button = button(_("Chat"))
        self.chat_button.setCheckable(True)
        self.chat_button.clicked.connect(self._chat_clicked)
        top.addWidget(self.chat_button)
        self.leave_button = button(_("Leave"))
        self.leave_button.clicked.connect(self.leave)
        top.addWidget(self.leave_button)
        outer.addWidget(bar)

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        outer.addLayout(row, 1)
        self.area = QWidget()
        self.stack = QGridLayout(self.area)
        self.stack.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.area, 1)
        self.dimmer = Dimmer()
        self.dimmer.hide()
        self.end = EndScreen()
        self.end.hide()
        self.end.look.connect(self._look_at_table)
        self.end.leave.connect(self.leave)
        self.end.again.connect(self.again)
        self.end.change.connect(self.change_game)
        self.end.installEventFilter(self)  # the end screen takes the focus, and gives it back

        # The chat lies over the table's log, where the table keeps a side column
        # anyway; the table underneath keeps its size whether the chat is open or not.
        self.panel = QFrame(self.area)
        self.panel.setObjectName("chatDrawer")
        self.panel.setStyleSheet(f"#chatDrawer {{ background: {theme.BG}; "
                                 f"border-left: 1px solid {theme.BORDER}; }}")
        side = QVBoxLayout(self.panel)
        side.setContentsMargins(8, 8, 8, 8)
        chat = Card(margin=10)
        self.chat = ChatPanel()
        self.chat.line.left.connect(self.close_chat)
        chat.body.addWidget(self.chat)
        side.addWidget(chat, 1)
        self.panel.hide()
        self._log_shown_for_chat = False
        """The table's log was hidden when the chat opened: shown for the chat's place."""
        self.tours = TourGuide(self.focus_table)
        self._place_table(self.table)

    # --- the table --------------------------------------------------------------------

    @property
    def walkthrough(self) -> Walkthrough | None:
        """The first-turn tour over the table, while it has one."""
        return self.tours.walkthrough

    def _place_table(self, table: QWidget) -> None:
        table.installEventFilter(self)  # a tour over it follows its size
        for w in (self.dimmer, self.end):
            self.stack.removeWidget(w)
        self.stack.addWidget(table, 0, 0)
        self.stack.addWidget(self.dimmer, 0, 0)
        self.stack.addWidget(self.end, 0, 0)
        log = self._table_log()
        if log is not None:
            log.installEventFilter(self)  # the chat follows the log's place
        toggle = getattr(getattr(table, "banner", None), "toggle", None)
        if isinstance(toggle, QPushButton):
            toggle.clicked.connect(self._log_toggled)
        self.panel.raise_()
        self.dimmer.raise_()
        self.end.raise_()
        if self.panel.isVisible():
            self._log_shown_for_chat = False
            self._show_chat(True)

    def _table_log(self) -> QWidget | None:
        log = getattr(self.table, "log_panel", None)
        return log if isinstance(log, QWidget) else None

    def chat_rect(self) -> QRect:
        """Where the chat lies in the table area: over the table's log (down the whole
        side column when the log is short, as under S-tier's players), else a strip
        at the right edge as wide as a log would be."""
        area = self.area.rect()
        place = getattr(self.table, "chat_place", None)
        column = place() if callable(place) else None
        if isinstance(column, QRect) and column.width() > 0:  # the table's side column
            return QRect(self.table.mapTo(self.area, column.topLeft()), column.size())
        log = self._table_log()
        if log is not None and not log.isHidden() and log.width() > 0:
            top_left = log.mapTo(self.area, QPoint(0, 0))
            top = top_left.y() if log.height() >= area.height() * 0.45 else 0
            return QRect(top_left.x(), top, log.width(),
                         top_left.y() + log.height() - top)
        width = max(240, min(420, round(area.width() * 0.22)))
        return QRect(area.width() - width, 0, width, area.height())

    def _place_chat(self) -> None:
        if self.panel.isVisible():
            self.panel.setGeometry(self.chat_rect())

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        if event is not None and watched is self.table and event.type() == QEvent.Type.Resize:
            self.tours.place()
        if event is not None and watched is self.table and event.type() == \
                QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and self.tours.key(event):
            return True  # while a tour is up, Enter and Esc are its own, before the table's
        if event is not None and watched is self._table_log() and event.type() in (
                QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.Show, QEvent.Type.Hide):
            self._place_chat()
        if event is not None and watched is self.end:
            if event.type() == QEvent.Type.Show:
                QTimer.singleShot(0, self._focus_end)
            elif event.type() == QEvent.Type.Hide:
                QTimer.singleShot(0, self.focus_table)
        return super().eventFilter(watched, event)

    # --- the focus: on the table, from the moment it appears ----------------------------

    def focus_table(self) -> None:
        """The table takes the keys (its pieces' keys work at once, no click needed),
        unless the player is typing in the chat or the end screen is up."""
        if not self.isVisible() or self.end.isVisible():
            return
        focus = QApplication.focusWidget()
        if focus is not None and focus is self.chat.line and self.panel.isVisible():
            return
        if focus is not None and self.table.isAncestorOf(focus):
            return  # already on the table (one of its pieces)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def _focus_end(self) -> None:
        if self.end.isVisible():
            button = self.end.again_button if self.end.again_button.isEnabled() \
                else self.end.look_button
            button.setFocus(Qt.FocusReason.OtherFocusReason)

    def showEvent(self, event: QShowEvent | None) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self.focus_table)

    def changeEvent(self, event: QEvent | None) -> None:
        """Back from a dialog (the rules, a question): the keys go to the table again."""
        super().changeEvent(event)
        if event is not None and event.type() == QEvent.Type.ActivationChange \
                and self.isActiveWindow():
            focus = QApplication.focusWidget()
            if focus is None or not (self.table.isAncestorOf(focus) or focus is self.table
                                     or focus is self.chat.line or self.end.isAncestorOf(focus)):
                QTimer.singleShot(0, self.focus_table)

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """Enter, where nothing else takes it (the table has nothing chosen), opens the
        chat; Esc closes it."""
        if event is None:
            return
        if self.tours.key(event):  # a tour on the table: Enter goes on, Esc closes it
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers() \
                & ~Qt.KeyboardModifier.KeypadModifier:
            self.open_chat()
            return
        if event.key() == Qt.Key.Key_Escape and self.panel.isVisible():
            self.close_chat()
            return
        if self._from_the_bar(event):
            return
        super().keyPressEvent(event)

    def _from_the_bar(self, event: QKeyEvent) -> bool:
        """A key pressed while the focus is on the bar (a click on "Sound on" left it
        there) is the table's: its pieces' keys keep playing. True if the table took it."""
        focus = QApplication.focusWidget()
        if focus is None or focus is self.table or self.table.isAncestorOf(focus) \
                or self.panel.isAncestorOf(focus) or self.end.isAncestorOf(focus) \
                or not self.isAncestorOf(focus):
            return False  # it came up from the table, the chat or the end screen
        event.accept()
        self.table.keyPressEvent(event)
        return event.isAccepted()

    def open_chat(self) -> None:
        """The chat drawer open, its line ready for typing."""
        self._chat_chosen = True
        self._show_chat(True)
        self.chat.line.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def close_chat(self) -> None:
        """Esc in the chat: the drawer closes (a wide window's open-by-itself drawer
        stays, only the focus leaves it) and the keys go back to the table."""
        if self.panel.isVisible() and (self._chat_chosen or self.width() < self.WIDE):
            self._chat_chosen = False
            self._show_chat(False)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def _log_toggled(self) -> None:
        """"Hide log" hides the chat that lies in its place too."""
        log = self._table_log()
        if self.panel.isVisible() and log is not None and log.isHidden():
            self._log_shown_for_chat = False
            self._chat_chosen = False
            self._show_chat(False)

    def set_game(self, game_id: str, host_name: str = "") -> None:
        """Put up the table of ``game_id`` (a new one when the game changes)."""
        self.where.setText(_("at {host}'s").format(host=host_name) if host_name else "")
        self._fit_bar()
        if game_id == self.game_id:
            return
        self.game_id = game_id
        self.view = None
        self.tours.drop()  # the old table's tour goes with it (and is not counted as read)
        old = self.table
        old.removeEventFilter(self)
        self.stack.removeWidget(old)
        old.hide()  # until it is gone, it must not lie under the new table
        old.deleteLater()
        self.table = make_table(game_id)
        intent = getattr(self.table, "intent", None)
        if intent is not None:
            intent.connect(self.intent)
        self._place_table(self.table)
        self.title.setText(game_name(game_id))
        # translators: the accessible name of a game's table, "Alles klar?: the table"
        self.table.setAccessibleName(_("{game}: the table").format(game=game_name(game_id)))
        QTimer.singleShot(0, self.focus_table)

    def set_teaching(self, taught: Collection[str], remember: Callable[[str], None]) -> None:
        """The games already taught on this laptop, and how to remember a new one: the
        first time a person plays a game its table walks them through a first turn."""
        self.tours.set_teaching(taught, remember)

    def set_view(self, view: dict[str, Any], animate: bool) -> None:
        self.view = view
        self.table.set_view(view, self.seats, self.you, animate)  # type: ignore[attr-defined]
        self.tours.view_shown(self.table, self.game_id, view, self.you)

    def show_rejection(self, reason: str) -> None:
        self.table.show_rejection(reason)  # type: ignore[attr-defined]

    def set_sound(self, on: bool) -> None:
        self.sound_button.setChecked(on)
        self.sound_button.setText(_("Sound on") if on else _("Sound off"))

    def _sound_clicked(self, checked: bool) -> None:
        self.set_sound(checked)
        self.sound_toggled.emit(checked)

    def set_clock(self, seconds_left: float | None) -> None:
        """Count down the host's running deadline (None: no deadline runs); a table
        that shows its own countdown (Ranking Top's windows) is told too."""
        hook = getattr(self.table, "set_deadline", None)
        if callable(hook):
            hook(seconds_left)
        self._last_left = -1
        if seconds_left is None:
            self._ticker.stop()
            self.clock.hide()
            return
        self._deadline = time.monotonic() + seconds_left
        self._tick()
        self._ticker.start()

    def _tick(self) -> None:
        """The seconds left; at none the clock goes (never "0 s left" on a table that
        has moved on while the host's word of it is on its way)."""
        left = max(0, math.ceil(self._deadline - time.monotonic()))
        if left <= 0:
            self._ticker.stop()
            self.clock.hide()
            return
        self.clock.setText(_("{seconds} s left").format(seconds=left))
        self.clock.show()
        if left <= LAST_SECONDS and left != self._last_left:
            self.tick.emit()
        self._last_left = left

    # --- seats, chat, connection, the end ------------------------------------------------

    def set_seats(self, seats: list[dict[str, Any]], you: int | None, owner: bool) -> None:
        self.seats, self.you = seats, you
        self.end.change_button.setVisible(owner)
        self.leave_button.setText(_("Close the room") if owner else _("Leave"))
        self.leave_button.setToolTip(_("Ends the game for everyone at this table.") if owner
                                     else _("Back to Home; the others play on without you."))

    def set_watching(self, watching: bool, lobby: Any) -> None:
        """A spectator's "Watching" mark and, between games with a free seat, "Take a
        seat"; for everyone, how many watch (their names on hover)."""
        self.watching.setVisible(watching)
        total = _max_players(lobby)
        free = lobby.phase != "playing" and len(lobby.seats) < total
        self.sit_button.setVisible(watching and free)
        names = list(getattr(lobby, "watchers", None) or [])
        count = max(len(names), int(getattr(lobby, "spectators", 0) or 0))
        self.watchers.setText(ngettext("{n} watching", "{n} watching", count).format(n=count)
                              if count else "")
        self.watchers.setToolTip(_("Watching: {names}").format(names=", ".join(names))
                                 if names else "")
        self._fit_bar()

    def _fit_bar(self) -> None:
        """The bar's extra words give way, the count of watchers first, then "at Mia's",
        when the bar has no room for them: a spectator's "Watching" and "Take a seat"
        beside the end's "Scores" were cut at 1000 px (in Spanish by a third). The
        room lists who watches and whose room it is; "Watching" says this laptop does."""
        bar = self.watchers.parentWidget()
        layout = bar.layout() if bar is not None else None
        extras = (self.watchers, self.where)
        for extra in extras:
            extra.setVisible(bool(extra.text()))
        for extra in extras:
            if layout is None or not extra.isVisibleTo(self):
                continue
            layout.invalidate()
            if layout.minimumSize().width() <= self.width():
                return
            extra.hide()

    def add_chat(self, sender: str, colour: str, text: str, badge: str = "") -> None:
        self.chat.add(sender, colour, text, badge)
        if not self.panel.isVisible():
            self.unread += 1
            self.chat_button.setText(_("Chat ({unread})").format(unread=self.unread))
            theme.restyle(self.chat_button, "primary")

    def clear_chat(self) -> None:
        """A new room: nothing said yet, nothing unread (no "Chat (1)" from the last one)."""
        self.chat.clear()
        self.unread = 0
        self.chat_button.setText(_("Chat"))
        theme.restyle(self.chat_button, None)

    def _chat_clicked(self, checked: bool) -> None:
        self._chat_chosen = checked
        self._show_chat(checked)
        if not checked:
            self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def _show_chat(self, shown: bool) -> None:
        log = self._table_log()
        toggle = getattr(self.table, "toggle_log", None)
        if shown and log is not None and log.isHidden() and callable(toggle):
            self._log_shown_for_chat = True  # the log's column is the chat's place
            toggle()
        self.panel.setVisible(shown)
        self.chat_button.setChecked(shown)
        if shown:
            self._place_chat()
            self.panel.raise_()
            self.dimmer.raise_()
            self.end.raise_()
            self.unread = 0
            self.chat_button.setText(_("Chat"))
            theme.restyle(self.chat_button, None)
            self.chat.line.setFocus()
        elif self._log_shown_for_chat:
            self._log_shown_for_chat = False
            if log is not None and not log.isHidden() and callable(toggle):
                toggle()

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        if self._chat_chosen is None:  # until the player decides, wide windows show it
            self._show_chat(self.width() >= self.WIDE)
        self._place_chat()
        self._fit_bar()

    def set_dimmed(self, dimmed: bool, text: str = "") -> None:
        """The table greyed out while the connection is away, saying why: "Reconnecting…"
        unless ``text`` says otherwise (a paused game is not a lost connection)."""
        self.dimmer.text.setText(text or _("Reconnecting\u2026"))
        self.dimmer.setVisible(dimmed)
        if dimmed:
            self.dimmer.raise_()

    def show_result(self, result: dict[str, Any]) -> None:
        self.result = result
        self.end.show_result(result, self.seats, self.you)
        self.scores_button.show()
        self._fit_bar()
        self._show_end()

    def clear_result(self) -> None:
        self.result = None
        self.end.hide()
        self.scores_button.hide()
        self._fit_bar()

    def set_end_status(self, text: str, *, can_play_again: bool, waiting: bool) -> None:
        self.end.set_status(text, can_play_again=can_play_again, waiting=waiting)

    def _show_end(self) -> None:
        if self.result is not None:
            self.end.show()
            self.end.raise_()

    def _look_at_table(self) -> None:
        self.end.hide()
