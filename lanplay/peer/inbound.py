"""Everything the host says, checked by type and range before any code reads it.

Like ``lanplay/store/schema.py`` for saves: the decoder (``protocol.messages``)
already holds each field to its wire type, and here each host-to-peer message is
held to its ranges and inner shapes: seats are seats, state ids and counts are
in range, hex is hex, a message (a text that travels as a key) is a message, a
lobby's seats are maps with the keys the room and the end screen read, a view
has its game's shape (``lanplay.peer.views``), and a result its own
(``lanplay.store.results``). A host that breaks it is left with one sentence
(``Fault``, below), never a traceback: the window and the bot only ever see
what passed.

``FIELDS`` names, per message type, the rule each field is held to; the
checks below apply them and add what a rule of one field cannot say (a view of
the lobby's game, a delta's ops). docs/PROTOCOL.md's message list is held
against ``FIELDS`` by tests/test_peer_checks.py, and the fuzz there breaks every
field listed in turn.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from lanplay import messages, names
from lanplay.fair.audit import MAX_MOVES
from lanplay.peer import views
from lanplay.store.results import MAX_SEATS, result_fault
from protocol.messages import (
    MAX_DEPTH,
    PROTOCOL_VERSION,
    Accepted,
    Audit,
    Bye,
    Challenge,
    Chat,
    Clock,
    Contributions,
    Delta,
    Deputy,
    GameOver,
    Journal,
    Lobby,
    Message,
    Moved,
    Offer,
    PackOffer,
    PictureChunk,
    Ping,
    Pong,
    Refused,
    Rejected,
    RoomPart,
    SeedCommit,
    Snapshot,
    Welcome,
)

SENTENCES: dict[str, messages.Msg] = {
    "result": messages.msg("The host sent a result this version cannot read; the game is "
                           "saved on the host."),
    "view": messages.msg("The host sent a table this version cannot read; the game is saved "
                         "on the host."),
    "room": messages.msg("The host sent a room this version cannot read; left it so this "
                         "laptop stays usable."),
    "fair": messages.msg("The host sent a fair-play record this version cannot read; left "
                         "the room, so this game's fairness cannot be checked here."),
    "message": messages.msg("The host sent a message this version cannot read; left the "
                            "room so this laptop stays usable."),
}
"""What a person reads when the host broke a check, by what it broke."""


class Fault(Exception):
    """The host broke a check: ``kind`` picks the sentence (``SENTENCES``), ``why`` says
    where, for logs and tests. ``fatal`` False: the message is dropped and the game
    goes on (a pack's pictures: their names are shown instead)."""

    def __init__(self, kind: str, why: str, fatal: bool = True) -> None:
        super().__init__(why)
        self.kind = kind
        self.why = why
        self.fatal = fatal

    @property
    def sentence(self) -> messages.Msg:
        return SENTENCES.get(self.kind, SENTENCES["message"])


# --- the rules a field is held to ------------------------------------------------------

MAX_STATE = (1 << 53) - 1
"""Largest state id or count taken (what every client's numbers hold exactly)."""
MAX_GAMES = 1 << 31
MAX_TEXT = 64 * 1024
"""Characters of a host's sentence or name taken: as many as a frame's str holds. The
peer cuts what it keeps and shows (a reason to a sentence, a chat line to 500, a name
to 24): a long one costs nothing more."""
MAX_NAME = MAX_TEXT
MAX_WORD = 64
"""Characters of an identifier (a game id, a mode, a code, a timer key)."""
MAX_TOKEN = 256
MAX_NONCE = 1024
MAX_OPTIONS = 256
MAX_WATCHERS = 1024
MAX_SPECTATORS = 1 << 20
MAX_WAIT = 24 * 3600.0
"""Seconds of any deadline or period taken (a guess window is under a minute)."""
HEX64 = 64
MAX_PATH = MAX_DEPTH
MAX_TERM = 1 << 31
"""Highest room term taken (one more per hand-over: a room never sees this many)."""
MAX_PART = 256 * 1024
"""Bytes of one part of a room's copy, or of one journal message, taken."""
MAX_PARTS = 128
"""Parts of one copy taken (``lanplay.store.roomcopy.MAX_COPY`` at most, in parts of
192 KiB: 86; a host sending more is refused before it fills a laptop's memory)."""


@dataclass(frozen=True)
class Rule:
    """What one field must be: ``fault(value)`` says why it is not, or None; ``doc``
    is the rule in words."""

    doc: str
    fault: Callable[[Any], str | None]


def _int(low: int, high: int, nil: bool = False) -> Rule:
    def fault(value: Any) -> str | None:
        if value is None and nil:
            return None
        if type(value) is not int or not low <= value <= high:
            return f"not an int from {low} to {high}"
        return None
    return Rule(f"int {low}..{high}" + (" or nil" if nil else ""), fault)


def _num(low: float, high: float, nil: bool = False) -> Rule:
    def fault(value: Any) -> str | None:
        if value is None and nil:
            return None
        if type(value) not in (int, float) or not math.isfinite(value) \
                or not low <= value <= high:
            return f"not a finite number from {low} to {high}"
        return None
    return Rule(f"number {low}..{high}" + (" or nil" if nil else ""), fault)


def _text(most: int, nil: bool = False) -> Rule:
    def fault(value: Any) -> str | None:
        if value is None and nil:
            return None
        if type(value) is not str or len(value) > most:
            return f"not a str of at most {most} characters"
        return None
    return Rule(f"str of at most {most}" + (" or nil" if nil else ""), fault)


def _hex(digits: int) -> Rule:
    def fault(value: Any) -> str | None:
        if type(value) is not str or len(value) != digits or not _is_hex(value):
            return f"not {digits} lower-case hex digits"
        return None
    return Rule(f"{digits} lower-case hex digits", fault)


def _flag() -> Rule:
    return Rule("bool", lambda value: None if type(value) is bool else "not a bool")


def _among(*words: str) -> Rule:
    return Rule(" | ".join(words),
                lambda value: None if type(value) is str and value in words
                else f"not one of {', '.join(words)}")


def _list(item: Rule, most: int) -> Rule:
    def fault(value: Any) -> str | None:
        if type(value) is not list or len(value) > most:
            return f"not an array of at most {most}"
        for index, entry in enumerate(value):
            why = item.fault(entry)
            if why is not None:
                return f"[{index}] {why}"
        return None
    return Rule(f"array (at most {most}) of {item.doc}", fault)


def _message() -> Rule:
    def fault(value: Any) -> str | None:
        if value is None or messages.is_message(value):
            return None
        return "not a message (a map with a str key, maybe args and plural)"
    return Rule("message or nil", fault)


def _map(most: int) -> Rule:
    def fault(value: Any) -> str | None:
        if type(value) is not dict or len(value) > most:
            return f"not a map of at most {most} entries"
        return None
    return Rule(f"map (at most {most} entries)", fault)


def _custom(doc: str, fault: Callable[[Any], str | None]) -> Rule:
    return Rule(doc, fault)


def _bin(most: int) -> Rule:
    return Rule(f"bin of at most {most} bytes", lambda value: None if (
        type(value) is bytes and len(value) <= most) else f"not bin of at most {most} bytes")


def _address() -> Rule:
    """A host's address as a peer connects to it: an IPv4 or IPv6 address or a name."""
    allowed = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:-")

    def fault(value: Any) -> str | None:
        if type(value) is not str or not 0 < len(value) <= 255 or not set(value) <= allowed:
            return "not an address (letters, digits, dots, colons and dashes)"
        return None
    return Rule("an address: str of letters, digits, '.', ':' and '-'", fault)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


SEAT = _int(0, MAX_SEATS - 1)
STATE = _int(0, MAX_STATE)
ANY_INT = _int(-(1 << 63), (1 << 64) - 1)
"""Any int msgpack carries (a ping's nonce: echoed as it came)."""


def _seat_fault(seat: Any) -> str | None:
    if type(seat) is not dict:
        return "a seat is not a map"
    for key, rule in SEAT_FIELDS.items():
        if key not in seat:
            if key in SEAT_OPTIONAL:
                continue
            return f"a seat has no {key!r}"
        why = rule.fault(seat[key])
        if why is not None:
            return f"a seat's {key!r} is {why}"
    return None


SEAT_FIELDS: dict[str, Rule] = {
    "name": _text(MAX_NAME), "colour": _text(MAX_WORD), "ready": _flag(), "bot": _flag(),
    "connected": _flag(), "away_for": _num(0, 1e12, nil=True), "standin": _flag(),
    "owner": _flag(),
}
"""A lobby seat's keys the room, the table and the end screen read."""
SEAT_OPTIONAL = frozenset({"away_for", "standin", "owner"})
"""Keys an older host's seats lack (read with a default); the rest every seat has."""


def _options_fault(options: Any) -> str | None:
    for key, value in options.items():
        if len(key) > MAX_WORD:
            return "an option's name is too long"
        if value is not None and type(value) not in (bool, int, float, str):
            return f"the option {key[:40]!r} is not a plain value"
        if type(value) is str and len(value) > MAX_NAME:
            return f"the option {key[:40]!r} is too long"
        if type(value) is float and not math.isfinite(value):
            return f"the option {key[:40]!r} is not a finite number"
    return None


def _options() -> Rule:
    size = _map(MAX_OPTIONS)

    def fault(value: Any) -> str | None:
        return size.fault(value) or _options_fault(value)
    return Rule("map of option name to a plain value", fault)


def _log_fault(log: Any) -> str | None:
    if type(log) is not list:
        return "not an array"
    for index, entry in enumerate(log):
        if type(entry) is not list or len(entry) != 2:
            return f"entry {index} is not [seat, action]"
        seat, action = entry
        if type(seat) is not int or not -1 <= seat < MAX_SEATS:
            return f"entry {index}'s seat is not a seat or -1"
        if type(action) is not dict or type(action.get("type")) is not str:
            return f"entry {index}'s action is not a map with a str type"
    return None


FIELDS: dict[str, dict[str, Rule]] = {
    "welcome": {
        "version": _int(PROTOCOL_VERSION, PROTOCOL_VERSION),
        "seat": _int(0, MAX_SEATS - 1, nil=True), "token": _text(MAX_TOKEN),
        "host_name": _text(MAX_NAME), "game": _text(MAX_WORD), "owner": _flag(),
        "room": _text(MAX_WORD), "term": _int(0, MAX_TERM),
    },
    "refused": {"code": _text(MAX_TEXT), "reason": _text(MAX_TEXT), "message": _message()},
    "challenge": {"nonce": _text(MAX_NONCE), "salt": _text(MAX_NONCE)},
    "bye": {"reason": _text(MAX_TEXT), "message": _message(), "resume": _flag()},
    "ping": {"nonce": ANY_INT, "state_id": _int(-1, MAX_STATE), "term": _int(0, MAX_TERM)},
    "pong": {"nonce": ANY_INT},
    "lobby": {
        "host_name": _text(MAX_NAME), "game": _text(MAX_WORD), "mode": _text(MAX_WORD),
        "options": _options(),
        "seats": _custom("array of seat maps", lambda seats: _list(
            _custom("seat", _seat_fault), MAX_SEATS).fault(seats)),
        "phase": _among("lobby", "playing", "over"), "problem": _text(MAX_TEXT, nil=True),
        "spectators": _int(0, MAX_SPECTATORS), "standin_after": _num(0, 1e9, nil=True),
        "watchers": _list(_text(MAX_NAME), MAX_WATCHERS), "paused": _text(MAX_TEXT, nil=True),
        "problem_message": _message(), "paused_message": _message(), "bots": _text(MAX_WORD),
        "room": _text(MAX_WORD), "term": _int(0, MAX_TERM),
    },
    "chat": {"text": _text(MAX_TEXT), "sender": _text(MAX_NAME),
             "seat": _int(0, MAX_SEATS - 1, nil=True), "message": _message()},
    "snapshot": {"state_id": STATE,
                 "view": _custom("the game's view (GAMES.md)", views.view_fault)},
    "delta": {"base": _int(-1, MAX_STATE), "state_id": STATE,
              "ops": _custom("array of ops", lambda ops: _ops_fault(ops))},
    "accepted": {"id": ANY_INT, "state_id": STATE},
    "rejected": {"id": ANY_INT, "code": _text(MAX_TEXT), "reason": _text(MAX_TEXT),
                 "message": _message()},
    "game_over": {"state_id": STATE, "result": _custom("a result", result_fault),
                  "reason": _text(MAX_TEXT), "verdict": _map(8)},
    "clock": {"key": _text(MAX_WORD), "seconds": _num(0, MAX_WAIT),
              "remaining": _num(-MAX_WAIT, MAX_WAIT)},
    "seed_commit": {"game": _int(1, MAX_GAMES), "commitment": _hex(HEX64),
                    "seats": _int(0, MAX_SEATS), "wait": _num(0, MAX_WAIT)},
    "contributions": {"game": _int(1, MAX_GAMES), "commitment": _hex(HEX64),
                      "values": _list(_hex(HEX64), MAX_SEATS),
                      "drawn": _list(SEAT, MAX_SEATS)},
    "audit": {
        "game": _int(1, MAX_GAMES), "rules": _text(MAX_WORD), "mode": _text(MAX_WORD),
        "options": _options(), "secret": _hex(HEX64), "values": _list(_hex(HEX64), MAX_SEATS),
        "drawn": _list(SEAT, MAX_SEATS), "log": _custom("array of [seat, action]", _log_fault),
        "at": _int(0, MAX_MOVES), "moves": _int(0, MAX_MOVES),
    },
    "pack_offer": {"pack": _custom("a pack map with a str id", lambda pack: None if (
        type(pack) is dict and type(pack.get("id")) is str) else "not a pack with a str id")},
    "picture_chunk": {"sha256": _hex(HEX64), "index": _int(0, MAX_STATE),
                      "total": _int(1, MAX_STATE), "data": _custom(
                          "bin", lambda data: None if type(data) is bytes else "not bin")},
    "offer": {"role": _among("host", "deputy"), "room": _text(MAX_WORD),
              "term": _int(1, MAX_TERM), "by": _text(MAX_NAME), "after": _num(0.1, 3600)},
    "room_part": {"role": _among("host", "deputy"), "room": _text(MAX_WORD),
                  "term": _int(1, MAX_TERM), "seq": _int(1, MAX_STATE),
                  "index": _int(0, MAX_PARTS - 1), "total": _int(1, MAX_PARTS),
                  "data": _bin(MAX_PART)},
    "journal": {"room": _text(MAX_WORD), "term": _int(1, MAX_TERM), "seq": _int(1, MAX_STATE),
                "at": _int(0, MAX_STATE), "lines": _bin(MAX_PART)},
    "deputy": {"room": _text(MAX_WORD), "term": _int(0, MAX_TERM), "name": _text(MAX_NAME),
               "address": _custom("an address, or \"\" with no deputy", lambda value: None
                                  if value == "" else _address().fault(value)),
               "port": _int(0, 65535), "web_port": _int(0, 65535), "after": _num(0.1, 3600)},
    "moved": {"room": _text(MAX_WORD), "term": _int(1, MAX_TERM), "name": _text(MAX_NAME),
              "address": _address(), "port": _int(1, 65535), "web_port": _int(0, 65535)},
}
"""Per host-to-peer message type, the rule of each of its fields."""

KINDS: dict[str, str] = {
    "welcome": "room", "lobby": "room", "snapshot": "view", "delta": "view",
    "game_over": "result", "seed_commit": "fair", "contributions": "fair", "audit": "fair",
    "pack_offer": "pictures", "picture_chunk": "pictures", "offer": "room",
    "room_part": "room", "journal": "room", "deputy": "room", "moved": "room",
}
"""Which sentence a broken message of each type leaves the host with (else "message")."""


def _ops_fault(ops: Any) -> str | None:
    """The ops' envelope: each an array of an op code and a path of str and int."""
    if type(ops) is not list:
        return "not an array of ops"
    for index, op in enumerate(ops):
        if type(op) is not list or not op or type(op[0]) is not int \
                or not 0 <= op[0] <= 3 or len(op) != (2 if op[0] == 1 else 3):
            return f"op {index} is not [code, path(, value)] with a code 0-3"
        path = op[1]
        if type(path) is not list or len(path) > MAX_PATH:
            return f"op {index}'s path is not an array of at most {MAX_PATH} steps"
        for key in path:
            kind = type(key)
            if kind is not str and kind is not int:
                return f"op {index}'s path has a step that is neither str nor int"
    return None


def _fields(msg: Message) -> None:
    rules = FIELDS[msg.TYPE]
    for name, rule in rules.items():
        why = rule.fault(getattr(msg, name))
        if why is not None:
            raise Fault(KINDS.get(msg.TYPE, "message"), f"{msg.TYPE}.{name}: {why}",
                        fatal=KINDS.get(msg.TYPE) != "pictures")


# --- one check per message --------------------------------------------------------------


def welcome(msg: Welcome) -> Welcome:
    _fields(msg)
    return dataclasses.replace(msg, host_name=names.clean(msg.host_name, 60))


def refused(msg: Refused) -> Refused:
    _fields(msg)
    return msg


def challenge(msg: Challenge) -> Challenge:
    _fields(msg)
    return msg


def bye(msg: Bye) -> Bye:
    _fields(msg)
    return msg


def ping(msg: Ping) -> Ping:
    _fields(msg)
    return msg


def pong(msg: Pong) -> Pong:
    _fields(msg)
    return msg


def lobby(msg: Lobby) -> Lobby:
    """The lobby, every name cleaned (``lanplay.names``), or Fault."""
    _fields(msg)
    seats = [{**seat, "name": names.clean(seat["name"]) or "?"} for seat in msg.seats]
    return dataclasses.replace(msg, seats=seats, host_name=names.clean(msg.host_name, 60),
                               watchers=[names.clean(w) or "?" for w in msg.watchers])


def chat(msg: Chat) -> Chat:
    _fields(msg)
    return msg


def snapshot(msg: Snapshot, room: Lobby | None) -> Snapshot:
    """A whole view: its game's shape, and the game the room plays (the window's table
    and the bot are the lobby's game's)."""
    _fields(msg)
    _same_game(msg.view, room)
    return msg


def delta(msg: Delta, view: dict[str, Any] | None, room: Lobby | None = None) -> Delta:
    """The ops' envelope, and each op's value at the shape its path leads to (about a
    microsecond an op; see ``lanplay.peer.views.ops_fault``); the view changed must be
    of the room's game (the window's table is the lobby's game's)."""
    if type(msg.base) is not int or not -1 <= msg.base <= MAX_STATE \
            or type(msg.state_id) is not int or not 0 <= msg.state_id <= MAX_STATE:
        raise Fault("view", "delta: its state ids are out of range")
    why = _ops_fault(msg.ops)
    if why is None and view is not None:
        _same_game(view, room)
        why = views.ops_fault(view, msg.ops)
    if why is not None:
        raise Fault("view", f"delta: {why}")
    return msg


def accepted(msg: Accepted) -> Accepted:
    _fields(msg)
    return msg


def rejected(msg: Rejected) -> Rejected:
    _fields(msg)
    return msg


def game_over(msg: GameOver) -> GameOver:
    _fields(msg)
    return msg


def clock(msg: Clock) -> Clock:
    _fields(msg)
    return msg


def seed_commit(msg: SeedCommit) -> SeedCommit:
    _fields(msg)
    return msg


def contributions(msg: Contributions) -> Contributions:
    _fields(msg)
    if any(seat >= len(msg.values) for seat in msg.drawn):
        raise Fault("fair", "contributions.drawn: a seat with no contribution")
    return msg


def audit(msg: Audit) -> Audit:
    _fields(msg)
    if msg.at + len(msg.log) > max(msg.moves, 0) or any(
            seat >= len(msg.values) for seat in msg.drawn):
        raise Fault("fair", "audit: its parts or seats do not add up")
    return msg


def pack_offer(msg: PackOffer) -> PackOffer:
    """The envelope only: the pack's pictures, questions and cards are checked by the
    transfer (``lanplay.content.transfer``), which costs the pack, not the game."""
    _fields(msg)
    return msg


def picture_chunk(msg: PictureChunk) -> PictureChunk:
    _fields(msg)
    if msg.index >= msg.total:
        raise Fault("pictures", "picture_chunk: its index is past its total", fatal=False)
    return msg


def offer(msg: Offer) -> Offer:
    _fields(msg)
    return dataclasses.replace(msg, by=names.clean(msg.by, 60))


def room_part(msg: RoomPart) -> RoomPart:
    _fields(msg)
    if msg.index >= msg.total:
        raise Fault("room", "room_part: its index is past its total")
    return msg


def journal(msg: Journal) -> Journal:
    _fields(msg)
    return msg


def deputy(msg: Deputy) -> Deputy:
    _fields(msg)
    return dataclasses.replace(msg, name=names.clean(msg.name, 60))


def moved(msg: Moved) -> Moved:
    _fields(msg)
    return dataclasses.replace(msg, name=names.clean(msg.name, 60))


def _same_game(view: Mapping[str, Any], room: Lobby | None) -> None:
    if room is not None and view.get("game") != room.game:
        raise Fault("view", f"a view of {str(view.get('game'))[:40]!r} in a room playing "
                            f"{room.game[:40]!r}")


CHECKS: dict[type[Message], Callable[..., Message]] = {
    Welcome: welcome, Refused: refused, Challenge: challenge, Bye: bye, Ping: ping,
    Pong: pong, Lobby: lobby, Chat: chat, Accepted: accepted, Rejected: rejected,
    GameOver: game_over, Clock: clock, SeedCommit: seed_commit,
    Contributions: contributions, Audit: audit, PackOffer: pack_offer,
    PictureChunk: picture_chunk, Offer: offer, RoomPart: room_part, Journal: journal,
    Deputy: deputy, Moved: moved,
}
"""The checks that need nothing but the message (snapshot and delta need the room and
the view: ``check`` passes them)."""


def check(msg: Message, room: Lobby | None, view: dict[str, Any] | None) -> Message:
    """``msg`` as the peer may read it (names cleaned), or Fault. ``room`` is the last
    lobby, ``view`` the view the peer holds (a delta's ops are checked against it)."""
    kind = type(msg)
    if kind is Delta:
        assert isinstance(msg, Delta)
        return delta(msg, view, room)
    if kind is Snapshot:
        assert isinstance(msg, Snapshot)
        return snapshot(msg, room)
    found = CHECKS.get(kind)
    if found is None:
        raise Fault("message", f"a {msg.TYPE} is not a message a host sends")
    return found(msg)


__all__ = ["FIELDS", "KINDS", "SENTENCES", "Fault", "check"]
