"""Issue 33's attacks on a real headless host, for the tests and for measuring: a
``lanplay host`` process on 127.0.0.1 (any lanplay tree: ``PYTHONPATH`` picks it, so
the same attack runs against the code before and after a change), the attackers
from many addresses of 127.0.0.0/8, and the probes that say what a person at the
party meets meanwhile (a seated TCP player's and a seated page's round trip, a page
coming back with its token, a new player joining).

Every attack runs until its ``stop`` event is set, and each connection it holds is
bounded; ``python tests/webattack.py ATTACK [--tree DIR]`` prints one attack's figures
as JSON (see ``main``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if __name__ == "__main__" and str(ROOT) not in sys.path:  # a script, from anywhere
    sys.path.insert(0, str(ROOT))

from protocol.codec import FrameReader, decode_body, encode, pack  # noqa: E402
from protocol.messages import (  # noqa: E402
    PROTOCOL_VERSION,
    Bye,
    Hello,
    Message,
    Ping,
    Pong,
    Refused,
    Welcome,
    to_wire,
)

LOCAL = "127.0.0.1"


def address(i: int) -> str:
    """The ``i``-th attacker's address: 127.0.1.2, 127.0.1.3, ... (never 127.0.0.x,
    where the probes are)."""
    return f"127.0.{1 + (i + 2) // 250}.{(i + 2) % 250}"


def free_ports(count: int) -> list[int]:
    """Ports free now on 127.0.0.1 (held together while found, so all differ)."""
    held = []
    for _ in range(count):
        s = socket.socket()
        s.bind((LOCAL, 0))
        held.append(s)
    ports = [s.getsockname()[1] for s in held]
    for s in held:
        s.close()
    return ports


# --- the host, a process of its own ---------------------------------------------------------


class HostProcess:
    """``lanplay host`` headless on 127.0.0.1, from ``tree`` (None: this one)."""

    def __init__(self, tree: str | None = None, game: str = "alles-klar",
                 extra: tuple[str, ...] = ()) -> None:
        self.tree = tree
        self.game = game
        self.extra = extra
        self.port, self.web_port = free_ports(2)
        self.proc: asyncio.subprocess.Process | None = None
        self.data = tempfile.mkdtemp(prefix="lanplay-attack-", dir=_ram())
        self.err_path = Path(self.data) / "stderr.txt"
        self.out: list[str] = []
        self._reader: asyncio.Task[None] | None = None

    async def start(self, timeout: float = 20) -> None:
        env = {**os.environ, "LANPLAY_LANG": "en", "LANPLAY_DATA_DIR": self.data}
        if self.tree is not None:
            env["PYTHONPATH"] = self.tree
        err = self.err_path.open("wb")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "lanplay", "host", self.game, "--headless",
            "--bind", LOCAL, "--port", str(self.port), "--web-port", str(self.web_port),
            "--no-announce", "--bot-delay", "0", "--standin-after", "-1",
            "--players", "5", "--data-dir", self.data, *self.extra,
            stdout=asyncio.subprocess.PIPE, stderr=err, env=env, cwd=self.data)
        err.close()
        assert self.proc.stdout is not None
        async with asyncio.timeout(timeout):
            while True:
                line = (await self.proc.stdout.readline()).decode()
                if not line:
                    raise RuntimeError(f"the host did not start: {self.log()}")
                self.out.append(line)
                if "In a browser" in line:
                    break
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            self.out.append(line.decode())

    def log(self) -> str:
        """What the host wrote to its stderr (its log) so far."""
        try:
            return self.err_path.read_text(errors="replace")
        except OSError:
            return ""

    def cpu(self) -> float:
        """Seconds of CPU the host has used (user and system)."""
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory(self, key: str = "VmHWM") -> float:
        """The host's resident memory in MB: its peak (VmHWM) or now (VmRSS)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
        return 0.0

    def pause(self) -> None:
        """The host's process stops dead (SIGSTOP): as a host whose loop is stalled."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    async def stop(self) -> None:
        try:
            if self.proc is not None and self.proc.returncode is None:
                self.proc.send_signal(signal.SIGCONT)
                self.proc.send_signal(signal.SIGINT)
                try:
                    await asyncio.wait_for(self.proc.wait(), 15)
                except TimeoutError:
                    self.proc.kill()
                    await self.proc.wait()
            if self._reader is not None:
                self._reader.cancel()
                await asyncio.gather(self._reader, return_exceptions=True)
        finally:
            shutil.rmtree(self.data, ignore_errors=True)


def _ram() -> str | None:
    return "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


@contextlib.asynccontextmanager
async def host_process(tree: str | None = None, game: str = "alles-klar",
                       extra: tuple[str, ...] = ()) -> AsyncIterator[HostProcess]:
    host = HostProcess(tree, game, extra)
    try:
        await host.start()
        yield host
    finally:
        await host.stop()


# --- the probes: people at the party ----------------------------------------------------------


class Seat:
    """One seated player (or spectator) over TCP or the page's WebSocket, answering the
    host's pings by itself; ``round_trip`` times a ping of its own through the host."""

    def __init__(self, name: str, web: bool = False, spectate: bool = False,
                 token: str | None = None) -> None:
        self.name, self.web, self.spectate, self.token = name, web, spectate, token
        self.welcome: Welcome | None = None
        self.closed = asyncio.Event()
        self.ended: Message | None = None
        self._pongs: dict[int, asyncio.Future[float]] = {}
        self._nonce = 10_000
        self._ws: Any = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Future[None]] = set()

    async def join(self, port: int, timeout: float = 10.0, source: str = LOCAL) -> float:
        """Connect and wait for the welcome; the seconds it took. Raises JoinRefused."""
        began = time.monotonic()
        hello = Hello(PROTOCOL_VERSION, self.name, token=self.token, spectate=self.spectate,
                      client="lanplay-web" if self.web else "lanplay")
        welcomed: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        reader: asyncio.StreamReader | None = None
        async with asyncio.timeout(timeout):
            if self.web:
                from websockets.asyncio.client import connect

                self._ws = await connect(f"ws://{LOCAL}:{port}/ws", compression=None,
                                         origin=f"http://{LOCAL}:{port}",  # type: ignore
                                         open_timeout=timeout, ping_interval=None,
                                         close_timeout=1)
                await self._ws.send(pack(to_wire(hello)))
            else:
                reader, self._writer = await asyncio.open_connection(
                    LOCAL, port, local_addr=(source, 0))
                self._writer.write(encode(hello))
            self._task = asyncio.create_task(self._read(welcomed, reader))
            got = await welcomed
        if not isinstance(got, Welcome):
            await self.close()
            raise JoinRefused(getattr(got, "code", "closed"))
        self.welcome = got
        self.token = got.token or self.token
        return time.monotonic() - began

    async def _read(self, welcomed: asyncio.Future[Message],
                    reader: asyncio.StreamReader | None) -> None:
        frames = FrameReader()
        try:
            while True:
                if reader is None:
                    msgs = [decode_body(await self._ws.recv())]
                else:
                    data = await reader.read(65536)
                    if not data:
                        break
                    msgs = list(frames.feed(data))
                for msg in msgs:
                    if isinstance(msg, Ping):
                        self._send(Pong(msg.nonce))
                    elif isinstance(msg, Pong):
                        future = self._pongs.pop(msg.nonce, None)
                        if future is not None and not future.done():
                            future.set_result(time.monotonic())
                    elif isinstance(msg, (Welcome, Refused, Bye)):
                        if not welcomed.done():
                            welcomed.set_result(msg)
                        elif not isinstance(msg, Welcome):
                            self.ended = msg
        except Exception:  # any end of the connection ends the probe
            pass
        finally:
            if not welcomed.done():
                welcomed.set_result(Refused("closed", "closed"))
            self.closed.set()

    def _send(self, msg: Message) -> None:
        if self._ws is not None:
            task = asyncio.ensure_future(self._quietly(self._ws.send(pack(to_wire(msg)))))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        elif self._writer is not None and not self._writer.is_closing():
            self._writer.write(encode(msg))

    @staticmethod
    async def _quietly(sending: Awaitable[None]) -> None:
        with contextlib.suppress(Exception):
            await sending

    async def round_trip(self, timeout: float = 30.0) -> float:
        """Seconds from a ping of ours to the host's pong (``timeout`` if none came)."""
        self._nonce += 1
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._pongs[self._nonce] = future
        began = time.monotonic()
        self._send(Ping(self._nonce))
        try:
            return await asyncio.wait_for(future, timeout) - began
        except TimeoutError:
            return timeout

    async def close(self, bye: bool = False) -> None:
        """Close the connection (with ``bye``, saying goodbye first: a seat taken in the
        lobby is given up)."""
        if bye and self.welcome is not None:
            if self._ws is not None:
                with contextlib.suppress(Exception):
                    await self._ws.send(pack(to_wire(Bye())))
            elif self._writer is not None and not self._writer.is_closing():
                self._writer.write(encode(Bye()))
                with contextlib.suppress(OSError):
                    await self._writer.drain()
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


