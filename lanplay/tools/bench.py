"""``lanplay bench``: what one action costs, measured on this machine.

Four figures, side by side, for Alles klar? (4 seats) driven by its own bot:

1. **Latency** from a peer sending an intent to the resulting delta being
   applied at *every* peer, with 4 peers (4 seats) and 16 peers (4 seats and
   12 spectators), over real TCP on 127.0.0.1 through the real Host and Peer:
   once as the host runs by default (it saves the game after every action and
   tells the peers only once the save is on disk; here into a temporary
   folder) and once with saving off, which leaves only the network path.
   Beside it, the *floor* of this stack: the same number of plain asyncio
   stream sockets, one client sending a request frame, a "host" writing one
   frame of the measured median delta size to every socket, each client
   answering with a tiny ack. The ratio of the two is what lanplay adds on
   top of asyncio + TCP.
2. **Bytes** per action per peer: the delta frame against a full snapshot
   frame of the same view (same viewer, same state).
3. **Host work** per action with 16 connections, without sockets:
   ``Session.submit``, ``Session.deltas`` for the distinct viewers, one
   msgpack body per viewer, one frame per connection, and the Accepted reply.
4. **Bot games per second** without any network: Session plus the bot.

Everything (host, peers, floor server and clients) runs in ONE asyncio loop in
ONE process, so the latency includes every peer's decoding and the host's
work, serialised on one core: this is a worst case for the host, not what a
LAN of separate laptops would see (there each peer decodes in parallel, and
the wire adds its own ~0.1-1 ms). All games are seeded; the bot decides
outside every timed section. ``quick`` runs fewer games (for tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from lanplay import games
from lanplay.host import Host, HostConfig
from lanplay.peer.peer import Peer
from lanplay.session import Session
from lanplay.store import folders, saves
from lanplay.tools import gamebench
from protocol import delta as delta_ops
from protocol.codec import MAX_FRAME, encode, frame, pack, unpack
from protocol.messages import Accepted, Intent, Snapshot, to_wire

GAME_ID = "alles-klar"
SEATS = 4
PEER_COUNTS = (4, 16)
CONNS: list[int | None] = [*range(SEATS), *([None] * 12)]
"""The 16 connections of parts 2 and 3: one per seat, then 12 spectators."""
TIMEOUT = 30.0
"""Seconds any one awaited step may take before the run is declared stuck."""

AIM_DURABLE_RATIO = 3.0
"""Latency p99 with saving against the durable floor's p99."""
AIM_PLAIN_RATIO = 4.0
"""Latency p99 without saving against the plain floor's p99."""
AIM_DELTA_RATIO = 0.1
AIM_HOST_US = 1000.0
"""Host work p99 per action, every game at its largest seat count."""
AIM_FRAME_MS = 16.0
AIM_STARTUP_MS = 1500.0

_LEN = struct.Struct(">I")
_fdatasync = getattr(os, "fdatasync", os.fsync)


@dataclass(frozen=True)
class Plan:
    latency_games: int
    """Games per peer count and way of hosting (each ~65 actions, one sample each)."""
    work_games: int
    speed_games: int
    floor_warmup: int = 20
    game_seeds: int = 6
    """Seeded games per row of ``games`` (every game at its largest seat count)."""
    ui: bool = True
    """Measure the window's tables and start-up too (a child process, offscreen)."""


FULL = Plan(latency_games=16, work_games=40, speed_games=40)
QUICK = Plan(latency_games=2, work_games=3, speed_games=3, floor_warmup=5, game_seeds=1)


def run_bench(as_json: bool = False, quick: bool = False) -> int:
    """Measure, then print a table (or one JSON object); returns 0.

    The aims are reported, never enforced: a slow or busy machine is not an
    error. A run that breaks (a peer refused, a step stuck) raises.
    """
    report = measure(QUICK if quick else FULL, quick)
    if as_json:
        print(json.dumps(report, indent=1))
    else:
        print(render(report))
    return 0


def measure(plan: Plan, quick: bool = False) -> dict[str, Any]:
    started = time.perf_counter()
    machine = machine_info()
    latency = asyncio.run(_latency_all(plan))
    work = host_work(plan)
    size = frame_sizes(plan)
    speed = games_per_second(plan)
    every = gamebench.measure_all(plan.game_seeds)
    window = ui_rows(quick) if plan.ui else {"skipped": "not asked for"}
    report: dict[str, Any] = {
        "bench": "lanplay", "game": GAME_ID, "mode": "quick" if quick else "full",
        "machine": machine, "latency": latency, "bytes": size, "host_work": work,
        "games_per_second": speed, "games": every, "ui": window,
    }
    report["aims"] = aims(report)
    report["machine"]["loadavg_end"] = _loadavg()
    report["seconds"] = round(time.perf_counter() - started, 2)
    return report


