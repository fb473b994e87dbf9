"""Issue 23, finding 6: huge audits were kept and read whole. A hostile host's 300-part
audit (failing its check) was kept in ``audits/`` as a 292 MB file, and Help -> Replays
read it whole on the window's thread at every opening (0.92 s, 861 MB). Now an audit
larger than any game's is not kept, the folder has a byte budget, one whose check
failed is listed as failed, and a list reads each kept audit's head only (a few KB):
measured here on a real folder of 500 kept audits beside two huge files."""

from __future__ import annotations

import dataclasses
import json
import logging
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from nethelpers import run
from PyQt6.QtWidgets import QTreeWidgetItem
from replay_games import Played, play

from lanplay.replay import files
from lanplay.replay.model import ReplayError
from protocol.messages import Audit

HUGE = 60 * 1024 * 1024
"""Bytes of each huge file: the finding's was 292 MB; past the cap the size only costs
the disk (the list reads the same few KB of it)."""
MANY = 500
"""``files.KEEP``: as many kept audits as a laptop holds."""


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return run(play("alles-klar", 3, None, tmp_path_factory.mktemp("kept-data"), seed=5))


def other_game(audit: Audit, n: int) -> Audit:
    """The audit as if of another game (its own secret): a list shows each once."""
    return dataclasses.replace(audit, secret=f"{n + 1:064x}")


def format_1(record: dict[str, Any]) -> dict[str, Any]:
    """A record as lanplay kept it before heads (format 1): all at the top level."""
    head = record["head"]
    return {"kind": files.KIND, "format": 1, "saved": head["saved"], "host": head["host"],
            "you": head["you"], "seats": head["seats"], "result": head["result"],
            "verdict": head["verdict"], "audit": record["audit"]}


def huge(record: dict[str, Any], path: Path, old: bool) -> Path:
    """``record`` padded with moves to ``HUGE`` bytes, written as format 1 (an earlier
    version kept such) or 2 (no version keeps such: its head is listed all the same)."""
    entry = json.dumps([0, {"type": "pass", "pad": "x" * 990}]).encode()
    count = HUGE // (len(entry) + 1)
    audit = {**record["audit"], "log": []}
    data = format_1({**record, "audit": audit}) if old else \
        {**record, "head": {**record["head"], "moves": count}, "audit": audit}
    text = json.dumps(data, separators=(",", ":")).encode()
    cut = text.rindex(b'"log":[]') + len(b'"log":[')
    with path.open("wb") as out:
        out.write(text[:cut])
        out.write(b",".join([entry] * count))
        out.write(text[cut:])
    return path


