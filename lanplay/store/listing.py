"""Which saved games lie on this laptop: the list Home and Resume show, the newest
unfinished game, and the games a stopped host left finished, filed in the history.

A file that cannot be read is passed over with a sentence, never a crash: one
damaged save must not hide the others.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanplay.store.durable import SaveError, journal_path
from lanplay.store.folders import history_dir, saves_dir
from lanplay.store.saves import SUFFIX, archive, load, plain, rebuild

log = logging.getLogger("lanplay.store.listing")


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
