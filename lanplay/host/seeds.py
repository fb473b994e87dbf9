"""Where each game's seed comes from: a shuffle nobody chooses (``lanplay.fair``).

When a game starts, ``Shuffle.begin`` draws the host's secret and tells every
peer only its commitment; each seated peer answers with a contribution of its
own (``dispatch`` hands it to ``offer``); once all are in, or the wait is over
(the host then draws for the seats that sent nothing, and says so), the game is
dealt from the seed they give (``Play`` is called back with the ``Fairness``).

The host's own random bytes (its secret, and what it draws for a silent seat)
come from a ``SeedSource``: ``LocalSeeds`` takes them from the operating
system, or, when the host is given a seed (tests, benchmarks, selfplay), from
that seed alone, so the same seed and the same seeded peers play the same game
again. The exchange runs the same either way.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Protocol

from lanplay import messages
from lanplay.fair.seed import SECRET_BYTES, Exchange, Fairness, seeded_bytes
from lanplay.host.config import HostConfig
from lanplay.host.peers import Conn, Peers
from lanplay.host.shared import Status
from lanplay.host.words import rejected
from lanplay.room import Room
from protocol.messages import Contribution, SeedCommit


class SeedSource(Protocol):
    def secret(self, game: int) -> bytes:
        """The host's secret (32 bytes) for game number ``game`` of this room."""
        ...

    def draw(self, game: int, seat: int) -> bytes:
        """32 bytes for a seat whose contribution did not come in time."""
        ...


class LocalSeeds:
    """Random bytes, or with ``config.seed`` set, bytes that seed alone decides.

    A configured seed is for tests and benchmarks: whoever knows it can work out
    the host's secret, and so the deal once the contributions are announced."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config

    def secret(self, game: int) -> bytes:
        return self._bytes("secret", game)

    def draw(self, game: int, seat: int) -> bytes:
        return self._bytes("drawn", game, seat)

    def _bytes(self, *keys: object) -> bytes:
        seed = self.config.seed
        return secrets.token_bytes(SECRET_BYTES) if seed is None else seeded_bytes(seed, *keys)


class Shuffle:
    """One game's seed exchange on the host, from the commitment to the deal."""

    def __init__(self, room: Room, config: HostConfig, status: Status, peers: Peers,
                 seeds: SeedSource, deal: Callable[[Fairness], None]) -> None:
        self.room = room
        self.config = config
        self.status = status
        self.peers = peers
        self.seeds = seeds
        self._deal = deal
        self.exchange: Exchange | None = None
        self.closed: Fairness | None = None
        """The last shuffle closed, to tell a seat that sends again after it that its
        contribution is in (``duplicate``), not that it came too late."""
        self._deadline: asyncio.TimerHandle | None = None

    @property
    def running(self) -> bool:
        return self.exchange is not None

    def begin(self, game: int) -> None:
        """Commit to a fresh secret and ask every seat for its contribution."""
        self.cancel()
        self.closed = None
        exchange = self.exchange = Exchange(game, len(self.room.seats),
                                            self.seeds.secret(game))
        wait = max(0.0, float(self.config.contribution_wait))
        self.peers.broadcast(SeedCommit(game, exchange.commitment, exchange.seats, wait))
        self._deadline = asyncio.get_running_loop().call_later(wait, self.finish)

    def offer(self, conn: Conn, msg: Contribution) -> None:
        """A peer's contribution: counted (no answer: ``contributions`` shows it), or
        refused with the reason that holds whenever it comes: a spectator's is a
        spectator's, a seat's second one to a shuffle is a duplicate, also once that
        shuffle has closed; only one that no open shuffle can take is late."""
        exchange = self.exchange
        if conn.seat is None:
            conn.link.send(rejected(0, "spectator", messages.msg(
                "Only seated players contribute to the shuffle.")))
            return
        seat = self.room.index(conn.seat)
        if exchange is None:
            closed = self.closed
            if closed is not None and msg.game == closed.game and seat < len(closed.values) \
                    and seat not in closed.drawn:
                conn.link.send(rejected(0, "duplicate", messages.msg(
                    "Your contribution to this shuffle is already in.")))
            else:
                conn.link.send(rejected(0, "late", messages.msg(
                    "No shuffle is waiting for contributions now.")))
            return
        problem = exchange.offer(seat, msg.game, msg.value)
        if problem is not None:
            conn.link.send(rejected(0, *problem))
        elif exchange.complete:
            self.finish()

    def finish(self) -> None:
        """Close the exchange (drawing for the seats that sent nothing) and deal."""
        exchange = self.exchange
        self.cancel()
        if exchange is None or self.status.stopping:
            return
        fair = self.closed = exchange.close(lambda seat: self.seeds.draw(exchange.game, seat))
        self._deal(fair)

    def cancel(self) -> None:
        self.exchange = None
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
