"""``lanplay bench``, parts 2 to 4, without sockets: the host's work per action with
16 connections, the bytes of a delta against a snapshot (and against JSON Patch),
and bot games per second."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Iterable
from typing import Any

from lanplay import games
from lanplay.session import Session
from lanplay.tools.figures import CONNS, GAME_ID, SEATS, Plan, percentile, us
from protocol import delta as delta_ops
from protocol.codec import MAX_FRAME, encode, frame, pack
from protocol.messages import Accepted, Snapshot, to_wire


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
        "mean_us": us(statistics.fmean(total)), "p50_us": us(percentile(total, 50)),
        "p99_us": us(percentile(total, 99)), "max_us": us(max(total)),
        "submit_mean_us": us(statistics.fmean(parts["submit"])),
        "deltas_mean_us": us(statistics.fmean(parts["deltas"])),
        "encode_mean_us": us(statistics.fmean(parts["encode"])),
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
