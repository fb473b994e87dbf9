"""Saves: a host killed at any accepted action resumes from its save, the peers come
back by themselves, and the game ends as it would have; finished games are history."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from nethelpers import run
from resilience import GAME, LOCAL, Table, config, steady_baseline

from lanplay import games
from lanplay.host import Host
from lanplay.peer.peer import JoinError, Peer
from lanplay.session import LogEntry, Session
from lanplay.store import durable, folders, listing, saves


def the_save(data_dir: Path) -> Path:
    (path,) = folders.saves_dir(data_dir).glob("*.json")
    return path


# --- the file ---------------------------------------------------------------------------


def a_save(**changes: Any) -> saves.Save:
    session = Session(games.load(GAME), 3, seed=4)
    while session.state_id < 5:
        (seat,) = session.actors()
        session.submit(seat, session.game.legal(session.state, seat)[0])
    fields: dict[str, Any] = dict(
        game_id="abc123", game=GAME, mode=session.mode, options=session.options,
        seed=4, seats=[saves.SavedSeat(f"P{i}", "#000000", f"tok{i}") for i in range(3)],
        log=list(session.log), state_id=session.state_id, phase="playing", port=7531,
        started=time.time(), updated=time.time(), state=saves.plain(session.state))
    fields.update(changes)
    return saves.Save(**fields)


def test_a_save_round_trips_and_is_written_atomically_for_its_owner_only(
        tmp_path: Path) -> None:
    save = a_save(log=[LogEntry(0, {"type": "x", "blob": b"\x00\xff", "n": 1.0,
                                    "ok": True}, 1)], state_id=1)
    path = tmp_path / "saves" / saves.file_name(save)
    saves.write(save, path)
    back = saves.load(path)
    assert back == save
    assert back.log[0].action["blob"] == b"\x00\xff"  # bin survives JSON
    assert type(back.log[0].action["n"]) is float and back.log[0].action["ok"] is True
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds the seats' tokens
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700  # and so does its folder
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left


def test_rebuild_replays_the_log_and_refuses_a_save_that_does_not_replay() -> None:
    save = a_save()
    assert saves.rebuild(save).state_id == 5
    edited = a_save(state={**save.state, "turn": 99})
    with pytest.raises(saves.SaveError, match="does not give the saved table"):
        saves.rebuild(edited)
    with pytest.raises(saves.SaveError, match="ends at state 6"):
        saves.rebuild(a_save(state_id=6))
    with pytest.raises(saves.SaveError, match="is damaged"):
        saves.decode(b"{\"format\": 1, \"seats\": 3}")
    with pytest.raises(saves.SaveError, match="another lanplay version"):
        saves.decode(b"{\"format\": 99}")


def test_list_saves_finds_unfinished_games_and_history_newest_first(tmp_path: Path) -> None:
    old = a_save(game_id="old", updated=100.0)
    new = a_save(game_id="new", updated=200.0)
    done = a_save(game_id="done", updated=300.0, phase="over",
                  result={"winners": [0], "scores": [3, 1, 0], "detail": {}})
    folder = folders.saves_dir(tmp_path)
    for save in (old, new):
        saves.write(save, folder / saves.file_name(save))
    saves.archive(folder / saves.file_name(done), done)
    (folder / "notes.json").write_text("not a save")  # skipped, not fatal
    found = listing.list_saves(tmp_path)
    assert [(i.game_id, i.finished) for i in found] == [("done", True), ("new", False),
                                                         ("old", False)]
    assert found[0].result is not None and found[0].path.parent.name == "history"
    assert listing.newest_unfinished(tmp_path).name == saves.file_name(new)
    with pytest.raises(saves.SaveError, match="no unfinished game"):
        listing.newest_unfinished(tmp_path / "elsewhere")


def test_the_data_directory_comes_from_the_config_then_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANPLAY_DATA_DIR", str(tmp_path / "env"))
    assert folders.saves_dir() == tmp_path / "env" / "saves"
    assert folders.saves_dir(tmp_path / "cfg") == tmp_path / "cfg" / "saves"
    monkeypatch.delenv("LANPLAY_DATA_DIR")
    assert folders.data_dir().name == "lanplay"  # platformdirs' user data directory


# --- the journal ------------------------------------------------------------------------


def played(actions: int, seed: int = 4) -> Session:
    session = Session(games.load(GAME), 3, seed=seed)
    while session.state_id < actions:
        (seat,) = session.actors()
        session.submit(seat, session.game.legal(session.state, seat)[0])
    return session


def saved_with_journal(tmp_path: Path, lines: bytes) -> Path:
    """A save at state 5 of ``played`` with ``lines`` as its journal."""
    save = a_save()
    path = folders.saves_dir(tmp_path) / saves.file_name(save)
    saves.write(save, path)
    durable.journal_path(path).write_bytes(lines)
    return path


def journal_of(session: Session, states: range) -> bytes:
    return b"".join(saves.entry_json(session.log[i - 1]).encode() + b"\n" for i in states)


def test_the_journal_follows_the_save_and_a_torn_last_line_is_ignored(
        tmp_path: Path) -> None:
    session = played(8)
    path = saved_with_journal(tmp_path, journal_of(session, range(6, 9)))
    back = saves.load(path)
    assert (back.state_id, back.journaled, back.log) == (8, 3, session.log)
    assert saves.rebuild(back).state == session.state
    assert listing.list_saves(tmp_path)[0].actions == 8  # the journal's actions count
    # A crash in mid-write: the last line has no newline; that action was never told.
    durable.journal_path(path).write_bytes(journal_of(session, range(6, 9))
                                         + b'{"seat":1,"action":{"ty')
    assert saves.load(path).log == session.log
    # Lines the save already holds (a crash before the compaction's truncation).
    durable.journal_path(path).write_bytes(journal_of(session, range(3, 9)))
    assert saves.load(path).log == session.log
    # The audit dump is the save's own state, checked before the journal replays on.
    edited = dataclasses.replace(back, state={**back.state, "turn": 99})
    with pytest.raises(saves.SaveError, match="does not give the saved table"):
        saves.rebuild(edited)


@pytest.mark.parametrize(("lines", "reason"), [
    (range(7, 9), r"Line 1 of .* is for state 7 but the save continues at 6"),
    (range(6, 8), None),  # fine: a prefix of the rest
])
def test_a_journal_that_does_not_follow_the_save_is_refused_with_a_reason(
        tmp_path: Path, lines: range, reason: str | None) -> None:
    session = played(8)
    path = saved_with_journal(tmp_path, journal_of(session, lines))
    if reason is None:
        assert saves.load(path).state_id == 7
        return
    with pytest.raises(saves.SaveError, match=reason):
        saves.load(path)


def test_a_damaged_or_different_journal_line_is_refused_with_a_reason(
        tmp_path: Path) -> None:
    session, other = played(8), played(8, seed=5)
    path = saved_with_journal(tmp_path, journal_of(session, range(6, 7)) + b"garbage\n"
                              + journal_of(session, range(7, 9)))
    with pytest.raises(saves.SaveError, match=r"Line 2 of .* is damaged"):
        saves.load(path)
    path = saved_with_journal(tmp_path, journal_of(other, range(4, 9)))
    assert other.log[3] != session.log[3]
    with pytest.raises(saves.SaveError, match=r"Line 1 of .* differs from the save"):
        saves.load(path)
    assert not [i for i in listing.list_saves(tmp_path) if i.path == path]  # unreadable


@pytest.mark.timeout(60)
def test_the_host_journals_each_action_compacts_and_resumes_from_a_copy(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between full saves one journal line per action; every COMPACT_EVERY actions the
    save is rewritten and the journal emptied. Files copied the instant an action was
    made durable (as a SIGKILL would leave them) resume with that action."""
    monkeypatch.setattr(saves, "COMPACT_EVERY", 8)
    seen: dict[int, tuple[int, list[int], int]] = {}
    copies = data_dir / "copies"

    async def main() -> None:
        folder = data_dir / "live"
        table = Table(Host(GAME, config=config(folder, seed=7, autostart=3)))
        host = table.host

        def on_event(what: str) -> None:
            session = host.session
            if what != "action" or session is None or session.result is not None:
                return
            path = the_save(folder)
            journal = durable.journal_path(path)
            raw = saves.decode(path.read_bytes())
            ids = [json.loads(line)["state_id"] for line in journal.read_bytes().splitlines()]
            seen[session.state_id] = (raw.state_id, ids,
                                      stat.S_IMODE(journal.stat().st_mode))
            if session.state_id == 13:
                target = folders.saves_dir(copies)
                target.mkdir(parents=True)
                shutil.copy(path, target / path.name)
                shutil.copy(journal, target / journal.name)

        host.listeners.append(on_event)
        await host.start()
        try:
            for i in range(3):
                await table.seat(f"Bot {i}", "steady", seed=70 + i)
            await table.finish()
            await host.saver.drain(5)  # the history follows the told end
            assert not list(folders.saves_dir(folder).iterdir()) or \
                [p.name for p in folders.saves_dir(folder).iterdir()] == ["history"]
        finally:
            await table.close()
        baseline = steady_baseline(3, 7, 70)
        table = Table(Host.resume(the_save(copies), config(copies)))
        resumed = table.host
        assert resumed.session is not None and resumed.session.state_id == 13
        assert resumed.session.log == baseline.log[:13]
        await resumed.start()
        try:
            for i in range(3):
                await table.seat(f"Bot {i}", "steady", seed=70 + i,
                                 token=resumed.room.seats[i].token)
            await table.finish()
            assert resumed.session.log == baseline.log
        finally:
            await table.close()

    run(main())
    assert len(seen) > 16
    for state, (save_state, journal_ids, mode) in seen.items():
        full = state - state % 8
        if state % 8 == 0 and save_state == full - 8:
            # The compaction follows the move once it is told: the move is durable by
            # its journal line (unless both went to the thread at once, as one write).
            full -= 8
        assert save_state == full, state  # the full save only every 8 actions
        assert journal_ids == list(range(full + 1, state + 1)), state  # one line each
        assert mode == 0o600
    assert seen[17][:2] == (16, [17])  # the compaction emptied the journal


