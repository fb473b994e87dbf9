"""View deltas: ``apply(a, diff(a, b)) == b`` exactly, types included; apply never
mutates; a delta that does not fit raises DeltaError and nothing else.
"""

from __future__ import annotations

import contextlib
import copy
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.codec import pack, unpack
from protocol.delta import DELETE, EXTEND, SET, TRUNCATE, DeltaError, apply, diff
from protocol.messages import ProtocolError

PROPERTY = settings(max_examples=300, derandomize=True, deadline=None)
QUICK = settings(max_examples=100, derandomize=True, deadline=None)


def same(a: Any, b: Any) -> bool:
    """Equal with types compared too: True is not 1, 1 is not 1.0, -0.0 is not 0.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return bool(a == b)


# Few distinct keys and small numbers, so two drawn docs overlap and the diff
# has to recurse rather than replace everything.
scalars = (st.none() | st.booleans() | st.integers(min_value=-3, max_value=3)
           | st.integers(min_value=-(2**63), max_value=2**64 - 1)
           | st.floats(allow_nan=False) | st.sampled_from([0.0, -0.0, 1.0])
           | st.text(max_size=3) | st.binary(max_size=3))
keys = st.sampled_from(["a", "b", "c", "", "é", "0"])
docs = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(keys, kids, max_size=4), max_leaves=10)


@st.composite
def edited(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` with a few random edits deep inside (a likely next view)."""
    if isinstance(doc, dict) and doc and draw(st.booleans()):
        out: dict[str, Any] = dict(doc)
        key = draw(st.sampled_from(sorted(out)))
        choice = draw(st.integers(min_value=0, max_value=2))
        if choice == 0:
            del out[key]
        elif choice == 1:
            out[key] = draw(edited(out[key]))
        else:
            out[draw(keys)] = draw(docs)
        return out
    if isinstance(doc, list) and doc and draw(st.booleans()):
        items = list(doc)
        choice = draw(st.integers(min_value=0, max_value=2))
        if choice == 0:
            del items[draw(st.integers(min_value=0, max_value=len(items) - 1)):]
        elif choice == 1:
            i = draw(st.integers(min_value=0, max_value=len(items) - 1))
            items[i] = draw(edited(items[i]))
        else:
            items += draw(st.lists(docs, min_size=1, max_size=3))
        return items
    return draw(docs)


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    a = draw(docs)
    b = draw(edited(a)) if draw(st.booleans()) else draw(docs)
    return a, b


# --- the round trip --------------------------------------------------------------------


@given(pairs())
@PROPERTY
def test_apply_of_diff_gives_the_new_view_exactly_even_through_msgpack(
        pair: tuple[Any, Any]) -> None:
    a, b = pair
    a_before, b_before = copy.deepcopy(a), copy.deepcopy(b)
    ops = diff(a, b)
    ops_before = copy.deepcopy(ops)
    assert same(apply(a, ops), b)
    assert same(a, a_before), "apply or diff changed the old view"
    assert same(b, b_before), "diff changed the new view"
    assert same(ops, ops_before), "apply changed the delta"
    # what a client gets: the delta and its view both went through msgpack
    assert same(apply(unpack(pack(a)), unpack(pack(ops))), b)


@given(docs)
@settings(PROPERTY, max_examples=60)
def test_a_view_diffed_with_itself_or_a_copy_gives_no_ops(a: Any) -> None:
    assert diff(a, a) == []
    assert diff(a, copy.deepcopy(a)) == []
    assert diff(a, unpack(pack(a))) == []


@pytest.mark.parametrize(("old", "new"), [
    (1, True), (True, 1), (0, False), (1, 1.0), (1.0, 1), (0.0, -0.0), (-0.0, 0.0),
    ("1", 1), (b"x", "x"), (None, 0), (None, False), ([], {}), ({}, []), ([1], [True]),
    ({"a": 1}, {"a": 1.0}), ([0.0], [-0.0]),
])
def test_a_change_of_type_alone_is_a_change(old: Any, new: Any) -> None:
    ops = diff(old, new)
    assert ops != []
    assert same(apply(old, ops), new)


def test_nan_is_unchanged_when_it_stays_nan() -> None:
    assert diff({"x": math.nan}, {"x": math.nan}) == []


# --- what deltas look like ---------------------------------------------------------------


