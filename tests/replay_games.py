"""Finished games for the replay tests: seeded bot games over real TCP, with what each
peer was actually sent.

A real host on 127.0.0.1 saves the game (its history file is what ``lanplay replay``
reads), every seat is a bot peer and one more peer watches; each peer records every
frame it received, and the views are rebuilt from those frames exactly as the peer
built them (snapshots and deltas), per state_id.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nethelpers import LOCAL

from lanplay.host import Host, HostConfig
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from lanplay.store import folders
from protocol import delta
from protocol.codec import decode_body
from protocol.messages import Audit, Delta, Snapshot


@dataclass
class Played:
    """One finished game: the host's history file and what every peer received."""

    history: Path
    views: dict[int | None, dict[int, dict[str, Any]]]
    """viewer (a seat, None for the spectator) -> state_id -> the view it was sent."""
    audits: dict[int | None, Audit] = field(default_factory=dict)
    """viewer -> the whole audit its laptop received at the end."""
    seats: list[dict[str, Any]] = field(default_factory=list)
    """The lobby's seats at the end, as a window keeps them with its audit."""
    results: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    verdicts: dict[int | None, str] = field(default_factory=dict)


def received(bodies: list[bytes]) -> dict[int, dict[str, Any]]:
    """state_id -> the view held after each snapshot and delta, as the peer held it."""
    out: dict[int, dict[str, Any]] = {}
    view: Any = None
    at = -1
    for body in bodies:
        msg = decode_body(body)
        if isinstance(msg, Snapshot):
            view, at = msg.view, msg.state_id
        elif isinstance(msg, Delta) and view is not None and msg.base == at:
            view, at = delta.apply(view, msg.ops), msg.state_id
        else:
            continue
        out[at] = copy.deepcopy(view)
    return out


async def play(game: str, players: int, mode: str | None, data_dir: Path,
               seed: int = 11) -> Played:
    host = Host(game, mode, None, HostConfig(host_name="Replay test", bind=LOCAL, port=0,
                                             seed=seed, autostart=players, save=True,
                                             data_dir=data_dir))
    port = await host.start()
    frames: dict[int | None, list[bytes]] = {}
    peers: list[Peer] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        watcher_frames: list[bytes] = []
        watcher = Peer("Watcher", spectate=True, recorder=watcher_frames.append)
        await watcher.connect(LOCAL, port)
        tasks.append(asyncio.create_task(watcher.run()))
        for i in range(players):
            bodies: list[bytes] = []
            peer = Peer(f"Bot {i + 1}", bot=True, recorder=bodies.append,
                        contribution_seed=seed * 100 + i)
            await peer.connect(LOCAL, port)
            assert peer.seat == i
            frames[i] = bodies
            peers.append(peer)
            tasks.append(asyncio.create_task(drive(peer, seed * 100 + i)))
        await asyncio.wait_for(host.finished.wait(), 40)
        everyone = [*peers, watcher]
        for peer in everyone:
            await peer.wait_until(lambda p: p.verdict is not None, 20)
    finally:
        await host.stop("replay test over")
        await asyncio.gather(*tasks, return_exceptions=True)
    frames[None] = watcher_frames
    history = list(folders.history_dir(data_dir).glob("*.json"))
    assert len(history) == 1, history
    played = Played(history[0], {viewer: received(b) for viewer, b in frames.items()})
    for viewer, peer in [*((p.seat, p) for p in peers), (None, watcher)]:
        audit = peer.witness.last_audit
        assert audit is not None and peer.verdict is not None and peer.result is not None
        played.audits[viewer] = audit
        played.results[viewer] = peer.result
        played.verdicts[viewer] = peer.verdict.summary()
    assert watcher.lobby is not None
    played.seats = [dict(s) for s in watcher.lobby.seats]
    return played
