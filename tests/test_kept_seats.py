"""The seats a window keeps on disk (``ui.services.seats``): what is written reads back,
a damaged or hostile file costs at most its bad entries (never the window), and a seat
is forgotten when its game ends, when the person leaves with Leave, and when the host
closes the room for good, but kept when the window closes mid-game."""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from nethelpers import LOCAL, Tasks, hosting, run, seat

from lanplay.host.config import HostConfig
from lanplay.host.server import Host
from lanplay.net.discovery import FoundHost
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from ui.services import seats
from ui.services.seats import FILE, KeptSeat, KeptSeats, SeatWatch

JONAS = KeptSeat(room="Mia abc123._lanplay._tcp.local.", host_name="Mia",
                 addresses=("192.168.1.20",), port=7531, seat=1, name="Jonas",
                 token="Zx8_-q1w2e3r4t5y6u7i8o", game="alles-klar", kept_at=time.time())


def found(address: str = "192.168.1.20", port: int = 7531,
          service: str = "Mia abc123._lanplay._tcp.local.") -> FoundHost:
    return FoundHost(service, "Mia", "alles-klar", (address,), port, 1, 3, 3, "playing", False)


def test_a_kept_seat_reads_back_is_private_and_is_found_by_its_room(tmp_path: Path) -> None:
    kept = KeptSeats.load(tmp_path)
    assert kept.seats == []
    kept.keep(JONAS)
    path = tmp_path / FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the token is the seat's key
    again = KeptSeats.load(tmp_path)
    assert again.seats == [JONAS]
    assert again.for_room(found()) == JONAS
    assert again.for_room(found(service="other")) == JONAS, "same address and port"
    assert again.for_room(found(address="10.0.0.9")) == JONAS, "same room name and port"
    assert again.for_room(found(port=7533)) is None, "another room on that laptop"
    assert again.for_room(found(address="10.0.0.9", service="other")) is None
    assert again.at(["192.168.1.20"], 7531) == JONAS  # "Join by address..."

    # One seat per room: keeping another there replaces it; forgetting removes it.
    moved = replace(JONAS, seat=2, token="another-token")
    again.keep(moved)
    assert KeptSeats.load(tmp_path).seats == [moved]
    again.forget(moved.token)
    assert KeptSeats.load(tmp_path).seats == []
    assert not list(tmp_path.glob(".seats-*")), "no temporary file is left behind"


def test_only_the_newest_seats_are_kept_and_old_ones_expire(tmp_path: Path) -> None:
    kept = KeptSeats.load(tmp_path)
    now = time.time()
    for i in range(seats.MOST + 5):
        kept.keep(replace(JONAS, port=1000 + i, token=f"t{i}", kept_at=now + i))
    read = KeptSeats.load(tmp_path).seats
    assert len(read) == seats.MOST and read[0].token == f"t{seats.MOST + 4}"
    stale = replace(JONAS, kept_at=now - seats.KEEP_FOR - 60)
    seats.write(tmp_path / FILE, [stale])
    assert KeptSeats.load(tmp_path).seats == [], "a host that never came back"


GOOD = JONAS.to_json()
BAD_FIELDS: list[tuple[str, Any]] = [
    ("token", ""), ("token", "has space"), ("token", "t\u00f6k\u00e9n"), ("token", "x" * 257),
    ("token", 12345), ("token", None), ("port", 0), ("port", 70000), ("port", True),
    ("port", "7531"), ("port", 7531.5), ("seat", -1), ("seat", 1 << 40), ("addresses", []),
    ("addresses", "192.168.1.20"), ("addresses", ["192.168.1.20\nrm -rf"]),
    ("addresses", ["a"] * 17), ("addresses", [None]), ("name", "J" * 61), ("name", ["J"]),
    ("host_name", {"x": 1}), ("room", "r" * 256), ("game", 7), ("kept_at", "now"),
    ("kept_at", -1), ("kept_at", 1e300),
]


