"""Finished games on disk: the host's history saves and the audits a player's laptop kept.

The host moves every finished game to ``saves/history/`` (``lanplay.store.saves``).
A laptop that only joined has the audit the host sent it at the end; the window
keeps it in ``audits/`` of its own data directory (``keep_audit``), with what a
replay and a list need beside it: the seats' names and colours, which seat this
laptop had, the result and what its check found. Both are JSON a person can
read; ``load`` tells them apart and refuses, in one sentence, a file that is
neither, is damaged, or holds a game that has not finished.

The same game can be on this laptop twice (a host's window keeps the audit its
own seat received): ``finished_games`` lists it once, by the host's secret.

A kept audit is at most ``KEEP_BYTES`` and the folder at most ``KEEP_TOTAL``: a
real game's audit is 2-25 KB, and a hostile host's 300-part audit was kept as a
292 MB file that Help -> Replays read whole (0.92 s, 861 MB) at every opening.
The file (format 2) begins with its head, all a list shows of it, so a list
reads a few KB of each file (``read_head``); a format-1 file is still read whole,
when it is no larger than a kept audit may be. An audit whose check failed is
kept with that verdict, and the list says so beside it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import stat
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanplay import names
from lanplay.fair.audit import VERIFIED
from lanplay.fair.seed import Fairness, derive_seed, from_hex
from lanplay.replay.model import Finished, Player, Replay, ReplayError, result_text
from lanplay.store import durable, folders, saves
from lanplay.store.results import result_fault, saved_fault
from protocol.messages import Audit

log = logging.getLogger(__name__)

AUDITS = "audits"
KIND = "lanplay audit"
"""The ``kind`` of a kept audit file (a history save has none)."""
FORMAT = 2
"""2: the head a list needs comes first (``HEAD_START``); 1 (still read) had no head."""
KEEP = 500
"""Audit files kept; the oldest go when there are more (a few KB each)."""
KEEP_BYTES = 4 * 1024 * 1024
"""The largest audit file kept (a real game's is 2-25 KB, a 20,000-move stuck game's
about 1.4 MB); a longer game is replayed from memory at its end, not kept."""
KEEP_TOTAL = 64 * 1024 * 1024
"""The most all kept audits take together; the oldest go first."""
HEAD_BYTES = 64 * 1024
"""The most of a file a list reads; a head must end within it (one is about 1 KB)."""
FIRST_READ = 4096
"""What a list reads of a file first: a head is mostly within it."""
HEAD_START = f'{{"kind":"{KIND}","format":{FORMAT},"head":'.encode()
"""How a format-2 file begins: its head follows at once."""
SMALLEST_ENTRY = 16
"""Fewer JSON bytes than any move takes (``[0,{"type":"x"}],``): a log of more than
``KEEP_BYTES // SMALLEST_ENTRY`` moves is not kept, unwritten."""
SUFFIX = ".json"


def audits_dir(root: str | os.PathLike[str] | None = None) -> Path:
    return folders.data_dir(root) / AUDITS


# --- keeping a peer's audit -------------------------------------------------------------


def audit_record(audit: Audit, seats: Sequence[Mapping[str, Any]], you: int | None,
                 result: Mapping[str, Any] | None, verdict: str, host: str = "",
                 now: float | None = None) -> dict[str, Any]:
    """The kept file's content: its head (what a list shows: the seats' names and
    colours, this laptop's seat, the result, the check's verdict, the game, its mode,
    moves and secret), then the audit (all a replay needs besides)."""
    head = {
        "saved": time.time() if now is None else now, "host": str(host), "you": you,
        "seats": [{"name": str(s.get("name", "")), "colour": str(s.get("colour", "")),
                   "bot": bool(s.get("bot"))} for s in seats],
        "result": dict(result) if result is not None else None, "verdict": verdict,
        "game": audit.rules, "mode": audit.mode, "moves": len(audit.log),
        "secret": audit.secret,
    }
    return {
        "kind": KIND, "format": FORMAT, "head": head,
        "audit": {"game": audit.game, "rules": audit.rules, "mode": audit.mode,
                  "options": dict(audit.options), "secret": audit.secret,
                  "values": list(audit.values), "drawn": list(audit.drawn),
                  "log": list(audit.log)},
    }


