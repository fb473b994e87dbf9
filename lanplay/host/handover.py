"""The room outlives this laptop: handing it over, a deputy, and learning it moved on.

``HandOver`` is the host's side of docs/PROTOCOL.md "Hand-over and deputy":

* **Hand-over.** ``offer(conn, "host")`` asks a laptop that runs lanplay to referee
  the room now; once it stands (``Stand``), the host stops taking moves, lets what
  is being saved be told, sends it the room as it stands (``lanplay.store.roomcopy``:
  state and journal, seats and tokens, the shuffle's commitment and contributions,
  the password's key, options), and once it has the room (``Ack``) tells every peer
  where to go (``Moved``, one term up) and stops. Its own bots are the new host's to
  run; its save goes (the game lives on there).
* **Deputy.** ``offer(conn, "deputy")`` (or a laptop offering itself, ``Stand`` unasked,
  when the room has none) names a deputy: it gets the copy, then every move before
  any peer is told of it (``lanplay.host.deputy``), and every peer is told who it is
  (``Deputy``), so that when this host falls silent they find the room there.
* **Moved on.** A host whose deputy vanished asks the deputy's address now and then
  whether the room is refereed there at a higher term; a resumed host asks before it
  listens. If so it tells its peers where to go and stops (``moved``): the room's
  term settles it, never two hosts of one room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine, Hashable
from typing import Any, Protocol

from lanplay.host.commands import Bots
from lanplay.host.config import HostConfig
from lanplay.host.deputy import Mirror, Stream, send_copy
from lanplay.host.flow import Play
from lanplay.host.peers import Conn, Peers
from lanplay.host.saving import Saver
from lanplay.host.shared import Status, Tokens
from lanplay.host.words import rejected
from lanplay.messages import Msg, msg
from lanplay.room import Room
from lanplay.session import Refusal
from lanplay.store import roomcopy, saves
from protocol.messages import Ack, Chat, Deputy, Moved, Offer, Stand, Welcome


class Host(Protocol):
    """What the hand-over needs of its host (``lanplay.host.server.Host``): nearly all of
    it, since the room as it stands is what it hands on."""

    room: Room
    config: HostConfig
    status: Status
    tokens: Tokens
    peers: Peers
    play: Play
    saver: Saver
    bots: Bots

    def _emit(self, what: str) -> None: ...

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...

    async def stop(self, reason: Msg | str = ..., pause: bool = False) -> None: ...

log = logging.getLogger("lanplay.host")

OFFER_FOR = 120.0
"""Seconds an offer stands (a person may take a while to answer)."""
ACK_WITHIN = 10.0
"""Seconds the laptop taking the room over has to say it has it; else play goes on here."""
PROBE_EVERY = 1.0
PROBE_FOR = 600.0
"""How often, and how long, a host whose deputy vanished asks whether the room moved."""

WHY_LOST = {
    "silent": msg("it did not answer"),
    "behind": msg("it fell too far behind"),
    "gone": msg("its connection was lost"),
}


class Source:
    """The room as this host holds it, as a copy (``lanplay.host.deputy.Source``)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.version = 0
        """One more at every change of the room (``changed``): until then the key holds."""
        self._key: tuple[Hashable, Hashable] = (None, None)

    def changed(self) -> None:
        self.version += 1

    def _session_copied(self) -> bool:
        host = self.host
        return host.play.session is not None and host.room.phase != "lobby"

    def key(self) -> Hashable:
        """Worked out again only after the room changed (a move changes none of it) or
        a new game began."""
        host = self.host
        quick = (self.version, host.saver.game_id, self._session_copied())
        if self._key[0] == quick:
            return self._key[1]
        key = self._full_key()
        self._key = (quick, key)
        return key

    def _full_key(self) -> Hashable:
        host = self.host
        room, cfg = host.room, host.config
        # Not the phase: a game's end reaches the deputy as its last journal line, which
        # holds the result (a whole copy then cost the host a save's encoding at once).
        return (host.saver._saved_room(host.play.games_played), room.game.id, room.mode,
                tuple(sorted(room.options.items())), room.bots, host.bots.count,
                host.saver.game_id, host.status.web_port, cfg.standin_after, cfg.autostart,
                self._session_copied())

    def ident(self) -> tuple[str, int]:
        return self.host.room.id, self.host.room.term

    def copy(self, clock: tuple[str, float] | None = None) -> roomcopy.RoomCopy:
        """The room as it stands; ``clock``: the deadline a hand-over carries."""
        host = self.host
        room, cfg, play = host.room, host.config, host.play
        return roomcopy.RoomCopy(
            room=room.id, term=room.term, host_name=room.host_name, game=room.game.id,
            mode=room.mode, options=dict(room.options),
            seats=[saves.SavedSeat(s.name, s.colour, s.token, s.bot, s.owner, s.hosted)
                   for s in room.seats],
            phase=room.phase if self._session_copied() else "lobby",
            owner_token=host.tokens.owner, banned=sorted(room.banned),
            room_key=host.tokens.room_key, games_played=play.games_played,
            base_seed=cfg.seed, bots=room.bots, bot_count=host.bots.count,
            standin_after=cfg.standin_after, autostart=cfg.autostart,
            after=cfg.takeover_after, port=host.status.port, web_port=host.status.web_port,
            clock=clock)

    def blob(self, clock: tuple[str, float] | None = None) -> bytes:
        host = self.host
        session = host.play.session
        save = None
        if session is not None and self._session_copied():
            save = saves.encode(host.saver.save_of(session, host.play.games_played))
        return roomcopy.join(roomcopy.head(self.copy(clock)), save)


