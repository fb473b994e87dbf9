"""A peer: one connection to a host, keeping its own view current.

The same class serves a person's window, a bot and the tests. It applies
deltas to its view, asks for a snapshot the moment it sees a gap in
``state_id`` (never sitting on a stale view), answers heartbeats, and comes
back to its seat with its token when the connection drops. Whoever drives it
follows ``listeners`` (a window turns them into Qt signals) or awaits
``wait_until``.

The parts, one job each, build on ``PeerCore`` (``core``: the state every part
shares, how listeners are told): ``following`` (where the room is refereed, at which
term, who stands by), ``joining`` (the handshake: ``connect``, ``JoinError``),
``fairness`` (the audit checked in slices), ``receiving`` (each message of the
host's, checked, then applied). This module is the connection's life: the read
loop, coming back after a drop, closing; and what a player sends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from lanplay import messages
from lanplay.net.link import LinkClosed
from lanplay.peer.core import (
    CHAT_KEPT,
    MAX_CHAT,
    MAX_REASON,
    RECONNECT_FOR,
    REJECTIONS_KEPT,
    Done,
    Finder,
    HostBroke,
    Listener,
    Moving,
    Paused,
)
from lanplay.peer.fairness import CHECK_SLICE
from lanplay.peer.joining import MOVING, OLD_TERM, JoinError, Joining
from lanplay.peer.receiving import Receiving
from protocol.messages import Audit, Bye, Chat, Control, Intent, ProtocolError, UnknownType

__all__ = ["CHAT_KEPT", "CHECK_SLICE", "MAX_BACKOFF", "MAX_BROKEN", "MAX_CHAT", "MAX_REASON",
           "MOVING", "OLD_TERM", "RECONNECT_FOR", "REJECTIONS_KEPT", "RETRY_CODES", "STEADY",
           "Finder", "JoinError", "Listener", "Peer"]

RETRY_CODES = frozenset({"unreachable", "full", "timeout", "stopping", "standby", "moved",
                         "old_term", "moving"})
"""Refusals worth retrying while reconnecting: the host may be busy or restarting, its
deputy about to take over, or the room moving on to another laptop."""
MAX_BACKOFF = 1.5
MAX_BROKEN = 5
"""Connections in a row the host may break with bad frames before the peer gives up."""
STEADY = 30.0
"""Seconds a connection must last for its protocol error not to count as "in a row"."""

LOST = messages.msg("The connection to the host was lost.")


class Peer(Joining, Receiving):
    """One connection to a host; its state and shared steps are ``PeerCore``'s."""

    async def run(self) -> None:
        """Read until the host says goodbye or ``close`` is called; reconnect on drops.
        An audit still being checked then is finished first (cancelled on ``close``)."""
        try:
            await self._read()
            task = self._checking
            if task is not None and not self._closing:
                await asyncio.wait({task})
        finally:
            if self._checking is not None:
                self._checking.cancel()  # closed, or run itself cancelled

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        broken = 0  # connections in a row that ended in a protocol error, soon after
        while True:
            link = self.link
            if link is None:
                return
            since = loop.time()
            try:
                # One deadline moved on before each read: ``wait_for`` would start a
                # task for every frame, which cost a loop turn and a task each.
                async with asyncio.timeout(None) as deadline:
                    while True:
                        deadline.reschedule(loop.time() + self.dead_after)
                        try:
                            msg = await link.recv()
                        except UnknownType:  # a later version's message: skipped whole
                            continue
                        if isinstance(msg, Audit):
                            # Frames already buffered are read without a loop turn:
                            # whatever else the loop has to do (a window's redraw,
                            # other connections) goes first between parts.
                            await asyncio.sleep(0)
                        self._handle(msg)
            except HostBroke as broke:  # asking again would bring the same: leave
                self._count(link)
                self.link = None
                link.abort()
                self._finish(broke.reason)
                return
            except Done:
                self._count(link)
                self.link = None  # counted: stats() must not add it again
                self.changed.set()  # a bye: whoever waits on closed_reason must look
                await link.close()
                return
            except Paused:
                self._count(link)
                self.link = None
                await link.close()
            except Moving:  # the host said where the room goes: straight there
                self._count(link)
                self.link = None
                link.abort()
                self.witness.on_lost()
                if self._closing or not await self._reconnect(moving=True):
                    self._finish(self.closed_reason or self._say(LOST))
                    return
                continue
            except ProtocolError as exc:
                self._count(link)
                link.abort()
                self.link = None
                self.closed_reason = self._say(messages.msg(
                    "The host sent something this lanplay cannot use ({why}).",
                    why=exc.reason[:200]))
                # Coming straight back to a host that does it again would spin: wait
                # longer each time, and give up after a few in a row.
                broken = broken + 1 if loop.time() - since < STEADY else 1
                if broken >= MAX_BROKEN or self._closing:
                    self._finish(self.closed_reason)
                    return
                await asyncio.sleep(min(0.2 * 2 ** broken, MAX_BACKOFF))
            except (LinkClosed, ConnectionError, OSError, TimeoutError):
                self._count(link)
                link.abort()
                self.link = None
            self.witness.on_lost()
            if self._closing or not await self._reconnect():
                self._finish(self.closed_reason or self._say(LOST))
                return

    async def _reconnect(self, moving: bool = False) -> bool:
        """Get back in: a player to its seat with its token, a spectator as a spectator;
        where the room is (``home``) first, then its deputy, then where the LAN says a
        room of this id is refereed at a higher term (``finder``)."""
        if (not self.token and self.seat is not None) or self.reconnect_for <= 0:
            return False
        self._notify("reconnecting", self.paused)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_for
        delay = 0.0 if moving else 0.1
        while loop.time() < deadline and not self._closing:
            if delay:
                await asyncio.sleep(delay)
            delay = min(max(delay * 2, 0.1), MAX_BACKOFF)
            for target in await self._targets():
                if self._closing:
                    return False
                self.address, home = target, self.home
                try:
                    await self._handshake(timeout=2.0)
                except JoinError as exc:
                    if exc.code == "moved" and self.home != home:
                        delay = 0.0  # told of a new place for the room: go there at once
                        break
                    if exc.code not in RETRY_CODES and target == self.home:
                        # Refused for good (the seat is gone: a new room on that port):
                        # the pause it was waiting out is over too, and whoever keeps
                        # the seat (a window's kept seats) hears why.
                        self.closed_reason, self.paused = exc.reason, None
                        self._notify("refused", exc)
                        return False
                    continue
                self.closed_reason = self.paused = None
                self._notify("reconnected", None)
                return True
        return False

    async def close(self, reason: str = "") -> None:
        self._closing = True
        if self._checking is not None:
            self._checking.cancel()
        if self.link is not None:
            self.link.send(Bye(reason))
            await self.link.close()

    def drop(self) -> None:
        """Lose the connection abruptly, as a pulled cable would (for tests)."""
        if self.link is not None:
            self.link.abort()

    def doze(self) -> None:
        """Stop reading and answering, as a laptop whose lid closed (for tests).

        Nothing is sent or read until ``wake``; the host's heartbeats notice.
        """
        if self.link is not None:
            self.link.pause_reading()

    def wake(self) -> None:
        """Open the lid again: whatever the host did meanwhile now arrives."""
        if self.link is not None:
            self.link.resume_reading()

    # --- sending -----------------------------------------------------------------

    def intent(self, action: dict[str, Any]) -> int:
        """Send an action made against the current view; returns its id."""
        ident = next(self._ids)
        self.send(Intent(ident, self.state_id, action))
        return ident

    def control(self, command: str, **args: Any) -> int:
        ident = next(self._ids)
        self.send(Control(command, args, ident))
        return ident

    def say(self, text: str) -> None:
        self.send(Chat(text))

    async def wait_until(self, predicate: Callable[[Peer], bool], timeout: float) -> None:
        """Wait for ``predicate(self)``; TimeoutError if it does not come."""
        async with asyncio.timeout(timeout):
            while not predicate(self):
                self.changed.clear()
                await self.changed.wait()

    # --- stats -------------------------------------------------------------------

    def stats(self) -> dict[str, int]:
        frames, size, largest = self.frames_in, self.bytes_in, self.largest_frame
        if self.link is not None:
            frames += self.link.frames_in
            size += self.link.bytes_in
            largest = max(largest, self.link.largest_in)
        return {"frames": frames, "bytes": size, "largest_frame": largest}