def keep_audit(audit: Audit, seats: Sequence[Mapping[str, Any]], you: int | None,
               result: Mapping[str, Any] | None, verdict: str, host: str = "",
               root: str | os.PathLike[str] | None = None,
               now: float | None = None) -> Path | None:
    """Write the audit this laptop received into its data directory; its path, or None
    when it is larger than any game's (``KEEP_BYTES``; said in the log). OSError if the
    disk refuses (the game is over: nothing else depends on it)."""
    if len(audit.log) > KEEP_BYTES // SMALLEST_ENTRY:
        log.warning("This game's audit (%d moves) is longer than any game's: it is not "
                    "kept for replays.", len(audit.log))
        return None
    record = audit_record(audit, seats, you, result, verdict, host, now)
    data = _encoded(record)
    head = len(_json(record["head"]).encode()) + len(HEAD_START)
    if data is None or head > HEAD_BYTES:
        log.warning("This game's audit (%d moves) is larger than any game's (%d MB): it "
                    "is not kept for replays.", len(audit.log), KEEP_BYTES // 2**20)
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(record["head"]["saved"]))
    rules = re.sub(r"[^a-z0-9_-]", "", audit.rules.lower())[:30] or "game"
    secret = audit.secret[:12] if from_hex(audit.secret) is not None else "unchecked"
    folder = audits_dir(root)
    path = folder / f"{stamp}-{rules}-{secret}{SUFFIX}"
    durable.write_atomic(path, data)
    _prune(folder)
    return path


ENCODE_MOVES = 2000
"""Moves encoded in one piece: a log too long to keep is refused once its pieces pass
``KEEP_BYTES`` (a 200,000-move one after 4 of its 9 MB, in 0.09 s instead of 0.27 s)."""


def _encoded(record: dict[str, Any]) -> bytes | None:
    """The record as JSON, the log a piece at a time; None once past ``KEEP_BYTES``."""
    moves = record["audit"]["log"]
    shell = _json({**record, "audit": {**record["audit"], "log": []}}).encode()
    end = b"]}}"
    assert shell.endswith(b'"log":[' + end)
    out = [shell[:-len(end)]]
    size = len(shell)
    for start in range(0, len(moves), ENCODE_MOVES):
        piece = _json(moves[start:start + ENCODE_MOVES]).encode()[1:-1]
        size += len(piece) + 1
        if size > KEEP_BYTES:
            return None
        out.append(b"," + piece if start else piece)
    out.append(end)
    return b"".join(out)


def _prune(folder: Path) -> None:
    """The newest ``KEEP`` files, within ``KEEP_TOTAL`` bytes, stay; and none larger
    than a kept audit may be (an earlier version kept a hostile host's 292 MB)."""
    keep, total = KEEP, KEEP_TOTAL
    sized: list[tuple[str, Path, int]] = []
    for path in _files(folder):
        with contextlib.suppress(OSError):
            sized.append((path.name, path, path.stat().st_size))
    sized.sort(reverse=True)
    held = 0
    for index, (_, path, size) in enumerate(sized):
        held += size
        if index >= keep or held > total or size > KEEP_BYTES:
            held -= size
            with contextlib.suppress(OSError):
                path.unlink()


# --- reading either kind -------------------------------------------------------------


def load(path: str | Path) -> Finished:
    """The finished game in a history save or a kept audit; ReplayError if it is not one."""
    where = Path(path)
    name = where.name
    try:
        raw, _ = durable.read_capped(where, "finished game")
    except OSError as exc:
        raise ReplayError(f"Cannot read {where} ({exc.strerror or exc}).") from None
    except durable.SaveError as exc:
        raise ReplayError(exc.reason) from None
    try:
        data = json.loads(raw, object_hook=_untag)
    except (ValueError, RecursionError):
        raise ReplayError(f"{name} is not a finished lanplay game: it is not a host's "
                          f"history save nor an audit a laptop kept (not even JSON).") from None
    if isinstance(data, dict) and data.get("kind") == KIND:
        return from_record(data, name)
    if isinstance(data, dict) and "game_id" in data and "log" in data:
        return _from_save(data, raw, name)
    raise ReplayError(f"{name} is not a finished lanplay game: it is not a host's history "
                      f"save nor an audit a laptop kept.")


def open_replay(path: str | Path) -> Replay:
    """The replay of the file at ``path``, checked; ReplayError says why there is none."""
    finished = load(path)
    name = Path(path).name
    replay = Replay(finished, name)
    dump = finished.extra.get("state")
    if finished.kind == "history" and dump is not None \
            and _roundtrip(saves.plain(replay.states[-1])) != dump:
        raise ReplayError(f"{name} is damaged: its moves do not give the table it saved "
                          f"(the file was edited, or the rules changed since).")
    return replay


