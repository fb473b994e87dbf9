"""Accepting connections: the handshake, admission to a seat, reading until it ends.

One task per connection. ``Reception.serve`` counts the handshakes waiting per
address (one over the caps gets a second to show a seat's token, or to say its
hello and take the place of one that never said anything), runs the
handshake under a deadline (hello, protocol version, password by challenge and
response, checked when the per-address throttle allows), admits the peer (its
token back to its seat, a new seat in the lobby, or the gallery as a
spectator), and reads its messages under its rate limit, handing each to
``dispatch`` until it says goodbye, its link breaks or it floods. Frames are
small (4 KiB, ``codec.HANDSHAKE``) until the welcome, 64 KiB after it, and a
frame is charged to the rate limit before it is decoded. A bad frame costs
only that connection; the policy itself (nonce, room key, caps, throttle,
token bucket) is the pure ``lanplay.admission``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import time
from collections.abc import Callable
from typing import Any, Protocol

from lanplay import admission
from lanplay.admission import RateLimit
from lanplay.host.config import (
    MAX_PENDING,
    OVER_LIMIT,
    PENDING_PER_ADDRESS,
    HostConfig,
)
from lanplay.host.packs import SharedPacks
from lanplay.host.peers import Conn, Peers
from lanplay.host.shared import Status, Tokens
from lanplay.host.words import bye, refused, rejected
from lanplay.messages import Msg, msg
from lanplay.messages import seat as seat_arg
from lanplay.net.carrier import Carrier
from lanplay.net.link import Link, LinkClosed
from lanplay.room import Room, Seat
from lanplay.session import Refusal, Session
from protocol.codec import FROM_CLIENT, HANDSHAKE, Limits, peek_id
from protocol.messages import (
    PROTOCOL_VERSION,
    Answer,
    Bye,
    Challenge,
    Chat,
    Hello,
    Message,
    Pong,
    ProtocolError,
    UnknownType,
)

log = logging.getLogger("lanplay.host")

FREE_BODY = 64
"""Bodies up to this many bytes are decoded before the rate bucket is charged (so
pong and bye stay free); larger ones are charged first, and not decoded at all
when the bucket is empty."""


class Game(Protocol):
    """What admission needs of the game's flow: is one on, and the newcomer's view."""

    @property
    def session(self) -> Session | None: ...

    def send_snapshot(self, conn: Conn) -> None: ...


class Away(Protocol):
    """What admission needs of the away seats: who left, and who is back."""

    def away_from(self, seat: Seat, now: float | None = None) -> None: ...

    def back(self, seat: Seat) -> None: ...

    def left(self, seat: Seat) -> bool: ...


class Reception:
    def __init__(self, room: Room, config: HostConfig, status: Status, peers: Peers,
                 tokens: Tokens, packs: SharedPacks, game: Game, away: Away,
                 dispatch: Callable[[Conn, Message], None],
                 lobby_changed: Callable[[], None], spawn: Callable[[Any], object]) -> None:
        self.room = room
        self.config = config
        self.status = status
        self.peers = peers
        self.tokens = tokens
        self.packs = packs
        self.game = game
        self.away = away
        self._dispatch = dispatch
        self._lobby_changed = lobby_changed
        self._spawn = spawn
        self.handshakes = admission.Handshakes(PENDING_PER_ADDRESS,
                                               config.max_peers + MAX_PENDING)
        self.throttle = dataclasses.replace(config.throttle)
        if tokens.room_key is None and (config.room_key or config.password):
            # the host keeps only this: a resumed room's key, or one derived now
            tokens.room_key = config.room_key or admission.RoomKey.derive(config.password or "")
        self._over = 0
        self._links: set[Carrier] = set()
        self.admitted: Callable[[Conn], None] = lambda conn: None
        """Told of each peer admitted, after its welcome (the hand-over tells it the deputy)."""
        self.departed: Callable[[Conn], None] = lambda conn: None
        """Told of each peer gone (the hand-over watches its deputy)."""

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection, from its first byte to its close (asyncio.start_server's callback)."""
        link = Link(reader, writer, self.config.max_frame, limits=self._limits(HANDSHAKE))
        await self.serve_link(link, _address(writer))

    async def serve_link(self, link: Carrier, address: str) -> None:
        """One connection of any carrier (a TCP ``Link``, a browser's ``WsLink``) from
        ``address``: the same handshake, admission, limits and views for both."""
        link.limits = self._limits(HANDSHAKE)
        conn: Conn | None = None
        self._links.add(link)
        over = not self.handshakes.open(link, address, time.monotonic(),
                                        len(self.peers.conns))
        if over:
            self._over += 1
        try:
            if over and self._over > OVER_LIMIT:
                link.send(refused("full", self._busy))
                return
            hello = await self._handshake(link, address, over)
            if hello is None:
                return
            self.handshakes.close(link)  # counted, or over but in a silent one's place
            conn = self._admit(link, hello, address)
            if conn is None:
                return
            while True:
                body = await link.recv_body()
                if conn not in self.peers.conns:  # replaced by a newer connection of its seat
                    return
                now = time.monotonic()
                conn.last_seen = now
                # Charged before it is decoded, so decoding costs only what the bucket
                # allows; a body this small (a pong, a bye) is decoded first, as those
                # are free and decoding a few bytes costs nothing. A refused frame is
                # never decoded: its refusal names the id read from its first bytes.
                charged = len(body) > FREE_BODY
                got: Message | None = None
                if not charged or conn.limit.allow(now):
                    try:
                        got = link.decode(body)
                    except UnknownType:  # a later version's message: skipped, charged
                        if charged or conn.limit.allow(now):
                            continue
                    else:
                        if isinstance(got, Bye):
                            self._on_bye(conn)
                            continue
                        if charged or isinstance(got, Pong) or conn.limit.allow(now):
                            self._dispatch(conn, got)
                            continue
                if conn.limit.flooding():
                    link.send(refused("flood", msg("You sent far too many messages too fast; "
                                                   "the host closed your connection.")))
                    return
                ident = getattr(got, "id", 0) if got is not None else peek_id(body)
                link.send(rejected(ident if isinstance(ident, int) else 0, "rate",
                                   msg("Slow down: too many moves at once.")))
        except ProtocolError as exc:  # about the wire: its reason stays as the codec says it
            link.send(refused("malformed", exc.reason))
        except (LinkClosed, ConnectionError, OSError):
            pass
        except Exception:  # a bug of ours must cost one connection, not the host
            log.exception("error serving %s", link.peername)
            link.send(refused("internal", msg("The host hit an internal error with your "
                                              "connection; please join again.")))
        finally:
            self.handshakes.close(link)
            if over:
                self._over -= 1
            if conn is not None:
                self.detach(conn)
            self._links.discard(link)
            await link.close()

    def _evict(self, key: object) -> None:
        """A newcomer took this handshake's slot (the budget for unproven connections
        was spent): it is told the host is full and let go; an answer of it waiting
        for its check is never checked."""
        link = next((x for x in self._links if x is key), None)
        if link is not None:
            link.send(refused("full", self._busy))
            self._spawn(link.close())

    def _limits(self, limits: Limits) -> Limits:
        """``limits`` with a frame no larger than the host's ``max_frame``."""
        return dataclasses.replace(limits, frame=min(limits.frame, self.config.max_frame))

    def abort_all(self) -> None:
        """Break every connection at once, handshaking or not (``Host.kill``)."""
        for link in list(self._links):
            link.abort()

    @property
    def _busy(self) -> Msg:
        return msg("The host has too many connections waiting ({n} players and spectators "
                   "at most); try again later.", n=self.config.max_peers)

    async def _handshake(self, link: Carrier, address: str, over: bool) -> Hello | None:
        """The hello (and the answer to the password's challenge) within the deadline;
        None once the connection has been refused.

        A connection over the handshake caps has only ``over_hello`` seconds to
        say hello, and gets in only with a seat's token (then with the usual
        time for the rest): waiting connections cost their own address, and a
        seated player comes back whatever their number."""
        cfg = self.config
        key = self.tokens.room_key
        nonce, answer = "", None
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            async with asyncio.timeout(cfg.handshake_timeout) as deadline:
                if over:
                    deadline.reschedule(began + min(cfg.over_hello, cfg.handshake_timeout))
                hello = await link.recv()
                self.handshakes.heard(link, time.monotonic())
                if not isinstance(hello, Hello):
                    link.send(refused("malformed", msg(
                        "This connection did not begin the way lanplay does; join with "
                        "lanplay.")))
                    return None
                if hello.version != PROTOCOL_VERSION:
                    link.send(refused("version", msg(
                        "This host speaks lanplay protocol {host}, you speak {yours}: use the "
                        "same lanplay version on both laptops.", host=PROTOCOL_VERSION,
                        yours=hello.version)))
                    return None
                if over:
                    if not self.holds_seat(hello.token) and not self._take_place(link, address):
                        link.send(refused("full", self._busy))
                        return None
                    deadline.reschedule(began + cfg.handshake_timeout)
                if key is not None:
                    nonce = admission.new_nonce()
                    link.send(Challenge(nonce, key.salt))
                    answer = await link.recv()
                    self.handshakes.heard(link, time.monotonic())
        except TimeoutError:
            if over:
                link.send(refused("full", self._busy))
            else:
                link.send(refused("timeout", msg("Joining took too long, so the host "
                                                 "stopped waiting; try joining again.")))
            return None
        if key is not None and not await self._password_ok(link, address, key, nonce, answer):
            return None
        return hello

    def _take_place(self, link: Carrier, address: str) -> bool:
        """An over connection that said its hello takes the place of one that never said
        anything (``admission.Handshakes.take_place``): whether it found one."""
        taken, evicted = self.handshakes.take_place(link, address, time.monotonic(),
                                                    len(self.peers.conns))
        if evicted is not None:
            self._evict(evicted)
        return taken

    def holds_seat(self, token: str | None) -> bool:
        """Whether ``token`` names a seat here (or one the host is keeping for its
        owner or its own bots): such a hello is let in whatever the count."""
        if not token or token in self.room.banned:
            return False
        return (self.room.by_token(token) is not None or token == self.tokens.owner
                or token in self.tokens.bots)

    async def _password_ok(self, link: Carrier, address: str, key: admission.RoomKey,
                           nonce: str, answer: Message | None) -> bool:
        """Check the answer to the challenge, when the throttle says this address
        may have it checked: wrong answers make the next ones from there wait
        longer, then lock it out for a while; other addresses never wait."""
        throttle = self.throttle
        loop = asyncio.get_running_loop()
        fresh = throttle.fresh(address, loop.time())
        at = throttle.reserve(address, loop.time())
        if at is None:
            self._locked_out(link, address)
            return False
        checked = False
        try:
            while at > loop.time() or (at := throttle.pace(fresh, loop.time())) > loop.time():
                await asyncio.sleep(at - loop.time())
                if link.closed:  # evicted, or gone, while it waited: never checked
                    return False
            now = loop.time()
            if throttle.locked(address, now):
                self._locked_out(link, address)
                return False
            checked = True
            if isinstance(answer, Answer) and key.verify(nonce, answer.hmac):
                throttle.passed(address)
                return True
            throttle.failed(address, now)
            link.send(refused("password", msg("Wrong password for this room; ask the host for "
                                              "it and try again.")))
            return False
        finally:
            if not checked:
                throttle.dropped(address)

    def _locked_out(self, link: Carrier, address: str) -> None:
        left = math.ceil(self.throttle.locked(address, asyncio.get_running_loop().time()))
        link.send(refused("locked_out", msg("Too many wrong passwords from your laptop; wait "
                                            "{n} seconds, then try again.", n=left)))

    def _admit(self, link: Carrier, hello: Hello, address: str = "") -> Conn | None:
        """A seat by its token, a new seat in the lobby, or the gallery; Welcome says which."""
        if self.status.stopping:
            link.send(refused("stopping", msg("The host is shutting down.")))
            return None
        room, tokens = self.room, self.tokens
        seat: Seat | None = None
        try:
            if hello.token:
                if hello.token in room.banned:
                    raise Refusal("removed", msg("The host removed you from this room."))
                seat = room.by_token(hello.token)
                if seat is None:
                    if hello.token in tokens.bots:
                        self._need_room()
                        seat = room.add(hello.name, hello.colour, bot=True,
                                        token=hello.token)
                        seat.hosted = True
                        tokens.bots.discard(hello.token)
                    elif hello.token == tokens.owner:
                        self._need_room()
                        seat = room.add(hello.name, hello.colour, owner=True,
                                        token=tokens.owner)
                    else:
                        raise Refusal("bad_token", msg(
                            "This room no longer has your seat: its game has ended, or the "
                            "room was opened anew. Join it again to take a new seat."))
                for old in [c for c in self.peers.conns if c.seat is seat]:
                    # Closed, not aborted: a reset could overtake the bye, and the old
                    # peer would then come back and take the seat from the new one.
                    old.link.send(bye(msg("You connected again from elsewhere.")))
                    self.peers.conns.discard(old)
                    self.departed(old)
                    self._spawn(old.link.close())
                seat.connected = True
                self.away.back(seat)
            else:
                self._need_room()
                if not hello.spectate and room.phase != "playing":
                    seat = room.add(hello.name, hello.colour, bot=hello.bot)
        except Refusal as exc:
            link.send(refused(exc.code, exc.message))
            return None
        cfg = self.config
        conn = Conn(link, seat, limit=RateLimit(cfg.rate, cfg.burst, cfg.flood_after,
                                                cfg.flood_window),
                    name=hello.name.strip()[:24] or "Spectator", colour=hello.colour,
                    client=hello.client[:40], address=address)
        self.peers.conns.add(conn)
        if seat is None:
            self.peers.watch(conn)
        link.send(room.welcome(seat))
        link.limits = self._limits(FROM_CLIENT)  # from the frame after the welcome on
        for offer in self.packs.server.offers():
            link.send(offer)
        self.admitted(conn)
        self._lobby_changed()
        if self.game.session is not None:
            self.game.send_snapshot(conn)
        return conn

    def _need_room(self) -> None:
        """A new connection needs room under max_peers (a returning seat does not)."""
        if len(self.peers.conns) >= self.config.max_peers:
            raise Refusal("full", msg("The host has too many connections ({n}); try again "
                                      "later.", n=self.config.max_peers))

    def _on_bye(self, conn: Conn) -> None:
        """A player who says goodbye before the first game frees the seat (no ban:
        they may join again). Once a game has started the seat is kept: for their
        return during play, and afterwards so the result's seat numbers and "Play
        again" with the same seats stay true. A goodbye is leaving on purpose: during
        a game a stand-in plays the seat at once (no wait as for a dropped laptop),
        and everyone reads who left."""
        seat = conn.seat
        alone = (seat is not None and any(s is seat for s in self.room.seats)
                 and not any(c.seat is seat and c is not conn for c in self.peers.conns))
        leaving = alone and seat is not None and not seat.owner and self.room.phase == "lobby"
        playing = alone and seat is not None and not seat.owner \
            and self.room.phase == "playing"
        name = seat.name if seat is not None else ""
        index = self.room.index(seat) if alone and seat is not None else -1
        self.detach(conn)
        conn.link.abort()
        if leaving and seat is not None:
            self.room.leave(seat)
            self.peers.tell_seats()
            self._lobby_changed()
            self._note(msg("{name} left the room.", name=name))
        elif playing and seat is not None:
            if self.away.left(seat):
                self._note(msg("{seat} left; a bot plays for {seat}.", seat=seat_arg(index)))
            else:
                self._note(msg("{seat} left; the game waits for {seat} to come back.",
                               seat=seat_arg(index)))

    def _note(self, said: Msg) -> None:
        """A line from the host itself to everyone's chat, in each laptop's language."""
        names = [s.name for s in self.room.seats]
        self.peers.broadcast(Chat(said.english(names), "lanplay", None, said.to_wire()))

    def detach(self, conn: Conn) -> None:
        """The conn is gone: its seat is away (kept in a game), or a spectator fewer."""
        if conn not in self.peers.conns or self.status.dead:
            return
        self.peers.conns.discard(conn)
        self.departed(conn)
        if conn.seat is None:
            self.peers.unwatch(conn)
        elif not any(c.seat is conn.seat for c in self.peers.conns):
            conn.seat.connected = False
            session = self.game.session
            if session is not None and any(s is conn.seat for s in self.room.seats):
                session.forget(self.room.index(conn.seat))
                self.away.away_from(conn.seat)
        if not self.status.stopping:
            self._lobby_changed()


def _address(writer: asyncio.StreamWriter) -> str:
    """The peer's address without its port: what the per-address limits count by."""
    peer = writer.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
