"""``lanplay bench``, part 1: latency from an intent to its delta applied at every
peer, through the real Host and Peer over TCP on 127.0.0.1, beside the floor of
the same stack (plain asyncio stream sockets moving frames of the same size, and
the same with one durable journal line a round)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import statistics
import struct
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from lanplay import games
from lanplay.host import Host, HostConfig
from lanplay.peer.peer import Peer
from lanplay.store import folders, saves
from lanplay.tools.figures import GAME_ID, PEER_COUNTS, SEATS, TIMEOUT, Plan, ms, percentile
from protocol.codec import MAX_FRAME, encode, frame, unpack
from protocol.messages import Intent

_LEN = struct.Struct(">I")
_fdatasync = getattr(os, "fdatasync", os.fsync)


@dataclass
class _Round:
    """One intent in flight: which state every peer must reach, and when it did."""

    peers: int
    target: int = -1
    intent_id: int = -1
    reached: set[int] = field(default_factory=set)
    t_last: int = 0
    applied: asyncio.Future[None] | None = None
    accepted: asyncio.Future[None] | None = None
    problem: str | None = None

    def arm(self, target: int) -> None:
        loop = asyncio.get_running_loop()
        self.target, self.intent_id, self.reached = target, -1, set()
        self.applied, self.accepted = loop.create_future(), loop.create_future()

    def listener(self, index: int, peer: Peer) -> Callable[[str, Any], None]:
        def on_event(event: str, payload: Any) -> None:
            if event == "view":
                if (self.applied is not None and not self.applied.done()
                        and peer.state_id >= self.target and index not in self.reached):
                    self.reached.add(index)
                    if len(self.reached) == self.peers:
                        self.t_last = time.perf_counter_ns()
                        self.applied.set_result(None)
            elif event == "accepted":
                if (self.accepted is not None and not self.accepted.done()
                        and payload.id == self.intent_id):
                    self.accepted.set_result(None)
            elif event in ("rejected", "refused", "closed"):
                self.problem = f"peer {index}: {event} {payload!r}"
                for fut in (self.applied, self.accepted):
                    if fut is not None and not fut.done():
                        fut.set_exception(RuntimeError(self.problem))
        return on_event


@dataclass
class _GameRun:
    samples: list[int] = field(default_factory=list)
    delta_frames: list[int] = field(default_factory=list)
    intent_frames: list[int] = field(default_factory=list)
    journal_lines: list[int] = field(default_factory=list)
    """Bytes of each action's journal line (newline included), as the host writes it."""
    resyncs: int = 0


async def lanplay_game(peers: int, seed: int, data_dir: str | None) -> _GameRun:
    """One seeded game through the real Host with ``peers`` connections.

    With ``data_dir`` the host saves after every action as it does by default
    (write-ahead: peers hear of an action once its save is on disk), into that
    folder, never the user's; with None it does not save.
    """
    game = games.load(GAME_ID)
    host = Host(GAME_ID, config=HostConfig(host_name="bench", bind="127.0.0.1", port=0,
                                           seed=seed, autostart=SEATS,
                                           save=data_dir is not None, data_dir=data_dir))
    port = await host.start()
    received: list[list[bytes]] = [[] for _ in range(peers)]
    members: list[Peer] = []
    runners: list[asyncio.Task[None]] = []
    out = _GameRun()
    watch = _Round(peers)
    try:
        # Spectators first: the 4th seat to join starts the game (autostart).
        for i in range(peers):
            spectator = i < peers - SEATS
            peer = Peer(f"Watcher {i + 1}" if spectator else f"Player {i + 1}",
                        spectate=spectator, bot=not spectator, reconnect_for=0,
                        recorder=received[i].append, contribution_seed=seed * 100 + i)
            await peer.connect("127.0.0.1", port)
            peer.listeners.append(watch.listener(i, peer))
            members.append(peer)
            runners.append(asyncio.create_task(peer.run()))
        await asyncio.wait_for(asyncio.gather(*(
            p.wait_until(lambda q: q.view is not None and q.state_id == 0, TIMEOUT)
            for p in members)), TIMEOUT)
        by_seat = {p.seat: p for p in members if p.seat is not None}
        rng = random.Random(seed)
        while True:
            view = members[0].view
            assert view is not None
            turn = view.get("turn")
            if turn is None or view.get("over"):
                break
            actor = by_seat[turn]
            assert actor.view is not None
            action = game.bot(actor.view, turn, rng)
            if action is None:
                raise RuntimeError(f"the bot in seat {turn} has no move on its turn")
            out.intent_frames.append(len(encode(Intent(0, actor.state_id, action))))
            watch.arm(actor.state_id + 1)
            assert watch.applied is not None and watch.accepted is not None
            t0 = time.perf_counter_ns()
            watch.intent_id = actor.intent(action)
            await asyncio.wait_for(watch.applied, TIMEOUT)
            out.samples.append(watch.t_last - t0)
            # Rounds never overlap: the next intent waits for this one's Accepted.
            await asyncio.wait_for(watch.accepted, TIMEOUT)
        await asyncio.wait_for(asyncio.gather(*(
            p.wait_until(lambda q: q.result is not None, TIMEOUT) for p in members)), TIMEOUT)
    finally:
        await host.stop("benchmark game finished")  # says Bye: each peer's run() ends
        if runners:
            await asyncio.wait(runners, timeout=5)
        for task in runners:
            task.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
    out.resyncs = sum(p.resyncs for p in members)
    session = host.session
    if session is not None:
        out.journal_lines = [len(saves.entry_json(e)) + 1 for e in session.log]
    for bodies in received:
        for body in bodies:
            message = unpack(body)
            if isinstance(message, dict) and message.get("type") == "delta":
                out.delta_frames.append(len(body) + 4)
    return out


