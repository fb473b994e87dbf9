"""A real full disk for tests: a small tmpfs mounted for the test, filled to the last byte.

Needs root (mount); ``small_disk`` skips the test with the reason otherwise.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

DISK = "256k"


def mount_problem() -> str | None:
    if not sys.platform.startswith("linux"):
        return "a tmpfs of a fixed size needs Linux"
    if os.geteuid() != 0:
        return "mounting a small tmpfs needs root (CI runs these tests as root)"
    return None


@contextlib.contextmanager
def small_disk(size: str = DISK) -> Iterator[Path]:
    """A fresh tmpfs of ``size`` mounted on a temporary folder, unmounted after."""
    problem = mount_problem()
    if problem:
        pytest.skip(problem)
    folder = Path(tempfile.mkdtemp(prefix="lanplay-full-disk-"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700",
                           "lanplay-test", str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        folder.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()[:200]}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)
        folder.rmdir()


def fill(disk: Path) -> Path:
    """Take every free byte of ``disk``; the returned file gives them back when removed."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for size in (64 << 10, 4 << 10, 512, 64, 1):
            chunk = b"\0" * size
            while True:
                try:
                    os.write(fd, chunk)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
                    break
    finally:
        os.close(fd)
    return filler


def empty(filler: Path) -> None:
    filler.unlink()