def _from_save(data: dict[str, Any], raw: bytes, name: str) -> Finished:
    if data.get("format") != saves.FORMAT:
        raise ReplayError(f"{name} was saved by another lanplay version; this one cannot "
                          f"replay it.")
    try:
        save = saves.decode(raw, name)
    except saves.SaveError as exc:  # its sentence is for resuming: say it for a replay
        reason = exc.reason.replace("; it cannot be resumed here.", ".") \
            .replace("; it cannot be resumed.", ".").replace(" cannot be resumed here", " ")
        raise ReplayError(reason) from None
    if not save.finished:
        raise ReplayError(f"{name} is a game that has not finished (it stopped at move "
                          f"{save.state_id}); only a finished game can be replayed: resume "
                          f"it and play it to the end first.")
    for number, entry in enumerate(save.log, start=1):
        if entry.state_id != number:
            raise ReplayError(f"{name} is damaged: its move {number} is numbered "
                              f"{entry.state_id}.")
    secret = ""
    if save.fair is not None:
        try:
            fair = Fairness.from_save(save.fair, len(save.seats))
        except ValueError as exc:
            raise ReplayError(f"{name} is damaged ({exc}).") from None
        if fair.seed != save.seed:
            raise ReplayError(f"{name} is damaged: its seed is not the one its shuffle "
                              f"gives.")
        secret = fair.secret.hex()
    owner = next((i for i, s in enumerate(save.seats) if s.owner), None)
    return Finished(
        rules=save.game, mode=save.mode, options=dict(save.options), seed=save.seed,
        players=tuple(Player(names.clean(s.name), s.colour[:COLOUR], s.bot)
                      for s in save.seats),
        log=tuple((e.seat, e.action) for e in save.log), result=save.result,
        played=save.started or save.updated, you=owner,
        host=names.clean(save.host_name, HOST_NAME),
        secret=secret, kind="history", extra={"state": save.state})


def from_record(data: dict[str, Any], name: str = "This game") -> Finished:
    """The finished game of a kept audit's content (``audit_record``), checked as a file
    from a disk is (a window replays the game just played from it, before it is kept)."""
    damaged = f"{name} is a damaged audit"
    if data.get("format") not in (1, FORMAT):
        raise ReplayError(f"{name} was kept by another lanplay version; this one cannot "
                          f"replay it.")
    audit = data.get("audit")
    if not isinstance(audit, dict):
        raise ReplayError(f"{damaged}: it holds no game.")
    if data.get("format") == FORMAT:  # what a list showed of it must be the game's
        head = data.get("head")
        if not isinstance(head, dict):
            raise ReplayError(f"{damaged}: it has no head.")
        log = audit.get("log")
        if (head.get("game"), head.get("mode"), head.get("secret"), head.get("moves")) \
                != (audit.get("rules"), audit.get("mode"), audit.get("secret"),
                    len(log) if isinstance(log, list) else None):
            raise ReplayError(f"{damaged}: its head does not name the game it holds.")
        data = {**head, "audit": audit}
    rules, mode, options = audit.get("rules"), audit.get("mode"), audit.get("options")
    if not isinstance(rules, str) or not isinstance(mode, str) \
            or not isinstance(options, dict):
        raise ReplayError(f"{damaged}: the game, its mode or its options are missing.")
    secret = from_hex(audit.get("secret"))
    values = audit.get("values")
    parsed = [from_hex(v) for v in values] if isinstance(values, list) else []
    if secret is None or not parsed or any(v is None for v in parsed):
        raise ReplayError(f"{damaged}: the shuffle's secret or a contribution is not 32 "
                          f"bytes of hex.")
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != len(parsed) \
            or not all(isinstance(s, dict) for s in seats):
        raise ReplayError(f"{damaged}: it does not name a player for every contribution.")
    log = audit.get("log")
    if not isinstance(log, list):
        raise ReplayError(f"{damaged}: it holds no moves.")
    moves: list[tuple[int, dict[str, Any]]] = []
    for number, entry in enumerate(log, start=1):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
                and not isinstance(entry[0], bool) and isinstance(entry[1], dict)
                and isinstance(entry[1].get("type"), str)):
            raise ReplayError(f"{damaged}: move {number} is not a seat and an action.")
        moves.append((entry[0], entry[1]))
    result = data.get("result")
    if not isinstance(result, dict):
        raise ReplayError(f"{name} holds a game that had not finished when it was kept; "
                          f"only a finished game can be replayed.")
    fault = result_fault(result) or saved_fault(data.get("saved", 0.0))
    if fault is not None:
        raise ReplayError(f"{damaged}: {fault}.")
    you = data.get("you")
    if not (isinstance(you, int) and not isinstance(you, bool) and 0 <= you < len(seats)):
        you = None
    played = data.get("saved")
    return Finished(
        rules=rules, mode=mode, options=options,
        seed=derive_seed(secret, [v for v in parsed if v is not None]),
        players=tuple(_player(s) for s in seats),
        log=tuple(moves), result=result,
        played=float(played) if isinstance(played, int | float) else 0.0, you=you,
        host=_text(data.get("host"), HOST_NAME), verdict=_text(data.get("verdict"), VERDICT),
        secret=secret.hex(), kind="audit")


