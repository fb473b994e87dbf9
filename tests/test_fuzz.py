"""Fuzzing with hypothesis: the frame reader, the message decoder, the delta
applier, and a running host that strangers pelt with garbage over real TCP.

The byte-level properties complement tests/test_protocol_*.py: streams of good
frames with one bad frame planted anywhere, messages built from the protocol's
own field names with values of any wire type, deltas checked against a naive
reference applier, and the atheris harness's targets (fuzz/fuzz_targets.py)
run here too so the harness cannot rot. The long coverage-guided run and its
figures are in docs/FUZZING.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import logging
import random
import struct
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from lanplay.games import load
from lanplay.host import Host, HostConfig
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from protocol import delta
from protocol.codec import FrameReader, decode_body, encode, pack
from protocol.messages import (
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    Hello,
    Message,
    ProtocolError,
    Refused,
    from_wire,
    to_wire,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))
import fuzz_targets  # (the atheris harness's targets, without atheris)

FUZZ = settings(max_examples=150, derandomize=True, deadline=None)
LOCAL = "127.0.0.1"

# --- values of the wire subset ------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
           | st.floats(allow_nan=True) | st.text(max_size=12) | st.binary(max_size=8))
keys = st.sampled_from(["type", "id", "seat", "hand", "log", "", "x"]) | st.text(max_size=6)
plain = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(keys, inner, max_size=4), max_leaves=10)
SAMPLES = {kind: to_wire(fuzz_targets.sample(cls)) for kind, cls in MESSAGE_TYPES.items()}
fields = sorted({f.name for cls in MESSAGE_TYPES.values() for f in dataclasses.fields(cls)})


@st.composite
def protocol_maps(draw: st.DrawFn) -> dict[str, Any]:
    """A map that looks like a message: a known type, its own field names (some
    missing, some extra) and values of any wire type, half the time the right one."""
    kind = draw(st.sampled_from(sorted(MESSAGE_TYPES)))
    cls = MESSAGE_TYPES[kind]
    out: dict[str, Any] = {"type": kind}
    sample = SAMPLES[kind]
    for f in dataclasses.fields(cls):
        choice = draw(st.integers(0, 5))
        if 1 <= choice <= 3:
            out[f.name] = sample[f.name]
        elif choice >= 4:
            out[f.name] = draw(plain)
    out.update(draw(st.dictionaries(st.sampled_from(fields), plain, max_size=2)))
    return out


def framed(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


# --- the frame reader and the decoder -------------------------------------------------


@FUZZ
@given(st.lists(protocol_maps(), min_size=1, max_size=3))
def test_a_message_like_map_decodes_to_a_message_that_survives_the_wire_or_is_refused(
        maps: list[dict[str, Any]]) -> None:
    for wire in maps:
        body = pack(wire)
        try:
            msg = decode_body(body)
        except ProtocolError as exc:
            assert exc.reason and isinstance(exc.reason, str)
            with pytest.raises(ProtocolError):
                from_wire(wire)  # the slow path agrees with the fast one
            continue
        assert type(msg) is MESSAGE_TYPES[wire["type"]]
        again = encode(msg)
        assert encode(decode_body(again[4:])) == again
        assert encode(from_wire(wire)) == again  # the slow path agrees with the fast one


@FUZZ
@given(st.lists(st.sampled_from(range(16)), min_size=1, max_size=8), st.binary(max_size=40),
       st.integers(0, 8), st.lists(st.integers(1, 64), min_size=1, max_size=10))
def test_a_bad_frame_planted_in_a_good_stream_stops_it_exactly_there(
        picks: list[int], junk: bytes, where: int, cuts: list[int]) -> None:
    seeds = [d[1:] for d in fuzz_targets.seeds() if d[0] == 1]
    good = [decode_body(seeds[i % len(seeds)]) for i in picks]
    try:
        decode_body(junk)
        bad = False
    except ProtocolError:
        bad = True
    where = min(where, len(good))
    before = [encode(m) for m in good[:where]]
    stream = b"".join(before) + framed(junk) + b"".join(encode(m) for m in good[where:])
    bad_end = sum(map(len, before)) + 4 + len(junk)
    reader = FrameReader()
    out: list[Message] = []
    position, turn, failed_at = 0, 0, None
    while position < len(stream):
        step = cuts[turn % len(cuts)]
        turn += 1
        try:
            out += reader.feed(stream[position:position + step])
        except ProtocolError:
            failed_at = position
            break
        position += step
    if not bad:  # the junk happened to be a valid message
        assert failed_at is None and len(out) == len(good) + 1
        return
    assert failed_at is not None and reader.broken
    assert failed_at < bad_end <= failed_at + cuts[(turn - 1) % len(cuts)]
    # Every good frame completed in an earlier chunk was handed out, in order;
    # those completed in the same chunk as the bad one are dropped with it.
    ends = [sum(map(len, before[:i + 1])) for i in range(where)]
    assert out == good[:sum(1 for e in ends if e <= failed_at)]
    with pytest.raises(ProtocolError):
        reader.feed(encode(good[0]))


REGRESSIONS = sorted((Path(__file__).resolve().parent.parent / "fuzz" / "regressions").iterdir())


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_inputs_the_long_fuzzing_runs_tripped_on_pass_now(path: Path) -> None:
    fuzz_targets.test_one_input(path.read_bytes())


@FUZZ
@given(st.binary(max_size=600))
def test_the_atheris_targets_hold_for_any_bytes(data: bytes) -> None:
    fuzz_targets.test_one_input(data)


@FUZZ
@given(st.sampled_from(fuzz_targets.seeds()), st.data())
def test_the_atheris_targets_hold_for_mutated_seeds(seed: bytes, data: st.DataObject) -> None:
    mutated = bytearray(seed)
    for _ in range(data.draw(st.integers(1, 6))):
        op = data.draw(st.integers(0, 2))
        at = data.draw(st.integers(1, max(1, len(mutated))))
        if op == 0 and at < len(mutated):
            mutated[at] = data.draw(st.integers(0, 255))
        elif op == 1:
            mutated[at:at] = data.draw(st.binary(min_size=1, max_size=4))
        else:
            del mutated[at:at + data.draw(st.integers(1, 4))]
    fuzz_targets.test_one_input(bytes(mutated))


# --- deltas against a naive reference ------------------------------------------------


def reference_apply(view: Any, ops: list[Any]) -> Any:
    """The rules of docs/PROTOCOL.md spelled out slowly on a deep copy; None where
    an op does not fit (and ``delta.apply`` must raise DeltaError)."""
    root = copy.deepcopy(view)
    for op in ops:
        if not isinstance(op, list) or not op or type(op[0]) is not int \
                or op[0] not in (0, 1, 2, 3) or len(op) != (2 if op[0] == 1 else 3):
            return None
        code, path = op[0], op[1]
        if not isinstance(path, list):
            return None
        holder: list[Any] = [root]  # a box, so the root is a parent like any other
        parent: Any = holder
        key: Any = 0
        for depth, step in enumerate(path):
            node = parent[key]
            if not ((isinstance(node, dict) and isinstance(step, str))
                    or (isinstance(node, list) and type(step) is int)):
                return None
            parent, key = node, step
            exists = key in parent if isinstance(parent, dict) else 0 <= key < len(parent)
            adding = depth == len(path) - 1 and code == 0 and isinstance(parent, dict)
            if not exists and not adding:
                return None
        if code == 0:
            parent[key] = copy.deepcopy(op[2])
        elif code == 1:
            if parent is holder or not isinstance(parent, dict):
                return None
            del parent[key]
        else:
            node = parent[key]
            if not isinstance(node, list):
                return None
            if code == 2:
                if type(op[2]) is not int or not 0 <= op[2] <= len(node):
                    return None
                parent[key] = node[:op[2]]
            else:
                if not isinstance(op[2], list):
                    return None
                parent[key] = node + copy.deepcopy(op[2])
        root = holder[0]
    return root


def paths_in(view: Any, prefix: list[Any] | None = None) -> list[list[Any]]:
    prefix = prefix or []
    out = [prefix]
    if isinstance(view, dict):
        for k, v in view.items():
            out += paths_in(v, [*prefix, k])
    elif isinstance(view, list):
        for i, v in enumerate(view):
            out += paths_in(v, [*prefix, i])
    return out


@st.composite
def view_and_ops(draw: st.DrawFn) -> tuple[Any, list[Any]]:
    """A view and ops aimed at its real paths, bent now and then so they miss."""
    view = draw(st.dictionaries(keys, plain, max_size=5))
    ops: list[Any] = []
    for _ in range(draw(st.integers(0, 6))):
        path = list(draw(st.sampled_from(paths_in(view))))
        bend = draw(st.integers(0, 7))
        if bend == 0 and path:
            path[-1] = draw(st.integers(-2, 5) | st.text(max_size=3) | st.booleans())
        elif bend == 1:
            path.append(draw(st.integers(0, 3) | st.text(max_size=3)))
        code = draw(st.sampled_from([0, 1, 2, 3, 4, True]))
        arg = draw(plain if code in (0, 3) else st.integers(-1, 6) | plain)
        op: list[Any] = [code, path] if code == 1 else [code, path, arg]
        if draw(st.integers(0, 9)) == 0:
            op = op[:-1] if len(op) > 1 else [*op, 0]
        ops.append(op)
    return view, ops


@FUZZ
@given(view_and_ops())
def test_delta_apply_agrees_with_a_naive_reference_and_never_mutates(
        case: tuple[Any, list[Any]]) -> None:
    view, ops = case
    before, ops_before = pack(view), pack(ops)
    expected = reference_apply(view, ops)
    try:
        got = delta.apply(view, ops)
    except delta.DeltaError:
        got = None
    assert pack(view) == before, "apply changed the view it was given"
    assert pack(ops) == ops_before, "apply changed the ops it was given"
    assert (got is None) == (expected is None), (view, ops, got, expected)
    if got is not None:
        assert fuzz_targets.same(got, expected), (got, expected)
        assert fuzz_targets.same(delta.apply(view, delta.diff(view, got)), got)


# --- a host that strangers pelt with garbage -------------------------------------------


@st.composite
def attacks(draw: st.DrawFn) -> list[bytes]:
    """What one hostile connection sends, chunk by chunk."""
    kind = draw(st.integers(0, 4))
    if kind == 0:  # noise
        return draw(st.lists(st.binary(min_size=1, max_size=64), min_size=1, max_size=4))
    if kind == 1:  # a frame of noise
        return [framed(draw(st.binary(max_size=64)))]
    if kind == 2:  # a length prefix promising more than it sends, or too much
        return [struct.pack(">I", draw(st.integers(1, 2**32 - 1))) + draw(st.binary(max_size=8))]
    hello = encode(Hello(PROTOCOL_VERSION, draw(st.text(max_size=30)),
                         token=draw(st.none() | st.text(max_size=20)),
                         spectate=draw(st.booleans())))
    frames = [framed(pack(m)) for m in draw(st.lists(protocol_maps(), min_size=1, max_size=6))]
    if kind == 4:  # message-like maps and then noise
        frames.append(draw(st.binary(min_size=1, max_size=32)))
    return [hello, *frames]


async def pelt(port: int, chunks: list[bytes]) -> list[Message]:
    """Send ``chunks``; collect what the host answers until it closes or goes quiet."""
    reader, writer = await asyncio.open_connection(LOCAL, port)
    frames = FrameReader()
    got: list[Message] = []
    try:
        for chunk in chunks:
            writer.write(chunk)
            await writer.drain()
        while True:
            data = await asyncio.wait_for(reader.read(65536), 0.5)
            if not data:
                break
            got += frames.feed(data)
    except (TimeoutError, ConnectionError, ProtocolError):
        pass
    finally:
        writer.close()
        with contextlib.suppress(TimeoutError, ConnectionError, OSError):
            await asyncio.wait_for(writer.wait_closed(), 2)
    return got


@pytest.mark.timeout(120)
@settings(max_examples=6, derandomize=True, deadline=None,
          phases=[Phase.explicit, Phase.generate])  # a failing game shows its attack; shrinking
@given(st.lists(attacks(), min_size=8, max_size=16), st.integers(0, 2**16))  # takes minutes
@example([[encode(Hello(PROTOCOL_VERSION, "Zoë", token="tökén"))]], 3)  # found by this test
def test_garbage_from_strangers_never_disturbs_the_game_being_played(
        strangers: list[list[bytes]], seed: int) -> None:
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logging.getLogger("lanplay").addHandler(handler)
    try:
        asyncio.run(_garbage_game(strangers, seed))
    finally:
        logging.getLogger("lanplay").removeHandler(handler)
    errors = [r.getMessage() for r in records if r.levelno >= logging.ERROR]
    assert not errors, f"the host logged errors serving garbage: {errors}"


PAUSE_AT = 12
"""Actions after which the bots wait for the strangers (a game is longer)."""


async def _garbage_game(strangers: list[list[bytes]], seed: int) -> None:
    host = Host("alles-klar", config=HostConfig(host_name="fuzz", bind=LOCAL, port=0,
                                                seed=seed, autostart=3))
    await host.start()
    tasks: list[asyncio.Task[Any]] = []
    try:
        peers = [Peer(f"P{i}", bot=True) for i in range(3)]
        # The bots play while the strangers pelt the host, but hold the game at
        # PAUSE_AT until the strangers are done, so the attack always meets a
        # game in progress however fast this machine plays.
        strangers_done = asyncio.Event()
        game = load("alles-klar")

        def gated(i: int) -> Any:
            rng = random.Random(seed + i)

            def choose(view: Any, seat: int, state_id: int) -> Any:
                if state_id >= PAUSE_AT and not strangers_done.is_set():
                    return None
                return game.bot(view, seat, rng)
            return choose

        for i, peer in enumerate(peers):
            await peer.connect(LOCAL, host.port)
            tasks.append(asyncio.create_task(drive(peer, seed + i, delay=0.02,
                                                   choose=gated(i))))
        await peers[0].wait_until(lambda p: p.view is not None, 10)  # the game is on
        answers = await asyncio.gather(*(pelt(host.port, chunks) for chunks in strangers))
        assert host.session is not None and host.session.result is None
        strangers_done.set()
        for peer in peers:
            peer.changed.set()  # wake the bots held at PAUSE_AT
        await asyncio.wait_for(host.finished.wait(), 60)
        for peer in peers:
            await peer.wait_until(lambda p: p.result is not None, 10)
        session = host.session
        assert session is not None and session.result is not None
        for peer in peers:
            assert peer.seat is not None
            assert pack(peer.view) == pack(session.view(peer.seat)), "a peer's view is off"
            assert peer.result == session.result.to_wire()
            assert peer.closed_reason is None
        refusals = [m for got in answers for m in got if isinstance(m, Refused)]
        assert all(m.code != "internal" for m in refusals), refusals
        # a newcomer is still welcome after all that
        late = Peer("Late", spectate=True)
        welcome = await late.connect(LOCAL, host.port)
        assert welcome.seat is None
        await late.close()
    finally:
        await host.stop("fuzz over")
        await asyncio.gather(*tasks, return_exceptions=True)
