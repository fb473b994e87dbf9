"""Shared pieces of the "nothing lost" tests: a host on 127.0.0.1 that can be killed
and resumed, peers driven by bots, and the checks every such game ends with."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nethelpers import LOCAL, join_tasks

from lanplay import games, rng
from lanplay.fair.seed import derive_seed, seeded_bytes
from lanplay.host import Host, HostConfig
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from lanplay.session import LogEntry, Session

GAME = "alles-klar"


def config(data_dir: Path, **kw: Any) -> HostConfig:
    kw.setdefault("seed", 1)
    return HostConfig(host_name="resilience", bind=LOCAL, port=0, data_dir=data_dir, **kw)


def steady_choice(view: dict[str, Any], seat: int, seed: int, state_id: int) -> Any:
    """The game's bot, but its randomness drawn from (seed, seat, state_id) alone: a
    deterministic function of what the seat sees, however often it is asked."""
    return games.load(GAME).bot(view, seat, rng.stream(seed, seat, state_id))


async def steady(peer: Peer, seed: int) -> None:
    """Play ``peer``'s seat with ``steady_choice`` until its connection ends."""
    await drive(peer, seed, choose=lambda view, seat, state_id:
                steady_choice(view, seat, seed, state_id))


def dealt_seed(host_seed: int, peer_seeds: list[int], game: int = 1) -> int:
    """The seed the shuffle gives a host seeded ``host_seed`` and peers seeded ``peer_seeds``
    (``Table.seat``'s ``seed`` seeds a peer's contributions too)."""
    return derive_seed(seeded_bytes(host_seed, "secret", game),
                       [seeded_bytes(s, "contribution", game) for s in peer_seeds])


def steady_baseline(players: int, host_seed: int, bot_seed: int) -> Session:
    """The uninterrupted game: the same seed and the same steady choices, no network.

    The seed is the one the shuffle gives when the host is seeded ``host_seed`` and
    seat ``i``'s peer ``bot_seed + i``."""
    seed = dealt_seed(host_seed, [bot_seed + seat for seat in range(players)])
    session = Session(games.load(GAME), players, seed=seed)
    while session.result is None:
        (seat,) = session.actors()
        session.submit(seat, steady_choice(session.view(seat), seat, bot_seed + seat,
                                           session.state_id))
    return session


@dataclass
class Table:
    """A host and its peers; ``host`` is replaced when the host is resumed."""

    host: Host
    peers: list[Peer] = field(default_factory=list)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    dead: list[Host] = field(default_factory=list)

    async def seat(self, name: str, play: str = "drive", seed: int = 0,
                   **kw: Any) -> Peer:
        """Connect a bot peer; ``play`` is "drive" (lanplay.peer.bots), "steady" or "none".
        ``seed`` seeds its contributions to the shuffle too, so a seeded game replays."""
        kw.setdefault("contribution_seed", seed)
        peer = Peer(name, bot=play != "none", **kw)
        await peer.connect(LOCAL, self.host.port)
        return self.seat_peer(peer, play, seed)

    def seat_peer(self, peer: Peer, play: str = "drive", seed: int = 0) -> Peer:
        """Follow (and play) a peer that is already connected."""
        self.peers.append(peer)
        coro = (drive(peer, seed) if play == "drive" else steady(peer, seed)
                if play == "steady" else peer.run())
        self.tasks.append(asyncio.create_task(coro))
        return peer

    async def kill_at(self, at: int, timeout: float = 30) -> Host:
        """Kill the host the instant its ``at``-th action has been accepted."""
        host, killed = self.host, asyncio.Event()

        def on_event(what: str) -> None:
            session = host.session
            if (what == "action" and session is not None and session.state_id >= at
                    and not killed.is_set()):
                host.kill()
                killed.set()

        host.listeners.append(on_event)
        await asyncio.wait_for(killed.wait(), timeout)
        self.dead.append(host)
        return host

    async def resume(self, path: Path, config: HostConfig) -> Host:
        self.host = Host.resume(path, config)
        await self.host.start()
        return self.host

    async def finish(self, timeout: float = 30) -> None:
        """The game ends; every peer has the host's result and exactly its own view."""
        host = self.host
        await asyncio.wait_for(host.finished.wait(), timeout)
        session = host.session
        assert session is not None and session.result is not None
        for peer in self.peers:
            await peer.wait_until(lambda p: p.result is not None
                                  and p.state_id == session.state_id, 10)
            assert peer.result == session.result.to_wire(), peer.name
            assert peer.view == session.view(peer.seat), peer.name

    async def close(self) -> None:
        for host in [*self.dead, self.host]:
            await host.stop("test over")
        await join_tasks(self.tasks)


def log_of(session: Session) -> list[LogEntry]:
    return list(session.log)


def seeded(seed: int) -> random.Random:
    return random.Random(seed)
