"""The ``lanplay`` command, run as a person would: the venv's script in a subprocess.

Hosts listen and announce on 127.0.0.1 only, and are stopped with SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from protocol.codec import decode_body
from protocol.messages import Snapshot

LANPLAY = str(Path(sys.executable).with_name("lanplay"))
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}
DECK = 77


def lanplay(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LANPLAY, *args], capture_output=True, text=True, env=ENV,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- games and selfplay --------------------------------------------------------------


@pytest.mark.timeout(60)
def test_games_lists_all_five_as_playable() -> None:
    done = lanplay("games", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [r["id"] for r in rows] == ["ranking", "s-tier", "ranking-top", "ranagedon",
                                       "alles-klar"]
    assert all(r["available"] is True and r["name"] for r in rows)
    klar = rows[-1]
    assert klar["players"] == [2, 5] and klar["modes"] == ["standard"]
    assert {o["key"] for o in klar["options"]} == {"hand_size", "end_rule"}
    plain = lanplay("games")
    assert plain.returncode == 0 and "alles-klar" in plain.stdout and "coming" not in plain.stdout
    assert "S-tier" in plain.stdout and "cooperative" in plain.stdout


SUMMARY_KEYS = {"game", "mode", "players", "seed", "winners", "scores", "actions", "frames",
                "bytes", "largest_frame", "seconds", "game_seed", "audit"}


def check_summary(out: dict[str, Any], players: int, seed: int) -> None:
    assert set(out) >= SUMMARY_KEYS, SUMMARY_KEYS - set(out)
    assert (out["game"], out["mode"], out["players"], out["seed"]) == (
        "alles-klar", "standard", players, seed)
    scores = out["scores"]
    assert len(scores) == players and all(s >= 0 for s in scores)
    assert out["winners"] and all(scores[w] == max(scores) for w in out["winners"])
    assert [s for s, v in enumerate(scores) if v == max(scores)] == out["winners"]
    assert sum(scores) <= DECK and out["actions"] > 0
    for key in ("frames", "bytes"):
        assert len(out[key]) == players and all(n > 0 for n in out[key]), key
    assert all(b >= 4 * f for f, b in zip(out["frames"], out["bytes"], strict=True))
    assert 0 < out["largest_frame"] <= max(out["bytes"])
    assert out["seconds"] >= 0
    assert out.get("peer_results_agree", True) is True
    assert out["audit"] == ["verified"] * players  # every peer checked the host's audit


@pytest.mark.timeout(90)
def test_selfplay_prints_one_json_summary_and_the_same_seed_plays_the_same_game(
        tmp_path: Path) -> None:
    first = lanplay("selfplay", "alles-klar", "--players", "4", "--json", "--seed", "3")
    assert first.returncode == 0, first.stderr
    assert len(first.stdout.strip().splitlines()) == 1
    out = json.loads(first.stdout)
    check_summary(out, 4, 3)

    again = lanplay("selfplay", "alles-klar", "--players", "4", "--json", "--seed", "3",
                    "--record", str(tmp_path))
    assert again.returncode == 0, again.stderr
    twin = json.loads(again.stdout)
    assert (twin["winners"], twin["scores"], twin["actions"]) == (
        out["winners"], out["scores"], out["actions"])

    # the record: raw frames per peer, as counted, and the host's log
    for peer in range(4):
        data = (tmp_path / f"peer-{peer}.frames").read_bytes()
        bodies, at = [], 0
        while at < len(data):
            (length,) = struct.unpack_from(">I", data, at)
            bodies.append(data[at + 4:at + 4 + length])
            at += 4 + length
        assert at == len(data)
        assert len(bodies) == twin["frames"][peer]
        assert len(data) == twin["bytes"][peer]
        messages = [decode_body(b) for b in bodies]  # every one a valid message
        assert any(isinstance(m, Snapshot) for m in messages)
    log = json.loads((tmp_path / "host-log.json").read_text())
    assert len(log["actions"]) == twin["actions"]
    # the game's seed is the shuffle's (the host's seeded secret and the seeded peers'
    # contributions), no longer --seed itself: the same --seed gives the same one
    assert (log["seed"], log["players"]) == (twin["game_seed"], 4) == (out["game_seed"], 4)
    assert twin["audit"] == out["audit"] == ["verified"] * 4
    final = json.loads((tmp_path / "final-state.json").read_text())
    won = [len(w) for w in final["won"]]
    assert won == twin["scores"]
    cards = sum(won) + len(final["removed"]) + sum(len(h) for h in final["hands"]) \
        + len(final["pile"]) + sum(len(row) for row in final["table"])
    assert cards == DECK

    other = lanplay("selfplay", "alles-klar", "--players", "2", "--json", "--seed", "4")
    assert other.returncode == 0, other.stderr
    check_summary(json.loads(other.stdout), 2, 4)


@pytest.mark.timeout(60)
def test_an_impossible_request_is_explained_not_waited_on() -> None:
    for players in ("9", "1"):  # 9: the host turns bots away; 1: it never starts
        done = lanplay("selfplay", "alles-klar", "--players", players, "--json", timeout=20)
        assert done.returncode == 2, done.stderr
        verb = "is" if players == "1" else "are"  # a plural form (ngettext), not "are 1"
        assert done.stderr == f"lanplay: Alles klar? needs 2-5 players; there {verb} {players}.\n"
    done = lanplay("host", "alles-klar", "--headless", "--players", "7", "--no-announce",
                   "--bind", "127.0.0.1", "--port", "0", timeout=20)
    assert done.returncode == 2 and "needs 2-5 players" in done.stderr, done.stderr
    done = lanplay("selfplay", "no-such-game", "--players", "2", timeout=20)
    assert done.returncode == 2 and "alles-klar" in done.stderr
    assert "Traceback" not in done.stderr


HEADLESS = ("games", "host", "discover", "join", "selfplay", "verify", "bench", "bench-load")


@pytest.mark.timeout(60)
def test_the_command_lists_every_command_and_the_headless_core_says_where_the_window_is(
) -> None:
    # The installed command is the window's entry point (ui.main): it adds the
    # commands that need the window; python -m lanplay is the Qt-free core.
    done = lanplay("--help")
    assert done.returncode == 0, done.stderr
    assert "With no command, opens the window." in done.stdout
    for command in (*HEADLESS, "screenshots"):
        assert f"    {command}" in done.stdout, command
    core = subprocess.run([sys.executable, "-m", "lanplay", "--help"], capture_output=True,
                          text=True, env=ENV, timeout=30, stdin=subprocess.DEVNULL)
    assert core.returncode == 0, core.stderr
    assert all(f"    {c}" in core.stdout for c in HEADLESS) and "screenshots" not in core.stdout
    bare = subprocess.run([sys.executable, "-m", "lanplay"], capture_output=True, text=True,
                          env=ENV, timeout=30, stdin=subprocess.DEVNULL)
    assert bare.returncode == 2 and bare.stdout == ""
    assert "The window opens with the installed `lanplay` command" in bare.stderr
    assert "Traceback" not in bare.stderr


# --- hosting and joining ------------------------------------------------------------------


class HostProcess:
    """``lanplay host`` in the background, read line by line."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []

    @classmethod
    async def start(cls, *args: str) -> HostProcess:
        proc = await asyncio.create_subprocess_exec(
            LANPLAY, "host", "alles-klar", "--headless", "--bind", "127.0.0.1",
            "--interface", "127.0.0.1", *args, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, stdin=asyncio.subprocess.DEVNULL, env=ENV)
        return cls(proc)

    async def line_with(self, text: str, timeout: float = 20) -> str:
        assert self.proc.stdout is not None
        async with asyncio.timeout(timeout):
            while True:
                raw = await self.proc.stdout.readline()
                assert raw, f"the host ended before printing {text!r}:\n" + "".join(self.lines)
                line = raw.decode()
                self.lines.append(line)
                if text in line:
                    return line

    async def interrupt(self, timeout: float = 20) -> int:
        """SIGINT, as Ctrl-C would; the rest of its output is kept."""
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
        return await self.wait(timeout)

    async def wait(self, timeout: float = 20) -> int:
        assert self.proc.stdout is not None
        rest = await asyncio.wait_for(self.proc.stdout.read(), timeout)
        self.lines.append(rest.decode())
        return await asyncio.wait_for(self.proc.wait(), timeout)

    def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()

    @property
    def output(self) -> str:
        return "".join(self.lines)


