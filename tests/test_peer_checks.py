"""The peer checks everything the host says (issue 23): each host-to-peer message, with
each of its fields wrong in turn (the wrong type, out of range, missing, huge), and each
field of each game's view, sent by a hostile host over real TCP on 127.0.0.1 to the
bot's code path, to ``lanplay join --bot`` and to a real window. Neither dies: the bot
ends with a sentence, the window stays up and says one. And docs/PROTOCOL.md's message
list is held against the peer's checks (``lanplay.peer.inbound.FIELDS``).

Seeded and bounded: every (type, field, wrong value) case for the bot (about 1,500,
run 48 at a time), a seeded sample of them for the window and the command line.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import random
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hostile
from ui_harness import Runner, aloop, close, until, window  # noqa: F401

from lanplay import messages
from lanplay.peer import inbound, views
from lanplay.peer.bots import drive
from lanplay.peer.peer import JoinError, Peer
from lanplay.verdict import verdict_of
from protocol.codec import FrameReader
from protocol.messages import MESSAGE_TYPES, PROTOCOL_VERSION, Pong, from_wire

ROOT = Path(__file__).resolve().parents[1]
LOCAL = "127.0.0.1"
SEED = 23
DONE = "done"
"""The hostile host's goodbye when the peer took the broken message and lived on."""
CONCURRENT = 48

SENTENCES = {messages.render(m, (), "en") for m in inbound.SENTENCES.values()}
BROKE = "The host sent something this lanplay cannot use ("
"""What a peer says when the decoder refused the frame (the wrong wire type)."""

SEATS = [{"name": n, "colour": c, "ready": True, "bot": False, "connected": True,
          "away_for": None, "standin": False, "owner": i == 0}
         for i, (n, c) in enumerate([("Ann", "#E69F00"), ("Ben", "#56B4E9"),
                                     ("Cy", "#009E73")])]
HEX = "ab" * 32


def lobby(game: str = "alles-klar", mode: str = "standard", players: int = 3) -> dict[str, Any]:
    seats = [dict(SEATS[i % 3], name=f"P{i}") for i in range(players)]
    return {"type": "lobby", "host_name": "Mallory", "game": game, "mode": mode,
            "options": {}, "seats": seats, "phase": "playing", "problem": None,
            "spectators": 0, "standin_after": None, "watchers": [], "paused": None,
            "problem_message": None, "paused_message": None, "bots": "strong", "room": "",
            "term": 0}


GOOD: dict[str, dict[str, Any]] = {
    "welcome": {"version": PROTOCOL_VERSION, "seat": 0, "token": "t0k3n",
                "host_name": "Mallory", "game": "alles-klar", "owner": False, "room": "",
                "term": 0},
    "refused": {"code": "full", "reason": "Full.", "message": {"key": "Full."}},
    "challenge": {"nonce": "n" * 64, "salt": "s" * 32},
    "bye": {"reason": "Later.", "message": {"key": "Later."}, "resume": False},
    "ping": {"nonce": 5, "state_id": 0, "term": 0},
    "pong": {"nonce": 5},
    "lobby": {k: v for k, v in lobby().items() if k != "type"},
    "chat": {"text": "hi", "sender": "Ben", "seat": 1, "message": None},
    "snapshot": {"state_id": 0, "view": hostile.game_view()},
    "delta": {"base": 0, "state_id": 1, "ops": [[0, ["turn"], 1]]},
    "accepted": {"id": 1, "state_id": 1},
    "rejected": {"id": 1, "code": "turn", "reason": "Not now.", "message": {"key": "No."}},
    "game_over": {"state_id": 1, "result": {"winners": [0], "scores": [3, 1, 2]},
                  "reason": "finished",
                  "verdict": verdict_of({"winners": [0], "scores": [3, 1, 2]}).to_wire()},
    "clock": {"key": "guess", "seconds": 10.0, "remaining": 5.0},
    "seed_commit": {"game": 1, "commitment": HEX, "seats": 3, "wait": 5.0},
    "contributions": {"game": 1, "commitment": HEX, "values": [HEX] * 3, "drawn": [1]},
    "audit": {"game": 1, "rules": "alles-klar", "mode": "standard", "options": {},
              "secret": HEX, "values": [HEX] * 3, "drawn": [], "log": [[0, {"type": "x"}]],
              "at": 0, "moves": 1},
    "pack_offer": {"pack": {"id": "mine", "name": "Mine", "pictures": []}},
    "picture_chunk": {"sha256": HEX, "index": 0, "total": 1, "data": b"x"},
    # the room moves (issue 34): of another room than this peer's, so it stays put
    "offer": {"role": "deputy", "room": "elsewhere", "term": 1, "by": "Mallory",
              "after": 15.0},
    "room_part": {"role": "host", "room": "elsewhere", "term": 1, "seq": 1, "index": 0,
                  "total": 1, "data": b"{}"},
    "journal": {"room": "elsewhere", "term": 1, "seq": 2, "at": 0, "lines": b""},
    "deputy": {"room": "elsewhere", "term": 1, "name": "Eve", "address": "10.0.0.9",
               "port": 7533, "web_port": 7534, "after": 15.0},
    "moved": {"room": "elsewhere", "term": 2, "name": "Eve", "address": "10.0.0.9",
              "port": 7533, "web_port": 7534},
}
"""A message of each host-to-peer type that passes (sent after a lobby and a snapshot)."""