# --- figures ----------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100), linear between ranks (numpy's default)."""
    data = sorted(values)
    if not data:
        return 0.0
    pos = (len(data) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def _ms(ns: float) -> float:
    return round(ns / 1e6, 3)


def _us(ns: float) -> float:
    return round(ns / 1e3, 1)


def _loadavg() -> list[float]:
    with contextlib.suppress(OSError, AttributeError):
        return [round(x, 2) for x in os.getloadavg()]
    return []


def machine_info() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.partition(":")[2].strip()
                break
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    return {
        "cpu": cpu, "nproc": usable, "cpu_count": os.cpu_count() or 1,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(), "loadavg_start": _loadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    }


# --- 1. latency through the real host, and the floor ---------------------------------


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


async def _lanplay_game(peers: int, seed: int, data_dir: str | None) -> _GameRun:
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
    out = {"p50_ms": _ms(p50), "p99_ms": _ms(p99), "mean_ms": _ms(statistics.fmean(samples)),
           "max_ms": _ms(max(samples)), "ratio_p50": round(p50 / percentile(floor, 50), 2),
           "ratio_p99": round(p99 / percentile(floor, 99), 2)}
    if durable is not None:
        out["ratio_p50_durable"] = round(p50 / percentile(durable, 50), 2)
        out["ratio_p99_durable"] = round(p99 / percentile(durable, 99), 2)
    return out


def _floor_figures(samples: list[int]) -> dict[str, Any]:
    return {"samples": len(samples),
            "p50_ms": _ms(percentile(samples, 50)), "p99_ms": _ms(percentile(samples, 99)),
            "mean_ms": _ms(statistics.fmean(samples)), "max_ms": _ms(max(samples))}


async def _latency_all(plan: Plan) -> list[dict[str, Any]]:
    series = {peers: _Series() for peers in PEER_COUNTS}
    with tempfile.TemporaryDirectory(prefix="lanplay-bench-") as data_dir, \
            _journal_file(data_dir) as journal:
        await _lanplay_game(SEATS, 0, data_dir)  # warm-up: imports, first connections
        for g in range(plan.latency_games):
            # Game by game, each peer count in turn, with saves (the host's
            # default) and without, then the floor with as many rounds: all of
            # them see the same machine (maybe shared and busy) at nearly the
            # same moment.
            for peers, s in series.items():
                run = await _lanplay_game(peers, 1 + g, data_dir)
                s.saving += run.samples
                s.deltas += run.delta_frames
                s.resyncs += run.resyncs
                again = await _lanplay_game(peers, 1 + g, None)
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


def host_work(plan: Plan) -> dict[str, Any]:
    """Host work per action for 16 connections (4 seats, 12 spectators), no sockets.

    Timed per action, as the host's ``Dispatcher._on_intent`` and
    ``Play.after_action`` do it: submit, deltas for the distinct viewers, one
    msgpack body per viewer, one frame per connection, and the Accepted to the
    actor. The bot decides before the clock starts.
    """
    game = games.load(GAME_ID)
    total: list[int] = []
    parts: dict[str, list[int]] = {"submit": [], "deltas": [], "encode": []}
    for seed in range(1, plan.work_games + 1):
        session = Session(game, SEATS, seed=seed)
        rng = random.Random(seed)
        for viewer in set(CONNS):
            session.snapshot(viewer)
        while session.result is None:
            seat = next(iter(session.actors()))
            action = game.bot(session.view(seat), seat, rng)
            state_id = session.state_id
            t0 = time.perf_counter_ns()
            session.submit(seat, action, state_id)
            t1 = time.perf_counter_ns()
            deltas = session.deltas({viewer for viewer in CONNS})
            t2 = time.perf_counter_ns()
            bodies = {viewer: pack(to_wire(d)) for viewer, d in deltas.items()}
            frames = [frame(bodies[viewer], MAX_FRAME) for viewer in CONNS]
            frames.append(encode(Accepted(1, session.state_id)))
            t3 = time.perf_counter_ns()
            total.append(t3 - t0)
            parts["submit"].append(t1 - t0)
            parts["deltas"].append(t2 - t1)
            parts["encode"].append(t3 - t2)
    return {
        "connections": len(CONNS), "viewers": len(set(CONNS)), "actions": len(total),
        "games": plan.work_games,
        "mean_us": _us(statistics.fmean(total)), "p50_us": _us(percentile(total, 50)),
        "p99_us": _us(percentile(total, 99)), "max_us": _us(max(total)),
        "submit_mean_us": _us(statistics.fmean(parts["submit"])),
        "deltas_mean_us": _us(statistics.fmean(parts["deltas"])),
        "encode_mean_us": _us(statistics.fmean(parts["encode"])),
    }


def frame_sizes(plan: Plan) -> dict[str, Any]:
    """Delta frame against snapshot frame of the same view, per action per connection.

    The same seeded games as ``host_work`` (kept apart so that the sizing does
    not disturb the timing): after each action, every connection's delta frame
    and the frame of a full Snapshot of that connection's view at that state.
    """
    game = games.load(GAME_ID)
    delta_sizes: list[int] = []
    snapshot_sizes: list[int] = []
    patch_ratio: list[float] = []
    for seed in range(1, plan.work_games + 1):
        session = Session(game, SEATS, seed=seed)
        rng = random.Random(seed)
        for viewer in set(CONNS):
            session.snapshot(viewer)
        while session.result is None:
            seat = next(iter(session.actors()))
            session.submit(seat, game.bot(session.view(seat), seat, rng), session.state_id)
            deltas = session.deltas(set(CONNS))
            for viewer, d in deltas.items():
                view = session.view(viewer)
                delta_frame = len(encode(d))
                snapshot_frame = len(encode(Snapshot(session.state_id, view)))
                copies = CONNS.count(viewer)
                delta_sizes += [delta_frame] * copies
                snapshot_sizes += [snapshot_frame] * copies
                patch_ratio.append(len(pack(d.ops)) / len(json_patch(d.ops, view)))
    d50, s50 = statistics.median(delta_sizes), statistics.median(snapshot_sizes)
    return {
        "samples": len(delta_sizes), "delta_median_bytes": d50, "snapshot_median_bytes": s50,
        "ratio": round(d50 / s50, 4),
        "delta_mean_bytes": round(statistics.fmean(delta_sizes), 1),
        "snapshot_mean_bytes": round(statistics.fmean(snapshot_sizes), 1),
        "delta_p99_bytes": round(percentile(delta_sizes, 99), 1),
        "ops_vs_json_patch_median": round(statistics.median(patch_ratio), 3),
    }


def json_patch(ops: Iterable[list[Any]], new: Any) -> bytes:
    """The same change as RFC 6902 JSON Patch (compact JSON), for comparison only.

    SET is add/replace, DELETE remove, EXTEND one add per item at ``/-``, and
    TRUNCATE a replace of the whole list (JSON Patch removes one index per op).
    """
    out: list[dict[str, Any]] = []
    for op in ops:
        code, path = op[0], op[1]
        pointer = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)
        if code == delta_ops.SET:
            out.append({"op": "replace", "path": pointer, "value": op[2]})
        elif code == delta_ops.DELETE:
            out.append({"op": "remove", "path": pointer})
        elif code == delta_ops.EXTEND:
            out.extend({"op": "add", "path": pointer + "/-", "value": v} for v in op[2])
        else:
            node = new
            for step in path:
                node = node[step]
            out.append({"op": "replace", "path": pointer, "value": node})
    return json.dumps(out, separators=(",", ":")).encode()