HOST_NAME = 60
"""Characters of a host's name kept, as a peer keeps a welcome's (``lanplay.peer.inbound``)."""
COLOUR = 64
VERDICT = 1000
"""Characters of a kept verdict (a real one is a sentence)."""


def _player(seat: Mapping[str, Any]) -> Player:
    """A seat of a kept file held to what the lobby allows a live one: its name cleaned
    and cut to ``names.MAX_NAME`` characters (a hostile host's 200,000-character name
    froze a window's replay for 14 s measuring it), its colour a short word."""
    return Player(_text(seat.get("name"), names.MAX_NAME), _text(seat.get("colour"), COLOUR),
                  bool(seat.get("bot")))


def _text(value: Any, most: int) -> str:
    """A text of a file, printable and at most ``most`` characters ("" if not a text)."""
    return names.clean(value[:most * 4], most) if isinstance(value, str) else ""


# --- the list ------------------------------------------------------------------------


@dataclass(frozen=True)
class Listing:
    """One finished game as a list of replays shows it."""

    path: Path
    kind: str
    """"history" (hosted on this laptop) or "audit" (this laptop played or watched)."""
    game: str
    mode: str
    players: tuple[str, ...]
    played: float
    result: str
    """Who won; ``scores`` says every score."""
    scores: str
    moves: int
    you: int | None
    verdict: str
    outcome: Mapping[str, Any] | None = None
    """The result itself (winners, scores, detail), so a window can say it in its
    language; ``result`` and ``scores`` are the English."""

    @property
    def failed(self) -> bool:
        """A kept audit whose check at the game's end did not pass (``verdict`` says
        why): a list says so beside its result."""
        return self.kind == "audit" and self.verdict not in ("", VERIFIED)


def finished_games(root: str | os.PathLike[str] | None = None) -> list[Listing]:
    """Every finished game of the history and the kept audits, newest first, each once;
    a file that cannot be read as one is left out, with a line in the log. Of a kept
    audit only its head is read (a few KB), not its moves."""
    out: list[Listing] = []
    seen: set[str] = set()
    found = [*((p, load) for p in _files(folders.history_dir(root))),
             *((p, read_head) for p in _files(audits_dir(root)))]
    for path, read in found:
        try:
            f = read(path)
        except ReplayError as exc:
            log.warning("Left out of the replays: %s", exc.reason)
            continue
        if f.secret and f.secret in seen:
            continue  # the host's window kept the audit of a game its history holds
        if f.secret:
            seen.add(f.secret)
        won = result_text(f.result, f.names, False) if f.result is not None else ""
        scores = result_text(f.result, f.names) if f.result is not None else ""
        out.append(Listing(path, f.kind, f.rules, f.mode, tuple(f.names), f.played, won,
                           scores, f.moves if isinstance(f, Head) else len(f.log), f.you,
                           f.verdict, f.result))
    out.sort(key=lambda item: item.played, reverse=True)
    return out


@dataclass(frozen=True)
class Head:
    """What a list shows of a kept audit, from its head (``finished_games``)."""

    rules: str
    mode: str
    players: tuple[Player, ...]
    result: Mapping[str, Any] | None
    played: float
    you: int | None
    verdict: str
    secret: str
    moves: int
    kind: str = "audit"
    log: tuple[Any, ...] = ()

    @property
    def names(self) -> list[str]:
        return [p.name or f"Seat {i + 1}" for i, p in enumerate(self.players)]


