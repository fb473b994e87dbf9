"""Figures the benchmarks share: percentiles, units, the machine a run measured on."""

from __future__ import annotations

import contextlib
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

GAME_ID = "alles-klar"
"""The game the end-to-end figures replay (its own bot, seeded)."""
SEATS = 4
PEER_COUNTS = (4, 16)
CONNS: list[int | None] = [*range(SEATS), *([None] * 12)]
"""The 16 connections of the host's work and the bytes: one per seat, then 12 spectators."""
TIMEOUT = 30.0
"""Seconds any one awaited step may take before the run is declared stuck."""


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


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100), linear between ranks (numpy's default)."""
    data = sorted(values)
    if not data:
        return 0.0
    pos = (len(data) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def ms(ns: float) -> float:
    return round(ns / 1e6, 3)


def us(ns: float) -> float:
    return round(ns / 1e3, 1)


def loadavg() -> list[float]:
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
        "platform": platform.platform(), "loadavg_start": loadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    }