MISSING: Any = object()
WRONG: list[Any] = [MISSING, None, True, -1, 1 << 62, -(1 << 63), 1.5, math.nan, math.inf,
                    "", "x" * 60_000, [], [1] * 2000, {}, {"k": [1]}, b"\x00" * 8]
"""Each field in turn: missing, then each wire type, small and huge, in range and out."""


@dataclass(frozen=True)
class Case:
    name: str
    frames: tuple[dict[str, Any], ...]
    """Sent after the welcome (the case's own message last)."""
    refused: bool
    """The checks (or the decoder) must refuse it: the peer leaves in a sentence."""
    closes: bool = False
    """The message ends the conversation itself (a bye, a refusal)."""

    def __repr__(self) -> str:
        return self.name


def refuses(kind: str, body: dict[str, Any]) -> bool:
    """Whether the decoder or the peer's checks refuse ``body`` (a message map)."""
    try:
        msg = from_wire({"type": kind, **body})
    except Exception:
        return True
    try:
        inbound.check(msg, None, hostile.game_view() if kind == "delta" else None)
    except inbound.Fault as fault:
        return fault.fatal
    return False


def field_cases() -> Iterator[Case]:
    """Every host-to-peer type, every field it has, every wrong value."""
    start = ({"type": "lobby", **GOOD["lobby"]}, {"type": "snapshot", **GOOD["snapshot"]})
    for kind, good in GOOD.items():
        for name in inbound.FIELDS[kind]:
            for index, value in enumerate(WRONG):
                body = dict(good)
                if value is MISSING:
                    del body[name]
                else:
                    body[name] = value
                yield Case(f"{kind}.{name}#{index}", (*start, {"type": kind, **body}),
                           refuses(kind, body), kind in ("bye", "refused"))


VIEWS = [("alles-klar", None, 3), ("ranking", None, 4), ("ranking-top", None, 4),
         ("ranagedon", None, 2), ("s-tier", "cooperative", 3), ("s-tier", "competitive", 4),
         ("s-tier", "team", 4)]
VIEW_WRONG = [MISSING, None, True, -1, 1 << 62, 1.5, math.nan, "", "x" * 5000, [],
              [1] * 300, {}, {"k": [1]}]


def view_cases() -> Iterator[Case]:
    """Every field of every game's view (each mode's), wrong in turn, as a snapshot."""
    for game, mode, players in VIEWS:
        view = hostile.game_view(game, players, 0, mode=mode)
        room = lobby(game, mode or "standard", players)
        for name in view:
            for index, value in enumerate(VIEW_WRONG):
                broken = dict(view)
                if value is MISSING:
                    del broken[name]
                else:
                    broken[name] = value
                yield Case(f"{game}/{mode}.view.{name}#{index}",
                           (room, {"type": "snapshot", "state_id": 0, "view": broken}),
                           views.view_fault(broken) is not None)


def op_cases() -> Iterator[Case]:
    """Deltas that break the view they change: a field set, deleted or grown wrong."""
    view = hostile.game_view()
    start = (lobby(), {"type": "snapshot", "state_id": 0, "view": view})
    ops: list[list[Any]] = [
        [0, ["turn"], "x"], [0, ["hand"], 7], [0, ["hand", 0, "id"], 500], [1, ["turn"]],
        [3, ["log"], [5]], [0, ["hand", 0], {"id": 1}], [0, [], {"game": "alles-klar"}],
        [3, ["hand"], [7]], [0, ["game"], "ranking"], [3, ["hand"], [{"id": "x"}]],
        [9, ["turn"], 1], [0, "turn", 1], [0, [["x"]], 1], [0, ["turn"]],
    ]
    for index, op in enumerate(ops):
        yield Case(f"delta.op#{index}", (*start, {"type": "delta", "base": 0, "state_id": 1,
                                                  "ops": [[0, ["turn"], 1], op]}), True)