# --- killed and resumed ------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_a_host_killed_at_a_random_action_resumes_and_ends_as_if_never_killed(
        data_dir: Path) -> None:
    """Bots whose choices are a function of their view: the resumed game must be the
    uninterrupted game move for move, so the result is exactly the same."""

    async def one(seed: int) -> None:
        folder = data_dir / f"g{seed}"
        players = 3 + seed % 3
        baseline = steady_baseline(players, seed, 100 * seed)
        at = random.Random(seed).randrange(1, baseline.state_id)
        table = Table(Host(GAME, config=config(folder, seed=seed, autostart=players)))
        await table.host.start()
        try:
            for i in range(players):
                await table.seat(f"Bot {i}", "steady", seed=100 * seed + i)
            dead = await table.kill_at(at)
            saved = saves.load(the_save(folder))
            assert saved.state_id == at  # saved before anyone heard of it, nothing after
            assert dead.session is not None and saved.log == dead.session.log
            resumed = await table.resume(the_save(folder), config(folder, seed=seed))
            assert resumed.port == dead.port
            await table.finish()
            session = resumed.session
            assert session is not None and session.result is not None
            assert session.log == baseline.log
            assert session.result == baseline.result
        finally:
            await table.close()

    async def main() -> None:
        for seed in range(1, 7):
            await one(seed)

    run(main())


