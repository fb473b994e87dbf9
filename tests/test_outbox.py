"""The outbox: nothing is told before its write returned, in the order posted; a small
write runs on the loop while the disk is quick, anything else in a worker thread."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from lanplay.store import outbox
from lanplay.store.outbox import Outbox


def appender(path: Path, threads: list[int]) -> Callable[[str], Callable[[], None]]:
    """A write job per line: append it and fdatasync, noting which thread ran it."""
    def job(line: str) -> Callable[[], None]:
        def write() -> None:
            threads.append(threading.get_ident())
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, f"{line}\n".encode())
                os.fdatasync(fd)
            finally:
                os.close(fd)
        return write
    return job


def test_a_small_write_runs_on_the_loop_and_is_told_before_post_returns(
        tmp_path: Path) -> None:
    path, threads, told = tmp_path / "j", [], []
    write = appender(path, threads)

    async def main() -> None:
        box = Outbox()
        box.post(lambda: told.append("one"), write=write("one"), small=True)
        # written, synced and told on the spot: no thread, no loop turn
        assert told == ["one"] and path.read_text() == "one\n"
        assert threads == [threading.get_ident()]
        box.post(lambda: told.append("two"), write=write("two"))  # not small: a thread
        assert told == ["one"]
        await box.drain(5)
        assert told == ["one", "two"] and path.read_text() == "one\ntwo\n"
        assert threads[1] != threading.get_ident()
        assert (box.inline_writes, box.threaded_writes) == (1, 1)

    asyncio.run(main())


def test_a_small_write_waits_its_turn_behind_one_in_the_thread(tmp_path: Path) -> None:
    path, threads, told = tmp_path / "j", [], []
    write = appender(path, threads)

    async def main() -> None:
        box = Outbox()
        box.post(lambda: told.append("full"), write=write("full"))
        box.post(lambda: told.append("line"), write=write("line"), small=True)
        assert told == []  # the full save is not done: the line may not overtake it
        await box.drain(5)
        assert told == ["full", "line"] and path.read_text() == "full\nline\n"

    asyncio.run(main())


def test_a_failed_inline_write_holds_its_move_and_every_one_after_it(tmp_path: Path) -> None:
    held: list[list[Callable[[], None]]] = []
    told: list[str] = []

    def failing() -> None:
        raise OSError(28, "No space left on device")  # what the saver catches and notes

    async def main() -> None:
        box = Outbox(on_hold=held.append)
        first, second = (lambda: told.append("refused 1")), (lambda: told.append("refused 2"))
        ok = [False]
        box.post(lambda: told.append("one"), write=failing, small=True,
                 saved=lambda: ok[0], dropped=first)
        box.post(lambda: told.append("two"), write=lambda: None, small=True,
                 saved=lambda: True, dropped=second)
        await box.drain(5)
        assert told == [] and held == [[first, second]]

    asyncio.run(main())


def test_a_slow_inline_write_sends_the_next_ones_to_the_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, threads, told = tmp_path / "j", [], []
    write = appender(path, threads)
    monkeypatch.setattr(outbox, "INLINE_SLOW", -1.0)  # every write counts as slow

    async def main() -> None:
        box = Outbox()
        box.post(lambda: told.append("one"), write=write("one"), small=True)
        assert told == ["one"]  # that one ran inline, and was slow...
        box.post(lambda: told.append("two"), write=write("two"), small=True)
        assert told == ["one"]  # ...so this one goes to the worker thread
        await box.drain(5)
        assert told == ["one", "two"] and threads[1] != threading.get_ident()

    asyncio.run(main())