def script_for(case: Case) -> hostile.Script:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.welcome())
        for frame in case.frames:
            writer.write(hostile.raw(frame))
        writer.write(hostile.raw({"type": "ping", "nonce": 424242, "state_id": -1}))
        await writer.drain()
        frames = FrameReader()
        while data := await reader.read(65536):
            if any(isinstance(m, Pong) and m.nonce == 424242 for m in frames.feed(data)):
                writer.write(hostile.raw({"type": "bye", "reason": DONE}))
                await writer.drain()
    return script


def judge(case: Case, reason: str | None) -> str | None:
    """What is wrong with how a peer ended ``case`` (None: as it should)."""
    if reason is None or "Traceback" in reason:
        return f"{case}: ended with {reason!r}"
    if case.refused and not (reason in SENTENCES or reason.startswith(BROKE)):
        return f"{case}: the host's broken message left {reason[:120]!r}, not a sentence"
    if not case.refused and not case.closes and reason != DONE:
        return f"{case}: a message the checks pass cost the game ({reason[:120]!r})"
    return None


async def bot_on(case: Case) -> str | None:
    """The bot's own code path (``drive``, as ``lanplay join --bot`` runs it)."""
    async with hostile.hostile_host(script_for(case)) as port:
        peer = Peer("Bot", bot=True, reconnect_for=0, dead_after=30)
        try:
            await peer.connect(LOCAL, port, timeout=5)
        except JoinError as exc:
            return judge(case, exc.reason)
        await asyncio.wait_for(drive(peer, SEED), 20)
        return judge(case, peer.closed_reason)


async def all_on_the_bot(cases: list[Case]) -> list[str]:
    gate = asyncio.Semaphore(CONCURRENT)

    async def one(case: Case) -> str | None:
        async with gate:
            return await bot_on(case)

    found = await asyncio.gather(*(one(c) for c in cases))
    return [f for f in found if f is not None]


def test_every_field_of_every_host_message_wrong_in_turn_the_bot_ends_in_a_sentence() -> None:
    cases = [*field_cases(), *op_cases()]
    assert len(cases) > 1000 and any(c.refused for c in cases)
    assert {c.name.split(".")[0] for c in cases} == set(inbound.FIELDS)
    problems = asyncio.run(asyncio.wait_for(all_on_the_bot(cases), 120))
    assert not problems, "\n".join(problems[:20])


def test_every_field_of_every_games_view_wrong_in_turn_the_bot_ends_in_a_sentence() -> None:
    cases = list(view_cases())
    assert len(cases) > 1500
    problems = asyncio.run(asyncio.wait_for(all_on_the_bot(cases), 120))
    assert not problems, "\n".join(problems[:20])


def decodes(case: Case) -> bool:
    """The case's message gets past the decoder (a frame it refuses costs a window a
    few reconnects with back-off before it gives up: tests/test_peer_hostile_host.py)."""
    body = case.frames[-1]
    try:
        from_wire(body)
    except Exception:
        return False
    return True


def sample(seed: int, count: int) -> list[Case]:
    """A seeded sample of every kind of case that reaches the peer's checks: each message
    type, each game's view."""
    rng = random.Random(seed)
    groups: dict[str, list[Case]] = {}
    for case in filter(decodes, [*field_cases(), *op_cases(), *view_cases()]):
        groups.setdefault(case.name.split("#")[0].split(".")[0], []).append(case)
    picked = [rng.choice(group) for group in groups.values()]
    rest = [c for group in groups.values() for c in group if c not in picked]
    return picked + rng.sample(rest, max(0, count - len(picked)))


def test_lanplay_join_bot_ends_in_a_sentence_never_a_traceback() -> None:
    cases = [c for c in sample(SEED, 40) if c.refused][:4]

    async def run(case: Case) -> str | None:
        async with hostile.hostile_host(script_for(case)) as port:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "lanplay", "join", "--bot", "--lang", "en",
                f"{LOCAL}:{port}", cwd=ROOT, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(proc.communicate(), 60)
        said = (out + err).decode()
        if "Traceback" in said or proc.returncode in (None, 0):
            return f"{case}: exit {proc.returncode}: {said[-400:]}"
        if not any(s in said for s in SENTENCES) and BROKE not in said:
            return f"{case}: said {said[-300:]!r}"
        return None

    async def main() -> list[str]:
        found = await asyncio.gather(*(run(c) for c in cases))
        return [f for f in found if f is not None]

    problems = asyncio.run(main())
    assert not problems, "\n".join(problems)


