"""One TCP connection carrying protocol frames, for both host and peer.

The only place that touches asyncio streams: it feeds received bytes to a
``FrameReader`` and writes encoded messages. Frame counts and byte counts are
kept here so selfplay and the benchmark report what crossed the wire, and an
optional recorder sees every raw frame body in order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import replace

from protocol.codec import FROM_HOST, MAX_FRAME, FrameReader, Limits, encode, frame
from protocol.messages import Message

READ_CHUNK = 64 * 1024
MAX_WRITE_BUFFER = 8 * MAX_FRAME
"""A peer that lets more than this pile up unread is too slow and is dropped."""


class LinkClosed(Exception):
    """The other side closed the connection (or it was lost)."""


class Link:
    """``limits`` bound what is read and decoded; they may change between frames
    (``HANDSHAKE`` until the welcome, then ``FROM_HOST`` or ``FROM_CLIENT``).
    ``max_frame`` bounds what is sent, and what is read when no ``limits`` are
    given (``FROM_HOST`` with that frame size)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 max_frame: int = MAX_FRAME,
                 recorder: Callable[[bytes], None] | None = None,
                 limits: Limits | None = None) -> None:
        self._reader = reader
        self._writer = writer
        self._frames = FrameReader(limits=limits or replace(FROM_HOST, frame=max_frame))
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

    @property
    def limits(self) -> Limits:
        return self._frames.limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        """Takes effect from the next frame, even one already received."""
        self._frames.limits = limits

    async def recv(self) -> Message:
        """The next message; ProtocolError on bad input, LinkClosed at the end."""
        return self.decode(await self.recv_body())

    async def recv_body(self) -> bytes:
        """The next frame body, not yet decoded: whoever reads may charge for it
        first (a rate limit), then ``decode`` it. Bytes are read only while no
        whole frame is waiting, so at most one frame and one read are buffered."""
        while (body := self._frames.next_body()) is None:
            data = await self._reader.read(READ_CHUNK)
            if not data:
                raise LinkClosed("connection closed")
            self._frames.push(data)
        self.frames_in += 1
        self.bytes_in += len(body) + 4
        self.largest_in = max(self.largest_in, len(body) + 4)
        if self.recorder is not None:
            self.recorder(body)
        return body

    def decode(self, body: bytes) -> Message:
        """A body from ``recv_body`` as a message, under this link's limits."""
        return self._frames.decode(body)

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
                    recorder: Callable[[bytes], None] | None = None,
                    limits: Limits = FROM_HOST) -> Link:
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, limit=MAX_FRAME), timeout)
    sock = writer.get_extra_info("socket")
    if sock is not None:
        import socket

        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return Link(reader, writer, recorder=recorder, limits=limits)
