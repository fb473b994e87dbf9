"""The host's deputy: a copy of the room, and each move before any peer hears of it.

``Stream`` is the host's side of the one connection of its deputy. The room's copy
(``lanplay.store.roomcopy``) goes to it whole when it is named and whenever the
copy's head changes (seats, the game, its start and its end); each move goes as the
journal lines the host writes for it (a ``Journal``), in order, on that connection.
What the peers are to be told of a move waits (``move`` wraps the publish) until
the deputy has acknowledged it, so no move any peer saw can be missing from the
deputy's copy when the host then dies.

Bounded: at most ``MOST_WAITING`` sends unanswered and none for longer than ``wait``
seconds; past either the deputy is dropped (``lost``), whatever waited is told at
once, and the host goes on without a deputy, saying so. A deputy that never answers
costs the game ``wait`` seconds once, never the host.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Protocol

from lanplay.host.peers import Conn
from lanplay.session import Session
from lanplay.store import saves
from protocol.messages import Journal, RoomPart

Job = Callable[[], None]
"""What peers are told of a change, once it may be (``lanplay.host.saving``'s)."""

PART = 192 * 1024
"""Bytes of the copy in one ``room_part`` (a peer decodes bins up to 256 KiB)."""
MOST_WAITING = 512
"""Sends the deputy may leave unanswered before it is dropped."""



class Source(Protocol):
    """The room as the host holds it (``lanplay.host.handover``)."""

    def key(self) -> Hashable:
        """What the copy's head holds, cheaply (a new copy goes when it changes)."""
        ...

    def blob(self) -> bytes:
        """The whole copy's bytes (``lanplay.store.roomcopy.join``)."""
        ...

    def ident(self) -> tuple[str, int]:
        """The room's id and term."""
        ...


def send_copy(conn: Conn, role: str, room: str, term: int, seq: int, data: bytes) -> None:
    """The copy in parts, each within what a peer decodes; the last one carries ``seq``."""
    total = max(1, -(-len(data) // PART))
    for index in range(total):
        chunk = data[index * PART:(index + 1) * PART]
        conn.link.send(RoomPart(role, room, term, seq, index, total, chunk))


class Stream:
    """One deputy's connection: what it was sent, what it answered, what waits on it."""

    def __init__(self, conn: Conn, wait: float, lost: Callable[[str], None]) -> None:
        """``lost(why)``: "silent" (no answer within ``wait``) or "behind" (too many)."""
        self.conn = conn
        self.wait = wait
        self._lost = lost
        self.seq = 0
        self.acked = 0
        self.closed = False
        self._sent: deque[tuple[int, float]] = deque()
        self._held: deque[tuple[int, Job]] = deque()
        self._timer: asyncio.TimerHandle | None = None
        self.key: Hashable = None
        """What the last copy's head held (a new copy goes when it changes)."""
        self.state_id = -1
        """The game's state the deputy holds (-1: no game)."""

    def sent(self) -> int:
        """One more send: its number, and the clock on it."""
        self.seq += 1
        self._sent.append((self.seq, time.monotonic()))
        if len(self._sent) > MOST_WAITING:
            self._lost("behind")
        else:
            self._arm()
        return self.seq

    def gate(self, seq: int, publish: Job) -> Job:
        """``publish``, run once the deputy has everything up to ``seq`` (and after
        whatever waits before it)."""
        def job() -> None:
            if self.closed or (not self._held and self.acked >= seq):
                publish()
            else:
                self._held.append((seq, publish))
        return job

    def ack(self, seq: int) -> None:
        if seq <= self.acked or seq > self.seq:
            return
        self.acked = seq
        while self._sent and self._sent[0][0] <= seq:
            self._sent.popleft()
        while self._held and self._held[0][0] <= seq:
            self._held.popleft()[1]()

    def close(self) -> None:
        """No more waiting on this deputy: everything held is told now, in order."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        held, self._held = self._held, deque()
        for _, publish in held:
            publish()

    def _arm(self) -> None:
        if self._timer is None and not self.closed:
            self._timer = asyncio.get_running_loop().call_later(self.wait, self._check)

    def _check(self) -> None:
        self._timer = None
        if self.closed or not self._sent:
            return
        left = self._sent[0][1] + self.wait - time.monotonic()
        if left <= 0:
            self._lost("silent")
            return
        self._timer = asyncio.get_running_loop().call_later(left, self._check)


class Mirror:
    """The copy kept in step with the room (``lanplay.host.saving.Mirror``): the whole
    copy when its head changed (the game's id is in it), else the new moves as journal
    lines, the very ones the host's own journal gets."""

    def __init__(self, stream: Stream, source: Source) -> None:
        self.stream = stream
        self.source = source
        self._cache: list[str] = []

    def sync(self, session: Session | None, lines: list[str] | None = None) -> int:
        """Send what the deputy lacks of the room now; the number to wait for. ``lines``:
        the journal lines of the game's log so far, when the saver made them already."""
        stream = self.stream
        if stream.closed:
            return stream.seq
        key = self.source.key()
        state = session.state_id if session is not None else -1
        if key != stream.key or state < stream.state_id:
            return self._whole(key, session)
        if session is None or state == stream.state_id:
            return stream.seq
        at = stream.state_id
        log = session.log
        cache = lines if lines is not None and len(lines) >= state else self._cache
        if cache is self._cache:
            cache.extend(saves.entry_json(e) for e in log[len(cache):])
        lines = cache[at:state]
        if session.result is not None and lines:
            lines = [*lines[:-1], saves.last_entry_json(log[-1], session.result.to_wire())]
        stream.state_id = session.state_id
        room, term = self.source.ident()
        seq = stream.sent()
        stream.conn.link.send(Journal(room, term, seq, at,
                                      "".join(f"{line}\n" for line in lines).encode()))
        return seq

    def _whole(self, key: Hashable, session: Session | None) -> int:
        stream = self.stream
        stream.key = key
        stream.state_id = session.state_id if session is not None else -1
        self._cache = []
        room, term = self.source.ident()
        seq = stream.sent()
        send_copy(stream.conn, "deputy", room, term, seq, self.source.blob())
        return seq

    # --- what the saver asks (``lanplay.host.saving.Mirror``) ---------------------------

    def move(self, session: Session, games_played: int, publish: Job,
             lines: list[str] | None = None) -> Job:
        return self.stream.gate(self.sync(session, lines), publish)

    def after(self, publish: Job) -> Job:
        return self.stream.gate(self.stream.seq, publish)

    def rewound(self, state_id: int) -> None:
        """The host went back to ``state_id`` (a save failed): the deputy drops the rest."""
        stream = self.stream
        if stream.closed or stream.state_id <= state_id:
            return
        del self._cache[state_id:]
        stream.state_id = state_id
        room, term = self.source.ident()
        seq = stream.sent()
        stream.conn.link.send(Journal(room, term, seq, state_id, b""))


__all__ = ["MOST_WAITING", "PART", "Mirror", "Source", "Stream", "send_copy"]