async def run_cli(*args: str, timeout: float = 60) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        LANPLAY, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL, env=ENV)
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.timeout(90)
def test_a_headless_host_and_a_joining_bot_play_a_game_to_the_end(tmp_path: Path) -> None:
    async def main() -> None:
        port = free_port()
        host = await HostProcess.start("--bots", "1", "--port", str(port), "--bot-delay", "0",
                                       "--seed", "5", "--games", "1", "--name", "cli host")
        try:
            await host.line_with(f"on port {port}")
            code, out, err = await run_cli("join", f"127.0.0.1:{port}", "--bot", "--json",
                                           "--name", "Joiner", "--seed", "2",
                                           "--record", str(tmp_path))
            assert code == 0, err
            assert "Joined 'cli host' (alles-klar)" in out
            result = json.loads(out.strip().splitlines()[-1])
            scores, seat = result["scores"], result["seat"]
            assert result["audit"] == "verified"  # the joiner checked the host's audit
            # and its record checks offline too
            code, out, err = await run_cli("verify", str(tmp_path / f"peer-{seat}.frames"))
            assert (code, out.splitlines()[-1], err) == (0, "verified", ""), out
            assert seat in (0, 1) and len(scores) == 2
            assert result["winners"] == [s for s, v in enumerate(scores) if v == max(scores)]
            # the host stops by itself after one game, withdrawing its announcement
            assert await host.wait() == 0, host.output
        finally:
            try:
                code = await host.interrupt()
            finally:
                host.kill()
        text = host.output
        assert "Game 1 started." in text
        over = next(line for line in text.splitlines() if line.startswith("Game over:"))
        assert f"Joiner {scores[seat]:g}" in over and f"Bot 1 {scores[1 - seat]:g}" in over
        assert "Stopped; announcement withdrawn." in text
        assert code == 0

    asyncio.run(main())


