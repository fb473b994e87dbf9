"""``lanplay bench``'s ``peer_cost``: what one delta costs the laptop that receives it.

For every game at its largest seat count (``gamebench.CASES``), the seeded bot
games' actions are replayed through a ``Session`` (no sockets), and two real
``Peer`` objects, one in seat 0 and one spectator, are handed each frame body the
host would send them (``fanout.bodies``), after the snapshot and the fair-play
messages of a game that starts. Per delta, the steps the peer takes, each timed
on its own:

- ``decode``: the msgpack body to plain data under the host's limits
  (``codec.unpack``);
- ``check``: that data checked and made a ``Delta`` (``messages.from_wire``), then
  held to the peer's checks of what the host says (``inbound.check``: the ops'
  envelope and each op's value at the shape its path leads to);
- ``apply``: the ops applied to the peer's bounded view;
- ``digest``: the fair-play digest of the view now held (``Witness.on_view``): the
  view noted, its digest worked out when the audit comes (``Witness.flush``, timed
  at each game's end: ``digest_at_audit_mean_us`` per delta);
- ``event``: the "view" event to the peer's listeners (none here but the
  peer's own ``changed``: what a window or bot does with it is theirs).

``total`` is the whole path as the peer runs it (``Link.decode`` and
``Peer._handle``, on a second pair of peers fed the same bodies), by the clock
and by this thread's CPU time (``total_cpu``: it leaves out the moments another
process had the core, which on a shared machine are most of the clock's p99).
The aim is on ``total_cpu`` for a seat.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from lanplay import games
from lanplay.game import Viewer
from lanplay.host import fanout
from lanplay.peer import inbound
from lanplay.peer.peer import Peer
from lanplay.session import Session
from lanplay.tools.gamebench import CASES, Case, bot_actions, each_case, percentile
from protocol.codec import FROM_HOST, FrameReader, encode, unpack
from protocol.messages import Contributions, Delta, SeedCommit, from_wire

STEPS = ("decode", "check", "apply", "digest", "event")
COMMITMENT = "00" * 32


def _peer(viewer: Viewer) -> Peer:
    """A peer as a game's start leaves it: the commitment and contributions seen (so
    its witness notes every view), no connection."""
    peer = Peer("bench", spectate=viewer is None, contribution_seed=1, reconnect_for=0)
    peer.seat = viewer
    peer._handle(SeedCommit(1, COMMITMENT, 1, 1.0))
    peer._handle(Contributions(1, COMMITMENT, ["11" * 32]))
    return peer


def _steps(peer: Peer, body: bytes, out: dict[str, list[int]]) -> None:
    """One delta through the peer's steps, as ``Peer._on_delta`` takes them."""
    t0 = time.perf_counter_ns()
    data = unpack(body, FROM_HOST)
    t1 = time.perf_counter_ns()
    msg = from_wire(data, checked=True)
    msg = inbound.check(msg, peer.lobby, peer._delta_base(msg))
    t2 = time.perf_counter_ns()
    assert isinstance(msg, Delta) and peer._view is not None and msg.base == peer.state_id
    peer._view.apply(msg.ops)
    peer.state_id = msg.state_id
    t3 = time.perf_counter_ns()
    peer.witness.on_view(msg.state_id, peer._view.value, peer.seat, msg.ops, peer._view.work)
    t4 = time.perf_counter_ns()
    peer._notify("view", None)
    t5 = time.perf_counter_ns()
    for name, start, end in zip(STEPS, (t0, t1, t2, t3, t4), (t1, t2, t3, t4, t5),
                                strict=True):
        out[name].append(end - start)


def _whole(peer: Peer, reader: FrameReader, body: bytes, clock: list[int],
           cpu: list[int]) -> None:
    """One delta the way the peer's loop takes it: decode, then ``_handle``."""
    c0 = time.thread_time_ns()
    t0 = time.perf_counter_ns()
    peer._handle(reader.decode(body))
    t1 = time.perf_counter_ns()
    cpu.append(time.thread_time_ns() - c0)
    clock.append(t1 - t0)


