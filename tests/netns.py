"""Separate "laptops" on one switch, built from Linux network namespaces.

Each laptop is a namespace with ``lo`` and an ``eth0`` (one end of a veth
pair); the other end is a port of a bridge that lives in a namespace of its
own, so nothing touches the machine's real network. Addresses come from
198.18.0.0/15 (the benchmarking range) only. Names carry the creating process
id and a random tag, so parallel runs never collide, and namespaces left
behind by a run that was killed are removed by the next one.

Needs root and iproute2; ``unavailable()`` says why not otherwise, for
``pytest.skip``. The recipe is the one in PLATFORM-NOTES.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

SUBNET = "198.18.0"
"""Laptops get SUBNET.1, .2, ... on a /24 inside the test's own bridge."""

PREFIX = "lpt"
_STALE = re.compile(rf"^{PREFIX}(\d+)x[0-9a-f]{{4}}-")
VENV_BIN = Path(sys.executable).parent
LANPLAY = str(VENV_BIN / "lanplay")


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check,
                          timeout=30, stdin=subprocess.DEVNULL)


@functools.cache
def unavailable() -> str | None:
    """Why namespaces cannot be built here (a skip reason), or None if they can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces exist only on Linux"
    if os.geteuid() != 0:
        return "building network namespaces needs root (CI runs these tests as root)"
    if shutil.which("ip") is None:
        return "the `ip` command (Debian package iproute2) is not installed"
    probe = f"{PREFIX}{os.getpid()}x{secrets.token_hex(2)}-probe"
    done = ip("netns", "add", probe, check=False)
    if done.returncode != 0:
        return f"`ip netns add` does not work here: {done.stderr.strip()[:200]}"
    ip("netns", "del", probe, check=False)
    return None


@dataclass
class Laptop:
    name: str
    ns: str
    address: str
    port: str
    """Its port on the switch (in the bridge namespace)."""

    def argv(self, *command: str) -> list[str]:
        """``command`` run inside this laptop."""
        return ["ip", "netns", "exec", self.ns, *command]

    def run(self, *command: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.argv(*command), capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)


@dataclass
class Lan:
    """A switch and the laptops plugged into it; ``close`` removes every trace."""

    tag: str = field(default_factory=lambda: f"{PREFIX}{os.getpid()}x{secrets.token_hex(2)}")
    laptops: list[Laptop] = field(default_factory=list)

    @property
    def switch(self) -> str:
        return f"{self.tag}-sw"

    def build(self, names: Sequence[str]) -> Lan:
        """Create the switch and one laptop per name, addresses SUBNET.1 upwards."""
        remove_stale()
        ip("netns", "add", self.switch)
        ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        ip("-n", self.switch, "link", "set", "br0", "up")
        for number, name in enumerate(names, start=1):
            laptop = Laptop(name, f"{self.tag}-{number}", f"{SUBNET}.{number}", f"p{number}")
            self.laptops.append(laptop)
            ip("netns", "add", laptop.ns)
            ip("link", "add", "eth0", "netns", laptop.ns, "type", "veth",
               "peer", "name", laptop.port, "netns", self.switch)
            ip("-n", self.switch, "link", "set", laptop.port, "master", "br0")
            ip("-n", self.switch, "link", "set", laptop.port, "up")
            ip("-n", laptop.ns, "link", "set", "lo", "up")
            ip("-n", laptop.ns, "addr", "add", f"{laptop.address}/24", "dev", "eth0")
            ip("-n", laptop.ns, "link", "set", "eth0", "multicast", "on")
            ip("-n", laptop.ns, "link", "set", "eth0", "up")
        return self

    def __getitem__(self, name: str) -> Laptop:
        return next(x for x in self.laptops if x.name == name)

    def unplug(self, laptop: Laptop) -> None:
        """Pull its cable at the switch: frames to and from it are lost, no reset."""
        ip("-n", self.switch, "link", "set", laptop.port, "down")

    def plug(self, laptop: Laptop) -> None:
        ip("-n", self.switch, "link", "set", laptop.port, "up")

    def namespaces(self) -> list[str]:
        return [self.switch, *(x.ns for x in self.laptops)]

    def close(self) -> None:
        """Kill whatever still runs in our namespaces, then delete them."""
        for ns in self.namespaces():
            _kill_inside(ns)
        for ns in self.namespaces():
            ip("netns", "del", ns, check=False)


def _kill_inside(ns: str) -> None:
    """SIGKILL the processes in namespace ``ns`` (only ever one a test made)."""
    done = ip("netns", "pids", ns, check=False)
    for pid in done.stdout.split():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid), signal.SIGKILL)


def remove_stale() -> None:
    """Delete namespaces left by earlier test runs whose process has died."""
    listed = ip("netns", "list", check=False).stdout
    for line in listed.splitlines():
        name = line.split()[0] if line.split() else ""
        match = _STALE.match(name)
        if match is None or _alive(int(match.group(1))):
            continue
        _kill_inside(name)
        ip("netns", "del", name, check=False)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# --- processes on the laptops, read line by line ------------------------------------


class Proc:
    """A command running on a laptop, its output (stdout and stderr) read as it
    comes, each line stamped with the monotonic time it arrived, so a test can
    wait for a line and later ask in which order things happened."""

    def __init__(self, label: str, proc: asyncio.subprocess.Process) -> None:
        self.label = label
        self.proc = proc
        self.lines: list[tuple[float, str]] = []
        self._taken: set[int] = set()
        self._grew = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def start(cls, label: str, argv: Sequence[str],
                    env: dict[str, str] | None = None) -> Proc:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            stdin=asyncio.subprocess.DEVNULL, env=env, start_new_session=True)
        return cls(label, proc)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        loop = asyncio.get_running_loop()
        while raw := await self.proc.stdout.readline():
            self.lines.append((loop.time(), raw.decode(errors="replace")))
            self._grew.set()
        self._grew.set()

    async def line_with(self, text: str, timeout: float) -> str:
        """The first line containing ``text`` that no earlier call returned."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    for index, (_, line) in enumerate(self.lines):
                        if text in line and index not in self._taken:
                            self._taken.add(index)
                            return line
                    if self._reader.done():
                        raise AssertionError(f"{self.label} ended before printing {text!r}:"
                                             f"\n{self.output}")
                    self._grew.clear()
                    await self._grew.wait()
        except TimeoutError:
            raise AssertionError(f"{self.label} printed no {text!r} within {timeout} s:\n"
                                 f"{self.output}") from None

    def when(self, text: str) -> float:
        """When the first line containing ``text`` arrived (it must have)."""
        found = [t for t, line in self.lines if text in line]
        assert found, f"{self.label} never printed {text!r}:\n{self.output}"
        return found[0]

    async def wait(self, timeout: float) -> int:
        """Its exit code, once it ends by itself, with all its output read."""
        try:
            async with asyncio.timeout(timeout):
                code = await self.proc.wait()
                await self._reader
        except TimeoutError:
            raise AssertionError(f"{self.label} did not end within {timeout} s:\n"
                                 f"{self.output}") from None
        return code

    def signal(self, sig: int) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)

    async def kill(self) -> None:
        """SIGKILL it (if still running) and reap it."""
        self.signal(signal.SIGKILL)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.proc.wait(), 10)
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(self._reader, 5)

    @property
    def output(self) -> str:
        return "".join(f"[{self.label}] {line}" for _, line in self.lines)
