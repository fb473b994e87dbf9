"""Frames on the wire: a 4-byte big-endian length, then one msgpack map.

Sans-IO: ``encode`` turns a message into bytes to write, a ``FrameReader`` is
fed whatever bytes arrive (one at a time works) and hands back whole messages.
After any ``ProtocolError`` the reader is broken and its connection must be
closed, never reused: the stream position can no longer be trusted.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

from protocol.messages import Message, ProtocolError, from_wire, to_wire

MAX_FRAME = 1 << 20
"""Largest frame body accepted (1 MiB); a longer length prefix is refused
before a byte of the body is buffered."""

_LEN = struct.Struct(">I")


def pack(data: Any) -> bytes:
    """Plain msgpack for ``data`` (str as str, bytes as bin, no ext types)."""
    return msgpack.packb(data, use_bin_type=True)  # type: ignore[no-any-return]


def unpack(body: bytes) -> Any:
    """Decode one msgpack object strictly, refusing ext types and trailing data."""
    try:
        return msgpack.unpackb(body, raw=False, strict_map_key=True, ext_hook=_no_ext,
                               max_buffer_size=MAX_FRAME)
    except ProtocolError:
        raise
    except msgpack.ExtraData as exc:
        raise ProtocolError("a frame holds more than one msgpack object") from exc
    except Exception as exc:  # msgpack raises several unrelated types
        raise ProtocolError(f"a frame is not valid msgpack ({type(exc).__name__})") from exc


def _no_ext(code: int, data: bytes) -> Any:
    raise ProtocolError(f"msgpack extension type {code} is not allowed")


def frame(body: bytes, max_frame: int = MAX_FRAME) -> bytes:
    if len(body) > max_frame:
        raise ValueError(f"frame of {len(body)} bytes exceeds the {max_frame} byte limit")
    return _LEN.pack(len(body)) + body


def encode(msg: Message, max_frame: int = MAX_FRAME) -> bytes:
    """The bytes that carry ``msg`` (length prefix included)."""
    return frame(pack(to_wire(msg)), max_frame)


def decode_body(body: bytes) -> Message:
    return from_wire(unpack(body))


class FrameReader:
    """Splits a byte stream into messages; one per connection."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        self._broken: str | None = None
        self.frames = 0
        self.bytes = 0

    def feed(self, data: bytes) -> list[Message]:
        """Add bytes; return the messages they complete (maybe none)."""
        return [decode_body(body) for body in self.feed_frames(data)]

    def feed_frames(self, data: bytes) -> list[bytes]:
        """Like ``feed`` but returns raw frame bodies (recorders keep these)."""
        if self._broken is not None:
            raise ProtocolError(f"connection already failed: {self._broken}")
        self._buf += data
        self.bytes += len(data)
        out: list[bytes] = []
        while len(self._buf) >= 4:
            (length,) = _LEN.unpack_from(self._buf)
            if length > self.max_frame:
                self._broken = (f"frame of {length} bytes is larger than the "
                                f"{self.max_frame} byte limit")
                raise ProtocolError(self._broken)
            if len(self._buf) < 4 + length:
                break
            out.append(bytes(self._buf[4:4 + length]))
            del self._buf[:4 + length]
        self.frames += len(out)
        return out

    @property
    def pending(self) -> int:
        """Bytes received that do not yet form a whole frame."""
        return len(self._buf)
