"""The authoritative host: a TCP server around one Room and its Session.

Everything here is moving bytes and scheduling: the rules of the room live in
``room.py``, the rules of the game in the game module, and what each peer may
see in ``Session``. One asyncio task per connection reads frames; a bad frame
costs only that connection, never the host or the other peers.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lanplay import rng
from lanplay.discovery import Announcement, Announcer
from lanplay.game import SYSTEM, Result, Timer
from lanplay.link import Link, LinkClosed
from lanplay.room import Room, Seat
from lanplay.session import Refusal, Session
from protocol.codec import MAX_FRAME, pack
from protocol.messages import (
    PROTOCOL_VERSION,
    Accepted,
    Bye,
    Chat,
    Control,
    GameOver,
    Hello,
    Intent,
    Message,
    Ping,
    Pong,
    ProtocolError,
    Refused,
    Rejected,
    Resync,
    Welcome,
    to_wire,
)

DEFAULT_PORT = 7531
log = logging.getLogger(__name__)
MAX_CHAT = 500


@dataclass(eq=False)
class Conn:
    """A connected peer: its link, and its seat (None for a spectator)."""

    link: Link
    seat: Seat | None
    last_seen: float = field(default_factory=time.monotonic)


@dataclass
class HostConfig:
    host_name: str = "lanplay host"
    bind: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    seed: int | None = None
    autostart: int | None = None
    """Start by itself once this many seats are taken, ready and connected."""
    heartbeat: float = 2.0
    dead_after: float = 10.0
    handshake_timeout: float = 5.0
    max_frame: int = MAX_FRAME
    bot_delay: float = 0.0
    announce: bool = False
    interfaces: Sequence[str] | None = None
    """Interfaces for the zeroconf announcement (None: all)."""


class Host:
    def __init__(self, game_id: str, mode: str | None = None,
                 options: dict[str, Any] | None = None,
                 config: HostConfig | None = None) -> None:
        self.config = config or HostConfig()
        self.room = Room(game_id, mode, options, self.config.host_name)
        self.session: Session | None = None
        self.owner_token = secrets.token_urlsafe(16)
        self.conns: set[Conn] = set()
        self.port = 0
        self.games_played = 0
        self.results: list[Result] = []
        self.finished = asyncio.Event()
        self.listeners: list[Callable[[str], None]] = []
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timer: tuple[str, asyncio.TimerHandle] | None = None
        self._spent_timer: str | None = None
        self._announcer: Announcer | None = None
        self._announce_dirty = asyncio.Event()
        self._bot_count = 0
        self._stopping = False

    # --- life cycle ------------------------------------------------------------

    async def start(self) -> int:
        """Listen (and announce); return the port actually bound."""
        self._server = await asyncio.start_server(
            self._serve, self.config.bind, self.config.port, limit=self.config.max_frame)
        self.port = self._server.sockets[0].getsockname()[1]
        self._spawn(self._heartbeats())
        if self.config.announce:
            self._announcer = Announcer(self._announcement(), self.config.interfaces)
            await self._announcer.start()
            self._spawn(self._announce_updates())
        return self.port

    async def stop(self, reason: str = "The host has stopped the game.") -> None:
        """Say goodbye to every peer, withdraw the announcement, stop listening."""
        if self._stopping:
            return
        self._stopping = True
        self._cancel_timer()
        if self._server is not None:
            self._server.close()
        for conn in list(self.conns):
            conn.link.send(Bye(reason))
        await asyncio.gather(*(c.link.close() for c in list(self.conns)),
                             return_exceptions=True)
        if self._announcer is not None:
            with contextlib.suppress(Exception):
                await self._announcer.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _emit(self, what: str) -> None:
        for listener in self.listeners:
            listener(what)

    # --- connections -----------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        link = Link(reader, writer, self.config.max_frame)
        conn: Conn | None = None
        try:
            try:
                hello = await asyncio.wait_for(link.recv(), self.config.handshake_timeout)
            except TimeoutError:
                link.send(Refused("timeout", "No hello arrived in time; connect with lanplay."))
                return
            if not isinstance(hello, Hello):
                link.send(Refused("malformed", f"The first message must be a hello, "
                                               f"not {hello.TYPE}."))
                return
            conn = self._admit(link, hello)
            if conn is None:
                return
            while True:
                msg = await link.recv()
                conn.last_seen = time.monotonic()
                self._handle(conn, msg)
        except ProtocolError as exc:
            link.send(Refused("malformed", exc.reason))
        except (LinkClosed, ConnectionError, OSError):
            pass
        except Exception:  # a bug of ours must cost one connection, not the host
            log.exception("error serving %s", link.peername)
            link.send(Refused("internal", "The host hit an internal error with your "
                                          "connection; please join again."))
        finally:
            if conn is not None:
                self._detach(conn)
            await link.close()

    def _admit(self, link: Link, hello: Hello) -> Conn | None:
        if hello.version != PROTOCOL_VERSION:
            link.send(Refused("version", f"This host speaks lanplay protocol "
                                         f"{PROTOCOL_VERSION}, you speak {hello.version}: "
                                         f"use the same lanplay version on both laptops."))
            return None
        if self._stopping:
            link.send(Refused("stopping", "The host is shutting down."))
            return None
        room = self.room
        seat: Seat | None = None
        try:
            if hello.token:
                if hello.token in room.banned:
                    raise Refusal("removed", "The host removed you from this room.")
                seat = room.by_token(hello.token)
                if seat is None:
                    if hello.token != self.owner_token:
                        raise Refusal("bad_token", "That reconnect token does not belong "
                                                   "to any seat here; join as a new player.")
                    seat = room.add(hello.name, hello.colour, owner=True,
                                    token=self.owner_token)
                for old in [c for c in self.conns if c.seat is seat]:
                    old.link.send(Bye("You connected again from elsewhere."))
                    old.link.abort()
                    self.conns.discard(old)
                seat.connected = True
            elif not hello.spectate and room.phase != "playing":
                seat = room.add(hello.name, hello.colour, bot=hello.bot)
        except Refusal as exc:
            link.send(Refused(exc.code, exc.reason))
            return None
        conn = Conn(link, seat)
        self.conns.add(conn)
        if seat is None:
            room.spectators += 1
        index = room.index(seat) if seat is not None else None
        token = seat.token if seat is not None else ""
        link.send(Welcome(PROTOCOL_VERSION, index, token, room.host_name, room.game.id,
                          owner=seat is not None and seat.owner))
        self._lobby_changed()
        if self.session is not None:
            link.send(self.session.snapshot(self._viewer(conn)))
            if self.session.result is not None:
                link.send(GameOver(self.session.state_id, self.session.result.to_wire(),
                                   "finished"))
        return conn

    def _detach(self, conn: Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if conn.seat is None:
            self.room.spectators -= 1
        elif not any(c.seat is conn.seat for c in self.conns):
            conn.seat.connected = False
            if self.session is not None and conn.seat in self.room.seats:
                self.session.forget(self.room.index(conn.seat))
        if not self._stopping:
            self._lobby_changed()

    def _viewer(self, conn: Conn) -> int | None:
        return self.room.index(conn.seat) if conn.seat is not None else None

    # --- messages --------------------------------------------------------------

    def _handle(self, conn: Conn, msg: Message) -> None:
        if isinstance(msg, Intent):
            self._on_intent(conn, msg)
        elif isinstance(msg, Control):
            try:
                self._on_control(conn, msg)
            except Refusal as exc:
                conn.link.send(Rejected(msg.id, exc.code, exc.reason))
        elif isinstance(msg, Chat):
            self._on_chat(conn, msg)
        elif isinstance(msg, Ping):
            conn.link.send(Pong(msg.nonce))
        elif isinstance(msg, Pong):
            pass
        elif isinstance(msg, Resync):
            if self.session is not None:
                conn.link.send(self.session.snapshot(self._viewer(conn)))
        elif isinstance(msg, Bye):
            conn.link.abort()
        else:
            conn.link.send(Rejected(0, "unexpected",
                                    f"A peer may not send a {msg.TYPE} message."))

    def _on_intent(self, conn: Conn, msg: Intent) -> None:
        session = self.session
        if session is None or self.room.phase == "lobby":
            conn.link.send(Rejected(msg.id, "no_game", "The game has not started yet."))
            return
        if conn.seat is None:
            conn.link.send(Rejected(msg.id, "spectator", "Spectators cannot make moves."))
            return
        try:
            session.submit(self.room.index(conn.seat), msg.action, msg.state_id)
        except Refusal as exc:
            conn.link.send(Rejected(msg.id, exc.code, exc.reason))
            return
        self._after_action()
        conn.link.send(Accepted(msg.id, session.state_id))

    def _on_control(self, conn: Conn, msg: Control) -> None:
        room, cmd, args = self.room, msg.command, msg.args
        if cmd == "ready":
            if conn.seat is None:
                raise Refusal("spectator", "Spectators have no seat to be ready in.")
            room.set_ready(conn.seat, bool(args.get("ready", True)))
            self._lobby_changed()
            return
        if cmd not in ("add_bot", "remove_seat", "move_seat", "set_game", "start"):
            raise Refusal("unknown_command", f"Unknown room command {cmd[:40]!r}.")
        if conn.seat is None or not conn.seat.owner:
            raise Refusal("not_owner", "Only the player who opened the room can do that.")
        if cmd == "add_bot":
            self.add_bot()
        elif cmd == "remove_seat":
            self.remove_seat(args.get("seat"))
        elif cmd == "move_seat":
            room.move(args.get("seat"), args.get("to"))  # type: ignore[arg-type]
            self._tell_seats()
            self._lobby_changed()
        elif cmd == "set_game":
            game = args.get("game", room.game.id)
            options = args.get("options", {})
            if not isinstance(game, str) or not isinstance(options, dict):
                raise Refusal("bad_game", "set_game needs a game id and a map of options.")
            mode = args.get("mode")
            room.set_game(game, mode if isinstance(mode, str) else None, options)
            self._lobby_changed()
        elif cmd == "start":
            self.start_game()

    def _on_chat(self, conn: Conn, msg: Chat) -> None:
        text = msg.text.strip()[:MAX_CHAT]
        if not text:
            return
        sender = conn.seat.name if conn.seat else "Spectator"
        seat = self._viewer(conn)
        self._broadcast(Chat(text, sender, seat))

    # --- the room and the game ----------------------------------------------------

    def add_bot(self) -> None:
        """Seat a bot: a real peer over loopback that sees only its own view."""
        if len(self.room.seats) >= self.room.max_players:
            raise Refusal("full", f"The room is full ({self.room.max_players} seats).")
        if self.room.phase == "playing":
            raise Refusal("started", "Bots can only join before the game starts.")
        from lanplay.bots import run_bot

        self._bot_count += 1
        address = "127.0.0.1" if self.config.bind in ("", "0.0.0.0") else self.config.bind
        seed = rng.stream(self.config.seed or 0, "bot", self._bot_count).getrandbits(32)
        self._spawn(run_bot(address, self.port, f"Bot {self._bot_count}", seed=seed,
                            delay=self.config.bot_delay))

    def remove_seat(self, index: Any) -> None:
        seat = self.room.remove(index)
        self._tell_seats()
        for conn in [c for c in self.conns if c.seat is seat]:
            conn.link.send(Refused("removed", "The host removed you from this room."))
            self._detach(conn)
            self._spawn(conn.link.close())  # flush the refusal, then close
        self._lobby_changed()

    def _tell_seats(self) -> None:
        """Seat numbers shift when a seat moves or leaves: a new Welcome tells each
        seated peer its number now, before the lobby that shows the new order."""
        room = self.room
        for conn in self.conns:
            if conn.seat is not None and any(s is conn.seat for s in room.seats):
                conn.link.send(Welcome(PROTOCOL_VERSION, room.index(conn.seat),
                                       conn.seat.token, room.host_name, room.game.id,
                                       owner=conn.seat.owner))

    def start_game(self) -> None:
        room = self.room
        if room.phase == "playing":
            raise Refusal("started", "The game is already being played.")
        problem = room.problem()
        if problem:
            raise Refusal("not_ready", problem)
        base = self.config.seed if self.config.seed is not None else secrets.randbits(32)
        seed = base if self.games_played == 0 else rng.stream(base, "game",
                                                              self.games_played).getrandbits(32)
        self.session = Session(room.game, len(room.seats), room.mode, room.options, seed)
        self.games_played += 1
        self._spent_timer = None
        room.phase = "playing"
        self.finished.clear()
        for seat in room.seats:
            seat.ready = seat.bot
        self._lobby_changed()
        for conn in self.conns:
            conn.link.send(self.session.snapshot(self._viewer(conn)))
        self._schedule_timer()
        self._emit("started")

    def _after_action(self) -> None:
        """Send every live viewer its delta; note the end of the game."""
        session = self.session
        assert session is not None
        viewers = {self._viewer(c) for c in self.conns}
        bodies = {v: pack(to_wire(d)) for v, d in session.deltas(viewers).items()}
        for conn in self.conns:
            conn.link.send_body(bodies[self._viewer(conn)])
        result = session.result
        if result is not None:
            self._cancel_timer()
            self.room.phase = "over"
            self.results.append(result)
            self._broadcast(GameOver(session.state_id, result.to_wire(), "finished"))
            self._lobby_changed()
            self.finished.set()
            self._emit("over")
        else:
            self._schedule_timer()
        self._emit("action")

    def _schedule_timer(self) -> None:
        session = self.session
        timer: Timer | None = session.timer() if session is not None else None
        if timer is None:
            self._cancel_timer()
            return
        if (self._timer is not None and self._timer[0] == timer.key) \
                or timer.key == self._spent_timer:
            return
        self._cancel_timer()
        handle = asyncio.get_running_loop().call_later(timer.seconds, self._expire, timer)
        self._timer = (timer.key, handle)

    def _expire(self, timer: Timer) -> None:
        self._timer = None
        if self.session is None:
            return
        try:
            self.session.submit(SYSTEM, timer.action)
        except Refusal as exc:
            # The game refused its own deadline: a rules bug. Do not fire the
            # same key forever; the next state change may bring a new timer.
            log.warning("timer %s refused by the game: %s", timer.key, exc.reason)
            self._spent_timer = timer.key
            return
        self._after_action()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer[1].cancel()
            self._timer = None

    def _broadcast(self, msg: Message) -> None:
        body = pack(to_wire(msg))
        for conn in self.conns:
            conn.link.send_body(body)

    def _lobby_changed(self) -> None:
        self._broadcast(self.room.lobby_message())
        self._announce_dirty.set()
        self._emit("lobby")
        if (self.config.autostart and self.room.phase == "lobby"
                and len(self.room.seats) == self.config.autostart
                and self.room.problem() is None):
            self.start_game()

    # --- background duties -----------------------------------------------------------

    def _announcement(self) -> Announcement:
        room = self.room
        return Announcement(host_name=room.host_name, game=room.game.id, port=self.port,
                            seats_taken=len(room.seats), seats_total=room.max_players,
                            state=room.phase)

    async def _announce_updates(self) -> None:
        assert self._announcer is not None
        while True:
            await self._announce_dirty.wait()
            self._announce_dirty.clear()
            with contextlib.suppress(Exception):
                await self._announcer.update(**dataclasses.asdict(self._announcement()))

    async def _heartbeats(self) -> None:
        nonce = 0
        while True:
            await asyncio.sleep(self.config.heartbeat)
            nonce += 1
            now = time.monotonic()
            state_id = self.session.state_id if self.session is not None else -1
            for conn in list(self.conns):
                if now - conn.last_seen > self.config.dead_after:
                    conn.link.abort()
                    self._detach(conn)
                else:
                    conn.link.send(Ping(nonce, state_id))
