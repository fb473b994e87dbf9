"""The game this window just played, kept for the end screen's "Replay" and the list.

At each game's end the window keeps the audit this laptop received: in memory,
for "Replay" now, and in ``audits/`` of the data directory (written off the
event loop), so the game can be replayed later even by a player who did not
host it.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any

from lanplay.replay import files
from lanplay.replay.model import Replay, ReplayError
from protocol.messages import Audit
from ui.words.i18n import _

log = logging.getLogger(__name__)

Spawn = Callable[[Coroutine[Any, Any, Any]], Any]


class LastGame:
    """The game this window just played, for "Replay" now and the list later."""

    def __init__(self) -> None:
        self.record: dict[str, Any] | None = None
        self.path: Path | None = None

    def keep(self, audit: Audit, seats: Sequence[Mapping[str, Any]], you: int | None,
             result: Mapping[str, Any] | None, verdict: str, host: str,
             root: str | os.PathLike[str] | None, spawn: Spawn) -> None:
        """Note the game's audit; write it into the data directory in a worker thread
        (unless it is larger than any game's: ``files.KEEP_BYTES``)."""
        self.record = files.audit_record(audit, seats, you, result, verdict, host)
        self.path = None
        record = self.record

        async def write() -> None:
            try:
                path = await asyncio.to_thread(files.keep_audit, audit, seats, you, result,
                                               verdict, host, root,
                                               record["head"]["saved"])
            except OSError as exc:  # the game is over: a full disk costs only the replay
                log.warning("Could not keep this game for replays (%s).",
                            exc.strerror or exc)
                return
            if self.record is record:
                self.path = path

        spawn(write())

    def replay(self) -> Replay:
        """The game just played; ReplayError if there is none or it does not replay."""
        if self.record is None:
            raise ReplayError(_("There is no finished game to replay yet."))
        title = _("The game just played")
        return Replay(files.from_record(self.record, title), title)
