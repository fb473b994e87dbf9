"""The window opens inside the screen (a high-DPI scale included) and remembers where.

Issue 11, point 8: with QT_SCALE_FACTOR=2 on a 1600x1000 screen the window used to
open at 2560x1600. The offscreen platform takes a screen of any size from a
config file, so a small, scaled screen is real here, in a process of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.window.window import MainWindow

OPEN = """
import json, sys
from pathlib import Path
from PyQt6.QtWidgets import QApplication
app = QApplication([])
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.window.window import MainWindow
win = MainWindow(Settings.load(Path(sys.argv[1])), NetConfig(interfaces=["127.0.0.1"]))
win.show()
app.processEvents()
area = win.screen().availableGeometry()
g = win.frameGeometry()
print(json.dumps({"window": [g.x(), g.y(), g.width(), g.height()], "width": win.width(),
                  "area": [area.x(), area.y(), area.width(), area.height()],
                  "minimum": [win.minimumWidth(), win.minimumHeight()]}))
"""


def _open_on(screen: tuple[int, int], scale: float, config: Path) -> dict[str, Any]:
    spec = config / "screen.json"
    spec.write_text(json.dumps({"screens": [{
        "name": "laptop", "x": 0, "y": 0, "width": screen[0], "height": screen[1],
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={spec}",
           "QT_SCALE_FACTOR": str(scale), "QT_LOGGING_RULES": "qt.qpa.*=false"}
    done = subprocess.run([sys.executable, "-c", OPEN, str(config)], env=env, text=True,
                          capture_output=True, timeout=60, check=True)
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def _inside(window: list[int], area: list[int]) -> bool:
    x, y, w, h = window
    ax, ay, aw, ah = area
    return ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah


def test_a_scaled_small_screen_gets_a_window_inside_it(tmp_path: Path) -> None:
    """QT_SCALE_FACTOR=2 on 1600x1000 leaves 800x500: the window fits it, minimum
    size included; on a 1366x768 laptop it opens at its usual width, whole."""
    small = _open_on((1600, 1000), 2.0, tmp_path)
    assert small["area"][2:] == [800, 500]
    assert _inside(small["window"], small["area"]), small
    assert small["minimum"][0] <= 800 and small["minimum"][1] <= 500
    laptop = _open_on((1366, 768), 1.0, tmp_path)
    assert _inside(laptop["window"], laptop["area"]), laptop
    assert laptop["width"] == 1280


def test_the_window_remembers_its_size_and_place(qtbot: QtBot, tmp_path: Path) -> None:
    """Closed at another size near the corner, it opens there again; a place that no
    longer fits the screen (it came from a bigger one) is not used."""
    net = NetConfig(interfaces=["127.0.0.1"])
    first = MainWindow(Settings.load(tmp_path), net)
    qtbot.addWidget(first)
    first.show()
    size = (first.minimumWidth(), first.minimumHeight() + 30)  # not its first size
    first.resize(*size)
    first.move(6, 20)
    qtbot.waitUntil(lambda: (first.width(), first.height()) == size and first.x() == 6)
    place = first.frameGeometry().topLeft()
    first.save_geometry()
    assert (tmp_path / "window.ini").exists()
    again = MainWindow(Settings.load(tmp_path), net)
    qtbot.addWidget(again)
    again.show()
    # Before a window is shown Qt only estimates its frame: a few pixels either way.
    qtbot.waitUntil(lambda: (again.frameGeometry().topLeft() - place).manhattanLength() <= 8)
    assert (again.width(), again.height()) == size
    screen = again.screen()
    assert screen is not None
    area = screen.availableGeometry()
    again.resize(area.width() + 400, area.height() + 300)  # as if saved on a larger screen
    again.save_geometry()
    third = MainWindow(Settings.load(tmp_path), net)
    qtbot.addWidget(third)
    assert area.contains(third.geometry())
