"""A whole game on this machine: a real host on 127.0.0.1 and N bot peers.

Everything crosses real TCP, so the figures (frames and bytes each peer
received, the largest frame) are what a LAN would carry. ``record`` keeps,
for each peer, every frame it received, in order and byte for byte, plus the
host's action log and final state: anyone can check afterwards exactly what
each peer was told.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import struct
import time
from pathlib import Path
from typing import Any

from lanplay import games
from lanplay.bots import drive
from lanplay.game import mode_of
from lanplay.host import Host, HostConfig
from lanplay.peer import Peer


async def selfplay(game_id: str, players: int, mode: str | None = None, seed: int = 1,
                   options: dict[str, Any] | None = None, record: Path | None = None,
                   timeout: float = 300.0) -> dict[str, Any]:
    """Play one full game and describe it as a JSON-ready dict."""
    game = games.load(game_id)
    mode_id = mode_of(game, mode).id
    started = time.perf_counter()
    host = Host(game_id, mode_id, options,
                HostConfig(host_name="selfplay", bind="127.0.0.1", port=0, seed=seed,
                           autostart=players, save=False))  # --record keeps what matters
    port = await host.start()
    frames: list[list[bytes]] = [[] for _ in range(players)]
    peers: list[Peer] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        for i in range(players):
            peer = Peer(f"Bot {i + 1}", bot=True, recorder=frames[i].append)
            await peer.connect("127.0.0.1", port)
            peers.append(peer)
            tasks.append(asyncio.create_task(drive(peer, seed * 1000 + i)))
        await asyncio.wait_for(host.finished.wait(), timeout)
        await asyncio.wait_for(
            asyncio.gather(*(p.wait_until(lambda q: q.result is not None, timeout)
                             for p in peers)), timeout)
    finally:
        await host.stop("selfplay finished")
        await asyncio.gather(*tasks, return_exceptions=True)
    seconds = time.perf_counter() - started
    session = host.session
    assert session is not None and session.result is not None
    result = session.result
    stats = [p.stats() for p in peers]
    out = {
        "game": game_id, "mode": mode_id, "players": players, "seed": seed,
        "options": session.options,
        "winners": list(result.winners), "scores": list(result.scores),
        "actions": len(session.log), "state_id": session.state_id,
        "frames": [s["frames"] for s in stats], "bytes": [s["bytes"] for s in stats],
        "largest_frame": max(s["largest_frame"] for s in stats),
        "resyncs": sum(p.resyncs for p in peers),
        "seconds": round(seconds, 3),
        "peer_results_agree": all(p.result == result.to_wire() for p in peers),
    }
    if record is not None:
        write_record(record, frames, host, out)
    return out


def write_record(folder: Path, frames: list[list[bytes]], host: Host,
                 summary: dict[str, Any]) -> None:
    """Raw frames per peer (length-prefixed, as received), log, final state."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, bodies in enumerate(frames):
        with open(folder / f"peer-{i}.frames", "wb") as out:
            for body in bodies:
                out.write(struct.pack(">I", len(body)) + body)
    session = host.session
    assert session is not None
    log = [{"seat": e.seat, "action": e.action, "state_id": e.state_id} for e in session.log]
    (folder / "host-log.json").write_text(json.dumps(
        {"game": session.game.id, "mode": session.mode, "options": session.options,
         "seed": session.seed, "players": session.players, "actions": log}, indent=1))
    (folder / "final-state.json").write_text(json.dumps(_plain(session.state), indent=1))
    (folder / "summary.json").write_text(json.dumps(summary, indent=1))


def _plain(value: Any) -> Any:
    """A JSON-ready copy of a game state (dataclasses, tuples, sets)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)
