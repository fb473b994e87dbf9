"""The party: one connection's life in the window, from entering the room to leaving.

A ``Party`` is made for each connection (hosting, joining, resuming) and ends
with it. It routes the connection's events to the pages (welcome, lobby,
view, clock, pictures, game over, audit, chat, reconnecting, ended), sends
what a person asks for on a page to the host (room commands, moves, chat),
and owns what belongs to one table: the pacing of its views, the sounds
they call for, the end screen's status and the hosting notices.

It reaches the window only through ``Stage``, the few things it needs of it,
so it can be read (and tested) without the window's chrome. The events it
routes are the protocol's own (``docs/PROTOCOL.md``): a page that is not a Qt
widget (the browser seat's page, served by the host) routes the same list in
its own code, and this module is where to read what each event must do.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from PyQt6.QtCore import QObject, QTimer
from PyQt6.QtWidgets import QWidget

from lanplay import games
from lanplay.badges import badges
from lanplay.messages import is_message, render
from lanplay.net.discovery import local_addresses
from protocol.messages import Chat, GameOver, Lobby, Welcome
from ui.dialogs import network_help
from ui.dialogs.confirm import Question, close_question, leave_question, remove_question
from ui.look import pictures
from ui.look.widgets import Banner
from ui.pages.game.end_screen import verdict_text
from ui.pages.game.page import GamePage
from ui.pages.gone import GonePage
from ui.pages.home import HomePage
from ui.pages.room import RoomPage, problem_text
from ui.services.connection import Connection, NetConfig
from ui.services.cues import cues
from ui.services.last_game import LastGame
from ui.services.pacing import Pacer, actor, by_person
from ui.services.settings import Settings
from ui.services.sound import Sound
from ui.words.i18n import _

Slot = Callable[..., Any]


class Stage(Protocol):
    """What a party needs of the window it plays in."""

    home: HomePage
    room: RoomPage
    game: GamePage
    gone: GonePage
    banner: Banner
    settings: Settings
    net: NetConfig
    sound: Sound
    last_game: LastGame
    lonely_after: float

    def show_page(self, page: QWidget) -> None: ...
    def page_shown(self) -> QWidget | None: ...
    def set_title(self, title: str) -> None: ...
    def rules_available(self, available: bool) -> None: ...
    def ask(self, question: Question | None, then: Callable[[], None]) -> None: ...
    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...
    def touch(self) -> None: ...
    def release(self, party: Party) -> None: ...
    def party_over(self, party: Party, reason: str | None, title: str = "") -> None: ...


def someone_joined(lobby: Lobby, you: int | None) -> bool:
    """Another person (not a bot, not away) sits in the room."""
    return any(i != you and not seat.get("bot") and seat.get("connected", True)
               for i, seat in enumerate(lobby.seats))


def room_full(lobby: Lobby) -> bool:
    """Every seat of the game's mode is taken (by people or bots): nobody can join, so
    "nobody joined yet" is no news."""
    try:
        modes = games.load(lobby.game).modes
    except KeyError:
        return False
    most = next((m.max_players for m in modes if m.id == lobby.mode), modes[0].max_players)
    return len(lobby.seats) >= most


class Party(QObject):
    """One connection's table in the window: its events to the pages, the pages' asks
    to the host."""

    def __init__(self, conn: Connection, stage: Stage) -> None:
        super().__init__()
        self.conn = conn
        self.stage = stage
        self.lobby: Lobby | None = None
        self.active = True
        """False once we left or the connection ended: late events change nothing."""
        self.pacer = Pacer(self._show_view, self._table_pace, stage.net.pace, self)
        self.pacer.idle.connect(stage.touch)
        self.lonely = QTimer(self)
        self.lonely.setSingleShot(True)
        self.lonely.timeout.connect(self.still_alone)
        self._game_number = 0
        """Games begun at this table (an end screen shows only over its own game)."""
        self._received: dict[str, Any] | None = None
        """The newest view from the host (the table may still show an older one)."""
        self._want_restart = False
        self._wires: list[tuple[Any, Slot]] = []

    # --- entering and leaving ------------------------------------------------------------

    def begin(self) -> None:
        """Take the pages over for this connection and start reading it."""
        stage, conn = self.stage, self.conn
        stage.room.chat.clear()
        stage.game.clear_chat()
        stage.game.clear_result()
        stage.room.set_address(self._join_text())
        stage.room.set_page(*self._page())
        stage.room.title.setText(_("Joining {host}\u2026").format(host=conn.peer.host_name))
        stage.room.notice.clear()
        if conn.host is not None:
            self._hosting_notices(conn.host.port, int(getattr(conn.host, "web_port", 0) or 0))
        self._wire_pages()
        b = conn.bridge
        b.welcome.connect(self._on_welcome)
        b.lobby.connect(self._on_lobby)
        b.view.connect(self._on_view)
        b.move_rejected.connect(stage.game.show_rejection)
        b.control_rejected.connect(self._on_control_rejected)
        b.chat.connect(self._on_chat)
        b.game_over.connect(self._on_game_over)
        b.reconnecting.connect(self._on_reconnecting)
        b.reconnected.connect(self._on_reconnected)
        b.pack.connect(self._on_pack)
        b.clock.connect(self._on_clock)
        b.pack_error.connect(self._on_pack_error)
        b.audit.connect(self._on_audit)
        conn.start(self._on_ended)
        stage.show_page(stage.room)
        stage.touch()

    def _wire_pages(self) -> None:
        """What a person asks for on the room and the game page comes here while this
        party is at the table (``_unwire`` undoes it)."""
        room, game = self.stage.room, self.stage.game
        wires: list[tuple[Any, Slot]] = [
            (room.ready, lambda ready: self.control("ready", ready=ready)),
            (room.start, lambda: self.control("start")),
            (room.add_bot, lambda: self.control("add_bot")),
            (room.bots_chosen, lambda strength: self.control("bots", strength=strength)),
            (room.remove, self.ask_remove),
            (room.move_seat, lambda seat, to: self.control("move_seat", seat=seat, to=to)),
            (room.leave, self.ask_leave),
            (room.sit, lambda: self.control("sit")),
            (room.chat.send, self.say),
            (game.sit, lambda: self.control("sit")),
            (game.intent, self.intent),
            (game.leave, self.ask_leave),
            (game.again, self.play_again),
            (game.chat.send, self.say),
        ]
        for signal, slot in wires:
            signal.connect(slot)
        self._wires = wires

    def _unwire(self) -> None:
        for signal, slot in self._wires:
            signal.disconnect(slot)
        self._wires = []

    def _finish(self) -> None:
        """This party no longer speaks for the table: its timers stop, its pages free."""
        self.active = False
        self._unwire()
        self.pacer.clear()
        self.lonely.stop()

    def leave(self) -> None:
        """Leave the table (closing our room if we host), then go Home."""
        if not self.active:
            return
        self._finish()
        self.stage.release(self)
        conn = self.conn

        async def leave() -> None:
            await conn.leave()
            self.stage.party_over(self, None)

        self.stage.spawn(leave())

    async def close(self, reason: str = "closed the window") -> None:
        """The window closes: say goodbye and wait for the connection to end."""
        if self.active:
            self._finish()
        await self.conn.leave(reason, keep_seat=True)  # still theirs: a restart takes it

    def ask_leave(self) -> None:
        """Leave (or, for the owner, close the room) after asking, where it affects
        the others: the question says what happens to them."""
        self.stage.ask(self.leave_question(), self.leave)

    def leave_question(self) -> Question | None:
        """What Leave (Close the room, for the owner) asks first; None where it
        affects nobody else. The window's close box asks the same."""
        conn, lobby = self.conn, self.lobby
        if lobby is None or not self.active:
            return None
        if conn.peer.owner:
            saved = conn.host is not None and conn.host.config.save
            return close_question(lobby, conn.peer.seat, saved)
        return leave_question(lobby, conn.peer.seat)

    def ask_remove(self, seat: int) -> None:
        """The owner removes a seat: a person only after a question."""
        if self.lobby is None:
            return
        self.stage.ask(remove_question(self.lobby, seat),
                       lambda: self.control("remove_seat", seat=seat))

    # --- what the person asked for -----------------------------------------------------

    def control(self, command: str, **args: Any) -> None:
        if self.active:
            self.stage.room.show_error("")
            self.conn.control(command, **args)

    def intent(self, action: dict[str, Any]) -> None:
        if self.active:
            self.pacer.hurry()  # a person acted: whatever the table holds may go
            self.conn.intent(action)

    def say(self, text: str) -> None:
        if self.active:
            self.conn.peer.say(text)

    def play_again(self) -> None:
        if not self.active:
            return
        self._want_restart = self.conn.peer.owner
        self.control("ready", ready=True)
        self.stage.touch()

    # --- hosting notices ----------------------------------------------------------------

    def _hosting_notices(self, port: int, web_port: int = 0) -> None:
        """The first room on this laptop: what the firewall will ask (once, ever), the
        browser page's port too. Every room: a word on the network if nobody joins for
        a while."""
        settings = self.stage.settings
        if not settings.host_hint_seen:
            self.stage.room.notice.say("first-host", network_help.first_host_title(),
                                       network_help.first_host_text(port, web_port=web_port))
            settings.host_hint_seen = True
            settings.save()
        self.lonely.start(int(self.stage.lonely_after * 1000))

    def _taught(self, game: str) -> None:
        """The table walked this person through ``game``'s first turn (a tour's key:
        S-tier's modes have one each): not again."""
        settings = self.stage.settings
        if game not in settings.taught:
            settings.taught.append(game)
            settings.save()

    def still_alone(self) -> None:
        conn, lobby = self.conn, self.lobby
        if not self.active or conn.host is None or lobby is None or lobby.phase != "lobby" \
                or someone_joined(lobby, conn.peer.seat) or room_full(lobby):
            return
        port = conn.host.port
        where = "\n".join(f"{a}:{port}" for a in local_addresses()) or \
            _("this laptop's address, port {port}").format(port=port)
        self.stage.room.notice.say("lonely", network_help.lonely_title(),
                                   network_help.lonely_text(
                                       port, web_port=int(getattr(conn.host, "web_port", 0) or 0)),
                                   where,
                                   network_help.lonely_after_text())
        self.stage.touch()

    def _join_text(self) -> str:
        conn = self.conn
        if conn.host is None:
            return _("Connected to {address}").format(address=conn.address_text)
        where = ", ".join(f"{a}:{conn.host.port}" for a in local_addresses())
        text = _("Others can join from their list, or by address at {addresses}").format(
            addresses=where)
        note = conn.host.ports.note() if conn.host.ports is not None else None
        return text if note is None else f"{text}\n{render(note)}"  # why not on 7531

    def _page(self) -> tuple[str, bytes]:
        """The browser page this room's host serves (none when joining another's)."""
        host = self.conn.host
        if host is None or not getattr(host, "web_port", 0):
            return "", b""
        from lanplay.web.address import page_url, qr_png

        url = page_url(local_addresses()[0], host.web_port)
        return url, qr_png(url)

    # --- the connection's events --------------------------------------------------------

    def _on_welcome(self, welcome: Welcome) -> None:
        if self.lobby is not None:
            self._on_lobby(self.lobby)

    def _on_lobby(self, lobby: Lobby) -> None:
        if not self.active:
            return
        stage, conn = self.stage, self.conn
        previous = self.lobby
        self.lobby = lobby
        you, owner = conn.peer.seat, conn.peer.owner
        stage.rules_available(True)
        stage.room.show_lobby(lobby, you, owner)
        if conn.host is not None and (someone_joined(lobby, you) or room_full(lobby)):
            self.lonely.stop()  # they found us (the network is fine), or bots filled up
            stage.room.notice.clear("lonely")
        stage.set_title(f"lanplay \u2014 {stage.room.title.text()}")
        stage.game.set_game(lobby.game, lobby.host_name)
        stage.game.set_teaching(stage.settings.taught, self._taught)
        stage.game.set_seats(lobby.seats, you, owner)
        stage.game.set_watching(you is None, lobby)
        self._show_paused(lobby, previous)
        if lobby.phase == "lobby":
            stage.show_page(stage.room)
        else:
            if lobby.phase == "playing" and (previous is None or previous.phase != "playing"):
                self._game_number += 1  # an end still waiting for the pacer is not this one's
                stage.game.clear_result()
                self._want_restart = False
            stage.show_page(stage.game)
            self._update_end_status()
        if (self._want_restart and owner and lobby.phase == "over"
                and lobby.problem is None):
            self._want_restart = False
            self.control("start")
        stage.touch()

    def _show_paused(self, lobby: Lobby, previous: Lobby | None) -> None:
        """Play held because the host cannot save: every window says so, and the
        host's own window says where to make room."""
        if lobby.paused:
            text = (render(lobby.paused_message, [str(s.get("name", "?")) for s in lobby.seats])
                    if is_message(lobby.paused_message) else lobby.paused)
            host = self.conn.host
            if host is not None:
                where = host.save_path.parent if host.save_path is not None else None
                text += " " + (_("This laptop is the host: free some disk space (the game is "
                                 "saved in {folder}).").format(folder=where) if where else
                               _("This laptop is the host: free some disk space."))
            self.stage.banner.say(text)
        elif previous is not None and previous.paused:
            self.stage.banner.say("")

    def _on_view(self, animate: bool) -> None:
        """A view arrived: the pacer shows it in its turn (a snapshot at once)."""
        conn = self.conn
        if not self.active or conn.peer.view is None:
            return
        # The view as our table shows it: the host's, with our own kept note in it.
        view, previous = conn.shown_view() or conn.peer.view, self._received
        self._received = view
        if previous is not None and previous.get("game") != view.get("game"):
            animate = False  # another game in the same room: a new table, no motion
        seats = self.lobby.seats if self.lobby is not None else []
        self.pacer.push(view, animate, by_person(seats, actor(previous, view)))
        self.stage.touch()

    def _show_view(self, view: dict[str, Any], animate: bool) -> None:
        """The pacer's turn for ``view``: put it on the table."""
        if not self.active:
            return
        stage, conn = self.stage, self.conn
        if self.lobby is not None:
            stage.game.set_seats(self.lobby.seats, conn.peer.seat, conn.peer.owner)
        before = stage.game.view
        stage.game.set_view(view, animate)
        if animate:
            self._sound_for(before, view, conn.peer.seat)
        if stage.page_shown() is stage.room and self.lobby is not None \
                and self.lobby.phase != "lobby":
            stage.show_page(stage.game)
        stage.touch()

    def _sound_for(self, before: dict[str, Any] | None, view: dict[str, Any],
                   you: int | None) -> None:
        """What just happened, then (a moment later) my turn: one or two soft sounds."""
        for order, cue in enumerate(cues(before, view, you)):
            if order == 0:
                self.stage.sound.play(cue)
            else:
                self.stage.sound.play_later(cue, 350)

    def _table_pace(self) -> tuple[int, int]:
        pace = getattr(self.stage.game.table, "pace", None)
        return pace() if callable(pace) else (0, 0)

    def _on_clock(self, clock: object) -> None:
        """The host's deadline: counted down once the table shows the moves before it
        (a window that opened behind a held trick has not opened on this table yet)."""
        if not self.active:
            return
        if self.conn.peer.clock is None:
            self.stage.game.set_clock(None)
            return
        self.pacer.when_idle(self._show_clock)

    def _show_clock(self) -> None:
        peer = self.conn.peer
        if not self.active or peer.clock is None:
            self.stage.game.set_clock(None)
            return
        left = peer.clock_deadline - asyncio.get_running_loop().time()
        self.stage.game.set_clock(max(0.0, left))

    def _on_pack(self, pack_id: str) -> None:
        """The host's pictures are here: draw them instead of their names."""
        pictures.forget_cache()
        game = self.stage.game
        if self.active and game.view is not None:
            game.set_view(game.view, False)

    def _on_pack_error(self, reason: str) -> None:
        """The game goes on with the pictures' names; say why the images are missing."""
        self.stage.game.add_chat("lanplay", "#888888", _(
            "The host's pictures could not be received: {reason}").format(reason=reason))

    def _on_game_over(self, over: GameOver) -> None:
        """The end screen comes once the last moves have been seen on the table."""
        number = self._game_number
        self.stage.game.set_clock(None)

        def show() -> None:
            if self.active and self._game_number == number:
                self.stage.sound.play("over")
                self.stage.game.show_result(over.result)
                self._update_end_status()
                self.stage.touch()

        self.pacer.when_idle(show)

    def _on_audit(self, verdict: Any) -> None:
        """This laptop's own check of the game: the end screen says what it found, and
        the game can be replayed (kept at once; said on the end screen once it shows,
        after the last moves: a result shown later would clear what came before it)."""
        stage, conn, lobby = self.stage, self.conn, self.lobby
        names = [str(s.get("name", "")) for s in lobby.seats] if lobby else []
        number = self._game_number
        audit = conn.peer.witness.last_audit
        kept = audit is not None and lobby is not None
        if audit is not None and lobby is not None:
            stage.last_game.keep(audit, lobby.seats, conn.peer.seat, conn.peer.result,
                                 verdict.summary(), conn.peer.host_name, stage.net.data_dir,
                                 stage.spawn)

        def show() -> None:
            if self.active and self._game_number == number:
                stage.game.end.show_verdict(verdict_text(verdict, names), verdict.ok)
                if kept:
                    stage.game.end.offer_replay()
                stage.touch()

        self.pacer.when_idle(show)
        stage.touch()

    def _update_end_status(self) -> None:
        conn, lobby = self.conn, self.lobby
        if lobby is None or lobby.phase != "over":
            return
        me = lobby.seats[conn.peer.seat] if conn.peer.seat is not None \
            and 0 <= conn.peer.seat < len(lobby.seats) else None
        ready = bool(me and me.get("ready"))
        owner_name = next((s["name"] for s in lobby.seats if s.get("owner")), lobby.host_name)
        if me is None:
            text = _("Waiting for {name} to start another game.").format(name=owner_name)
        elif ready and lobby.problem:
            text = problem_text(lobby, conn.peer.seat)
        elif ready:
            text = _("Starting\u2026") if conn.peer.owner else \
                _("Waiting for {name} to start another game.").format(name=owner_name)
        else:
            text = ""
        self.stage.game.set_end_status(text, can_play_again=me is not None, waiting=ready)

    def _on_control_rejected(self, reason: str) -> None:
        self._want_restart = False
        self.stage.room.show_error(reason)
        self.stage.game.set_end_status(reason, can_play_again=True, waiting=False)
        self.stage.touch()

    def _on_chat(self, chat: Chat) -> None:
        colour = text = ""
        if self.lobby is not None and chat.seat is not None \
                and 0 <= chat.seat < len(self.lobby.seats):
            mark = badges(self.lobby.seats)[chat.seat]
            colour, text = mark.colour, mark.text
        self.stage.room.chat.add(chat.sender, colour, chat.text, text)
        self.stage.game.add_chat(chat.sender, colour, chat.text, text)
        self.stage.touch()

    def _on_reconnecting(self) -> None:
        paused = self.conn.peer.paused
        if paused:
            self.stage.banner.say(paused + " " + _(
                "Your seat is kept: this window comes back to the table by itself when "
                "the game goes on."))
        else:
            self.stage.banner.say(_("Reconnecting\u2026 the connection to the host dropped; "
                                    "your seat is kept and the game comes back by itself."))
        self.stage.game.set_dimmed(True, _("The game is paused") if paused else "")
        self.stage.touch()

    def _on_reconnected(self) -> None:
        self.stage.banner.say("")
        self.stage.game.set_dimmed(False)
        self.stage.touch()

    def _on_ended(self, reason: str) -> None:
        """The connection ended without us leaving: the host is gone or sent us away."""
        if not self.active:
            return
        self._finish()
        self.stage.release(self)
        self.stage.spawn(self.conn.end())
        self.stage.party_over(self, reason, self._gone_title())

    def _gone_title(self) -> str:
        """What the page for a table that is gone says first: a paused game is not
        over, a room closed before or between games had no game to end."""
        if self.conn.peer.paused:
            return _("The game is paused")
        if self.lobby is not None and self.lobby.phase == "playing":
            return _("The game was interrupted")
        return _("The room was closed")


__all__ = ["Party", "Stage", "someone_joined"]