async def _floor(clients: int, rounds: int, frame_bytes: int, request_bytes: int,
                 warmup: int, journal: tuple[int, int] | None = None) -> list[int]:
    """Plain asyncio streams: request -> one frame to every socket -> tiny acks.

    The same shape as an action (one client asks, the host writes one frame of
    ``frame_bytes`` to each of ``clients`` sockets, every client answers), with
    no msgpack, no session and no game: the least any asyncio host can do.
    With ``journal`` (an open file, a line's size) it is the *durable* floor:
    before the frames go out, the "host" appends one line of that size to the
    file and ``fdatasync``s it, on the loop, as the least a host that makes
    every move durable before telling it can do.
    """
    payload = frame(b"\x00" * max(frame_bytes - 4, 1))
    request = frame(b"\x01" * max(request_bytes - 4, 1))
    ack = frame(b"\x02" * 8)
    line = b"x" * max((journal[1] if journal is not None else 1) - 1, 0) + b"\n"
    writers: list[asyncio.StreamWriter] = []
    loop = asyncio.get_running_loop()
    state: dict[str, Any] = {"left": 0, "acks": 0, "t_last": 0,
                             "arrived": loop.create_future(), "acked": loop.create_future()}

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                (length,) = _LEN.unpack(await reader.readexactly(4))
                body = await reader.readexactly(length)
                if body[:1] == b"\x01":
                    if journal is not None:
                        os.write(journal[0], line)
                        _fdatasync(journal[0])
                    for w in writers:
                        w.write(payload)
                else:
                    state["acks"] += 1
                    if state["acks"] == clients and not state["acked"].done():
                        state["acked"].set_result(None)
        writer.close()

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                (length,) = _LEN.unpack(await reader.readexactly(4))
                await reader.readexactly(length)
                state["left"] -= 1
                if state["left"] == 0:
                    state["t_last"] = time.perf_counter_ns()
                    state["arrived"].set_result(None)
                writer.write(ack)

    server = await asyncio.start_server(serve, "127.0.0.1", 0, limit=MAX_FRAME)
    port = server.sockets[0].getsockname()[1]
    streams = [await asyncio.open_connection("127.0.0.1", port, limit=MAX_FRAME)
               for _ in range(clients)]
    handlers = [asyncio.create_task(client(r, w)) for r, w in streams]
    samples: list[int] = []
    try:
        while len(writers) < clients:
            await asyncio.sleep(0.001)
        for i in range(warmup + rounds):
            state.update(left=clients, acks=0, arrived=loop.create_future(),
                         acked=loop.create_future())
            asker = streams[i % min(clients, SEATS)][1]
            t0 = time.perf_counter_ns()
            asker.write(request)
            await asyncio.wait_for(state["arrived"], TIMEOUT)
            if i >= warmup:
                samples.append(state["t_last"] - t0)
            await asyncio.wait_for(state["acked"], TIMEOUT)
    finally:
        for _, w in streams:
            w.close()
        server.close()
        for task in handlers:
            task.cancel()
        await asyncio.gather(*handlers, return_exceptions=True)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 2)
    return samples


