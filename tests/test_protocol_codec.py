"""Framing and decoding: every message survives the wire however the bytes are
split, and every kind of bad input is refused with a ProtocolError that says why.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import struct
import time
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.codec import (
    FROM_HOST,
    MAX_FRAME,
    FrameReader,
    decode_body,
    encode,
    frame,
    pack,
    peek_id,
    unpack,
)
from protocol.messages import (
    MAX_DEPTH,
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    Accepted,
    Ack,
    Answer,
    Audit,
    Bye,
    Challenge,
    Chat,
    Clock,
    Contribution,
    Contributions,
    Control,
    Delta,
    Deputy,
    GameOver,
    Hello,
    Intent,
    Journal,
    Lobby,
    Message,
    Moved,
    Offer,
    PackOffer,
    PictureChunk,
    PictureRequest,
    Ping,
    Pong,
    ProtocolError,
    Refused,
    Rejected,
    Resync,
    RoomPart,
    SeedCommit,
    Snapshot,
    Stand,
    UnknownType,
    Welcome,
    to_wire,
)

FUZZ = settings(max_examples=300, derandomize=True, deadline=None)
QUICK = settings(max_examples=100, derandomize=True, deadline=None)

SAMPLES: list[Message] = [
    Hello(PROTOCOL_VERSION, "Ada", colour="#e04040", token="r3c0nn3ct", spectate=False,
          bot=True, client="lanplay-test"),
    Hello(PROTOCOL_VERSION, "Zoë 🎲"),
    Challenge("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
    Answer("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"),
    Welcome(PROTOCOL_VERSION, 2, "r3c0nn3ct", "Bob's laptop", "alles_klar", owner=True),
    Welcome(PROTOCOL_VERSION, None, "", "Bob's laptop", "alles_klar"),
    Refused("full", "The room is full (4 seats)."),
    Bye("Good game!"),
    Bye(),
    Ping(2**40),
    Pong(7),
    Lobby("Bob's laptop", "alles_klar", "classic", {"rounds": 3, "fast": True, "bonus": 1.5},
          [{"name": "Ada", "colour": "#e04040", "ready": True, "bot": False,
            "connected": True},
           {"name": "Bot 1", "colour": "", "ready": True, "bot": True, "connected": True}],
          "lobby", problem="Needs at least 3 players.", spectators=1),
    Control("move_seat", {"seat": 0, "to": 2}, id=5),
    Control("start"),
    Chat("gg 👍", sender="Ada", seat=0),
    Chat("hello from the back row", sender="Spectator", seat=None),
    Intent(3, 17, {"type": "play", "card": {"suit": "hearts", "rank": 12}}),
    Accepted(3, 18),
    Rejected(3, "stale", "The table changed before your move arrived."),
    Snapshot(18, {"hand": [{"suit": "hearts", "rank": 12}], "turn": 1, "score": -0.0,
                  "seed_hash": b"\x00\xff\x10", "winner": None, "log": []}),
    Delta(17, 18, [[0, ["turn"], 2], [3, ["log"], ["Ada played the queen of hearts"]],
                   [1, ["hint"]], [2, ["hand"], 3]]),
    Resync("delta from 16 while at 17"),
    GameOver(40, {"winners": [0], "scores": [10, 3, -2]}, "finished"),
    Clock("guess-3", 30.0, 12.5),
    PackOffer({"id": "office", "name": "Office party", "pictures": [
        {"id": "office/stapler", "name": "Stapler", "kind": "png", "size": 3,
         "sha256": "ab" * 32, "scores": {"value": 2}}], "questions": [], "topics": []}),
    PictureRequest(["ab" * 32]),
    PictureChunk("ab" * 32, 0, 1, b"\x89PN"),
    SeedCommit(1, "cd" * 32, 4, 5.0),
    Contribution(1, "ef" * 32),
    Contributions(1, "cd" * 32, ["ef" * 32, "01" * 32], [1]),
    Audit(1, "alles-klar", "standard", {"hand_size": 4}, "23" * 32, ["ef" * 32, "01" * 32],
          [1], [[0, {"type": "play", "card": 3}], [-1, {"type": "timeout"}]], 0, 2),
    Offer("deputy", "r00m", 1, "Lea", 15.0),
    Stand("deputy", True, 7533, 7534),
    RoomPart("host", "r00m", 1, 1, 0, 1, b'{"format":1}\n'),
    Journal("r00m", 1, 2, 5, b'{"seat":0,"action":{"type":"play"},"state_id":6}\n'),
    Ack(2),
    Deputy("r00m", 1, "Jonas", "192.168.1.21", 7533, 7534, 15.0),
    Moved("r00m", 2, "Jonas", "192.168.1.21", 7533, 7534),
]


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


def body_of(data: Any) -> bytes:
    """A frame body holding ``data`` as raw msgpack (no checks on our side)."""
    return msgpack.packb(data, use_bin_type=True)  # type: ignore[no-any-return]


def nested(depth: int) -> Any:
    """An empty array inside ``depth - 1`` more arrays."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def framed(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def test_every_message_type_has_a_sample() -> None:
    assert {m.TYPE for m in SAMPLES} == set(MESSAGE_TYPES)


