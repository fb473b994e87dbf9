"""Bytes on disk that a crash cannot take back: whole files replaced atomically, a
journal appended line by line, and files read back with a size cap.

A whole file is written to a temporary file, flushed and fsynced, then moved
over the old one with ``os.replace``: a process killed at any moment (SIGKILL,
power loss) leaves either the previous file or the new one, never half of
one. A journal line is one write and one ``fdatasync``. ``Writer`` holds what
one game's save still needs on disk, in order, for the outbox to flush in a
worker thread. The folders are private to their user (0700), the files too
(0600): a save holds the seats' reconnect tokens.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger("lanplay.store.durable")

JOURNAL = ".journal"
"""The journal of a save is its file name with this appended."""
MAX_FILE = 16 * 1024 * 1024
"""A save or a journal larger than this is refused unread (a real one is well under
a mebibyte: a long game's log is a few hundred short lines)."""


class SaveError(Exception):
    """A save cannot be read or resumed; ``reason`` says why, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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


def read_capped(path: Path, what: str = "save", limit: int = MAX_FILE) -> tuple[bytes, float]:
    """A regular file's bytes and mtime, refused unread when larger than ``limit``
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
        if info.st_size > limit:
            raise SaveError(f"The {what} {path.name} is {_size(info.st_size)}, far too big "
                            f"for a lanplay {what} (at most {_size(limit)}); it was not "
                            f"read.")
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(info.st_size + 1)  # +1: a file that grew is seen to
    except OSError as exc:
        raise SaveError(f"Cannot read the {what} {path} ({exc.strerror or exc}).") from exc
    finally:
        os.close(fd)
    if len(data) > limit:
        raise SaveError(f"The {what} {path.name} grew past {_size(limit)} while being "
                        f"read; it was not used.")
    return data, info.st_mtime


def _size(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def archive_bytes(path: Path, data: bytes) -> Path:
    target = path.parent / "history" / path.name
    write_atomic(target, data)
    path.unlink(missing_ok=True)
    journal_path(path).unlink(missing_ok=True)
    _fsync_dir(path.parent)
    return target


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
