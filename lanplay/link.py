"""One TCP connection carrying protocol frames, for both host and peer.

The only place that touches asyncio streams: it feeds received bytes to a
``FrameReader`` and writes encoded messages. Frame counts and byte counts are
kept here so selfplay and the benchmark report what crossed the wire, and an
optional recorder sees every raw frame body in order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable

from protocol.codec import MAX_FRAME, FrameReader, decode_body, encode, frame
from protocol.messages import Message

READ_CHUNK = 64 * 1024
MAX_WRITE_BUFFER = 8 * MAX_FRAME
"""A peer that lets more than this pile up unread is too slow and is dropped."""


class LinkClosed(Exception):
    """The other side closed the connection (or it was lost)."""


class Link:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 max_frame: int = MAX_FRAME,
                 recorder: Callable[[bytes], None] | None = None) -> None:
        self._reader = reader
        self._writer = writer
        self._frames = FrameReader(max_frame)
        self._inbox: deque[bytes] = deque()
        self.max_frame = max_frame
        self.recorder = recorder
        self.frames_in = 0
        self.bytes_in = 0
        self.frames_out = 0
        self.bytes_out = 0
        self.largest_in = 0
        self.closed = False
        peer = writer.get_extra_info("peername")
        self.peername = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    async def recv(self) -> Message:
        """The next message; ProtocolError on bad input, LinkClosed at the end."""
        while not self._inbox:
            data = await self._reader.read(READ_CHUNK)
            if not data:
                raise LinkClosed("connection closed")
            self._inbox.extend(self._frames.feed_frames(data))
        body = self._inbox.popleft()
        self.frames_in += 1
        self.bytes_in += len(body) + 4
        self.largest_in = max(self.largest_in, len(body) + 4)
        if self.recorder is not None:
            self.recorder(body)
        return decode_body(body)

    def send(self, msg: Message) -> None:
        self.send_raw(encode(msg, self.max_frame))

    def send_body(self, body: bytes) -> None:
        """Send an already packed message body (one encoding shared by many peers)."""
        self.send_raw(frame(body, self.max_frame))

    def send_raw(self, data: bytes) -> None:
        if self.closed or self._writer.is_closing():
            return
        transport = self._writer.transport
        if transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            self.abort()
            return
        self._writer.write(data)
        self.frames_out += 1
        self.bytes_out += len(data)

    async def drain(self) -> None:
        with contextlib.suppress(ConnectionError):
            await self._writer.drain()

    async def close(self) -> None:
        """Flush what was written, then close."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(ConnectionError, OSError):
            await asyncio.wait_for(self._writer.drain(), 2)
        self._writer.close()
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await asyncio.wait_for(self._writer.wait_closed(), 2)

    def abort(self) -> None:
        """Drop the connection at once, as a lost network would."""
        self.closed = True
        self._writer.transport.abort()

    def pause_reading(self) -> None:
        """Read nothing more until ``resume_reading`` (a sleeping laptop, in tests)."""
        self._writer.transport.pause_reading()  # type: ignore[attr-defined]

    def resume_reading(self) -> None:
        self._writer.transport.resume_reading()  # type: ignore[attr-defined]


async def open_link(host: str, port: int, timeout: float = 5.0,
                    recorder: Callable[[bytes], None] | None = None) -> Link:
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, limit=MAX_FRAME), timeout)
    sock = writer.get_extra_info("socket")
    if sock is not None:
        import socket

        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return Link(reader, writer, recorder=recorder)
