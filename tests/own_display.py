"""An X server of a test's own: Xvfb picks a free display and writes its number to a
pipe (no fixed number that another test, or a person's desktop, may hold)."""

from __future__ import annotations

import os
import subprocess

import pytest


def own_xvfb(size: str = "1024x640") -> tuple[subprocess.Popen[bytes], str]:
    """A started Xvfb and its display (":N"); the caller ends it. Skips the test when
    Xvfb says no display."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size}x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        xvfb.kill()
        pytest.skip("Xvfb did not start")
    return xvfb, f":{number}"
