"""The room moving between laptops, measured (issue 34's aims), on 127.0.0.1 in one
process: ``python -m lanplay.tools.movebench [--quick] [--json] [PART ...]``.

* ``takeover``: a host with one of its own bots, a deputy (``Successor``) and another
  peer, all bots at 0.05 s a move; a few moves in the host dies on the spot
  (``Host.kill``: every connection breaks at once, as after SIGKILL). Timed: from
  the death to the first move the deputy's host accepts, for ``--takeover-after`` 15
  (the default) and 2 (the tests').
* ``handover``: the same table without a deputy; the owner hands the room to the
  other peer's laptop (it says yes at once). Timed: from the offer ("the click") to
  the first move accepted at the new host.
* ``work``: the host's work per move with 16 connections, as ``lanplay bench``'s part
  3 times it (submit, deltas, bodies, frames, the Accepted), in the thread's CPU time
  (``time.thread_time_ns``: what other processes do on the machine is not in it), once
  with no deputy and
  once with the journal going to a deputy as well (the copy's key checked, the
  journal line made and sent, the answer taken, the held publish let go): p50, p99,
  and what a move costs more. Paired game by game, so a drifting machine does not
  move one side only; and, since two runs of a game differ by the machine's noise
  more than by the deputy's part under load, each move's deputy part is also timed
  alone, giving the p99 of the very same moves with and without it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from typing import Any

from lanplay import games
from lanplay.host import Host, HostConfig
from lanplay.host.deputy import Mirror, Stream
from lanplay.host.handover import Source
from lanplay.host.peers import Conn
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from lanplay.peer.successor import Successor
from lanplay.room import Seat
from lanplay.session import Session
from lanplay.store import saves
from lanplay.tools.figures import CONNS, GAME_ID, SEATS, percentile, us
from protocol.codec import MAX_FRAME, encode, frame, pack
from protocol.messages import Accepted, Message, to_wire

LOCAL = "127.0.0.1"
DELAY = 0.05


async def _table(data: str, after: float, deputy: bool) -> tuple[Host, Peer, Successor,
                                                                  list[asyncio.Task[Any]]]:
    host = Host(GAME_ID, config=HostConfig(
        host_name="Lea", bind=LOCAL, port=0, seed=3, autostart=3, bot_delay=DELAY,
        takeover_after=after, standin_after=5.0, data_dir=data, deputies=True))
    await host.start()
    host.add_bot()
    jonas = Peer("Jonas", bot=True, contribution_seed=1)
    successor = Successor(jonas, HostConfig(host_name="Jonas", bind=LOCAL, port=0,
                                            bot_delay=DELAY, data_dir=data),
                          volunteer=deputy)
    ann = Peer("Ann", bot=True, contribution_seed=2)
    tasks = []
    for seed, peer in ((1, jonas), (2, ann)):
        await peer.connect(LOCAL, host.port)
        tasks.append(asyncio.create_task(drive(peer, seed, DELAY)))
    await ann.wait_until(lambda p: p.state_id >= 5 and (not deputy or p.deputy is not None),
                         30)
    return host, ann, successor, tasks


async def _first_move(successor: Successor, since: float, timeout: float) -> float:
    """Seconds from ``since`` to the first move the successor's host accepts."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while successor.host is None:
        if loop.time() > deadline:
            raise TimeoutError("nobody took the room over")
        await asyncio.sleep(0.005)
    host = successor.host
    moved = asyncio.Event()
    start = host.session.state_id if host.session is not None else 0
    host.listeners.append(lambda what: moved.set() if what == "action" and host.session
                          is not None and host.session.state_id > start else None)
    await asyncio.wait_for(moved.wait(), timeout)
    return time.monotonic() - since


async def _close(tasks: list[asyncio.Task[Any]], *hosts: Host | None) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for host in hosts:
        if host is not None:
            await host.stop("bench over")


async def takeover(after: float) -> float:
    with tempfile.TemporaryDirectory() as data:
        host, _ann, successor, tasks = await _table(data, after, deputy=True)
        died = time.monotonic()
        host.kill()
        try:
            return await _first_move(successor, died, after * 3 + 20)
        finally:
            await _close(tasks, host, successor.host)
            await successor.close()


async def handover() -> float:
    with tempfile.TemporaryDirectory() as data:
        host, _ann, successor, tasks = await _table(data, 15.0, deputy=False)
        conn = next(c for c in host.handover.candidates() if c.name == "Jonas")
        clicked = time.monotonic()
        host.handover.offer(conn, "host")
        try:
            return await _first_move(successor, clicked, 20)
        finally:
            await _close(tasks, host, successor.host)
            await successor.close()


class _Counting:
    """A connection's link that only counts what it is sent (no socket)."""

    peername = "bench"
    closed = False

    def __init__(self) -> None:
        self.bytes = 0

    def send(self, msg: Message) -> None:
        self.bytes += len(encode(msg))

    def send_body(self, body: bytes) -> None:
        self.bytes += len(body) + 4


def _mirror(session: Session) -> tuple[Mirror, Host]:
    host = Host(GAME_ID, config=HostConfig(save=False))
    host.room.seats = [Seat(f"P{i}", "#E69F00") for i in range(SEATS)]
    host.room.phase = "playing"
    host.play.session = session
    stream = Stream(Conn(_Counting(), None), 1.0, lambda why: None)  # type: ignore[arg-type]
    mirror = Mirror(stream, Source(host))
    mirror.sync(session)  # the copy, before the game's first move (not timed)
    return mirror, host


