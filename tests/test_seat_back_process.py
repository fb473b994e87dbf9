"""A guest's window killed mid-game (SIGKILL: a crash, a laptop out of power) and started
again with the same data folder is back in its seat, with its hand, within 20 seconds.

The guest is lanplay's window in a process of its own (``tests/window_guest.py``:
the installed command's entry point with ``--data-dir``, driven only by what a
person presses on Home: the room's row, Enter, Ready). The host runs here, on
127.0.0.1, announced on the loopback interface, with two of its own bots; a
stand-in takes the killed guest's seat half a second after its connection breaks,
and the restarted window takes it back from the stand-in.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest
from nethelpers import host_until
from ui_harness import LOOPBACK, TAUGHT, unique

from lanplay.host import Host, HostConfig
from ui.services import seats

ROOT = Path(__file__).resolve().parents[1]
BACK_WITHIN = 20.0


class Guest:
    """One run of the guest's window: its printed lines, read as they come."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self.changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, data: Path, room: str, log: IO[bytes]) -> Guest:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONUNBUFFERED": "1"}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "tests" / "window_guest.py"), str(data), room,
            env=env, stdout=asyncio.subprocess.PIPE, stderr=log,
            stdin=asyncio.subprocess.DEVNULL)
        return cls(proc)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while raw := await self.proc.stdout.readline():
            self.lines.append(raw.decode().strip())
            self.changed.set()
        self.changed.set()

    async def line(self, match: Callable[[str], bool], timeout: float) -> str:
        """The first line (printed so far or later) that ``match``es."""
        async with asyncio.timeout(timeout):
            while True:
                found = next((x for x in self.lines if match(x)), None)
                if found is not None:
                    return found
                if self._reader.done():
                    raise AssertionError(f"the window ended first: {self.lines}")
                self.changed.clear()
                await self.changed.wait()

    async def kill(self) -> None:
        """SIGKILL: no goodbye, nothing saved on the way out."""
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await self._reader

    async def close(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)  # as Ctrl-C: the window says goodbye
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        await self._reader


def view_line(seat: int, hand: bool = True) -> Callable[[str], bool]:
    """A ``view SEAT STATE HAND`` line of ``seat`` (with a hand in it)."""
    def match(line: str) -> bool:
        parts = line.split(" ", 3)
        return (len(parts) == 4 and parts[0] == "view" and parts[1] == str(seat)
                and (not hand or bool(json.loads(parts[3]))))
    return match


@pytest.mark.timeout(120)
def test_a_killed_guest_window_restarts_into_its_seat_with_its_hand(tmp_path: Path) -> None:
    room = unique("Mia")
    data = tmp_path / "jonas"  # Jonas's data folder: his name, and the seats he keeps
    data.mkdir()
    (data / "settings.json").write_text(json.dumps(
        {"name": "Jonas", "colour": "#009E73", "taught": list(TAUGHT)}))
    log_path = tmp_path / "windows.log"

    async def main() -> dict[str, Any]:
        host = Host("alles-klar", config=HostConfig(
            host_name=room, bind="127.0.0.1", port=0, announce=True, interfaces=LOOPBACK,
            save=False, autostart=3, bot_delay=1.0, standin_after=0.5))
        await host.start()
        stood_in = asyncio.Event()
        host.listeners.append(lambda what: stood_in.set() if what == "standin" else None)
        guests: list[Guest] = []
        with log_path.open("wb") as log:
            try:
                first = await Guest.start(data, room, log)
                guests.append(first)
                assert await first.line(lambda x: x.startswith("listed"), 40) == "listed -"
                await host_until(host, lambda h: len(h.room.seats) == 1, 30)
                host.add_bot()
                host.add_bot()
                await first.line(view_line(0), 30)  # the game runs; Jonas holds cards
                token = host.room.seats[0].token
                kept = seats.read(data / seats.FILE)
                assert [(k.token, k.seat, k.name) for k in kept] == [(token, 0, "Jonas")]

                await first.kill()
                killed = time.monotonic()
                await asyncio.wait_for(stood_in.wait(), 10)  # a stand-in plays Jonas now
                assert host.room.seats[0].standin and host.session is not None
                assert host.session.result is None, "the game still runs"

                again = await Guest.start(data, room, log)
                guests.append(again)
                listed = await again.line(lambda x: x.startswith("listed"), BACK_WITHIN)
                await again.line(view_line(0), BACK_WITHIN)
                await host_until(host, lambda h: h.room.seats[0].connected
                                 and not h.room.seats[0].standin, BACK_WITHIN)
                back = time.monotonic() - killed
                assert listed == "listed Your seat: Jonas"
                assert len(host.room.seats) == 3, "his seat, not a new one"
                assert host.room.seats[0].token == token

                # The game waits for Jonas now (nobody plays his seat): the hand his
                # window holds is the one the host deals him.
                session = host.session
                await host_until(host, lambda h: session.result is not None
                                 or session.actors() == {0}, 30)
                assert session.result is None
                hand = json.loads((await again.line(
                    lambda x: view_line(0, hand=False)(x)
                    and x.split(" ")[2] == str(session.state_id), 15)).split(" ", 3)[3])
                assert hand == session.view(0)["hand"]
                return {"back": back}
            finally:
                for guest in guests:
                    await guest.close()
                await host.stop("test over")

    try:
        measured = asyncio.run(main())
    except BaseException:
        print(log_path.read_text(errors="replace")[-4000:], file=sys.stderr)
        raise
    print(f"back in the seat {measured['back']:.1f} s after the SIGKILL")
    assert measured["back"] < BACK_WITHIN