# --- round trips ----------------------------------------------------------------------


@pytest.mark.parametrize("msg", SAMPLES, ids=lambda m: m.TYPE)
def test_a_message_survives_being_fed_whole(msg: Message) -> None:
    reader = FrameReader()
    (got,) = reader.feed(encode(msg))
    assert got == msg
    assert same(to_wire(got), to_wire(msg))
    assert reader.pending == 0


@pytest.mark.parametrize("msg", SAMPLES, ids=lambda m: m.TYPE)
def test_a_message_survives_being_fed_one_byte_at_a_time(msg: Message) -> None:
    reader = FrameReader()
    data = encode(msg)
    got: list[Message] = []
    for i in range(len(data)):
        got += reader.feed(data[i:i + 1])
        assert len(got) == (1 if i == len(data) - 1 else 0)
    assert same(to_wire(got[0]), to_wire(msg))


def test_all_messages_fed_in_one_go_come_out_in_order() -> None:
    reader = FrameReader()
    data = b"".join(encode(m) for m in SAMPLES)
    got = reader.feed(data)
    assert [same(to_wire(g), to_wire(m)) for g, m in zip(got, SAMPLES, strict=True)] == [
        True] * len(SAMPLES)
    assert reader.frames == len(SAMPLES)
    assert reader.bytes == len(data)
    assert reader.pending == 0


@given(st.lists(st.integers(min_value=0, max_value=400), max_size=40))
@QUICK
def test_messages_survive_any_split_of_the_stream(cuts: list[int]) -> None:
    data = b"".join(encode(m) for m in SAMPLES)
    points = sorted({min(c * 7, len(data)) for c in cuts} | {0, len(data)})
    reader = FrameReader()
    got: list[Message] = []
    for start, end in itertools.pairwise(points):
        got += reader.feed(data[start:end])
    assert got == SAMPLES


def test_a_frame_is_a_big_endian_length_then_one_msgpack_map() -> None:
    data = encode(Pong(1))
    body = data[4:]
    assert data[:4] == len(body).to_bytes(4, "big")
    assert msgpack.unpackb(body) == {"type": "pong", "nonce": 1}
    assert data.hex() == "00000012" + "82a474797065a4706f6e67a56e6f6e636501"


def test_type_comes_first_and_every_field_is_sent() -> None:
    wire = to_wire(Hello(PROTOCOL_VERSION, "Ada"))
    assert list(wire) == ["type", "version", "name", "colour", "token", "spectate", "bot",
                          "client"]


def test_a_part_frame_waits_for_the_rest() -> None:
    data = encode(Chat("hi"))
    reader = FrameReader()
    assert reader.feed(data[:3]) == []
    assert reader.feed(data[3:-1]) == []
    assert reader.pending == len(data) - 1
    assert reader.feed(data[-1:]) == [Chat("hi")]


def test_feed_frames_hands_back_raw_bodies() -> None:
    reader = FrameReader()
    assert reader.feed_frames(encode(Ping(1)) + encode(Pong(1))) == [
        pack(to_wire(Ping(1))), pack(to_wire(Pong(1)))]


