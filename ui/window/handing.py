"""The room outlives this laptop, in the window: the Room menu's "Hand the room over…"
and "Name a deputy…", the question on the other laptop's window, and the one line
that says who referees now.

The rules are the core's (``lanplay.host.handover`` on the host, a
``lanplay.peer.successor.Successor`` beside a joined window's peer): this module
only lists the laptops to pick, asks the person, and follows what happens. A window
that accepts becomes the room's host: its connection adopts the new ``Host``, so
closing the window closes (or pauses) the room as for any room it opened.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QObject
from PyQt6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QVBoxLayout,
)

from lanplay.host.config import HostConfig
from lanplay.host.peers import Conn
from lanplay.messages import render
from lanplay.net.discovery import room_finder
from lanplay.peer.successor import Successor
from lanplay.session import Refusal
from protocol.messages import Offer
from ui.dialogs.confirm import Confirm
from ui.look.widgets import button, label
from ui.services.connection import Connection
from ui.words.i18n import _

if TYPE_CHECKING:
    from ui.window.window import MainWindow


class Pick(QDialog):
    """The laptops the room could go to; ``chosen`` is the one picked."""

    def __init__(self, parent: Any, role: str, conns: list[Conn]) -> None:
        super().__init__(parent)
        self.conns = conns
        title = _("Hand the room over") if role == "host" else _("Name a deputy")
        self.setWindowTitle(title)
        self.setMinimumWidth(420)
        layout = QVBoxLayout(self)
        layout.addWidget(label(title, "heading"))
        layout.addWidget(label(
            _("The laptop you pick referees the game from now on: it will hold the deck "
              "and every hand. Its person is asked first.") if role == "host" else
            _("If this laptop leaves or goes silent, the laptop you pick carries the game "
              "on: it holds a copy of the room from now on. Its person is asked first."),
            wrap=True))
        self.list = QListWidget()
        for conn in conns:
            name = conn.seat.name if conn.seat is not None else conn.name
            text = name if conn.seat is not None else _("{name} (watching)").format(name=name)
            QListWidgetItem(text, self.list)
        if conns:
            self.list.setCurrentRow(0)
        layout.addWidget(self.list)
        row = QHBoxLayout()
        row.addStretch(1)
        cancel = button(_("Cancel"))
        cancel.clicked.connect(self.reject)
        self.ok = button(_("Ask"), "primary")
        self.ok.clicked.connect(self.accept)
        self.ok.setDefault(True)
        row.addWidget(cancel)
        row.addWidget(self.ok)
        layout.addLayout(row)

    @property
    def chosen(self) -> Conn | None:
        row = self.list.currentRow()
        return self.conns[row] if 0 <= row < len(self.conns) else None


class Handing(QObject):
    """One window's part in a room that moves between laptops."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        bar = window.menuBar()
        assert bar is not None
        menu = QMenu(_("&Room"), bar)
        last = bar.actions()
        if last:  # before Help, which stays last
            bar.insertMenu(last[-1], menu)
        else:
            bar.addMenu(menu)
        hand = menu.addAction(_("Hand the room over\u2026"))
        deputy = menu.addAction(_("Name a deputy\u2026"))
        assert hand is not None and deputy is not None
        self.hand_action, self.deputy_action = hand, deputy
        hand.triggered.connect(lambda: self.pick("host"))
        deputy.triggered.connect(lambda: self.pick("deputy"))
        menu.aboutToShow.connect(self.refresh)
        self.refresh()
        self.offered: set[str] = set()
        """Rooms whose owner was already offered a deputy (once each)."""

    # --- the host's side ----------------------------------------------------------------

    def refresh(self) -> None:
        """The entries work while this window hosts a room with somewhere to go."""
        host = self._host()
        able = host is not None and bool(host.handover.candidates())
        self.hand_action.setEnabled(able)
        self.deputy_action.setEnabled(able)

    def _host(self) -> Any:
        conn = self.window.conn
        host = conn.host if conn is not None else None
        return host if host is not None and not host.status.stopping else None

    def pick(self, role: str) -> None:
        host = self._host()
        if host is None:
            return
        dialog = Pick(self.window, role, host.handover.candidates())
        dialog.accepted.connect(lambda: self.offer(role, dialog.chosen))
        self.window.dialogs.open(dialog)

    def offer(self, role: str, conn: Conn | None) -> None:
        host = self._host()
        if host is None or conn is None:
            return
        try:
            host.handover.offer(conn, role)
        except Refusal as exc:
            self.window.tell(render(exc.message))
            return
        name = conn.seat.name if conn.seat is not None else conn.name
        self.window.tell(_("Asked {name}\u2026").format(name=name))

    def on_host_event(self, what: str) -> None:
        """A game starts in a room this window hosts: offer a deputy, once per room."""
        host = self._host()
        if what != "started" or host is None or host.room.deputy is not None \
                or host.room.id in self.offered:
            return
        candidates = host.handover.candidates()
        if candidates:
            self.offered.add(host.room.id)
            first = candidates[0]
            name = first.seat.name if first.seat is not None else first.name
            self.window.tell(_("If this laptop leaves, {name}'s laptop can carry the game "
                               "on: Room \u2192 Name a deputy\u2026").format(name=name))

    # --- a joined window's side ------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        """A window at a table: it finds its room on the LAN when its host is gone, may
        be asked to referee (a joined one), and hears its own host's news (a hosted one)."""
        conn.peer.finder = room_finder(self.window.browser)
        if conn.host is not None:
            self._follow_host(conn, conn.host)
        else:
            self._may_referee(conn)

    def _may_referee(self, conn: Connection) -> None:
        """This window's person may be asked to referee the room, or to stand by."""
        net, settings = self.window.net, self.window.settings
        config = HostConfig(host_name=settings.name or conn.peer.name, bind=net.bind,
                            port=net.port, first_port=net.first_port, web=True,
                            announce=True, demo=net.demo, interfaces=net.interfaces,
                            save=net.save, data_dir=net.data_dir, bot_delay=net.bot_delay,
                            seed=net.seed)
        successor = Successor(conn.peer, config, ask=self.ask)
        conn.successor = successor

        def on_event(event: str, payload: Any) -> None:
            if event == "hosting":  # this window referees the room from now on
                conn.host = payload
                self._follow_host(conn, payload)
                self.window.touch()
            elif event == "failed":
                self.window.tell(render(payload))

        successor.listeners.append(on_event)

    def _follow_host(self, conn: Connection, host: Any) -> None:
        """Our room's news: a game starts (offer a deputy); it moved to another laptop
        (this window is a guest there now: leaving it no longer closes the room)."""
        def on_event(what: str) -> None:
            self.on_host_event(what)
            if what == "moved" and conn.host is host:
                conn.host = None  # a guest now, who may be handed the room back
                if conn.successor is None:
                    self._may_referee(conn)
                self.window.touch()

        host.listeners.append(on_event)

    async def ask(self, offer: Offer) -> bool:
        """The question on this window: referee the room now, or stand by as deputy?"""
        if offer.role == "host":
            question = (_("Referee the room?"),
                        _("{name} hands you the room: you will referee; you will hold what "
                          "the host holds: the deck and every hand.").format(name=offer.by),
                        _("Referee the room"), _("No, thanks"))
        else:
            question = (_("Stand by as deputy?"),
                        _("If {name}'s laptop leaves, yours carries the game on: it will "
                          "hold what the host holds, the deck and every hand.").format(
                              name=offer.by),
                        _("Stand by"), _("No, thanks"))
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        dialog = Confirm(question, self.window)

        def settle(yes: bool) -> None:
            """Only the first answer counts, and none once nobody waits (cancelled)."""
            if not answer.done():
                answer.set_result(yes)

        dialog.yes.connect(lambda: settle(True))
        dialog.rejected.connect(lambda: settle(False))
        self.window.dialogs.open(dialog)
        self.window.touch()
        return await answer


__all__ = ["Handing", "Pick"]