def test_a_card_play_is_a_few_small_ops() -> None:
    old = {"hand": ["7H", "QS", "2C", "AD"], "table": [], "turn": 0,
           "log": ["Ada led", "Bob followed"]}
    new = {"hand": ["7H", "2C", "AD"], "table": ["QS"], "turn": 1,
           "log": ["Ada led", "Bob followed", "Ada played QS"]}
    assert diff(old, new) == [
        [SET, ["hand", 1], "2C"], [SET, ["hand", 2], "AD"], [TRUNCATE, ["hand"], 3],
        [EXTEND, ["table"], ["QS"]], [SET, ["turn"], 1], [EXTEND, ["log"], ["Ada played QS"]],
    ]


def test_a_removed_key_is_deleted_and_a_new_one_set() -> None:
    assert diff({"a": 1, "b": 2}, {"b": 2, "c": 3}) == [[DELETE, ["a"]], [SET, ["c"], 3]]


def test_a_different_kind_of_view_replaces_the_root() -> None:
    assert diff({"a": 1}, [1]) == [[SET, [], [1]]]


def test_appending_to_a_long_log_costs_one_op() -> None:
    log = [f"turn {i}: someone played something" for i in range(5000)]
    old = {"log": log, "turn": 7}
    new = {"log": [*log, "turn 5000: Ada passed"], "turn": 7}
    assert diff(old, new) == [[EXTEND, ["log"], ["turn 5000: Ada passed"]]]


@given(st.lists(scalars, max_size=50), st.lists(docs, min_size=1, max_size=4))
@settings(QUICK, max_examples=30)
def test_appending_to_any_list_costs_one_op(items: list[Any], extra: list[Any]) -> None:
    ops = diff({"log": items}, {"log": items + extra})
    assert len(ops) == 1
    assert ops[0][0] == EXTEND


def test_one_change_deep_in_a_large_view_is_one_op() -> None:
    view: dict[str, Any] = {"players": [{"name": f"p{i}", "score": i, "hand": list(range(10))}
                                        for i in range(8)]}
    new = copy.deepcopy(view)
    new["players"][5]["hand"][3] = 99
    assert diff(view, new) == [[SET, ["players", 5, "hand", 3], 99]]


# --- applying --------------------------------------------------------------------------


def test_apply_shares_what_it_does_not_touch() -> None:
    old = {"big": list(range(1000)), "small": {"n": 1}}
    new = apply(old, [[SET, ["small", "n"], 2]])
    assert new == {"big": list(range(1000)), "small": {"n": 2}}
    assert new["big"] is old["big"]
    assert old["small"] == {"n": 1}


def test_later_ops_do_not_reach_into_earlier_op_values() -> None:
    ops: list[Any] = [[SET, ["a"], {"x": [1]}], [SET, ["a", "x", 0], 2], [EXTEND, ["a", "x"], [3]]]
    assert apply({}, ops) == {"a": {"x": [2, 3]}}
    assert ops[0] == [SET, ["a"], {"x": [1]}]


def test_many_ops_on_one_long_list_stay_cheap() -> None:
    old = list(range(20000))
    ops = [[SET, [i], -i] for i in range(20000)]
    assert apply(old, ops) == [-i for i in range(20000)]  # quadratic copying would take minutes
    assert old[1] == 1


def test_an_empty_path_replaces_or_resizes_the_whole_view() -> None:
    assert apply({"a": 1}, [[SET, [], [1, 2, 3]], [TRUNCATE, [], 1], [EXTEND, [], [9]]]) == [1, 9]


