"""The authoritative host: a TCP server around one Room and its Session.

Everything here is moving bytes and scheduling: the rules of the room live in
``room.py``, the rules of the game in the game module, and what each peer may
see in ``Session``. One asyncio task per connection reads frames; a bad frame
costs only that connection, never the host or the other peers. Who gets in and
how fast they may talk is ``admission.py``; every accepted action is saved
(``saves.py``) before any peer hears of it (``outbox.py``), so a host killed
at any moment resumes where its peers left off.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanplay import admission, rng, saves
from lanplay.admission import RateLimit
from lanplay.content import discover, in_play
from lanplay.content.model import Pack
from lanplay.content.transfer import PictureServer
from lanplay.discovery import Announcement, Announcer
from lanplay.game import SYSTEM, Result, Timer
from lanplay.link import Link, LinkClosed
from lanplay.outbox import Outbox
from lanplay.room import Room, Seat
from lanplay.session import Refusal, Session
from protocol.codec import MAX_FRAME, pack
from protocol.messages import (
    PROTOCOL_VERSION,
    Accepted,
    Answer,
    Bye,
    Challenge,
    Chat,
    Clock,
    Control,
    GameOver,
    Hello,
    Intent,
    Message,
    PictureRequest,
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
    name: str = ""
    colour: str = ""
    """As the hello gave them: a spectator who takes a seat sits with them."""
    limit: RateLimit = field(default_factory=RateLimit)


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
    password: str | None = None
    """Room password, checked by challenge and response (None or "": no password)."""
    max_peers: int = 64
    """Connections at once, spectators included; more are refused "full"."""
    rate: float = 20.0
    burst: float = 40.0
    """Per-peer token bucket on intents, room commands, chat, resyncs and pings."""
    flood_after: int = 200
    flood_window: float = 10.0
    """More refusals than this within the window close the connection ("flood")."""
    standin_after: float | None = 30.0
    """Seconds a seat may be away in a game before a stand-in bot plays it (None: never)."""
    save: bool = True
    """Write the game after every accepted action (see lanplay.saves)."""
    data_dir: str | os.PathLike[str] | None = None
    """Where saves go (default: $LANPLAY_DATA_DIR, else the user's data directory)."""


MAX_PENDING = 16
"""Handshakes in progress allowed beyond max_peers (a reconnecting seat must get in)."""


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
        self.pictures = PictureServer()
        """Custom packs shared with the peers (``share_pack``), pictures by hash."""
        self._share_named_packs()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timer: tuple[str, asyncio.TimerHandle] | None = None
        self._timer_seconds = 0.0
        self._timer_deadline = 0.0
        self._spent_timer: str | None = None
        self._announcer: Announcer | None = None
        self._announce_dirty = asyncio.Event()
        self._bot_count = 0
        self._bot_tokens: set[str] = set()
        self._stopping = False
        self._dead = False
        self._pending = 0
        self._links: set[Link] = set()
        self._save_path: Path | None = None
        self._log_cache: list[str] = []
        self._writer: saves.Writer | None = None
        self._outbox = Outbox()
        self._published = -1
        """The state_id peers have been told of (saved before telling)."""
        self._game_id = ""
        self._game_started = 0.0
        self._resumed = False
        self._away: dict[str, asyncio.TimerHandle] = {}
        self._standin_tick: asyncio.TimerHandle | None = None
        self._standin_rngs: dict[int, random.Random] = {}
        self._standin_stuck = -1
        self._pace = rng.stream(self.config.seed or 0, "standin-pace")
        self.room.standin_after = self.config.standin_after

    @classmethod
    def resume(cls, path: str | os.PathLike[str] | None = None,
               config: HostConfig | None = None, port: int | None = None) -> Host:
        """A host for a saved game (None: the newest unfinished one), ready to ``start``.

        The Session is rebuilt by replaying the saved log with the saved seed
        (checked against the saved state), the seats come back with their
        tokens, and the host listens on the port the peers remember (``port``
        overrides it). Peers reconnect by themselves; the host's own bots are
        started again. Raises saves.SaveError with a reason.
        """
        config = dataclasses.replace(config) if config is not None else HostConfig()
        where = Path(path) if path else saves.newest_unfinished(config.data_dir)
        save = saves.load(where)
        if save.finished:
            raise saves.SaveError(f"The game in {where.name} has finished; there is "
                                  f"nothing to resume.")
        session = saves.rebuild(save)
        config.port = save.port if port is None else port
        config.host_name = save.host_name
        config.password = config.password or save.password
        config.seed = config.seed if config.seed is not None else save.base_seed
        host = cls(save.game, save.mode, save.options, config)
        room = host.room
        room.seats = [Seat(s.name, s.colour, s.token, bot=s.bot, ready=s.bot, owner=s.owner,
                           hosted=s.hosted) for s in save.seats]
        room.banned = set(save.banned)
        room.phase = "playing"
        host.session = session
        host.owner_token = save.owner_token or host.owner_token
        host.games_played = save.games_played
        host._bot_count = sum(s.hosted for s in save.seats)
        host._game_id, host._game_started = save.game_id, save.started
        host._save_path = where if config.save else None
        host._resumed = True
        return host

    @property
    def save_path(self) -> Path | None:
        """Where the game being played is saved (None before a game or when not saving)."""
        return self._save_path

    # --- life cycle ------------------------------------------------------------

    async def start(self) -> int:
        """Listen (and announce); return the port actually bound."""
        self._server = await asyncio.start_server(
            self._serve, self.config.bind, self.config.port, limit=self.config.max_frame)
        self.port = self._server.sockets[0].getsockname()[1]
        self._spawn(self._heartbeats())
        if self._resumed:
            self._come_back()
        if self.config.announce:
            self._announcer = Announcer(self._announcement(), self.config.interfaces)
            await self._announcer.start()
            self._spawn(self._announce_updates())
        return self.port

    async def stop(self, reason: str = "The host has stopped the game.") -> None:
        """Say goodbye to every peer, withdraw the announcement, stop listening.

        After ``kill`` it only releases what the dead host still holds."""
        if self._stopping:
            if self._dead:
                await self._release()
            return
        self._stopping = True
        self._cancel_timer()
        self._cancel_standins()
        if self._server is not None:
            self._server.close()
        await self._outbox.drain(5.0)
        for conn in list(self.conns):
            conn.link.send(Bye(reason))
        await asyncio.gather(*(c.link.close() for c in list(self.conns)),
                             return_exceptions=True)
        await self._release()

    async def _release(self) -> None:
        await self._outbox.close()
        if self._announcer is not None:
            with contextlib.suppress(Exception):
                await self._announcer.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    def kill(self) -> None:
        """Vanish at once as a SIGKILL or a power cut would (for tests): no goodbyes,
        no save after this instant, every connection just breaks, its bots die.
        Synchronous, so it can strike between any two accepted actions; ``stop``
        afterwards only releases what is left (the in-process announcement is
        withdrawn then, which a real crash would not do)."""
        self._dead = self._stopping = True
        self._outbox.abandon()
        self._cancel_timer()
        self._cancel_standins()
        if self._server is not None:
            self._server.close()
        for link in list(self._links):
            link.abort()
        for task in list(self._tasks):
            task.cancel()

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
        self._links.add(link)
        self._pending += 1
        handshaking = True
        try:
            if self._pending + len(self.conns) > self.config.max_peers + MAX_PENDING:
                link.send(Refused("full", f"The host has too many connections "
                                          f"({self.config.max_peers}); try again later."))
                return
            try:
                async with asyncio.timeout(self.config.handshake_timeout):
                    hello = await link.recv()
                    if not isinstance(hello, Hello):
                        link.send(Refused("malformed", f"The first message must be a hello, "
                                                       f"not {hello.TYPE}."))
                        return
                    if hello.version != PROTOCOL_VERSION:
                        link.send(Refused("version", f"This host speaks lanplay protocol "
                                                     f"{PROTOCOL_VERSION}, you speak "
                                                     f"{hello.version}: use the same lanplay "
                                                     f"version on both laptops."))
                        return
                    if not await self._password_ok(link):
                        return
            except TimeoutError:
                link.send(Refused("timeout", "The handshake did not finish in time; "
                                             "connect with lanplay."))
                return
            self._pending -= 1
            handshaking = False
            conn = self._admit(link, hello)
            if conn is None:
                return
            while True:
                msg = await link.recv()
                if conn not in self.conns:  # replaced by a newer connection of its seat
                    return
                now = time.monotonic()
                conn.last_seen = now
                if isinstance(msg, Pong | Bye) or conn.limit.allow(now):
                    self._handle(conn, msg)
                    continue
                if conn.limit.flooding():
                    link.send(Refused("flood", "You sent far too many messages too fast; "
                                               "the host closed your connection."))
                    return
                link.send(Rejected(getattr(msg, "id", 0), "rate",
                                   "Slow down: too many moves at once."))
        except ProtocolError as exc:
            link.send(Refused("malformed", exc.reason))
        except (LinkClosed, ConnectionError, OSError):
            pass
        except Exception:  # a bug of ours must cost one connection, not the host
            log.exception("error serving %s", link.peername)
            link.send(Refused("internal", "The host hit an internal error with your "
                                          "connection; please join again."))
        finally:
            if handshaking:
                self._pending -= 1
            if conn is not None:
                self._detach(conn)
            self._links.discard(link)
            await link.close()

    async def _password_ok(self, link: Link) -> bool:
        """Challenge and response: the password itself never crosses the network."""
        password = self.config.password
        if not password:
            return True
        nonce = admission.new_nonce()
        link.send(Challenge(nonce))
        answer = await link.recv()
        if isinstance(answer, Answer) and admission.verify(password, nonce, answer.hmac):
            return True
        link.send(Refused("password", "Wrong password for this room; ask the host for "
                                      "it and try again."))
        return False

    def _admit(self, link: Link, hello: Hello) -> Conn | None:
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
                    if hello.token in self._bot_tokens:
                        self._need_room()
                        seat = room.add(hello.name, hello.colour, bot=True,
                                        token=hello.token)
                        seat.hosted = True
                        self._bot_tokens.discard(hello.token)
                    elif hello.token == self.owner_token:
                        self._need_room()
                        seat = room.add(hello.name, hello.colour, owner=True,
                                        token=self.owner_token)
                    else:
                        raise Refusal("bad_token", "That reconnect token does not belong "
                                                   "to any seat here; join as a new player.")
                for old in [c for c in self.conns if c.seat is seat]:
                    # Closed, not aborted: a reset could overtake the bye, and the old
                    # peer would then come back and take the seat from the new one.
                    old.link.send(Bye("You connected again from elsewhere."))
                    self.conns.discard(old)
                    self._spawn(old.link.close())
                seat.connected = True
                self._back(seat)
            else:
                self._need_room()
                if not hello.spectate and room.phase != "playing":
                    seat = room.add(hello.name, hello.colour, bot=hello.bot)
        except Refusal as exc:
            link.send(Refused(exc.code, exc.reason))
            return None
        cfg = self.config
        conn = Conn(link, seat, limit=RateLimit(cfg.rate, cfg.burst, cfg.flood_after,
                                                cfg.flood_window),
                    name=hello.name.strip()[:24] or "Spectator", colour=hello.colour)
        self.conns.add(conn)
        if seat is None:
            room.spectators += 1
            room.watchers.append(conn.name)
        index = room.index(seat) if seat is not None else None
        token = seat.token if seat is not None else ""
        link.send(Welcome(PROTOCOL_VERSION, index, token, room.host_name, room.game.id,
                          owner=seat is not None and seat.owner))
        for offer in self.pictures.offers():
            link.send(offer)
        self._lobby_changed()
        if self.session is not None:
            self._send_snapshot(conn)
        return conn

    def _send_snapshot(self, conn: Conn) -> None:
        """The conn's whole view, taken now (the next delta builds on it) but sent
        after whatever game news is still waiting for its save."""
        session = self.session
        assert session is not None
        snapshot = session.snapshot(self._viewer(conn))
        result = session.result
        over = GameOver(session.state_id, result.to_wire(), "finished") \
            if result is not None else None

        def publish() -> None:
            conn.link.send(snapshot)
            if over is not None:
                conn.link.send(over)
            elif self._timer is not None:
                conn.link.send(self._clock())

        self._outbox.post(publish)

    def _need_room(self) -> None:
        """A new connection needs room under max_peers (a returning seat does not)."""
        if len(self.conns) >= self.config.max_peers:
            raise Refusal("full", f"The host has too many connections "
                                  f"({self.config.max_peers}); try again later.")

    def _on_bye(self, conn: Conn) -> None:
        """A player who says goodbye before the first game frees the seat (no ban:
        they may join again). Once a game has started the seat is kept: for their
        return during play, and afterwards so the result's seat numbers and "Play
        again" with the same seats stay true."""
        seat = conn.seat
        leaving = (seat is not None and not seat.owner and self.room.phase == "lobby"
                   and any(s is seat for s in self.room.seats)
                   and not any(c.seat is seat and c is not conn for c in self.conns))
        self._detach(conn)
        conn.link.abort()
        if leaving and seat is not None:
            self.room.leave(seat)
            self._tell_seats()
            self._lobby_changed()

    def _detach(self, conn: Conn) -> None:
        if conn not in self.conns or self._dead:
            return
        self.conns.discard(conn)
        if conn.seat is None:
            self.room.spectators -= 1
            self._unwatch(conn)
        elif not any(c.seat is conn.seat for c in self.conns):
            conn.seat.connected = False
            if self.session is not None and any(s is conn.seat for s in self.room.seats):
                self.session.forget(self.room.index(conn.seat))
                self._away_from(conn.seat)
        if not self._stopping:
            self._lobby_changed()

    def _unwatch(self, conn: Conn) -> None:
        if conn.name in self.room.watchers:
            self.room.watchers.remove(conn.name)

    def _sit(self, conn: Conn) -> None:
        """A spectator takes a free seat between games (the ``sit`` room command)."""
        if conn.seat is not None:
            raise Refusal("seated", "You already have a seat.")
        room = self.room
        if room.phase == "playing":
            raise Refusal("started", "Seats free up between games: wait for this one to end.")
        seat = room.add(conn.name, conn.colour)  # "full" when there is no free seat
        conn.seat = seat
        room.spectators -= 1
        self._unwatch(conn)
        conn.link.send(Welcome(PROTOCOL_VERSION, room.index(seat), seat.token, room.host_name,
                               room.game.id, owner=False))
        self._lobby_changed()

    # --- away seats and their stand-ins -----------------------------------------------

    def _away_from(self, seat: Seat, now: float | None = None) -> None:
        """The seat lost its last connection: the game waits for it, and after
        ``standin_after`` seconds a stand-in bot plays it."""
        if self.room.phase != "playing" or self._stopping:
            return
        seat.away_since = time.monotonic() if now is None else now
        after = self.config.standin_after
        if after is None or after < 0 or seat.standin:
            return
        old = self._away.pop(seat.token, None)
        if old is not None:
            old.cancel()
        self._away[seat.token] = asyncio.get_running_loop().call_later(
            after, self._stand_in, seat)

    def _stand_in(self, seat: Seat) -> None:
        self._away.pop(seat.token, None)
        if (self._stopping or seat.connected or self.room.phase != "playing"
                or not any(s is seat for s in self.room.seats)):
            return
        seat.standin = True
        self._emit("standin")
        self._lobby_changed()
        self._standin_soon()

    def _back(self, seat: Seat) -> None:
        """The person is back: the seat is theirs again at once."""
        handle = self._away.pop(seat.token, None)
        if handle is not None:
            handle.cancel()
        seat.away_since = None
        if seat.standin:
            seat.standin = False
            self._emit("standin_over")

    def _standin_soon(self) -> None:
        from lanplay.bots import think_time

        if self._standin_tick is None and any(s.standin for s in self.room.seats):
            self._standin_tick = asyncio.get_running_loop().call_later(
                think_time(self.config.bot_delay, self._pace), self._standin_move)

    def _standin_move(self) -> None:
        """One move by a stand-in, chosen from that seat's own view only (the
        same game.bot a bot peer runs), so a stand-in knows no more than its seat."""
        self._standin_tick = None
        session = self.session
        if session is None or self._stopping or self.room.phase != "playing" \
                or session.state_id == self._standin_stuck:
            return
        actors = session.actors()
        for index, seat in enumerate(self.room.seats):
            if not seat.standin or index not in actors:
                continue
            chooser = self._standin_rngs.setdefault(
                index, rng.stream(session.seed, "standin", index))
            try:
                action = session.game.bot(session.view(index), index, chooser)
                if action is None:
                    continue
                session.submit(index, action, session.state_id)
            except Exception as exc:  # a bot or rules bug: the seat waits for its person
                log.warning("the stand-in for seat %d cannot move: %s", index,
                            getattr(exc, "reason", exc))
                self._standin_stuck = session.state_id
                return
            self._after_action()
            return

    def _cancel_standins(self) -> None:
        for handle in self._away.values():
            handle.cancel()
        self._away.clear()
        if self._standin_tick is not None:
            self._standin_tick.cancel()
            self._standin_tick = None

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
                self._send_snapshot(conn)
        elif isinstance(msg, PictureRequest):
            for chunk in self.pictures.answer(msg):
                conn.link.send(chunk)
        elif isinstance(msg, Bye):
            self._on_bye(conn)
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
        conn.limit.refund()
        accepted = Accepted(msg.id, session.state_id)
        self._after_action(lambda: conn.link.send(accepted))

    def _on_control(self, conn: Conn, msg: Control) -> None:
        room, cmd, args = self.room, msg.command, msg.args
        if cmd == "sit":
            self._sit(conn)
            return
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
            unseated = room.set_game(game, mode if isinstance(mode, str) else None, options)
            self.session = None  # the next game is a new one (the last is saved and over)
            self._unseat(unseated)
            try:
                self._share_named_packs()
            except ValueError as exc:
                raise Refusal("bad_game", str(exc)) from None
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

    def share_pack(self, content_pack: Pack) -> None:
        """Offer a custom pack to every peer, now and as they join; each peer asks
        for the pictures its cache lacks (lanplay.content.transfer)."""
        offer = self.pictures.add(content_pack)
        in_play.register(content_pack)
        for conn in self.conns:
            conn.link.send(offer)

    def _share_named_packs(self) -> None:
        """Share the custom pack the game's options name (``pack``), if not yet shared.

        ValueError says why a named pack cannot be used, so a host never starts
        a game its peers could not draw.
        """
        for pack_id in in_play.pack_ids(self.room.options):
            if any(o.pack.get("id") == pack_id for o in self.pictures.offers()):
                continue
            found = discover()
            try:
                content_pack = found.pack(pack_id)
            except KeyError:
                why = next((e.problem for e in found.errors if e.file.parent.name == pack_id
                            or e.file.name == pack_id), "it is not in the packs folder")
                raise ValueError(f"The pack {pack_id!r} cannot be used: {why}.") from None
            self.share_pack(content_pack)

    def add_bot(self) -> None:
        """Seat a bot: a real peer over loopback that sees only its own view."""
        if len(self.room.seats) >= self.room.max_players:
            raise Refusal("full", f"The room is full ({self.room.max_players} seats).")
        if self.room.phase == "playing":
            raise Refusal("started", "Bots can only join before the game starts.")
        self._bot_count += 1
        token = secrets.token_urlsafe(16)
        self._bot_tokens.add(token)
        self._run_bot(f"Bot {self._bot_count}", token, self._bot_count)

    def _run_bot(self, name: str, token: str, number: int) -> None:
        from lanplay.bots import run_bot

        address = "127.0.0.1" if self.config.bind in ("", "0.0.0.0") else self.config.bind
        seed = rng.stream(self.config.seed or 0, "bot", number).getrandbits(32)
        self._spawn(run_bot(address, self.port, name, seed=seed,
                            delay=self.config.bot_delay, token=token,
                            password=self.config.password))

    def remove_seat(self, index: Any) -> None:
        seat = self.room.remove(index)
        self._tell_seats()
        for conn in [c for c in self.conns if c.seat is seat]:
            conn.link.send(Refused("removed", "The host removed you from this room."))
            self._detach(conn)
            self._spawn(conn.link.close())  # flush the refusal, then close
        self._lobby_changed()

    def _unseat(self, seats: list[Seat]) -> None:
        """Seats the new game has no room for: a bot goes, a person watches on (and
        may take a seat again if one frees up); the others learn their new numbers."""
        gone = [c for c in self.conns if any(c.seat is s for s in seats)]
        if seats:
            self._tell_seats()  # the new numbers first, before any lobby shows them
        for conn in gone:
            seat = conn.seat
            assert seat is not None
            if seat.bot:
                conn.link.send(Refused("removed", "The game changed and has no seat for "
                                                  "this bot."))
                self._detach(conn)
                self._spawn(conn.link.close())
                continue
            conn.seat = None
            self.room.spectators += 1
            self.room.watchers.append(conn.name)
            conn.link.send(Welcome(PROTOCOL_VERSION, None, "", self.room.host_name,
                                   self.room.game.id))
            conn.link.send(Chat(f"The game changed to {self.room.game.name}, which has no "
                                f"seat for you: you watch now, and may take a seat when one "
                                f"frees up.", "lanplay", None))

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
        self._standin_rngs.clear()
        self._standin_stuck = -1
        room.phase = "playing"
        self.finished.clear()
        for seat in room.seats:
            seat.ready = seat.bot
        self._published = -1
        self._new_save()
        self._lobby_changed()
        snapshots = [(c.link, self.session.snapshot(self._viewer(c))) for c in self.conns]

        def publish() -> None:
            self._published = 0
            for link, snapshot in snapshots:
                link.send(snapshot)

        self._commit(publish)
        self._schedule_timer()
        self._emit("started")

    def _after_action(self, then: Callable[[], None] | None = None) -> None:
        """Tell every live viewer its delta (and run ``then``) once the save that
        holds the action is on disk: no peer hears of a move a crash could undo."""
        session = self.session
        assert session is not None
        if self._dead:
            return
        conns = list(self.conns)
        viewers = {self._viewer(c) for c in conns}
        bodies = {v: pack(to_wire(d)) for v, d in session.deltas(viewers).items()}
        sends = [(c.link, bodies[self._viewer(c)]) for c in conns]
        state_id, result = session.state_id, session.result
        if result is not None:
            self._cancel_timer()
            self._cancel_standins()
            for seat in self.room.seats:
                seat.away_since, seat.standin = None, False
            self.room.phase = "over"
            self.results.append(result)
        else:
            self._schedule_timer()
            self._standin_soon()

        def publish() -> None:
            self._published = state_id
            for link, body in sends:
                link.send_body(body)
            if then is not None:
                then()
            if result is not None:
                self._broadcast(GameOver(state_id, result.to_wire(), "finished"))
                self._lobby_changed()
                self.finished.set()
                self._emit("over")
            self._emit("action")

        self._commit(publish)

    def _schedule_timer(self) -> None:
        if self._dead:
            return
        session = self.session
        timer: Timer | None = session.timer() if session is not None else None
        if timer is None:
            self._cancel_timer()
            return
        if (self._timer is not None and self._timer[0] == timer.key) \
                or timer.key == self._spent_timer:
            return
        self._cancel_timer()
        loop = asyncio.get_running_loop()
        handle = loop.call_later(timer.seconds, self._expire, timer)
        self._timer = (timer.key, handle)
        self._timer_seconds = float(timer.seconds)
        # Our own deadline: under qasync call_later gives a plain Handle, without when().
        self._timer_deadline = loop.time() + timer.seconds
        self._broadcast(self._clock())

    def _expire(self, timer: Timer) -> None:
        self._timer = None
        self._broadcast(self._clock())
        if self.session is None or self._dead:
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
            self._broadcast(self._clock())

    def _clock(self) -> Clock:
        """The running deadline as peers see it (G1 in docs/GAME-SURFACE.md)."""
        if self._timer is None:
            return Clock("", 0.0, 0.0)
        key = self._timer[0]
        left = max(0.0, self._timer_deadline - asyncio.get_running_loop().time())
        return Clock(key, self._timer_seconds, round(left, 3))

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

    # --- saves ---------------------------------------------------------------------------

    def _come_back(self) -> None:
        """After a resume every seat is away until its peer reconnects by itself
        (a stand-in takes over after ``standin_after``); the host's own bots start again."""
        now = time.monotonic()
        for number, seat in enumerate(self.room.seats, 1):
            self._away_from(seat, now)
            if seat.hosted:
                self._run_bot(seat.name, seat.token, number)
        assert self.session is not None
        self._published = self.session.state_id
        self._commit(lambda: None)  # the port may be new, and list_saves sorts by time
        self._schedule_timer()
        self._lobby_changed()

    def _new_save(self) -> None:
        self._game_id = secrets.token_hex(6)
        self._game_started = time.time()
        self._save_path = None
        self._log_cache = []
        self._writer = None
        if self.config.save:
            self._save_path = (saves.saves_dir(self.config.data_dir)
                               / saves.file_name(self._save_of()))

    def _save_of(self) -> saves.Save:
        session, room = self.session, self.room
        assert session is not None
        result = session.result
        return saves.Save(
            game_id=self._game_id, game=room.game.id, mode=session.mode,
            options=dict(session.options), seed=session.seed,
            seats=[saves.SavedSeat(s.name, s.colour, s.token, s.bot, s.owner, s.hosted)
                   for s in room.seats],
            log=list(session.log), state_id=session.state_id,
            phase="over" if result is not None else "playing", port=self.port,
            host_name=room.host_name, owner_token=self.owner_token,
            banned=sorted(room.banned), password=self.config.password or None,
            base_seed=self.config.seed, games_played=self.games_played,
            result=result.to_wire() if result is not None else None,
            started=self._game_started, updated=time.time(),
            state=saves.plain(session.state))

    def _saved_room(self) -> tuple[Any, ...]:
        """What a save holds besides the log and the state: when it changes, the
        next commit writes the full save (the journal holds actions only)."""
        room = self.room
        return (tuple((s.name, s.colour, s.token, s.bot, s.owner, s.hosted)
                      for s in room.seats),
                tuple(sorted(room.banned)), self.port, room.host_name, self.owner_token,
                self.config.password, self.config.seed, self.games_played)

    def _commit(self, publish: Callable[[], None]) -> None:
        """Make the game as it is now durable (off the event loop), then ``publish``.

        The full save when the game starts or ends, when the room's saved data
        changed and every ``saves.COMPACT_EVERY`` actions; otherwise only the new
        actions, appended to the journal (one fdatasync)."""
        path = self._save_path
        session = self.session
        if path is None or session is None or self._dead:
            self._outbox.post(publish)
            return
        writer = self._writer
        if writer is None or writer.path != path:
            writer = self._writer = saves.Writer(path)
        room = self._saved_room()
        finished = session.result is not None
        if (finished or writer.needs_full or room != writer.room
                or session.state_id - writer.full_at >= saves.COMPACT_EVERY):
            save = self._save_of()
            writer.full(saves.encode(save, self._log_cache), save.state_id, room, finished)
            if finished:
                self._save_path = None  # a finished game lives on in the history only
        else:
            cache = self._log_cache
            start = len(cache)
            cache.extend(saves.entry_json(e) for e in session.log[start:])
            if len(cache) == start:
                self._outbox.post(publish)  # nothing new to make durable
                return
            writer.lines(cache[start:])

        def write() -> None:
            try:
                writer.flush()
            except OSError as exc:
                log.warning("Could not save the game to %s (%s); play goes on, but a "
                            "crash now would lose it: free some disk space.", path,
                            exc.strerror or exc)

        self._outbox.post(publish, write=write, key=path)

    # --- background duties -----------------------------------------------------------

    def _announcement(self) -> Announcement:
        room = self.room
        return Announcement(host_name=room.host_name, game=room.game.id, port=self.port,
                            seats_taken=len(room.seats), seats_total=room.max_players,
                            state=room.phase, password=bool(self.config.password))

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
            state_id = self._published if self.session is not None else -1
            for conn in list(self.conns):
                if now - conn.last_seen > self.config.dead_after:
                    conn.link.abort()
                    self._detach(conn)
                else:
                    conn.link.send(Ping(nonce, state_id))
