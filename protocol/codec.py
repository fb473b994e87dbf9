"""Frames on the wire: a 4-byte big-endian length, then one msgpack map.

Sans-IO: ``encode`` turns a message into bytes to write, a ``FrameReader`` is
fed whatever bytes arrive (one at a time works) and hands back whole messages.
After any ``ProtocolError`` the reader is broken and its connection must be
closed, never reused: the stream position can no longer be trusted.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Any

import msgpack

from protocol.messages import (
    MAX_DEPTH,
    Message,
    ProtocolError,
    UnknownType,
    check_plain,
    from_wire,
    to_wire,
)

MAX_FRAME = 1 << 20
"""Largest frame body accepted (1 MiB); a longer length prefix is refused
before a byte of the body is buffered."""

HANDSHAKE_FRAME = 4096
"""Largest frame body before the handshake is done: a hello, challenge,
answer, welcome or refusal is a few hundred bytes."""

CLIENT_FRAME = 64 * 1024
"""Largest frame a client sends once admitted: its biggest message, a
picture request naming 256 hashes, is about 17 KiB."""

_LEN = struct.Struct(">I")


def _no_ext(code: int, data: bytes) -> Any:
    raise ProtocolError(f"msgpack extension type {code} is not allowed")


@dataclass(frozen=True)
class Limits:
    """What one frame may hold, checked while it is decoded.

    msgpack refuses a str, bin, array or map longer than its limit as soon as
    it reads the length, before allocating for it. Every map and array is
    counted as it is finished: more than ``containers`` of them, or more than
    ``items`` elements and map entries in all, stop the decoding at once. So
    a 1 MiB frame of a million empty maps costs what ten thousand do, and an
    array header claiming 4 billion items costs nothing. (Scalars are not
    counted one by one; each takes at least a byte of the frame.)
    """

    frame: int = MAX_FRAME
    str_len: int = 64 * 1024
    bin_len: int = 256 * 1024
    """A picture's largest size (it travels in chunks of 96 KiB)."""
    array_len: int = 2048
    map_len: int = 1024
    containers: int = 10_000
    """Maps and arrays in one frame; the biggest message, the offer of a pack
    with 500 pictures, questions, topics and cards, has about 3500."""
    items: int = 100_000
    uncounted: int = field(init=False, repr=False, compare=False)
    """A frame no longer than this cannot pass ``containers`` or ``items``."""
    args: dict[str, Any] = field(init=False, repr=False, compare=False)
    """msgpack's options for these limits."""
    no_bin_args: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        args = {"raw": False, "strict_map_key": True, "ext_hook": _no_ext,
                "max_str_len": self.str_len, "max_bin_len": self.bin_len,
                "max_array_len": self.array_len, "max_map_len": self.map_len}
        object.__setattr__(self, "uncounted", min(self.containers, self.items))
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "no_bin_args", {**args, "max_bin_len": 0, "max_ext_len": 0})


FROM_HOST = Limits()
"""What a peer accepts from its host once welcomed."""
FROM_CLIENT = replace(FROM_HOST, frame=CLIENT_FRAME)
"""What a host accepts from an admitted peer."""
HANDSHAKE = Limits(frame=HANDSHAKE_FRAME, str_len=HANDSHAKE_FRAME, bin_len=HANDSHAKE_FRAME,
                   array_len=64, map_len=64, containers=256, items=1024)
"""What either side accepts before the welcome."""


def pack(data: Any) -> bytes:
    """Plain msgpack for ``data`` (str as str, bytes as bin, no ext types)."""
    return msgpack.packb(data, use_bin_type=True)  # type: ignore[no-any-return]


def unpack(body: bytes, limits: Limits = FROM_HOST) -> Any:
    """Decode exactly one msgpack object in the wire subset, or raise ProtocolError.

    Refused: ext types (the timestamp ext included, which msgpack would
    otherwise decode itself), map keys that are not str, nesting deeper than
    MAX_DEPTH, invalid UTF-8 in a str, bytes after the object, and anything
    over ``limits`` (see ``Limits``).
    """
    if len(body) <= limits.uncounted:
        found = _unpack_small(body, limits)
        if found is not _AGAIN:
            return found
    containers = items = 0

    def count(node: Any) -> Any:
        nonlocal containers, items
        containers += 1
        items += len(node)
        if containers > limits.containers:
            raise ProtocolError(f"a frame holds more than {limits.containers} maps and "
                                f"arrays")
        if items > limits.items:
            raise ProtocolError(f"a frame holds more than {limits.items} array items and "
                                f"map entries")
        return node

    try:
        data = msgpack.unpackb(body, list_hook=count, object_hook=count, **limits.args)
    except Exception as exc:
        raise _refusal(exc) from exc
    if containers >= MAX_DEPTH or _bin_or_ext(body):
        check_plain(data)
    # Otherwise check_plain has nothing to find, and walking the tree to be told so
    # cost more than all the rest of decoding: no byte of the frame is a bin or ext
    # type byte, so no value is bin (no bytes map key either: strict_map_key leaves
    # only str) and none an ext (the timestamp ext msgpack decodes itself); and
    # fewer than MAX_DEPTH maps and arrays cannot nest MAX_DEPTH deep.
    return data