@pytest.mark.timeout(90)
def test_ordinary_bots_survive_two_crashes_and_the_log_replays(data_dir: Path) -> None:
    """Bots with their own random generators, one of them the host's own (it dies with
    the host and is started again): the saved log is a prefix of the final one, the
    final log replays to the final state, and every peer ends with its own view."""

    async def one(seed: int) -> None:
        folder = data_dir / f"g{seed}"
        chooser = random.Random(seed)
        cfg = config(folder, seed=seed, autostart=4)
        table = Table(Host(GAME, config=cfg))
        await table.host.start()
        try:
            table.host.add_bot()
            for i in range(3):
                await table.seat(f"Peer {i}", "drive", seed=seed * 10 + i)
            saved_logs = []
            for _ in range(2):
                session = table.host.session
                now = session.state_id if session is not None else 0
                await table.kill_at(now + chooser.randrange(1, 12))
                saved = saves.load(the_save(folder))
                saved_logs.append(saved.log)
                await table.resume(the_save(folder), config(folder))
            await table.finish()
            final = table.host.session
            assert final is not None
            for log in saved_logs:
                assert final.log[:len(log)] == log
            assert final.replay().state == final.state
            assert any(s.hosted for s in table.host.room.seats)
            await table.host.saver.drain(5)  # the history follows the told end
            history = listing.list_saves(folder)
            assert [(i.finished, i.actions) for i in history] == [(True, len(final.log))]
            assert history[0].result == final.result.to_wire()  # type: ignore[union-attr]
        finally:
            await table.close()

    async def main() -> None:
        for seed in range(3):
            await one(seed)

    run(main())


