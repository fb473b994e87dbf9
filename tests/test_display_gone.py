"""A session that ends sends every window TERM and takes its display away at once (a
laptop shutting down, a remote desktop closed): the window ends with one sentence or
none, never a traceback. Found by ending a real window's X server right after its
TERM: three times in four the window printed qasync's "Event loop stopped before
Future completed" with two tracebacks, because a loop stopped while the window said
its goodbyes was taken for a bug."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from own_display import own_xvfb

ROOT = Path(__file__).resolve().parents[1]
XLIB_FAREWELL = re.compile(r"XIO:  fatal IO error |\s+after \d+ requests ")
TRIES = 3
"""Each try ends the window the same way; the order of the TERM and the display's end
inside the window is the machine's: before the fix, one try in four came out clean."""


@pytest.mark.timeout(150)
@pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
                    reason="needs Xvfb and xdotool (apt-get install xvfb xdotool)")
def test_a_window_whose_display_ends_with_its_session_says_one_sentence(
        tmp_path: Path) -> None:
    for attempt in range(TRIES):
        xvfb, display = own_xvfb()
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
               "PYTHONPATH": str(ROOT)}
        window = subprocess.Popen(
            [sys.executable, "-m", "ui.main", "--lang", "en", "--data-dir",
             str(tmp_path / str(attempt))], env=env, cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            shown = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name",
                                    "lanplay"], env=env, capture_output=True, timeout=60)
            assert shown.returncode == 0, "the window never showed"
            window.send_signal(signal.SIGTERM)  # the session ends...
            xvfb.kill()  # ...and its display with it
            out, err = window.communicate(timeout=30)
        finally:
            if window.poll() is None:
                window.kill()
                window.wait(10)
            xvfb.kill()
            xvfb.wait(10)
        lines = [line for line in (out + err).splitlines() if line.strip()]
        assert not any("Traceback" in line for line in lines), "\n".join(lines)
        # Where libX11 (not Qt's xcb) notices the server's end first, its own handler
        # says so in two lines ("XIO: fatal IO error ...") and ends the process before
        # Python hears of it (met once in a full suite beside two busy cores).
        said = [line for line in lines if not XLIB_FAREWELL.match(line)]
        assert len(said) <= 1, lines
        assert not said or said[0].startswith("lanplay: The window lost its display"), lines