# --- the window ------------------------------------------------------------------------


def test_a_window_joined_to_the_hostile_host_stays_up_and_says_a_sentence(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    cases = sample(SEED + 1, 120)

    async def scenario() -> list[str]:
        win = window(tmp_path, "Ann")
        problems: list[str] = []
        try:
            await win.start()
            for case in cases:
                async with hostile.hostile_host(script_for(case)) as port:
                    await win.joining.join([LOCAL], port, "Mallory")
                    if win.at_table():
                        await until(lambda: not win.at_table(), 20, win)
                    shown = win.gone.reason.text() if win.stack.currentWidget() is win.gone \
                        else win.home.message.text()
                    why = judge(case, shown.replace(" Go back to Home to find or host "
                                                    "another game.", ""))
                    if why is not None:
                        problems.append(why)
                    win.go_home()
        finally:
            await close(win)
        return problems

    problems = aloop(scenario(), 150)
    assert not problems, "\n".join(problems[:20])


# --- the document ------------------------------------------------------------------------


def documented() -> dict[str, tuple[str, set[str]]]:
    """docs/PROTOCOL.md's "## Messages": each message's direction and its fields."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    section = text.split("\n## Messages\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, tuple[str, set[str]]] = {}
    current: list[str] = []
    for line in section.splitlines():
        heads = re.findall(r"\*\*`([a-z_]+)`\*\* (C→H|H→C|H→all|both)", line)
        if heads:
            current = [name for name, _ in heads]
            for name, way in heads:
                found[name] = (way, set())
            continue
        row = re.match(r"\| `([a-z_0-9]+)` \|", line)
        if row and current:
            for name in current:
                found[name][1].add(row.group(1))
    return found


def test_every_host_message_in_the_protocol_document_has_a_check_of_every_field() -> None:
    doc = documented()
    to_peer = {name for name, (way, _) in doc.items() if way != "C→H"}
    assert {"welcome", "lobby", "snapshot", "delta", "audit"} <= to_peer
    assert to_peer == set(inbound.FIELDS), (
        f"in the document, unchecked: {sorted(to_peer - set(inbound.FIELDS))}; checked, "
        f"not in the document as host to peer: {sorted(set(inbound.FIELDS) - to_peer)}")
    for name in sorted(to_peer):
        listed = doc[name][1]
        if name == "pong":
            listed = listed - {"state_id", "term"}  # the table is ping's too: "ping only"
        assert listed == set(inbound.FIELDS[name]), (
            f"{name}: the document lists {sorted(listed)}, the peer checks "
            f"{sorted(inbound.FIELDS[name])}")
        wire = {f.name for f in dataclasses.fields(MESSAGE_TYPES[name])}
        assert listed == wire, f"{name}: the document lists {sorted(listed)}, the code has " \
                               f"{sorted(wire)}"


def test_each_field_the_checks_name_is_refused_when_broken() -> None:
    """A rule that never refuses is no check: for each field, some wrong value fails it."""
    for kind, rules in inbound.FIELDS.items():
        for name, rule in rules.items():
            assert any(rule.fault(v) is not None for v in WRONG if v is not MISSING), \
                f"{kind}.{name}: no wrong value is refused"


def test_a_delta_check_costs_a_microsecond_or_so_an_op() -> None:
    """Honest deltas of a real game pass, and cheaply (speed is another helper's and the
    peer's budget): the mean over seeded play stays far under a delta's own apply."""
    import time

    import conformance as c

    from protocol import delta

    games, _ = c.games()
    case = next(k for k in c.cases(games) if k.game.id == "ranking-top")
    run = c.random_run(case, 0)
    pairs = []
    for before, after in zip(run.states[:300], run.states[1:301], strict=False):
        old, new = (c.wire_round_trip(case.game.view(s, 0)) for s in (before, after))
        pairs.append((old, c.wire_round_trip(delta.diff(old, new))))
    assert all(views.ops_fault(v, ops) is None for v, ops in pairs)
    best = math.inf
    for _ in range(5):
        start = time.perf_counter()
        for v, ops in pairs:
            views.ops_fault(v, ops)
        best = min(best, time.perf_counter() - start)
    per_op = best / sum(len(ops) for _, ops in pairs)
    assert per_op < 10e-6, f"{per_op * 1e6:.1f} us an op"
