"""What the host's connection handling needs of a connection, whatever carries it.

A TCP ``Link`` (``lanplay.net.link``) and a browser's WebSocket (``WsLink``,
``lanplay.net.ws_link``) both give it: one message body in, one message body
out, the same limits, so the handshake, admission, rate bucket and views of
``lanplay.host.connections`` serve both alike.
"""

from __future__ import annotations

from typing import Protocol

from protocol.codec import Limits
from protocol.messages import Message


class Carrier(Protocol):
    peername: str
    closed: bool
    frames_in: int
    bytes_in: int
    frames_out: int
    bytes_out: int
    largest_in: int

    @property
    def limits(self) -> Limits: ...

    @limits.setter
    def limits(self, limits: Limits) -> None: ...

    async def recv(self) -> Message: ...

    async def recv_body(self) -> bytes: ...

    def decode(self, body: bytes) -> Message: ...

    def send(self, msg: Message) -> None: ...

    def send_body(self, body: bytes) -> None: ...

    async def close(self) -> None: ...

    def abort(self) -> None: ...

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...
