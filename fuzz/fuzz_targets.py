"""The fuzz targets: what a hostile peer's bytes reach first, with the
invariants that must hold for any input. Kept free of atheris so that
``replay.py`` and tests/test_fuzz.py can run the same checks without it.

The first input byte picks a target; the rest is that target's input:

0. ``FrameReader.feed`` over the stream cut into chunks (the byte after the
   target byte is the chunk size): only ProtocolError may come out, a broken
   reader stays broken, and every decoded message re-encodes to bytes that
   decode to the same message.
1. ``decode_body`` on one frame body: ProtocolError or a message that survives
   encode -> decode -> encode byte for byte.
2. ``from_wire`` on a decoded msgpack value without the ``check_plain`` fast
   path (``checked=False``), so the type walk itself is fuzzed.
3. ``delta.apply`` on ``[view, ops]``: only DeltaError may come out, the old
   view is never mutated, and ``diff(old, new)`` rebuilds ``new`` exactly;
   a ``BoundedView`` (a peer's view, far inside its limits here) agrees with
   ``apply`` and keeps its size exact.

Any other exception, or a failed invariant (AssertionError), is a crash.
"""

from __future__ import annotations

import dataclasses
import struct
import types
import typing
from typing import Any

from protocol import codec, delta, messages

ProtocolError = messages.ProtocolError
TARGETS = 4


def _pack(value: Any) -> bytes:
    return codec.pack(value)


def _roundtrip(msg: messages.Message) -> None:
    """A decoded message must encode, and decode again to the same bytes."""
    first = codec.encode(msg)
    again = codec.decode_body(first[4:])
    if codec.encode(again) != first:
        raise AssertionError(f"{msg!r} does not survive encode/decode")


def fuzz_stream(data: bytes) -> None:
    if not data:
        return
    cut = data[0]
    stream = data[1:]
    reader = codec.FrameReader(max_frame=4096)
    step = max(1, cut)
    for start in range(0, len(stream), step):
        try:
            out = reader.feed(stream[start:start + step])
        except ProtocolError:
            if reader.broken is None:
                raise AssertionError("a reader that raised is not marked broken") from None
            try:
                reader.feed(b"\x00\x00\x00\x01\xc0")
            except ProtocolError:
                return
            raise AssertionError("a broken reader accepted more input") from None
        for msg in out:
            _roundtrip(msg)


def fuzz_body(data: bytes) -> None:
    try:
        msg = codec.decode_body(data)
    except ProtocolError:
        return
    _roundtrip(msg)


def fuzz_from_wire(data: bytes) -> None:
    try:
        value = codec.unpack(data)
    except ProtocolError:
        return
    try:
        msg = messages.from_wire(value, checked=False)
    except ProtocolError:
        return
    _roundtrip(msg)


def fuzz_delta(data: bytes) -> None:
    try:
        value = codec.unpack(data)
    except ProtocolError:
        return
    if not isinstance(value, list) or len(value) != 2:
        return
    old, ops = value
    before = _pack(old)
    try:
        bounded: delta.BoundedView | None = delta.BoundedView(old)
    except delta.ViewTooBig:
        bounded = None  # a view no peer would keep: only apply is checked
    try:
        new = delta.apply(old, ops)
    except delta.DeltaError:
        if _pack(old) != before:
            raise AssertionError("a refused delta changed the old view") from None
        if bounded is None:
            return
        try:
            bounded.apply(ops)
        except delta.DeltaError:
            if bounded.value is not old or bounded.size != delta.measure(old):
                raise AssertionError("a refused delta changed a bounded view") from None
            return
        raise AssertionError("a bounded view took a delta that does not fit") from None
    if _pack(old) != before:
        raise AssertionError("apply mutated the old view")
    if bounded is not None:
        bounded.apply(ops)
        if not same(bounded.value, new) or bounded.size != delta.measure(new):
            raise AssertionError("a bounded view disagrees with apply")
        if _pack(old) != before:
            raise AssertionError("a bounded view mutated the old view")
    rebuilt = delta.apply(old, delta.diff(old, new))
    if not same(rebuilt, new):
        raise AssertionError("diff(old, new) does not rebuild new")


