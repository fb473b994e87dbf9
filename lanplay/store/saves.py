"""Saved games: durable after every accepted action, read back to resume.

A save holds what replays the game exactly (game, mode, options, seed, the
action log) plus what brings the room back (seats with their tokens, removed
tokens, the port peers remember) and a plain dump of the state for audit.
It is written atomically (``lanplay.store.durable``): a host killed at any
moment leaves either the previous save or the new one, never half of one.
Finished games move to ``saves/history/`` with their result; which games lie
on this laptop is ``lanplay.store.listing``'s, and where, ``lanplay.store.folders``'s.

Rewriting the whole save with two fsyncs after every action was most of the
host's latency (docs/BENCHMARKS.md), so the full save is written only when a
game starts, when the room's saved data changes, every ``COMPACT_EVERY``
actions and at the end. Between those, each action is appended as one JSON
line to ``<save>.journal`` and made durable with one ``fdatasync`` (the
journal's directory entry is synced once, when it is created). Loading applies
the journal's lines that follow the save's log; a torn last line (a crash in
mid-write; its action was never told to anyone) is ignored, anything else that
does not follow refuses the save. Lines the save already holds (a crash between
a compaction and the journal's truncation) are skipped once checked.

JSON, so a person can read a save (the audit); the only value JSON lacks, a
msgpack bin, is written as ``{"$bytes": "<hex>"}``.

A save is read back as untrusted input: at most ``MAX_FILE`` bytes, then every
field checked by type and range (``lanplay.store.schema``) and the fields against
each other (unique tokens, a log that counts up) before any of it is used, so
a damaged or forged file is refused with a sentence, never a crash. A room's
password is not in the save, only its salt and derived key (``room_key``).
The saves directory is private to its user (0700), the files too (0600).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanplay import games, names
from lanplay.admission import RoomKey
from lanplay.fair.seed import Fairness
from lanplay.game import SYSTEM, LogLine
from lanplay.session import LogEntry, Session
from lanplay.store import schema as sc
from lanplay.store.durable import SaveError as SaveError  # what every reader here raises
from lanplay.store.durable import (
    archive_bytes,
    journal_path,
    read_capped,
    write_atomic,
)

log = logging.getLogger("lanplay.store.saves")

FORMAT = 1
"""Bumped on an incompatible change of the file layout."""
SUFFIX = ".json"
COMPACT_EVERY = 64
"""Actions between full saves: bounds the journal a resume replays on top."""
MAX_SEATS = 64
MAX_ACTIONS = 1_000_000
MAX_DEPTH = 64
"""How deep an action, an option or a state dump may nest (the wire's limit)."""


# --- what a save holds --------------------------------------------------------------


@dataclass
class SavedSeat:
    name: str
    colour: str
    token: str
    bot: bool = False
    owner: bool = False
    hosted: bool = False
    """A bot the host itself runs: a resumed host starts it again."""


@dataclass
class Save:
    game_id: str
    """This game's own id (random), also the file name's tail."""
    game: str
    mode: str
    options: dict[str, Any]
    seed: int
    seats: list[SavedSeat]
    log: list[LogEntry]
    state_id: int
    phase: str
    """"playing" while it can be resumed, "over" once it has a result."""
    port: int
    host_name: str = "lanplay host"
    owner_token: str = ""
    banned: list[str] = field(default_factory=list)
    room_key: RoomKey | None = None
    """The room password's salt and derived key (None: no password); never the password."""
    base_seed: int | None = None
    games_played: int = 1
    result: dict[str, Any] | None = None
    started: float = 0.0
    updated: float = 0.0
    state: Any = None
    """A plain dump of the game state, for audit; resuming checks the replay against it."""
    fair: dict[str, Any] | None = None
    """Where the seed came from (``Fairness.to_save``): the host's secret and every
    seat's contribution, so a resumed game keeps its seed, its commitment and its
    audit. None in a save from before fair play."""
    room: str = ""
    """The room's id (``lanplay.room.Room.id``): a hand-over keeps it."""
    term: int = 1
    """The room's term when this was saved: a resumed host that finds its room refereed
    at a higher term elsewhere joins it as a peer (``lanplay.host.handover``)."""
    deputy: dict[str, Any] | None = None
    """Where the room's deputy would referee (name, address, port, web_port), if it had
    one: a host resumed after a take-over asks there first."""
    journaled: int = 0
    """How many of the log's last entries came from the journal, not the file: the
    dump ``state`` is at ``state_id - journaled``. Never written into the file."""

    @property
    def finished(self) -> bool:
        return self.phase == "over"


def file_name(save: Save) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(save.started or time.time()))
    return f"{stamp}-{save.game}-{save.game_id}{SUFFIX}"


