"""Bounded decoding: a hostile 1 MiB frame (arrays 60 deep, a million empty maps,
short strings, a huge map) is refused for little CPU and memory, in words; small
frames until the handshake is done; and a frame body can be had without decoding
it, so whoever reads may charge for it first."""

from __future__ import annotations

import asyncio
import gc
import time
import tracemalloc
from collections.abc import Callable

import hostile
import pytest

from lanplay.content import load_pack
from lanplay.content.transfer import manifest
from lanplay.net.link import Link
from protocol.codec import (
    CLIENT_FRAME,
    FROM_CLIENT,
    FROM_HOST,
    HANDSHAKE,
    HANDSHAKE_FRAME,
    FrameReader,
    Limits,
    decode_body,
    encode,
    frame,
    pack,
)
from protocol.messages import (
    PROTOCOL_VERSION,
    Hello,
    PackOffer,
    Ping,
    ProtocolError,
    Snapshot,
    Welcome,
    to_wire,
)


def cost(make: Callable[[], bytes], limits: Limits = FROM_HOST) -> tuple[str, float, float]:
    """(the refusal, CPU seconds, peak MiB allocated) of decoding one frame."""
    body = make()
    assert len(body) < 1 << 20
    # This thread's CPU (the process's also counts the threads earlier tests of this
    # worker left running), without a collection of their garbage in the middle, and
    # without tracemalloc, which slows every allocation.
    gc.collect()
    gc.disable()
    try:
        start = time.thread_time()
        with pytest.raises(ProtocolError) as caught:
            decode_body(body, limits)
        cpu = time.thread_time() - start
    finally:
        gc.enable()
    tracemalloc.start()
    try:
        with pytest.raises(ProtocolError):
            decode_body(body, limits)
        peak = tracemalloc.get_traced_memory()[1] / (1 << 20)
    finally:
        tracemalloc.stop()
    return caught.value.reason, cpu, peak


@pytest.mark.parametrize(("make", "reason"), [
    (hostile.nested_arrays, "an array of 17474 items; at most 2048 are allowed"),
    (hostile.empty_maps, "an array of 1048472 items; at most 2048 are allowed"),
    (hostile.short_strings, "an array of 349490 items; at most 2048 are allowed"),
    (hostile.wide_map, "a map of 116496 entries; at most 1024 are allowed"),
], ids=list(hostile.FINDING))
def test_the_findings_frames_are_refused_at_their_first_header(
        make: Callable[[], bytes], reason: str) -> None:
    refusal, cpu, peak = cost(make)
    assert refusal == f"a frame holds {reason}"
    assert cpu < 0.02 and peak < 1  # main: 0.03-0.8 s and 14-145 MB each


@pytest.mark.parametrize(("make", "reason"), [
    (hostile.nested_rows, "more than 10000 maps and arrays"),
    (hostile.empty_map_rows, "more than 10000 maps and arrays"),
    (hostile.string_rows, "more than 100000 array items and map entries"),
    (hostile.map_rows, "more than 100000 array items and map entries"),
], ids=list(hostile.WITHIN_WIDTHS))
def test_frames_within_the_widths_stop_at_the_totals(make: Callable[[], bytes],
                                                     reason: str) -> None:
    refusal, cpu, peak = cost(make)
    assert refusal == f"a frame holds {reason}"
    assert cpu < 0.1 and peak < 16


def test_the_same_frames_from_an_admitted_client_cost_less_still() -> None:
    for make in (*hostile.FINDING.values(), *hostile.WITHIN_WIDTHS.values()):
        with pytest.raises(ProtocolError, match=f"larger than the {CLIENT_FRAME} byte"):
            FrameReader(limits=FROM_CLIENT).feed(frame(make(), 1 << 21))


def test_the_biggest_honest_message_fits_the_limits(tmp_path: object) -> None:
    """A pack offer at every maximum (500 pictures, questions, topics and cards)."""
    from pathlib import Path

    from content_samples import SVG, write_pack

    toml = ['name = "Big"']
    files = {}
    for i in range(500):
        toml.append(f'[[pictures]]\nid = "p{i}"\nname = "Picture number {i}"\n'
                    f'file = "p{i}.svg"\ncategory = "thing"\n'
                    f'scores = {{ value = 2, size = 1, danger = 1, usefulness = 8 }}')
        files[f"p{i}.svg"] = SVG + b"<!-- %d -->" % i
        toml.append(f'[[questions]]\nid = "q{i}"\ntext = "Which is more {i}?"\n'
                    f'side = "red"\naxis = "danger"')
        toml.append(f'[[topics]]\nid = "t{i}"\ntext = "Topic {i}"\naxis = "value"')
    for i in range(0, 500, 2):
        toml.append(f'[[cards]]\nfront = "p{i}"\nback = "p{i + 1}"')
    pack_ = load_pack(write_pack(Path(str(tmp_path)) / "big", "\n".join(toml) + "\n", files))
    offer = PackOffer(manifest(pack_))
    data = encode(offer)
    assert FrameReader().feed(data) == [offer]
    assert len(data) < 1 << 20