# --- the size limit -----------------------------------------------------------------


def test_an_oversized_length_is_refused_before_the_body_arrives() -> None:
    reader = FrameReader()
    with pytest.raises(ProtocolError, match="larger than the 1048576 byte limit"):
        reader.feed(struct.pack(">I", MAX_FRAME + 1))
    assert reader.pending == 0  # nothing buffered for it


def test_a_length_prefix_of_4_gib_is_refused_at_once() -> None:
    with pytest.raises(ProtocolError, match="larger than"):
        FrameReader().feed(b"\xff\xff\xff\xff")


def test_a_frame_of_exactly_the_limit_is_accepted() -> None:
    # in bins of at most 256 KiB each, the longest a bin may be
    blobs = [b"x" * (FROM_HOST.bin_len - 100)] * 4 + [b""]
    msg = Snapshot(1, {"blobs": blobs})
    data = encode(msg)
    assert len(data) - 4 <= MAX_FRAME
    body = pack(to_wire(msg))
    pad = MAX_FRAME - len(body)
    msg = Snapshot(1, {"blobs": [*blobs[:4], b"x" * (pad - 1)]})  # bin8 header: 1 more
    data = encode(msg)
    assert len(data) == 4 + MAX_FRAME
    assert FrameReader().feed(data) == [msg]


def test_a_smaller_limit_applies_to_both_ends() -> None:
    with pytest.raises(ValueError, match="exceeds the 16 byte limit"):
        encode(Chat("this text is too long for sixteen bytes"), max_frame=16)
    with pytest.raises(ProtocolError, match="larger than the 16 byte limit"):
        FrameReader(max_frame=16).feed(encode(Chat("this text is too long")))


def test_frame_refuses_a_body_over_the_limit() -> None:
    with pytest.raises(ValueError):
        frame(b"x" * (MAX_FRAME + 1))


# --- malformed input ----------------------------------------------------------------