BAD_DELTAS: list[tuple[str, Any, Any, str]] = [
    ("ops not an array", {}, {"op": 0}, "must be an array of ops, not map"),
    ("op not an array", {}, [5], "must be a non-empty array"),
    ("empty op", {}, [[]], "must be a non-empty array"),
    ("unknown code", {}, [[7, []]], "unknown op code 7"),
    ("bool code", {"a": 1}, [[True, ["a"]]], "unknown op code True"),
    ("float code", {}, [[0.0, [], 1]], "unknown op code 0.0"),
    ("str code", {}, [["set", [], 1]], "unknown op code 'set'"),
    ("set without value", {}, [[SET, ["a"]]], "needs 3 elements, has 2"),
    ("delete with value", {"a": 1}, [[DELETE, ["a"], 1]], "needs 2 elements, has 3"),
    ("path not array", {"a": 1}, [[SET, "a", 1]], "path must be an array, not str"),
    ("path as a slash string", {"a": 1}, [[SET, "/a", 1]], "path must be an array"),
    ("missing key", {"a": {}}, [[SET, ["b", "c"], 1]], "missing key 'b'"),
    ("delete missing key", {"a": 1}, [[DELETE, ["b"]]], "missing key 'b'"),
    ("delete the root", {"a": 1}, [[DELETE, []]], "cannot delete the whole view"),
    ("delete a list item", {"a": [1]}, [[DELETE, ["a", 0]]], "cannot delete list index 0"),
    ("index past the end", {"a": [1]}, [[SET, ["a", 1], 2]], "index 1 is outside an array of 1"),
    ("negative index", {"a": [1]}, [[SET, ["a", -1], 2]], "index -1 is outside"),
    ("bool index", {"a": [1]}, [[SET, ["a", True], 2]], "step True cannot index an array"),
    ("str index", {"a": [1]}, [[SET, ["a", "0"], 2]], "step '0' cannot index an array"),
    ("int key", {"a": {}}, [[SET, ["a", 0], 2]], "step 0 cannot index a map"),
    ("into a scalar", {"a": 1}, [[SET, ["a", "b"], 2]], "step 'b' goes into a int"),
    ("into nil", {"a": None}, [[SET, ["a", 0], 2]], "goes into a nil"),
    ("truncate a map", {"a": {}}, [[TRUNCATE, ["a"], 0]], "needs an array, found a map"),
    ("truncate longer", {"a": [1]}, [[TRUNCATE, ["a"], 2]], "cannot truncate an array of 1 to 2"),
    ("truncate negative", {"a": [1, 2]}, [[TRUNCATE, ["a"], -1]], "to -1"),
    ("truncate by bool", {"a": [1, 2]}, [[TRUNCATE, ["a"], True]], "to True"),
    ("truncate by float", {"a": [1, 2]}, [[TRUNCATE, ["a"], 1.0]], "to 1.0"),
    ("extend a str", {"a": "x"}, [[EXTEND, ["a"], ["y"]]], "needs an array, found a str"),
    ("extend by a map", {"a": []}, [[EXTEND, ["a"], {"y": 1}]], "only append an array"),
    ("second op fails", {"a": 1}, [[SET, ["a"], 2], [DELETE, ["b"]]], "delta op 1: "),
]


@pytest.mark.parametrize(("view", "ops", "reason"), [(v, o, r) for _, v, o, r in BAD_DELTAS],
                         ids=[name for name, _, _, _ in BAD_DELTAS])
def test_a_delta_that_does_not_fit_raises_delta_error(view: Any, ops: Any, reason: str) -> None:
    before = copy.deepcopy(view)
    with pytest.raises(DeltaError, match=reason):
        apply(view, ops)
    assert view == before


def test_delta_error_is_a_protocol_error() -> None:
    assert issubclass(DeltaError, ProtocolError)


def test_a_deep_path_into_a_deep_view_does_not_blow_the_stack() -> None:
    view: Any = 0
    for _ in range(5000):
        view = [view]
    assert apply(view, [[SET, [0] * 5000, 1]]) is not None
    with pytest.raises(DeltaError):
        apply(view, [[SET, [0] * 5001 + [0], 1]])


# --- fuzzing: only DeltaError may escape -------------------------------------------

junk = (st.none() | st.booleans() | st.integers(min_value=-2, max_value=5)
        | st.floats(allow_nan=False, width=16) | st.text(max_size=2) | st.binary(max_size=2))