def test_a_frame_of_the_handshake_limit_is_accepted_and_one_more_byte_is_not() -> None:
    name = "A" * (HANDSHAKE_FRAME - len(pack(to_wire(Hello(PROTOCOL_VERSION, "")))) - 2)
    data = encode(Hello(PROTOCOL_VERSION, name))
    assert len(data) == 4 + HANDSHAKE_FRAME
    assert FrameReader(limits=HANDSHAKE).feed(data) == [Hello(PROTOCOL_VERSION, name)]
    longer = encode(Hello(PROTOCOL_VERSION, name + "A"))
    with pytest.raises(ProtocolError, match=f"larger than the {HANDSHAKE_FRAME} byte limit"):
        FrameReader(limits=HANDSHAKE).feed(longer[:4])  # refused on its length alone


def test_the_limit_raised_after_the_welcome_applies_to_frames_already_received() -> None:
    """A host writes its welcome and a big snapshot at once; they may arrive in one
    read, yet the snapshot is checked against the limit in force when it is taken."""
    snapshot = Snapshot(0, {"board": ["x" * 1000] * 20})
    data = encode(Welcome(PROTOCOL_VERSION, 0, "tok", "Bob", "alles-klar")) + encode(snapshot)
    for step in (len(data), 1):  # all at once, then one byte at a time
        reader = FrameReader(limits=HANDSHAKE)
        got = []
        for i in range(0, len(data), step):
            reader.push(data[i:i + step])
            while (body := reader.next_body()) is not None:
                got.append(reader.decode(body))
                reader.limits = FROM_HOST  # welcomed
        assert got[1] == snapshot and reader.pending == 0
    reader = FrameReader(limits=HANDSHAKE)
    reader.push(data)
    assert isinstance(reader.decode(reader.next_body() or b""), Welcome)
    with pytest.raises(ProtocolError, match="larger than the 4096 byte limit"):
        reader.next_body()  # not raised: still refused


def test_a_body_is_handed_out_undecoded_and_decoded_on_request() -> None:
    reader = FrameReader()
    junk = frame(hostile.empty_maps(), 1 << 21)
    reader.push(encode(Ping(1)) + junk)
    assert reader.decode(reader.next_body() or b"") == Ping(1)
    start = time.process_time()
    body = reader.next_body()
    assert body is not None and len(body) == len(junk) - 4
    assert time.process_time() - start < 0.01  # not decoded: nothing spent on it yet
    with pytest.raises(ProtocolError, match="at most 2048"):
        reader.decode(body)
    assert reader.broken is not None
    with pytest.raises(ProtocolError, match="already failed"):
        reader.next_body()


def test_a_link_reads_bodies_without_decoding_over_tcp() -> None:
    async def main() -> None:
        got: asyncio.Queue[Link] = asyncio.Queue()

        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await got.put(Link(reader, writer, limits=HANDSHAKE))

        server = await asyncio.start_server(accept, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        link = await got.get()
        hello = encode(Hello(PROTOCOL_VERSION, "Ann"))
        writer.write(hello + frame(hostile.nested_arrays(), 1 << 21))
        msg = await link.recv()
        assert msg == Hello(PROTOCOL_VERSION, "Ann")
        with pytest.raises(ProtocolError, match="larger than the 4096 byte limit"):
            await link.recv_body()
        link.abort()
        writer.close()
        server.close()
        await server.wait_closed()

    asyncio.run(asyncio.wait_for(main(), 10))


def test_a_link_hands_over_a_body_fed_one_byte_at_a_time() -> None:
    async def main() -> None:
        got: asyncio.Queue[Link] = asyncio.Queue()

        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await got.put(Link(reader, writer, limits=FROM_CLIENT))

        server = await asyncio.start_server(accept, "127.0.0.1", 0)
        _, writer = await asyncio.open_connection("127.0.0.1",
                                                  server.sockets[0].getsockname()[1])
        link = await got.get()
        data = encode(Ping(7))
        for byte in data:
            writer.write(bytes([byte]))
            await writer.drain()
        body = await link.recv_body()
        assert link.decode(body) == Ping(7) and link.frames_in == 1
        link.abort()
        writer.close()
        server.close()
        await server.wait_closed()

    asyncio.run(asyncio.wait_for(main(), 10))
