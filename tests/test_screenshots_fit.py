"""The fit check over every screen at three window sizes: nothing cut off, clipped or
overlapping (issue 11, "A check you build").

``lanplay screenshots`` renders the real window offscreen (a real host, bots, real
games' views) and writes ``fit.json`` per size, read from the widgets and scene items
themselves after layout; this test fails on any entry and prints them all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SIZES = ("1024x640", "1280x800", "1920x1080")
SCREENS = ("home", "host-dialog", "host-dialog-bottom", "room", "room-16p", "table",
           "table-chat", "game-over", "alles-klar-5p-trick", "alles-klar-5p-spectator",
           "ranking-top", "s-tier-competitive-reveal", "s-tier-competitive-11p",
           "s-tier-team-16p", "s-tier-team-16p-over", "ranagedon-4p-chat",
           "ranking-5p-bots", "ranking-5p-bots-reveal", "s-tier-competitive-reveal-held",
           "s-tier-competitive-revealing", "s-tier-cooperative-count")
"""Screens the issue names, which must be among those checked (there are more), and
the merge's: bots' badges as pills, a reveal held on the board, a laptop's wait."""


def test_every_screen_fits_at_every_size(tmp_path: Path) -> None:
    out = tmp_path / "shots"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LANPLAY_DATA_DIR": str(tmp_path),
           "QT_LOGGING_RULES": "qt.qpa.*=false"}
    done = subprocess.run([sys.executable, "-m", "ui.main", "screenshots", str(out),
                           "--size", ",".join(SIZES)], env=env, text=True,
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    problems: list[str] = []
    for size in SIZES:
        report = json.loads((out / size / "fit.json").read_text(encoding="utf-8"))
        screens = report["screens"]
        missing = [name for name in SCREENS if name not in screens]
        assert not missing, f"{size}: not rendered: {missing}"
        assert (out / size / "alles-klar-5p-spectator.png").exists()
        for name, found in sorted(screens.items()):
            for p in found:
                problems.append(f"{size} {name}: {p['kind']} {p['text']!r} in {p['where']} "
                                f"at {p['rect']}: {p['detail']}")
    assert not problems, "texts that do not fit:\n" + "\n".join(problems)