class HandOver:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.source = Source(host)
        self.offers: dict[Conn, tuple[str, float]] = {}
        self.mirror: Mirror | None = None
        self.deputy_conn: Conn | None = None
        self.moving: Conn | None = None
        """The laptop the room is being handed to, while it is."""
        self.moved_to: Moved | None = None
        """Where the room went (this host handed it over, or learned it moved on)."""
        self._acked: asyncio.Future[int] | None = None
        self._ack_seq = 0
        self._probe: asyncio.Task[None] | None = None

    # --- who may referee, and asking them --------------------------------------------

    def candidates(self) -> list[Conn]:
        """The laptops the room could go to: peers running lanplay (not a browser, not
        this host's own bots, not the owner's own seat on this laptop)."""
        return sorted((c for c in self.host.peers.conns if self._may_referee(c)),
                      key=lambda c: (c.seat is None, self._name(c).lower()))

    def _may_referee(self, conn: Conn) -> bool:
        seat = conn.seat
        return conn.client == "lanplay" and not (seat is not None and (seat.hosted
                                                                       or seat.owner))

    def offer(self, conn: Conn, role: str) -> None:
        """Ask ``conn``'s laptop to referee now (``role`` "host") or to stand by as
        deputy; Refusal says why it cannot be asked."""
        host = self.host
        if role not in ("host", "deputy"):
            raise ValueError(role)
        if conn not in host.peers.conns or not self._may_referee(conn):
            raise Refusal("not_lanplay", msg("Only another laptop running lanplay can "
                                             "referee the room."))
        if self.moving is not None or host.status.stopping:
            raise Refusal("moving", msg("The room is already moving to another laptop."))
        if role == "host" and host.room.phase == "playing" and host.play.session is None:
            raise Refusal("shuffling", msg("The cards are being shuffled; hand the room "
                                           "over once they are dealt."))
        self.offers[conn] = (role, time.monotonic())
        room = host.room
        conn.link.send(Offer(role, room.id, room.term, self._owner_name(),
                             host.config.takeover_after))

    def _owner_name(self) -> str:
        room = self.host.room
        owner = next((s for s in room.seats if s.owner), None)
        return owner.name if owner is not None else room.host_name

    @staticmethod
    def _name(conn: Conn) -> str:
        return conn.seat.name if conn.seat is not None else (conn.name or "Spectator")

    # --- what peers send ------------------------------------------------------------------

    def on_stand(self, conn: Conn, stand: Stand) -> None:
        """An answer to an offer, or a laptop offering to stand by as deputy."""
        host = self.host
        offered = self.offers.pop(conn, None)
        if offered is not None and time.monotonic() - offered[1] > OFFER_FOR:
            offered = None
        if stand.role not in ("host", "deputy") or not self._may_referee(conn):
            self._refuse(conn, "not_lanplay", msg("This laptop cannot referee the room."))
            return
        if offered is not None and offered[0] != stand.role:
            offered = None
        if not stand.accept:
            if conn is self.moving and self._acked is not None and not self._acked.done():
                self._acked.set_exception(ConnectionError("it could not take the room"))
                return
            if offered is not None:
                self._note(msg("{name} declined to referee the room.", name=self._name(conn))
                           if stand.role == "host" else
                           msg("{name} declined to stand by as deputy.", name=self._name(conn)))
                host._emit("declined")
            return
        if not 0 < stand.port < 65536 or not 0 <= stand.web_port < 65536:
            self._refuse(conn, "malformed", msg("That answer names no port to listen on."))
            return
        if stand.role == "host":
            if offered is None:
                self._refuse(conn, "not_offered", msg("Nobody asked this laptop to referee "
                                                      "the room."))
                return
            if self.moving is not None or host.status.stopping:
                self._refuse(conn, "moving", msg("The room is already moving to another "
                                                 "laptop."))
                return
            self.moving = conn
            host._spawn(self._move(conn, stand.port, stand.web_port))
            return
        if offered is None and (self.mirror is not None or not host.config.deputies):
            self._refuse(conn, "not_offered", msg("This room has its deputy, or takes none "
                                                  "unasked."))
            return
        self._name_deputy(conn, stand.port, stand.web_port)

    def on_ack(self, conn: Conn, ack: Ack) -> None:
        if self.mirror is not None and conn is self.deputy_conn:
            self.mirror.stream.ack(ack.seq)
        elif conn is self.moving and self._acked is not None and not self._acked.done() \
                and ack.seq == self._ack_seq:
            self._acked.set_result(ack.seq)
        else:
            self._refuse(conn, "unexpected", msg("This laptop was sent nothing to "
                                                 "acknowledge."))

    def _refuse(self, conn: Conn, code: str, said: Msg) -> None:
        conn.link.send(rejected(0, code, said))

    # --- the connections' comings and goings -------------------------------------------

    def admitted(self, conn: Conn) -> None:
        """A newcomer learns who the deputy is (and where the room would go)."""
        if self.host.room.deputy is not None:
            conn.link.send(self._deputy_message())

    def detached(self, conn: Conn) -> None:
        self.offers.pop(conn, None)
        if conn is self.deputy_conn and self.mirror is not None:
            self._lost(self.mirror.stream, "gone")
        if conn is self.moving and self._acked is not None and not self._acked.done():
            self._acked.set_exception(ConnectionError("gone"))

    def lobby_changed(self) -> None:
        """The room changed: the deputy's copy follows (no peer waits on it)."""
        self.source.changed()
        if self.mirror is not None:
            self.mirror.sync(self.host.play.session)

    def stop(self) -> None:
        """The host stops: nothing waits on a deputy, nothing asks for a room."""
        if self.mirror is not None:
            self.mirror.stream.close()
        if self._probe is not None and self._probe is not asyncio.current_task():
            self._probe.cancel()  # (the probe that found the room moved stops its host)

    # --- the deputy ----------------------------------------------------------------------

    def _name_deputy(self, conn: Conn, port: int, web_port: int) -> None:
        host = self.host
        if self.mirror is not None:
            self.mirror.stream.close()
        if self._probe is not None:
            self._probe.cancel()
        stream = Stream(conn, host.config.deputy_wait, lambda why: self._lost(stream, why))
        self.mirror = Mirror(stream, self.source)
        self.deputy_conn = conn
        name = self._name(conn)
        host.room.deputy = {"name": name, "address": conn.address, "port": port,
                            "web_port": web_port}
        host.saver.mirror = self.mirror
        self.source.changed()
        self.mirror.sync(host.play.session)
        host.peers.broadcast(self._deputy_message())
        self._note(msg("{name}'s laptop stands by as deputy: if this host goes silent, the "
                       "game goes on there.", name=name))
        self._save_room()
        host._emit("deputy")

    def _lost(self, stream: Stream, why: str) -> None:
        """The deputy is gone or silent: the game goes on without one, and from now on
        this host asks there now and then whether the room moved on (it may have taken
        the room over while this laptop was away)."""
        host = self.host
        if self.mirror is None or self.mirror.stream is not stream:
            return
        where = host.room.deputy or {}
        if where and not host.status.stopping:
            self._start_probe(where)
        self.mirror = self.deputy_conn = None
        host.saver.mirror = None
        host.room.deputy = None
        self.source.changed()
        stream.close()
        if host.status.stopping:
            return
        host.peers.broadcast(self._deputy_message())
        self._note(msg("{name}'s laptop no longer stands by as deputy ({why}); the game "
                       "goes on without one.", name=str(where.get("name", "?")),
                       why=WHY_LOST.get(why, WHY_LOST["silent"])))
        log.warning("The deputy %s is dropped (%s); the game goes on without one.",
                    where.get("name"), why)
        self._save_room()
        host._emit("deputy")

    def _deputy_message(self) -> Deputy:
        room, cfg = self.host.room, self.host.config
        where = room.deputy
        if where is None:
            return Deputy(room.id, room.term, "", after=cfg.takeover_after)
        return Deputy(room.id, room.term, str(where["name"]), str(where["address"]),
                      int(where["port"]), int(where.get("web_port", 0)), cfg.takeover_after)

    def _save_room(self) -> None:
        """The save says who the deputy is (a host resumed later asks there first)."""
        host = self.host
        session = host.play.session
        if session is not None and host.room.phase == "playing" and host.play.paused is None:
            host.saver.commit(session, host.play.games_played, lambda: None)

    # --- handing the room over ------------------------------------------------------------

    async def _move(self, conn: Conn, port: int, web_port: int) -> None:
        host = self.host
        room, play = host.room, host.play
        name = self._name(conn)
        # The deadline running now goes with the room, with the time it has left (the
        # freeze stops it here; a round handed over mid-count counted from the start).
        running = play.clock()
        left = (running.key, running.remaining) if running.key else None
        play.freeze(msg("The room is moving to {name}'s laptop; make your move again in a "
                        "moment.", name=name))
        await host.saver.drain(5.0)
        if self.mirror is not None:  # its copy is of this term: the new host names its own
            stream, self.mirror = self.mirror.stream, None
            self.deputy_conn = None
            host.saver.mirror = None
            room.deputy = None
            stream.close()
        loop = asyncio.get_running_loop()
        self._acked = loop.create_future()
        self._ack_seq += 1
        send_copy(conn, "host", room.id, room.term, self._ack_seq, self.source.blob(left))
        try:
            await asyncio.wait_for(self._acked, ACK_WITHIN)
        except (TimeoutError, ConnectionError):
            self.moving = None
            if host.status.stopping:
                return
            self._note(msg("{name}'s laptop could not take the room over; play goes on "
                           "here.", name=name))
            play.carried = left  # the count goes on from where it stopped
            play.thaw()
            host._emit("handover_failed")
            return
        moved = Moved(room.id, room.term + 1, name, conn.address, port, web_port)
        await self._step_down(moved, msg("The room moved to {name}'s laptop.", name=name))

    async def _step_down(self, moved: Moved, reason: Msg) -> None:
        """Every peer is told where the room is now; this host stops and keeps no save
        of a game that goes on elsewhere."""
        host = self.host
        self.moved_to = moved
        for conn in list(host.peers.conns):
            if conn.seat is not None and conn.seat.hosted:
                continue  # the new host runs this room's bots itself
            conn.link.send(moved)
        await host.stop(reason)
        host.saver.forget()
        host._emit("moved")

    # --- learning the room moved on --------------------------------------------------------

    def _start_probe(self, where: dict[str, Any]) -> None:
        if self._probe is None or self._probe.done():
            self._probe = self.host._spawn(self._probing(dict(where)))

    async def _probing(self, where: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()
        until = loop.time() + PROBE_FOR
        while loop.time() < until and not self.host.status.stopping:
            moved = await self.moved_on(where)
            if moved is not None:
                await self._step_down(moved, msg("The room moved to {name}'s laptop.",
                                                 name=moved.name))
                return
            await asyncio.sleep(PROBE_EVERY)

    async def moved_on(self, where: dict[str, Any] | None = None,
                       timeout: float = 1.0) -> Moved | None:
        """Whether the room is refereed at the deputy's address (``where``, else the
        saved one) at a higher term than here: where it is then, else None."""
        from lanplay.peer.peer import JoinError, Peer

        host = self.host
        where = where if where is not None else host.room.deputy
        if not where:
            return None
        room = host.room
        peer = Peer(room.host_name, spectate=True, reconnect_for=0,
                    password=host.tokens.room_key)
        try:
            welcome: Welcome = await peer.connect(str(where["address"]), int(where["port"]),
                                                  timeout)
        except (JoinError, OSError):
            return None
        finally:
            with contextlib.suppress(Exception):
                await peer.close("asked whether the room moved")
        if welcome.room != room.id or welcome.term <= room.term:
            return None
        return Moved(room.id, welcome.term, welcome.host_name, str(where["address"]),
                     int(where["port"]), int(where.get("web_port", 0)))

    def _note(self, said: Msg) -> None:
        names = [s.name for s in self.host.room.seats]
        self.host.peers.broadcast(Chat(said.english(names), "lanplay", None, said.to_wire()))


__all__ = ["HandOver", "Source"]
