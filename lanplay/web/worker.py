"""Work the page's server must not do on the host's loop: one thread, a bound queue.

The loop is the room's: a ping, a move, a join all wait while it works. What costs
more than about a millisecond (reading a picture from disk, building a catalogue,
drawing a QR code) runs here instead, one job at a time, and when ``limit`` jobs
already wait a request is answered "busy" (503) at once rather than queued
without end: many requests cost their senders, never the loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

LIMIT = 16


class Busy(Exception):
    """The worker has ``limit`` jobs waiting: try again later."""


class Worker:
    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.waiting = 0
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="lanplay-web")

    async def run(self, job: Callable[[], T]) -> T:
        """``job()`` on the worker's thread; ``Busy`` when too many wait already."""
        if self.waiting >= self.limit:
            raise Busy
        self.waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, job)
        finally:
            self.waiting -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