class JoinRefused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


async def pinging(seats: list[Seat], stop: asyncio.Event, every: float = 0.2
                  ) -> dict[str, list[float]]:
    """Each seat's round trips, one every ``every`` seconds until ``stop``."""
    out: dict[str, list[float]] = {s.name: [] for s in seats}

    async def one(seat: Seat) -> None:
        while not stop.is_set() and not seat.closed.is_set():
            out[seat.name].append(await seat.round_trip())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)

    await asyncio.gather(*(one(s) for s in seats))
    return out


def summary(values: list[float]) -> dict[str, float]:
    """p50, p99 and max in milliseconds."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {"n": len(values), "p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1)}


# --- the attacks ---------------------------------------------------------------------------------


@dataclass
class Tally:
    connects: int = 0
    refused: int = 0
    """Connections the host reset or closed before reading a byte of ours."""
    statuses: Counter[int] = field(default_factory=Counter)


async def _status(reader: asyncio.StreamReader) -> int:
    """The status of an HTTP answer (0: closed without one)."""
    head = await reader.read(64)
    parts = head.split(b" ", 2)
    try:
        return int(parts[1]) if head.startswith(b"HTTP/") else 0
    except (IndexError, ValueError):
        return 0


async def _drain(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(OSError):
        while await reader.read(65536):
            pass


def _attackers(count: int, per: int, one: Callable[[str, int], Awaitable[None]],
               where: Callable[[int], str] = address) -> list[asyncio.Task[None]]:
    return [asyncio.create_task(one(where(a), n)) for a in range(count) for n in range(per)]


def shared(i: int) -> str:
    """The ``i``-th attacker's address when the first is the probes' own, 127.0.0.1 (a
    shared address, a NAT): 127.0.0.1, 127.0.0.2, ..."""
    return f"127.0.0.{i + 1}"


@contextlib.asynccontextmanager
async def attack(tasks: list[asyncio.Task[None]]) -> AsyncIterator[None]:
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def qr_flood(web_port: int, addresses: int, per: int, tally: Tally,
             seed: int = 33) -> list[asyncio.Task[None]]:
    """W1: ``GET /qr.svg`` with a new ``.local`` Host each time (as long as a
    well-formed name may be), as fast as answered."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"

    async def one(source: str, _: int) -> None:
        while True:
            # a well-formed name (labels of at most 63, 240 characters in all)
            name = ".".join("".join(rng.choice(letters) for _ in range(59)) for _ in range(4))
            request = (f"GET /qr.svg HTTP/1.1\r\nHost: {name}.local:{web_port}\r\n\r\n")
            try:
                reader, writer = await asyncio.open_connection(LOCAL, web_port,
                                                               local_addr=(source, 0))
            except OSError:
                tally.refused += 1
                await asyncio.sleep(0.05)
                continue
            tally.connects += 1
            try:
                writer.write(request.encode())
                tally.statuses[await _status(reader)] += 1
                await _drain(reader)
            except OSError:
                tally.refused += 1
            finally:
                writer.close()

    return _attackers(addresses, per, one)