_AGAIN = object()


def _unpack_small(body: bytes, limits: Limits) -> Any:
    """``unpack`` for a frame too short to pass the limits on maps, arrays and items
    (each takes at least a byte): nothing to count, so no call back into Python for
    every map and array, most of the time decoding took. ``_AGAIN`` when the frame
    may hold a bin or an ext and the long way must see."""
    if _bin_or_ext(body):
        # A float's bytes often look like those type bytes: decoded with no room for
        # a bin or an ext, a frame that has neither decodes all the same (an empty
        # bin fits in no room: its bytes are looked for).
        if _EMPTY_BIN.search(body) is not None:
            return _AGAIN
        try:
            data = msgpack.unpackb(body, **limits.no_bin_args)
        except Exception:
            return _AGAIN
    else:
        try:
            data = msgpack.unpackb(body, **limits.args)
        except Exception as exc:
            raise _refusal(exc) from exc
    # Fewer bytes that could start a map or an array than MAX_DEPTH cannot nest it.
    if len(body) - len(body.translate(None, _CONTAINER_BYTES)) >= MAX_DEPTH \
            and _too_deep(data):
        check_plain(data)  # it says where
    return data


def _refusal(exc: Exception) -> ProtocolError:
    """What msgpack's complaint about a frame means, as the ProtocolError to raise."""
    if isinstance(exc, ProtocolError):
        return exc
    if isinstance(exc, msgpack.ExtraData):
        return ProtocolError(f"a frame has {len(exc.extra)} bytes after its msgpack "
                             "object (one object per frame)")
    if isinstance(exc, msgpack.StackError):
        return ProtocolError("a frame nests msgpack arrays and maps too deeply")
    if isinstance(exc, msgpack.FormatError):
        return ProtocolError("a frame is not msgpack (reserved type byte)")
    if isinstance(exc, UnicodeDecodeError):
        return ProtocolError("a msgpack str is not valid UTF-8")
    return ProtocolError(_explain(exc))  # msgpack raises plain ValueError and TypeError too


_BIN_OR_EXT_BYTES = bytes((*range(0xC4, 0xCA), *range(0xD4, 0xD9)))
"""The type bytes of bin 8/16/32, ext 8/16/32 and fixext 1-16: a frame with none of
these bytes anywhere holds no bin and no ext value."""
_EMPTY_BIN = re.compile(b"\xc4\x00|\xc5\x00\x00|\xc6\x00\x00\x00\x00")
_CONTAINER_BYTES = bytes(range(0x80, 0xA0)) + b"\xdc\xdd\xde\xdf"
"""The type bytes of fixmap, fixarray, array 16/32 and map 16/32."""


def _bin_or_ext(body: bytes) -> bool:
    return len(body.translate(None, _BIN_OR_EXT_BYTES)) != len(body)


def _too_deep(value: Any) -> bool:
    """Whether ``value`` nests maps and arrays MAX_DEPTH deep (``check_plain``'s
    limit), one level at a time: a loop per level and item, none per node."""
    level = [value] if type(value) is dict or type(value) is list else []
    for _ in range(MAX_DEPTH):
        items = chain(chain.from_iterable(n for n in level if type(n) is list),
                      chain.from_iterable(n.values() for n in level if type(n) is dict))
        level = [v for v in items if type(v) is list or type(v) is dict]
        if not level:
            return False
    return True


_TOO_LONG = re.compile(r"(\d+) exceeds max_(str|bin|array|map|ext)_len\((\d+)\)")
_WHAT = {"str": "a str of {} bytes", "bin": "a bin of {} bytes", "array": "an array of {} items",
         "map": "a map of {} entries", "ext": "an extension type of {} bytes"}


