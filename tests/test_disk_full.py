"""A full disk (issue 12, finding 3): a move that cannot be saved is never told.

The data directory is a real 256 KiB tmpfs, filled to the last byte by the test:
the host's next save fails as it would on a laptop whose disk is full. Then the
move is held (its actor is refused ``disk_full`` with what to do), every window
is told that play is paused, nothing a peer has heard of is missing from the
disk, and play goes on by itself once a save works again; a host killed while
paused resumes exactly where its peers were told it was. Needs root (mount);
skipped with the reason otherwise.
"""

from __future__ import annotations

import asyncio
import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from nethelpers import run
from resilience import GAME, LOCAL, Table, config, steady_baseline
from smalldisk import empty, fill, small_disk

from lanplay.host import Host
from lanplay.store import durable, folders, listing, saves
from protocol.messages import Intent


def readable(reason: str | None) -> str:
    assert reason is not None and 20 <= len(reason) <= 300 and " " in reason, reason
    assert "Error" not in reason and "Traceback" not in reason and "disk is full" in reason
    return reason


def on_disk(host: Host) -> int:
    """The state_id the host's save (with its journal) holds now."""
    assert host.save_path is not None
    return saves.load(host.save_path).state_id


class Events:
    """The host's listener events, with a way to wait for the n-th of a kind."""

    def __init__(self, host: Host) -> None:
        self.seen: list[str] = []
        self.told_before_saved: list[tuple[int, int]] = []
        self._changed = asyncio.Event()
        self.host = host
        host.listeners.append(self.on_event)

    def on_event(self, what: str) -> None:
        self.seen.append(what)
        self._changed.set()
        session = self.host.session
        if what == "action" and session is not None and session.result is None:
            saved = on_disk(self.host)  # what --log-moves prints must be on disk by now
            if saved < session.state_id:
                self.told_before_saved.append((session.state_id, saved))

    async def count(self, what: str, n: int, timeout: float = 20) -> None:
        async with asyncio.timeout(timeout):
            while self.seen.count(what) < n:
                self._changed.clear()
                await self._changed.wait()


async def all_see_the_pause(table: Table) -> str:
    reasons = set()
    for peer in table.peers:
        await peer.wait_until(lambda p: p.lobby is not None and p.lobby.paused is not None, 10)
        assert peer.lobby is not None
        reasons.add(readable(peer.lobby.paused))
    (reason,) = reasons
    assert "paused" in reason and "goes on by itself" in reason
    return reason


async def told_what_is_saved(table: Table) -> int:
    """Every peer knows exactly the state on disk, which is the host's state now."""
    host = table.host
    session = host.session
    assert session is not None
    told = host.play.published
    assert session.state_id == told == on_disk(host)  # the held moves were undone
    for peer in table.peers:
        await peer.wait_until(lambda p: p.state_id == told, 10)
        assert peer.view == session.view(peer.seat), peer.name
    return told


