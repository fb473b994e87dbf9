"""Shared test setup: Qt renders offscreen, and no test may leak a task."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The suite reads English: a developer's German desktop must not turn every text it
# checks (tests that check another language say so, or set the variable themselves).
os.environ["LANPLAY_LANG"] = "en"

# Hosts save every game; tests (and the commands they start) must never write
# into the user's own data directory. A RAM disk when there is one: the same
# code runs, but an fsync there costs 0.3 ms instead of a disk's 15 ms.
RAM_DISK = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
if "LANPLAY_DATA_DIR" not in os.environ:
    _data = tempfile.mkdtemp(prefix="lanplay-test-data-", dir=RAM_DISK)
    os.environ["LANPLAY_DATA_DIR"] = _data
    atexit.register(shutil.rmtree, _data, True)


@pytest.fixture
def data_dir() -> Path:
    """A fresh data directory (for saves) inside the test run's own."""
    return Path(tempfile.mkdtemp(dir=os.environ.get("LANPLAY_DATA_DIR")))
