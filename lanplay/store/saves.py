"""Saved games: durable after every accepted action, read back to resume.

A save holds what replays the game exactly (game, mode, options, seed, the
action log) plus what brings the room back (seats with their tokens, removed
tokens, the port peers remember) and a plain dump of the state for audit.
It is written to a temporary file, flushed and fsynced, then moved over the
old one with ``os.replace``: a host killed at any moment (SIGKILL, power loss)
leaves either the previous save or the new one, never half of one. Finished
games move to ``saves/history/`` with their result.

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

import contextlib
import dataclasses
import json
import logging
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanplay import games
from lanplay.admission import RoomKey
from lanplay.fair.seed import Fairness
from lanplay.game import SYSTEM, LogLine
from lanplay.session import LogEntry, Session
from lanplay.store import schema as sc

log = logging.getLogger("lanplay.store.saves")

FORMAT = 1
"""Bumped on an incompatible change of the file layout."""
ENV = "LANPLAY_DATA_DIR"
SUFFIX = ".json"
JOURNAL = ".journal"
"""The journal of a save is its file name with this appended."""
COMPACT_EVERY = 64
"""Actions between full saves: bounds the journal a resume replays on top."""
MAX_FILE = 16 * 1024 * 1024
"""A save or a journal larger than this is refused unread (a real one is well under
a mebibyte: a long game's log is a few hundred short lines)."""
MAX_SEATS = 64
MAX_ACTIONS = 1_000_000
MAX_DEPTH = 64
"""How deep an action, an option or a state dump may nest (the wire's limit)."""


class SaveError(Exception):
    """A save cannot be read or resumed; ``reason`` says why, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- where saves live --------------------------------------------------------------


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """``override``, else $LANPLAY_DATA_DIR, else the user's data directory."""
    if override:
        return Path(override)
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("lanplay"))


