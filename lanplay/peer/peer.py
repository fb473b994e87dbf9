"""A peer: one connection to a host, keeping its own view current.

The same class serves a person's window, a bot and the tests. It applies
deltas to its view, asks for a snapshot the moment it sees a gap in
``state_id`` (never sitting on a stale view), answers heartbeats, and comes
back to its seat with its token when the connection drops. Whoever drives it
follows ``listeners`` (a window turns them into Qt signals) or awaits
``wait_until``.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from lanplay import admission, messages, names
from lanplay.content import in_play
from lanplay.content.transfer import PictureReceiver, TransferError
from lanplay.fair.audit import Verdict
from lanplay.fair.seed import SECRET_BYTES, seeded_bytes
from lanplay.fair.witness import Checking, Witness
from lanplay.net.link import Link, LinkClosed, open_link
from lanplay.peer import inbound
from protocol import delta
from protocol.codec import FROM_HOST, HANDSHAKE
from protocol.messages import (
    PROTOCOL_VERSION,
    Accepted,
    Answer,
    Audit,
    Bye,
    Challenge,
    Chat,
    Clock,
    Contributions,
    Control,
    Delta,
    Deputy,
    GameOver,
    Hello,
    Intent,
    Lobby,
    Message,
    Moved,
    Offer,
    PackOffer,
    PictureChunk,
    Ping,
    Pong,
    ProtocolError,
    Refused,
    Rejected,
    Resync,
    RoomPart,
    SeedCommit,
    Snapshot,
    Stand,
    UnknownType,
    Welcome,
)
from protocol.messages import Journal as JournalMsg

Listener = Callable[[str, Any], None]
"""Called with (event, payload). Events: welcome, lobby, view, accepted,
rejected, chat, game_over, clock (payload: the Clock, or None when no deadline
runs), reconnecting, reconnected, refused, closed, pack (a custom pack's
pictures are all here; payload: pack id), pack_error (payload: the reason), audit
(this laptop's check of the game just ended; payload: the ``fair.audit.Verdict``),
deputy (who stands by; payload: the Deputy), moving (the host said where the room
goes; payload: the Moved), referee (a laptop referees the room at a higher term
than before; payload: the line that says so), and for a laptop that may referee
(``lanplay.peer.successor``): offer, room_part, journal (payload: the message)."""


RETRY_CODES = frozenset({"unreachable", "full", "timeout", "stopping", "standby", "moved",
                         "old_term", "moving"})
"""Refusals worth retrying while reconnecting: the host may be busy or restarting, its
deputy about to take over, or the room moving on to another laptop."""
RECONNECT_FOR = 600.0
"""Seconds a peer keeps trying to get back to its seat: long enough for a host to be
restarted with --resume. Time asleep does not count (the loop's clock is monotonic)."""
MAX_BACKOFF = 1.5
MAX_BROKEN = 5
"""Connections in a row the host may break with bad frames before the peer gives up."""
STEADY = 30.0
"""Seconds a connection must last for its protocol error not to count as "in a row"."""
MAX_CHAT = 500
"""Characters of one chat message kept (the host trims to this too)."""
CHAT_KEPT = 200
"""Chat messages kept; older ones are dropped (a window shows its own copy)."""
REJECTIONS_KEPT = 1000
MAX_REASON = 500
"""Characters kept of a host's reason: its reasons are one sentence."""
CHECK_SLICE = 0.005
"""Seconds of an audit's check between two turns of the event loop."""


LOST = messages.msg("The connection to the host was lost.")
MOVING = messages.msg("The room is moving to another laptop.")
OLD_TERM = messages.msg("That laptop refereed this room before; the room has moved on.")

Finder = Callable[[str], Awaitable[list[tuple[str, int, int]]]]
"""Rooms of an id on the LAN, as (address, port, term) (``lanplay.net.discovery``)."""


class JoinError(Exception):
    """The host could not be reached or refused us; ``reason`` says why.

    ``code`` is the host's refusal code, "unreachable" when there was no host
    to talk to, or "password" when the room needs a password we lack (a
    window then asks for it).
    """

    def __init__(self, reason: str, code: str = "unreachable") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class Peer:
    def __init__(self, name: str, colour: str = "", *, token: str | None = None,
                 spectate: bool = False, bot: bool = False,
                 recorder: Callable[[bytes], None] | None = None,
                 reconnect_for: float = RECONNECT_FOR, dead_after: float = 10.0,
                 password: str | admission.RoomKey | None = None,
                 contribution_seed: int | None = None, lang: str | None = None) -> None:
        self.name = name
        self.lang = lang
        """The language this laptop says its own reasons in (None: ``lanplay.locale``'s);
        what the host says comes as messages, rendered by whoever shows them."""
        self.password = password
        self.colour = colour
        self.token = token
        self.spectate = spectate
        self.bot = bot
        self.recorder = recorder
        self.reconnect_for = reconnect_for
        self.dead_after = dead_after
        self.address: tuple[str, int] | None = None
        self.link: Link | None = None
        self.seat: int | None = None
        self.owner = False
        self.host_name = ""
        self.game_id = ""
        self.lobby: Lobby | None = None
        self._view: delta.BoundedView | None = None
        self.state_id = -1
        self.result: dict[str, Any] | None = None
        self.chat: list[Chat] = []
        self.rejections: list[Rejected] = []
        self.clock: Clock | None = None
        """The host's running deadline (a guess or reaction window), or None."""
        self.clock_deadline = 0.0
        """When ``clock`` runs out, on this event loop's clock (``loop.time()``)."""
        self.pictures = PictureReceiver()
        """Custom packs the host shares, their pictures cached by content hash."""
        self.contribution_seed = contribution_seed
        """Makes this peer's contributions to each shuffle reproducible (tests,
        selfplay); None: random bytes, as in every real game."""
        self.witness = Witness(self._contribution)
        """What this laptop notes of each game's fairness, and its verdict at the end."""
        self.closed_reason: str | None = None
        self.paused: str | None = None
        """Why we wait to come back (the host paused the game), while we do."""
        self.listeners: list[Listener] = []
        self.room = ""
        self.term = 0
        """The room's id and term as the host's welcome said (a hand-over keeps the id
        and raises the term; a peer follows only a higher one)."""
        self.home: tuple[str, int] | None = None
        """Where the room is refereed, as far as this peer knows."""
        self.deputy: Deputy | None = None
        """Who stands by to referee if the host goes silent (None: nobody)."""
        self.referee_line: str | None = None
        """The line said when another laptop began to referee the room."""
        self.finder: Finder | None = None
        """Finds the room by its id on the LAN (a window's zeroconf list), if given."""
        self.may_referee = False
        """A ``lanplay.peer.successor`` answers offers; else this peer declines them."""
        self.heard_at = 0.0
        """When the host was last heard from (``time.monotonic``)."""
        self.frames_in = 0
        self.bytes_in = 0
        self.largest_frame = 0
        self.resyncs = 0
        self.changed = asyncio.Event()
        self._ids = itertools.count(1)
        self._closing = False
        self._awaiting_snapshot = False
        self._checking: asyncio.Task[None] | None = None
        """The last game's audit being checked, a slice per loop turn (``run`` waits)."""

    @property
    def view(self) -> dict[str, Any] | None:
        """The view as the host last described it (None before a snapshot)."""
        return None if self._view is None else self._view.value

    # --- connecting ------------------------------------------------------------

    async def connect(self, host: str, port: int, timeout: float = 5.0) -> Welcome:
        """Open the connection and pass the hello; JoinError if refused. A deputy
        standing by that says where the room is sends the peer there (once or twice)."""
        self.address = self.home = (host, port)
        for _ in range(2):
            try:
                return await self._handshake(timeout)
            except JoinError as exc:
                if exc.code != "moved":
                    raise
            self.address = self.home
        return await self._handshake(timeout)

    async def _handshake(self, timeout: float) -> Welcome:
        assert self.address is not None
        host, port = self.address
        try:
            # Small frames until welcomed: a hostile "host" gets nothing bigger decoded.
            link = await open_link(host, port, timeout, recorder=self.recorder,
                                   limits=HANDSHAKE)
        except (OSError, TimeoutError) as exc:
            raise JoinError(self._say(messages.msg(
                "Could not reach {address} ({why}). Check the address and that the host is "
                "running.", address=f"{host}:{port}", why=_why(exc)))) from exc
        link.send(Hello(PROTOCOL_VERSION, self.name, self.colour, self.token,
                        self.spectate, self.bot))
        try:
            first = await asyncio.wait_for(link.recv(), timeout)
            if isinstance(first, Challenge):
                inbound.check(first, None, None)
                if not self.password:
                    link.abort()
                    self._count(link)
                    raise JoinError(self._say(messages.msg(
                        "This room needs a password; ask the host for it.")), "password")
                link.send(Answer(admission.proof(self.password, first.nonce, first.salt)))
                first = await asyncio.wait_for(link.recv(), timeout)
            if isinstance(first, Refused | Welcome | Moved):
                first = inbound.check(first, None, None)
        except inbound.Fault as fault:
            link.abort()
            self._count(link)
            raise JoinError(self._say(fault.sentence)) from None
        except (LinkClosed, ConnectionError, TimeoutError, ProtocolError) as exc:
            link.abort()
            self._count(link)
            raise JoinError(self._say(messages.msg(
                "{address} did not answer like a lanplay host.", address=f"{host}:{port}"))
            ) from exc
        if isinstance(first, Refused):
            await link.close()
            self._count(link)
            raise JoinError(self.heard(first.message, first.reason), first.code[:40])
        if isinstance(first, Moved):  # a deputy standing by: the room is still there
            link.abort()
            self._count(link)
            if not self._follow(first, at_least=True):
                raise JoinError(self._say(messages.msg(
                    "{address} did not answer like a lanplay host.",
                    address=f"{host}:{port}")))
            raise JoinError(self._say(MOVING), "moved")
        if isinstance(first, Welcome) and self.room and first.room == self.room \
                and first.term < self.term:  # a host the room has moved on from
            link.abort()
            self._count(link)
            raise JoinError(self._say(OLD_TERM), "old_term")
        if not isinstance(first, Welcome):
            link.abort()
            raise JoinError(self._say(messages.msg(
                "{address} did not answer like a lanplay host.", address=f"{host}:{port}")))
        link.limits = FROM_HOST  # from the frame after the welcome on
        self.link = link
        self.heard_at = time.monotonic()
        self.seat, self.token, self.owner = first.seat, first.token or None, first.owner
        self.host_name, self.game_id = first.host_name, first.game
        newer = bool(self.room) and first.room == self.room and first.term > self.term
        if first.room != self.room or newer:
            self.deputy = None  # a new host names its own
        self.room, self.term, self.home = first.room, first.term, (host, port)
        self._notify("welcome", first)
        if newer:
            self._refereed(first.host_name)
        return first

    def _refereed(self, name: str) -> None:
        """Another laptop referees the room now: the one line everyone is told."""
        said = messages.msg("{name} referees the game now: the room moved to {name}'s "
                            "laptop.", name=names.clean(name, 60) or "?")
        line = self._say(said)
        self.referee_line = line
        chat = Chat(line[:MAX_CHAT], "lanplay", None)
        _keep(self.chat, chat, CHAT_KEPT)
        self._notify("chat", chat)
        self._notify("referee", line)

    def _follow(self, moved: Moved, at_least: bool = False) -> bool:
        """Take ``moved`` as where the room is now if it is this room at a higher term
        (``at_least``: or the same, a deputy sending an early comer back to the host)."""
        if not self.room and at_least and self.link is None:
            pass  # a peer new to the room: a deputy standing by says where it is
        elif not self.room or moved.room != self.room or moved.term < self.term \
                or (moved.term == self.term and not at_least):
            return False
        self.address = self.home = (moved.address, moved.port)
        return True

    def _count(self, link: Link) -> None:
        self.frames_in += link.frames_in
        self.bytes_in += link.bytes_in
        self.largest_frame = max(self.largest_frame, link.largest_in)

    async def run(self) -> None:
        """Read until the host says goodbye or ``close`` is called; reconnect on drops.
        An audit still being checked then is finished first (cancelled on ``close``)."""
        try:
            await self._read()
            task = self._checking
            if task is not None and not self._closing:
                await asyncio.wait({task})
        finally:
            if self._checking is not None:
                self._checking.cancel()  # closed, or run itself cancelled

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        broken = 0  # connections in a row that ended in a protocol error, soon after
        while True:
            link = self.link
            if link is None:
                return
            since = loop.time()
            try:
                # One deadline moved on before each read: ``wait_for`` would start a
                # task for every frame, which cost a loop turn and a task each.
                async with asyncio.timeout(None) as deadline:
                    while True:
                        deadline.reschedule(loop.time() + self.dead_after)
                        try:
                            msg = await link.recv()
                        except UnknownType:  # a later version's message: skipped whole
                            continue
                        if isinstance(msg, Audit):
                            # Frames already buffered are read without a loop turn:
                            # whatever else the loop has to do (a window's redraw,
                            # other connections) goes first between parts.
                            await asyncio.sleep(0)
                        self._handle(msg)
            except _HostBroke as broke:  # asking again would bring the same: leave
                self._count(link)
                self.link = None
                link.abort()
                self._finish(broke.reason)
                return
            except _Done:
                self._count(link)
                self.link = None  # counted: stats() must not add it again
                self.changed.set()  # a bye: whoever waits on closed_reason must look
                await link.close()
                return
            except _Paused:
                self._count(link)
                self.link = None
                await link.close()
            except _Moving:  # the host said where the room goes: straight there
                self._count(link)
                self.link = None
                link.abort()
                self.witness.on_lost()
                if self._closing or not await self._reconnect(moving=True):
                    self._finish(self.closed_reason or self._say(LOST))
                    return
                continue
            except ProtocolError as exc:
                self._count(link)
                link.abort()
                self.link = None
                self.closed_reason = self._say(messages.msg(
                    "The host sent something this lanplay cannot use ({why}).",
                    why=exc.reason[:200]))
                # Coming straight back to a host that does it again would spin: wait
                # longer each time, and give up after a few in a row.
                broken = broken + 1 if loop.time() - since < STEADY else 1
                if broken >= MAX_BROKEN or self._closing:
                    self._finish(self.closed_reason)
                    return
                await asyncio.sleep(min(0.2 * 2 ** broken, MAX_BACKOFF))
            except (LinkClosed, ConnectionError, OSError, TimeoutError):
                self._count(link)
                link.abort()
                self.link = None
            self.witness.on_lost()
            if self._closing or not await self._reconnect():
                self._finish(self.closed_reason or self._say(LOST))
                return

    async def _reconnect(self, moving: bool = False) -> bool:
        """Get back in: a player to its seat with its token, a spectator as a spectator;
        where the room is (``home``) first, then its deputy, then where the LAN says a
        room of this id is refereed at a higher term (``finder``)."""
        if (not self.token and self.seat is not None) or self.reconnect_for <= 0:
            return False
        self._notify("reconnecting", self.paused)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_for
        delay = 0.0 if moving else 0.1
        while loop.time() < deadline and not self._closing:
            if delay:
                await asyncio.sleep(delay)
            delay = min(max(delay * 2, 0.1), MAX_BACKOFF)
            for target in await self._targets():
                if self._closing:
                    return False
                self.address, home = target, self.home
                try:
                    await self._handshake(timeout=2.0)
                except JoinError as exc:
                    if exc.code == "moved" and self.home != home:
                        delay = 0.0  # told of a new place for the room: go there at once
                        break
                    if exc.code not in RETRY_CODES and target == self.home:
                        # Refused for good (the seat is gone: a new room on that port):
                        # the pause it was waiting out is over too, and whoever keeps
                        # the seat (a window's kept seats) hears why.
                        self.closed_reason, self.paused = exc.reason, None
                        self._notify("refused", exc)
                        return False
                    continue
                self.closed_reason = self.paused = None
                self._notify("reconnected", None)
                return True
        return False

    async def _targets(self) -> list[tuple[str, int]]:
        """Where to look for the room, in turn."""
        found: list[tuple[str, int]] = []
        if self.finder is not None and self.room:
            try:
                rooms = await asyncio.wait_for(self.finder(self.room), 1.0)
            except Exception:  # the LAN's list is a hint; trying the known places goes on
                rooms = []
            found = [(a, p) for a, p, term in sorted(rooms, key=lambda r: -r[2])
                     if term >= self.term]
        ours = [t for t in (self.home, self._deputy_address()) if t is not None]
        return list(dict.fromkeys([*found, *ours]))

    def _deputy_address(self) -> tuple[str, int] | None:
        deputy = self.deputy
        return (deputy.address, deputy.port) if deputy is not None and deputy.port else None

    async def close(self, reason: str = "") -> None:
        self._closing = True
        if self._checking is not None:
            self._checking.cancel()
        if self.link is not None:
            self.link.send(Bye(reason))
            await self.link.close()

    def drop(self) -> None:
        """Lose the connection abruptly, as a pulled cable would (for tests)."""
        if self.link is not None:
            self.link.abort()

    def doze(self) -> None:
        """Stop reading and answering, as a laptop whose lid closed (for tests).

        Nothing is sent or read until ``wake``; the host's heartbeats notice.
        """
        if self.link is not None:
            self.link.pause_reading()

    def wake(self) -> None:
        """Open the lid again: whatever the host did meanwhile now arrives."""
        if self.link is not None:
            self.link.resume_reading()

    # --- sending -----------------------------------------------------------------

    def send(self, msg: Message) -> None:
        if self.link is not None:
            self.link.send(msg)

    def intent(self, action: dict[str, Any]) -> int:
        """Send an action made against the current view; returns its id."""
        ident = next(self._ids)
        self.send(Intent(ident, self.state_id, action))
        return ident

    def control(self, command: str, **args: Any) -> int:
        ident = next(self._ids)
        self.send(Control(command, args, ident))
        return ident

    def say(self, text: str) -> None:
        self.send(Chat(text))

    def _contribution(self, game: int) -> bytes:
        seed = self.contribution_seed
        if seed is None:
            return secrets.token_bytes(SECRET_BYTES)
        return seeded_bytes(seed, "contribution", game)

    @property
    def verdict(self) -> Verdict | None:
        """This laptop's check of the last game's audit (None until it came)."""
        return self.witness.verdict

    # --- receiving ---------------------------------------------------------------

    def _handle(self, msg: Message) -> None:
        self.heard_at = time.monotonic()
        # Nothing below reads what the host sent before it passed its check.
        try:
            msg = inbound.check(msg, self.lobby, self._delta_base(msg))
        except inbound.Fault as fault:
            if not fault.fatal:  # a pack's pictures: their names are shown instead
                self._notify("pack_error", fault.why)
                return
            raise _HostBroke(self._say(fault.sentence)) from None
        if isinstance(msg, Delta):
            self._on_delta(msg)
        elif isinstance(msg, Snapshot):
            try:
                self._view = delta.BoundedView(msg.view)
            except delta.ViewTooBig as exc:
                raise _HostBroke(self._say(messages.msg(
                    "The host sent {what}, far more than any game needs; left the room so "
                    "this laptop stays usable.", what=exc.reason))) from None
            self.state_id = msg.state_id
            self._awaiting_snapshot = False
            self.result = None if msg.state_id == 0 else self.result
            self.witness.on_view(msg.state_id, msg.view, self.seat, None, self._view.work)
            self._notify("view", None)
        elif isinstance(msg, Lobby):
            if msg.phase == "playing" and (self.lobby is None or self.lobby.phase != "playing"):
                self.result = None
            self.lobby = msg
            self._notify("lobby", msg)
        elif isinstance(msg, Welcome):  # our seat changed (a seat moved or left, or we sat)
            self.seat, self.owner = msg.seat, msg.owner
            if msg.token:  # a spectator who took a seat: its token brings it back to it
                self.token, self.spectate = msg.token, False
            elif msg.seat is None:  # our seat is gone (the game changed): we watch now
                self.token, self.spectate = None, True
            self._notify("welcome", msg)
        elif isinstance(msg, Ping):
            self.send(Pong(msg.nonce))
            if (msg.state_id > self.state_id and self.view is not None
                    and not self._awaiting_snapshot):
                self._ask_snapshot(f"heartbeat at {msg.state_id} while at {self.state_id}")
        elif isinstance(msg, Accepted):
            self._notify("accepted", msg)
        elif isinstance(msg, Rejected):
            msg = Rejected(msg.id, msg.code[:40], msg.reason[:MAX_REASON], msg.message)
            _keep(self.rejections, msg, REJECTIONS_KEPT)
            self._notify("rejected", msg)
        elif isinstance(msg, Chat):
            # An honest host sends at most MAX_CHAT characters and a clean name;
            # whatever this one sent, only that much is kept, and only so many.
            # A line from the host itself (no seat) comes as a message too: shown in
            # this laptop's language.
            said = self.heard(msg.message, msg.text) if msg.message and msg.seat is None \
                else msg.text
            msg = Chat(said[:MAX_CHAT], names.clean(msg.sender) or "?", msg.seat)
            _keep(self.chat, msg, CHAT_KEPT)
            self._notify("chat", msg)
        elif isinstance(msg, GameOver):
            self.result = msg.result
            self.witness.on_game_over(msg)
            self._notify("game_over", msg)
        elif isinstance(msg, SeedCommit):
            # a new game is being shuffled: the last one's view is no table to act on
            self._view, self.state_id, self._awaiting_snapshot = None, -1, False
            reply = self.witness.on_commit(msg, self.seat)
            if reply is not None:
                self.send(reply)
        elif isinstance(msg, Contributions):
            self.witness.on_contributions(msg)
        elif isinstance(msg, Audit):
            job = self.witness.take_audit(msg)
            if job is not None:
                self._check(job)
        elif isinstance(msg, Clock):
            self.clock = msg if msg.key else None
            left = msg.remaining if math.isfinite(msg.remaining) else 0.0
            self.clock_deadline = asyncio.get_running_loop().time() + min(max(left, 0.0), 3600)
            self._notify("clock", self.clock)
        elif isinstance(msg, PackOffer | PictureChunk):
            self._on_pictures(msg)
        elif isinstance(msg, Bye):
            self.closed_reason = (self.heard(msg.message, msg.reason)
                                  or self._say(messages.msg("The host said goodbye.")))
            self._notify("bye", msg)
            if msg.resume is True:
                self.paused = self.closed_reason
                raise _Paused
            raise _Done
        elif isinstance(msg, Refused):
            self.closed_reason = self.heard(msg.message, msg.reason)
            self._notify("refused", msg)
            raise _Done
        elif isinstance(msg, Moved):
            if self._follow(msg):
                self._notify("moving", msg)
                raise _Moving
        elif isinstance(msg, Deputy):
            if msg.room == self.room and msg.term == self.term:
                self.deputy = msg if msg.name and msg.port else None
                self._notify("deputy", msg)
        elif isinstance(msg, Offer):
            if msg.room == self.room and msg.term == self.term:
                if self.may_referee:
                    self._notify("offer", msg)
                else:
                    self.send(Stand(msg.role, False))
        elif isinstance(msg, RoomPart | JournalMsg) and self.may_referee \
                and msg.room == self.room and msg.term == self.term:
            self._notify("room_part" if isinstance(msg, RoomPart) else "journal", msg)

    def _delta_base(self, msg: Message) -> dict[str, Any] | None:
        """The view a delta's ops are checked against: the one they apply to (None when
        they will not be applied: a snapshot is awaited or asked for)."""
        if (type(msg) is not Delta or self._view is None or self._awaiting_snapshot
                or msg.base != self.state_id):
            return None
        held: dict[str, Any] = self._view.value
        return held

    def _on_delta(self, msg: Delta) -> None:
        if self._awaiting_snapshot:
            return
        if self._view is None or msg.base != self.state_id:
            self._ask_snapshot(f"delta from {msg.base} while at {self.state_id}")
            return
        try:
            self._view.apply(msg.ops)  # within delta.VIEW_LIMITS, or not at all
        except ProtocolError as exc:
            self._ask_snapshot(f"a delta did not fit: {exc.reason}")
            return
        self.state_id = msg.state_id
        self.witness.on_view(msg.state_id, self._view.value, self.seat, msg.ops,
                             self._view.work)
        self._notify("view", None)

    def _check(self, job: Checking) -> None:
        """Check the whole audit in slices of ``CHECK_SLICE`` seconds, a loop turn
        between them: replaying a long game in one piece froze a window for 16 s
        (200,000 moves). A newer audit's check replaces an older one's."""
        if self._checking is not None:
            self._checking.cancel()

        async def slices() -> None:
            while job.step(time.perf_counter, CHECK_SLICE) is None:
                await asyncio.sleep(0)
            if not job.stale and job.verdict is not None:
                self._notify("audit", job.verdict)

        self._checking = asyncio.get_running_loop().create_task(slices())

    def _on_pictures(self, msg: PackOffer | PictureChunk) -> None:
        """Ask for the pictures the cache lacks; a bad transfer costs the pack, not the game."""
        try:
            if isinstance(msg, PackOffer):
                progress = self.pictures.on_offer(msg)
            else:
                progress = self.pictures.on_chunk(msg)
        except TransferError as exc:
            self._notify("pack_error", exc.reason)
            return
        if progress.request is not None:
            self.send(progress.request)
        for pack_id in progress.completed:
            in_play.register(self.pictures.packs[pack_id])
            self._notify("pack", pack_id)

    def _ask_snapshot(self, reason: str) -> None:
        self.resyncs += 1
        self._awaiting_snapshot = True
        self.send(Resync(reason))

    def _say(self, message: messages.Msg) -> str:
        return messages.render(message, (), self.lang)

    def heard(self, message: dict[str, Any] | None, reason: str) -> str:
        """What the host said, in this laptop's language (its English when it sent no
        message), cut to a sentence's length."""
        text = messages.render(message, self._seat_names(), self.lang) if message else reason
        return text[:MAX_REASON]

    def _seat_names(self) -> list[str]:
        seats = self.lobby.seats if self.lobby is not None else []
        return [str(s.get("name", "?")) if isinstance(s, dict) else "?" for s in seats]

    def _notify(self, event: str, payload: Any) -> None:
        self.changed.set()
        for listener in list(self.listeners):
            listener(event, payload)

    def _finish(self, reason: str) -> None:
        self.closed_reason = reason
        self._notify("closed", reason)

    async def wait_until(self, predicate: Callable[[Peer], bool], timeout: float) -> None:
        """Wait for ``predicate(self)``; TimeoutError if it does not come."""
        async with asyncio.timeout(timeout):
            while not predicate(self):
                self.changed.clear()
                await self.changed.wait()

    # --- stats -------------------------------------------------------------------

    def stats(self) -> dict[str, int]:
        frames, size, largest = self.frames_in, self.bytes_in, self.largest_frame
        if self.link is not None:
            frames += self.link.frames_in
            size += self.link.bytes_in
            largest = max(largest, self.link.largest_in)
        return {"frames": frames, "bytes": size, "largest_frame": largest}


class _Done(Exception):
    """The host ended the conversation cleanly."""


class _Paused(Exception):
    """The host paused the game (saved, to be resumed): come back to the seat later."""


class _Moving(Exception):
    """The host said the room moves to another laptop: go there now."""


class _HostBroke(Exception):
    """The host sent what no reconnect would mend; ``reason`` is for the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _keep(kept: list[Any], item: Any, most: int) -> None:
    """Append, dropping the oldest beyond ``most`` (a list: callers slice it)."""
    kept.append(item)
    if len(kept) > most:
        del kept[:len(kept) - most]


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    return str(exc.strerror or exc) if isinstance(exc, OSError) else str(exc)

