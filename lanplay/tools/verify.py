"""``lanplay verify FRAMES``: check a recorded peer offline (``lanplay.fair.record``).

Reads the frames a peer received (``selfplay --record``'s ``peer-N.frames``, or
``join --bot --record``'s), checks every audited game in it, prints one line
per game, and says with its exit status whether all of them add up.
"""

from __future__ import annotations

import struct
from pathlib import Path

from lanplay.fair.record import verify
from lanplay.names import printable

EXIT_VERIFIED = 0
EXIT_DIVERGES = 1


class RecordError(Exception):
    """The file is not a record of frames; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_frames(path: Path) -> list[bytes]:
    """The frame bodies of a record: each a 4-byte big-endian length, then the body."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path} ({exc.strerror or exc})") from exc
    bodies, at = [], 0
    while at < len(data):
        if len(data) - at < 4:
            raise RecordError(f"{path} ends inside a frame's length (byte {at})")
        (length,) = struct.unpack_from(">I", data, at)
        if len(data) - at - 4 < length:
            raise RecordError(f"{path} ends inside a frame (byte {at}, {length} bytes "
                              f"announced)")
        bodies.append(data[at + 4:at + 4 + length])
        at += 4 + length
    return bodies


def run_verify(path: Path) -> tuple[int, list[str]]:
    """The exit status and the lines to print for the record at ``path``."""
    verdicts = verify(read_frames(path))
    if not verdicts:
        return EXIT_DIVERGES, [f"{path}: no audited game in this record (the game did not "
                               f"finish, or the host sent no audit)."]
    lines = []
    for verdict in verdicts:
        if verdict.ok:
            lines.append(f"game {verdict.game}: verified ({verdict.moves} moves; "
                         f"{verdict.states} views compared with the replay)")
        else:
            where = "" if verdict.state_id is None else f"state {verdict.state_id}: "
            # the reason may quote what the record holds: nothing reaches the terminal raw
            lines.append(f"game {verdict.game}: {where}{printable(verdict.reason)}")
    status = EXIT_VERIFIED if all(v.ok for v in verdicts) else EXIT_DIVERGES
    if status == EXIT_VERIFIED:
        lines.append("verified")
    return status, lines