# --- 4. whole games without the network ---------------------------------------------------


def games_per_second(plan: Plan) -> dict[str, Any]:
    game = games.load(GAME_ID)
    actions = 0
    bot_ns = 0
    started = time.perf_counter_ns()
    for g in range(plan.speed_games):
        seed = 1 + g
        session = Session(game, SEATS, seed=seed)
        rng = random.Random(seed)
        while session.result is None:
            seat = next(iter(session.actors()))
            t0 = time.perf_counter_ns()
            action = game.bot(session.view(seat), seat, rng)
            bot_ns += time.perf_counter_ns() - t0
            session.submit(seat, action, session.state_id)
            actions += 1
    elapsed = time.perf_counter_ns() - started
    return {
        "players": SEATS, "games": plan.speed_games, "actions": actions,
        "seconds": round(elapsed / 1e9, 3),
        "games_per_s": round(plan.speed_games / (elapsed / 1e9), 2),
        "actions_per_s": round(actions / (elapsed / 1e9), 1),
        "actions_per_game": round(actions / plan.speed_games, 1),
        "bot_share": round(bot_ns / elapsed, 3),
    }


# --- 6. the window ---------------------------------------------------------------------


def ui_rows(quick: bool) -> dict[str, Any]:
    """The window's figures (``ui.tools.bench``), measured in a child process offscreen so
    they share nothing with this one; ``skipped`` with the reason when the window
    cannot run here (no PyQt6, say): the headless benchmark still reports."""
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    command = [sys.executable, "-m", "ui.tools.bench", "--json", *(["--quick"] if quick else [])]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True,
                              timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"skipped": f"the window's benchmark did not run ({exc})"}
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"skipped": f"the window's benchmark failed: {tail[:200]}"}
    try:
        found: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        return {"skipped": "the window's benchmark printed no JSON"}
    return found


