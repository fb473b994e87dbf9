"""The room before a game: seats, readiness, bots, chat, and what is missing.

Renders the host's Lobby message and turns clicks into room commands; who may
do what is the host's decision (a refused command comes back with its reason
and is shown under the buttons).
"""

from __future__ import annotations

import re
from typing import Any

from PyQt6.QtCore import QEvent, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QKeyEvent, QPixmap
from PyQt6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from lanplay import games
from lanplay.badges import badges
from lanplay.content import in_play
from lanplay.messages import is_message, render
from lanplay.verdict import team_word
from protocol.messages import Lobby
from ui.dialogs.network_help import Notice
from ui.look import icons, theme
from ui.look.flow import FlowLayout
from ui.look.widgets import Badge, Card, ChatPanel, button, label, pixmap_label
from ui.words.game_words import game_name
from ui.words.i18n import _, and_list, content
from ui.words.option_words import choice_words, label_words


def options_text(lobby: Lobby) -> str:
    """The mode and options in words: 'Standard · Cards in hand: 4 · ...'."""
    try:
        game = games.load(lobby.game)
    except KeyError:
        return lobby.mode
    mode = next((content("mode", f"{lobby.game}:{m.id}", m.name) for m in game.modes
                 if m.id == lobby.mode), lobby.mode)
    parts = [mode]
    for option in game.options:
        if option.key in lobby.options and (not option.modes or lobby.mode in option.modes):
            value = _option_value(lobby.game, option.key, lobby.options[option.key])
            # translators: an option and its value in the room's line under the title
            parts.append(_("{option}: {value}").format(option=label_words(lobby.game, option),
                                                       value=value))
    # a line breaks between the parts, never inside "built-in" ("built-" / "in")
    return " \u00b7 ".join(part.replace("-", "\u2011") for part in parts)


def _option_value(game: str, key: str, value: Any) -> str:
    """An option's value as a player reads it: yes/no, and the pack by its folder name."""
    if key == in_play.PACK_OPTION:
        return str(value) if value else _("built-in")
    return choice_words(key, value, game)


def seat_marks(seat: dict[str, Any]) -> list[tuple[str, str]]:
    """(text, look) marks of a seat, in the order a player scans them."""
    marks: list[tuple[str, str]] = []
    if seat.get("owner"):
        # translators: a seat's mark in the room: this player hosts the room
        marks.append((_("Host"), "muted"))
    if seat.get("bot"):
        marks.append((_("Bot"), "muted"))
    if not seat.get("connected", True):
        marks.append((_("Disconnected"), "error"))
    if seat.get("standin"):
        marks.append((_("A bot plays for now"), "muted"))
    marks.append((_("Ready"), "ok") if seat.get("ready") else (_("Not ready"), "muted"))
    return marks


def _height(widget: QWidget) -> int:
    """The height a seat's widget takes: at its width once it is laid out (the marks
    wrap), else its one line."""
    if widget.isVisible() and widget.hasHeightForWidth():
        return max(widget.sizeHint().height(), widget.heightForWidth(widget.width()))
    return widget.sizeHint().height()


def seat_teams(lobby: Lobby) -> dict[int, str]:
    """Seat -> "Green team" / "Red team" when the game and mode play in teams.

    A game says so with an optional ``teams(players, mode)`` returning the seats
    of each team (G8 in docs/GAME-SURFACE.md); moving seats is how the owner
    forms the teams, so the room shows them as they will be.
    """
    try:
        game = games.load(lobby.game)
    except KeyError:
        return {}
    teams_of = getattr(game, "teams", None)
    if teams_of is None:
        return {}
    groups = teams_of(len(lobby.seats), lobby.mode) or []
    return {seat: team_name(t) for t, group in enumerate(groups) for seat in group}


def team_name(team: int) -> str:
    """A team as the room and the end screen name it (``lanplay.verdict.team_word``:
    the first green, the second red)."""
    return render(team_word(team))


NOTICE_GAP = 6
"""Pixels kept free between the notice's foot and the chat's input below it."""
READY_KEY = "Waiting for {seats} to be ready."
"""The host's message for seats not ready yet (lanplay.room): read by one of them, it
says "you" and what to press."""


