"""Write-ahead for the host: what an action changes is told only once it is on disk.

After an accepted action the host posts the write that makes it durable (a
journal line, or now and then the full save: ``lanplay.store.durable.Writer``)
together with what peers are to be told (deltas, the ``accepted``, a game
over). The write runs in a worker thread, so the event loop (pings, chat,
every other peer) never waits for the disk; only then are the messages sent,
in the order they were posted. So no peer ever hears of an action a crash or
a power cut could take back. Writes posted while one runs are coalesced (the
writer flushes everything queued at once), so a slow disk costs latency,
never throughput.

A small write (one journal line: a write and one ``fdatasync``, ~0.1-0.3 ms on
an SSD) may instead run *inline*, on the loop, when nothing is waiting: the
hand-off to a worker thread and back cost about as much as the write itself
(two thread wake-ups, a loop turn each way). The promise is the same, the
messages are still sent only once the write has returned. A disk that is slow
at it (an inline write over ``INLINE_SLOW`` seconds: a spinning disk, a USB
stick) sends the writes back to the worker thread for ``INLINE_PAUSE`` seconds,
so the loop never waits on such a disk more than once in a while.

A write can fail (a full disk). Each item may say how to tell that its
change is on disk (``saved``); after the writes, items are published in order
until the first one that is not saved, and that one and everything after it
are held back instead: their ``dropped`` callbacks go to ``on_hold``, which
decides what to do (the host undoes those moves and pauses). Nothing posted
after a held item is ever published out of order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass

log = logging.getLogger(__name__)

Job = Callable[[], None]

INLINE_SLOW = 0.002
"""An inline write that took longer than this (seconds) sends writes to the thread..."""
INLINE_PAUSE = 30.0
"""...for this long, then an inline write is tried again."""


@dataclass
class _Item:
    publish: Job
    key: Hashable | None
    write: Job | None
    saved: Callable[[], bool] | None = None
    dropped: Job | None = None


Hold = Callable[[list[Job]], None]
"""Told, on the event loop, that items were held back: their ``dropped`` callbacks."""


class Outbox:
    def __init__(self, on_hold: Hold | None = None) -> None:
        self.on_hold = on_hold
        self._queue: deque[_Item] = deque()
        self._busy = False
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self.closed = False
        self._threaded_until = 0.0
        """Before this (time.monotonic), even small writes go to the worker thread."""
        self.inline_writes = 0
        self.threaded_writes = 0

    def post(self, publish: Job, *, write: Job | None = None,
             key: Hashable | None = None, saved: Callable[[], bool] | None = None,
             dropped: Job | None = None, small: bool = False) -> None:
        """Run ``write`` (off the loop), then ``publish`` after everything posted before.

        With nothing to write and nothing waiting, ``publish`` runs at once.
        ``key`` names the file ``write`` replaces: of several waiting writes with
        the same key only the last runs. ``saved`` says, after the writes, whether
        this item's change is on disk; if not, it is held back (``dropped`` instead
        of ``publish``), and so is everything posted after it. ``small``: the write
        may run inline, on the loop, when nothing is waiting and the disk is quick.
        """
        if self.closed:
            return
        idle = not self._queue and not self._busy
        if write is None and idle:
            publish()
            return
        if write is not None and small and idle and self._inline_allowed():
            self._write_inline(write)
            if saved is None or saved():
                publish()
                return
            write = None  # it failed: the worker holds it, as after a failed write there
        self._queue.append(_Item(publish, key, write, saved, dropped))
        self._idle.clear()
        self._wake.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def _inline_allowed(self) -> bool:
        return time.monotonic() >= self._threaded_until

    def _write_inline(self, write: Job) -> None:
        started = time.monotonic()
        try:
            write()
        except Exception:  # the host logs its own I/O errors; this is a bug
            log.exception("a save failed")
        self.inline_writes += 1
        took = time.monotonic() - started
        if took > INLINE_SLOW:
            self._threaded_until = time.monotonic() + INLINE_PAUSE
            log.info("A save took %.1f ms on the event loop; saving in a worker thread "
                     "for the next %.0f s.", took * 1000, INLINE_PAUSE)

    async def drain(self, timeout: float) -> None:
        """Wait until everything posted so far has been written and published."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)

    async def close(self) -> None:
        """Publish nothing more (a write already running still finishes)."""
        self.closed = True
        self._queue.clear()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def abandon(self) -> None:
        """Like ``close`` but at once, for a host that dies on the spot."""
        self.closed = True
        self._queue.clear()
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue and not self.closed:
                batch = list(self._queue)
                self._queue.clear()
                self._busy = True
                writes = _newest_writes(batch)
                if writes:
                    self.threaded_writes += 1
                    try:
                        await asyncio.to_thread(_run_all, writes)
                    except Exception:  # the host logs its own I/O errors; this is a bug
                        log.exception("a save failed")
                held: list[_Item] = []
                for item in batch:
                    if self.closed:
                        return
                    if held or (item.saved is not None and not item.saved()):
                        held.append(item)
                        continue
                    try:
                        item.publish()
                    except Exception:  # one bad message must not stop all later ones
                        log.exception("publishing after a save failed")
                self._busy = False
                if held:
                    held.extend(self._queue)  # posted meanwhile: they build on the held
                    self._queue.clear()
                    self._hold([item.dropped for item in held if item.dropped is not None])
            if not self._queue:
                self._idle.set()

    def _hold(self, dropped: list[Job]) -> None:
        if self.on_hold is None:
            log.error("%d messages held back after a failed save, and no one to tell",
                      len(dropped))
            return
        try:
            self.on_hold(dropped)
        except Exception:
            log.exception("holding moves after a failed save failed")


def _newest_writes(batch: list[_Item]) -> list[Job]:
    """The writes of ``batch`` in order, each file written only by its last write."""
    last = {item.key: i for i, item in enumerate(batch) if item.write is not None}
    return [item.write for i, item in enumerate(batch)
            if item.write is not None and (item.key is None or last[item.key] == i)]


def _run_all(writes: list[Job]) -> None:
    for write in writes:
        write()
