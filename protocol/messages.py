"""Every message of the wire protocol, as frozen dataclasses.

Each message maps to a plain msgpack map: ``{"type": <name>, <field>: ...}``
with only nil, bool, int, float, str, bin, array and map values, so a client in
any language can speak it. ``docs/PROTOCOL.md`` documents each one.

Decoding checks every field's type, so code above this layer never sees a
malformed message; any mismatch raises ``ProtocolError`` with a reason.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, Union

PROTOCOL_VERSION = 1
"""Bumped on any incompatible change; a hello with another version is refused."""


class ProtocolError(Exception):
    """The other side broke the protocol; ``reason`` says how, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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


@dataclass(frozen=True)
class Refused(Message):
    """Host -> client: not admitted (or thrown out); the host then closes."""

    TYPE: ClassVar[str] = "refused"
    code: str
    reason: str


@dataclass(frozen=True)
class Bye(Message):
    """Either way: a clean goodbye before closing."""

    TYPE: ClassVar[str] = "bye"
    reason: str = ""


@dataclass(frozen=True)
class Ping(Message):
    TYPE: ClassVar[str] = "ping"
    nonce: int


@dataclass(frozen=True)
class Pong(Message):
    TYPE: ClassVar[str] = "pong"
    nonce: int


# --- the room -------------------------------------------------------------


@dataclass(frozen=True)
class Lobby(Message):
    """Host -> all: the room as it is now (sent whenever it changes).

    ``seats`` holds maps with name, colour, ready, bot, connected; ``problem``
    says why the game cannot start yet (None when it can).
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


@dataclass(frozen=True)
class Control(Message):
    """Client -> host: a room command (ready, add_bot, remove_seat, move_seat,
    set_game, start). Most are for the owner only; the host answers a refused
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
    """Host -> all: the result (winners, scores, detail) and how it ended."""

    TYPE: ClassVar[str] = "game_over"
    state_id: int
    result: dict[str, Any]
    reason: str = ""


MESSAGE_TYPES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (Hello, Welcome, Refused, Bye, Ping, Pong, Lobby, Control, Chat, Intent,
                Accepted, Rejected, Snapshot, Delta, Resync, GameOver)
}


# --- mapping to and from plain maps ----------------------------------------


def to_wire(msg: Message) -> dict[str, Any]:
    """The plain map for ``msg`` (fields in declaration order, type first)."""
    out: dict[str, Any] = {"type": msg.TYPE}
    for f in dataclasses.fields(msg):
        out[f.name] = getattr(msg, f.name)
    return out


_HINTS: dict[type[Message], dict[str, Any]] = {}


def _hints(cls: type[Message]) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _type_ok(value: Any, hint: Any) -> bool:
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return any(_type_ok(value, arm) for arm in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if origin is dict or hint is dict:
        return isinstance(value, dict) and all(isinstance(k, str) for k in value)
    if origin is list or hint is list:
        return isinstance(value, list)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    return False


def _type_name(hint: Any) -> str:
    text = str(hint).replace("typing.", "")
    return text.replace("<class '", "").replace("'>", "")


def from_wire(data: Any) -> Message:
    """Check a decoded map and build its message, or raise ProtocolError."""
    if not isinstance(data, dict):
        raise ProtocolError(f"a message must be a map, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("a message needs a string 'type' field")
    cls = MESSAGE_TYPES.get(kind)
    if cls is None:
        raise ProtocolError(f"unknown message type {kind[:40]!r}")
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            value = data[f.name]
            if not _type_ok(value, hints[f.name]):
                raise ProtocolError(
                    f"{kind}.{f.name} must be {_type_name(hints[f.name])}, "
                    f"not {type(value).__name__}")
            kwargs[f.name] = value
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ProtocolError(f"{kind} is missing its '{f.name}' field")
    return cls(**kwargs)