MALFORMED: list[tuple[str, bytes, str]] = [
    ("reserved byte", b"\xc1", "not msgpack"),
    ("empty body", b"", "ends in the middle"),
    ("cut short", body_of({"type": "ping", "nonce": 1})[:-1], "ends in the middle"),
    ("bad utf-8", b"\x81\xa4type\xa2\xff\xfe", "not valid UTF-8"),
    ("array", body_of(["ping", 1]), "must be a map, not array"),
    ("int", body_of(7), "must be a map, not int"),
    ("nil", body_of(None), "must be a map, not nil"),
    ("no type", body_of({"nonce": 1}), "needs a str 'type'"),
    ("type not str", body_of({"type": 1}), "needs a str 'type'"),
    ("type as bin", body_of({"type": b"ping", "nonce": 1}), "needs a str 'type'"),
    ("missing field", body_of({"type": "ping"}), "ping is missing its 'nonce' field"),
    ("missing nullable", body_of({"type": "welcome", "version": 1, "token": "t",
                                  "host_name": "h", "game": "g"}),
     "missing its 'seat'"),
    ("bool as int", body_of({"type": "ping", "nonce": True}), "ping.nonce must be int, not bool"),
    ("float as int", body_of({"type": "ping", "nonce": 1.0}),
     "ping.nonce must be int, not float"),
    ("str as int", body_of({"type": "accepted", "id": "1", "state_id": 2}),
     "accepted.id must be int, not str"),
    ("int as str", body_of({"type": "chat", "text": 5}), "chat.text must be str, not int"),
    ("bin as str", body_of({"type": "chat", "text": b"hi"}), "chat.text must be str, not bin"),
    ("int as bool", body_of({"type": "hello", "version": 1, "name": "a", "bot": 1}),
     "hello.bot must be bool, not int"),
    ("nil not allowed", body_of({"type": "refused", "code": None, "reason": ""}),
     "refused.code must be str, not nil"),
    ("str for int or nil", body_of({"type": "chat", "text": "x", "seat": "0"}),
     "chat.seat must be int or nil, not str"),
    ("array for map", body_of({"type": "intent", "id": 1, "state_id": 1, "action": []}),
     "intent.action must be map with str keys, not array"),
    ("map for array", body_of({"type": "delta", "base": 1, "state_id": 2, "ops": {}}),
     "delta.ops must be array, not map"),
    ("bad seat entry", body_of({"type": "lobby", "host_name": "h", "game": "g", "mode": "m",
                                "options": {}, "seats": [{"name": "a"}, 3], "phase": "lobby"}),
     r"lobby.seats\[1\] must be map with str keys, not int"),
    ("int key", body_of({"type": "intent", "id": 1, "state_id": 1, "action": {1: "x"}}),
     "map key must be str, not int"),
    ("nested int key", body_of({"type": "snapshot", "state_id": 1,
                                "view": {"hands": [{0: ["x"]}]}}),
     "map key must be str, not int"),
    ("bin key", body_of({"type": "intent", "id": 1, "state_id": 1, "action": {b"k": 1}}),
     "frame.action has a bin map key"),
    ("bin key at the top", body_of({"type": "ping", "nonce": 1, b"x": 0}),
     "frame has a bin map key"),
    ("array key", b"\x81\x91\x01\x02", "map key must be str, not list"),
    ("ext type", body_of({"type": "chat", "text": msgpack.ExtType(5, b"x")}),
     "extension type 5 is not allowed"),
    ("timestamp ext", body_of({"type": "chat", "text": "x",
                               "sender": msgpack.Timestamp(1, 0)}),
     "frame.sender is a Timestamp"),
    ("bare timestamp", body_of(msgpack.Timestamp(1, 0)), "frame is a Timestamp"),
    ("trailing garbage", body_of({"type": "ping", "nonce": 1}) + b"\x00",
     "1 bytes after its msgpack object"),
    ("two objects", body_of({"type": "ping", "nonce": 1}) * 2, "bytes after its msgpack"),
    ("too deep", body_of({"type": "snapshot", "state_id": 1, "view": nested(MAX_DEPTH)}),
     f"more than {MAX_DEPTH} deep"),
    ("far too deep for msgpack", b"\x91" * 5000 + b"\x90", "too deeply"),
    ("huge array header", b"\xdd\xff\xff\xff\xff",
     "an array of 4294967295 items; at most 2048 are allowed"),
]


@pytest.mark.parametrize(("body", "reason"), [(b, r) for _, b, r in MALFORMED],
                         ids=[name for name, _, _ in MALFORMED])
def test_a_malformed_body_is_refused_with_a_reason(body: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason) as info:
        decode_body(body)
    assert info.value.reason == str(info.value)


@pytest.mark.parametrize(("body", "reason"), [(b, r) for _, b, r in MALFORMED],
                         ids=[name for name, _, _ in MALFORMED])
def test_a_reader_refuses_everything_after_its_first_error(body: bytes, reason: str) -> None:
    reader = FrameReader()
    assert reader.feed(encode(Ping(1))) == [Ping(1)]
    with pytest.raises(ProtocolError, match=reason):
        reader.feed(framed(body))
    assert reader.broken is not None
    with pytest.raises(ProtocolError, match="connection already failed"):
        reader.feed(encode(Ping(2)))
    with pytest.raises(ProtocolError, match="connection already failed"):
        reader.feed(b"")
    with pytest.raises(ProtocolError, match="connection already failed"):
        reader.feed_frames(encode(Ping(2)))


# --- a type this version does not know ------------------------------------------------


def test_an_unknown_type_is_its_own_error_and_leaves_the_reader_sound() -> None:
    body = body_of({"type": "teleport", "to": "the other table"})
    with pytest.raises(UnknownType, match="unknown message type 'teleport'") as info:
        decode_body(body)
    assert isinstance(info.value, ProtocolError) and info.value.kind == "teleport"
    reader = FrameReader()
    assert reader.feed(framed(body) + encode(Ping(1))) == [Ping(1)]  # skipped whole
    with pytest.raises(UnknownType):
        reader.decode(body)
    assert reader.broken is None
    assert reader.feed(encode(Ping(2))) == [Ping(2)]


