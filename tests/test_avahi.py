"""Avahi, the mDNS stack of Linux desktops, and lanplay understand each other.

On a laptop of its own (a network namespace, see tests/netns.py) the test
starts a private system D-Bus and avahi-daemon (--no-drop-root --no-chroot,
with /run made private so a system avahi-daemon is never disturbed), then:
``avahi-browse -rp _lanplay._tcp`` must list two lanplay hosts with every TXT
key right (one with a password, one without), and ``lanplay discover`` must
find a service that ``avahi-publish`` announces. Skipped with the reason where
namespaces or Avahi cannot run (needs root and the Debian packages
avahi-daemon, avahi-utils and dbus, which .ci/run installs).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from netns import LANPLAY, Lan, Laptop, Proc, unavailable

from protocol.messages import PROTOCOL_VERSION

pytestmark = pytest.mark.netns

TOOLS = ("avahi-daemon", "avahi-browse", "avahi-publish", "dbus-daemon")

BUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

AVAHI_CONF = """[server]
use-ipv4=yes
use-ipv6=no
allow-interfaces=eth0
enable-dbus=yes
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
"""


@pytest.fixture
def lan() -> Iterator[Lan]:
    reason = unavailable()
    if reason:
        pytest.skip(reason)
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (Debian packages avahi-daemon, "
                    f"avahi-utils and dbus)")
    net = Lan()
    try:
        net.build(["laptop"])
        yield net
    finally:
        net.close()


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A short path: a unix socket's path must fit in 108 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="lpav"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Avahi:
    """A private system bus and avahi-daemon on one laptop, and the tools that use them."""

    def __init__(self, laptop: Laptop, folder: Path) -> None:
        self.laptop, self.folder = laptop, folder
        self.socket = folder / "bus"
        self.env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.socket}",
                    "PYTHONUNBUFFERED": "1", "LANPLAY_DATA_DIR": str(folder / "data")}
        self.procs: list[Proc] = []

    async def start(self, label: str, *command: str) -> Proc:
        proc = await Proc.start(label, self.laptop.argv(*command), self.env)
        self.procs.append(proc)
        return proc

    async def up(self) -> None:
        (self.folder / "bus.conf").write_text(BUS_CONF.format(socket=self.socket))
        (self.folder / "avahi.conf").write_text(AVAHI_CONF)
        bus = await self.start("dbus", "dbus-daemon", "--nofork", "--nopidfile",
                               "--print-address", f"--config-file={self.folder / 'bus.conf'}")
        await bus.line_with("unix:path=", timeout=10)
        # /run made private to this process: avahi-daemon keeps its pid file and
        # socket in /run/avahi-daemon, where a system avahi-daemon may already be.
        daemon = await self.start(
            "avahi-daemon", "sh", "-c", "mount -n -t tmpfs lanplay-test /run && exec avahi-daemon "
            f"-f {self.folder / 'avahi.conf'} --no-drop-root --no-chroot --no-rlimits")
        try:
            await daemon.line_with("Server startup complete", timeout=15)
        except AssertionError as exc:
            pytest.skip(f"avahi-daemon cannot run here: {str(exc)[-300:]}")

    async def close(self) -> None:
        await asyncio.gather(*(p.kill() for p in reversed(self.procs)))


def txt_of(line: str) -> dict[str, str]:
    """The TXT pairs of a resolved avahi-browse -p line (each quoted, in any order)."""
    pairs = re.findall(r'"((?:[^"\\]|\\.)*)"', line.split(";", 9)[9])
    return dict(p.split("=", 1) for p in pairs)


def unescape(name: str) -> str:
    """avahi-browse -p writes a space in a name as \\032 (decimal escapes)."""
    return re.sub(r"\\(\d{3})", lambda m: chr(int(m.group(1))), name)


@pytest.mark.timeout(90)
def test_avahi_browse_sees_lanplay_hosts_and_lanplay_sees_avahi_publish(
        lan: Lan, short_tmp: Path) -> None:
    laptop = lan["laptop"]

    async def main() -> None:
        avahi = Avahi(laptop, short_tmp)
        try:
            await avahi.up()
            hosts = {}
            # (7533: the second pair; 7532 is the open room's browser page)
            for name, port, extra in (("Open room", 7531, ()),
                                      ("Locked room", 7533, ("--password", "s3cret"))):
                host = await avahi.start(name, LANPLAY, "host", "alles-klar", "--headless",
                                         "--bind", laptop.address, "--interface",
                                         laptop.address, "--port", str(port), "--name",
                                         name, "--players", "3", *extra)
                await host.line_with(f"on port {port}", timeout=20)
                hosts[name] = port
            browse = await avahi.start("avahi-browse", "avahi-browse", "-rp", "_lanplay._tcp")
            seen: dict[str, list[str]] = {}
            while set(seen) != set(hosts):
                line = await browse.line_with("=;eth0;IPv4;", timeout=20)
                fields = line.rstrip("\n").split(";")
                seen[unescape(fields[3]).rsplit(" ", 1)[0]] = fields
            for name, port in hosts.items():
                fields = seen[name]
                assert fields[4] == "_lanplay._tcp" and fields[5] == "local", fields
                assert fields[7] == laptop.address and fields[8] == str(port), fields
                txt = txt_of(";".join(fields))
                room = txt.pop("room", "")  # the room's id: a peer finds a room that moved
                assert len(room) >= 8 and room.isascii(), fields
                assert txt == {"v": str(PROTOCOL_VERSION), "game": "alles-klar", "host": name,
                               "seats": "0/5", "state": "lobby", "web": str(port + 1),
                               "pw": "1" if name == "Locked room" else "0",
                               "term": "1"}, fields

            # and the other way: a service Avahi publishes shows in `lanplay discover`
            publish = await avahi.start(
                "avahi-publish", "avahi-publish", "-s", "Avahi side", "_lanplay._tcp", "7600",
                f"v={PROTOCOL_VERSION}", "game=alles-klar", "host=Avahi side", "seats=2/4",
                "state=playing", "pw=0")
            await publish.line_with("Established under name", timeout=15)
            discover = await avahi.start("discover", LANPLAY, "discover", "--interface",
                                         laptop.address, "--timeout", "3", "--json")
            assert await discover.wait(timeout=30) == 0, discover.output
            found = json.loads("".join(line for _, line in discover.lines))
            side = [h for h in found if h["host"] == "Avahi side"]
            assert len(side) == 1, discover.output
            assert side[0]["port"] == 7600 and side[0]["address"] == laptop.address
            assert side[0]["seats"] == "2/4" and side[0]["state"] == "playing"
            assert side[0]["compatible"] is True and side[0]["password"] is False
            assert {h["host"] for h in found} == {"Avahi side", *hosts}, discover.output
        finally:
            await avahi.close()

    asyncio.run(main())
