"""Saved games: written atomically after every accepted action, read back to resume.

A save holds what replays the game exactly (game, mode, options, seed, the
action log) plus what brings the room back (seats with their tokens, removed
tokens, the port peers remember) and a plain dump of the state for audit.
It is written to a temporary file, flushed and fsynced, then moved over the
old one with ``os.replace``: a host killed at any moment (SIGKILL, power loss)
leaves either the previous save or the new one, never half of one. Finished
games move to ``saves/history/`` with their result.

JSON, so a person can read a save (the audit); the only value JSON lacks, a
msgpack bin, is written as ``{"$bytes": "<hex>"}``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanplay import games
from lanplay.game import IllegalAction
from lanplay.session import LogEntry, Session

FORMAT = 1
"""Bumped on an incompatible change of the file layout."""
ENV = "LANPLAY_DATA_DIR"
SUFFIX = ".json"


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
    password: str | None = None
    base_seed: int | None = None
    games_played: int = 1
    result: dict[str, Any] | None = None
    started: float = 0.0
    updated: float = 0.0
    state: Any = None
    """A plain dump of the game state, for audit; resuming checks the replay against it."""

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
        if f.name not in ("log", "seats"):
            head[f.name] = getattr(save, f.name)
    head["seats"] = [dataclasses.asdict(s) for s in save.seats]
    cache = log_cache if log_cache is not None else []
    if len(cache) > len(save.log):
        cache.clear()
    for entry in save.log[len(cache):]:
        cache.append(_json({"seat": entry.seat, "action": entry.action,
                            "state_id": entry.state_id}))
    text = _json(head)
    return f'{text[:-1]},"log":[{",".join(cache)}]}}'.encode()


def decode(raw: bytes, where: str = "save") -> Save:
    try:
        data = json.loads(raw, object_hook=_untag)
        if not isinstance(data, dict):
            raise TypeError("not a map")
        if data.pop("format", None) != FORMAT:
            raise SaveError(f"{where} was written by another lanplay version; it cannot "
                            f"be resumed here.")
        data["seats"] = [SavedSeat(**s) for s in data["seats"]]
        data["log"] = [LogEntry(int(e["seat"]), e["action"], int(e["state_id"]))
                       for e in data["log"]]
        return Save(**data)
    except SaveError:
        raise
    except (ValueError, TypeError, KeyError) as exc:
        raise SaveError(f"{where} is not a lanplay save ({type(exc).__name__}: "
                        f"{str(exc)[:80]}).") from exc


# --- writing and reading ----------------------------------------------------------------


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` so that a crash leaves the old file or the new one.

    Temporary file in the same directory (so ``os.replace`` is a rename on one
    file system), flushed and fsynced before the rename, and the directory
    fsynced after it, so the rename itself survives a power loss. Mode 0600:
    a save holds the seats' reconnect tokens.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
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


def load(path: str | os.PathLike[str]) -> Save:
    where = Path(path)
    try:
        raw = where.read_bytes()
    except OSError as exc:
        raise SaveError(f"Cannot read the save {where} ({exc.strerror or exc}).") from exc
    return decode(raw, f"The file {where.name}")


def archive(path: Path, save: Save) -> Path:
    """Write the finished game into the history and remove it from the unfinished saves."""
    return archive_bytes(path, encode(save))


def archive_bytes(path: Path, data: bytes) -> Path:
    target = path.parent / "history" / path.name
    write_atomic(target, data)
    path.unlink(missing_ok=True)
    _fsync_dir(path.parent)
    return target


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
    if folder.is_dir():
        yield from (p for p in folder.iterdir()
                    if p.suffix == SUFFIX and not p.name.startswith(".") and p.is_file())


def list_saves(root: str | os.PathLike[str] | None = None) -> list[SaveInfo]:
    """Unfinished games and the history, newest first; unreadable files are skipped."""
    out: list[SaveInfo] = []
    for path in [*_files(saves_dir(root)), *_files(history_dir(root))]:
        try:
            save = load(path)
        except SaveError:
            continue
        out.append(SaveInfo(path, save.game_id, save.game, save.mode,
                            tuple(s.name for s in save.seats), len(save.log), save.finished,
                            save.updated, save.result))
    out.sort(key=lambda info: info.updated, reverse=True)
    return out


def newest_unfinished(root: str | os.PathLike[str] | None = None) -> Path:
    """The most recently played game that has not finished; SaveError if none."""
    unfinished = [i for i in list_saves(root) if not i.finished]
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
    try:
        session = Session(game, len(save.seats), save.mode, save.options, save.seed)
        for entry in save.log:
            reached = session.submit(entry.seat, entry.action)
            if reached != entry.state_id:
                raise SaveError(f"The saved log skips from state {reached - 1} to "
                                f"{entry.state_id}; it cannot be resumed.")
    except (ValueError, IllegalAction) as exc:
        reason = getattr(exc, "reason", str(exc))
        raise SaveError(f"The saved game does not replay ({reason}); it cannot be "
                        f"resumed.") from exc
    if session.state_id != save.state_id:
        raise SaveError(f"The saved game ends at state {save.state_id} but its log at "
                        f"{session.state_id}; it cannot be resumed.")
    if save.state is not None and _roundtrip(plain(session.state)) != save.state:
        raise SaveError("Replaying the saved moves does not give the saved table (the "
                        "rules changed since, or the file was edited); it cannot be "
                        "resumed.")
    return session


def _roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value, default=_tag), object_hook=_untag)