# --- aims and output ------------------------------------------------------------------------


def aims(report: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def aim(text: str, value: float, limit: float) -> None:
        out.append({"aim": text, "value": value, "limit": limit, "met": value <= limit})

    for row in report["latency"]:
        aim(f"latency p99 with saving, {row['peers']} peers, within "
            f"{AIM_DURABLE_RATIO:g}x the durable floor", row["ratio_p99_durable"],
            AIM_DURABLE_RATIO)
    for row in report["latency"]:
        aim(f"latency p99 without saving, {row['peers']} peers, within "
            f"{AIM_PLAIN_RATIO:g}x the plain floor", row["no_save"]["ratio_p99"],
            AIM_PLAIN_RATIO)
    rows = report.get("games") or []
    if rows:
        worst = max(rows, key=lambda r: r["host_work_cpu_p99_us"])
        aim(f"host work p99 (CPU time) under 1 ms for every game at its largest seat "
            f"count (worst: {worst['label']}, {worst['seats']} seats)",
            worst["host_work_cpu_p99_us"], AIM_HOST_US)
        biggest = max(rows, key=lambda r: r["delta_snapshot_ratio"])
        aim(f"deltas under a tenth of snapshots for every game (worst: {biggest['label']})",
            biggest["delta_snapshot_ratio"], AIM_DELTA_RATIO)
    tables = (report.get("ui") or {}).get("tables") or []
    if tables:
        slow = max(tables, key=lambda r: r["frame_p99_ms"])
        aim(f"every table's frame p99 under 16 ms (worst: {slow['label']})",
            slow["frame_p99_ms"], AIM_FRAME_MS)
    startup = (report.get("ui") or {}).get("startup_ms")
    if startup is not None:
        aim("the window open (Home shown) in under 1.5 s, median of the runs", startup,
            AIM_STARTUP_MS)
    return out


def render(r: dict[str, Any]) -> str:
    m = r["machine"]
    lines = [
        f"lanplay bench ({r['mode']}): Alles klar?, {SEATS} seats, loopback TCP, "
        f"host and all peers in one asyncio loop",
        f"machine: {m['cpu']}, {m['nproc']} CPUs, {m['python']}, load {m['loadavg_start']}",
        "",
        "1. Intent -> delta applied at every peer (ms); the host saves after each action",
        "   (its default, to a temporary folder) unless marked; floor: plain asyncio streams;",
        "   durable floor: the same plus one fdatasync'd journal line per round",
        "   peers (seats+spectators)  samples     p50     p99 | floor p50   p99 |"
        " ratio p50   p99 | durable p50   p99 | ratio p50   p99",
    ]
    for row in r["latency"]:
        f, d, bare = row["floor"], row["floor_durable"], row["no_save"]
        label = f"{row['peers']} ({row['seats']}+{row['spectators']})"
        lines.append(
            f"   {label:<24} {row['samples']:>8} {row['p50_ms']:>7.2f} {row['p99_ms']:>7.2f} |"
            f" {f['p50_ms']:>9.2f} {f['p99_ms']:>5.2f} |"
            f" {row['ratio_p50']:>8.1f}x {row['ratio_p99']:>4.1f}x |"
            f" {d['p50_ms']:>11.2f} {d['p99_ms']:>5.2f} |"
            f" {row['ratio_p50_durable']:>8.1f}x {row['ratio_p99_durable']:>4.1f}x")
        lines.append(
            f"   {'  host not saving':<24} {bare['samples']:>8} {bare['p50_ms']:>7.2f}"
            f" {bare['p99_ms']:>7.2f} | {'':>9} {'':>5} |"
            f" {bare['ratio_p50']:>8.1f}x {bare['ratio_p99']:>4.1f}x |")
    floor_sizes = ", ".join(f"{row['floor']['frame_bytes']} B" for row in r["latency"])
    line_sizes = ", ".join(f"{row['floor_durable']['journal_line_bytes']} B"
                           for row in r["latency"])
    lines += [
        f"   floor frame = median delta frame measured at the peers ({floor_sizes}); "
        f"journal line {line_sizes}; resyncs: {sum(row['resyncs'] for row in r['latency'])}",
        "",
    ]
    b = r["bytes"]
    lines += [
        "2. Bytes per action per peer (frames, 4-byte length included; 4 seats + 12 "
        "spectators)",
        f"   delta median {b['delta_median_bytes']:g} B (mean {b['delta_mean_bytes']:g}, "
        f"p99 {b['delta_p99_bytes']:g})   snapshot of the same view median "
        f"{b['snapshot_median_bytes']:g} B (mean {b['snapshot_mean_bytes']:g})",
        f"   delta / snapshot = {b['ratio']:.3f}   (ops vs the same change as JSON Patch: "
        f"{b['ops_vs_json_patch_median']:.2f}x the bytes)",
        "",
    ]
    w = r["host_work"]
    lines += [
        f"3. Host work per action, {w['connections']} connections ({w['viewers']} distinct "
        f"views), no sockets ({w['actions']} actions)",
        f"   mean {w['mean_us']:.0f} us   p50 {w['p50_us']:.0f} us   p99 {w['p99_us']:.0f} us"
        f"   (means: submit {w['submit_mean_us']:.0f}, deltas {w['deltas_mean_us']:.0f}, "
        f"pack+frame {w['encode_mean_us']:.0f} us)",
        "",
    ]
    s = r["games_per_second"]
    lines += [
        f"4. Whole bot games without the network ({s['players']} players, "
        f"{s['games']} games)",
        f"   {s['games_per_s']:.1f} games/s   {s['actions_per_s']:.0f} actions/s   "
        f"{s['actions_per_game']:.1f} actions/game   (bot's share of the time "
        f"{s['bot_share']:.0%})",
        "",
    ]
    rows = r.get("games") or []
    if rows:
        lines += [
            f"5. Every game at its largest seat count, all seats and "
            f"{rows[0]['spectators']} spectators connected, no sockets",
            "   game                     seats actions | host work p50    p99 us | CPU p50"
            "    p99 us |  delta  snapshot  ratio",
        ]
        for g in rows:
            lines.append(
                f"   {g['label']:<24} {g['seats']:>5} {g['actions']:>7} |"
                f" {g['host_work_p50_us']:>13.0f} {g['host_work_p99_us']:>6.0f}    |"
                f" {g['host_work_cpu_p50_us']:>7.0f} {g['host_work_cpu_p99_us']:>6.0f}    |"
                f" {g['delta_median_bytes']:>6.0f} {g['snapshot_median_bytes']:>9.0f}"
                f" {g['delta_snapshot_ratio']:>6.3f}")
            phys = g.get("physics")
            if phys:
                lines.append(
                    f"     physics (whole apply): jump p50 {phys['jump_p50_us']:.0f} us, p99 "
                    f"{phys['jump_p99_us']:.0f} us ({phys['jump_count']}); dive p50 "
                    f"{phys['dive_p50_us']:.0f} us, p99 {phys['dive_p99_us']:.0f} us "
                    f"({phys['dive_count']})")
        lines.append("")
    window = r.get("ui") or {}
    if window.get("tables"):
        lines += [
            "6. The window, offscreen, fed the views of a seeded game (one seat's); apply: "
            "set_view",
            "   until the scene is updated (the table itself; the window's pacing queue is "
            "not in it)",
            "   table                       views | apply p50   p99 ms | frames  frame p50"
            "   p99 ms",
        ]
        for t in window["tables"]:
            lines.append(
                f"   {t['label']:<26} {t['views']:>6} | {t['apply_p50_ms']:>9.2f}"
                f" {t['apply_p99_ms']:>5.2f}    | {t['frames']:>6} {t['frame_p50_ms']:>10.2f}"
                f" {t['frame_p99_ms']:>5.2f}")
        lines.append(f"   start-up, process start to Home shown: median "
                     f"{window['startup_ms']:.0f} ms of {len(window['startup_runs_ms'])} "
                     f"({', '.join(f'{x:.0f}' for x in window['startup_runs_ms'])})")
        lines.append("")
    elif window.get("skipped"):
        lines += [f"6. The window: not measured ({window['skipped']})", ""]
    lines.append("Aims")
    for aim in r["aims"]:
        mark = "PASS" if aim["met"] else "MISS"
        lines.append(f"   [{mark}] {aim['aim']}: {aim['value']:g} (limit {aim['limit']:g})")
    lines.append(f"\n{r['seconds']:.1f} s in all; load at the end {m['loadavg_end']}")
    return "\n".join(lines)
