"""The Host: builds the parts of a host, wires them together, and runs its life.

It listens (``start``), says goodbye (``stop``) or dies on the spot (``kill``),
resumes a saved game (``resume``), and keeps the public face the window, the
tools and the tests use (``room``, ``session``, ``conns``, ``port``,
``listeners``...). Every cross-part call is a named callback handed over
here, so what each part may do to the others reads off ``__init__``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lanplay.content.model import Pack
from lanplay.content.transfer import PictureServer
from lanplay.game import Result
from lanplay.host.announce import Announcing, heartbeats
from lanplay.host.commands import Bots, Commands
from lanplay.host.config import HostConfig
from lanplay.host.connections import Reception
from lanplay.host.dispatch import Dispatcher
from lanplay.host.flow import Play
from lanplay.host.handover import HandOver
from lanplay.host.packs import SharedPacks
from lanplay.host.peers import Conn, Peers
from lanplay.host.ports import Ports, listen
from lanplay.host.saving import Saver
from lanplay.host.seeds import LocalSeeds, SeedSource
from lanplay.host.shared import Status, Tokens
from lanplay.host.words import bye
from lanplay.messages import N_, Msg, msg
from lanplay.room import Room, Seat
from lanplay.session import Session
from lanplay.store import folders, listing, roomcopy, saves
from protocol.messages import Bye, Message, Moved

STOPPED = msg("The host has stopped the game.")
CLOSED = msg("The host closed the room.")
PAUSED = N_("{name} paused the game; it can be resumed from {name}'s laptop.")
"""What the guests read when the host stops during a game that is saved (the key)."""
"""What the window's "Close the room" says to everyone (each laptop in its language)."""


class RoomMoved(Exception):
    """A resumed room is refereed elsewhere now, at a higher term (its deputy took it
    over): ``moved`` says where; this laptop joins it as a peer instead."""

    def __init__(self, moved: Moved) -> None:
        super().__init__(f"the room moved to {moved.address}:{moved.port}")
        self.moved = moved