def _explain(exc: Exception) -> str:
    text = str(exc)
    too_long = _TOO_LONG.search(text)
    if too_long:
        size, kind, most = too_long.groups()
        return (f"a frame holds {_WHAT[kind].format(size)}; at most {most} "
                f"{'are' if kind in ('array', 'map') else 'is'} allowed")
    if "incomplete input" in text:
        return "a frame ends in the middle of a msgpack object"
    if "not allowed for map key" in text:
        return f"a map key must be str, not {text.split()[0]}"
    return f"a frame is not valid msgpack ({type(exc).__name__}: {text[:80]})"


PEEK_STEPS = 64
"""How many msgpack headers ``peek_id`` reads before it gives up."""

_FIXED = {0xc0: 1, 0xc2: 1, 0xc3: 1, 0xca: 5, 0xcb: 9, 0xcc: 2, 0xcd: 3, 0xce: 5, 0xcf: 9,
          0xd0: 2, 0xd1: 3, 0xd2: 5, 0xd3: 9}
"""Scalars of a fixed size: nil, false, true, float 32/64, uint 8-64, int 8-64."""
_SIZED = {0xc4: 1, 0xc5: 2, 0xc6: 4, 0xd9: 1, 0xda: 2, 0xdb: 4}
"""bin 8/16/32 and str 8/16/32: the bytes of their length after the type byte."""
_COUNTED = {0xdc: (2, 1), 0xdd: (4, 1), 0xde: (2, 2), 0xdf: (4, 2)}
"""array 16/32 and map 16/32: the bytes of their count, and values per count."""
_INTS = {0xcc: ">B", 0xcd: ">H", 0xce: ">I", 0xcf: ">Q",
         0xd0: ">b", 0xd1: ">h", 0xd2: ">i", 0xd3: ">q"}


def peek_id(body: bytes, steps: int = PEEK_STEPS) -> int:
    """The int under the top-level ``"id"`` key of the msgpack map in ``body``, read
    without decoding it, or 0.

    For a frame the rate limit refuses before decoding it: its ``rejected`` still
    names the intent it drops. Only headers are read, never a value built: a str
    or bin is skipped by its length, a map or array item by item, ``steps``
    headers at most (keys and values, every level counted). So it costs the same
    on any frame, and finds the id of any honest intent or control; it gives 0
    when the id comes after more than that, or when the bytes are not msgpack.
    Nothing here is trusted: whatever it returns is only echoed back.
    """
    at, budget = 0, [steps]
    try:
        first = body[0]
        if 0x80 <= first <= 0x8f:
            entries, at = first & 0x0f, 1
        elif first in (0xde, 0xdf):
            width = 2 if first == 0xde else 4
            entries, at = int.from_bytes(body[1:1 + width], "big"), 1 + width
        else:
            return 0
        for _ in range(entries):
            key = _str_at(body, at)
            at = _skip(body, at, budget)
            if key == b"id":
                return _int_at(body, at)
            at = _skip(body, at, budget)
    except (IndexError, ValueError, struct.error):
        pass
    return 0


def _str_at(body: bytes, at: int) -> bytes | None:
    """The bytes of the str whose header is at ``at`` when it is a short one, else None."""
    b = body[at]
    if 0xa0 <= b <= 0xbf:
        return body[at + 1:at + 1 + (b & 0x1f)]
    if b == 0xd9:
        return body[at + 2:at + 2 + body[at + 1]]
    return None


def _int_at(body: bytes, at: int) -> int:
    b = body[at]
    if b <= 0x7f:
        return b
    if b >= 0xe0:
        return b - 0x100
    fmt = _INTS.get(b)
    if fmt is None:
        return 0
    (value,) = struct.unpack_from(fmt, body, at + 1)
    return int(value)


def _skip(body: bytes, at: int, budget: list[int]) -> int:
    """Where the value whose header is at ``at`` ends; ValueError past the budget,
    IndexError past the end."""
    pending = 1
    while pending:
        budget[0] -= 1
        if budget[0] < 0:
            raise ValueError("out of steps")
        b = body[at]
        pending -= 1
        if b <= 0x7f or b >= 0xe0:
            at += 1
        elif b <= 0x8f:
            pending, at = pending + 2 * (b & 0x0f), at + 1
        elif b <= 0x9f:
            pending, at = pending + (b & 0x0f), at + 1
        elif b <= 0xbf:
            at += 1 + (b & 0x1f)
        elif b in _FIXED:
            at += _FIXED[b]
        elif b in _SIZED:
            width = _SIZED[b]
            at += 1 + width + int.from_bytes(body[at + 1:at + 1 + width], "big")
        elif b in _COUNTED:
            width, per = _COUNTED[b]
            pending += per * int.from_bytes(body[at + 1:at + 1 + width], "big")
            at += 1 + width
        else:  # ext types and the reserved byte: no frame the host would decode
            raise ValueError("not in the wire subset")
        if at > len(body):
            raise IndexError("past the end")
    return at


