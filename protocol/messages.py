"""Every message of the wire protocol, as frozen dataclasses.

Each message maps to a plain msgpack map: ``{"type": <name>, <field>: ...}``
with only nil, bool, int, float, str, bin, array and map values, so a client in
any language can speak it. ``docs/PROTOCOL.md`` documents each one.

Decoding checks every field's type, so code above this layer never sees a
malformed message; any mismatch raises ``ProtocolError`` with a reason.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from protocol.errors import ProtocolError as ProtocolError
from protocol.errors import UnknownType as UnknownType
from protocol.fields import plan, why_not
from protocol.plain import MAX_DEPTH as MAX_DEPTH
from protocol.plain import check_plain as check_plain
from protocol.plain import wire_name as wire_name

PROTOCOL_VERSION = 3
"""Bumped on any incompatible change; a hello with another version is refused.
(2: the shuffle every seat contributes to, and the audit at the end of a game;
3: texts travel as keys: log lines and view texts are messages, see PROTOCOL.md.)"""


@dataclass(frozen=True)
class Message:
    TYPE: ClassVar[str] = ""


# --- connection -----------------------------------------------------------


@dataclass(frozen=True)
class Hello(Message):
    """Client -> host, first frame. ``token`` reclaims a seat after a drop."""

    TYPE: ClassVar[str] = "hello"
    version: int
    name: str
    colour: str = ""
    token: str | None = None
    spectate: bool = False
    bot: bool = False
    client: str = "lanplay"


@dataclass(frozen=True)
class Welcome(Message):
    """Host -> client: admitted. ``seat`` is None for a spectator."""

    TYPE: ClassVar[str] = "welcome"
    version: int
    seat: int | None
    token: str
    host_name: str
    game: str
    owner: bool = False
    room: str = ""
    """The room's id: the same on every laptop that ever referees it (a hand-over
    keeps it); "" from a host that predates hand-overs."""
    term: int = 0
    """The room's term: 1 when it opens, one more at each hand-over or take-over. A
    connection's messages are of its welcome's term; a peer follows only a higher one."""


@dataclass(frozen=True)
class Refused(Message):
    """Host -> client: not admitted (or thrown out); the host then closes."""

    TYPE: ClassVar[str] = "refused"
    code: str
    reason: str
    message: dict[str, Any] | None = None
    """``reason`` as a message (key and args, docs/PROTOCOL.md "Texts travel as keys"),
    for the laptop to say in its language; ``reason`` is its English."""


@dataclass(frozen=True)
class Challenge(Message):
    """Host -> client, right after the hello when the room has a password.

    The client proves it knows the password without sending it: it derives
    the room key, PBKDF2-HMAC-SHA256(password, ``salt``, 200,000 rounds, 32
    bytes), and answers with HMAC-SHA256 under that key over ``nonce`` (its
    UTF-8 bytes), in lower-case hex. A fresh nonce per connection stops
    replays; the salt is the room's, so the host keeps the key, not the
    password."""

    TYPE: ClassVar[str] = "challenge"
    nonce: str
    salt: str = ""


@dataclass(frozen=True)
class Answer(Message):
    """Client -> host: the answer to a Challenge (``hmac`` as lower-case hex)."""

    TYPE: ClassVar[str] = "answer"
    hmac: str


@dataclass(frozen=True)
class Bye(Message):
    """Either way: a clean goodbye before closing."""

    TYPE: ClassVar[str] = "bye"
    reason: str = ""
    message: dict[str, Any] | None = None
    """``reason`` as a message, as in Refused."""
    resume: bool = False
    """From the host: the game is paused, saved, and will be resumed on this host's
    laptop. A peer keeps its token and keeps trying to come back to its seat, as
    after a dropped connection."""


@dataclass(frozen=True)
class Ping(Message):
    """Host -> peer heartbeat (the peer answers Pong). ``state_id`` is the game's
    current one (-1 before a game): a peer that is behind lost a delta and
    asks for a snapshot, even when no later delta would have shown the gap."""

    TYPE: ClassVar[str] = "ping"
    nonce: int
    state_id: int = -1
    term: int = 0
    """From the host: the room's term (as its welcome said)."""


