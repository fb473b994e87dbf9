"""Joining a room: the handshake, from the hello to the welcome.

A host, or whatever answers at its address, is not trusted: until the welcome only
small frames are decoded, and each answer is checked (``lanplay.peer.inbound``)
before it is read. A room that needs a password gets its proof, never the password;
a deputy standing by that says where the room is sends the peer there; a host the
room has moved on from (a lower term) is left. Whatever stops the join is a
``JoinError`` whose code a window or the reconnect loop acts on.
"""

from __future__ import annotations

import asyncio
import time

from lanplay import admission, messages
from lanplay.net.link import LinkClosed, open_link
from lanplay.peer import inbound
from lanplay.peer.following import Following
from protocol.codec import FROM_HOST, HANDSHAKE
from protocol.messages import (
    PROTOCOL_VERSION,
    Answer,
    Challenge,
    Hello,
    Moved,
    ProtocolError,
    Refused,
    Welcome,
)

MOVING = messages.msg("The room is moving to another laptop.")
OLD_TERM = messages.msg("That laptop refereed this room before; the room has moved on.")


class JoinError(Exception):
    """The host could not be reached or refused us; ``reason`` says why.

    ``code`` is the host's refusal code, "unreachable" when there was no host
    to talk to, or "password" when the room needs a password we lack (a
    window then asks for it).
    """

    def __init__(self, reason: str, code: str = "unreachable") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class Joining(Following):
    """Getting in: ``connect``, and the handshake the reconnect loop repeats."""

    async def connect(self, host: str, port: int, timeout: float = 5.0) -> Welcome:
        """Open the connection and pass the hello; JoinError if refused. A deputy
        standing by that says where the room is sends the peer there (once or twice)."""
        self.address = self.home = (host, port)
        for _ in range(2):
            try:
                return await self._handshake(timeout)
            except JoinError as exc:
                if exc.code != "moved":
                    raise
            self.address = self.home
        return await self._handshake(timeout)

    async def _handshake(self, timeout: float) -> Welcome:
        assert self.address is not None
        host, port = self.address
        try:
            # Small frames until welcomed: a hostile "host" gets nothing bigger decoded.
            link = await open_link(host, port, timeout, recorder=self.recorder,
                                   limits=HANDSHAKE)
        except (OSError, TimeoutError) as exc:
            raise JoinError(self._say(messages.msg(
                "Could not reach {address} ({why}). Check the address and that the host is "
                "running.", address=f"{host}:{port}", why=_why(exc)))) from exc
        link.send(Hello(PROTOCOL_VERSION, self.name, self.colour, self.token,
                        self.spectate, self.bot))
        try:
            first = await asyncio.wait_for(link.recv(), timeout)
            if isinstance(first, Challenge):
                inbound.check(first, None, None)
                if not self.password:
                    link.abort()
                    self._count(link)
                    raise JoinError(self._say(messages.msg(
                        "This room needs a password; ask the host for it.")), "password")
                link.send(Answer(admission.proof(self.password, first.nonce, first.salt)))
                first = await asyncio.wait_for(link.recv(), timeout)
            if isinstance(first, Refused | Welcome | Moved):
                first = inbound.check(first, None, None)
        except inbound.Fault as fault:
            link.abort()
            self._count(link)
            raise JoinError(self._say(fault.sentence)) from None
        except (LinkClosed, ConnectionError, TimeoutError, ProtocolError) as exc:
            link.abort()
            self._count(link)
            raise JoinError(self._say(messages.msg(
                "{address} did not answer like a lanplay host.", address=f"{host}:{port}"))
            ) from exc
        if isinstance(first, Refused):
            await link.close()
            self._count(link)
            raise JoinError(self.heard(first.message, first.reason), first.code[:40])
        if isinstance(first, Moved):  # a deputy standing by: the room is still there
            link.abort()
            self._count(link)
            if not self._follow(first, at_least=True):
                raise JoinError(self._say(messages.msg(
                    "{address} did not answer like a lanplay host.",
                    address=f"{host}:{port}")))
            raise JoinError(self._say(MOVING), "moved")
        if isinstance(first, Welcome) and self.room and first.room == self.room \
                and first.term < self.term:  # a host the room has moved on from
            link.abort()
            self._count(link)
            raise JoinError(self._say(OLD_TERM), "old_term")
        if not isinstance(first, Welcome):
            link.abort()
            raise JoinError(self._say(messages.msg(
                "{address} did not answer like a lanplay host.", address=f"{host}:{port}")))
        link.limits = FROM_HOST  # from the frame after the welcome on
        self.link = link
        self.heard_at = time.monotonic()
        self.seat, self.token, self.owner = first.seat, first.token or None, first.owner
        self.host_name, self.game_id = first.host_name, first.game
        newer = bool(self.room) and first.room == self.room and first.term > self.term
        if first.room != self.room or newer:
            self.deputy = None  # a new host names its own
        self.room, self.term, self.home = first.room, first.term, (host, port)
        self._notify("welcome", first)
        if newer:
            self._refereed(first.host_name)
        return first


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    return str(exc.strerror or exc) if isinstance(exc, OSError) else str(exc)

