"""One browser's WebSocket carrying protocol messages, as a TCP ``Link`` carries frames.

Each binary WebSocket message is one frame body (one msgpack map); the WebSocket's
own framing replaces the 4-byte length. The limits are the TCP link's: a body
longer than ``limits.frame`` (4 KiB before the welcome, 64 KiB after) is refused
before it is decoded, and decoding runs under the same ``Limits``. A text message
is a protocol error. Sending is synchronous, as on a ``Link``: the message is
framed by websockets' sans-IO protocol and written to the transport at once, and a
browser that lets more than ``MAX_WRITE_BUFFER`` pile up unread is dropped.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from lanplay.net.link import MAX_WRITE_BUFFER, LinkClosed
from protocol.codec import FROM_HOST, MAX_FRAME, Limits, decode_body, pack
from protocol.messages import Hello, Message, ProtocolError, UnknownType, Welcome, to_wire


class WsLink:
    def __init__(self, ws: ServerConnection, max_frame: int = MAX_FRAME,
                 recorder: Callable[[bytes], None] | None = None,
                 limits: Limits | None = None,
                 vouch: Callable[[str | None], bool] | None = None,
                 trusted: Callable[[], None] | None = None) -> None:
        self._ws = ws
        self._vouch = vouch
        self._trusted = trusted
        self._limits = limits or replace(FROM_HOST, frame=max_frame)
        self._broken: str | None = None
        self.max_frame = max_frame
        self.recorder = recorder
        self.frames_in = 0
        self.bytes_in = 0
        self.frames_out = 0
        self.bytes_out = 0
        self.largest_in = 0
        self.closed = False
        peer = ws.remote_address
        self.peername = (f"ws:{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) > 1
                         else f"ws:{peer}")

    @property
    def limits(self) -> Limits:
        return self._limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        self._limits = limits

    async def recv(self) -> Message:
        return self.decode(await self.recv_body())

    async def recv_body(self) -> bytes:
        """The next message's body, not yet decoded (see ``Link.recv_body``)."""
        if self._broken is not None:
            raise ProtocolError(f"connection already failed: {self._broken}")
        try:
            data = await self._ws.recv()
        except ConnectionClosed as exc:
            raise LinkClosed("connection closed") from exc
        if isinstance(data, str):
            self._broken = "a WebSocket message must be binary (one msgpack map), not text"
            raise ProtocolError(self._broken)
        if len(data) > self._limits.frame:
            self._broken = (f"frame of {len(data)} bytes is larger than the "
                            f"{self._limits.frame} byte limit")
            raise ProtocolError(self._broken)
        self.frames_in += 1
        self.bytes_in += len(data)
        self.largest_in = max(self.largest_in, len(data))
        if self.recorder is not None:
            self.recorder(data)
        return data

    def decode(self, body: bytes) -> Message:
        try:
            msg = decode_body(body, self._limits)
        except UnknownType:  # a sound message of a later version: skipped, not fatal
            raise
        except ProtocolError as exc:
            self._broken = exc.reason
            raise
        if isinstance(msg, Hello) and self._vouch is not None and self._vouch(msg.token):
            self._trust()  # a seat's token: its page comes back whatever the crowd
        return msg

    def _trust(self) -> None:
        """Tell the web server this connection is a person's (welcomed, or holding a
        seat's token): it is never closed to make room for a newcomer."""
        if self._trusted is not None:
            self._trusted()
            self._trusted = None

    def send(self, msg: Message) -> None:
        if isinstance(msg, Welcome):
            self._trust()
        self.send_body(pack(to_wire(msg)))

    def send_body(self, body: bytes) -> None:
        if len(body) > self.max_frame:
            raise ValueError(f"frame of {len(body)} bytes exceeds the {self.max_frame} "
                             f"byte limit")
        ws = self._ws
        if self.closed or ws.protocol.state is not State.OPEN or ws.transport.is_closing():
            return
        if ws.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            self.abort()
            return
        ws.protocol.send_binary(body)
        ws.send_data()
        self.frames_out += 1
        self.bytes_out += len(body)

    async def close(self) -> None:
        """The closing handshake (bounded by the server's close timeout), then close."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            await self._ws.close()

    def abort(self) -> None:
        self.closed = True
        self._ws.transport.abort()

    def pause_reading(self) -> None:
        self._ws.transport.pause_reading()

    def resume_reading(self) -> None:
        self._ws.transport.resume_reading()
