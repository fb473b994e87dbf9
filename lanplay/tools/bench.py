"""``lanplay bench``: what one action costs, measured on this machine.

This module runs the parts and reports them with their aims; the parts are
``latency`` (1), ``hostwork`` (2-4), ``gamebench`` (every game), ``peercost``
(every game's deltas at a peer) and the window's rows (``ui.tools.bench``, in a child process).

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
import json
import os
import subprocess
import sys
import time
from typing import Any

from lanplay.tools import gamebench, peercost
from lanplay.tools.figures import GAME_ID, SEATS, Plan, loadavg, machine_info
from lanplay.tools.hostwork import frame_sizes, games_per_second, host_work
from lanplay.tools.latency import latency_all

AIM_DURABLE_RATIO = 3.0
"""Latency p99 with saving against the durable floor's p99."""
AIM_PLAIN_RATIO = 8.0
"""Latency p99 without saving against the plain floor's p99."""
AIM_PLAIN_P50_RATIO = 10.0
"""Latency p50 without saving against the plain floor's p50."""
AIM_DELTA_RATIO = 0.1
AIM_HOST_US = 1000.0
"""Host work p99 per action, every game at its largest seat count."""
AIM_PEER_US = 60.0
"""A seat's CPU time p99 per delta received (``peercost``), every game."""
AIM_FRAME_MS = 16.0
AIM_STARTUP_MS = 1500.0

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
    latency = asyncio.run(latency_all(plan))
    work = host_work(plan)
    size = frame_sizes(plan)
    speed = games_per_second(plan)
    every = gamebench.measure_all(plan.game_seeds)
    peer = peercost.measure_all(plan.game_seeds)
    window = ui_rows(quick) if plan.ui else {"skipped": "not asked for"}
    report: dict[str, Any] = {
        "bench": "lanplay", "game": GAME_ID, "mode": "quick" if quick else "full",
        "machine": machine, "latency": latency, "bytes": size, "host_work": work,
        "games_per_second": speed, "games": every, "peer_cost": peer, "ui": window,
    }
    report["aims"] = aims(report)
    report["machine"]["loadavg_end"] = loadavg()
    report["seconds"] = round(time.perf_counter() - started, 2)
    return report


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
    for row in report["latency"]:
        aim(f"latency p50 without saving, {row['peers']} peers, within "
            f"{AIM_PLAIN_P50_RATIO:g}x the plain floor", row["no_save"]["ratio_p50"],
            AIM_PLAIN_P50_RATIO)
    rows = report.get("games") or []
    if rows:
        worst = max(rows, key=lambda r: r["host_work_cpu_p99_us"])
        aim(f"host work p99 (CPU time) under 1 ms for every game at its largest seat "
            f"count (worst: {worst['label']}, {worst['seats']} seats)",
            worst["host_work_cpu_p99_us"], AIM_HOST_US)
        biggest = max(rows, key=lambda r: r["delta_snapshot_ratio"])
        aim(f"deltas under a tenth of snapshots for every game (worst: {biggest['label']})",
            biggest["delta_snapshot_ratio"], AIM_DELTA_RATIO)
    peers = report.get("peer_cost") or []
    if peers:
        worst = max(peers, key=lambda r: r["seat"]["total_cpu_p99_us"])
        aim(f"a seat's work per delta received p99 (CPU time) under {AIM_PEER_US:g} us for "
            f"every game (worst: {worst['label']})", worst["seat"]["total_cpu_p99_us"],
            AIM_PEER_US)
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
    peers = r.get("peer_cost") or []
    if peers:
        lines += [
            "7. Every game's deltas at the peer, seat 0 and a spectator, no sockets: "
            "decode, check, apply,",
            "   the fair-play digest and the view event, each on its own; total: the peer's "
            "own path (CPU: this thread's time)",
            *peercost.render(peers), "",
        ]
    lines.append("Aims")
    for aim in r["aims"]:
        mark = "PASS" if aim["met"] else "MISS"
        lines.append(f"   [{mark}] {aim['aim']}: {aim['value']:g} (limit {aim['limit']:g})")
    lines.append(f"\n{r['seconds']:.1f} s in all; load at the end {m['loadavg_end']}")
    return "\n".join(lines)
