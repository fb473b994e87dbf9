"""Home: who you are, the games on this network, and the ways to play.

Renders what the Browser reports and says what the player can do next; the
joining itself is the window's job (it owns the connection). Errors from a
join appear right under the Join button, where the player just clicked.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PyQt6.QtCore import QEvent, QObject, QSize, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QBrush, QColor, QIcon, QKeyEvent
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from lanplay.net.discovery import FoundHost, local_addresses
from lanplay.store import listing
from protocol.messages import PROTOCOL_VERSION
from ui.dialogs import network_help
from ui.look import icons, theme
from ui.look.widgets import Badge, Card, button, label
from ui.services.seats import KeptSeat
from ui.words.game_words import game_name
from ui.words.i18n import N_, _

EMPTY_TEXT = N_(
    "No games found on this network yet.\n\n"
    "Start one with \u201cHost a game\u2026\u201d: it appears here on every laptop "
    "in the room.\n\nA friend is hosting but nothing shows up? Some networks block "
    "discovery: use \u201cJoin by address\u2026\u201d and type the address their "
    "screen shows.")
QUIET_AFTER = 20.0
"""Discovery answers within a second or two on a LAN that lets it through; twenty
seconds of nothing is worth explaining."""
STATES = {"lobby": N_("In the room"), "playing": N_("Playing"), "over": N_("Between games")}
COLUMNS = (N_("Host"), N_("Game"), N_("Seats"), N_("Status"), "")


def state_text(state: str) -> str:
    return _(STATES[state]) if state in STATES else state


def version_problem(host: FoundHost) -> str:
    """Why this lanplay cannot join ``host``, in one sentence."""
    return _("{host} runs lanplay protocol {theirs}, this laptop speaks {ours}: use the same "
             "lanplay version on both laptops.").format(host=host.host_name,
                                                         theirs=host.version,
                                                         ours=PROTOCOL_VERSION)


def watch_only(host: FoundHost) -> bool:
    """A running game or a full room: there is no seat to take, only a table to watch."""
    return host.state == "playing" or host.seats_taken >= host.seats_total


def host_line(host: FoundHost) -> str:
    """The host as one line of text (tooltips, tests, screen readers)."""
    parts = [host.host_name, game_name(host.game),
             _("{taken}/{total} seats").format(taken=host.seats_taken, total=host.seats_total),
             state_text(host.state)]
    if host.password:
        parts.append(_("password needed"))
    if not host.compatible:
        parts.append(_("other version ({version}): cannot join").format(version=host.version))
    return " — ".join(parts)


class HomePage(QWidget):
    host_clicked = pyqtSignal()
    join_address_clicked = pyqtSignal()
    join_requested = pyqtSignal(object)
    """FoundHost: the player asked to join it."""
    identity_clicked = pyqtSignal()
    resume_clicked = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._found: dict[str, FoundHost] = {}
        self._items: dict[str, QTreeWidgetItem] = {}
        self.kept: Callable[[FoundHost], KeptSeat | None] = lambda host: None
        """The seat this window kept at a room, if any (the window's ``KeptSeats``)."""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 28, 40, 28)
        outer.setSpacing(20)

        top = QHBoxLayout()
        titles = QVBoxLayout()
        titles.setSpacing(2)
        titles.addWidget(label("lanplay", "title"))
        # The line under the title and your name wrap where the row is short: with a
        # long name (24 letters) the row was wider than a 1024x640 screen's window, and
        # Qt squeezed the line, the name and (German, under X) "Change name or colour…".
        titles.addWidget(label(_("Tabletop games with the people in this room"), "muted",
                               wrap=True))
        top.addLayout(titles, 1)
        # This laptop's addresses, beside the title: in a card of the side column they
        # pushed the Play card's hints out of a 1024x640 screen in German (cut in half).
        here = QVBoxLayout()
        here.setSpacing(0)
        self.here_text = label(_("Others can join a game you host at:"), "muted", wrap=True)
        self.here_text.setMinimumWidth(250)  # two lines in German, not four
        self.here_text.setMaximumWidth(320)
        here.addWidget(self.here_text)
        self.addresses = label("", "big", wrap=True)
        self.addresses.setMaximumWidth(320)
        self.addresses.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.addresses.setAccessibleName(_("This laptop"))
        here.addWidget(self.addresses)
        top.addLayout(here)
        top.addSpacing(28)
        self.badge = Badge(size=40)
        self.you = label("", "big", wrap=True)
        self.change = button(_("Change name or colour\u2026"), "flat")
        self.change.clicked.connect(self.identity_clicked)
        who = QVBoxLayout()
        who.setSpacing(0)
        who.addWidget(self.you)
        who.addWidget(self.change, 0, Qt.AlignmentFlag.AlignLeft)
        top.addWidget(self.badge)
        top.addSpacing(6)
        top.addLayout(who)
        outer.addLayout(top)

        body = QHBoxLayout()
        body.setSpacing(20)
        outer.addLayout(body, 1)

        games_card = Card()
        body.addWidget(games_card, 5)  # the list needs its columns whole at 1024 wide
        games_card.body.addWidget(label(_("Games on this network"), "heading"))
        self.stack = QStackedWidget()
        games_card.body.addWidget(self.stack, 1)
        self.hosts = QTreeWidget()
        self.hosts.setColumnCount(len(COLUMNS))
        self.hosts.setHeaderLabels([_(c) for c in COLUMNS])
        self.hosts.setRootIsDecorated(False)
        self.hosts.setUniformRowHeights(False)
        self.hosts.setWordWrap(True)  # "Mia · 192.168.1.20" over two lines at 1024 wide
        self.hosts.setIconSize(QSize(26, 26))  # (a 1024-wide window keeps the names whole)
        self.hosts.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.hosts.setAlternatingRowColors(True)
        # Never sorted live: a row must not move while the pointer is on the list (a
        # double-click once joined the room that slid under it). A new host goes in its
        # place by name, or at the end while the pointer is on the list.
        self.hosts.setSortingEnabled(False)
        header = self.hosts.header()
        assert header is not None
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for col in (1, 2, 3, 4):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.hosts.itemDoubleClicked.connect(lambda *_: self._join_selected())
        self.hosts.setAccessibleName(_("Games on this network"))
        self.hosts.installEventFilter(self)  # Enter on the list joins, as a double click
        self.hosts.itemSelectionChanged.connect(self._selection_changed)
        self.stack.addWidget(self.hosts)
        self.empty = QWidget()
        empty = QVBoxLayout(self.empty)
        empty.setContentsMargins(30, 20, 30, 20)
        empty.addStretch(1)
        self.empty_text = label(_(EMPTY_TEXT), "muted", wrap=True)
        self.empty_text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        empty.addWidget(self.empty_text)
        self.empty_join = button(_("Join by address\u2026"))
        self.empty_join.setMinimumHeight(40)
        self.empty_join.clicked.connect(self.join_address_clicked)
        self.empty_join.hide()
        empty.addSpacing(12)
        empty.addWidget(self.empty_join, 0, Qt.AlignmentFlag.AlignHCenter)
        empty.addStretch(1)
        self.stack.addWidget(self.empty)
        self.stack.setCurrentWidget(self.empty)
        self.quiet_after = QUIET_AFTER
        """Seconds of an empty list before Home says why it may be empty."""
        self._quiet = QTimer(self)
        self._quiet.setSingleShot(True)
        self._quiet.timeout.connect(self._still_quiet)

        row = QHBoxLayout()
        self.join = button(_("Join"), "primary")
        self.join.setEnabled(False)
        self.join.clicked.connect(self._join_selected)
        row.addWidget(self.join)
        self.message = label("", wrap=True)
        row.addWidget(self.message, 1)
        games_card.body.addLayout(row)

        side = QVBoxLayout()
        side.setSpacing(20)
        body.addLayout(side, 2)  # (its buttons' words wrap or fit; the list's do not)
        play = Card()
        play.body.addWidget(label(_("Play"), "heading"))
        self.host = button(_("Host a game\u2026"), "primary")
        self.host.setMinimumHeight(44)
        self.host.clicked.connect(self.host_clicked)
        play.body.addWidget(self.host)
        play.body.addWidget(label(_("Open a room on this laptop; the others find it in "
                                    "their list."), "muted", wrap=True))
        self.join_address = button(_("Join by address\u2026"))
        self.join_address.setMinimumHeight(40)
        self.join_address.clicked.connect(self.join_address_clicked)
        play.body.addWidget(self.join_address)
        play.body.addWidget(label(_("When a game does not show up in the list."), "muted",
                                  wrap=True))
        self.resume = button(_("Resume a game\u2026"))
        self.resume.setMinimumHeight(40)
        self.resume.clicked.connect(self.resume_clicked)
        self.resume_hint = label(_("A game hosted here that did not finish."), "muted",
                                 wrap=True)
        play.body.addWidget(self.resume)
        play.body.addWidget(self.resume_hint)
        self.unfinished: list[listing.SaveInfo] = []
        self.resume.hide()
        self.resume_hint.hide()
        side.addWidget(play)
        side.addStretch(1)
        self.refresh_addresses()

    # --- what the window tells us -------------------------------------------------------

    def set_identity(self, name: str, colour: str) -> None:
        self.badge.set(name or "?", colour)
        self.you.setText(name or _("No name yet"))

    def refresh_saves(self, root: str | os.PathLike[str] | None = None) -> None:
        """Offer "Resume a game…" only while there are unfinished saves in ``root``."""
        self.unfinished = [i for i in listing.list_saves(root) if not i.finished]
        self.resume.setVisible(bool(self.unfinished))
        self.resume_hint.setVisible(bool(self.unfinished))

    def refresh_addresses(self) -> None:
        self.addresses.setText(" \u00b7 ".join(local_addresses()))  # on one line where they fit

    def on_host(self, kind: str, host: FoundHost) -> None:
        """A Browser listener: a host was added, updated or removed."""
        if kind == "removed":
            self._found.pop(host.service, None)
            item = self._items.pop(host.service, None)
            if item is not None:
                self.hosts.takeTopLevelItem(self.hosts.indexOfTopLevelItem(item))
        else:
            self._found[host.service] = host
            item = self._items.get(host.service)
            if item is None:
                item = QTreeWidgetItem()
                self._items[host.service] = item
                self.hosts.insertTopLevelItem(self._place_for(host), item)
            self._fill(item, host)
        self._name_twins()
        if self._items:
            self.stack.setCurrentWidget(self.hosts)
            self._quiet.stop()
            if not self.hosts.selectedItems():  # the button always speaks of a row:
                first = self.hosts.topLevelItem(0)  # "Watch" for a running game at once
                if first is not None:
                    self.hosts.setCurrentItem(first)
        elif self.stack.currentWidget() is not self.empty:  # the last host went away
            self.listening()
        self._selection_changed()

    def _place_for(self, host: FoundHost) -> int:
        """Where a new host's row goes: in order of name, or last while the pointer is
        on the list (nothing moves under it)."""
        count = self.hosts.topLevelItemCount()
        if self.hosts.underMouse():
            return count
        key = (host.host_name.casefold(), host.address)
        place = 0
        for i in range(count):  # after the last row that comes before it
            row = self.hosts.topLevelItem(i)
            other = self._found.get(str(row.data(0, Qt.ItemDataRole.UserRole))) \
                if row is not None else None
            if other is not None and (other.host_name.casefold(), other.address) <= key:
                place = i + 1
        return place

    def _name_twins(self) -> None:
        """Two rooms of the same name ("Mia" and "Mia") carry their address, so they
        can be told apart."""
        names: dict[str, int] = {}
        places: dict[tuple[str, str], int] = {}
        for room in self._found.values():
            name = room.host_name.casefold()
            names[name] = names.get(name, 0) + 1
            places[(name, room.address)] = places.get((name, room.address), 0) + 1
        for service, item in self._items.items():
            host = self._found.get(service)
            if host is None:
                continue
            where = host.address if places.get((host.host_name.casefold(), host.address),
                                               0) < 2 else f":{host.port}"  # one laptop
            twin = names.get(host.host_name.casefold(), 0) > 1 and host.address
            # Two lines: on one, the Host column of a 1024x640 screen cut the address,
            # the one thing that tells the two apart, to "Lea · …".
            item.setText(0, f"{host.host_name}\n{where}" if twin else host.host_name)

    def listening(self) -> None:
        """Discovery runs (again): if nothing shows up for a while, say why that may be."""
        self.empty_text.setText(_(EMPTY_TEXT))
        self.empty_join.hide()
        self.stack.setCurrentWidget(self.hosts if self._items else self.empty)
        if not self._items:
            self._quiet.start(int(self.quiet_after * 1000))

    def _still_quiet(self) -> None:
        if self._items:
            return
        self.empty_text.setText(network_help.quiet_text())
        self.empty_join.show()

    def _fill(self, item: QTreeWidgetItem, host: FoundHost) -> None:
        item.setData(0, Qt.ItemDataRole.UserRole, host.service)
        item.setText(0, host.host_name)
        item.setIcon(1, icons.game_icon(host.game, host.compatible))
        item.setText(1, game_name(host.game))
        item.setText(2, f"{host.seats_taken}/{host.seats_total}")
        item.setText(3, state_text(host.state))
        marks: list[str] = []
        icon = QIcon()
        if not host.compatible:  # the whole reason shows under the list when picked
            marks.append(_("Other version"))
            icon = QIcon(icons.warning_pixmap(32))
        else:
            kept = self.kept(host)
            if kept is not None:  # joining takes it back, whatever the room's state
                marks.append(_("Your seat: {name}").format(name=kept.name or "?"))
            elif watch_only(host):
                marks.append(_("Watch"))
            if host.password:
                marks.append(_("Password"))
                icon = QIcon(icons.lock_pixmap(32))
        item.setText(4, " · ".join(marks))
        item.setIcon(4, icon)
        tip = version_problem(host) if not host.compatible else host_line(host)
        colour = QBrush(QColor("#7c8b93")) if not host.compatible else QBrush()
        for col in range(len(COLUMNS)):
            item.setToolTip(col, tip)
            item.setForeground(col, colour)

    def refresh_kept(self) -> None:
        """The kept seats changed: mark the rows again."""
        for service, item in self._items.items():
            host = self._found.get(service)
            if host is not None:
                self._fill(item, host)
        self._name_twins()
        self._selection_changed()

    def selected(self) -> FoundHost | None:
        items = self.hosts.selectedItems()
        if not items:
            return None
        return self._found.get(str(items[0].data(0, Qt.ItemDataRole.UserRole)))

    def item_for(self, service: str) -> QTreeWidgetItem | None:
        return self._items.get(service)

    def _selection_changed(self) -> None:
        host = self.selected()
        self.join.setEnabled(host is not None and host.compatible and not self._busy)
        kept = self.kept(host) if host is not None else None
        watch = host is not None and watch_only(host) and kept is None
        self.join.setText(_("Watch") if watch else _("Join"))
        self.join.setToolTip(_("The game is running or the room is full: watch the table "
                               "(no hand); take a seat when one frees up between games.")
                             if watch else _("Take your seat back at this table.")
                             if kept is not None else _("Take a seat in this room."))
        if host is not None and not host.compatible:
            self.show_error(version_problem(host))

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        if (watched is self.hosts and event is not None
                and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):
            self._join_current()
            return True
        return super().eventFilter(watched, event)

    def _join_current(self) -> None:
        """Enter on the list: the row the keys are on (Tab lands on one unselected)."""
        current = self.hosts.currentItem()
        if current is not None and not current.isSelected():
            current.setSelected(True)
        self._join_selected()

    def _join_selected(self) -> None:
        host = self.selected()
        if host is None or self._busy:
            return
        if not host.compatible:
            self.show_error(version_problem(host))
            return
        self.join_requested.emit(host)

    # --- feedback near the buttons ------------------------------------------------------

    _busy = False

    def set_busy(self, text: str | None) -> None:
        """Show what is happening (or stop, with None); the list stays live meanwhile."""
        self._busy = text is not None
        self.host.setEnabled(not self._busy)
        self.join_address.setEnabled(not self._busy)
        self.resume.setEnabled(not self._busy)
        self._selection_changed()
        if text is not None:
            self._say(text, "muted")

    def show_error(self, text: str) -> None:
        self._say(text, "error")

    def clear_message(self) -> None:
        self._say("", None)

    def _say(self, text: str, look: str | None) -> None:
        self.message.setText(text)
        theme.restyle(self.message, look)


__all__ = ["HomePage", "game_name", "host_line", "version_problem", "watch_only"]
