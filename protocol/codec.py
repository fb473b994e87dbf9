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

from protocol.messages import Message, ProtocolError, check_plain, from_wire, to_wire

MAX_FRAME = 1 << 20
"""Largest frame body accepted (1 MiB); a longer length prefix is refused
before a byte of the body is buffered."""

_LEN = struct.Struct(">I")


def pack(data: Any) -> bytes:
    """Plain msgpack for ``data`` (str as str, bytes as bin, no ext types)."""
    return msgpack.packb(data, use_bin_type=True)  # type: ignore[no-any-return]


def unpack(body: bytes) -> Any:
    """Decode exactly one msgpack object in the wire subset, or raise ProtocolError.

    Refused: ext types (the timestamp ext included, which msgpack would
    otherwise decode itself), map keys that are not str, nesting deeper than
    MAX_DEPTH, invalid UTF-8 in a str, and bytes after the object.
    """
    try:
        data = msgpack.unpackb(body, raw=False, strict_map_key=True, ext_hook=_no_ext)
    except ProtocolError:
        raise
    except msgpack.ExtraData as exc:
        raise ProtocolError(f"a frame has {len(exc.extra)} bytes after its msgpack "
                            "object (one object per frame)") from exc
    except msgpack.StackError as exc:
        raise ProtocolError("a frame nests msgpack arrays and maps too deeply") from exc
    except msgpack.FormatError as exc:
        raise ProtocolError("a frame is not msgpack (reserved type byte)") from exc
    except UnicodeDecodeError as exc:
        raise ProtocolError("a msgpack str is not valid UTF-8") from exc
    except Exception as exc:  # msgpack raises plain ValueError and TypeError too
        raise ProtocolError(_explain(exc)) from exc
    check_plain(data)
    return data


def _explain(exc: Exception) -> str:
    text = str(exc)
    if "incomplete input" in text:
        return "a frame ends in the middle of a msgpack object"
    if "not allowed for map key" in text:
        return f"a map key must be str, not {text.split()[0]}"
    return f"a frame is not valid msgpack ({type(exc).__name__}: {text[:80]})"


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
    """The message in one frame body (length prefix already removed)."""
    return from_wire(unpack(body), checked=True)


class FrameReader:
    """Splits a byte stream into messages; one per connection.

    The first error breaks the reader for good: every later call raises
    ProtocolError too, because the stream position can no longer be trusted.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        self._broken: str | None = None
        self.frames = 0
        self.bytes = 0

    def feed(self, data: bytes) -> list[Message]:
        """Add bytes; return the messages they complete (maybe none).

        If one of the completed frames is bad, ProtocolError is raised and
        the good messages before it in the same call are dropped with it: the
        connection is closing anyway.
        """
        bodies = self.feed_frames(data)
        try:
            return [decode_body(body) for body in bodies]
        except ProtocolError as exc:
            self._broken = exc.reason
            raise

    def feed_frames(self, data: bytes) -> list[bytes]:
        """Like ``feed`` but returns raw frame bodies (recorders keep these).

        Only the framing is checked here; the bodies are not decoded.
        """
        if self._broken is not None:
            raise ProtocolError(f"connection already failed: {self._broken}")
        self._buf += data
        self.bytes += len(data)
        out: list[bytes] = []
        start = 0
        while len(self._buf) - start >= 4:
            (length,) = _LEN.unpack_from(self._buf, start)
            if length > self.max_frame:
                self._broken = (f"frame of {length} bytes is larger than the "
                                f"{self.max_frame} byte limit")
                del self._buf[:]
                raise ProtocolError(self._broken)
            if len(self._buf) - start < 4 + length:
                break
            out.append(bytes(self._buf[start + 4:start + 4 + length]))
            start += 4 + length
        del self._buf[:start]
        self.frames += len(out)
        return out

    @property
    def broken(self) -> str | None:
        """Why the reader failed, or None while it is healthy."""
        return self._broken

    @property
    def pending(self) -> int:
        """Bytes received that do not yet form a whole frame."""
        return len(self._buf)