@pytest.mark.parametrize(("field", "value"), BAD_FIELDS)
def test_a_bad_entry_is_dropped_and_the_good_ones_kept(tmp_path: Path, field: str,
                                                       value: Any) -> None:
    bad = {**GOOD, field: value, "port": 9999 if field != "port" else value}
    (tmp_path / FILE).write_text(json.dumps({"format": 1, "seats": [bad, GOOD]}))
    assert KeptSeats.load(tmp_path).seats == [JONAS]


@pytest.mark.parametrize("content", [
    b"", b"{", b"not json", b"\xff\xfe\x00garbage", b"[]", b"null", b'"seats"',
    b'{"format": 2, "seats": []}', b'{"format": 1, "seats": {"a": 1}}',
    b'{"format": 1}', b'{"format": 1, "seats": [NaN, Infinity, 1, "x", [], {}]}',
    b"[" * 60_000,  # nested deeper than the JSON reader goes (RecursionError)
    b'{"format": 1, "seats": [' + b",".join([b"{}"] * 20_000) + b"]}",
])
def test_a_damaged_or_hostile_file_keeps_nothing_and_never_raises(tmp_path: Path,
                                                                  content: bytes) -> None:
    (tmp_path / FILE).write_bytes(content)
    assert KeptSeats.load(tmp_path).seats == []


def test_a_huge_file_a_folder_or_a_pipe_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / FILE
    with path.open("wb") as out:  # sparse: a gigabyte that costs no disk
        out.write(json.dumps({"format": 1, "seats": [GOOD]}).encode())
        out.seek(1 << 30)
        out.write(b" ")
    started = time.thread_time()  # reading a gigabyte would cost seconds of work
    assert KeptSeats.load(tmp_path).seats == []
    assert time.thread_time() - started < 1.0, "refused by its size, unread"
    path.unlink()
    path.mkdir()
    assert KeptSeats.load(tmp_path).seats == []
    path.rmdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(path)  # nobody writes: a blocking read would hang the window's start
        assert KeptSeats.load(tmp_path).seats == []


def test_a_folder_that_cannot_be_written_costs_the_file_not_the_game(
        tmp_path: Path) -> None:
    folder = tmp_path / "not-a-folder"
    folder.write_text("a file where the settings' folder should be")
    kept = KeptSeats.load(folder)
    kept.keep(JONAS)  # no exception: the game goes on, the seat is kept in memory
    assert kept.seats == [JONAS] and kept.for_room(found()) == JONAS


# --- following a real connection -----------------------------------------------------


def on_disk(folder: Path) -> list[KeptSeat]:
    return seats.read(folder / FILE)


@pytest.mark.timeout(40)
def test_a_seat_is_kept_from_the_welcome_and_forgotten_when_its_game_ends(
        tmp_path: Path) -> None:
    async def main() -> None:
        tasks = Tasks()
        async with hosting(autostart=2, bot_delay=0.0) as host:
            jonas = Peer("Jonas", contribution_seed=1)
            await jonas.connect(LOCAL, host.port)
            watch = SeatWatch(KeptSeats.load(tmp_path), jonas, "Mia's room", [LOCAL])
            (kept,) = on_disk(tmp_path)  # at once: the welcome brought the token
            assert (kept.token, kept.seat, kept.port, kept.addresses, kept.room) == (
                jonas.token, 0, host.port, (LOCAL,), "Mia's room")
            assert (kept.name, kept.host_name, kept.game) == ("Jonas", "session test",
                                                              "alles-klar")
            tasks.add(drive(jonas, 1))
            await seat(host, "Bot", tasks, bot_seed=2)
            await jonas.wait_until(lambda p: p.lobby is not None
                                   and p.lobby.phase == "playing", 10)
            assert [s.token for s in on_disk(tmp_path)] == [jonas.token]
            await jonas.wait_until(lambda p: p.result is not None, 30)
            await jonas.wait_until(lambda p: p.lobby is not None
                                   and p.lobby.phase == "over", 10)
            assert on_disk(tmp_path) == [], "the game ended: nothing to take back"
            watch.ended(on_purpose=False)
        await tasks.join()

    run(main())