@pytest.mark.timeout(40)
def test_a_removed_token_stays_removed_after_a_resume(data_dir: Path) -> None:
    async def main() -> None:
        table = Table(Host(GAME, config=config(data_dir, autostart=3)))
        await table.host.start()
        try:
            owner = await table.seat("Olga", "none", token=table.host.owner_token)
            pest = await table.seat("Pest", "none")
            assert pest.token is not None
            pest_token = pest.token
            owner.control("remove_seat", seat=1)
            await pest.wait_until(lambda p: p.closed_reason is not None, 5)
            for i in range(2):
                await table.seat(f"Bot {i}", "drive", seed=i)
            owner.control("ready")
            await owner.wait_until(lambda p: p.view is not None, 10)
            table.peers.remove(pest)
            links = {id(p): p.link for p in table.peers}
            await table.kill_at(1)
            await table.resume(the_save(data_dir), config(data_dir))
            # Everyone else is back before the test ends (a peer still waiting to retry
            # when the host stops would retry for minutes, not hear the goodbye).
            for peer in table.peers:
                await peer.wait_until(lambda p: p.link is not None
                                      and p.link is not links[id(p)], 10)
            back = Peer("Pest again", token=pest_token)
            with pytest.raises(JoinError) as refused:
                await back.connect(LOCAL, table.host.port)
            assert refused.value.code == "removed"
        finally:
            await table.close()

    run(main())


def test_resume_names_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(saves.SaveError, match="no unfinished game to resume"):
        Host.resume(None, config(tmp_path))
    done = a_save(phase="over", result={"winners": [0], "scores": [1, 0, 0], "detail": {}})
    path = tmp_path / "done.json"
    saves.write(done, path)
    with pytest.raises(saves.SaveError, match="has finished"):
        Host.resume(path, config(tmp_path))


# --- the real thing: SIGKILL --------------------------------------------------------------


def lanplay(*args: str, data: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "LANPLAY_DATA_DIR": str(data), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "lanplay.cli", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for(what: Any, timeout: float, process: subprocess.Popen[str]) -> Any:
    """Poll ``what()`` (a file appearing, a log growing) while ``process`` runs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        assert process.poll() is None, process.communicate()[0]
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def saved_actions(data: Path) -> int:
    try:
        return len(saves.load(next(folders.saves_dir(data).glob("*.json"))).log)
    except (StopIteration, saves.SaveError):
        return 0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((LOCAL, 0))
        return int(s.getsockname()[1])


@pytest.mark.timeout(90)
def test_a_host_killed_with_sigkill_resumes_and_a_joined_bot_finishes(
        tmp_path: Path) -> None:
    port = str(free_port())
    common = ["--headless", "--no-announce", "--bind", LOCAL, "--bot-delay", "0.05"]
    host = lanplay("host", "alles-klar", "--bots", "1", "--players", "2", "--seed", "3",
                   "--port", port, *common, data=tmp_path)
    joined = None
    try:
        wait_for(lambda: "Others can join" in (host.stdout.readline() if host.stdout
                                               else ""), 20, host)
        joined = lanplay("join", f"{LOCAL}:{port}", "--bot", "--delay", "0.05", "--json",
                         data=tmp_path)
        wait_for(lambda: saved_actions(tmp_path) >= 6, 30, host)
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        kept = saved_actions(tmp_path)
        assert joined.poll() is None  # still trying to get back to its seat
        host = lanplay("host", "--resume", *common, data=tmp_path)
        out, _ = joined.communicate(timeout=60)
        assert joined.returncode == 0, out
        result = json.loads(out.strip().splitlines()[-1])
        host_out, _ = host.communicate(timeout=30)
        assert host.returncode == 0, host_out
        assert re.search(rf"Resumed Alles klar\? .* after {kept} moves, .* on port {port}",
                         host_out), host_out
        assert "Game over" in host_out
        (done,) = listing.list_saves(tmp_path)
        assert done.finished and done.actions > kept
        assert done.result is not None and done.result["scores"] == result["scores"]
    finally:
        for process in (host, joined):
            if process is not None and process.poll() is None:
                process.kill()
                process.communicate()
