"""This laptop's own check of each game's fairness, kept off the window's back.

The witness (``lanplay.fair.witness``) notes each game's shuffle and views as they
come and checks the host's audit at the game's end. Replaying a long game in one
piece froze a window for 16 s (200,000 moves), so the check runs here in slices of
``CHECK_SLICE`` seconds with a loop turn between them; its verdict is told as the
``audit`` event, and ``verdict`` holds the last one.
"""

from __future__ import annotations

import asyncio
import time

from lanplay.fair.audit import Verdict
from lanplay.fair.witness import Checking
from lanplay.peer.core import PeerCore

CHECK_SLICE = 0.005
"""Seconds of an audit's check between two turns of the event loop."""


class FairPlay(PeerCore):
    """The audit's check, a slice per loop turn (``run`` waits for it; ``close`` ends it)."""

    @property
    def verdict(self) -> Verdict | None:
        """This laptop's check of the last game's audit (None until it came)."""
        return self.witness.verdict

    def _check(self, job: Checking) -> None:
        """Check the whole audit in slices of ``CHECK_SLICE`` seconds, a loop turn
        between them: replaying a long game in one piece froze a window for 16 s
        (200,000 moves). A newer audit's check replaces an older one's."""
        if self._checking is not None:
            self._checking.cancel()

        async def slices() -> None:
            while job.step(time.perf_counter, CHECK_SLICE) is None:
                await asyncio.sleep(0)
            if not job.stale and job.verdict is not None:
                self._notify("audit", job.verdict)

        self._checking = asyncio.get_running_loop().create_task(slices())