def test_an_unknown_type_that_breaks_the_value_rules_is_still_malformed() -> None:
    reader = FrameReader()
    with pytest.raises(ProtocolError, match="extension type") as info:
        reader.feed(framed(b"\x82\xa4type\xa8teleport\xa1x\xd4\x01\x00"))
    assert not isinstance(info.value, UnknownType) and reader.broken is not None


# --- the id of a frame the rate limit drops, read without decoding it -------------------


@pytest.mark.parametrize("msg", [
    Intent(7, 3, {"type": "play", "card": 12}),
    Control("ready", {"ready": True}, 41),
    Control("set_game", {"game": "alles-klar", "options": {"end": "cards", "x": [1, 2]}},
            2**40),
    Intent(-5, 0, {}),
    Intent(2**64 - 1, 0, {}),
    Intent(-(2**63), 0, {}),
    Control("ready", {"pad": "p" * 60_000}, 300),  # a long str is skipped by its length
])
def test_peek_id_reads_the_id_of_an_honest_intent_or_control(msg: Message) -> None:
    assert peek_id(pack(to_wire(msg))) == msg.id  # type: ignore[attr-defined]


def test_peek_id_finds_the_id_wherever_it_is_among_small_fields() -> None:
    last = {"type": "intent", "state_id": 3, "action": {"type": "guess", "at": [1, 2, 3]},
            "note": None, "f": 1.5, "b": b"xy", "id": 9}
    assert peek_id(body_of(last)) == 9
    wide = msgpack.packb({"type": "control", "command": "ready", "id": 70000},
                         use_bin_type=True)
    assert peek_id(b"\xde\x00\x03" + wide[1:]) == 70000  # a map 16 header
    assert peek_id(b"\x81\xd9\x02id\x05") == 5  # a str 8 key


@pytest.mark.parametrize("body", [
    b"",
    b"\x91\x05",  # an array, not a map
    body_of({"type": "chat", "text": "hi"}),  # no id at all
    body_of({"type": "intent", "id": "7"}),  # not an int
    body_of({"type": "intent", "id": 1.0}),
    body_of({"type": "intent", "id": True}),
    b"\x82\xa4type\xa6intent\xa2id",  # cut short before the value
    b"\x82\xa4type\xd4\x01\x00\xa2id\x05",  # an ext before the id
    b"\x82\xa4type\xc1\xa2id\x05",  # the reserved byte
    b"\x82\xa4type\xdb\xff\xff\xff\xff\xa2id\x05",  # a str claiming 4 GiB
])
def test_peek_id_gives_0_for_what_it_cannot_read(body: bytes) -> None:
    assert peek_id(body) == 0


def test_peek_id_gives_up_after_its_steps_whatever_the_frame() -> None:
    """A client that sends its id after a big value gets 0; reading costs the same
    on any frame (no value is built, at most 64 headers are read)."""
    buried = {"type": "control", "command": "ready", "args": {"x": list(range(100))},
              "id": 4}
    assert peek_id(body_of(buried)) == 0
    hostile = b"\x81\xa1x\xdd\xff\xff\xff\xff" + b"\x91" * 60_000  # 4 billion items
    many = b"\xdf\xff\xff\xff\xff" + b"\xa1x\xc0" * 20_000
    started = time.thread_time()  # the work done, however loaded the machine
    for body in (hostile, many) * 100:
        assert peek_id(body) == 0
    assert time.thread_time() - started < 0.5  # 200 frames of 60 KB: about 6 ms here


def test_a_reader_stays_broken_after_an_oversized_frame() -> None:
    reader = FrameReader(max_frame=64)
    with pytest.raises(ProtocolError):
        reader.feed(struct.pack(">I", 65) + b"x" * 65)
    with pytest.raises(ProtocolError, match="already failed: frame of 65 bytes"):
        reader.feed(encode(Ping(1)))


def test_a_bad_frame_after_good_ones_in_one_chunk_still_raises() -> None:
    reader = FrameReader()
    with pytest.raises(ProtocolError, match="must be a map"):
        reader.feed(encode(Ping(1)) + framed(body_of([1])) + encode(Ping(2)))


