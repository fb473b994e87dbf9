"""Messages as plain maps: to_wire/from_wire, field checks and their reasons, and
the wire subset (nil, bool, int, float, str, bin, array, map with str keys).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from protocol.messages import (
    MAX_DEPTH,
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    Chat,
    Control,
    Delta,
    Hello,
    Lobby,
    Message,
    Ping,
    ProtocolError,
    Snapshot,
    Welcome,
    check_plain,
    from_wire,
    to_wire,
    wire_name,
)


def test_every_message_type_is_registered_once_under_its_own_name() -> None:
    assert len(MESSAGE_TYPES) == 33  # 26, then issue 34's hand-over and deputy (7)
    for name, cls in MESSAGE_TYPES.items():
        assert name == cls.TYPE
        assert dataclasses.is_dataclass(cls)
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_the_protocol_version_is_3() -> None:
    # 2: the shuffle every seat contributes to, and the audit; 3: texts travel as keys
    # (a log line of a version-2 window would read nothing of a version-3 view).
    assert PROTOCOL_VERSION == 3


def test_to_wire_is_a_plain_map_with_type_first() -> None:
    assert to_wire(Chat("hi", "Ada", 0)) == {"type": "chat", "text": "hi", "sender": "Ada",
                                              "seat": 0, "message": None}
    assert next(iter(to_wire(Ping(3)))) == "type"


EXAMPLE_BY_HINT = {"int": 1, "str": "x", "bool": False, "int | None": None,
                   "dict[str, Any]": {}, "list[Any]": [], "list[dict[str, Any]]": [{}],
                   "list[str]": ["x"], "list[int]": [0], "bytes": b"x", "float": 1.5}


@pytest.mark.parametrize("cls", list(MESSAGE_TYPES.values()), ids=list(MESSAGE_TYPES))
def test_each_missing_required_field_is_named(cls: type[Message]) -> None:
    required = {f.name: EXAMPLE_BY_HINT[str(f.type)] for f in dataclasses.fields(cls)
                if f.default is dataclasses.MISSING
                and f.default_factory is dataclasses.MISSING}
    assert isinstance(from_wire({"type": cls.TYPE, **required}), cls)
    for name in required:
        wire = {"type": cls.TYPE} | {k: v for k, v in required.items() if k != name}
        with pytest.raises(ProtocolError, match=f"^{cls.TYPE} is missing its '{name}' field$"):
            from_wire(wire)


def test_a_message_with_only_its_required_fields_gets_the_defaults() -> None:
    assert from_wire({"type": "control", "command": "start"}) == Control("start", {}, 0)
    assert from_wire({"type": "chat", "text": "hi"}) == Chat("hi", "", None)


def test_nil_is_accepted_only_where_the_field_allows_it() -> None:
    wire = to_wire(Welcome(PROTOCOL_VERSION, None, "", "h", "g"))
    assert from_wire(wire) == Welcome(PROTOCOL_VERSION, None, "", "h", "g")
    with pytest.raises(ProtocolError, match=r"welcome\.token must be str, not nil"):
        from_wire(wire | {"token": None})


@pytest.mark.parametrize(("wire", "reason"), [
    ({"type": "ping", "nonce": True}, "ping.nonce must be int, not bool"),
    ({"type": "ping", "nonce": False}, "ping.nonce must be int, not bool"),
    ({"type": "hello", "version": True, "name": "a"}, "hello.version must be int, not bool"),
    ({"type": "hello", "version": 1, "name": "a", "spectate": 0},
     "hello.spectate must be bool, not int"),
    ({"type": "hello", "version": 1, "name": "a", "token": 5},
     "hello.token must be str or nil, not int"),
    ({"type": "control", "command": "ready", "args": {3: True}},
     "control.args has a int map key; map keys must be str"),
    ({"type": "control", "command": "ready", "args": {"x": {3: True}}},
     r"control\.args\.x has a int map key"),
    ({"type": "control", "command": "ready", "args": {"ready": (1, 2)}},
     r"control\.args\.ready is a tuple"),
    ({"type": "control", "command": "ready", "args": {"ready": {1, 2}}}, "is a set"),
    ({"type": "lobby", "host_name": "h", "game": "g", "mode": "m", "options": {},
      "seats": [{"name": "a"}, {7: "b"}], "phase": "lobby"},
     r"lobby\.seats\[1\] has a int map key"),
    ({"type": "snapshot", "state_id": 1, "view": "everything"},
     "snapshot.view must be map with str keys, not str"),
    ({"type": "delta", "base": 1, "state_id": 2, "ops": None},
     "delta.ops must be array, not nil"),
    ({"type": "game_over", "state_id": 1, "result": [], "reason": ""},
     "game_over.result must be map with str keys, not array"),
])
def test_a_wrong_field_type_is_refused_with_its_path(wire: dict[Any, Any], reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        from_wire(wire)


def test_a_map_with_a_non_str_key_is_refused_even_at_the_top() -> None:
    with pytest.raises(ProtocolError, match="ping has a int map key"):
        from_wire({"type": "ping", "nonce": 1, 5: "x"})


@pytest.mark.parametrize(("data", "reason"), [
    ([], "must be a map, not array"),
    ("ping", "must be a map, not str"),
    (b"ping", "must be a map, not bin"),
    ({}, "needs a str 'type' field"),
    ({"type": None}, "needs a str 'type' field"),
    ({"type": "Ping", "nonce": 1}, "unknown message type 'Ping'"),
    ({"type": "", "nonce": 1}, "unknown message type ''"),
    ({"type": "x" * 1000}, "unknown message type 'x{40}'$"),
])
def test_something_that_is_not_a_message_is_refused(data: Any, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        from_wire(data)


def test_extra_fields_are_ignored() -> None:
    assert from_wire({"type": "ping", "nonce": 1, "future": [1, 2]}) == Ping(1)


def test_element_types_are_checked_inside_arrays() -> None:
    good = to_wire(Lobby("h", "g", "m", {}, [{"name": "a"}], "lobby"))
    assert from_wire(good) == Lobby("h", "g", "m", {}, [{"name": "a"}], "lobby")
    with pytest.raises(ProtocolError, match=r"lobby.seats\[0\] must be map with str keys, "
                                            r"not array"):
        from_wire(good | {"seats": [[]]})


def test_any_plain_value_is_fine_inside_a_view() -> None:
    view: dict[str, Any] = {"n": None, "b": True, "i": -5, "f": 2.5, "s": "x", "bin": b"\x01",
                            "a": [[], {}], "m": {"deep": {"er": [1]}}}
    assert from_wire(to_wire(Snapshot(3, view))) == Snapshot(3, view)
    assert from_wire(to_wire(Delta(2, 3, [[0, ["i"], 6]]))) == Delta(2, 3, [[0, ["i"], 6]])


def test_check_plain_limits_nesting() -> None:
    value: Any = 1
    for _ in range(MAX_DEPTH):
        value = [value]
    check_plain(value)
    with pytest.raises(ProtocolError, match=f"more than {MAX_DEPTH} deep"):
        check_plain({"x": value})


def test_check_plain_survives_very_deep_values() -> None:
    value: Any = []
    for _ in range(100_000):
        value = [value]
    with pytest.raises(ProtocolError, match="deep"):
        check_plain(value)


@pytest.mark.parametrize(("value", "name"), [
    (None, "nil"), (True, "bool"), (3, "int"), (1.5, "float"), ("x", "str"), (b"x", "bin"),
    ([1], "array"), ({"a": 1}, "map"), ((1,), "tuple"),
])
def test_wire_names_speak_msgpack(value: Any, name: str) -> None:
    assert wire_name(value) == name


def test_a_hello_reads_the_same_in_any_language() -> None:
    # What a client in another language would build by hand.
    assert from_wire({"type": "hello", "version": 1, "name": "Ada", "colour": "#E69F00",
                      "token": None, "spectate": False, "bot": False,
                      "client": "my-rust-client"}) == Hello(1, "Ada", "#E69F00", None,
                                                            False, False, "my-rust-client")