@dataclass(frozen=True)
class Pong(Message):
    TYPE: ClassVar[str] = "pong"
    nonce: int


# --- the room -------------------------------------------------------------


@dataclass(frozen=True)
class Lobby(Message):
    """Host -> all: the room as it is now (sent whenever it changes).

    ``seats`` holds maps with name, colour, ready, bot, connected, away_for
    (seconds away, None while connected) and standin (a bot plays the seat
    while its person is away); ``problem`` says why the game cannot start yet
    (None when it can); ``paused`` says why play is held (the host cannot
    save the game) and is None while it goes on.
    """

    TYPE: ClassVar[str] = "lobby"
    host_name: str
    game: str
    mode: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    phase: str
    problem: str | None = None
    spectators: int = 0
    standin_after: float | None = None
    """Seconds a seat may be away before a stand-in bot plays it (None: never)."""
    watchers: list[str] = field(default_factory=list)
    """The spectators' names, in the order they came (the owner sees who watches)."""
    paused: str | None = None
    """Why the host holds every move now (it cannot save the game); None: play goes on."""
    problem_message: dict[str, Any] | None = None
    """``problem`` as a message (its seats are the lobby's), as in Refused."""
    paused_message: dict[str, Any] | None = None
    """``paused`` as a message."""
    bots: str = "relaxed"
    """How the host's bots play: "relaxed" (a human pace, not always the best move) or
    "strong"; the owner sets it with the ``bots`` room command."""
    room: str = ""
    """The room's id, as in the welcome."""
    term: int = 0
    """The room's term, as in the welcome."""


@dataclass(frozen=True)
class Control(Message):
    """Client -> host: a room command (ready, add_bot, remove_seat, move_seat,
    set_game, start, sit). Most are for the owner only; the host answers a refused
    command with Rejected."""

    TYPE: ClassVar[str] = "control"
    command: str
    args: dict[str, Any] = field(default_factory=dict)
    id: int = 0


@dataclass(frozen=True)
class Chat(Message):
    """Either way. From a client only ``text`` counts; the host fills the rest."""

    TYPE: ClassVar[str] = "chat"
    text: str
    sender: str = ""
    seat: int | None = None
    message: dict[str, Any] | None = None
    """From the host itself (sender "lanplay"): ``text`` as a message, as in Refused."""


# --- the game -------------------------------------------------------------


@dataclass(frozen=True)
class Intent(Message):
    """Client -> host: an action made against the view at ``state_id``."""

    TYPE: ClassVar[str] = "intent"
    id: int
    state_id: int
    action: dict[str, Any]


@dataclass(frozen=True)
class Accepted(Message):
    """Host -> client: intent ``id`` was applied, producing ``state_id``."""

    TYPE: ClassVar[str] = "accepted"
    id: int
    state_id: int


@dataclass(frozen=True)
class Rejected(Message):
    """Host -> client: intent or control ``id`` refused; nothing changed."""

    TYPE: ClassVar[str] = "rejected"
    id: int
    code: str
    reason: str
    message: dict[str, Any] | None = None
    """``reason`` as a message, as in Refused (its seats named by the laptop)."""


@dataclass(frozen=True)
class Snapshot(Message):
    """Host -> client: the whole view at ``state_id`` (on joining or resync)."""

    TYPE: ClassVar[str] = "snapshot"
    state_id: int
    view: dict[str, Any]


@dataclass(frozen=True)
class Delta(Message):
    """Host -> client: turns the view at ``base`` into the view at ``state_id``."""

    TYPE: ClassVar[str] = "delta"
    base: int
    state_id: int
    ops: list[Any]


@dataclass(frozen=True)
class Resync(Message):
    """Client -> host: send me a Snapshot (I saw a gap or could not apply)."""

    TYPE: ClassVar[str] = "resync"
    reason: str = ""