def measure_case(case: Case, seeds: Sequence[int]) -> dict[str, Any]:
    game = games.load(case.game)
    roles: dict[str, Viewer] = {"seat": 0, "spectator": None}
    steps: dict[str, dict[str, list[int]]] = {role: {name: [] for name in STEPS}
                                              for role in roles}
    totals: dict[str, tuple[list[int], list[int]]] = {role: ([], []) for role in roles}
    deferred = dict.fromkeys(roles, 0)
    resyncs = 0
    for seed in seeds:
        actions = bot_actions(case, seed)
        session = Session(game, case.seats, case.mode, seed=seed)
        split = {role: _peer(viewer) for role, viewer in roles.items()}
        whole = {role: _peer(viewer) for role, viewer in roles.items()}
        readers = {role: FrameReader() for role in roles}
        for role, viewer in roles.items():
            snapshot = encode(session.snapshot(viewer))[4:]
            for peer in (split[role], whole[role]):
                peer._handle(readers[role].decode(snapshot))
        for seat, action in actions:
            session.submit(seat, action)
            bodies = fanout.bodies(session, set(roles.values()))
            for role, viewer in roles.items():
                _steps(split[role], bodies[viewer], steps[role])
                _whole(whole[role], readers[role], bodies[viewer], *totals[role])
        for role in roles:
            t0 = time.perf_counter_ns()
            split[role].witness.flush()  # what waited for the audit
            deferred[role] += time.perf_counter_ns() - t0
            # The two ways of taking the deltas must end at the same view.
            assert split[role].view == whole[role].view, (case, seed, role)
            noted = [peer.witness.seen for peer in (split[role], whole[role])]
            assert noted[0] is not None and noted[1] is not None
            assert noted[0].views == noted[1].views
            resyncs += split[role].resyncs + whole[role].resyncs
    row: dict[str, Any] = {
        "game": case.game, "mode": case.mode or game.modes[0].id, "label": case.label,
        "seats": case.seats, "games": len(seeds), "resyncs": resyncs,
    }
    for role in roles:
        clock, cpu = totals[role]
        figures: dict[str, Any] = {
            "deltas": len(clock),
            "digest_at_audit_mean_us": _us(deferred[role] / max(len(clock), 1))}
        for name, samples in (*steps[role].items(), ("total", clock), ("total_cpu", cpu)):
            figures[f"{name}_p50_us"] = _us(percentile(samples, 50))
            figures[f"{name}_p99_us"] = _us(percentile(samples, 99))
        row[role] = figures
    return row


def _us(ns: float) -> float:
    return round(ns / 1e3, 2)


def measure_all(seeds: int, progress: Callable[[str], None] | None = None,
                cases: Sequence[Case] = CASES) -> list[dict[str, Any]]:
    return each_case(measure_case, seeds, progress, cases)


def main() -> None:
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = measure_all(args.seeds)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for line in render(rows):
        print(line)


def render(rows: Sequence[dict[str, Any]]) -> list[str]:
    head = " ".join(f"{name:>9}" for name in STEPS)
    lines = [f"   game                     who        deltas | p50/p99 us: {head} |"
             f"     total  total CPU"]
    for r in rows:
        for role in ("seat", "spectator"):
            f = r[role]
            cells = " ".join(f"{f[f'{n}_p50_us']:>4.0f}/{f[f'{n}_p99_us']:<4.0f}" for n in STEPS)
            lines.append(
                f"   {r['label'] if role == 'seat' else '':<24} {role:<10} {f['deltas']:>6} |"
                f"             {cells} | {f['total_p50_us']:>4.0f}/{f['total_p99_us']:<4.0f}"
                f" {f['total_cpu_p50_us']:>4.0f}/{f['total_cpu_p99_us']:<4.0f}")
    return lines


if __name__ == "__main__":
    main()
