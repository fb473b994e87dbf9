"""``lanplay bench --quick --json`` runs end to end and reports every figure.

Not a timed test: nothing here asserts a speed, only that each figure is
there and is a sane positive number (CI machines are slow and busy).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from lanplay.tools import peercost
from lanplay.tools.bench import render, run_bench
from lanplay.tools.gamebench import CASES

LATENCY = ("p50_ms", "p99_ms", "mean_ms", "max_ms", "delta_frame_median_bytes",
           "ratio_p50", "ratio_p99")
FLOOR = ("samples", "frame_bytes", "request_bytes", "p50_ms", "p99_ms", "mean_ms", "max_ms")
BYTES = ("samples", "delta_median_bytes", "snapshot_median_bytes", "ratio",
         "delta_mean_bytes", "snapshot_mean_bytes", "delta_p99_bytes",
         "ops_vs_json_patch_median")
WORK = ("connections", "viewers", "actions", "games", "mean_us", "p50_us", "p99_us", "max_us",
        "submit_mean_us", "deltas_mean_us", "encode_mean_us")
SPEED = ("players", "games", "actions", "seconds", "games_per_s", "actions_per_s",
         "actions_per_game", "bot_share")
GAME_ROW = ("seats", "spectators", "connections", "viewers", "games", "actions",
            "host_work_p50_us", "host_work_p99_us", "host_work_mean_us", "host_work_cpu_p50_us",
            "host_work_cpu_p99_us", "delta_median_bytes",
            "snapshot_median_bytes", "delta_snapshot_ratio")
PEER_COST = ("deltas", *(f"{step}_{q}_us" for step in (*peercost.STEPS, "total", "total_cpu")
                         for q in ("p50", "p99")))
TABLE_ROW = ("seats", "views", "frames", "apply_p50_ms", "apply_p99_ms", "frame_p50_ms",
             "frame_p99_ms")
LARGEST = {("alles-klar", "standard"): 5, ("ranking", "standard"): 5,
           ("s-tier", "cooperative"): 6, ("s-tier", "competitive"): 11,
           ("s-tier", "team"): 16, ("ranking-top", "standard"): 5,
           ("ranagedon", "standard"): 4}


def positive(section: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    for key in keys:
        assert key in section, f"{where} has no {key!r}"
        value = section[key]
        assert isinstance(value, int | float) and not isinstance(value, bool), (where, key)
        assert math.isfinite(value) and value > 0, f"{where}.{key} = {value!r}"


@pytest.mark.timeout(120)
def test_quick_bench_reports_every_figure_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bench(as_json=True, quick=True) == 0
    report = json.loads(capsys.readouterr().out)

    assert report["mode"] == "quick" and report["game"] == "alles-klar"
    machine = report["machine"]
    assert machine["nproc"] >= 1 and machine["cpu"] and machine["python"] and machine["date"]

    rows = report["latency"]
    assert [(r["peers"], r["seats"], r["spectators"]) for r in rows] == [(4, 4, 0), (16, 4, 12)]
    for row in rows:
        where = f"latency[{row['peers']}]"
        positive(row, LATENCY, where)
        positive(row["floor"], FLOOR, f"{where}.floor")
        positive(row["no_save"], ("samples", *LATENCY[:4], "ratio_p50", "ratio_p99"),
                 f"{where}.no_save")
        positive(row, ("ratio_p50_durable", "ratio_p99_durable"), where)
        positive(row["floor_durable"], ("samples", "journal_line_bytes", *FLOOR[3:]),
                 f"{where}.floor_durable")
        assert row["samples"] == row["no_save"]["samples"] == row["floor"]["samples"] \
            == row["floor_durable"]["samples"] >= 20
        assert row["p99_ms"] >= row["p50_ms"] and row["floor"]["p99_ms"] >= row["floor"]["p50_ms"]
        assert row["resyncs"] == 0
        # The floor sends frames of the size the peers really received.
        assert row["floor"]["frame_bytes"] == pytest.approx(row["delta_frame_median_bytes"],
                                                            rel=0.2)

    size = report["bytes"]
    positive(size, BYTES, "bytes")
    assert size["delta_median_bytes"] < size["snapshot_median_bytes"]
    assert 0 < size["ratio"] < 1

    work = report["host_work"]
    positive(work, WORK, "host_work")
    assert (work["connections"], work["viewers"]) == (16, 5)
    assert work["p99_us"] >= work["p50_us"]

    speed = report["games_per_second"]
    positive(speed, SPEED, "games_per_second")
    assert 0 < speed["bot_share"] <= 1

    rows = report["games"]
    assert {(g["game"], g["mode"]): g["seats"] for g in rows} == LARGEST
    for g in rows:
        positive(g, GAME_ROW, f"games[{g['label']}]")
        assert g["spectators"] == 4 and g["connections"] == g["seats"] + 4
        assert g["viewers"] == g["seats"] + 1  # the spectators share one view
        assert g["host_work_p99_us"] >= g["host_work_p50_us"]
    ranagedon = next(g for g in rows if g["game"] == "ranagedon")
    positive(ranagedon["physics"], ("jump_count", "jump_p50_us", "jump_p99_us",
                                    "dive_count", "dive_p50_us", "dive_p99_us"), "physics")

    rows = report["peer_cost"]
    assert {(g["game"], g["mode"]): g["seats"] for g in rows} == LARGEST
    for g in rows:
        well_shaped_peer_cost(g)

    window = report["ui"]
    assert "skipped" not in window, window
    assert {(t["game"], t["mode"]) for t in window["tables"]} == set(LARGEST)
    for t in window["tables"]:
        positive(t, TABLE_ROW, f"ui[{t['label']}]")
    positive(window, ("startup_ms",), "ui")

    aims = report["aims"]
    assert len(aims) == 11
    assert any("per delta received" in aim["aim"] and aim["limit"] == 60 for aim in aims)
    assert sum("p50 without saving" in aim["aim"] and aim["limit"] == 10 for aim in aims) == 2
    for aim in aims:
        assert aim["aim"] and isinstance(aim["met"], bool)
        assert aim["value"] > 0 and aim["limit"] > 0

    assert report["seconds"] > 0
    table = render(report)
    assert "Aims" in table and "floor" in table and "at the peer" in table


def well_shaped_peer_cost(row: dict[str, Any]) -> None:
    assert row["resyncs"] == 0 and row["games"] >= 1
    for role in ("seat", "spectator"):
        figures = row[role]
        positive(figures, PEER_COST, f"peer_cost[{row['label']}].{role}")
        for step in (*peercost.STEPS, "total", "total_cpu"):
            assert figures[f"{step}_p99_us"] >= figures[f"{step}_p50_us"], (role, step)


def test_peer_cost_times_each_step_of_a_delta_for_a_seat_and_a_spectator() -> None:
    """One seeded game of the largest S-tier: every delta a seat and a spectator got."""
    case = next(c for c in CASES if c.mode == "team")
    row = peercost.measure_case(case, [1])
    assert (row["game"], row["mode"], row["seats"]) == ("s-tier", "team", 16)
    well_shaped_peer_cost(row)
    assert row["seat"]["deltas"] == row["spectator"]["deltas"] > 20
    assert peercost.render([row])[1].split()[:3] == ["S-tier", "team", "seat"]