@dataclass(frozen=True)
class GameOver(Message):
    """Host -> all: the result (winners, scores, detail) and how it ended; ``verdict``
    is who won in words (``lanplay.verdict``), for a client that cannot derive it."""

    TYPE: ClassVar[str] = "game_over"
    state_id: int
    result: dict[str, Any]
    reason: str = ""
    verdict: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Clock(Message):
    """Host -> all: the deadline now running (``key`` "" = none), so every laptop
    can count down a guess or reaction window; ``remaining`` is the seconds left
    when sent (less than ``seconds`` for a peer joining mid-window)."""

    TYPE: ClassVar[str] = "clock"
    key: str
    seconds: float
    remaining: float


# --- fair play (the shuffle nobody chooses, the audit at the end) -------------


@dataclass(frozen=True)
class SeedCommit(Message):
    """Host -> all, when a game starts and before its deal: SHA-256 of the host's
    secret (64 lower-case hex digits). Each seated peer answers with a Contribution
    within ``wait`` seconds; ``game`` numbers the games of this room from 1."""

    TYPE: ClassVar[str] = "seed_commit"
    game: int
    commitment: str
    seats: int
    wait: float


@dataclass(frozen=True)
class Contribution(Message):
    """Seated peer -> host: 32 random bytes of its own (64 lower-case hex digits)
    for the shuffle of game ``game``."""

    TYPE: ClassVar[str] = "contribution"
    game: int
    value: str


@dataclass(frozen=True)
class Contributions(Message):
    """Host -> all, before the deal's snapshot (and before the snapshot of a peer
    that joins or comes back): every seat's contribution in seat order, and the
    seats whose contribution the host drew itself because none came in time. The
    seed is SHA-256(secret || values...); the secret comes with the Audit."""

    TYPE: ClassVar[str] = "contributions"
    game: int
    commitment: str
    values: list[str]
    drawn: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Audit(Message):
    """Host -> all, right after game_over: what every peer needs to replay the game
    with its own rules. ``log`` holds ``[seat, action]`` pairs (seat -1: the host's
    timer); entry ``i`` of the whole log produced state_id ``i + 1``. A long log
    comes in several parts: this one starts after ``at`` entries, of ``moves``."""

    TYPE: ClassVar[str] = "audit"
    game: int
    rules: str
    mode: str
    options: dict[str, Any]
    secret: str
    values: list[str]
    drawn: list[int]
    log: list[Any]
    at: int = 0
    moves: int = 0


# --- content packs (pictures travel from the host to peers that lack them) --


@dataclass(frozen=True)
class PackOffer(Message):
    """Host -> peer: a custom content pack in play: names, questions, topics, cards
    and each picture's sha256 and size. The peer asks for what its cache lacks."""

    TYPE: ClassVar[str] = "pack_offer"
    pack: dict[str, Any]


@dataclass(frozen=True)
class PictureRequest(Message):
    """Peer -> host: send these pictures (sha256, lowercase hex), one batch at a time."""

    TYPE: ClassVar[str] = "picture_request"
    hashes: list[str]


@dataclass(frozen=True)
class PictureChunk(Message):
    """Host -> peer: part ``index`` (from 0) of ``total`` of one picture's bytes."""

    TYPE: ClassVar[str] = "picture_chunk"
    sha256: str
    index: int
    total: int
    data: bytes


# --- the room moves: a hand-over, a deputy, where to go (docs/PROTOCOL.md) -------------


@dataclass(frozen=True)
class Offer(Message):
    """Host -> one peer running lanplay: will this laptop referee the room now (``role``
    "host"), or stand by as its deputy ("deputy")? ``by`` names who asks; ``after``
    is the host's silence, in seconds, after which a deputy takes over."""

    TYPE: ClassVar[str] = "offer"
    role: str
    room: str
    term: int
    by: str
    after: float = 15.0


@dataclass(frozen=True)
class Stand(Message):
    """Peer -> host: the answer to an offer of ``role`` (or, unasked, a laptop that
    offers to stand by as deputy): ``accept``, and the ports it listens on then."""

    TYPE: ClassVar[str] = "stand"
    role: str
    accept: bool
    port: int = 0
    web_port: int = 0