_SCALARS = frozenset({str, int, float, bool, bytes, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}


def plain(value: Any) -> Any:
    """A JSON-ready copy of a game state (dataclasses, tuples, sets, bytes kept).

    Runs after every action, so the common types are tested first and each
    dataclass's field names are looked up once."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [plain(v) for v in value]
    if kind is LogLine:  # as it travels: a message of nested values, built once
        return value.to_view()
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
        return plain(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, (str, int, float, bool, bytes)) or value is None:
        return value
    return repr(value)


# --- encoding ------------------------------------------------------------------------


def _tag(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes": bytes(value).hex()}
    raise TypeError(f"{type(value).__name__} cannot be saved")


def _untag(obj: dict[str, Any]) -> Any:
    if len(obj) == 1 and isinstance(obj.get("$bytes"), str):
        return bytes.fromhex(obj["$bytes"])
    return obj


def _json(value: Any) -> str:
    return json.dumps(value, default=_tag, ensure_ascii=False, separators=(",", ":"))


def encode(save: Save, log_cache: list[str] | None = None) -> bytes:
    """The file's bytes. ``log_cache`` keeps each log entry's JSON between calls
    (the log only grows during a game), so a save costs the same at move 500 as
    at move 5 apart from the copying."""
    head: dict[str, Any] = {"format": FORMAT}
    for f in dataclasses.fields(save):
        if f.name not in ("log", "seats", "journaled", "room_key"):
            head[f.name] = getattr(save, f.name)
    key = save.room_key
    head["room_key"] = {"salt": key.salt, "key": key.key.hex()} if key is not None else None
    head["seats"] = [dataclasses.asdict(s) for s in save.seats]
    cache = log_cache if log_cache is not None else []
    if len(cache) > len(save.log):
        cache.clear()
    for entry in save.log[len(cache):]:
        cache.append(entry_json(entry))
    text = _json(head)
    return f'{text[:-1]},"log":[{",".join(cache)}]}}'.encode()


def entry_json(entry: LogEntry) -> str:
    """One log entry as the save's log and the journal write it."""
    return _json({"seat": entry.seat, "action": entry.action, "state_id": entry.state_id})


def last_entry_json(entry: LogEntry, result: dict[str, Any]) -> str:
    """The journal line of the action that ended the game: the entry and the result
    (``over``), so the end is durable in one line, before the history is written."""
    return _json({"seat": entry.seat, "action": entry.action, "state_id": entry.state_id,
                  "over": result})


# --- reading untrusted bytes back -----------------------------------------------------

HOST_NAME = 60
"""Characters of the host's name kept from a save (as a peer keeps a welcome's)."""
_TOKEN = sc.text(1, 128)
_SEAT = sc.record({"name": sc.text(1, 64), "token": _TOKEN,
                   "colour": sc.text(0, 7, r"(#[0-9A-Fa-f]{6})?", "a colour like #E69F00"),
                   "bot": sc.boolean, "owner": sc.boolean, "hosted": sc.boolean},
                  required={"name", "colour", "token"})
_MAP = sc.record({})
ENTRY = sc.record({"seat": sc.integer(SYSTEM, MAX_SEATS - 1),
                   "action": sc.both(sc.record({"type": sc.text(1, 64)}, {"type"}),
                                     sc.plain(MAX_DEPTH)),
                   "state_id": sc.integer(1, MAX_ACTIONS),
                   "over": sc.both(sc.record({}), sc.plain(MAX_DEPTH))},
                  required={"seat", "action", "state_id"})
"""One log entry, in a save's log or as a journal line (only a journal's last line,
the game's last action, holds ``over``: the result)."""
_INT64 = sc.integer(-(2 ** 63), 2 ** 64 - 1)
_TIME = sc.number(0, 1e11)
SAVE = sc.record({
    "game_id": sc.text(1, 64, r"[A-Za-z0-9_-]+", "an id of letters, digits, - and _"),
    "game": sc.text(1, 64), "mode": sc.text(1, 64),
    "options": sc.both(_MAP, sc.plain(8)), "seed": _INT64,
    "seats": sc.array(_SEAT, MAX_SEATS, min_len=1), "log": sc.array(ENTRY, MAX_ACTIONS),
    "state_id": sc.integer(0, MAX_ACTIONS), "phase": sc.one_of("playing", "over"),
    "port": sc.integer(0, 65535), "host_name": sc.text(1, 200),
    "owner_token": sc.text(0, 128), "banned": sc.array(_TOKEN, 100_000),
    "password": sc.optional(sc.text(1, 1000)),
    "room_key": sc.optional(sc.record({"salt": sc.text(1, 128),
                                       "key": sc.text(64, 64, r"[0-9a-f]{64}",
                                                      "64 hex digits")},
                                      required={"salt", "key"})),
    "base_seed": sc.optional(_INT64), "games_played": sc.integer(1, 10 ** 9),
    "result": sc.optional(sc.both(_MAP, sc.plain(MAX_DEPTH))),
    "started": _TIME, "updated": _TIME, "state": sc.plain(MAX_DEPTH, 10_000_000),
    "fair": sc.optional(sc.both(_MAP, sc.plain(4, 10_000))),
    "room": sc.text(0, 64, r"[A-Za-z0-9_-]*", "an id of letters, digits, - and _"),
    "term": sc.integer(1, 2 ** 31),
    "deputy": sc.optional(sc.record({"name": sc.text(0, 200), "address": sc.text(0, 200),
                                     "port": sc.integer(1, 65535),
                                     "web_port": sc.integer(0, 65535)},
                                    required={"address", "port"})),
}, required={"game_id", "game", "mode", "options", "seed", "seats", "log", "state_id",
             "phase", "port"})
"""Every field a save may hold, by type and range (later versions' extra keys are ignored)."""


def _parse(raw: bytes) -> Any:
    """Parse JSON from a file; sc.Invalid saying why in words when it is not JSON."""
    try:
        return json.loads(raw, object_hook=_untag)
    except RecursionError:
        raise sc.Invalid("", "is nested far too deeply") from None
    except UnicodeDecodeError:
        raise sc.Invalid("", "is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise sc.Invalid("", f"is not JSON: {exc.msg.lower()} at line {exc.lineno}, "
                             f"column {exc.colno}") from None
    except ValueError:  # a $bytes value that is not hex
        raise sc.Invalid("", "holds bytes that are not hex digits") from None


def _entry(e: dict[str, Any]) -> LogEntry:
    return LogEntry(e["seat"], e["action"], e["state_id"])


def decode(raw: bytes, where: str = "The save") -> Save:
    """The save in ``raw``; SaveError naming the first thing wrong with it."""
    try:
        data = _parse(raw)
    except sc.Invalid as exc:
        raise SaveError(f"{where} is not a lanplay save ({exc.sentence}).") from None
    if not isinstance(data, dict):
        raise SaveError(f"{where} is not a lanplay save (it holds {sc.kind(data)}, "
                        f"not a map).")
    if data.get("format") != FORMAT:
        raise SaveError(f"{where} was written by another lanplay version (or is not a "
                        f"save); it cannot be resumed here.")
    try:
        SAVE(data, "")
    except sc.Invalid as exc:
        raise SaveError(f"{where} is damaged ({exc.sentence}); it cannot be resumed."
                        ) from None
    problem = _inconsistent(data)
    if problem:
        raise SaveError(f"{where} is damaged ({problem}); it cannot be resumed.")
    fields = {f.name for f in dataclasses.fields(Save)} - {"journaled", "room_key"}
    values = {k: v for k, v in data.items() if k in fields}
    # names as the lobby allows them live (24 characters, printable), whatever the file says
    values["seats"] = [SavedSeat(**{k: v for k, v in seat.items()
                                    if k in ("colour", "token", "bot", "owner", "hosted")},
                                 name=names.name(seat["name"]))
                       for seat in data["seats"]]
    values["host_name"] = names.clean(data["host_name"], HOST_NAME) or "lanplay host"
    values["log"] = [_entry(e) for e in data["log"]]
    key = data.get("room_key")
    password = data.get("password")
    values["room_key"] = (RoomKey(key["salt"], bytes.fromhex(key["key"])) if key
                          else RoomKey.derive(password) if password else None)
    return Save(**values)


def _inconsistent(data: dict[str, Any]) -> str | None:
    """What in a well-typed save contradicts itself, or None."""
    seats = data["seats"]
    tokens = [s["token"] for s in seats]
    if len(set(tokens)) != len(tokens):
        return "two seats have the same token"
    if sum(bool(s.get("owner")) for s in seats) > 1:
        return "more than one seat owns the room"
    entries = data["log"]
    for i, entry in enumerate(entries):
        if entry["state_id"] != i + 1:
            return f"log[{i}].state_id is {entry['state_id']}, not {i + 1}"
        if entry["seat"] >= len(seats):
            return f"log[{i}].seat is {entry['seat']}, but there are {len(seats)} seats"
    if data["state_id"] != len(entries):
        return f"state_id is {data['state_id']} but the log has {len(entries)} moves"
    return None


# --- writing and reading ----------------------------------------------------------------


def write(save: Save, path: Path) -> None:
    write_atomic(path, encode(save))


def load(path: str | os.PathLike[str]) -> Save:
    """The save at ``path`` with its journal's actions appended to its log; SaveError
    (and nothing else) when it cannot be read or is damaged."""
    where = Path(path)
    try:
        raw, _ = read_capped(where)
    except FileNotFoundError as exc:
        raise SaveError(f"There is no save {where}.") from exc
    save = decode(raw, f"The file {where.name}")
    journal = journal_path(where)
    try:
        lines, mtime = read_capped(journal, "journal")
    except FileNotFoundError:
        return save
    return apply_journal(save, lines, journal.name, mtime)


def apply_journal(save: Save, raw: bytes, where: str = "the journal",
                  mtime: float = 0.0) -> Save:
    """``save`` with the journal lines ``raw`` that follow its log appended.

    A last line without its newline is a write cut short by a crash: ignored
    (no peer was told of it). Lines the save already holds must match its log.
    """
    lines = raw.split(b"\n")
    lines.pop()  # b"" after the last newline, or a torn line: never made durable
    by_id = {e.state_id: e for e in save.log}
    added: list[LogEntry] = []
    result: dict[str, Any] | None = None
    for number, line in enumerate(lines, 1):
        try:
            data = _parse(line)
            ENTRY(data, "")
            if data["seat"] >= len(save.seats):
                raise sc.Invalid("seat", f"is {data['seat']}, but there are "
                                         f"{len(save.seats)} seats")
        except sc.Invalid as exc:
            raise SaveError(f"Line {number} of {where} is damaged ({exc.sentence}); the "
                            f"game cannot be resumed.") from None
        entry = _entry(data)
        if result is not None:
            raise SaveError(f"Line {number} of {where} follows the game's end; the "
                            f"game cannot be resumed.")
        expected = save.state_id + len(added) + 1
        if entry.state_id < expected and not added:
            if by_id.get(entry.state_id) != entry:
                raise SaveError(f"Line {number} of {where} (state {entry.state_id}) differs "
                                f"from the save's log; it cannot be resumed.")
            continue
        if entry.state_id != expected:
            raise SaveError(f"Line {number} of {where} is for state {entry.state_id} but "
                            f"the save continues at {expected}; it cannot be resumed.")
        added.append(entry)
        if "over" in data:
            result = data["over"]
    if not added:
        return save
    over: dict[str, Any] = {"phase": "over", "result": result} if result is not None else {}
    return dataclasses.replace(save, log=[*save.log, *added],
                               state_id=save.state_id + len(added),
                               journaled=save.journaled + len(added),
                               updated=max(save.updated, mtime), **over)


def archive(path: Path, save: Save) -> Path:
    """Write the finished game into the history and remove it from the unfinished saves."""
    return archive_bytes(path, encode(save))


# --- resuming ---------------------------------------------------------------------------


def rebuild(save: Save) -> Session:
    """The Session again, by replaying the log with the seed; checked against the save.

    The replay must reach the saved ``state_id`` through the saved ids and end
    in the saved state dump, or the save is refused (the rules changed, or
    the file was edited): resuming must never invent a different game.
    """
    try:
        game = games.load(save.game)
    except KeyError as exc:
        raise SaveError(f"This lanplay cannot play {save.game!r}; it cannot be "
                        f"resumed here.") from exc
    prefix = len(save.log) - save.journaled
    try:
        session = Session(game, len(save.seats), save.mode, save.options, save.seed)
        session.fair = _fairness(save)
        _replay(session, save.log[:prefix])
        if session.state_id != save.state_id - save.journaled:
            raise SaveError(f"The saved game ends at state {save.state_id - save.journaled} "
                            f"but its log at {session.state_id}; it cannot be resumed.")
        if save.state is not None and _roundtrip(plain(session.state)) != save.state:
            raise SaveError("Replaying the saved moves does not give the saved table (the "
                            "rules changed since, or the file was edited); it cannot be "
                            "resumed.")
        _replay(session, save.log[prefix:])
    except SaveError:
        raise
    except Exception as exc:  # a refused move, a bad option, or a game that chokes on it
        reason = str(getattr(exc, "reason", "") or exc or type(exc).__name__)[:160]
        raise SaveError(f"The saved game does not replay ({reason}); it cannot be "
                        f"resumed.") from exc
    if session.state_id != save.state_id:
        raise SaveError(f"The saved game ends at state {save.state_id} but its log at "
                        f"{session.state_id}; it cannot be resumed.")
    return session


def _fairness(save: Save) -> Fairness | None:
    """The save's shuffle record, checked: it must give the saved seed."""
    if save.fair is None:
        return None
    try:
        fair = Fairness.from_save(save.fair, len(save.seats))
    except ValueError as exc:
        raise SaveError(f"The saved game is damaged ({exc}); it cannot be resumed.") from exc
    if fair.seed != save.seed:
        raise SaveError("The saved seed is not the one the saved shuffle gives (the file "
                        "was edited); it cannot be resumed.")
    return fair


def _replay(session: Session, log: list[LogEntry]) -> None:
    for entry in log:
        reached = session.submit(entry.seat, entry.action)
        if reached != entry.state_id:
            raise SaveError(f"The saved log skips from state {reached - 1} to "
                            f"{entry.state_id}; it cannot be resumed.")


def _roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value, default=_tag), object_hook=_untag)