def frame(body: bytes, max_frame: int = MAX_FRAME) -> bytes:
    if len(body) > max_frame:
        raise ValueError(f"frame of {len(body)} bytes exceeds the {max_frame} byte limit")
    return _LEN.pack(len(body)) + body


def encode(msg: Message, max_frame: int = MAX_FRAME) -> bytes:
    """The bytes that carry ``msg`` (length prefix included)."""
    return frame(pack(to_wire(msg)), max_frame)


def decode_body(body: bytes, limits: Limits = FROM_HOST) -> Message:
    """The message in one frame body (length prefix already removed)."""
    return from_wire(unpack(body, limits), checked=True)


class FrameReader:
    """Splits a byte stream into messages; one per connection.

    ``limits`` (its ``frame`` is ``max_frame``) may change between frames:
    start with ``HANDSHAKE``, raise it once welcomed. Bytes are split into
    frames only as they are asked for (``next_body``), so a new limit applies
    to every frame not yet handed out, even one already received.

    The first error breaks the reader for good: every later call raises
    ProtocolError too, because the stream position can no longer be trusted.
    """

    def __init__(self, max_frame: int | None = None, limits: Limits = FROM_HOST) -> None:
        self.limits = limits if max_frame is None else replace(limits, frame=max_frame)
        self._buf = bytearray()
        self._start = 0
        self._broken: str | None = None
        self.frames = 0
        self.bytes = 0

    @property
    def max_frame(self) -> int:
        return self.limits.frame

    @max_frame.setter
    def max_frame(self, value: int) -> None:
        self.limits = replace(self.limits, frame=value)

    def feed(self, data: bytes) -> list[Message]:
        """Add bytes; return the messages they complete (maybe none).

        If one of the completed frames is bad, ProtocolError is raised and
        the good messages before it in the same call are dropped with it: the
        connection is closing anyway.

        A message of a type this version does not know is skipped (see
        ``UnknownType``): the frame was sound, so the stream reads on.
        """
        out: list[Message] = []
        for body in self.feed_frames(data):
            try:
                out.append(self.decode(body))
            except UnknownType:
                continue
        return out

    def feed_frames(self, data: bytes) -> list[bytes]:
        """Like ``feed`` but returns raw frame bodies (recorders keep these).

        Only the framing is checked here; the bodies are not decoded.
        """
        self.push(data)
        out: list[bytes] = []
        while (body := self.next_body()) is not None:
            out.append(body)
        return out

    def push(self, data: bytes) -> None:
        """Add received bytes without splitting them yet (see ``next_body``)."""
        if self._broken is not None:
            raise ProtocolError(f"connection already failed: {self._broken}")
        if self._start and self._start >= len(self._buf) // 2:
            del self._buf[:self._start]
            self._start = 0
        self._buf += data
        self.bytes += len(data)

    def next_body(self) -> bytes | None:
        """The next whole frame body, undecoded, or None until more bytes come.

        A length over ``max_frame`` is refused as soon as its 4 bytes are here.
        Undecoded, so whoever reads may first decide whether to spend the work
        of decoding it (a rate limit, say); ``decode`` then does it.
        """
        if self._broken is not None:
            raise ProtocolError(f"connection already failed: {self._broken}")
        start, buf = self._start, self._buf
        if len(buf) - start < 4:
            return None
        (length,) = _LEN.unpack_from(buf, start)
        if length > self.limits.frame:
            self._broken = (f"frame of {length} bytes is larger than the "
                            f"{self.limits.frame} byte limit")
            del buf[:]
            self._start = 0
            raise ProtocolError(self._broken)
        if len(buf) - start < 4 + length:
            return None
        body = bytes(buf[start + 4:start + 4 + length])
        self._start = start + 4 + length
        if self._start == len(buf):
            del buf[:]
            self._start = 0
        self.frames += 1
        return body

    def decode(self, body: bytes) -> Message:
        """``body`` decoded under this reader's limits; a bad one breaks the reader.

        ``UnknownType`` (a sound frame of a type this version does not know) does
        not: the caller skips that message and reads on."""
        try:
            return decode_body(body, self.limits)
        except UnknownType:
            raise
        except ProtocolError as exc:
            self._broken = exc.reason
            raise

    @property
    def broken(self) -> str | None:
        """Why the reader failed, or None while it is healthy."""
        return self._broken

    @property
    def pending(self) -> int:
        """Bytes received that do not yet form a whole frame."""
        return len(self._buf) - self._start