@dataclass(frozen=True)
class RoomPart(Message):
    """Host -> the laptop that accepted an offer: part ``index`` of ``total`` of the room
    as it stands (``data``: its bytes, docs/PROTOCOL.md "Hand-over"); the last part
    carries ``seq``, which the laptop acknowledges once the room is whole."""

    TYPE: ClassVar[str] = "room_part"
    role: str
    room: str
    term: int
    seq: int
    index: int
    total: int
    data: bytes


@dataclass(frozen=True)
class Journal(Message):
    """Host -> its deputy: the moves that follow state ``at``, as the host journals them
    (``lines``: JSON lines), sent before any peer is told of them; acknowledged by
    ``seq``. No lines and ``at`` below what the deputy holds: the host went back there."""

    TYPE: ClassVar[str] = "journal"
    room: str
    term: int
    seq: int
    at: int
    lines: bytes


@dataclass(frozen=True)
class Ack(Message):
    """Deputy (or the laptop taking the room over) -> host: everything up to ``seq`` is
    here."""

    TYPE: ClassVar[str] = "ack"
    seq: int


@dataclass(frozen=True)
class Deputy(Message):
    """Host -> all: who stands by as the room's deputy (``name`` "": nobody), and where
    it would referee (``address``, ``port``, ``web_port``) once the host has been silent
    for ``after`` seconds."""

    TYPE: ClassVar[str] = "deputy"
    room: str
    term: int
    name: str
    address: str = ""
    port: int = 0
    web_port: int = 0
    after: float = 15.0


@dataclass(frozen=True)
class Moved(Message):
    """Host -> all (and a deputy standing by -> a peer that came too early): the room
    is refereed at ``address``:``port`` (its page at ``web_port``) by ``name``, in
    ``term``; go there with your seat's token."""

    TYPE: ClassVar[str] = "moved"
    room: str
    term: int
    name: str
    address: str
    port: int
    web_port: int = 0


MESSAGE_TYPES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (Hello, Challenge, Answer, Welcome, Refused, Bye, Ping, Pong, Lobby, Control,
                Chat, Intent, Accepted, Rejected, Snapshot, Delta, Resync, GameOver,
                Clock, SeedCommit, Contribution, Contributions, Audit, PackOffer,
                PictureRequest, PictureChunk, Offer, Stand, RoomPart, Journal, Ack, Deputy,
                Moved)
}


# --- mapping to and from plain maps (the wire subset: protocol.plain) ---------

def to_wire(msg: Message) -> dict[str, Any]:
    """The plain map for ``msg`` (fields in declaration order, type first)."""
    out: dict[str, Any] = {"type": msg.TYPE}
    for name in _field_names(type(msg)):
        out[name] = getattr(msg, name)
    return out


def _field_names(kind: type[Message]) -> tuple[str, ...]:
    """A message class's field names in order (``dataclasses.fields`` walks them anew
    on every call; the host sends a message per viewer per move)."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def from_wire(data: Any, *, checked: bool = False) -> Message:
    """Check a decoded map and build its message, or raise ProtocolError.

    ``checked`` says ``data`` already passed ``check_plain`` (``codec.unpack``
    does that), so the walk over it is not repeated.
    """
    if not isinstance(data, dict):
        raise ProtocolError(f"a message must be a map, not {wire_name(data)}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("a message needs a str 'type' field")
    cls = MESSAGE_TYPES.get(kind)
    if cls is None:
        raise UnknownType(kind)
    if not checked:
        check_plain(data, kind)
    kwargs: dict[str, Any] = {}
    for name, hint, required, exact in plan(cls):
        if name in data:
            value = data[name]
            if type(value) is not exact:  # else it fits, as _why_not would say
                why = why_not(value, hint, f"{kind}.{name}")
                if why is not None:
                    raise ProtocolError(why)
            kwargs[name] = value
        elif required:
            raise ProtocolError(f"{kind} is missing its '{name}' field")
    return cls(**kwargs)
