"""A second host on one laptop: the ports come in pairs (the game's TCP port, its web
page's after it) from 7531/7532 up to 7539/7540, the room says which and why, and a
port a person asked for is used as it is or refused in one sentence.

No test binds 7531: each finds a block of ten free ports on 127.0.0.1 and moves the
usual pairs there (``first_port``), then takes the ports it needs taken with listening
sockets, as another lanplay would.
"""

from __future__ import annotations

import asyncio
import errno
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PyQt6.QtWidgets import QApplication
from ui_harness import Runner, aloop, click, close, until  # noqa: F401

from lanplay.host import Host, HostConfig
from lanplay.host import ports as host_ports
from lanplay.host.ports import NoFreePort, Ports, listen, pairs, usual_range
from lanplay.messages import render
from ui.dialogs import network_help
from ui.dialogs.host_dialog import HostDialog
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.tools.fit import inspect
from ui.tools.fit_probe import TextProbe
from ui.window.window import MainWindow

LOCAL = "127.0.0.1"
LANPLAY = str(Path(sys.executable).with_name("lanplay"))


class Block:
    """Ten consecutive ports found free; ``take`` keeps some listening (taken)."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.held: list[socket.socket] = []

    def take(self, *ports: int) -> None:
        for port in ports:
            s = socket.socket()
            s.bind((LOCAL, port))
            s.listen()
            self.held.append(s)

    def close(self) -> None:
        for s in self.held:
            s.close()


@contextmanager
def free_block(size: int = 10) -> Iterator[Block]:
    """A block of ``size`` ports that were all free a moment ago (checked by binding
    each), released for the test to use."""
    for _ in range(100):
        probes: list[socket.socket] = []
        try:
            first = socket.socket()
            probes.append(first)
            first.bind((LOCAL, 0))
            base = first.getsockname()[1]
            if base + size > 65535:
                continue
            for port in range(base + 1, base + size):
                s = socket.socket()
                probes.append(s)
                s.bind((LOCAL, port))
        except OSError:
            continue
        finally:
            for s in probes:
                s.close()
        block = Block(base)
        try:
            yield block
        finally:
            block.close()
        return
    pytest.skip("found no block of free ports")


async def start_on(port: int) -> asyncio.Server:
    async def noop(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    return await asyncio.start_server(noop, LOCAL, port)


async def _listen(first: int, port: int | None = None) -> tuple[asyncio.Server, Ports]:
    return await listen(start_on, LOCAL, port, first)


async def _closed(server: asyncio.Server) -> None:
    server.close()
    await server.wait_closed()


def test_the_usual_pairs_are_7531_to_7540_odd_for_the_game() -> None:
    assert pairs() == [(7531, 7532), (7533, 7534), (7535, 7536), (7537, 7538), (7539, 7540)]
    assert usual_range() == (7531, 7540)
    assert host_ports.in_usual_range(7540) and not host_ports.in_usual_range(7541)


@pytest.mark.timeout(30)
def test_the_first_free_pair_is_taken_and_the_note_says_why() -> None:
    async def main() -> None:
        with free_block() as block:
            b = block.base
            server, got = await _listen(b)  # nothing in the way: the first pair, no note
            assert (got.game, got.web, got.taken, got.note()) == (b, b + 1, (), None)
            await _closed(server)

            block.take(b)  # another lanplay has the first pair's game port
            server, got = await _listen(b)
            assert (got.game, got.web, got.taken) == (b + 2, b + 3, (b,))
            assert server.sockets[0].getsockname()[1] == b + 2
            note = got.note()
            assert note is not None
            assert render(note) == (f"Port {b} was taken (another lanplay on this laptop?), "
                                    f"so this room is on {b + 2}.")
            await _closed(server)

            block.take(b + 3)  # the second pair's web port is someone else's
            server, got = await _listen(b)
            assert (got.game, got.web, got.taken) == (b + 4, b + 5, (b, b + 3))
            assert render(got.note()) == (f"Ports {b} to {b + 3} were taken (other lanplay "
                                          f"rooms on this laptop?), so this room is on "
                                          f"{b + 4}.")
            await _closed(server)

            block.take(b + 4, b + 6, b + 8)  # all five pairs: a sentence, no random port
            with pytest.raises(NoFreePort) as caught:
                await _listen(b)
            assert render(caught.value.message) == (
                f"Ports {b} to {b + 9} are all taken (other lanplay rooms on this laptop?): "
                f"close one, or choose a free port with --port.")
            assert caught.value.errno == errno.EADDRINUSE

            with pytest.raises(OSError) as given:  # a port asked for is used as it is
                await _listen(b, port=b)
            assert given.value.errno == errno.EADDRINUSE
            server, got = await _listen(b, port=b + 1)
            assert (got.game, got.web, got.taken) == (b + 1, b + 2, ())
            await _closed(server)
            server, got = await _listen(b, port=0)  # 0: any free one, its page's too
            assert got.game not in (0, b) and got.web == 0
            await _closed(server)

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_second_host_on_one_laptop_opens_on_the_next_pair() -> None:
    async def main() -> None:
        with free_block() as block:
            b = block.base
            first = Host("alles-klar", config=HostConfig(bind=LOCAL, port=None, first_port=b))
            second = Host("alles-klar", config=HostConfig(bind=LOCAL, port=None,
                                                          first_port=b))
            try:
                assert await first.start() == b
                assert await second.start() == b + 2  # before: a random port
                assert second.ports is not None and second.ports.web == b + 3
                assert second.ports.taken == (b,)
            finally:
                await second.stop()
                await first.stop()

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_the_host_command_says_which_port_and_why_or_refuses_a_taken_one(
        tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LANPLAY_DATA_DIR": str(tmp_path)}
    common = ["host", "alles-klar", "--headless", "--bind", LOCAL, "--no-announce",
              "--bots", "2", "--players", "2", "--bot-delay", "0", "--seed", "2"]
    with free_block() as block:
        b = block.base
        block.take(b)
        done = subprocess.run([LANPLAY, *common, "--first-port", str(b)], capture_output=True,
                              text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
        assert f"on port {b + 2}" in done.stdout
        assert (f"Port {b} was taken (another lanplay on this laptop?), so this room is on "
                f"{b + 2}.") in done.stdout.splitlines()
        refused = subprocess.run([LANPLAY, *common, "--port", str(b)], capture_output=True,
                                 text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
        assert refused.returncode == 2 and refused.stdout == ""
        assert refused.stderr.splitlines() == [
            f"lanplay: Port {b} is taken (another lanplay on this laptop?): choose another "
            f"with --port, or leave --port out to take the first free one from 7531."]
    low, high = usual_range()
    helped = subprocess.run([LANPLAY, "host", "--help"], capture_output=True, text=True,
                            env=env, timeout=60, stdin=subprocess.DEVNULL)
    assert f"{low}:{high}" in " ".join(helped.stdout.split())


def test_the_firewall_advice_names_the_range_not_a_port_that_changes() -> None:
    for port in (7531, 7533, 7539):
        text = network_help.first_host_text(port, "linux")
        assert "sudo ufw allow 7531:7540/tcp" in text and "5353/udp" in text, port
        assert "7531\u20137540" in network_help.lonely_text(port, "linux")
    assert "7531\u20137540" in network_help.quiet_text("linux")
    outside = network_help.first_host_text(40901, "linux")  # a --port of the person's
    assert "sudo ufw allow 40901/tcp" in outside and "7531" not in outside
    # issue 32: the browser page's port is named too (phones come in through it)
    paged = network_help.first_host_text(40901, "linux", web_port=40902)
    assert "sudo ufw allow 40901/tcp" in paged and "sudo ufw allow 40902/tcp" in paged
    assert "40901, 40902" in network_help.lonely_text(40901, "linux", web_port=40902)
    assert "sudo ufw allow 7531:7540/tcp" in network_help.first_host_text(7531, "linux", 7532)


@pytest.mark.timeout(60)
def test_a_room_in_the_window_says_its_port_and_why(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    async def scenario() -> None:
        with free_block() as block:
            b = block.base
            block.take(b, b + 2)  # two other rooms on this laptop already
            settings = Settings(name="Mia", path=tmp_path / "settings.json")
            win = MainWindow(settings, NetConfig(interfaces=["127.0.0.1"], bind=LOCAL,
                                                 port=None, first_port=b, save=False,
                                                 bot_delay=0.0, pace=0.0))
            win.show()
            await win.start()
            try:
                click(win.home.host)
                dialog = win.dialog
                assert isinstance(dialog, HostDialog)
                dialog.select_game("alles-klar")
                click(dialog.host)
                await until(lambda: win.lobby is not None, 15, win)
                assert win.conn is not None and win.conn.host is not None
                assert win.conn.host.port == b + 4
                lines = win.room.address.text().splitlines()
                assert lines[0].startswith("Others can join from their list")
                assert f":{b + 4}" in lines[0]
                assert lines[1:] == [f"Ports {b} to {b + 2} were taken (other lanplay rooms "
                                     f"on this laptop?), so this room is on {b + 4}."]
                win.resize(1024, 640)  # the smallest window: the note is read whole
                QApplication.processEvents()
                cut = [p for p in inspect(win, TextProbe()) if "were taken" in p.text]
                assert not cut, cut
            finally:
                await close(win)

    aloop(scenario(), 50)
