"""``lanplay join --record``: the frames a peer receives, written as they come.

They were kept in a list until the game ended: a host sending frames without end grew
the bot without a limit (issue 23, finding 10). Each frame now goes to the file at
once, length-prefixed as ``selfplay --record`` writes them; the file takes its seat's
name when the game is over (the seat is known only after the welcome)."""

from __future__ import annotations

import struct
from pathlib import Path


class FrameRecorder:
    """Appends each received frame body to ``folder/recording.part``."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.part = folder / "recording.part"
        self._out = open(self.part, "wb")  # noqa: SIM115 (open for the whole game)
        self.count = 0
        self.written = 0

    def write(self, body: bytes) -> None:
        self._out.write(struct.pack(">I", len(body)))
        self._out.write(body)
        self._out.flush()  # on disk as it comes, not in this process's memory
        self.count += 1
        self.written += 4 + len(body)

    def finish(self, seat: int | None) -> Path:
        """Close the file and give it the seat's name; the path it now has."""
        self._out.close()
        name = f"peer-{seat}.frames" if seat is not None else "spectator.frames"
        target = self.folder / name
        self.part.replace(target)
        return target

    def discard(self) -> None:
        """Nothing to keep (the host refused us)."""
        self._out.close()
        self.part.unlink(missing_ok=True)


__all__ = ["FrameRecorder"]
