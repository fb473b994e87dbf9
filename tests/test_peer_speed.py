"""The peer's short cuts on every delta (issue 24) decide exactly what the long way did.

- A short frame is decoded without counting its maps and arrays (it cannot pass
  the limits): the same value, or the same refusal, as the counted way, for floats
  whose bytes look like a bin or ext type byte, empty bins, bin keys, timestamps,
  other ext types and nesting around MAX_DEPTH.
- The witness works out the digests of the views it noted when they are needed,
  not on the move: the same digests, and never more views waiting than its bounds.
"""

from __future__ import annotations

import dataclasses
import struct
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanplay.fair import digest, witness
from lanplay.fair.witness import Witness
from protocol import delta
from protocol.codec import FROM_HOST, Limits, pack, unpack
from protocol.messages import MAX_DEPTH, Contributions, ProtocolError, SeedCommit

COUNTED = dataclasses.replace(FROM_HOST)
object.__setattr__(COUNTED, "uncounted", -1)  # every frame the long way, as before


def outcome(body: bytes, limits: Limits) -> tuple[str, Any]:
    try:
        value = unpack(body, limits)
    except ProtocolError as exc:
        return "refused", exc.reason
    return "value", msgpack.packb(value, use_bin_type=True)  # exact types, floats by bits


def nest(depth: int) -> Any:
    value: Any = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1),
                    st.floats(allow_nan=True), st.text(max_size=8), st.binary(max_size=4))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=4), inner, max_size=5)),
    max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_a_short_frame_decodes_as_the_counted_way_does(value: Any) -> None:
    body = msgpack.packb({"type": "delta", "ops": [[0, ["x"], value]]}, use_bin_type=True)
    assert len(body) <= FROM_HOST.uncounted
    assert outcome(body, FROM_HOST) == outcome(body, COUNTED)


FLOATS = [struct.unpack(">d", bytes((0x40, b, 0xC4, 0xC7, 0xD4, 0xD8, 0x00, 0x01)))[0]
          for b in range(0x10, 0x20)]
ODD: list[bytes] = [
    pack({"floats": FLOATS}),  # bin/ext-looking bytes inside floats: decodes
    pack({"b": b""}),  # an empty bin: fits "no room for a bin"
    pack({"b": b"\x00\x01"}),
    msgpack.packb({b"key": 1}, use_bin_type=True),  # a bin map key: refused
    msgpack.packb({b"": 1}, use_bin_type=True),
    msgpack.packb({"t": msgpack.Timestamp(1, 0)}),  # the timestamp ext: refused
    msgpack.packb({"e": msgpack.ExtType(5, b"")}),
    msgpack.packb({"e": msgpack.ExtType(5, b"abcd")}),
    pack({"v": nest(MAX_DEPTH - 1)}),  # 64 levels, the message map's included: accepted
    pack({"v": nest(MAX_DEPTH)}),  # one more: refused
    pack({"v": nest(MAX_DEPTH + 5), "f": FLOATS}),
    pack([[[]]] * 40),  # many container bytes, shallow
    pack({"s": "x" * (FROM_HOST.str_len + 1)}),  # over a limit: the same reason
    pack({"a": 1}) + b"\x00",  # a byte after the object
    b"\xc1",  # the reserved type byte
]


@pytest.mark.parametrize("body", ODD, ids=range(len(ODD)))
def test_odd_short_frames_are_decided_as_the_counted_way_decides(body: bytes) -> None:
    assert outcome(body, FROM_HOST) == outcome(body, COUNTED)


def test_the_deep_and_the_odd_are_still_refused() -> None:
    assert outcome(ODD[9], FROM_HOST)[0] == "refused"
    assert outcome(ODD[3], FROM_HOST)[0] == "refused"
    assert outcome(ODD[5], FROM_HOST)[0] == "refused"
    assert outcome(ODD[8], FROM_HOST)[0] == outcome(ODD[0], FROM_HOST)[0] == "value"


# --- the witness -----------------------------------------------------------------------


def started(seat: int | None = 0) -> Witness:
    w = Witness(lambda game: b"\x01" * 32)
    w.on_commit(SeedCommit(1, "00" * 32, 1, 1.0), seat)
    w.on_contributions(Contributions(1, "00" * 32, ["11" * 32]))
    return w


def test_views_are_hashed_when_their_digests_are_read_not_on_the_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[int] = []
    update = digest.Parts.update

    def counted(self: digest.Parts, view: Any, ops: Any) -> bytes:
        hashed.append(1)
        return update(self, view, ops)

    monkeypatch.setattr(digest.Parts, "update", counted)
    w = started()
    view = delta.BoundedView({"log": [], "turn": 0})
    w.on_view(0, view.value, 0, None, view.work)
    expected = {0: digest.view_digest(view.value)}
    for i in range(1, 30):
        ops = [[delta.EXTEND, ["log"], [{"n": i}]], [delta.SET, ["turn"], i % 4]]
        view.apply(ops)
        w.on_view(i, view.value, 0, ops, view.work)
        expected[i] = digest.view_digest(view.value)
    assert hashed == []
    seen = w.seen
    assert seen is not None and seen.views == expected and len(hashed) == 29
    assert seen.viewer == 0


def test_waiting_views_stay_within_the_bounds_and_digest_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(witness, "PENDING_WORK", 5000)
    w = started(None)
    view = delta.BoundedView({"big": []})
    w.on_view(0, view.value, None, None, view.work)
    expected = {0: digest.view_digest(view.value)}
    most = 0
    for i in range(1, 200):  # each delta copies the whole list: the work grows
        ops = [[delta.EXTEND, ["big"], list(range(20))]]
        view.apply(ops)
        w.on_view(i, view.value, None, ops, view.work)
        expected[i] = digest.view_digest(view.value)
        most = max(most, w._work)
    assert most <= 5000 + view.work
    seen = w.seen
    assert seen is not None and seen.views == expected


def test_more_views_than_the_count_allows_are_hashed_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(witness, "PENDING_VIEWS", 10)
    w = started()
    for i in range(50):
        w.on_view(i, {"n": i}, 0, [[delta.SET, ["n"], i]] if i else None, 1)
        assert len(w._pending) <= 10
    seen = w.seen
    assert seen is not None and seen.views == {i: digest.view_digest({"n": i})
                                               for i in range(50)}


def test_a_view_after_the_verdict_or_before_the_game_is_not_noted_nor_hashed() -> None:
    w = Witness()
    w.on_view(0, {"n": 0}, None)  # no commitment seen yet
    assert w._pending == [] and w.seen is None
    w = started()
    w.on_view(0, {"n": 0}, 0)
    w.on_view(1, {"n": 1}, 0, [[delta.SET, ["n"], 1]])
    seen = w.seen
    assert seen is not None and sorted(seen.views) == [0, 1]