def problem_text(lobby: Lobby, you: int | None) -> str:
    """Why the game cannot start, in this laptop's language: the host's message
    rendered here (its English ``problem`` from a host that sends none)."""
    message = lobby.problem_message
    names = [str(s.get("name", "?")) for s in lobby.seats]
    if not is_message(message):
        me = lobby.seats[you] if you is not None and 0 <= you < len(lobby.seats) else None
        return _with_you(lobby.problem or "", me)
    assert message is not None
    arg = (message.get("args") or {}).get("seats")
    waiting = arg.get("seats") if isinstance(arg, dict) else None
    if message.get("key") == READY_KEY and isinstance(waiting, list) and you in waiting:
        others = [names[s] for s in waiting if isinstance(s, int) and s != you
                  and 0 <= s < len(names)]
        if not others:
            return _("Waiting for you to be ready: press \u201cI'm ready\u201d.")
        return _("Waiting for you and {others} to be ready: press \u201cI'm ready\u201d."
                 ).format(others=and_list(others))
    return render(message, names)


def _with_you(problem: str, me: dict[str, Any] | None) -> str:
    """'Waiting for Mia and Ben to be ready.' as Mia reads it: 'Waiting for you and Ben
    to be ready: press “I'm ready”.' (the host's English; the lobby's problem_message
    holds the same as a message)."""
    head, tail = "Waiting for ", " to be ready."
    if not (problem.startswith(head) and problem.endswith(tail)):
        return problem
    names = re.split(r", | and ", problem[len(head):-len(tail)])
    name = me.get("name") if me is not None else None
    if name in names:
        others = [n for n in names if n != name]
        if not others:
            return _("Waiting for you to be ready: press \u201cI'm ready\u201d.")
        return _("Waiting for you and {others} to be ready: press \u201cI'm ready\u201d."
                 ).format(others=and_list(others))
    return _("Waiting for {names} to be ready.").format(names=and_list(names))