@pytest.mark.timeout(90)
def test_discover_finds_a_running_host_which_withdraws_on_ctrl_c() -> None:
    async def main() -> None:
        port = free_port()
        name = f"cli discover {os.getpid()}"
        host = await HostProcess.start("--port", str(port), "--name", name)
        try:
            await host.line_with(f"on port {port}")
            code, out, err = await run_cli("discover", "--interface", "127.0.0.1",
                                           "--timeout", "3", "--json")
            assert code == 0, err
            found = [h for h in json.loads(out) if h["host"] == name]
            assert len(found) == 1, out
            entry = found[0]
            assert entry["port"] == port and entry["address"] == "127.0.0.1"
            assert entry["game"] == "alles-klar" and entry["state"] == "lobby"
            assert entry["seats"] == "0/5" and entry["compatible"] is True
            assert entry["password"] is False and isinstance(entry["version"], int)
            assert host.proc.returncode is None, "the host must still be running"
        finally:
            try:
                code = await host.interrupt()
            finally:
                host.kill()
        assert code == 0, host.output
        assert "Stopped; announcement withdrawn." in host.output

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_join_says_clearly_when_no_host_answers() -> None:
    done = lanplay("join", "127.0.0.1:1", "--bot", timeout=20)
    assert done.returncode == 2
    assert done.stderr.startswith("lanplay: Could not reach 127.0.0.1:1")
    assert "connection refused" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
    bad = lanplay("join", "127.0.0.1:port", "--bot", timeout=20)
    assert bad.returncode == 2 and "ADDRESS[:PORT]" in bad.stderr


# --- options that go before or after any command --------------------------------------

MINIMAL = {"games": [], "host": ["alles-klar"], "discover": [], "join": ["127.0.0.1:1"],
           "selfplay": ["alles-klar", "--players", "2"], "verify": ["peer-0.frames"],
           "replay": ["game.json"], "bench": [], "bench-load": [], "screenshots": ["out"]}
"""Each command's required arguments, so its parser can be run (a new command must be
added here: the test below lists them all)."""


def test_data_dir_and_lang_go_before_or_after_every_command(tmp_path: Path) -> None:
    """``lanplay join ADDRESS --bot --data-dir DIR`` was refused ("unrecognized
    arguments"): only ``host`` took --data-dir after it, though the README says any."""
    from lanplay import cli
    from ui.main import INSTALL_DESKTOP, SCREENSHOTS

    parser = cli._parser(True, [SCREENSHOTS, INSTALL_DESKTOP])
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(commands.choices) == set(MINIMAL), "a new command: add its arguments above"
    folder = str(tmp_path / "lea")
    for command, required in MINIMAL.items():
        after = parser.parse_args([command, *required, "--data-dir", folder, "--lang", "de"])
        assert (after.command, after.data_dir, after.lang) == (command, folder, "de")
        before = parser.parse_args(["--data-dir", folder, "--lang", "es", command, *required])
        assert (before.data_dir, before.lang) == (folder, "es"), command
        neither = parser.parse_args([command, *required])
        assert (neither.data_dir, neither.lang) == (None, None), command
    # And the command itself, as it was reported: it gets as far as the host.
    done = lanplay("join", "127.0.0.1:1", "--bot", "--data-dir", folder, timeout=20)
    assert done.returncode == 2 and "unrecognized arguments" not in done.stderr
    assert done.stderr.startswith("lanplay: Could not reach 127.0.0.1:1"), done.stderr