def half_open(web_port: int, addresses: int, per: int, tally: Tally,
              header_bytes: int = 0) -> list[asyncio.Task[None]]:
    """W2 (and W3 with ``header_bytes``): requests begun and never finished, each
    opened again the moment the host lets it go; with ``header_bytes``, that much of
    headers (lines of 8,000 bytes, 1,000 when less than 8,000) before the request
    stalls."""
    width = 8000 if header_bytes >= 8000 else 1000
    line = "X-Pad: " + "p" * (width - 9) + "\r\n"
    pad = (line * max(0, header_bytes // len(line))).encode()

    async def one(source: str, _: int) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection(LOCAL, web_port,
                                                               local_addr=(source, 0))
            except OSError:
                tally.refused += 1
                await asyncio.sleep(0.05)
                continue
            tally.connects += 1
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + pad)
                await writer.drain()
                status = await _status(reader)
                tally.statuses[status] += 1
                await _drain(reader)
            except OSError:
                tally.refused += 1
            finally:
                writer.close()

    return _attackers(addresses, per, one)


def idle_handshakes(port: int, addresses: int, per: int, tally: Tally, shared_first: int = 0
                    ) -> list[asyncio.Task[None]]:
    """F8: TCP connections to the game's port that never say hello, each opened again
    the moment the host closes it (with ``shared_first``, from 127.0.0.1 on)."""
    async def one(source: str, _: int) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection(LOCAL, port,
                                                               local_addr=(source, 0))
            except OSError:
                tally.refused += 1
                await asyncio.sleep(0.05)
                continue
            tally.connects += 1
            try:
                await _drain(reader)
            finally:
                writer.close()

    return _attackers(addresses, per, one, shared if shared_first else address)


async def http_status(web_port: int, request: bytes, timeout: float = 5) -> int:
    """One raw request from 127.0.0.1; the answer's status (0: none)."""
    reader, writer = await asyncio.open_connection(LOCAL, web_port)
    try:
        writer.write(request)
        return await asyncio.wait_for(_status(reader), timeout)
    except (OSError, TimeoutError):
        return 0
    finally:
        writer.close()


# --- an attack in a process of its own ---------------------------------------------------------

FLOODS: dict[str, Callable[..., list[asyncio.Task[None]]]] = {
    "qr": qr_flood, "halfopen": half_open, "handshakes": idle_handshakes}


class Flood:
    """An attack run by a process of its own (so that its work costs neither the host's
    loop nor the probes' measurements); ``tally`` is its count once it has stopped."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.tally = Tally()

    async def ready(self, timeout: float = 20) -> None:
        """Until the attack has opened as many connections as it holds."""
        assert self.proc.stdout is not None
        async with asyncio.timeout(timeout):
            line = await self.proc.stdout.readline()
        assert line.strip() == b"ready", line

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
        assert self.proc.stdout is not None
        out, _ = await asyncio.wait_for(self.proc.communicate(), 20)
        for line in out.decode().splitlines():
            if line.startswith("{"):
                got = json.loads(line)
                self.tally = Tally(got["connects"], got["refused"],
                                   Counter({int(k): v for k, v in got["statuses"].items()}))


@contextlib.asynccontextmanager
async def flooding(kind: str, port: int, addresses: int, per: int, **options: int
                   ) -> AsyncIterator[Flood]:
    """``kind`` of attack (``FLOODS``) on ``port`` from ``addresses`` x ``per``
    connections, in a process of its own, while the block runs."""
    extra = [f"--{k.replace('_', '-')}={v}" for k, v in options.items()]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(Path(__file__).resolve()), "flood", kind, str(port), str(addresses),
        str(per), *extra, stdout=asyncio.subprocess.PIPE)
    flood = Flood(proc)
    try:
        yield flood
    finally:
        await flood.stop()


async def _flood_main(kind: str, port: int, addresses: int, per: int,
                      options: dict[str, int]) -> None:
    """The child's side of ``flooding``: attack until SIGINT, then print the tally."""
    tally = Tally()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
    async with attack(FLOODS[kind](port, addresses, per, tally, **options)):
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(20):
                while tally.connects < addresses * per and not stop.is_set():
                    await asyncio.sleep(0.02)
        print("ready", flush=True)
        await asyncio.wait_for(stop.wait(), 300)
    print(json.dumps({"connects": tally.connects, "refused": tally.refused,
                      "statuses": dict(tally.statuses)}), flush=True)


# --- the figures, one attack at a time -----------------------------------------------------------


async def measure_qr(tree: str | None, addresses: int = 3, per: int = 32,
                     seconds: float = 20) -> dict[str, Any]:
    async with host_process(tree) as host:
        player = Seat("Ann")
        await player.join(host.port)
        watcher = Seat("Watcher", spectate=True)
        await watcher.join(host.port)
        page = Seat("Page", web=True)
        await page.join(host.web_port)
        cpu = host.cpu()
        stop = asyncio.Event()
        began = time.monotonic()
        async with flooding("qr", host.web_port, addresses, per) as flood:
            await flood.ready()
            pings = asyncio.create_task(pinging([player, watcher, page], stop))
            await asyncio.sleep(seconds / 2)
            joiner = Seat("Newcomer", web=True)
            try:
                join = round(await joiner.join(host.web_port, timeout=15), 3)
            except Exception as exc:  # any failure is a figure
                join = f"refused {exc}"
            await joiner.close()
            await asyncio.sleep(seconds / 2)
            stop.set()
            trips = await pings
        tally = flood.tally
        spent = host.cpu() - cpu
        out = {"attack": f"W1 qr flood {addresses}x{per} for {seconds:.0f}s",
               "host_cpu_s": round(spent, 1), "wall_s": round(time.monotonic() - began, 1),
               "requests": sum(tally.statuses.values()), "statuses": dict(tally.statuses),
               "new_page_join_s": join,
               "tcp_player": summary(trips["Ann"]), "tcp_watcher": summary(trips["Watcher"]),
               "page_seat": summary(trips["Page"]),
               "dropped": [s.name for s in (player, watcher, page) if s.closed.is_set()]}
        for seat in (player, watcher, page):
            await seat.close()
        return out


async def come_back(web_port: int, token: str | None, within: float = 10.0
                    ) -> tuple[float | None, int]:
    """A page coming back to its seat with its token as the page does: trying again
    after 100 ms, doubling to 1.5 s, for ``within`` seconds. (Seconds until welcomed,
    None if never; tries.)"""
    began = time.monotonic()
    delay, tries = 0.1, 0
    while time.monotonic() - began < within:
        tries += 1
        again = Seat("Page", web=True, token=token)
        try:
            await again.join(web_port, timeout=max(0.1, within - (time.monotonic() - began)))
        except Exception:  # any failure: the page tries again
            await again.close()
            await asyncio.sleep(delay)
            delay = min(1.5, delay * 2)
            continue
        await again.close()
        return time.monotonic() - began, tries
    return None, tries


async def measure_half_open(tree: str | None, addresses: int = 9, per: int = 32,
                            rounds: int = 3) -> dict[str, Any]:
    async with host_process(tree) as host:
        page = Seat("Page", web=True)
        await page.join(host.web_port)
        token = page.token
        await page.close()
        async with flooding("halfopen", host.web_port, addresses, per) as flood:
            await flood.ready()
            back: list[Any] = []
            for _ in range(rounds):
                seconds, tries = await come_back(host.web_port, token)
                back.append({"s": None if seconds is None else round(seconds, 2),
                             "tries": tries})
            fresh = await http_status(host.web_port,
                                      b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return {"attack": f"W2 half-open {addresses}x{per}",
                "page_back_with_token": back, "new_guest_page_status": fresh,
                "attack_connects": flood.tally.connects,
                "attack_refused": flood.tally.refused}


async def measure_headers(tree: str | None, addresses: int = 9, per: int = 32,
                          header_bytes: int = 127 * 8000, seconds: float = 8
                          ) -> dict[str, Any]:
    async with host_process(tree) as host:
        before = host.memory("VmRSS")
        async with flooding("halfopen", host.web_port, addresses, per,
                            header_bytes=header_bytes) as flood:
            await flood.ready()
            await asyncio.sleep(seconds)
            peak = host.memory("VmHWM")
        tally = flood.tally
        fresh = await http_status(host.web_port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return {"attack": f"W3 {header_bytes // 1000} KB of headers, {addresses}x{per} "
                          f"half-open for {seconds:.0f}s",
                "rss_before_mb": round(before, 1), "rss_peak_mb": round(host.memory("VmHWM"), 1),
                "rss_peak_during_mb": round(peak, 1), "statuses": dict(tally.statuses),
                "attack_connects": tally.connects, "page_after": fresh}


async def measure_bad_hosts(tree: str | None) -> dict[str, Any]:
    async with host_process(tree) as host:
        w = host.web_port
        twice = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{w}\r\nHost: 127.0.0.1:{w}\r\n\r\n"
        qr_twice = twice.replace("GET / ", "GET /qr.svg ")
        long_local = f"GET /qr.svg HTTP/1.1\r\nHost: {'q' * 3000}.local:{w}\r\n\r\n"
        no_host = "GET / HTTP/1.1\r\n\r\n"
        out = {}
        for name, request in (("duplicate Host", twice), ("duplicate Host, /qr.svg", qr_twice),
                              ("3,000-char .local Host, /qr.svg", long_local),
                              ("no Host", no_host)):
            out[name] = await http_status(w, request.encode())
        log = host.log()
        return {"attack": "W5 bad Host headers", "statuses": out,
                "tracebacks_in_log": log.count("Traceback")}


async def measure_handshakes(tree: str | None, addresses: int = 11, per: int = 8,
                             tries: int = 20, spacing: float = 0.6) -> dict[str, Any]:
    async with host_process(tree) as host:
        async with flooding("handshakes", host.port, addresses, per, shared_first=1) as flood:
            await flood.ready()
            got: Counter[str] = Counter()
            for i in range(tries):
                newcomer = Seat(f"New {i}", spectate=True)
                try:
                    await newcomer.join(host.port, timeout=6)
                    got["in"] += 1
                except JoinRefused as exc:
                    got[exc.code] += 1
                except (OSError, TimeoutError):
                    got["timeout"] += 1
                await newcomer.close()
                await asyncio.sleep(spacing)
        return {"attack": f"F8 idle handshakes {addresses}x{per} (127.0.0.1 among them)",
                "newcomers": dict(got),
                "attack_connects": flood.tally.connects}


async def measure_stall(tree: str | None, seconds: float = 12) -> dict[str, Any]:
    """Point 8: the host's process stopped dead for ``seconds`` (longer than its 10 s
    silence rule) while its players keep answering: is a seated player dropped?"""
    async with host_process(tree) as host:
        player = Seat("Ann")
        await player.join(host.port)
        page = Seat("Page", web=True)
        await page.join(host.web_port)
        host.pause()
        await asyncio.sleep(seconds)
        host.resume()
        trip = [await player.round_trip(10), await page.round_trip(10)]
        # the next two heartbeats decide
        await asyncio.sleep(5)
        out = {"attack": f"host stalled {seconds:.0f}s",
               "round_trip_after_ms": [round(t * 1000) for t in trip],
               "dropped": [s.name for s in (player, page) if s.closed.is_set()]}
        for seat in (player, page):
            await seat.close()
        return out


MEASURES: dict[str, Callable[..., Awaitable[dict[str, Any]]]] = {
    "qr": measure_qr, "halfopen": measure_half_open, "headers": measure_headers,
    "badhost": measure_bad_hosts, "handshakes": measure_handshakes, "stall": measure_stall,
    "headers7k": lambda tree: measure_headers(tree, header_bytes=7000),
}


def main() -> None:
    if sys.argv[1:2] == ["flood"]:
        parser = argparse.ArgumentParser(prog="webattack.py flood")
        parser.add_argument("kind", choices=sorted(FLOODS))
        parser.add_argument("port", type=int)
        parser.add_argument("addresses", type=int)
        parser.add_argument("per", type=int)
        parser.add_argument("--header-bytes", type=int)
        parser.add_argument("--shared-first", type=int)
        flood = parser.parse_args(sys.argv[2:])
        options = {k: v for k, v in (("header_bytes", flood.header_bytes),
                                     ("shared_first", flood.shared_first)) if v}
        asyncio.run(_flood_main(flood.kind, flood.port, flood.addresses, flood.per, options))
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("attack", choices=sorted(MEASURES))
    parser.add_argument("--tree", help="the lanplay tree the host runs (default: this one)")
    args = parser.parse_args()
    figures = asyncio.run(MEASURES[args.attack](args.tree))
    figures["tree"] = args.tree or str(ROOT)
    figures["load"] = os.getloadavg()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