def test_unknown_fields_are_ignored_for_forward_compatibility() -> None:
    body = body_of({"type": "ping", "nonce": 4, "sent_at": 1.5})
    assert decode_body(body) == Ping(4)


def test_defaults_fill_missing_optional_fields() -> None:
    assert decode_body(body_of({"type": "hello", "version": 1, "name": "Ada"})) == Hello(
        1, "Ada", "", None, False, False, "lanplay")


def test_unpack_accepts_the_whole_subset() -> None:
    value: dict[str, Any] = {
        "nil": None, "bool": False, "int": -(2**63), "uint": 2**64 - 1, "float": 0.25,
        "inf": math.inf, "str": "é", "bin": b"\x00", "array": [1, [2]], "map": {"k": {}}}
    assert same(unpack(pack(value)), value)


def test_nesting_up_to_the_limit_is_accepted() -> None:
    view = {"x": nested(MAX_DEPTH - 2)}  # the message map and the view map are two levels
    assert decode_body(pack(to_wire(Snapshot(1, view)))) == Snapshot(1, view)


def test_a_float32_decodes_as_float() -> None:
    assert same(unpack(b"\xca\x3f\x80\x00\x00"), 1.0)


# --- fuzzing: only ProtocolError may escape ------------------------------------------


def _feed_all(reader: FrameReader, chunks: list[bytes]) -> None:
    for chunk in chunks:
        try:
            reader.feed(chunk)
        except ProtocolError:
            return


@given(st.lists(st.binary(max_size=64), max_size=8))
@settings(FUZZ, max_examples=150)
def test_random_bytes_raise_only_protocol_errors(chunks: list[bytes]) -> None:
    _feed_all(FrameReader(), chunks)


@given(st.binary(max_size=200))
@FUZZ
def test_random_bodies_raise_only_protocol_errors(body: bytes) -> None:
    with contextlib.suppress(ProtocolError):
        decode_body(body)
    _feed_all(FrameReader(), [framed(body)])


@given(st.sampled_from(SAMPLES), st.data())
@settings(QUICK, max_examples=100)
def test_damaged_frames_raise_only_protocol_errors(msg: Message, data: st.DataObject) -> None:
    body = bytearray(pack(to_wire(msg)))
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        at = data.draw(st.integers(min_value=0, max_value=len(body) - 1))
        action = data.draw(st.sampled_from(["flip", "cut", "insert", "drop"]))
        if action == "flip":
            body[at] = data.draw(st.integers(min_value=0, max_value=255))
        elif action == "cut":
            del body[at:]
        elif action == "insert":
            body[at:at] = data.draw(st.binary(min_size=1, max_size=4))
        elif len(body) > 1:
            del body[at]
        if not body:
            break
    with contextlib.suppress(ProtocolError):
        decode_body(bytes(body))
    reader = FrameReader()
    stream = framed(bytes(body)) + encode(Ping(1))
    step = data.draw(st.integers(min_value=1, max_value=16))
    _feed_all(reader, [stream[i:i + step] for i in range(0, len(stream), step)])


plain = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False) | st.text(max_size=6) | st.binary(max_size=6),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from("abc"), kids,
                                                              max_size=3),
    max_leaves=6)
field_names = st.sampled_from(sorted({f for cls in MESSAGE_TYPES.values()
                                      for f in cls.__dataclass_fields__}))


@given(st.sampled_from(SAMPLES), st.dictionaries(field_names, plain, max_size=3),
       st.sets(field_names, max_size=2))
@settings(QUICK, max_examples=100)
def test_messages_with_fields_replaced_at_random_decode_or_raise(
        msg: Message, changes: dict[str, Any], dropped: set[str]) -> None:
    wire = {k: v for k, v in to_wire(msg).items() if k not in dropped} | changes
    try:
        got = decode_body(body_of(wire))
    except ProtocolError:
        return
    assert got.TYPE == msg.TYPE
    assert decode_body(pack(to_wire(got))) == got
