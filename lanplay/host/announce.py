"""Telling others the host is there: the room on the LAN, and a heartbeat to each peer.

``Announcing`` keeps the zeroconf announcement (``lanplay.net.discovery``) in
step with the room (seats, phase, password), updated in the background
whenever the lobby changes. ``heartbeats`` pings every peer with the state
the peers know and drops one that has not been heard from in ``dead_after`` of the
host's own listening (a stall of the host is not the peers' silence).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Callable

from lanplay.host.config import HostConfig
from lanplay.host.peers import Conn, Peers
from lanplay.host.shared import Status
from lanplay.net.discovery import DEMO_SERVICE, SERVICE, Announcement, Announcer
from lanplay.room import Room
from protocol.messages import Ping


class Announcing:
    def __init__(self, room: Room, config: HostConfig, status: Status) -> None:
        self.room = room
        self.config = config
        self.status = status
        self._announcer: Announcer | None = None
        self._dirty = asyncio.Event()

    def changed(self) -> None:
        """The room changed: the announcement follows in the background."""
        self._dirty.set()

    def announcement(self) -> Announcement:
        room = self.room
        return Announcement(host_name=room.host_name, game=room.game.id,
                            port=self.status.port, seats_taken=len(room.seats),
                            seats_total=room.max_players, state=room.phase,
                            password=bool(self.config.password or self.config.room_key),
                            web_port=self.status.web_port, room=room.id, term=room.term)

    async def start(self) -> None:
        self._announcer = Announcer(self.announcement(), self.config.interfaces,
                                    service=DEMO_SERVICE if self.config.demo else SERVICE)
        await self._announcer.start()

    async def updates(self) -> None:
        """Run for ever after ``start``: each change of the room, announced."""
        assert self._announcer is not None
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            with contextlib.suppress(Exception):
                await self._announcer.update(**dataclasses.asdict(self.announcement()))

    async def stop(self) -> None:
        if self._announcer is not None:
            with contextlib.suppress(Exception):
                await self._announcer.stop()


STALL = 0.5
"""Seconds a heartbeat may come late before the host counts itself as stalled."""


async def heartbeats(config: HostConfig, peers: Peers, state_told: Callable[[], int],
                     detach: Callable[[Conn], None], term: Callable[[], int] = lambda: 0
                     ) -> None:
    """Ping every peer each ``heartbeat`` (with the room's ``term``); abort and detach
    the silent ones.

    A peer's silence is what the host did not read from it while the host itself was
    listening: when the host's own loop was stalled (a heartbeat that comes late by
    more than ``STALL``: a long job, a laptop's lid closed), whatever the peers sent
    meanwhile waits unread in the sockets, so the stall is credited to every peer
    rather than counted as their silence."""
    nonce = 0
    last = time.monotonic()
    while True:
        await asyncio.sleep(config.heartbeat)
        nonce += 1
        now = time.monotonic()
        late = now - last - config.heartbeat
        last = now
        state_id = state_told()
        for conn in list(peers.conns):
            if late > STALL:
                conn.last_seen = max(conn.last_seen, min(now, conn.last_seen + late))
            if now - conn.last_seen > config.dead_after:
                conn.link.abort()
                detach(conn)
            else:
                conn.link.send(Ping(nonce, state_id, term()))
