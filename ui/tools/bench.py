"""The window's own cost, for ``lanplay bench``: each table, and the start-up.

``python -m ui.tools.bench --json`` (``lanplay bench`` runs it in a child process,
offscreen, so the window's figures share nothing with the network bench):

- **Tables.** A real table widget (1280x800, shown offscreen) is fed the views
  one seat (seat 0; S-tier's with the leader's note its laptop keeps) is sent
  in a seeded bot game, one after the other, as the window's ``set_view``
  would. *apply* is one ``set_view`` call: from the view handed to the table
  to its scene updated (the table rebuilds its items there; nothing is left
  for later but painting). The window's pacing queue (``ui.services.pacing``), which
  holds a view back while the one before animates, is not in it: this is the
  table's own cost. *frame* is one animation frame: the running animation
  moved on 16 ms and the felt view's viewport (S-tier: its board) painted at
  once (``repaint``), until the animation ends (at most 60 frames); the first
  frame after each ``set_view`` repaints the whole table (banner, log, felt).
- **Start-up.** ``python -m ui.tools.bench --startup-child`` runs the window's own
  ``ui.app.run`` with an event filter on the Home page that notes its first
  paint; the parent times from before it starts the process to that moment
  (both on the system-wide monotonic clock), six times with a fresh data folder
  each, and reports the median of the last five (the first warms the disk
  cache).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

FRAME_MS = 16
MAX_FRAMES = 60
STARTUP_RUNS = 5
COLOURS = ["#e4572e", "#29335c", "#f3a712", "#a8c686", "#669bbc", "#9b5de5", "#f15bb5",
           "#00bbf9", "#00f5d4", "#fee440", "#8d99ae", "#ef476f", "#06d6a0", "#118ab2",
           "#073b4c", "#ffd166"]


def _percentile(values: list[float], q: float) -> float:
    data = sorted(values)
    if not data:
        return 0.0
    pos = (len(data) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def table_rows(views_per_table: int) -> list[dict[str, Any]]:
    from PyQt6.QtWidgets import QApplication

    from lanplay.tools import gamebench
    from ui.look import fonts
    from ui.tables import table_for

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    fonts.ensure_fonts(app)
    rows = []
    for case in gamebench.CASES:
        shown = _shown_views(case, views_per_table)
        seats = [{"name": f"Player {i + 1}", "colour": COLOURS[i % len(COLOURS)],
                  "bot": i > 0, "connected": True, "ready": True, "owner": i == 0,
                  "away_for": None, "standin": False} for i in range(case.seats)]
        table = table_for(case.game)()
        table.resize(1280, 800)
        table.show()
        app.processEvents()
        surface = _surface(table)
        applies: list[float] = []
        frames: list[float] = []
        firsts: list[float] = []
        animated: list[float] = []
        for view in shown:
            t0 = time.perf_counter_ns()
            table.set_view(view, seats, 0)  # type: ignore[attr-defined]
            applies.append((time.perf_counter_ns() - t0) / 1e6)
            t0 = time.perf_counter_ns()
            table.repaint()  # the first frame: everything the new view changed
            frames.append((time.perf_counter_ns() - t0) / 1e6)
            firsts.append(frames[-1])
            anim = _running(table)
            total = anim.totalDuration() if anim is not None else 0
            at = FRAME_MS
            count = 0
            while anim is not None and 0 < at <= total and count < MAX_FRAMES:
                t0 = time.perf_counter_ns()
                anim.setCurrentTime(at)
                surface.repaint()
                frames.append((time.perf_counter_ns() - t0) / 1e6)
                animated.append(frames[-1])
                at += FRAME_MS
                count += 1
            app.processEvents()  # timers, deferred deletes: as the loop would between views
        table.close()
        table.deleteLater()
        app.processEvents()
        rows.append({
            "game": case.game, "mode": case.mode or "standard", "label": case.label,
            "seats": case.seats, "views": len(applies), "frames": len(frames),
            "apply_p50_ms": round(_percentile(applies, 50), 2),
            "apply_p99_ms": round(_percentile(applies, 99), 2),
            "apply_max_ms": round(max(applies), 2),
            "frame_p50_ms": round(_percentile(frames, 50), 2),
            "frame_p99_ms": round(_percentile(frames, 99), 2),
            "frame_max_ms": round(max(frames), 2),
            "first_frame_p99_ms": round(_percentile(firsts, 99), 2),
            "animation_frame_p99_ms": round(_percentile(animated, 99), 2),
        })
    return rows


def _shown_views(case: Any, limit: int) -> list[dict[str, Any]]:
    """Seat 0's views (as its laptop shows them) in seed 1's bot game of ``case``."""
    from lanplay.tools import gamebench

    shown: list[dict[str, Any]] = []

    def keep(session: Any, laptops: Any) -> None:
        shown.append(laptops.shown(session.state, 0))

    gamebench.bot_actions(case, 1, keep, limit=limit)
    return shown


def _surface(table: Any) -> Any:
    """What an animation frame repaints: the felt view's viewport, or S-tier's board."""
    graphics = getattr(table, "graphics", None)
    if graphics is not None:
        return graphics.viewport()
    return getattr(table, "board", table)


def _running(table: Any) -> Any:
    """The table's running animation, if any (the felt tables' ``Motion``, the board's)."""
    from PyQt6.QtCore import QAbstractAnimation

    for owner in (table, getattr(table, "board", None)):
        anim = getattr(owner, "_anim", None) if owner is not None else None
        if isinstance(anim, QAbstractAnimation) \
                and anim.state() == QAbstractAnimation.State.Running:
            return anim
    return None