def _game(seed: int, deputy: bool, shared: bool = False,
          parts: list[int] | None = None) -> list[int]:
    """One seeded game's host work per move, in thread CPU ns (with the deputy's part or
    not). ``shared``: the journal lines come from the saver, which made them for the
    host's own journal anyway (a saving host, the default), as ``Saver.commit`` hands
    them over; else the deputy's part makes them itself (a host that does not save).
    ``parts``: gets each move's deputy part alone (so the very same moves can be
    compared with and without it)."""
    game = games.load(GAME_ID)
    session = Session(game, SEATS, seed=seed)
    rng = random.Random(seed)
    for viewer in set(CONNS):
        session.snapshot(viewer)
    mirror = _mirror(session)[0] if deputy else None
    told: list[int] = []
    out: list[int] = []
    journal: list[str] = []
    while session.result is None:
        seat = next(iter(session.actors()))
        action = game.bot(session.view(seat), seat, rng)
        state_id = session.state_id
        t0 = time.thread_time_ns()
        session.submit(seat, action, state_id)
        deltas = session.deltas(set(CONNS))
        bodies = {viewer: pack(to_wire(d)) for viewer, d in deltas.items()}
        frames = [frame(bodies[viewer], MAX_FRAME) for viewer in CONNS]
        frames.append(encode(Accepted(1, session.state_id)))
        if shared:  # the saver's own work, done with or without a deputy: not timed
            paused = time.thread_time_ns()
            journal.extend(saves.entry_json(e) for e in session.log[len(journal):])
            t0 += time.thread_time_ns() - paused
        if mirror is not None:
            t1 = time.thread_time_ns()
            job = mirror.move(session, 1, lambda: told.append(1), journal if shared else None)
            job()  # the outbox's turn: held until the deputy answers...
            mirror.stream.ack(mirror.stream.seq)  # ...which it does
            if parts is not None:
                parts.append(time.thread_time_ns() - t1)
        out.append(time.thread_time_ns() - t0)
    return out


KINDS = [("without", False, False), ("saving", True, True), ("not_saving", True, False)]


async def work(games_count: int, only: str | None = None) -> dict[str, Any]:
    """Each game three times in turn (its order turned each game): without a deputy,
    with one on a saving host, with one on a host that does not save (``only``: just
    that one, for a whole-process comparison from outside)."""
    runs: dict[str, list[int]] = {"without": [], "saving": [], "not_saving": []}
    kinds = [k for k in KINDS if only is None or k[0] == only]
    if only is not None:
        for name, deputy, shared in kinds:
            for seed in range(1, games_count + 1):
                runs[name].extend(_game(seed, deputy, shared))
        got = runs[only]
        return {"only": only, "actions": len(got), "p50_us": us(percentile(got, 50)),
                "p99_us": us(percentile(got, 99))}
    parts: dict[str, list[int]] = {"saving": [], "not_saving": []}
    for seed in range(1, games_count + 1):
        turn = seed % len(kinds)
        for name, deputy, shared in kinds[turn:] + kinds[:turn]:
            runs[name].extend(_game(seed, deputy, shared, parts.get(name)))
    base = runs["without"]
    out: dict[str, Any] = {"actions": len(base), "games": games_count,
                           "without_p50_us": us(percentile(base, 50)),
                           "without_p99_us": us(percentile(base, 99))}
    for name in ("saving", "not_saving"):
        got = runs[name]
        out[f"deputy_{name}_p50_us"] = us(percentile(got, 50))
        out[f"deputy_{name}_p99_us"] = us(percentile(got, 99))
        out[f"deputy_{name}_p99_ratio"] = round(percentile(got, 99) / percentile(base, 99), 3)
        out[f"deputy_{name}_extra_mean_us"] = us(statistics.fmean(got) - statistics.fmean(base))
        # the same moves with and without their deputy part: the machine's noise between
        # two runs of a game (which the lines above carry) is out of this one
        alone = parts[name]
        bare = [total - part for total, part in zip(got, alone, strict=True)]
        out[f"deputy_{name}_part_p50_us"] = us(percentile(alone, 50))
        out[f"deputy_{name}_part_p99_us"] = us(percentile(alone, 99))
        out[f"deputy_{name}_same_moves_p99_ratio"] = round(
            percentile(got, 99) / percentile(bare, 99), 3)
    return out


async def main(parts: list[str], quick: bool, only: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "takeover" in parts:
        out["takeover_s"] = {str(after): round(await takeover(after), 3)
                             for after in ((2.0,) if quick else (15.0, 2.0))}
    if "handover" in parts:
        out["handover_s"] = [round(await handover(), 3) for _ in range(1 if quick else 5)]
    if "work" in parts:
        out["work"] = await work(4 if quick else 40, only)
    return out


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lanplay.tools.movebench")
    parser.add_argument("parts", nargs="*", metavar="PART",
                        help="takeover, handover and/or work (default: all three)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", choices=[k[0] for k in KINDS], default=None,
                        help="work: only this way of hosting (a whole process each, to time "
                             "from outside)")
    args = parser.parse_args(argv)
    parts = args.parts or ["takeover", "handover", "work"]
    unknown = sorted(set(parts) - {"takeover", "handover", "work"})
    if unknown:
        parser.error(f"no part {', '.join(unknown)}")
    out = asyncio.run(main(parts, args.quick, args.only))
    print(json.dumps(out, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    sys.exit(run())
