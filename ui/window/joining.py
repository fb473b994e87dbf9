"""The ways into a party: hosting a room, joining one (with its password, or taking back
a seat this window kept: ``ui.services.seats``), resuming a saved game.

Each is an asyncio task on the Qt thread (nothing blocks the window); while it
runs Home says what it is doing, and a failure is one sentence on Home or in
the dialog it came from. Success hands the new connection to the window
(``Entrance.enter``), which makes a ``Party`` of it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any, Protocol

from PyQt6.QtWidgets import QWidget

from lanplay.net.discovery import FoundHost
from lanplay.peer.peer import JoinError
from ui.dialogs.host_dialog import HostChoice
from ui.dialogs.join_dialog import JoinAddressDialog
from ui.dialogs.resume_dialog import ResumeDialog
from ui.pages.home import HomePage, watch_only
from ui.services.connection import Connection, NetConfig
from ui.services.lifetime import alive
from ui.services.seats import KeptSeats
from ui.services.settings import Settings
from ui.words.i18n import _

log = logging.getLogger(__name__)


def open_now(dialog: QWidget) -> bool:
    """The dialog a join began from is still open (the person may have closed it, and
    it deleted itself, while the join was on its way)."""
    return alive(dialog) and dialog.isVisible()


class Entrance(Protocol):
    """What joining needs of the window."""

    home: HomePage
    settings: Settings
    net: NetConfig
    seats: KeptSeats

    def at_table(self) -> bool: ...
    def enter(self, conn: Connection) -> None: ...
    def ask_password(self, host_name: str, addresses: Sequence[str], port: int,
                     error: str = "", spectate: bool = False) -> None: ...
    def touch(self) -> None: ...
    def tell(self, text: str) -> None: ...
    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...


class Joining:
    """Hosting, joining and resuming, for one window (at most one table at a time)."""

    def __init__(self, window: Entrance) -> None:
        self.window = window

    async def host(self, choice: HostChoice) -> None:
        w = self.window
        if w.at_table():
            return
        w.home.set_busy(_("Opening the room\u2026"))
        try:
            conn = await Connection.host_game(w.settings.name or "Host", w.settings.colour,
                                              w.net, choice.game, choice.mode,
                                              choice.options, choice.password)
        except JoinError as exc:
            w.home.set_busy(None)
            w.home.show_error(exc.reason)
            return
        w.home.set_busy(None)
        w.home.clear_message()
        w.enter(conn)

    async def resume(self, path: Path, dialog: ResumeDialog) -> None:
        """Reopen a saved game's room and sit at it again as its owner."""
        w = self.window
        if w.at_table():
            return
        try:
            conn = await Connection.resume_game(w.settings.name or "Host",
                                                w.settings.colour, w.net, path)
        except JoinError as exc:
            reason = exc.reason
        except Exception as exc:  # a save broken in a way nobody foresaw
            log.exception("resuming %s failed", path)
            reason = _("This game could not be resumed ({error}); pick another one or host a "
                       "new game.").format(error=type(exc).__name__)
        else:
            if open_now(dialog):
                dialog.accept()
            w.home.clear_message()
            w.enter(conn)
            return
        if open_now(dialog):
            dialog.failed(reason)
        else:
            w.home.show_error(reason)
        w.touch()

    def found(self, host: FoundHost) -> None:
        """A room double-clicked on Home: join it, or watch it where there is no seat
        to take (a game running, a full room) unless this window kept its seat there
        (then it takes it back); a password is asked for first."""
        watch = watch_only(host) and self.window.seats.for_room(host) is None
        if host.password:
            self.window.ask_password(host.host_name, host.addresses, host.port,
                                     spectate=watch)
            return
        self.window.spawn(self.join(host.addresses, host.port, host.host_name,
                                    spectate=watch, room=host.service))

    async def join(self, addresses: Sequence[str], port: int, label_text: str, *,
                   dialog: JoinAddressDialog | None = None, password: str = "",
                   spectate: bool = False, room: str = "") -> None:
        """Join the room at ``addresses``/``port`` (``room``: its name in discovery);
        where this window kept a seat, with that seat's token."""
        w = self.window
        if w.at_table():
            return
        kept = w.seats.at(addresses, port, room)
        spectate = spectate and kept is None
        note = ""
        busy = (_("Taking your seat back at {host}\u2026") if kept is not None else
                _("Watching {host}\u2026") if spectate else _("Joining {host}\u2026"))
        w.home.set_busy(busy.format(host=label_text))
        try:
            try:
                conn = await self._connect(addresses, port, password, spectate,
                                           kept.token if kept is not None else None)
            except JoinError as exc:
                if kept is None or exc.code != "bad_token":
                    raise
                # The host no longer knows the seat (its game ended, a new room): forget
                # it, and come in as anyone would.
                w.seats.forget(kept.token)
                conn = await self._connect(addresses, port, password, False, None)
                note = _("Your seat from before is gone (that game has ended, or the room "
                         "was opened anew), so you joined as a new player.") \
                    if conn.peer.seat is not None else \
                    _("Your seat from before is gone (that game has ended, or the room was "
                      "opened anew), so you are watching; a seat may free up between games.")
        except JoinError as exc:
            if exc.code == "removed" and kept is not None:
                w.seats.forget(kept.token)
            w.home.set_busy(None)
            if exc.code == "password":  # none given, or a wrong one: ask (again)
                if dialog is not None and alive(dialog):
                    dialog.reject()
                w.ask_password(label_text, addresses, port, exc.reason if password else "",
                               spectate=spectate)
            elif dialog is not None and open_now(dialog):
                dialog.failed(exc.reason)
            else:
                w.home.show_error(exc.reason)
            w.touch()
            return
        w.home.set_busy(None)
        w.home.clear_message()
        if dialog is not None and alive(dialog):
            dialog.accept()
        conn.follow_seat(w.seats, room, addresses)
        w.enter(conn)
        if note:
            w.tell(note)

    async def _connect(self, addresses: Sequence[str], port: int, password: str,
                       spectate: bool, token: str | None) -> Connection:
        """A connection to the room: a seat where one is free (``token``: that seat), or
        the gallery (``spectate``, or no seat left)."""
        w = self.window
        name, colour = w.settings.name or "Player", w.settings.colour
        try:
            return await Connection.join(name, colour, w.net, tuple(addresses), port,
                                         password, spectate=spectate, token=token)
        except JoinError as exc:
            if exc.code != "full" or spectate or token:
                raise
            # No seat left: watch instead (a seat may free up between games).
            return await Connection.join(name, colour, w.net, tuple(addresses), port,
                                         password, spectate=True)


__all__ = ["Entrance", "Joining"]