@pytest.mark.timeout(120)
def test_a_list_reads_the_head_of_each_kept_audit_not_its_moves(
        finished: Played, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    laptop = tmp_path / "laptop"
    folder = files.audits_dir(laptop)
    audit, seats, result = finished.audits[1], finished.seats, finished.results[1]
    for n in range(MANY - 2):
        kept = files.keep_audit(other_game(audit, n), seats, 1, result, "verified",
                                root=laptop, now=1_000_000 + n * 60)
        assert kept is not None
    record = files.audit_record(other_game(audit, MANY), seats, 1, result, "verified",
                                now=2_000_000)
    old = huge(record, folder / "19700124-alles-klar-old.json", old=True)
    new = huge(record, folder / "19700124-alles-klar-new.json", old=False)
    assert old.stat().st_size > HUGE * 0.9 and new.stat().st_size > HUGE * 0.9

    caplog.set_level(logging.WARNING, "lanplay.replay.files")
    tracemalloc.start()
    started = time.perf_counter()
    try:
        listed = files.finished_games(laptop)
        took = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print(f"{MANY} files listed in {took:.3f} s, traced peak {peak / 2**20:.2f} MB")
    assert len(listed) == MANY - 1  # the old huge one left out, with a line
    assert new in [i.path for i in listed] and old not in [i.path for i in listed]
    assert any(old.name in r.getMessage() and "larger than a kept audit may be" in
               r.getMessage() for r in caplog.records)
    assert peak < 8 * 2**20, f"{peak} bytes held to list {MANY} files"
    assert took < 5, f"{took:.2f} s to list {MANY} files"
    newest = listed[0]
    assert newest.path == new and newest.players == ("Bot 1", "Bot 2", "Bot 3")
    assert newest.you == 1 and newest.result and not newest.failed

    tracemalloc.start()
    try:
        for path in (old, new):  # opening one is refused before it is read
            with pytest.raises(ReplayError, match="far too big"):
                files.open_replay(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20


def test_an_audit_larger_than_any_game_is_not_kept(finished: Played, tmp_path: Path) -> None:
    audit, seats, result = finished.audits[0], finished.seats, finished.results[0]
    endless = dataclasses.replace(audit, log=[[0, {"type": "pass"}]] * 300_000)
    padded = dataclasses.replace(audit, log=[[0, {"type": "pass", "pad": "x" * 50_000}]
                                             for _ in range(100)])
    for big in (endless, padded):
        assert files.keep_audit(big, seats, 0, result, "verified", root=tmp_path) is None
    assert not files.audits_dir(tmp_path).exists() \
        or not list(files.audits_dir(tmp_path).iterdir())
    kept = files.keep_audit(audit, seats, 0, result, "verified", root=tmp_path)
    assert kept is not None and kept.stat().st_size < 64 * 1024
    assert kept.read_bytes().startswith(files.HEAD_START)
    # a long one is encoded a piece at a time: the same JSON
    long = dataclasses.replace(audit, log=[[n % 3, {"type": "pass", "n": n}]
                                           for n in range(files.ENCODE_MOVES * 2 + 7)])
    kept = files.keep_audit(long, seats, 0, result, "verified", root=tmp_path, now=1.5)
    assert kept is not None
    assert json.loads(kept.read_bytes()) == json.loads(json.dumps(
        files.audit_record(long, seats, 0, result, "verified", now=1.5)))


def test_a_failed_audit_is_kept_and_listed_as_failed(finished: Played, tmp_path: Path,
                                                     qtbot: Any) -> None:
    from ui.dialogs.replays import ReplaysDialog

    reason = "At state 3: move 3 by seat 2 was not legal (it is not your turn)."
    audit, seats = finished.audits[2], finished.seats
    good = files.keep_audit(other_game(audit, 1), seats, 2, finished.results[2],
                            "verified", root=tmp_path, now=1_000_000)
    bad = files.keep_audit(other_game(audit, 2), seats, 2, finished.results[2], reason,
                           root=tmp_path, now=1_000_060)
    listed = files.finished_games(tmp_path)
    assert [(i.path, i.failed, i.verdict) for i in listed] == [
        (bad, True, reason), (good, False, "verified")]
    dialog = ReplaysDialog(listed)
    qtbot.addWidget(dialog)
    rows = [dialog.games.topLevelItem(i) for i in range(2)]
    assert all(isinstance(row, QTreeWidgetItem) for row in rows)
    failed, passed = (row.text(3) for row in rows if row is not None)
    assert failed.endswith("(failed this laptop's check)") and "failed" not in passed
    tip = rows[0].toolTip(3) if rows[0] is not None else ""
    assert "not legal (it is not your turn)" in tip


def test_an_old_format_1_audit_is_still_listed_and_replayed(finished: Played,
                                                            tmp_path: Path) -> None:
    record = files.audit_record(finished.audits[0], finished.seats, 0, finished.results[0],
                                "verified", now=1_000_000)
    folder = files.audits_dir(tmp_path)
    folder.mkdir(parents=True)
    path = folder / "19700112-alles-klar-format1.json"
    path.write_text(json.dumps(format_1(record)))
    listed = files.finished_games(tmp_path)
    assert [i.path for i in listed] == [path] and listed[0].you == 0
    assert listed[0].moves == len(finished.audits[0].log)
    assert files.open_replay(path).moves == len(finished.audits[0].log)


def test_the_oversized_and_the_oldest_go_when_an_audit_is_kept(
        finished: Played, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    audit, seats, result = finished.audits[0], finished.seats, finished.results[0]
    folder = files.audits_dir(tmp_path)
    folder.mkdir(parents=True)
    left = folder / "20000101-alles-klar-left.json"  # an earlier version kept it
    left.write_bytes(b" " * (files.KEEP_BYTES + 1))
    first = files.keep_audit(other_game(audit, 0), seats, 0, result, "verified",
                             root=tmp_path, now=1_000_000)
    assert first is not None and not left.exists()
    size = first.stat().st_size
    monkeypatch.setattr(files, "KEEP_TOTAL", size * 3 + size // 2)
    kept = [files.keep_audit(other_game(audit, n), seats, 0, result, "verified",
                             root=tmp_path, now=1_000_000 + n * 60) for n in range(1, 6)]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        p.name for p in kept[-3:] if p is not None)
