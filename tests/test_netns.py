"""Four laptops on one switch, each a network namespace: a host and three bots.

Everything runs as a person would run it, the ``lanplay`` command in a
subprocess on its own laptop: the peers find the host by real mDNS across the
bridge (``lanplay discover``), join it (``lanplay join --bot``) and play whole
games over real TCP. Then one laptop's cable is pulled mid-game and plugged
back, and the host is killed outright and resumed. Needs root (CI runs as
root); skipped with the reason otherwise.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from netns import LANPLAY, Lan, Laptop, Proc, unavailable

pytestmark = pytest.mark.netns

PEERS = ("ada", "bea", "cy")
PORT = 7531


@pytest.fixture
def lan() -> Iterator[Lan]:
    reason = unavailable()
    if reason:
        pytest.skip(reason)
    net = Lan()
    try:
        net.build(["host", *PEERS])
        yield net
    finally:
        net.close()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Nothing of this run lands in the real user's data directory."""
    return {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(tmp_path / "data"),
            "LANPLAY_DATA_DIR": str(tmp_path / "saves")}


class Table:
    """The processes of one test; ``close`` kills whatever still runs."""

    def __init__(self, lan: Lan, env: dict[str, str], saves: Path) -> None:
        self.lan, self.env, self.saves = lan, env, saves
        self.procs: list[Proc] = []
        self.seat: dict[str, str] = {}
        """Each peer's seat number as it printed it when it joined."""

    async def start(self, laptop: Laptop, *args: str, label: str = "") -> Proc:
        proc = await Proc.start(label or laptop.name, laptop.argv(LANPLAY, *args), self.env)
        self.procs.append(proc)
        return proc

    async def host(self, *extra: str, seed: int) -> Proc:
        laptop = self.lan["host"]
        proc = await self.start(laptop, "host", "alles-klar", "--headless", "--bind",
                                laptop.address, "--interface", laptop.address,
                                "--port", str(PORT), "--name", "Laptop H", "--players", "3",
                                "--games", "1", "--seed", str(seed), "--log-moves",
                                "--data-dir", str(self.saves), *extra)
        await proc.line_with(f"on port {PORT}", timeout=20)
        return proc

    async def resume(self) -> Proc:
        """``lanplay host --resume`` on the host laptop: the newest unfinished game."""
        laptop = self.lan["host"]
        proc = await self.start(laptop, "host", "--resume", "--headless", "--bind",
                                laptop.address, "--interface", laptop.address, "--log-moves",
                                "--data-dir", str(self.saves), label="resumed host")
        await proc.line_with(f"on port {PORT}", timeout=20)
        return proc

    async def discover(self, laptop: Laptop) -> dict[str, Any]:
        """The host as ``lanplay discover`` on ``laptop`` finds it by mDNS."""
        proc = await self.start(laptop, "discover", "--interface", laptop.address,
                                "--timeout", "3", "--json", label=f"discover on {laptop.name}")
        assert await proc.wait(timeout=30) == 0, proc.output
        found = json.loads("".join(line for _, line in proc.lines))
        ours = [h for h in found if h["host"] == "Laptop H"]
        assert len(ours) == 1, proc.output
        return dict(ours[0])

    async def join(self, laptop: Laptop, address: str, port: int, delay: float,
                   seed: int) -> Proc:
        proc = await self.start(laptop, "join", f"{address}:{port}", "--bot", "--json",
                                "--name", laptop.name.capitalize(), "--seed", str(seed),
                                "--delay", str(delay))
        joined = await proc.line_with("Joined 'Laptop H' (alles-klar) in seat", timeout=20)
        self.seat[proc.label] = joined.split("in seat")[1].strip(" .\n")
        return proc

    async def close(self) -> None:
        await asyncio.gather(*(p.kill() for p in self.procs))


async def finished(peers: list[Proc], host: Proc, timeout: float) -> list[dict[str, Any]]:
    """Every process ends by itself with 0; the peers' results (seat, winners, scores)."""
    codes = await asyncio.gather(*(p.wait(timeout) for p in [*peers, host]))
    output = "".join(p.output for p in [*peers, host])
    assert codes == [0] * (len(peers) + 1), output
    results = [json.loads(p.lines[-1][1]) for p in peers]
    assert sorted(r["seat"] for r in results) == [0, 1, 2], output
    first = results[0]
    for r in results:
        assert (r["winners"], r["scores"]) == (first["winners"], first["scores"]), output
    over = await host.line_with("Game over:", timeout=1)
    for p, r in zip(peers, results, strict=True):
        assert f"{p.label.capitalize()} {r['scores'][r['seat']]:g}" in over, output
    return results


