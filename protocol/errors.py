"""Why the other side's bytes are refused: the protocol's two errors.

Every check below the message layer (frames, the wire subset, fields) raises
``ProtocolError`` with a reason a person understands; ``UnknownType`` alone
leaves the stream readable."""

from __future__ import annotations


class ProtocolError(Exception):
    """The other side broke the protocol; ``reason`` says how, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnknownType(ProtocolError):
    """A well-formed message whose ``type`` this version does not know (a later
    version's, say). Unlike every other ProtocolError it leaves the stream intact:
    a receiver skips the message whole and reads on (docs/PROTOCOL.md, "Messages"),
    as it ignores a field it does not know."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"unknown message type {kind[:40]!r}")
        self.kind = kind[:40]