@pytest.mark.timeout(40)
def test_closing_the_window_mid_game_keeps_the_seat_and_leave_forgets_it(
        tmp_path: Path) -> None:
    async def main() -> None:
        tasks = Tasks()
        async with hosting(autostart=2, bot_delay=0.5, standin_after=30.0) as host:
            peers = []
            for name in ("Jonas", "Lea"):
                peer = Peer(name, contribution_seed=len(name))
                await peer.connect(LOCAL, host.port)
                tasks.add(peer.run())
                peers.append(peer)
            jonas, lea = peers
            folders = [tmp_path / "jonas", tmp_path / "lea"]
            watches = [SeatWatch(KeptSeats.load(f), p, "", [LOCAL])
                       for f, p in zip(folders, peers, strict=True)]
            for peer in peers:
                peer.control("ready", ready=True)
            await jonas.wait_until(lambda p: p.view is not None, 10)
            watches[0].closing()  # the close box: a goodbye, the seat stays the person's
            await jonas.close("closed the window")
            watches[1].ended(on_purpose=True)  # Leave
            await lea.close("left the table")
            assert [s.token for s in on_disk(folders[0])] == [jonas.token]
            assert on_disk(folders[1]) == []
        await tasks.join()

    run(main())


@pytest.mark.timeout(40)
def test_a_room_closed_for_good_forgets_the_seat_a_paused_game_keeps_it(
        tmp_path: Path) -> None:
    async def main() -> None:
        for pause in (False, True):
            tasks = Tasks()
            folder = tmp_path / f"pause-{pause}"
            async with hosting(autostart=2, bot_delay=0.5, data_dir=tmp_path / "saves",
                               save=pause) as host:
                jonas = Peer("Jonas", contribution_seed=1, reconnect_for=0.0)
                await jonas.connect(LOCAL, host.port)
                watch = SeatWatch(KeptSeats.load(folder), jonas, "", [LOCAL])
                tasks.add(jonas.run())
                await seat(host, "Bot", tasks, bot_seed=2, reconnect_for=0.0)
                jonas.control("ready", ready=True)
                await jonas.wait_until(lambda p: p.view is not None, 10)
                await host.stop("The host has closed the room.", pause=pause)
                await tasks.join()
                watch.ended(on_purpose=False)
                assert bool(on_disk(folder)) is pause, jonas.closed_reason

    run(main())


@pytest.mark.timeout(40)
def test_a_paused_seat_refused_by_a_new_room_is_no_longer_paused(tmp_path: Path) -> None:
    """The host paused its game and opened a new room on the same port: the paused
    guest, coming back, is refused its seat; it must not go on saying "The game is
    paused" (the window's gone page did, above "this room no longer has your seat")."""
    async def main() -> None:
        tasks = Tasks()
        async with hosting(autostart=2, bot_delay=0.5, data_dir=tmp_path / "saves",
                           save=True) as host:
            port = host.port
            jonas = Peer("Jonas", contribution_seed=1, reconnect_for=20.0)
            await jonas.connect(LOCAL, port)
            folder = tmp_path / "jonas"
            watch = SeatWatch(KeptSeats.load(folder), jonas, "", [LOCAL])
            tasks.add(jonas.run())
            await seat(host, "Bot", tasks, bot_seed=2, reconnect_for=0.0)
            jonas.control("ready", ready=True)
            await jonas.wait_until(lambda p: p.view is not None, 10)
            await host.stop("The host has closed the room.", pause=True)
            await jonas.wait_until(lambda p: p.paused is not None, 10)
            assert [s.token for s in on_disk(folder)] == [jonas.token]  # paused: kept
            again = Host("ranking", config=HostConfig(host_name="a new room", bind=LOCAL,
                                                      port=port, seed=5))
            await again.start()
            try:
                await tasks.join()
            finally:
                await again.stop("test over")
        assert jonas.paused is None, jonas.paused
        assert jonas.closed_reason and "seat" in jonas.closed_reason
        watch.ended(on_purpose=False)
        assert on_disk(folder) == []  # Home must not offer "Your seat" at the new room

    run(main())
