"""Every game at its largest seat count: host work and bytes per action (``lanplay bench``).

For each game and mode, seeded bot games through a ``Session`` (no sockets),
every seat connected and 4 spectators watching. S-tier is played through
``lanplay.peer.keeper.Laptops``, as its leader's note stays on the leader's laptop:
the host gets the commitment, the count and the reveal as actions, as it does
over the network; a deadline's action comes from the host itself (SYSTEM).
Every action the host applies is timed the way ``Play.after_action`` does it:
``Session.submit``, then ``fanout.bodies`` (each distinct viewer's delta,
packed once), a frame per connection and the ``Accepted``; by the clock
(``host_work_*``) and by this thread's CPU time (``host_work_cpu_*``), which
leaves out the moments another process had the core: on a shared machine the
clock's p99 is mostly those (a 4 ms scheduler tick), not the host's work.

Sizes come from a second pass over the same actions (so the sizing does not
disturb the timing): after each action, every connection's delta frame and the
frame of a full snapshot of its view at that state. For Ranagedon it also
times the physics: the whole ``apply`` of each jump (flight, settling, skid)
of the same games, and of each dive (the pymunk slide) the rules offer there.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lanplay import games
from lanplay.game import SYSTEM, Action, Game, Seat
from lanplay.host import fanout
from lanplay.peer.keeper import Laptops
from lanplay.session import Session
from protocol.codec import encode, frame
from protocol.messages import Accepted, Snapshot

SPECTATORS = 4


@dataclass(frozen=True)
class Case:
    game: str
    mode: str | None
    seats: int

    @property
    def label(self) -> str:
        name = games.load(self.game).name
        return f"{name} {self.mode}" if self.mode else name


CASES = (
    Case("alles-klar", None, 5), Case("ranking", None, 5),
    Case("s-tier", "cooperative", 6), Case("s-tier", "competitive", 11),
    Case("s-tier", "team", 16), Case("ranking-top", None, 5), Case("ranagedon", None, 4),
)
"""One row per game and mode, at its largest seat count."""

MAX_ACTIONS = 3000
"""A bot game that has not ended by then is cut off (none comes near it)."""


def percentile(values: Sequence[float], q: float) -> float:
    data = sorted(values)
    if not data:
        return 0.0
    pos = (len(data) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def bot_actions(case: Case, seed: int,
                each: Callable[[Session, Laptops], None] | None = None,
                limit: int = MAX_ACTIONS) -> list[tuple[Seat, Action]]:
    """The actions the host applies in one seeded bot game, in order (pure rules);
    ``each`` sees the session and the laptops at the start and after every action."""
    game = games.load(case.game)
    session = Session(game, case.seats, case.mode, seed=seed)
    rng = random.Random(seed)
    laptops = Laptops(game, random.Random(seed))
    out: list[tuple[Seat, Action]] = []
    if each is not None:
        each(session, laptops)
    while session.result is None and len(out) < limit:
        move = _next(game, session, laptops, rng)
        if move is None:
            break
        session.submit(*move)
        out.append(move)
        if each is not None:
            each(session, laptops)
    return out


def _next(game: Game, session: Session, laptops: Laptops,
          rng: random.Random) -> tuple[Seat, Action] | None:
    state = session.state
    owed = laptops.due(state)
    if owed is not None:
        return owed
    for seat in sorted(session.actors()):
        action = game.bot(laptops.shown(state, seat), seat, rng)
        if action is None:
            continue
        try:
            sent = laptops.send(state, seat, action)
            game.check(state, seat, sent)
        except Exception:  # a bot's slip: the next seat may move
            continue
        return seat, sent
    timer = session.timer()
    return (SYSTEM, dict(timer.action)) if timer is not None else None


def measure_case(case: Case, seeds: Sequence[int]) -> dict[str, Any]:
    game = games.load(case.game)
    conns: list[int | None] = [*range(case.seats), *([None] * SPECTATORS)]
    viewers = set(conns)
    plays = [bot_actions(case, seed) for seed in seeds]

    total: list[int] = []
    cpu: list[int] = []
    parts: dict[str, list[int]] = {"submit": [], "deltas": [], "frames": []}
    physics: dict[str, list[int]] = {"jump": [], "dive": []}
    for seed, actions in zip(seeds, plays, strict=True):
        session = Session(game, case.seats, case.mode, seed=seed)
        for viewer in viewers:
            session.snapshot(viewer)
        for seat, action in actions:
            c0 = time.thread_time_ns()
            t0 = time.perf_counter_ns()
            session.submit(seat, action)
            t1 = time.perf_counter_ns()
            bodies = fanout.bodies(session, viewers)
            t2 = time.perf_counter_ns()
            frames = [frame(bodies[viewer]) for viewer in conns]
            frames.append(encode(Accepted(1, session.state_id)))
            t3 = time.perf_counter_ns()
            cpu.append(time.thread_time_ns() - c0)
            total.append(t3 - t0)
            parts["submit"].append(t1 - t0)
            parts["deltas"].append(t2 - t1)
            parts["frames"].append(t3 - t2)
    if case.game == "ranagedon":
        physics = _physics(game, case, seeds, plays)

    delta_sizes: list[int] = []
    snapshot_sizes: list[int] = []
    per_state: list[int] = []
    for seed, actions in zip(seeds, plays, strict=True):
        session = Session(game, case.seats, case.mode, seed=seed)
        for viewer in viewers:
            session.snapshot(viewer)
        for seat, action in actions:
            session.submit(seat, action)
            bodies = fanout.bodies(session, viewers)
            state_bytes = 0
            for viewer, body in bodies.items():
                copies = conns.count(viewer)
                snap = len(encode(Snapshot(session.state_id, session.view(viewer))))
                delta_sizes += [len(body) + 4] * copies
                snapshot_sizes += [snap] * copies
                state_bytes += (len(body) + 4) * copies
            per_state.append(state_bytes)

    d50, s50 = statistics.median(delta_sizes), statistics.median(snapshot_sizes)
    row: dict[str, Any] = {
        "game": case.game, "mode": case.mode or game.modes[0].id, "label": case.label,
        "seats": case.seats, "spectators": SPECTATORS, "connections": len(conns),
        "viewers": len(viewers), "games": len(seeds), "actions": len(total),
        "host_work_p50_us": _us(percentile(total, 50)),
        "host_work_p99_us": _us(percentile(total, 99)),
        "host_work_mean_us": _us(statistics.fmean(total)),
        "host_work_max_us": _us(max(total)),
        "host_work_cpu_p50_us": _us(percentile(cpu, 50)),
        "host_work_cpu_p99_us": _us(percentile(cpu, 99)),
        "submit_mean_us": _us(statistics.fmean(parts["submit"])),
        "deltas_mean_us": _us(statistics.fmean(parts["deltas"])),
        "frames_mean_us": _us(statistics.fmean(parts["frames"])),
        "delta_median_bytes": d50, "snapshot_median_bytes": s50,
        "delta_snapshot_ratio": round(d50 / s50, 4),
        "delta_bytes_per_state_mean": round(statistics.fmean(per_state), 1),
    }
    if case.game == "ranagedon":
        row["physics"] = {
            f"{kind}_{what}": value
            for kind, samples in physics.items()
            for what, value in (("count", len(samples)),
                                ("p50_us", _us(percentile(samples, 50))),
                                ("p99_us", _us(percentile(samples, 99))),
                                ("mean_us", _us(statistics.fmean(samples) if samples else 0)))}
    return row


def _physics(game: Game, case: Case, seeds: Sequence[int],
             plays: Sequence[Sequence[tuple[Seat, Action]]]) -> dict[str, list[int]]:
    """The time of ``game.apply`` for each jump the bots made, and for each dive the
    rules offer (``legal``'s samples: the bots never dive) at the states of the same
    games; a dive is timed, not taken."""
    out: dict[str, list[int]] = {"jump": [], "dive": []}
    for seed, actions in zip(seeds, plays, strict=True):
        session = Session(game, case.seats, case.mode, seed=seed)
        for seat, action in actions:
            state = session.state
            for actor in sorted(session.actors()):
                for dive in (a for a in game.legal(state, actor) if a.get("type") == "dive"):
                    t0 = time.perf_counter_ns()
                    game.apply(state, actor, dive)
                    out["dive"].append(time.perf_counter_ns() - t0)
            if action.get("type") == "jump":
                t0 = time.perf_counter_ns()
                game.apply(state, seat, action)
                out["jump"].append(time.perf_counter_ns() - t0)
            session.submit(seat, action)
    return out


def _us(ns: float) -> float:
    return round(ns / 1e3, 1)


def measure_all(seeds: int, progress: Callable[[str], None] | None = None,
                cases: Sequence[Case] = CASES) -> list[dict[str, Any]]:
    return each_case(measure_case, seeds, progress, cases)


def each_case(measure: Callable[[Case, Sequence[int]], dict[str, Any]], seeds: int,
              progress: Callable[[str], None] | None = None,
              cases: Sequence[Case] = CASES) -> list[dict[str, Any]]:
    """``measure`` for every case with seeds 1..``seeds`` (``peercost`` measures so too)."""
    rows = []
    for case in cases:
        if progress is not None:
            progress(case.label)
        rows.append(measure(case, range(1, seeds + 1)))
    return rows
