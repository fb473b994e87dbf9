"""A whole game on this machine: a real host on 127.0.0.1 and N bot peers.

Everything crosses real TCP, so the figures (frames and bytes each peer
received, the largest frame) are what a LAN would carry. Every peer checks the
host's audit at the end (``audit``: "verified" or what does not match, per
peer). ``record`` keeps,
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
from lanplay.fair.witness import Checking
from lanplay.game import mode_of
from lanplay.host import Host, HostConfig
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from protocol.codec import decode_body
from protocol.messages import Audit


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
    shuffle: dict[str, float] = {}

    def on_event(what: str) -> None:  # how long the shuffle held up the deal
        if what == "shuffling":
            shuffle.setdefault(what, time.perf_counter())

    host.listeners.append(on_event)
    deal = host.play.shuffle._deal

    def dealt(fair: Any) -> None:  # every contribution is in: the deal itself begins
        shuffle.setdefault("dealt", time.perf_counter())
        deal(fair)

    host.play.shuffle._deal = dealt
    port = await host.start()
    frames: list[list[bytes]] = [[] for _ in range(players)]
    checking: list[float] = [0.0] * players
    peers: list[Peer] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        for i in range(players):
            peer = Peer(f"Bot {i + 1}", bot=True, recorder=frames[i].append,
                        contribution_seed=seed * 1000 + i)
            _time_the_check(peer, checking, i)
            await peer.connect("127.0.0.1", port)
            peers.append(peer)
            tasks.append(asyncio.create_task(drive(peer, seed * 1000 + i)))
        await asyncio.wait_for(host.finished.wait(), timeout)
        await asyncio.wait_for(
            asyncio.gather(*(p.wait_until(lambda q: q.result is not None
                                          and q.verdict is not None, timeout)
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
        "game_seed": session.seed,
        "options": session.options,
        "winners": list(result.winners), "scores": list(result.scores),
        "actions": len(session.log), "state_id": session.state_id,
        "frames": [s["frames"] for s in stats], "bytes": [s["bytes"] for s in stats],
        "largest_frame": max(s["largest_frame"] for s in stats),
        "resyncs": sum(p.resyncs for p in peers),
        "seconds": round(seconds, 3),
        "peer_results_agree": all(p.result == result.to_wire() for p in peers),
        "audit": [p.verdict.summary() if p.verdict is not None else "no audit came"
                  for p in peers],
        "audit_bytes": _audit_bytes(frames[0]),
        "audit_check_ms": [round(s * 1000, 1) for s in checking],
        "shuffle_ms": round((shuffle["dealt"] - shuffle["shuffling"]) * 1000, 2)
        if {"dealt", "shuffling"} <= set(shuffle) else None,
    }
    if record is not None:
        write_record(record, frames, host, out)
    return out


def _time_the_check(peer: Peer, seconds: list[float], index: int) -> None:
    """Add the time ``peer`` spends on each audit message (gathering) to ``seconds``, and
    the check's (it runs in slices after the message: ``Checking.spent``) once done."""
    witness = peer.witness
    take_audit = witness.take_audit
    jobs: list[Checking] = []

    def timed(msg: Audit) -> Checking | None:
        start = time.perf_counter()
        try:
            job = take_audit(msg)
        finally:
            seconds[index] += time.perf_counter() - start
        if job is not None:
            jobs.append(job)
        return job

    def checked(event: str, payload: Any) -> None:
        if event == "audit":
            seconds[index] += sum(job.spent for job in jobs)
            jobs.clear()

    witness.take_audit = timed  # type: ignore[method-assign]
    peer.listeners.append(checked)


def _audit_bytes(bodies: list[bytes]) -> int:
    """The bytes of the audit frames among ``bodies`` (length prefixes included)."""
    return sum(len(b) + 4 for b in bodies if isinstance(decode_body(b), Audit))


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