def saves_dir(root: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(root) / "saves"


def history_dir(root: str | os.PathLike[str] | None = None) -> Path:
    return saves_dir(root) / "history"


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
    values["seats"] = [SavedSeat(**{k: v for k, v in seat.items()
                                    if k in ("name", "colour", "token", "bot", "owner",
                                             "hosted")})
                       for seat in data["seats"]]
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


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` so that a crash leaves the old file or the new one.

    Temporary file in the same directory (so ``os.replace`` is a rename on one
    file system), flushed and fsynced before the rename, and the directory
    fsynced after it, so the rename itself survives a power loss. Mode 0600,
    in a directory of mode 0700: a save holds the seats' reconnect tokens.
    """
    private_dir(path.parent)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def private_dir(folder: Path) -> None:
    """Make ``folder`` (and its parents) exist, the folder itself readable by its
    user only (0700), also when an older lanplay made it 0755."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if stat.S_IMODE(folder.stat().st_mode) & 0o077:
        os.chmod(folder, 0o700)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # not every platform can open a directory
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write(save: Save, path: Path) -> None:
    write_atomic(path, encode(save))


def read_capped(path: Path, what: str = "save") -> tuple[bytes, float]:
    """A regular file's bytes and mtime, refused unread when larger than ``MAX_FILE``
    (never blocks on a pipe, never reads a huge file whole)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise SaveError(f"Cannot read the {what} {path} ({exc.strerror or exc}).") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SaveError(f"{path} is not a file; a {what} is one.")
        if info.st_size > MAX_FILE:
            raise SaveError(f"The {what} {path.name} is {_size(info.st_size)}, far too big "
                            f"for a lanplay {what} (at most {_size(MAX_FILE)}); it was not "
                            f"read.")
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(info.st_size + 1)  # +1: a file that grew is seen to
    except OSError as exc:
        raise SaveError(f"Cannot read the {what} {path} ({exc.strerror or exc}).") from exc
    finally:
        os.close(fd)
    if len(data) > MAX_FILE:
        raise SaveError(f"The {what} {path.name} grew past {_size(MAX_FILE)} while being "
                        f"read; it was not used.")
    return data, info.st_mtime


def _size(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


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


def archive_bytes(path: Path, data: bytes) -> Path:
    target = path.parent / "history" / path.name
    write_atomic(target, data)
    path.unlink(missing_ok=True)
    journal_path(path).unlink(missing_ok=True)
    _fsync_dir(path.parent)
    return target


# --- the journal ------------------------------------------------------------------------


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + JOURNAL)


_fdatasync = getattr(os, "fdatasync", os.fsync)  # macOS and Windows have no fdatasync


def append_journal(path: Path, lines: list[str]) -> None:
    """Append ``lines`` to the journal of the save ``path``, durable on return.

    One write and one ``fdatasync``; the directory is synced only when this
    creates the journal. Mode 0600, like the save (actions may be secret)."""
    journal = journal_path(path)
    try:
        fd = os.open(journal, os.O_WRONLY | os.O_APPEND)
        created = False
    except FileNotFoundError:
        fd = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        created = True
    try:
        size = os.fstat(fd).st_size
        data = "".join(f"{line}\n" for line in lines).encode()
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view):]
            _fdatasync(fd)
        except OSError:
            # A full disk may have taken part of it: cut it back to the lines that
            # were durable, so no half-written move can come back on a resume.
            try:
                os.ftruncate(fd, size)
                _fdatasync(fd)
            except OSError as again:
                log.error("could not cut %s back after a failed write (%s); a resume "
                          "may bring back moves that were refused", journal, again)
            raise
    finally:
        os.close(fd)
    if created:
        _fsync_dir(journal.parent)


def truncate_journal(path: Path) -> None:
    """Empty the journal after a full save holds all it said (no sync needed: lines
    the save holds are skipped on loading, and the next append syncs the length)."""
    with contextlib.suppress(FileNotFoundError):
        os.truncate(journal_path(path), 0)


class Writer:
    """What one game's save still needs on disk, in order; ``flush`` writes it.

    The host queues on its event loop (a full save's bytes, or journal lines)
    and the outbox calls ``flush`` in a worker thread before publishing. A
    flush writes everything queued so far, so a later flush may find nothing
    left: what it was posted for is already durable. After a failed write the
    next save must be a full one (``needs_full``). ``durable`` is the state_id
    known to be on disk: what may be told to peers.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.needs_full = True
        self.full_at = -1
        """The state_id of the last full save queued."""
        self.room: Any = None
        """What the last full save held of the room (seats, bans, port...)."""
        self.durable = -1
        """The newest state_id written and synced (-1: none yet)."""
        self._queue: list[tuple[bytes | None, bool, list[str], int]] = []
        self._failed = False
        self._lock = threading.Lock()
        self._writing = threading.Lock()

    def full(self, data: bytes, state_id: int, room: Any, finished: bool = False) -> None:
        with self._lock:
            self._queue.append((data, finished, [], state_id))
        self.needs_full, self.full_at, self.room = False, state_id, room

    def lines(self, lines: list[str], state_id: int) -> None:
        """Journal lines that bring the save to ``state_id``."""
        with self._lock:
            self._queue.append((None, False, lines, state_id))

    def flush(self) -> None:
        with self._writing:
            with self._lock:
                queue, self._queue = self._queue, []
            last = max((i for i, (data, _, _, _) in enumerate(queue) if data is not None),
                       default=-1)
            if not queue or (self._failed and last < 0):
                return  # after a failed write only a full save can follow: lines would leave a gap
            try:
                if last >= 0:
                    data, finished, _, state_id = queue[last]
                    assert data is not None
                    if finished:
                        archive_bytes(self.path, data)
                        self.durable = state_id
                        return
                    write_atomic(self.path, data)
                    self._failed = False
                    self.durable = state_id
                    truncate_journal(self.path)
                pending = [line for _, _, lines, _ in queue[last + 1:] for line in lines]
                if pending:
                    append_journal(self.path, pending)
                    self.durable = queue[-1][3]
            except BaseException:
                self.needs_full = self._failed = True
                raise


# --- finding saves ----------------------------------------------------------------------


@dataclass(frozen=True)
class SaveInfo:
    """One saved game as a window lists it."""

    path: Path
    game_id: str
    game: str
    mode: str
    players: tuple[str, ...]
    actions: int
    finished: bool
    updated: float
    result: dict[str, Any] | None


def _files(folder: Path) -> Iterator[Path]:
    try:
        names = sorted(folder.iterdir()) if folder.is_dir() else []
    except OSError as exc:
        log.warning("cannot list %s: %s", folder, exc.strerror or exc)
        return
    yield from (p for p in names
                if p.suffix == SUFFIX and not p.name.startswith(".") and p.is_file())


Skipped = Callable[[Path, str], None]
"""Told of each file a listing passes over: its path and why, in a sentence."""


def _log_skipped(path: Path, reason: str) -> None:
    log.warning("skipped %s: %s", path, reason)


def list_saves(root: str | os.PathLike[str] | None = None,
               skipped: Skipped | None = None) -> list[SaveInfo]:
    """Unfinished games and the history, newest first; a file that cannot be read
    (damaged, stray, too big) is passed over, and ``skipped`` is told why (by
    default, the log)."""
    skipped = skipped or _log_skipped
    out: list[SaveInfo] = []
    listed = [*_files(saves_dir(root)), *_files(history_dir(root))]
    for path in listed:
        if not path.exists() and path.parent == saves_dir(root):
            moved = history_dir(root) / path.name  # filed in the history meanwhile
            if moved in listed or not moved.exists():
                continue
            path = moved
        try:
            save = load(path)
        except SaveError as exc:
            skipped(path, exc.reason)
            continue
        except Exception as exc:  # a bug of ours must not hide the other saves
            skipped(path, f"it could not be read ({type(exc).__name__})")
            continue
        out.append(SaveInfo(path, save.game_id, save.game, save.mode,
                            tuple(s.name for s in save.seats), len(save.log), save.finished,
                            save.updated, save.result))
    out.sort(key=lambda info: info.updated, reverse=True)
    return out


def settle(root: str | os.PathLike[str] | None = None) -> list[Path]:
    """File in the history every game in the unfinished saves whose journal ends with
    its last action (a host stopped after telling the end, before filing the game:
    the end was durable in the journal first). Only such journals are read through;
    a save that cannot be read is left to ``list_saves`` to report. Best effort: what
    cannot be moved stays, and is said in the log."""
    moved: list[Path] = []
    for path in _files(saves_dir(root)):
        if not _ends_the_game(journal_path(path)):
            continue
        try:
            save = load(path)
            if not save.finished:
                continue
            session = rebuild(save)  # the end is what the moves give, not what a line says
            result = session.result
            if result is None:
                raise SaveError("its moves do not end the game")
            moved.append(archive(path, dataclasses.replace(
                save, state=plain(session.state), journaled=0, result=result.to_wire())))
        except (SaveError, OSError) as exc:
            log.warning("could not file %s in the history: %s", path,
                        getattr(exc, "reason", None) or exc)
    return moved


def _ends_the_game(journal: Path) -> bool:
    """Whether the last whole line of ``journal`` holds the game's end (a quick look at
    its tail; ``load`` checks it all)."""
    try:
        with open(journal, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - 64 * 1024))
            tail = f.read()
    except OSError:
        return False
    lines = tail.split(b"\n")
    return len(lines) >= 2 and b'"over":' in lines[-2]


def newest_unfinished(root: str | os.PathLike[str] | None = None,
                      skipped: Skipped | None = None) -> Path:
    """The most recently played game that has not finished; SaveError if none."""
    unfinished = [i for i in list_saves(root, skipped) if not i.finished]
    if not unfinished:
        raise SaveError(f"There is no unfinished game to resume in {saves_dir(root)}.")
    return unfinished[0].path


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
