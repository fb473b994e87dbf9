"""Damaged saves never crash the host, and a save keeps no password (issue 12,
findings 8 and 9).

Each damaged save of the issue is given to ``lanplay host --resume`` as a person
would: the answer is exit code 2 and one sentence naming what is wrong, never a
traceback, and a huge file is refused unread. A broken or stray file beside a
good one is passed over with a line saying so. A password room's save holds the
salt and the derived key only, in a folder only its user can read.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import stat
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from nethelpers import run
from resilience import GAME, LOCAL, Table, config

from lanplay import cli, games
from lanplay.admission import RoomKey
from lanplay.host import Host
from lanplay.peer.peer import JoinError, Peer
from lanplay.session import Session
from lanplay.store import durable, folders, saves

PASSWORD = "Rote Grütze 1987"


def a_save(folder: Path, seats: int = 3, **changes: Any) -> Path:
    """A real game's save at state 5, in ``folder``'s saves directory."""
    session = Session(games.load(GAME), seats, seed=4)
    while session.state_id < 5:
        (seat,) = session.actors()
        session.submit(seat, session.game.legal(session.state, seat)[0])
    fields: dict[str, Any] = dict(
        game_id="abc123", game=GAME, mode=session.mode, options=session.options, seed=4,
        seats=[saves.SavedSeat(f"P{i}", "#000000", f"tok{i}") for i in range(seats)],
        log=list(session.log), state_id=session.state_id, phase="playing", port=7531,
        started=time.time(), updated=time.time(), state=saves.plain(session.state))
    fields.update(changes)
    save = saves.Save(**fields)
    path = folders.saves_dir(folder) / saves.file_name(save)
    saves.write(save, path)
    return path


def edit(path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = json.loads(path.read_bytes())
    change(data)
    path.write_text(json.dumps(data))
    return path


def resume(path: Path | None, folder: Path, capsys: pytest.CaptureFixture[str]
           ) -> tuple[int, str]:
    """``lanplay host --resume [FILE]`` in this process: (exit code, its one line)."""
    args = ["host", "--resume", *([str(path)] if path else []), "--headless",
            "--no-announce", "--bind", LOCAL, "--port", "0", "--data-dir", str(folder)]
    code = cli.main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Resumed" not in out, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lanplay: "), err
    return code, lines[0]


Damage = Callable[[Path], object]


def edits(change: Callable[[dict[str, Any]], None]) -> Damage:
    return lambda path: edit(path, change)


def seat_field(index: int, key: str, value: Any) -> Damage:
    return edits(lambda data: data["seats"][index].__setitem__(key, value))


def writes(data: bytes) -> Damage:
    return lambda path: path.write_bytes(data)


DAMAGE = [
    pytest.param(writes(b"[" * 200_000 + b"]" * 200_000), "nested far too deeply",
                 id="200k-deep-array"),
    pytest.param(edits(lambda d: d.update(banned=5)), "banned should be a list, not a number",
                 id="banned=5"),
    pytest.param(edits(lambda d: d.update(host_name=12345)),
                 "host_name should be text, not a number", id="host_name=12345"),
    pytest.param(seat_field(0, "name", 123), "seats[0].name should be text, not a number",
                 id="seats[0].name=123"),
    pytest.param(edits(lambda d: d.update(password=42)),
                 "password should be text, not a number", id="password=42"),
    pytest.param(seat_field(1, "token", ""), "seats[1].token is empty", id="empty-token"),
    pytest.param(seat_field(2, "token", "tok0"), "two seats have the same token",
                 id="duplicate-token"),
    pytest.param(edits(lambda d: d["log"][2].update(seat="0")),
                 "log[2].seat should be a whole number, not text", id="log-seat-text"),
    pytest.param(edits(lambda d: d["log"][1].update(action=[1, 2])),
                 "log[1].action should be a map, not a list", id="action-list"),
    pytest.param(edits(lambda d: d.update(port=70000)), "port is 70000, outside 0..65535",
                 id="port=70000"),
    pytest.param(edits(lambda d: d.update(options=[])), "options should be a map, not a list",
                 id="options=[]"),
    pytest.param(edits(lambda d: d.update(seats=[])), "seats has 0 items", id="no-seats"),
    pytest.param(edits(lambda d: d.update(state_id=4)),
                 "state_id is 4 but the log has 5 moves", id="short-log"),
    pytest.param(edits(lambda d: d.update(mode="no such mode")), "does not replay",
                 id="unknown-mode"),
    pytest.param(edits(lambda d: d.update(game="chess")), "cannot play 'chess'",
                 id="unknown-game"),
    pytest.param(writes(b"\xff\xfe{"), "is not UTF-8 text", id="not-utf8"),
    pytest.param(writes(b'{"format": 1,'), "is not JSON: expecting property name enclosed "
                 "in double quotes at line 1, column 14", id="not-json"),
    pytest.param(writes(b'{"format": 1, "x": {"$bytes": "zz"}}'),
                 "holds bytes that are not hex digits", id="bad-bytes"),
    pytest.param(writes(b"[1, 2]"), "holds a list, not a map", id="a-list"),
]


@pytest.mark.parametrize(("damage", "said"), DAMAGE)
def test_a_damaged_save_is_refused_with_exit_code_2_and_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Damage,
        said: str) -> None:
    path = a_save(tmp_path)
    damage(path)
    code, line = resume(path, tmp_path, capsys)
    assert code == 2 and said in line, line


JOURNAL_DAMAGE = [
    pytest.param(b'{"seat": "x", "action": {"type": "play"}, "state_id": 6}\n',
                 "Line 1 of", "seat should be a whole number, not text", id="seat-text"),
    pytest.param(b'{"seat": 7, "action": {"type": "play"}, "state_id": 6}\n',
                 "Line 1 of", "seat is 7, but there are 3 seats", id="seat-out-of-range"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000 + b"\n", "Line 1 of",
                 "nested far too deeply", id="deep-line"),
    pytest.param(b'{"seat": 0, "action": {"card": 1}, "state_id": 6}\n', "Line 1 of",
                 "action.type is missing", id="no-type"),
]


@pytest.mark.parametrize(("journal", "where", "said"), JOURNAL_DAMAGE)
def test_a_damaged_journal_line_is_refused_with_exit_code_2_and_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], journal: bytes, where: str,
        said: str) -> None:
    path = a_save(tmp_path)
    durable.journal_path(path).write_bytes(journal)
    code, line = resume(path, tmp_path, capsys)
    assert code == 2 and where in line and said in line, line


@pytest.mark.parametrize("which", ["save", "journal"])
def test_a_gibibyte_save_or_journal_is_refused_unread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str) -> None:
    path = a_save(tmp_path)
    huge = path if which == "save" else durable.journal_path(path)
    with huge.open("r+b" if which == "save" else "wb") as file:
        file.truncate(1 << 30)  # sparse: a gibibyte that takes no room on disk
    tracemalloc.start()
    try:
        code, line = resume(path, tmp_path, capsys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and "1.0 GiB" in line and "too big" in line and "not read" in line, line
    assert peak < 4 << 20, peak  # it was never read whole (the issue: 2.1 GB)


def test_a_path_that_is_no_save_file_is_refused_in_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, line = resume(tmp_path / "nowhere.json", tmp_path, capsys)
    assert code == 2 and "There is no save" in line, line
    code, line = resume(tmp_path, tmp_path, capsys)  # a directory
    assert code == 2 and "is not a file" in line, line
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)  # opening it must not wait for a writer
    code, line = resume(pipe, tmp_path, capsys)
    assert code == 2 and "is not a file" in line, line


def test_broken_and_stray_files_beside_a_good_save_are_passed_over_with_a_line(
        tmp_path: Path) -> None:
    good = a_save(tmp_path)
    folder = good.parent
    (folder / "20990101-000000-alles-klar-broken.json").write_bytes(b"[" * 200_000)
    (folder / "notes.json").write_text('{"what": "my own notes"}')
    edit(good, lambda d: d.update(updated=1.0))  # the good one is the oldest
    skipped: list[tuple[str, str]] = []
    host = Host.resume(None, config(tmp_path), skipped=lambda p, why: skipped.append(
        (p.name, why)))
    assert host.session is not None and host.session.state_id == 5
    assert sorted(name for name, _ in skipped) == [
        "20990101-000000-alles-klar-broken.json", "notes.json"]
    assert all(" " in why and "Traceback" not in why for _, why in skipped), skipped
    # the command says so too, and goes on with the good one
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "lanplay.cli", "host", "--resume", "--headless",
         "--no-announce", "--bind", LOCAL, "--port", "0", "--data-dir", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Resumed Alles klar? from"), line
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode in (0, 130), (out, err)  # 130: ^C before its handler was set
    lines = err.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in err, err
    assert any("skipped notes.json: The file notes.json" in x for x in lines), err
    assert any("skipped 20990101-000000-alles-klar-broken.json:" in x and
               "nested far too deeply" in x for x in lines), err


# --- finding 9: no password in the save ----------------------------------------------------


def private(folder: Path) -> bool:
    return stat.S_IMODE(folder.stat().st_mode) == 0o700


@pytest.mark.timeout(90)
def test_a_password_rooms_save_keeps_only_a_derived_key_in_a_private_folder(
        data_dir: Path) -> None:
    older = folders.saves_dir(data_dir)
    older.mkdir(parents=True)
    older.chmod(0o755)  # as an older lanplay left it

    async def main() -> None:
        cfg = config(data_dir, autostart=3, password=PASSWORD)
        table = Table(Host(GAME, config=cfg))
        await table.host.start()
        try:
            for i in range(3):
                await table.seat(f"Bot {i}", "steady", seed=30 + i, password=PASSWORD)
            await table.kill_at(6)
            path = table.dead[-1].save_path
            assert path is not None
            raw = path.read_bytes()
            for spelling in (PASSWORD, json.dumps(PASSWORD)[1:-1], PASSWORD.encode().hex()):
                assert spelling.encode() not in raw
            data = json.loads(raw)
            assert "password" not in data and len(data["room_key"]["key"]) == 64
            assert private(path.parent) and stat.S_IMODE(path.stat().st_mode) == 0o600
            # resumed with no password given: the room still asks for the same one
            resumed = await table.resume(path, config(data_dir))
            with pytest.raises(JoinError) as refused:
                await Peer("Guess", password="rote grütze 1987").connect(LOCAL, resumed.port)
            assert refused.value.code == "password"
            with pytest.raises(JoinError) as refused:
                await Peer("Nobody").connect(LOCAL, resumed.port)
            assert refused.value.code == "password"
            await table.finish()  # the bots came back with the password they know
            await table.host.saver.drain(5)  # the history follows the told end
            history = folders.history_dir(data_dir)
            assert private(history)
            (done,) = history.glob("*.json")
            assert PASSWORD.encode() not in done.read_bytes()
        finally:
            await table.close()

    run(main())


@pytest.mark.timeout(30)
def test_an_older_save_with_the_password_in_it_is_rewritten_without_it(
        data_dir: Path) -> None:
    path = a_save(data_dir)
    edit(path, lambda d: d.update(password=PASSWORD))

    async def main() -> None:
        host = Host.resume(path, config(data_dir), port=0)  # not the save's 7531
        port = await host.start()
        try:
            assert isinstance(host.tokens.room_key, RoomKey)
            await asyncio.wait_for(host.saver.drain(5), 6)
            assert PASSWORD.encode() not in path.read_bytes()
            ann = Peer("P0", token="tok0", password=PASSWORD, reconnect_for=0)
            await ann.connect(LOCAL, port)
            assert ann.seat == 0
            ann.drop()
        finally:
            await host.stop("test over")

    run(main())