def same(a: Any, b: Any) -> bool:
    """Equal as wire values: types exact (True is not 1, 1 is not 1.0), floats bit for
    bit (NaN equals itself, -0.0 is not 0.0), map keys in any order (a msgpack map
    has no order, and a key deleted then set again moves to the end of a dict)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return struct.pack(">d", a) == struct.pack(">d", b)
    return bool(a == b)


def test_one_input(data: bytes) -> None:
    if not data:
        return
    target = data[0] % TARGETS
    rest = data[1:]
    if target == 0:
        fuzz_stream(rest)
    elif target == 1:
        fuzz_body(rest)
    elif target == 2:
        fuzz_from_wire(rest)
    else:
        fuzz_delta(rest)


_PLAIN_SAMPLE: dict[Any, Any] = {int: 1, str: "x", bool: True, float: 0.5,
                                  type(None): None}


def sample(cls: type[messages.Message]) -> messages.Message:
    """An instance of ``cls`` with a simple value of the right type in each field, so
    message types added later are in the seeds without anyone listing them."""
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        kwargs[f.name] = _value_for(hints[f.name])
    return cls(**kwargs)


def _value_for(hint: Any) -> Any:
    if hint in _PLAIN_SAMPLE:
        return _PLAIN_SAMPLE[hint]
    origin = typing.get_origin(hint)
    if origin is dict or hint is dict:
        return {"k": 1}
    if origin is list or hint is list:
        args = typing.get_args(hint)
        return [_value_for(args[0])] if args and args[0] is not Any else [1]
    if origin in (typing.Union, types.UnionType):
        return _value_for(typing.get_args(hint)[0])
    return None


def seeds() -> list[bytes]:
    """Valid inputs for each target, so the fuzzer starts from real traffic."""
    m = messages
    samples: list[messages.Message] = [
        m.Hello(m.PROTOCOL_VERSION, "Ada", colour="#E69F00", token="k9Xq", bot=True),
        m.Welcome(m.PROTOCOL_VERSION, 0, "k9Xq", "Bob", "alles-klar", owner=True),
        m.Refused("full", "The room is full."),
        m.Bye("bye"),
        m.Ping(5, 8),
        m.Pong(5),
        m.Lobby("Bob", "alles-klar", "standard", {"hand_size": 4},
                [{"name": "Ada", "colour": "#E69F00", "ready": True, "bot": False,
                  "connected": True, "owner": True}], "lobby", None, 1),
        m.Control("ready", {"ready": True}, 1),
        m.Chat("gg", "Ada", 0),
        m.Intent(2, 7, {"type": "play", "card": "QS"}),
        m.Accepted(2, 8),
        m.Rejected(2, "stale", "The table changed."),
        m.Snapshot(7, {"hand": ["7H", "QS"], "turn": 0, "log": [], "x": 1.5, "b": b"\x00"}),
        m.Delta(7, 8, [[2, ["hand"], 1], [0, ["turn"], 1], [3, ["log"], ["Ada played"]],
                       [1, ["x"]]]),
        m.Resync("gap"),
        m.GameOver(40, {"winners": [0], "scores": [10, 3], "detail": {}}, "finished"),
    ]
    have = {type(msg) for msg in samples}
    samples += [sample(cls) for cls in messages.MESSAGE_TYPES.values() if cls not in have]
    frames = [codec.encode(msg) for msg in samples]
    out = [bytes([0, 7]) + b"".join(frames), bytes([0, 1]) + frames[0] + frames[9]]
    out += [bytes([1]) + f[4:] for f in frames]
    out += [bytes([2]) + f[4:] for f in frames]
    view = {"hand": ["7H", "QS", "2C"], "table": [], "turn": 0, "log": ["Bob led"],
            "hint": "your turn", "p": [{"n": 1}, {"n": 2}]}
    ops = [[1, ["hint"]], [0, ["hand", 1], "2C"], [2, ["hand"], 2], [3, ["table"], ["QS"]],
           [0, ["turn"], 1], [3, ["log"], ["Ada played QS"]], [0, ["p", 1, "n"], 3],
           [0, [], {"new": True}]]
    out.append(bytes([3]) + _pack([view, ops[:-1]]))
    out.append(bytes([3]) + _pack([view, ops]))
    return out