def run(test: Any, lan: Lan, env: dict[str, str]) -> None:
    async def main() -> None:
        table = Table(lan, env, Path(env["LANPLAY_DATA_DIR"]))
        try:
            await test(table)
        finally:
            await table.close()

    asyncio.run(main())


@pytest.mark.timeout(90)
def test_three_laptops_find_the_host_by_mdns_and_play_a_whole_game(
        lan: Lan, env: dict[str, str]) -> None:
    async def test(table: Table) -> None:
        host = await table.host(seed=11)
        laptops = [lan[name] for name in PEERS]
        found = await asyncio.gather(*(table.discover(x) for x in laptops))
        for entry in found:
            assert entry["address"] == lan["host"].address and entry["port"] == PORT
            assert entry["game"] == "alles-klar" and entry["seats"] == "0/5"
            assert entry["state"] == "lobby" and entry["compatible"] is True
        peers = [await table.join(x, found[i]["address"], found[i]["port"], 0.0, seed=i)
                 for i, x in enumerate(laptops)]
        await host.line_with("Game 1 started", timeout=20)
        await finished(peers, host, timeout=60)

    run(test, lan, env)


@pytest.mark.timeout(120)
def test_a_laptop_whose_cable_is_pulled_mid_game_comes_back_to_its_seat(
        lan: Lan, env: dict[str, str]) -> None:
    async def test(table: Table) -> None:
        host = await table.host("--standin-after", "3", seed=12)
        address = lan["host"].address
        peers = [await table.join(lan[name], address, PORT, 0.15, seed=i)
                 for i, name in enumerate(PEERS)]
        await host.line_with("Game 1 started", timeout=20)
        await host.line_with("Move 5 by", timeout=20)
        bea, seat = peers[1], table.seat["bea"]
        pulled = asyncio.get_running_loop().time()
        lan.unplug(lan["bea"])
        # Nothing crosses the cable now. Both ends notice the silence by their
        # heartbeats within 10 s; bea starts knocking again with its token, the
        # host marks the seat away and, 3 s later, lets a stand-in bot play it.
        await bea.line_with("Lost the host; reconnecting", timeout=20)
        await host.line_with("Stand-in bots play for: Bea.", timeout=20)
        noticed = host.when("Stand-in bots play for") - pulled - 3
        assert noticed <= 10 + 2 + 1, f"the host took {noticed:.1f} s to notice"
        lan.plug(lan["bea"])
        back = await bea.line_with("Back in seat", timeout=20)
        assert f"Back in seat {seat}." in back, bea.output
        await host.line_with("Every seat is played by its own player again.", timeout=10)
        await finished(peers, host, timeout=90)
        # the seat came back while the game was still being played
        assert bea.when("Back in seat") < host.when("Game over:"), host.output + bea.output

    run(test, lan, env)


@pytest.mark.timeout(120)
def test_a_host_killed_mid_game_resumes_and_the_game_finishes(
        lan: Lan, env: dict[str, str]) -> None:
    async def test(table: Table) -> None:
        host = await table.host(seed=13)
        address = lan["host"].address
        peers = [await table.join(lan[name], address, PORT, 0.15, seed=i)
                 for i, name in enumerate(PEERS)]
        await host.line_with("Game 1 started", timeout=20)
        await host.line_with("Move 10 by", timeout=30)
        host.signal(signal.SIGKILL)
        assert await host.wait(timeout=10) == -signal.SIGKILL
        for peer in peers:
            await peer.line_with("Lost the host; reconnecting", timeout=20)
        again = await table.resume()
        resumed = next(line for _, line in again.lines if line.startswith("Resumed "))
        moves = int(resumed.split(" after ")[1].split()[0])
        last = max(int(line.split()[1]) for _, line in host.lines if line.startswith("Move "))
        assert moves >= last >= 10, host.output + again.output  # every move told was saved
        for peer in peers:
            back = await peer.line_with("Back in seat", timeout=30)
            assert f"Back in seat {table.seat[peer.label]}." in back, peer.output
        await finished(peers, again, timeout=90)
        first_after = min(int(line.split()[1]) for _, line in again.lines
                          if line.startswith("Move "))
        assert first_after == moves + 1, again.output  # play went on from the saved move

    run(test, lan, env)