def paths_in(doc: Any, path: tuple[Any, ...] = ()) -> list[list[Any]]:
    """Every path that exists in ``doc``, the empty one included."""
    out = [list(path)]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += paths_in(value, (*path, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            out += paths_in(value, (*path, index))
    return out


@st.composite
def ops_for(draw: st.DrawFn, view: Any) -> Any:
    """Ops that often almost fit ``view``: real paths, sometimes bent, with
    right and wrong codes and arguments, now and then pure junk."""
    ops: list[Any] = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        shape = draw(st.sampled_from(["fit"] * 6 + ["longer", "other end", "junk"]))
        if shape == "junk":
            ops.append(draw(junk | st.lists(junk, max_size=4)))
            continue
        path = draw(st.sampled_from(paths_in(view)))
        step = keys | st.integers(min_value=-1, max_value=4) | junk
        if shape == "longer":
            path = [*path, draw(step)]
        elif shape == "other end" and path:
            path = [*path[:-1], draw(step)]
        code: Any = draw(st.sampled_from([SET, DELETE, TRUNCATE, EXTEND] * 3 + ["junk"]))
        if code == "junk":
            code = draw(junk)
        kind = draw(st.sampled_from(["index", "doc", "junk"]))
        arg = draw({"index": st.integers(min_value=-1, max_value=4), "doc": docs,
                    "junk": junk}[kind])
        short = code == DELETE and draw(st.sampled_from([True, True, True, False]))
        ops.append([code, path] if short else [code, path, arg])
    return ops


@given(docs, st.data())
@settings(PROPERTY, max_examples=200)
def test_random_ops_on_random_views_raise_only_delta_errors(
        view: Any, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["ops"] * 8 + ["junk", "doc"]))
    ops = data.draw({"ops": ops_for(view), "junk": junk, "doc": docs}[kind])
    before, ops_before = copy.deepcopy(view), copy.deepcopy(ops)
    with contextlib.suppress(DeltaError):
        apply(view, ops)
    assert same(view, before)
    assert same(ops, ops_before)


@given(pairs(), docs)
@settings(PROPERTY, max_examples=100)
def test_a_delta_applied_to_the_wrong_view_fits_or_raises_delta_error(
        pair: tuple[Any, Any], other: Any) -> None:
    a, b = pair
    ops = diff(a, b)
    before = copy.deepcopy(other)
    with contextlib.suppress(DeltaError):
        apply(other, ops)
    assert same(other, before)


# --- diff_marked: the host's diff, which compares a view's top-level parts by bytes ---


def _marked(old: Any, new: Any, shared: Any = None) -> list[list[Any]]:
    from protocol.delta import diff_marked, marks

    return diff_marked(old, new, marks(old), marks(new), shared)


@pytest.mark.parametrize(("old", "new"), [
    ({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2, 3]}),
    ({"turn": 1, "phase": "play", "n": None}, {"turn": 2, "phase": "play", "n": None}),
    ({"a": 1}, {"a": True}),  # equal in Python, not on the wire
    ({"a": [1]}, {"a": [1.0]}),
    ({"a": -0.0}, {"a": 0.0}),
    ({"a": float("nan")}, {"a": float("nan")}),
    ({"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 1}}),  # order: walked, no op
    ({"a": 1, "gone": 2}, {"b": 3, "a": 1}),
    ({"a": (1, 2)}, {"a": [1, 2]}),
    ({"a": {1, 2}}, {"a": {1, 2, 3}}),  # not msgpack, but marshal writes it
    ([1, 2], [1, 2, 3]),  # not a map: plain diff
])
def test_diff_marked_gives_the_ops_of_diff(old: Any, new: Any) -> None:
    assert repr(_marked(old, new)) == repr(diff(old, new))  # True is not 1 here


def test_a_change_several_viewers_see_is_diffed_once_with_the_same_ops() -> None:
    shared: dict[Any, Any] = {}
    old = {"log": [{"t": "a"}], "hand": [1]}
    new = {"log": [{"t": "a"}, {"t": "b"}], "hand": [2]}
    first = _marked(old, new, shared)
    other = _marked(copy.deepcopy(old), {**copy.deepcopy(new), "hand": [3]}, shared)
    assert first == diff(old, new) and other == [[EXTEND, ["log"], [{"t": "b"}]],
                                                 [SET, ["hand", 0], 3]]
    assert len(shared) == 3 and other[0] is first[0]  # the log's op came from the first


def test_every_games_deltas_are_diffs_ops_for_every_viewer() -> None:
    """Session.deltas (marks, shared changes) against diff of the same views, for
    every game at its largest seat count and a spectator, a seeded game each."""
    from lanplay import games
    from lanplay.session import Session
    from lanplay.tools import gamebench

    for case in gamebench.CASES:
        game = games.load(case.game)
        viewers: list[int | None] = [*range(case.seats), None]
        session = Session(game, case.seats, case.mode, seed=3)
        before = {v: session.snapshot(v).view for v in viewers}
        for seat, action in gamebench.bot_actions(case, 3, limit=150):
            session.submit(seat, action)
            deltas = session.deltas(viewers)
            for viewer in viewers:
                now = session.view(viewer)
                assert pack(deltas[viewer].ops) == pack(diff(before[viewer], now)), \
                    (case, viewer)
                assert apply(before[viewer], deltas[viewer].ops) == now
                before[viewer] = now
