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
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanplay.fair.seed import Fairness, derive_seed, from_hex
from lanplay.replay.model import Finished, Player, Replay, ReplayError, result_text
from lanplay.store import durable, folders, saves
from lanplay.store.results import result_fault, saved_fault
from protocol.messages import Audit

AUDITS = "audits"
KIND = "lanplay audit"
"""The ``kind`` of a kept audit file (a history save has none)."""
FORMAT = 1
KEEP = 500
"""Audit files kept; the oldest go when there are more (a few KB each)."""
SUFFIX = ".json"


def audits_dir(root: str | Path | None = None) -> Path:
    return folders.data_dir(root) / AUDITS


# --- keeping a peer's audit -------------------------------------------------------------


def audit_record(audit: Audit, seats: Sequence[Mapping[str, Any]], you: int | None,
                 result: Mapping[str, Any] | None, verdict: str, host: str = "",
                 now: float | None = None) -> dict[str, Any]:
    """The kept file's content: the audit and what a list and a replay show with it."""
    return {
        "kind": KIND, "format": FORMAT, "saved": time.time() if now is None else now,
        "host": str(host), "you": you,
        "seats": [{"name": str(s.get("name", "")), "colour": str(s.get("colour", "")),
                   "bot": bool(s.get("bot"))} for s in seats],
        "result": dict(result) if result is not None else None, "verdict": verdict,
        "audit": {"game": audit.game, "rules": audit.rules, "mode": audit.mode,
                  "options": dict(audit.options), "secret": audit.secret,
                  "values": list(audit.values), "drawn": list(audit.drawn),
                  "log": list(audit.log)},
    }


def keep_audit(audit: Audit, seats: Sequence[Mapping[str, Any]], you: int | None,
               result: Mapping[str, Any] | None, verdict: str, host: str = "",
               root: str | Path | None = None, now: float | None = None) -> Path:
    """Write the audit this laptop received into its data directory; its path.
    OSError if the disk refuses (the game is over: nothing else depends on it)."""
    record = audit_record(audit, seats, you, result, verdict, host, now)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(record["saved"]))
    rules = re.sub(r"[^a-z0-9_-]", "", audit.rules.lower())[:30] or "game"
    secret = audit.secret[:12] if from_hex(audit.secret) is not None else "unchecked"
    folder = audits_dir(root)
    path = folder / f"{stamp}-{rules}-{secret}{SUFFIX}"
    durable.write_atomic(path, _json(record).encode())
    _prune(folder)
    return path


def _prune(folder: Path, keep: int = KEEP) -> None:
    found = sorted(_files(folder), key=lambda p: p.name)
    for path in found[:max(0, len(found) - keep)]:
        with contextlib.suppress(OSError):
            path.unlink()


# --- reading either kind -------------------------------------------------------------


def load(path: str | Path) -> Finished:
    """The finished game in a history save or a kept audit; ReplayError if it is not one."""
    where = Path(path)
    name = where.name
    try:
        raw = where.read_bytes()
    except OSError as exc:
        raise ReplayError(f"Cannot read {where} ({exc.strerror or exc}).") from None
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
        players=tuple(Player(s.name, s.colour, s.bot) for s in save.seats),
        log=tuple((e.seat, e.action) for e in save.log), result=save.result,
        played=save.started or save.updated, you=owner, host=save.host_name,
        secret=secret, kind="history", extra={"state": save.state})


def from_record(data: dict[str, Any], name: str = "This game") -> Finished:
    """The finished game of a kept audit's content (``audit_record``), checked as a file
    from a disk is (a window replays the game just played from it, before it is kept)."""
    damaged = f"{name} is a damaged audit"
    if data.get("format") != FORMAT:
        raise ReplayError(f"{name} was kept by another lanplay version; this one cannot "
                          f"replay it.")
    audit = data.get("audit")
    if not isinstance(audit, dict):
        raise ReplayError(f"{damaged}: it holds no game.")
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
        players=tuple(Player(str(s.get("name", "")), str(s.get("colour", "")),
                             bool(s.get("bot"))) for s in seats),
        log=tuple(moves), result=result,
        played=float(played) if isinstance(played, int | float) else 0.0, you=you,
        host=str(data.get("host", "")), verdict=str(data.get("verdict", "")),
        secret=secret.hex(), kind="audit")


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


def finished_games(root: str | Path | None = None) -> list[Listing]:
    """Every finished game of the history and the kept audits, newest first, each once;
    files that cannot be read as one are left out."""
    out: list[Listing] = []
    seen: set[str] = set()
    for path in [*_files(folders.history_dir(root)), *_files(audits_dir(root))]:
        try:
            f = load(path)
        except ReplayError:
            continue
        if f.secret and f.secret in seen:
            continue  # the host's window kept the audit of a game its history holds
        if f.secret:
            seen.add(f.secret)
        won = result_text(f.result, f.names, False) if f.result is not None else ""
        scores = result_text(f.result, f.names) if f.result is not None else ""
        out.append(Listing(path, f.kind, f.rules, f.mode, tuple(f.names), f.played, won,
                           scores, len(f.log), f.you, f.verdict, f.result))
    out.sort(key=lambda item: item.played, reverse=True)
    return out


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


__all__ = ["AUDITS", "KIND", "Listing", "audit_record", "audits_dir", "finished_games",
           "from_record", "keep_audit", "load", "open_replay"]