def startup(runs: int = STARTUP_RUNS) -> list[float]:
    """Milliseconds from starting a process to its Home page painted, per run (the
    first, a warm-up, left out)."""
    out = []
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    for _ in range(runs + 1):
        with tempfile.TemporaryDirectory(prefix="lanplay-start-") as data:
            env["LANPLAY_DATA_DIR"] = data
            t0 = time.monotonic()
            done = subprocess.run([sys.executable, "-m", "ui.tools.bench", "--startup-child"],
                                  env=env, capture_output=True, text=True, timeout=60,
                                  check=False)
            shown = [line for line in done.stdout.splitlines() if line.startswith("home ")]
            if not shown:
                raise RuntimeError(f"the window did not start: {done.stderr[-400:]}")
            out.append((float(shown[-1].split()[1]) - t0) * 1000)
    return [round(x, 1) for x in out[1:]]


def _startup_child() -> int:
    """The window as ``lanplay`` opens it; print when Home first paints, then close."""
    from PyQt6.QtCore import QEvent, QObject

    from ui import app

    class Watch(QObject):
        def __init__(self, window: Any) -> None:
            super().__init__()
            self.window = window
            self.seen = False

        def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
            if (not self.seen and event is not None
                    and event.type() == QEvent.Type.Paint):
                self.seen = True
                print(f"home {time.monotonic():.6f}", flush=True)
                self.window.close()
            return False

    base = getattr(app, "MainWindow")  # noqa: B009 (the name the app module builds from)

    class Timed(base):  # type: ignore[misc, valid-type]
        def show(self) -> None:
            self._watch = Watch(self)
            self.home.installEventFilter(self._watch)
            super().show()

    setattr(app, "MainWindow", Timed)  # noqa: B010
    return app.run()


def measure(quick: bool = False) -> dict[str, Any]:
    runs = startup(1 if quick else STARTUP_RUNS)
    return {
        "tables": table_rows(12 if quick else 100),
        "startup_ms": round(statistics.median(runs), 1), "startup_runs_ms": runs,
        "views_note": "seat 0's views of seed 1, fed in order to set_view (the table "
                      "itself, not the window's pacing queue)",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the window's cost (tables, start-up)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--startup-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.startup_child:
        return _startup_child()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    out = measure(args.quick)
    print(json.dumps(out, indent=1) if args.json else out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