@dataclass
class _Series:
    """Everything measured for one peer count."""

    saving: list[int] = field(default_factory=list)
    plain: list[int] = field(default_factory=list)
    floor: list[int] = field(default_factory=list)
    durable: list[int] = field(default_factory=list)
    """The durable floor: the plain one plus one fdatasync'd journal line per round."""
    deltas: list[int] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    frame_sizes: list[int] = field(default_factory=list)
    request_sizes: list[int] = field(default_factory=list)
    resyncs: int = 0


def _figures(samples: list[int], floor: list[int],
             durable: list[int] | None = None) -> dict[str, Any]:
    p50, p99 = percentile(samples, 50), percentile(samples, 99)
    out = {"p50_ms": ms(p50), "p99_ms": ms(p99), "mean_ms": ms(statistics.fmean(samples)),
           "max_ms": ms(max(samples)), "ratio_p50": round(p50 / percentile(floor, 50), 2),
           "ratio_p99": round(p99 / percentile(floor, 99), 2)}
    if durable is not None:
        out["ratio_p50_durable"] = round(p50 / percentile(durable, 50), 2)
        out["ratio_p99_durable"] = round(p99 / percentile(durable, 99), 2)
    return out


def _floor_figures(samples: list[int]) -> dict[str, Any]:
    return {"samples": len(samples),
            "p50_ms": ms(percentile(samples, 50)), "p99_ms": ms(percentile(samples, 99)),
            "mean_ms": ms(statistics.fmean(samples)), "max_ms": ms(max(samples))}


async def latency_all(plan: Plan) -> list[dict[str, Any]]:
    series = {peers: _Series() for peers in PEER_COUNTS}
    with tempfile.TemporaryDirectory(prefix="lanplay-bench-") as data_dir, \
            _journal_file(data_dir) as journal:
        await lanplay_game(SEATS, 0, data_dir)  # warm-up: imports, first connections
        for g in range(plan.latency_games):
            # Game by game, each peer count in turn, with saves (the host's
            # default) and without, then the floor with as many rounds: all of
            # them see the same machine (maybe shared and busy) at nearly the
            # same moment.
            for peers, s in series.items():
                run = await lanplay_game(peers, 1 + g, data_dir)
                s.saving += run.samples
                s.deltas += run.delta_frames
                s.resyncs += run.resyncs
                again = await lanplay_game(peers, 1 + g, None)
                s.plain += again.samples
                s.resyncs += again.resyncs
                size = int(statistics.median(run.delta_frames))
                request = int(statistics.median(run.intent_frames))
                line = int(statistics.median(run.journal_lines))
                s.frame_sizes.append(size)
                s.request_sizes.append(request)
                s.lines.append(line)
                warmup = plan.floor_warmup if g == 0 else 0
                s.floor += await _floor(peers, len(run.samples), size, request, warmup)
                s.durable += await _floor(peers, len(run.samples), size, request, warmup,
                                          (journal, line))
    rows: list[dict[str, Any]] = []
    for peers, s in series.items():
        rows.append({
            "peers": peers, "seats": SEATS, "spectators": peers - SEATS,
            "games": plan.latency_games, "samples": len(s.saving),
            **_figures(s.saving, s.floor, s.durable),
            "no_save": {"samples": len(s.plain), **_figures(s.plain, s.floor)},
            "delta_frame_median_bytes": statistics.median(s.deltas),
            "resyncs": s.resyncs,
            "floor": {
                "frame_bytes": int(statistics.median(s.frame_sizes)),
                "request_bytes": int(statistics.median(s.request_sizes)),
                **_floor_figures(s.floor),
            },
            "floor_durable": {
                "journal_line_bytes": int(statistics.median(s.lines)),
                **_floor_figures(s.durable),
            },
        })
    return rows


@contextlib.contextmanager
def _journal_file(data_dir: str) -> Iterator[int]:
    """The durable floor's journal: a file beside the saves the host writes (the same
    folder, so the same disk), opened once for appending."""
    folder = folders.saves_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / "floor.journal", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        yield fd
    finally:
        os.close(fd)


# --- 3 and 2. host work per action, and bytes per action per peer ----------------------