class RoomPage(QWidget):
    ready = pyqtSignal(bool)
    start = pyqtSignal()
    add_bot = pyqtSignal()
    remove = pyqtSignal(int)
    move_seat = pyqtSignal(int, int)
    leave = pyqtSignal()
    rules = pyqtSignal()
    sit = pyqtSignal()
    """A spectator takes a free seat."""
    change_game = pyqtSignal()
    bots_chosen = pyqtSignal(str)
    """The owner chose how the host's bots play: "relaxed" or "strong"."""
    """The owner wants another game, mode or options in this room."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lobby: Lobby | None = None
        self.you: int | None = None
        self.owner = False
        self.seat_rows: list[dict[str, QWidget]] = []
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._fit_seats)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 24, 40, 24)
        outer.setSpacing(16)

        top = QHBoxLayout()
        top.setSpacing(16)
        self.picture = pixmap_label(icons.game_pixmap("alles-klar", 64))
        top.addWidget(self.picture)
        titles = QVBoxLayout()
        titles.setSpacing(2)
        self.title = label(_("Joining\u2026"), "title")
        self.subtitle = label("", "muted", wrap=True)
        self.address = label("", "muted", wrap=True)  # a note may follow the address
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        titles.addWidget(self.title)
        titles.addWidget(self.subtitle)
        titles.addWidget(self.address)
        top.addLayout(titles, 1)
        # The owner's "Change game…" goes under Rules and Leave, beside the title's
        # three lines, so the title and the address keep their width at 1024.
        buttons = QVBoxLayout()
        buttons.setSpacing(8)
        first = QHBoxLayout()
        first.setSpacing(16)
        self.rules_button = button(_("Rules (F1)"))
        self.rules_button.clicked.connect(self.rules)
        first.addWidget(self.rules_button)
        self.leave_button = button(_("Leave"))
        self.leave_button.clicked.connect(self.leave)
        first.addWidget(self.leave_button)
        buttons.addLayout(first)
        self.change_button = button(_("Change game\u2026"))
        self.change_button.setToolTip(_("Another game, mode or options; the room stays open "
                                        "and the seats stay where the new game has room."))
        self.change_button.clicked.connect(self.change_game)
        self.change_button.hide()
        buttons.addWidget(self.change_button, 0, Qt.AlignmentFlag.AlignRight)
        buttons.addStretch(1)
        top.addLayout(buttons)
        outer.addLayout(top)

        body = QHBoxLayout()
        body.setSpacing(20)
        outer.addLayout(body, 1)
        seats_card = Card()
        body.addWidget(seats_card, 5)  # a seat's row whole at 1024, German's too
        self.seats_heading = label(_("Seats"), "heading")
        seats_card.body.addWidget(self.seats_heading)
        # Sixteen seats (S-tier team) are taller than a small window: the seats scroll
        # inside their card rather than squeezing every row.
        seats = QWidget()
        self.grid = QGridLayout(seats)
        self.grid.setContentsMargins(0, 0, 6, 0)
        self.grid.setHorizontalSpacing(12)
        self.grid.setVerticalSpacing(10)
        self.grid.setColumnStretch(2, 1)
        self.seats_area = QScrollArea()
        self.seats_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to its buttons
        self.seats_area.setWidgetResizable(True)
        self.seats_area.setFrameShape(QFrame.Shape.NoFrame)
        self.seats_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.seats_area.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget "
                                      "{ background: transparent; }")
        self.seats_area.setWidget(seats)
        seats_card.body.addWidget(self.seats_area, 1)
        self.add_bot_button = button(_("Add a bot"))
        self.add_bot_button.clicked.connect(self.add_bot)
        bots = QHBoxLayout()
        bots.addWidget(self.add_bot_button)
        self.bots_box = QComboBox()
        self.bots_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.bots_box.addItem(_("Relaxed bots"), "relaxed")
        self.bots_box.addItem(_("Strong bots"), "strong")
        self.bots_box.setToolTip(_("Relaxed bots play at a human pace and not always the "
                                   "best move; strong bots play to win."))
        self.bots_box.activated.connect(
            lambda i: self.bots_chosen.emit(str(self.bots_box.itemData(i))))
        bots.addWidget(self.bots_box)
        self.bots_word = label("", "muted")
        bots.addWidget(self.bots_word)
        bots.addStretch(1)
        seats_card.body.addLayout(bots)
        self.watchers = label("", "muted", wrap=True)
        self.watchers.hide()
        seats_card.body.addWidget(self.watchers)
        seats_card.body.addStretch(0)  # what the seats (stretch 1, up to their height) leave
        self.problem = label("", "problem", wrap=True)
        seats_card.body.addWidget(self.problem)
        self.error = label("", "error", wrap=True)
        seats_card.body.addWidget(self.error)
        actions = QHBoxLayout()
        self.ready_button = button(_("I'm ready"))
        self.ready_button.setCheckable(True)
        self.ready_button.setMinimumHeight(44)
        self.ready_button.clicked.connect(lambda checked: self.ready.emit(bool(checked)))
        actions.addWidget(self.ready_button, 1)
        self.sit_button = button(_("Take a seat"), "primary")
        self.sit_button.setMinimumHeight(44)
        self.sit_button.clicked.connect(self.sit)
        self.sit_button.hide()
        actions.addWidget(self.sit_button, 1)
        self.start_button = button(_("Start the game"), "primary")
        self.start_button.setMinimumHeight(44)
        self.start_button.clicked.connect(self.start)
        actions.addWidget(self.start_button, 1)
        seats_card.body.addLayout(actions)

        chat_card = Card()
        body.addWidget(chat_card, 2)
        # The browser page: its QR code (a phone's camera opens it) and its address.
        page = QHBoxLayout()
        page.setSpacing(10)
        self.page_qr = QLabel()
        self.page_qr.hide()
        page.addWidget(self.page_qr, 0, Qt.AlignmentFlag.AlignTop)
        self.page_hint = label(_("No lanplay? Scan this, or open in a browser:"), "muted",
                               wrap=True)
        self.page_hint.hide()
        page.addWidget(self.page_hint, 1)
        chat_card.body.addLayout(page)
        self.page_address = label("", "")
        self.page_address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.page_address.hide()
        chat_card.body.addWidget(self.page_address)
        self.chat = ChatPanel()
        self.chat.line.left.connect(lambda: self.ready_button.setFocus(
            Qt.FocusReason.OtherFocusReason))
        chat_card.body.addWidget(self.chat)
        self._notice_over(chat_card)

    # --- the notice -----------------------------------------------------------------

    def _notice_over(self, chat_card: QWidget) -> None:
        """The notice (what hosting needs from the firewall, why nobody has joined yet)
        floats over the chat, which is empty while nobody has joined: it never moves a
        control (in the page's column it pushed Start down and squeezed the seats to
        one row at 1024x640, and "Got it" moved "Add a bot"). A long one scrolls."""
        self._chat_card = chat_card
        self.notice_area = QScrollArea(self)
        self.notice_area.setObjectName("roomNotice")
        self.notice_area.setWidgetResizable(True)
        self.notice_area.setFrameShape(QFrame.Shape.NoFrame)
        self.notice_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.notice_area.setStyleSheet("#roomNotice, #roomNotice > QWidget"
                                       " { background: transparent; }")
        self.notice = Notice()
        self.notice.title.setWordWrap(True)  # a narrow column: the heading wraps too
        # A little tighter than a card elsewhere: under X at 1024x640 the firewall
        # notice, kept above the chat input, scrolled by a few pixels.
        self.notice.body.setContentsMargins(12, 10, 12, 10)
        self.notice.body.setSpacing(8)
        self.notice_area.setWidget(self.notice)
        self.notice.hide()  # (setWidget shows it): hidden until it has something to say
        self.notice_area.hide()
        self.notice.installEventFilter(self)
        chat_card.installEventFilter(self)

    def eventFilter(self, watched: Any, event: QEvent | None) -> bool:
        if event is not None and event.type() == QEvent.Type.Resize \
                and any(watched is row.get("marks") for row in self.seat_rows):
            self._fit_seats()  # its marks on more lines, or fewer: count the rows again
        if event is not None and (watched is self.notice or watched is self._chat_card):
            kind = event.type()
            if watched is self.notice and kind in (QEvent.Type.ShowToParent,
                                                   QEvent.Type.HideToParent):
                # (sent when it is shown or hidden even while its area is hidden)
                self.notice_area.setVisible(kind == QEvent.Type.ShowToParent)
                self._place_notice()
            elif kind in (QEvent.Type.Resize, QEvent.Type.Move):
                self._place_notice()
        return super().eventFilter(watched, event)

    def _place_notice(self) -> None:
        box = self._chat_card.geometry()
        self.notice.ensurePolished()
        # Measured afresh: a layout keeps the height it found for a width, and a hidden
        # notice's new words did not clear it (at 1280 the first-host notice was sized
        # for an earlier, shorter one, and "Got it" fell below the area).
        self.notice.setMinimumHeight(0)
        laid = self.notice.layout()
        if laid is not None:
            laid.invalidate()
        frame = self.notice.contentsMargins()  # a card's border, outside its layout

        def need_at(width: int) -> int:
            body = self.notice.layout()
            inner = body.totalHeightForWidth(width) if body is not None \
                and body.hasHeightForWidth() else self.notice.sizeHint().height()
            return max(inner, self.notice.heightForWidth(width)) + frame.top() \
                + frame.bottom() + 8

        need = need_at(box.width())
        # Down to a gap above the chat's input, which stays free to type in: the notice
        # stands in for the (empty) chat log. Before, it took the card's height and its
        # foot lay on the input's top edge (under X at 1024x640, 3 px apart).
        line = self.chat.line
        line_top = line.mapTo(self, line.rect().topLeft()).y() if line.isVisible() \
            else box.bottom()
        room = max(1, min(box.height(), line_top - NOTICE_GAP - box.y()))
        self.notice_area.setGeometry(box.x(), box.y(), box.width(), room)
        if need > room:  # it scrolls: as tall as its words at the narrower width
            bar = self.notice_area.verticalScrollBar()
            need = need_at(box.width() - (bar.sizeHint().width() if bar is not None else 12))
        self.notice.setMinimumHeight(need)
        self.notice_area.raise_()

    # --- rendering ------------------------------------------------------------------

    def set_address(self, text: str) -> None:
        self.address.setText(text)
        self.address.setVisible(bool(text))

    def set_page(self, url: str, qr_png: bytes = b"") -> None:
        """Where a browser joins this room (the host serves the page), and its QR code."""
        self.page_address.setText(url)
        self.page_address.setVisible(bool(url))
        self.page_hint.setVisible(bool(url))
        image = QPixmap()
        if url and qr_png and image.loadFromData(qr_png, "PNG"):
            self.page_qr.setPixmap(image.scaled(88, 88, Qt.AspectRatioMode.KeepAspectRatio,
                                                Qt.TransformationMode.FastTransformation))
            self.page_qr.setToolTip(url)
            self.page_qr.show()
        else:
            self.page_qr.hide()

    def show_lobby(self, lobby: Lobby, you: int | None, owner: bool) -> None:
        self.lobby, self.you, self.owner = lobby, you, owner
        self.error.setText("")
        try:
            total = games.load(lobby.game).modes[0].max_players
            total = next((m.max_players for m in games.load(lobby.game).modes
                          if m.id == lobby.mode), total)
        except KeyError:
            total = len(lobby.seats)
        self.picture.setPixmap(icons.game_pixmap(lobby.game, 64))
        self.title.setText(_("{game} at {host}'s").format(game=game_name(lobby.game),
                                                          host=lobby.host_name))
        self.subtitle.setText(options_text(lobby))
        self.seats_heading.setText(_("Seats ({taken} of {total})").format(
            taken=len(lobby.seats), total=total))
        self._rebuild_seats(lobby)
        full = len(lobby.seats) >= total
        self.add_bot_button.setVisible(owner)
        strength = getattr(lobby, "bots", "relaxed")
        self.bots_box.setVisible(owner)
        self.bots_box.setCurrentIndex(max(0, self.bots_box.findData(strength)))
        has_bots = any(s.get("bot") for s in lobby.seats)
        self.bots_word.setText(_("Strong bots") if strength == "strong" else _("Relaxed bots"))
        self._fit_bots_box()
        self.bots_word.setVisible(not owner and has_bots)
        self.change_button.setVisible(owner)
        self.add_bot_button.setEnabled(not full)
        self.add_bot_button.setToolTip(_("The room is full.") if full else
                                       _("A bot plays a seat; it sees only its own cards."))
        me = lobby.seats[you] if you is not None and 0 <= you < len(lobby.seats) else None
        self._show_watchers(lobby, you is None, full)
        self.ready_button.setVisible(me is not None)
        self.ready_button.setChecked(bool(me and me.get("ready")))
        self.ready_button.setText(_("Ready \u2713") if me and me.get("ready") else
                                  _("I'm ready"))
        self.start_button.setVisible(owner)
        self.start_button.setEnabled(owner and lobby.problem is None)
        if you is None:
            self.problem.setText(_("You are watching: every seat is taken; one may free up.")
                                 if full else _("You are watching: take a seat while one is "
                                                "free."))
        elif lobby.problem:
            self.problem.setText(problem_text(lobby, you))
        elif owner:
            self.problem.setText(_("Everyone is ready: start when you like."))
        else:
            host = next((s["name"] for s in lobby.seats if s.get("owner")), lobby.host_name)
            self.problem.setText(_("Everyone is ready: waiting for {host} to start.").format(
                host=host))
        theme.restyle(self.problem, "problem" if lobby.problem else "ok")
        self.leave_button.setText(_("Close the room") if owner else _("Leave"))
        self.leave_button.setToolTip(_("Everyone at this table goes back to Home.") if owner
                                     else _("Back to Home; your seat is given up."))

    def _show_watchers(self, lobby: Lobby, watching: bool, full: bool) -> None:
        """Who watches (everyone, the owner above all, sees it); a spectator's way in."""
        names = list(lobby.watchers or [])
        count = max(len(names), int(lobby.spectators or 0))
        if count:
            shown = ", ".join(names) if names else f"{count}"
            self.watchers.setText(_("Watching: {names}").format(names=shown))
        self.watchers.setVisible(bool(count))
        self.sit_button.setVisible(watching)
        self.sit_button.setEnabled(watching and not full and lobby.phase != "playing")
        self.sit_button.setToolTip(_("Every seat is taken.") if full else
                                   _("Sit down in this room as a player."))

    def _rebuild_seats(self, lobby: Lobby) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()  # gone now, not only once the event loop deletes it
                widget.deleteLater()
        self.seat_rows = []
        last = len(lobby.seats) - 1
        teams = seat_teams(lobby)
        looks = badges(lobby.seats)
        for i, seat in enumerate(lobby.seats):
            name = str(seat.get("name", "?"))
            badge = Badge(size=34)
            badge.set(name, looks[i].colour, bot=bool(seat.get("bot")),
                      faded=not seat.get("connected", True), text=looks[i].text)
            text = f"{i + 1}. {name}" + ("  " + _("(you)") if i == self.you else "")
            who = label(text, "big")
            marks = QWidget()
            # Wrapping: 'Grünes Team  Host  Nicht bereit' (German) or 'Disconnected  A
            # bot plays for now' made the row wider than the seats' box at 1024x640,
            # which does not scroll sideways: 'Remove' was cut at its right edge.
            mark_row = FlowLayout(marks, spacing=12)
            mark_row.setContentsMargins(12, 0, 0, 0)
            marks.installEventFilter(self)  # its lines known: the box counts them
            if i in teams:
                mark_row.addWidget(label(teams[i], "ok" if teams[i] == team_name(0)
                                         else "problem"))
            for mark, look in seat_marks(seat):
                mark_row.addWidget(label(mark, look))
            row: dict[str, QWidget] = {"badge": badge, "name": who, "marks": marks}
            self.grid.addWidget(badge, i, 0)
            self.grid.addWidget(who, i, 1)
            self.grid.addWidget(marks, i, 2)
            if self.owner:
                up = button("\u25b2", "flat")
                up.setToolTip(_("Move {name} one seat earlier").format(name=name))
                up.setAccessibleName(up.toolTip())  # a screen reader says more than "▲"
                up.setEnabled(i > 0)
                up.clicked.connect(lambda _=False, i=i: self.move_seat.emit(i, i - 1))
                down = button("\u25bc", "flat")
                down.setToolTip(_("Move {name} one seat later").format(name=name))
                down.setAccessibleName(down.toolTip())
                down.setEnabled(i < last)
                down.clicked.connect(lambda _=False, i=i: self.move_seat.emit(i, i + 1))
                self.grid.addWidget(up, i, 3)
                self.grid.addWidget(down, i, 4)
                row["up"], row["down"] = up, down
                if i != self.you:
                    remove = button(_("Remove"))
                    remove.setToolTip(_("Send {name} back to Home").format(name=name))
                    remove.setAccessibleName(remove.toolTip())
                    remove.clicked.connect(lambda _=False, i=i: self.remove.emit(i))
                    self.grid.addWidget(remove, i, 5)
                    row["remove"] = remove
            self.seat_rows.append(row)
        self._fit_seats()

    def _fit_bots_box(self) -> None:
        """The bots' choice as wide as its longest words (again when the text grows)."""
        metrics = self.bots_box.fontMetrics()
        self.bots_box.setMinimumWidth(48 + max(metrics.horizontalAdvance(
            self.bots_box.itemText(i)) for i in range(self.bots_box.count())))

    def _fit_seats(self) -> None:
        """As tall as the seats need (no taller: "Add a bot" stays right under them).
        Counted row by row: widgets just added are shown only later, and a layout
        leaves out what is not shown yet."""
        rows = [max((_height(w) for w in row.values()), default=0) for row in self.seat_rows]
        margins = self.grid.contentsMargins()
        need = sum(rows) + self.grid.verticalSpacing() * max(0, len(rows) - 1) \
            + margins.top() + margins.bottom()
        self.seats_area.setMaximumHeight(need + 4)
        self._fit_bots_box()
        if self.notice_area.isVisible():
            self._place_notice()  # the text grew or shrank: the notice measures again

    def changeEvent(self, event: QEvent | None) -> None:
        """All text grew or shrank (a taller window, Ctrl+plus): count the rows again,
        once every row has its new size."""
        super().changeEvent(event)
        if event is not None and event.type() in (QEvent.Type.StyleChange,
                                                  QEvent.Type.FontChange):
            self._refit.start()

    def show_error(self, reason: str) -> None:
        self.error.setText(reason)

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """Enter, where no button or list takes it, goes to the chat line; Esc there
        comes back to "I'm ready"."""
        if event is not None and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.chat.line.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
        super().keyPressEvent(event)