class Host:
    def __init__(self, game_id: str, mode: str | None = None,
                 options: dict[str, Any] | None = None,
                 config: HostConfig | None = None, seeds: SeedSource | None = None) -> None:
        self.config = cfg = config or HostConfig()
        self.room = room = Room(game_id, mode, options, cfg.host_name)
        self.status = Status()
        self.tokens = Tokens()
        self.listeners: list[Callable[[str], None]] = []
        self.peers = Peers(room)
        self.packs = SharedPacks(self.peers)
        self.packs.share_named(room.options)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._resumed = False
        self._adopted = False
        self.web: Any = None
        """The page's server (``lanplay.web.server.WebServer``) once started, else None."""
        self.web_problem: Msg | None = None
        """Why the page is not served (its port is taken), in words for the host's person."""
        self.ports: Ports | None = None
        """The pair listened on (the game's port and its web page's), once started."""
        self.saver = Saver(room, cfg, self.status, self.tokens,
                           lambda why, dropped: self.play.hold(why, dropped))
        self.play = Play(room, cfg, self.status, self.peers, self.saver,
                         seeds or LocalSeeds(cfg), self._lobby_changed, self._emit)
        self.announcing = Announcing(room, cfg, self.status)
        self.reception = Reception(room, cfg, self.status, self.peers, self.tokens, self.packs,
                                   self.play, self.play.standins, self._dispatch,
                                   self._lobby_changed, self._spawn)
        self.bots = Bots(cfg, self.status, self.tokens, self._spawn)
        self.commands = Commands(room, self.peers, self.packs, self.bots,
                                 self.play.start_game, self.reception.detach,
                                 self._lobby_changed, self._spawn, self.play.forget_game)
        self.handover = HandOver(self)
        """Handing the room to another laptop, its deputy, and learning it moved on."""
        self.dispatcher = Dispatcher(room, self.peers, self.play, self.commands.control,
                                     self.packs.server.answer, self.handover)
        self.reception.admitted = self.handover.admitted
        self.reception.departed = self.handover.detached
        room.standin_after = cfg.standin_after

    @classmethod
    def resume(cls, path: str | os.PathLike[str] | None = None,
               config: HostConfig | None = None, port: int | None = None,
               skipped: listing.Skipped | None = None) -> Host:
        """A host for a saved game (None: the newest unfinished one; ``skipped`` is
        told of each file passed over), ready to ``start``.

        The Session is rebuilt by replaying the saved log with the saved seed
        (checked against the saved state), the seats come back with their
        tokens, and the host listens on the port the peers remember (``port``
        overrides it). Peers reconnect by themselves; the host's own bots are
        started again. Raises saves.SaveError with a reason, and nothing else.
        """
        config = dataclasses.replace(config) if config is not None else HostConfig()
        where = Path(path) if path else listing.newest_unfinished(config.data_dir, skipped)
        save = saves.load(where)
        if save.finished:
            listing.settle(where.parent.parent)  # its end was saved: file it in the history
            raise saves.SaveError(f"The game in {where.name} has finished; there is "
                                  f"nothing to resume.")
        session = saves.rebuild(save)
        config.port = save.port if port is None else port
        config.host_name = save.host_name
        if not config.password:  # a password given now replaces the saved one
            config.room_key = save.room_key
        config.seed = config.seed if config.seed is not None else save.base_seed
        try:
            host = cls(save.game, save.mode, save.options, config)
        except Exception as exc:  # the save replayed, so this is a bug; say it in words
            raise saves.SaveError(f"The game in {where.name} could not be set up again "
                                  f"({type(exc).__name__}: {str(exc)[:80]}).") from exc
        room = host.room
        room.seats = [Seat(s.name, s.colour, s.token, bot=s.bot, ready=s.bot, owner=s.owner,
                           hosted=s.hosted) for s in save.seats]
        room.banned = set(save.banned)
        room.phase = "playing"
        room.id = save.room or room.id
        room.term, room.deputy = save.term, save.deputy
        host.play.session = session
        host.tokens.owner = save.owner_token or host.tokens.owner
        host.play.games_played = save.games_played
        host.bots.count = sum(s.hosted for s in save.seats)
        host.saver.resumed(save.game_id, save.started, where if config.save else None)
        host._resumed = True
        return host

    @classmethod
    def adopt(cls, copy: roomcopy.RoomCopy, config: HostConfig,
              owner_token: str | None = None) -> Host:
        """A host for a room handed over (or taken over) from another laptop, one term
        up, ready to ``start`` on the ports this laptop offered.

        The copy was checked (``roomcopy.decode``); its game is replayed from its seed
        here (``saves.rebuild``), so a copy that does not replay is refused, with
        CopyError, before anyone plays on. ``owner_token``: this laptop's own seat,
        which owns the room from now on (None: the owner stays who it was)."""
        config = dataclasses.replace(config)
        if not config.password:
            config.room_key = copy.room_key
        config.seed = copy.base_seed
        config.standin_after = copy.standin_after
        config.autostart = copy.autostart
        config.takeover_after = copy.after
        save = copy.save
        session: Session | None = None
        if save is not None:
            try:
                session = saves.rebuild(save)
            except saves.SaveError as exc:
                raise roomcopy.CopyError(exc.reason) from None
        try:
            host = cls(copy.game, copy.mode, copy.options, config)
        except Exception as exc:  # checked and replayed, so a bug of ours: in words
            raise roomcopy.CopyError(f"The room could not be set up here "
                                     f"({type(exc).__name__}).") from exc
        room = host.room
        room.id, room.term, room.bots = copy.room, copy.term + 1, copy.bots
        mine = owner_token is not None and any(s.token == owner_token for s in copy.seats)
        room.seats = [Seat(s.name, s.colour, s.token, bot=s.bot, ready=s.bot,
                           owner=(s.token == owner_token) if mine else s.owner,
                           hosted=s.hosted) for s in copy.seats]
        room.banned = set(copy.banned)
        host.tokens.owner = (owner_token if mine and owner_token else copy.owner_token) \
            or host.tokens.owner
        host.bots.count = copy.bot_count
        host.play.games_played = copy.games_played
        if save is not None and session is not None:
            path = (folders.saves_dir(config.data_dir) / saves.file_name(save)
                    if config.save else None)
            host.saver.resumed(save.game_id, save.started, path)
            host.play.session = session
            if session.result is not None:
                room.phase = "over"
                host.play.results.append(session.result)
                host.play.published = session.state_id
                host.play.finished.set()
            else:
                room.phase = "playing"
                host.play.carried = copy.clock
        host._adopted = True
        host._resumed = room.phase == "playing"
        return host

    # --- the public face ----------------------------------------------------------

    @property
    def session(self) -> Session | None:
        """The game being played (None in the lobby before the first game, and while
        the next game's shuffle is being made)."""
        return self.play.session

    @property
    def port(self) -> int:
        """The port actually bound (0 before ``start``)."""
        return self.status.port

    @property
    def web_port(self) -> int:
        """The page's port actually bound (0: no web server)."""
        return self.status.web_port

    @property
    def conns(self) -> set[Conn]:
        return self.peers.conns

    @property
    def owner_token(self) -> str:
        return self.tokens.owner

    @property
    def games_played(self) -> int:
        return self.play.games_played

    @property
    def results(self) -> list[Result]:
        return self.play.results

    @property
    def finished(self) -> asyncio.Event:
        """Set when a game ends (cleared when the next one starts)."""
        return self.play.finished

    @property
    def pictures(self) -> PictureServer:
        """Custom packs shared with the peers (``share_pack``), pictures by hash."""
        return self.packs.server

    @property
    def save_path(self) -> Path | None:
        """Where the game being played is saved (None before a game or when not saving)."""
        return self.saver.path

    def share_pack(self, content_pack: Pack) -> None:
        """Offer a custom pack to every peer, now and as they join; each peer asks
        for the pictures its cache lacks (lanplay.content.transfer)."""
        self.packs.share(content_pack)

    def add_bot(self) -> None:
        """Seat a bot: a real peer over loopback that sees only its own view."""
        self.commands.add_bot()

    def remove_seat(self, index: Any) -> None:
        self.commands.remove_seat(index)

    def start_game(self) -> None:
        self.play.start_game()

    # --- life cycle ------------------------------------------------------------

    async def start(self) -> int:
        """Listen (and announce); return the port actually bound. OSError if the port
        asked for is taken (``ports.NoFreePort``, with its sentence, if every usual one is)."""
        cfg = self.config
        if self._resumed and self.room.deputy and not self._adopted:
            moved = await self.handover.moved_on()
            if moved is not None:  # the deputy took the room over while we were gone
                raise RoomMoved(moved)
        self._server, self.ports = await listen(
            lambda port: asyncio.start_server(self.reception.serve, cfg.bind, port,
                                              limit=cfg.max_frame),
            cfg.bind, cfg.port, cfg.first_port)
        self.status.port = self.ports.game
        self._spawn(heartbeats(self.config, self.peers, self.play.state_told,
                               self.reception.detach, lambda: self.room.term))
        if self._resumed:
            self._come_back()
        elif self._adopted:  # a room handed over between games: its bots come back
            for number, seat in enumerate(self.room.seats, 1):
                if seat.hosted:
                    self.bots.run(seat.name, seat.token, number)
        if self.config.save:  # a game whose end was saved but not yet filed (a host stopped)
            self._spawn(asyncio.to_thread(listing.settle, self.config.data_dir))
        if cfg.web_port is not None or cfg.web:
            await self._start_web(cfg.web_port if cfg.web_port is not None else self.ports.web)
        if self.config.announce and self._adopted:  # its peers were told where: play first
            self._spawn(self._announce())
        elif self.config.announce:
            await self._announce()
        return self.status.port

    async def _announce(self) -> None:
        """On the LAN (zeroconf's probing takes a second or two)."""
        await self.announcing.start()
        self._spawn(self.announcing.updates())

    async def _start_web(self, port: int) -> None:
        """The browser page and its WebSocket (``lanplay.web``); each WebSocket is served
        by the same reception as a TCP connection. A web port that cannot be bound
        costs the page, not the room: ``web_problem`` says why."""
        from lanplay.content import in_play
        from lanplay.web.assets import Assets
        from lanplay.web.server import WebServer

        def about() -> dict[str, str]:  # the join page names the game before joining
            return {"game": self.room.game.id, "mode": self.room.mode,
                    "host": self.config.host_name}

        self.web = WebServer(self.reception.serve_link,
                             Assets(in_play.picture, autoplay=self.config.page_autoplay,
                                    about=about),
                             self.config.max_frame, self.config.handshake_timeout,
                             vouch=self.reception.holds_seat)
        try:
            self.status.web_port = await self.web.start(self.config.bind, port)
        except OSError as exc:
            self.web = None
            self.web_problem = msg("The browser page cannot be served on port {port} ({error}); "
                                   "browsers cannot join this room.", port=port,
                                   error=exc.strerror or str(exc))

    async def stop(self, reason: Msg | str = STOPPED, pause: bool = False) -> None:
        """Say goodbye to every peer, withdraw the announcement, stop listening.

        With ``pause`` (a person closing the room, Ctrl-C on the host) a game in play
        that is saved is paused, not ended: the peers read so and keep their seats
        (``_goodbye``). After ``kill`` it only releases what the dead host still holds."""
        status = self.status
        if status.stopping:
            if status.dead:
                await self._release()
            return
        status.stopping = True
        self.handover.stop()
        self.play.halt()
        self.play.cancel_retry()
        self.play.standins.cancel()
        if self._server is not None:
            self._server.close()
        await self.saver.drain(5.0)
        goodbye = self._goodbye(reason) if pause else bye(reason)
        for conn in list(self.conns):
            conn.link.send(goodbye)
        await asyncio.gather(*(c.link.close() for c in list(self.conns)),
                             return_exceptions=True)
        await self._release()

    def _goodbye(self, reason: Msg | str) -> Bye:
        """The last word to every peer. A game in play that is saved is not over, only
        paused: the peers read so, keep their seats' tokens and come back by
        themselves when it is resumed (``lanplay host --resume`` or Resume in the
        window); otherwise ``reason``."""
        if self.room.phase == "playing" and self.saver.path is not None \
                and self.session is not None and self.session.result is None:
            return bye(msg(PAUSED, name=self.config.host_name), resume=True)
        return bye(reason)

    async def _release(self) -> None:
        await self.saver.close()
        if self.web is not None:
            await self.web.stop()
        await self.announcing.stop()
        me = asyncio.current_task()  # a hand-over stops its host from its own task
        tasks = [task for task in self._tasks if task is not me]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    def kill(self) -> None:
        """Vanish at once as a SIGKILL or a power cut would (for tests): no goodbyes,
        no save after this instant, every connection just breaks, its bots die.
        Synchronous, so it can strike between any two accepted actions; ``stop``
        afterwards only releases what is left (the in-process announcement is
        withdrawn then, which a real crash would not do)."""
        self.status.dead = self.status.stopping = True
        self.handover.stop()
        self.saver.abandon()
        self.play.halt()
        self.play.cancel_retry()
        self.play.standins.cancel()
        if self._server is not None:
            self._server.close()
        if self.web is not None:
            self.web.close()
        self.reception.abort_all()
        for task in list(self._tasks):
            task.cancel()

    def _come_back(self) -> None:
        """After a resume every seat is away until its peer reconnects by itself
        (a stand-in takes over after ``standin_after``); the host's own bots start again."""
        now = time.monotonic()
        for number, seat in enumerate(self.room.seats, 1):
            self.play.standins.away_from(seat, now)
            if seat.hosted:
                self.bots.run(seat.name, seat.token, number)
        self.play.resumed()

    # --- what the parts are handed -------------------------------------------------

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _emit(self, what: str) -> None:
        for listener in self.listeners:
            listener(what)

    def _dispatch(self, conn: Conn, msg: Message) -> None:
        # Late-bound: the dispatcher is built after the reception that calls it.
        self.dispatcher.handle(conn, msg)

    def _lobby_changed(self) -> None:
        """The room changed: every peer is told, then the LAN, then the listeners,
        and a room now full and ready may start its game."""
        paused = self.play.paused_message
        self.peers.broadcast(dataclasses.replace(
            self.room.lobby_message(), paused=self.play.paused,
            paused_message=None if paused is None else paused.to_wire()))
        self.announcing.changed()
        self._emit("lobby")
        self.handover.lobby_changed()
        self.play.start_if_due()