@pytest.mark.timeout(120)
def test_a_full_disk_holds_the_move_pauses_play_and_it_goes_on_by_itself(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(saves, "COMPACT_EVERY", 4)  # a new file, so new space, often
    with small_disk() as disk:
        async def main() -> None:
            cfg = config(disk, seed=3, autostart=3, save_retry=0.1)
            table = Table(Host(GAME, config=cfg))
            events = Events(table.host)
            await table.host.start()
            try:
                for i in range(3):
                    await table.seat(f"Bot {i}", "steady", seed=40 + i)
                held = asyncio.Event()
                for peer in table.peers:
                    peer.listeners.append(lambda event, msg: held.set() if event == "rejected"
                                          and msg.code == "disk_full" else None)
                await table.peers[0].wait_until(lambda p: p.state_id >= 6, 20)
                filler = fill(disk)
                await events.count("paused", 1)
                await all_see_the_pause(table)
                told = await told_what_is_saved(table)
                await asyncio.wait_for(held.wait(), 5)  # the bot whose move was held
                (refused, *_) = [r for p in table.peers for r in p.rejections]
                assert refused.code == "disk_full"
                readable(refused.reason)
                assert "your move was not made" in refused.reason
                # whoever tries meanwhile is told the same; nothing moves on its own
                session = table.host.session
                assert session is not None
                peer = next(p for p in table.peers if p.seat in session.actors())
                before = len(peer.rejections)
                peer.send(Intent(999, peer.state_id, {"type": "anything"}))
                await peer.wait_until(lambda p: len(p.rejections) > before, 5)
                assert peer.rejections[-1].code == "disk_full"
                await events.count("save_failed", 4)  # it keeps trying, and failing
                assert table.host.play.published == told == on_disk(table.host)
                assert all(p.state_id == told for p in table.peers)
                # room again: play goes on by itself, and the game ends for everyone
                empty(filler)
                await events.count("unpaused", 1)
                for peer in table.peers:
                    await peer.wait_until(lambda p: p.lobby is not None
                                          and p.lobby.paused is None, 10)
                await table.finish()
                assert table.host.session is not None
                assert table.host.session.replay().state == table.host.session.state
                assert not events.told_before_saved, events.told_before_saved
                await table.host.saver.drain(5)  # the history follows the told end
                (done,) = folders.history_dir(disk).glob("*.json")
                assert saves.load(done).state_id == table.host.session.state_id
            finally:
                await table.close()

        run(main())


@pytest.mark.timeout(120)
def test_a_host_killed_while_paused_resumes_where_its_peers_were_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue: every peer had been told the game was over, and the resume brought
    back move 61. Here the disk fills just before the game's last move: the game over
    is held (nobody hears of it), the host is killed while paused, and the resumed
    game is what the peers saw, to the view. (The move before the last compacts the
    save, after it is told, on the full disk: so the last move needs a full save and
    cannot even append its journal line to a page the journal already has.)"""
    last = steady_baseline(3, 3, 40).state_id
    monkeypatch.setattr(saves, "COMPACT_EVERY", last - 1)
    with small_disk() as disk:
        async def main() -> None:
            cfg = config(disk, seed=3, autostart=3, save_retry=0.1)
            table = Table(Host(GAME, config=cfg))
            events = Events(table.host)
            fillers: list[Path] = []

            def before_the_last_move(what: str) -> None:
                session = table.host.session
                if what == "action" and session is not None and \
                        session.state_id == last - 1 and not fillers:
                    fillers.append(fill(disk))

            table.host.listeners.append(before_the_last_move)
            await table.host.start()
            try:
                for i in range(3):
                    await table.seat(f"Bot {i}", "steady", seed=40 + i)
                await events.count("paused", 1, timeout=40)
                (filler,) = fillers
                told = await told_what_is_saved(table)
                assert told == last - 1 and table.host.room.phase == "playing"
                assert not table.host.results and not table.host.finished.is_set()
                path = table.host.save_path
                assert path is not None
                views = {p.name: p.view for p in table.peers}
                assert all(p.result is None for p in table.peers)
                table.host.kill()
                table.dead.append(table.host)
                empty(filler)
                resumed = await table.resume(path, cfg)
                assert resumed.session is not None and resumed.session.state_id == told
                for peer in table.peers:
                    assert resumed.session.view(peer.seat) == views[peer.name]
                await table.finish()
            finally:
                await table.close()

        run(main())


def test_the_end_is_told_once_its_line_is_saved_and_filed_in_the_history_later(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's last move is durable in its journal line (with the result), so it
    is told at once; the history (a full save, two fsyncs and a rename) follows. On a
    full disk the history cannot be written: the game is over for everyone all the
    same, a resume says it has finished, and once there is room it is filed in the
    history with its result."""
    baseline = steady_baseline(3, 3, 40)
    last = baseline.state_id
    # The journal starts afresh a few moves before the end: the last line fits in the
    # page the journal already has, so it is written on the full disk.
    monkeypatch.setattr(saves, "COMPACT_EVERY", last - 6)
    with small_disk() as disk:
        async def main() -> None:
            cfg = config(disk, seed=3, autostart=3, save_retry=0.1)
            table = Table(Host(GAME, config=cfg))
            fillers: list[Path] = []
            paths: list[Path] = []

            def before_the_last_move(what: str) -> None:
                session = table.host.session
                if what == "action" and session is not None and \
                        session.state_id == last - 1 and not fillers:
                    assert table.host.save_path is not None
                    paths.append(table.host.save_path)
                    fillers.append(fill(disk))

            table.host.listeners.append(before_the_last_move)
            await table.host.start()
            try:
                for i in range(3):
                    await table.seat(f"Bot {i}", "steady", seed=40 + i)
                await asyncio.wait_for(table.host.finished.wait(), 40)
                (path,) = paths
                assert fillers and table.host.results
                await table.host.saver.drain(5)
                assert path.exists()  # the history could not be written
                assert not folders.history_dir(disk).exists() or \
                    not list(folders.history_dir(disk).iterdir())
                told = table.host.results[-1].to_wire()
                await table.host.stop("the party goes home")
                kept = saves.load(path)
                assert kept.finished and kept.state_id == last and kept.result == told
                with pytest.raises(saves.SaveError, match="has finished"):
                    Host.resume(path, cfg)  # still no room: it stays where it is
                assert path.exists()
                empty(fillers[0])
                (filed,) = listing.settle(disk)
                assert not path.exists() and not durable.journal_path(path).exists()
                back = saves.load(filed)
                assert back.finished and back.result == told and back.log == baseline.log
                assert saves.rebuild(back).result is not None
            finally:
                await table.close()

        run(main())


def test_a_journal_write_cut_short_by_a_full_disk_is_cut_back() -> None:
    """A half-written line must not come back as a move on a resume."""
    with small_disk("64k") as disk:
        path = disk / "saves" / "game.json"
        writer = durable.Writer(path)
        writer.full(b"{}", 0, None)
        writer.flush()
        writer.lines(['{"n": 1}'], 1)
        writer.flush()
        journal = durable.journal_path(path)
        kept = journal.read_bytes()
        filler = fill(disk)
        # longer than what is left of the journal's last page: part of it is written
        writer.lines(['{"n": 2}' + " " * 9000], 2)
        with pytest.raises(OSError) as failed:
            writer.flush()
        assert failed.value.errno == errno.ENOSPC
        assert journal.read_bytes() == kept and writer.durable == 1
        empty(filler)
        writer.full(b"{}", 2, None)
        writer.flush()
        assert writer.durable == 2


@pytest.mark.timeout(90)
def test_log_moves_prints_only_saved_moves_and_says_why_play_is_paused(tmp_path: Path
                                                                        ) -> None:
    """The command: the disk is full when the game starts; no move is printed (or
    played) until the save works, then the game is played to its end."""
    with small_disk() as disk:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        host = subprocess.Popen(
            [sys.executable, "-m", "lanplay.cli", "host", GAME, "--headless", "--no-announce",
             "--bind", LOCAL, "--port", "0", "--bots", "2", "--players", "3", "--seed", "3",
             "--bot-delay", "0", "--log-moves", "--data-dir", str(disk)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        lines: list[str] = []
        try:
            assert host.stdout is not None
            while "Others can join" not in (line := host.stdout.readline()):
                assert line, lines
                lines.append(line)
            port = int(re.findall(r"on port (\d+)", "".join(lines))[0])
            filler = fill(disk)
            joiner = subprocess.Popen(
                [sys.executable, "-m", "lanplay.cli", "join", f"{LOCAL}:{port}", "--bot",
                 "--json"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                env=env)
            while "Play is paused" not in (line := host.stdout.readline()):
                assert line, lines
                lines.append(line)
            paused_at = len(lines)
            lines.append(line)
            assert "disk is full" in line and str(disk) in line, line
            assert not [x for x in lines if x.startswith("Move ")], lines
            assert not list(folders.saves_dir(disk).glob("*.json"))
            empty(filler)
            out, _ = host.communicate(timeout=60)
            lines.extend(out.splitlines(keepends=True))
            joiner.communicate(timeout=30)
        finally:
            for process in (host,):
                if process.poll() is None:
                    process.kill()
                    process.communicate()
        assert host.returncode == 0, "".join(lines)
        after = lines[paused_at:]
        assert after[1].startswith("The game is saved again"), after[:3]
        moves = [int(m) for x in after for m in re.findall(r"^Move (\d+) by", x)]
        assert moves == list(range(1, len(moves) + 1)) and len(moves) > 20, moves
        assert any(x.startswith("Game over") for x in after), after[-3:]
        (done,) = folders.history_dir(disk).glob("*.json")
        assert saves.load(done).state_id == moves[-1]