def read_head(path: Path) -> Finished | Head:
    """What a list shows of the kept audit at ``path``, reading at most ``HEAD_BYTES``
    of a format-2 file; a format-1 file, read whole when it is no larger than a kept
    audit may be (``load``). ReplayError if it is not one."""
    name = path.name
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ReplayError(f"Cannot read {path} ({exc.strerror or exc}).") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReplayError(f"{name} is not a file.")
        with os.fdopen(os.dup(fd), "rb") as file:
            start = file.read(FIRST_READ)
            if start.startswith(HEAD_START):
                head = _head(start)
                if head is None and len(start) == FIRST_READ:
                    head = _head(start + file.read(HEAD_BYTES - FIRST_READ))
                if head is None:
                    raise ReplayError(f"{name} is a damaged audit: its head cannot be "
                                      f"read within its first {HEAD_BYTES // 1024} KB.")
                return _from_head(head, name)
    except OSError as exc:
        raise ReplayError(f"Cannot read {path} ({exc.strerror or exc}).") from None
    finally:
        os.close(fd)
    if info.st_size > KEEP_BYTES:
        raise ReplayError(f"{name} is {info.st_size / 2**20:.0f} MB, larger than a kept "
                          f"audit may be ({KEEP_BYTES // 2**20} MB); it was not read.")
    return load(path)


def _head(raw: bytes) -> dict[str, Any] | None:
    """The head at the start of ``raw`` (None: it does not end within it)."""
    body = raw[len(HEAD_START):]
    try:
        text = body.decode()
    except UnicodeDecodeError as exc:  # a letter cut by the read's end, or not UTF-8
        if exc.start < len(body) - 3:
            return None
        text = body[:exc.start].decode()
    try:
        head, _ = json.JSONDecoder().raw_decode(text)
    except (ValueError, RecursionError):
        return None
    return head if isinstance(head, dict) else None


def _from_head(head: dict[str, Any], name: str) -> Head:
    """The head checked as ``from_record`` checks the whole (it checks the rest)."""
    damaged = f"{name} is a damaged audit"
    rules, mode, moves = head.get("game"), head.get("mode"), head.get("moves")
    if not isinstance(rules, str) or not isinstance(mode, str) or not isinstance(moves, int) \
            or isinstance(moves, bool) or moves < 0:
        raise ReplayError(f"{damaged}: its head names no game, mode and moves.")
    seats = head.get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, dict) for s in seats):
        raise ReplayError(f"{damaged}: its head names no players.")
    result = head.get("result")
    if not isinstance(result, dict):
        raise ReplayError(f"{name} holds a game that had not finished when it was kept; "
                          f"only a finished game can be replayed.")
    fault = result_fault(result) or saved_fault(head.get("saved", 0.0))
    if fault is not None:
        raise ReplayError(f"{damaged}: {fault}.")
    secret = from_hex(head.get("secret"))
    if secret is None:
        raise ReplayError(f"{damaged}: the shuffle's secret is not 32 bytes of hex.")
    you = head.get("you")
    if not (isinstance(you, int) and not isinstance(you, bool) and 0 <= you < len(seats)):
        you = None
    return Head(rules, mode, tuple(_player(s) for s in seats),
                result, float(head.get("saved", 0.0)), you,
                _text(head.get("verdict"), VERDICT), secret.hex(), moves)


def _files(folder: Path) -> Iterator[Path]:
    try:
        found = list(folder.iterdir())
    except OSError:
        return
    yield from (p for p in found if p.suffix == SUFFIX and not p.name.startswith(".")
                and p.is_file())


# --- JSON as the saves write it -------------------------------------------------------------


def _tag(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return {"$bytes": bytes(value).hex()}
    raise TypeError(f"{type(value).__name__} cannot be kept")


def _untag(obj: dict[str, Any]) -> Any:
    if len(obj) == 1 and isinstance(obj.get("$bytes"), str):
        try:
            return bytes.fromhex(obj["$bytes"])
        except ValueError:
            return obj
    return obj


def _json(value: Any) -> str:
    return json.dumps(value, default=_tag, ensure_ascii=False, separators=(",", ":"))


def _roundtrip(value: Any) -> Any:
    return json.loads(_json(value), object_hook=_untag)


__all__ = ["AUDITS", "KEEP_BYTES", "KIND", "Head", "Listing", "audit_record", "audits_dir",
           "finished_games", "from_record", "keep_audit", "load", "open_replay",
           "read_head"]
