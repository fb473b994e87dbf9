"""``python -m lanplay.tools.trace``: where one action's time goes, stage by stage.

Plays seeded Alles klar? games through the real Host and real Peers over
loopback TCP (``lanplay bench``'s latency games) with timestamps taken at each
step of an action's path: the intent sent, read and decoded by the host,
``Session.submit``, the deltas, the save handed over, the write (its
``fdatasync``), the deltas sent, and each peer's read, decode, apply and
fair-play digest. Prints the median time of each mark from the intent (and
of each step), then one action's marks as they came.

The marks are taken by wrapping those functions for the run only (nothing in
the host or peer knows of them); each wrapper costs about a microsecond, so
the figures are a little above the benchmark's. A measuring tool, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

from lanplay.fair import witness
from lanplay.host import fanout, saving
from lanplay.net.link import Link
from lanplay.peer import peer as peer_module
from lanplay.session import Session
from lanplay.store import durable

MARKS = (
    ("intent sent", "the acting peer sends its intent"),
    ("host read", "the host's connection has the whole frame"),
    ("host decoded", "the intent decoded"),
    ("submitted", "Session.submit done"),
    ("deltas made", "every viewer's delta diffed and packed"),
    ("save posted", "Saver.commit returned (the write queued)"),
    ("write begins", "the write starts (worker thread or inline)"),
    ("sync begins", "the journal line written, fdatasync called"),
    ("sync done", "fdatasync returned"),
    ("write done", "the write returned"),
    ("first send", "the first delta handed to a socket (publish)"),
    ("last send", "the last delta handed to a socket"),
    ("first peer read", "the first peer has the frame"),
    ("first peer applied", "the first peer applied it (before its digest)"),
    ("last peer read", "the last peer has the frame"),
    ("last peer done", "the last peer applied it and noted its digest"),
)


class Recorder:
    """The marks of the action in flight: name -> first time seen (last for *last*)."""

    def __init__(self) -> None:
        self.actions: list[dict[str, int]] = []
        self.current: dict[str, int] | None = None
        self.peer_links: set[int] = set()
        self.read_at: dict[int, int] = {}
        """Per peer link: when it last had a whole frame."""

    def begin(self) -> None:
        self.current = {"intent sent": time.perf_counter_ns()}
        self.actions.append(self.current)

    def mark(self, name: str, last: bool = False) -> None:
        cur = self.current
        if cur is not None and (last or name not in cur):
            cur[name] = time.perf_counter_ns()


@contextlib.contextmanager
def _wrapped(rec: Recorder) -> Iterator[None]:
    """Put the marks in place for the duration (restored after)."""
    saved: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, make: Callable[[Any], Any]) -> None:
        original = getattr(owner, name)
        saved.append((owner, name, original))
        setattr(owner, name, make(original))

    def on_intent(original: Any) -> Any:
        def intent(self: Any, action: dict[str, Any]) -> int:
            rec.begin()
            return original(self, action)  # type: ignore[no-any-return]
        return intent

    def recv_body(original: Any) -> Any:
        async def wrapper(self: Link) -> bytes:
            body: bytes = await original(self)
            if id(self) in rec.peer_links:
                rec.read_at[id(self)] = time.perf_counter_ns()
            else:
                rec.mark("host read")
            return body
        return wrapper

    def decode(original: Any) -> Any:
        def wrapper(self: Link, body: bytes) -> Any:
            msg = original(self, body)
            if id(self) not in rec.peer_links:
                rec.mark("host decoded")
            return msg
        return wrapper

    def send_raw(original: Any) -> Any:
        def wrapper(self: Link, data: bytes) -> None:
            if id(self) not in rec.peer_links and rec.current is not None \
                    and "deltas made" in rec.current:
                rec.mark("first send")
                rec.mark("last send", last=True)
            original(self, data)
        return wrapper

    def after(name: str) -> Callable[[Any], Any]:
        def make(original: Any) -> Any:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                out = original(*args, **kwargs)
                rec.mark(name)
                return out
            return wrapper
        return make

    def around(first: str, then: str) -> Callable[[Any], Any]:
        def make(original: Any) -> Any:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                rec.mark(first)
                out = original(*args, **kwargs)
                rec.mark(then)
                return out
            return wrapper
        return make

    def on_delta(original: Any) -> Any:
        def wrapper(self: Any, msg: Any) -> None:
            cur = rec.current
            read = rec.read_at.get(id(self.link))
            if cur is not None and read is not None:
                cur.setdefault("first peer read", read)
                cur["last peer read"] = read
            original(self, msg)
            rec.mark("last peer done", last=True)
        return wrapper

    def on_view(original: Any) -> Any:
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> None:
            if len(args) > 3 or "ops" in kwargs:
                rec.mark("first peer applied")
            original(self, *args, **kwargs)
        return wrapper

    patch(peer_module.Peer, "intent", on_intent)
    patch(Link, "recv_body", recv_body)
    patch(Link, "decode", decode)
    patch(Link, "send_raw", send_raw)
    patch(Session, "submit", after("submitted"))
    patch(fanout, "delta_bodies", after("deltas made"))
    patch(saving.Saver, "commit", after("save posted"))
    patch(durable.Writer, "flush", around("write begins", "write done"))
    patch(durable, "_fdatasync", around("sync begins", "sync done"))
    patch(peer_module.Peer, "_on_delta", on_delta)
    patch(witness.Witness, "on_view", on_view)
    try:
        yield
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


async def _games(rec: Recorder, peers: int, games: int, save: bool) -> None:
    from lanplay.tools import latency

    original_connect = peer_module.Peer.connect

    async def connect(self: Any, host: str, port: int, timeout: float = 5.0) -> Any:
        welcome = await original_connect(self, host, port, timeout)
        rec.peer_links.add(id(self.link))
        return welcome

    peer_module.Peer.connect = connect  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory(prefix="lanplay-trace-") as folder:
            await latency.lanplay_game(peers, 0, folder if save else None)  # warm-up
            rec.actions.clear()
            with _wrapped(rec):
                for g in range(games):
                    await latency.lanplay_game(peers, 1 + g, folder if save else None)
                rec.current = None
    finally:
        peer_module.Peer.connect = original_connect  # type: ignore[method-assign]


def trace(peers: int = 4, games: int = 4, save: bool = True) -> dict[str, Any]:
    """Median offsets (µs from the intent) of every mark, over all actions."""
    rec = Recorder()
    asyncio.run(_games(rec, peers, games, save))
    actions = [a for a in rec.actions if "last peer done" in a]
    names = [name for name, _ in MARKS if any(name in a for a in actions)]
    offsets = {name: [(a[name] - a["intent sent"]) / 1e3 for a in actions if name in a]
               for name in names}
    steps: list[dict[str, Any]] = []
    for before, after in itertools.pairwise(names):
        gaps = [(a[after] - a[before]) / 1e3 for a in actions if before in a and after in a]
        if gaps:
            steps.append({"from": before, "to": after,
                          "p50_us": round(statistics.median(gaps), 1),
                          "mean_us": round(statistics.fmean(gaps), 1)})
    # The action whose whole path took the median time (not a full save's, say).
    by_total = sorted(actions, key=lambda a: a["last peer done"] - a["intent sent"])
    one = by_total[len(by_total) // 2] if by_total else {}
    return {
        "peers": peers, "games": games, "save": save, "actions": len(actions),
        "marks": {name: round(statistics.median(v), 1) for name, v in offsets.items()},
        "steps": steps,
        "one_action": {k: round((v - one["intent sent"]) / 1e3, 1)
                       for k, v in sorted(one.items(), key=lambda kv: kv[1])},
    }


def render(t: dict[str, Any]) -> str:
    what = dict(MARKS)
    lines = [f"One action's path: {t['peers']} peers, {t['actions']} actions of "
             f"{t['games']} games, host {'saving' if t['save'] else 'not saving'}",
             "  median us from the intent   mark"]
    for name, us in t["marks"].items():
        lines.append(f"  {us:>10.1f}   {name:<20} {what[name]}")
    lines.append("  steps (median us between consecutive marks):")
    for s in t["steps"]:
        lines.append(f"  {s['p50_us']:>10.1f}   {s['from']} -> {s['to']}")
    lines.append("  one action (the one of median length), us from its intent:")
    lines += [f"  {us:>10.1f}   {name}" for name, us in t["one_action"].items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers", type=int, default=4)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--no-save", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out = trace(args.peers, args.games, not args.no_save)
    print(json.dumps(out, indent=1) if args.json else render(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
