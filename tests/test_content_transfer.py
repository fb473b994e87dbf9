"""Only the host has the pack: its pictures reach the peers that lack them in chunks
under the frame limit, are checked against their hashes and cached by them, and
render on the peer. Sans-IO through the real codec first, then over real TCP."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest
from content_samples import VALID_TOML, png_bytes, write_pack
from test_content import coverage

from lanplay.content import load_pack
from lanplay.content.model import Pack
from lanplay.content.transfer import (
    BATCH_BYTES,
    PictureCache,
    PictureReceiver,
    PictureServer,
    Progress,
    TransferError,
    manifest,
)
from protocol.codec import MAX_FRAME, FrameReader, encode
from protocol.messages import Message, PackOffer, PictureChunk, PictureRequest


def wire(msg: Message) -> Any:
    """``msg`` after a trip through real frames, checking the frame limit."""
    data = encode(msg)
    assert len(data) <= MAX_FRAME
    (got,) = FrameReader().feed(data)
    return got


class Exchange:
    """A host's server and a peer's receiver joined by the codec; counts what crossed."""

    def __init__(self, server: PictureServer, receiver: PictureReceiver) -> None:
        self.server, self.receiver = server, receiver
        self.requests: list[PictureRequest] = []
        self.chunks = 0
        self.largest = 0
        self.completed: list[str] = []

    def offer(self, offer: PackOffer) -> None:
        self.follow(self.receiver.on_offer(wire(offer)))

    def follow(self, progress: Progress) -> None:
        pending = [progress]
        while pending:
            step = pending.pop()
            self.completed += step.completed
            if step.request is None:
                continue
            request = wire(step.request)
            self.requests.append(request)
            for chunk in self.server.answer(request):
                self.chunks += 1
                self.largest = max(self.largest, len(encode(chunk)))
                pending.append(self.receiver.on_chunk(wire(chunk)))


@pytest.fixture
def office(tmp_path: Path) -> Pack:
    return load_pack(write_pack(tmp_path / "host" / "office"))


def test_a_peer_without_the_pack_receives_its_pictures_and_can_render_them(
        office: Pack, tmp_path: Path, qapp: object) -> None:
    server = PictureServer()
    peer = PictureReceiver(PictureCache(tmp_path / "peer-cache"))
    link = Exchange(server, peer)
    link.offer(server.add(office))
    assert link.completed == ["office"] and len(link.requests) == 1
    got = peer.packs["office"]
    assert [p.id for p in got.pictures] == [p.id for p in office.pictures]
    assert [q.text for q in got.questions] == [q.text for q in office.questions]
    assert [t.weights for t in got.topics] == [t.weights for t in office.topics]
    assert got.cards == office.cards and got.pictures[2].score("noise") == 9
    for sent, received in zip(office.pictures, got.pictures, strict=True):
        assert received.path.parent == tmp_path / "peer-cache"
        assert received.data() == sent.data()
        assert received.path.stem == hashlib.sha256(sent.data()).hexdigest()
        assert coverage(received.path) > 0.5
    lib = peer.library()
    assert lib.picture("office/mug").name == "Coffee mug"
    assert lib.about("office/loud").text == "What is more annoying in a meeting?"


def test_a_second_game_with_the_same_pack_sends_nothing(office: Pack, tmp_path: Path) -> None:
    server = PictureServer()
    cache = PictureCache(tmp_path / "cache")
    Exchange(server, PictureReceiver(cache)).offer(server.add(office))
    again = Exchange(server, PictureReceiver(cache))
    again.offer(server.offers()[0])
    assert again.completed == ["office"] and again.requests == [] and again.chunks == 0


@pytest.mark.timeout(30)
def test_big_pictures_travel_in_chunks_and_batches_under_the_frame_limit(
        tmp_path: Path) -> None:
    files = {f"p{i}.png": png_bytes(180, 180, noise=True, seed=i) for i in range(24)}
    toml = 'name = "Noise"\n' + "".join(
        f'[[pictures]]\nid = "p{i}"\nname = "Noise {i}"\nfile = "p{i}.png"\n'
        for i in range(24))
    pack = load_pack(write_pack(tmp_path / "noise", toml, files))
    size = sum(len(data) for data in files.values())
    assert size > 2 * BATCH_BYTES and all(len(d) > 97_000 for d in files.values())
    server = PictureServer()
    link = Exchange(server, PictureReceiver(PictureCache(tmp_path / "cache")))
    link.offer(server.add(pack))
    assert link.completed == ["noise"]
    assert len(link.requests) >= 3  # asked batch by batch, never all at once
    assert link.chunks > 24  # every picture took more than one chunk
    assert link.largest < MAX_FRAME // 4


def test_a_damaged_picture_is_refused(office: Pack, tmp_path: Path) -> None:
    server = PictureServer()
    peer = PictureReceiver(PictureCache(tmp_path / "cache"))
    request = peer.on_offer(server.add(office)).request
    assert request is not None
    chunk = server.answer(request)[0]
    bad = PictureChunk(chunk.sha256, chunk.index, chunk.total,
                       bytes([chunk.data[0] ^ 1]) + chunk.data[1:])
    with pytest.raises(TransferError, match="arrived damaged"):
        peer.on_chunk(bad)
    assert not (tmp_path / "cache" / f"{chunk.sha256}.svg").exists()


def test_a_picture_that_is_not_an_image_is_refused_even_with_a_good_hash(
        office: Pack, tmp_path: Path) -> None:
    text = b"definitely not a picture"
    offer = manifest(office)
    offer["pictures"][0].update(sha256=hashlib.sha256(text).hexdigest(), size=len(text))
    peer = PictureReceiver(PictureCache(tmp_path / "cache"))
    peer.on_offer(PackOffer(offer))
    with pytest.raises(TransferError, match="is not an image"):
        peer.on_chunk(PictureChunk(offer["pictures"][0]["sha256"], 0, 1, text))


@pytest.mark.parametrize(("change", "reason"), [
    ({"id": "builtin"}, "is not a pack id"),
    ({"id": "../etc"}, "is not a pack id"),
    ({"pictures": [{"id": "dog", "name": "Dog", "kind": "svg", "size": 10,
                    "sha256": "0" * 64}]}, "must be 'office/<id>'"),
    ({"pictures": [{"id": "office/x", "name": "X", "kind": "gif", "size": 10,
                    "sha256": "0" * 64}]}, "kind must be png or svg"),
    ({"pictures": [{"id": "office/x", "name": "X", "kind": "png", "size": 10 << 20,
                    "sha256": "0" * 64}]}, "size must be"),
    ({"pictures": [{"id": "office/x", "name": "X", "kind": "png", "size": 10,
                    "sha256": "../../x"}]}, "sha256 must be"),
    ({"cards": [["office/mug", "dog"]]}, "a card must name two"),
])
def test_a_hostile_manifest_is_refused(office: Pack, tmp_path: Path,
                                       change: dict[str, Any], reason: str) -> None:
    peer = PictureReceiver(PictureCache(tmp_path / "cache"))
    with pytest.raises(TransferError, match=reason):
        peer.on_offer(PackOffer(manifest(office) | change))


def test_unrequested_chunks_are_ignored_and_the_host_never_sends_what_it_did_not_offer(
        office: Pack, tmp_path: Path) -> None:
    server = PictureServer()
    server.add(office)
    assert server.answer(PictureRequest(["f" * 64])) == []
    peer = PictureReceiver(PictureCache(tmp_path / "cache"))
    assert peer.on_chunk(PictureChunk("f" * 64, 0, 1, b"junk")) == Progress()
    assert not (tmp_path / "cache").exists()


# --- over real TCP ------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_over_tcp_a_joining_peer_gets_the_hosts_pack(tmp_path: Path, qapp: object,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from lanplay.host import Host, HostConfig
    from lanplay.peer.peer import Peer

    monkeypatch.setenv("LANPLAY_DATA_DIR", str(tmp_path / "host-data"))
    monkeypatch.setenv("LANPLAY_CACHE_DIR", str(tmp_path / "peer-cache"))
    pack = load_pack(write_pack(tmp_path / "host-data" / "packs" / "office", VALID_TOML,
                                {"stapler.svg": (Path(__file__).parents[1] / "lanplay"
                                                 / "content" / "pictures" / "dog.svg"
                                                 ).read_bytes(),
                                 "mug.png": png_bytes(), "printer.png": png_bytes(20, 30)}))

    async def scenario() -> tuple[Peer, Peer, list[tuple[str, Any]]]:
        host = Host("alles-klar", config=HostConfig(host_name="pack test", bind="127.0.0.1",
                                                    port=0, seed=1))
        await host.start()
        early, late = Peer("Early"), Peer("Late")
        events: list[tuple[str, Any]] = []
        late.listeners.append(lambda event, payload: events.append((event, payload)))
        tasks = []
        try:
            await early.connect("127.0.0.1", host.port)
            tasks.append(asyncio.create_task(early.run()))
            host.share_pack(pack)  # shared while a peer is in the room ...
            await early.wait_until(lambda p: "office" in p.pictures.packs, timeout=10)
            await late.connect("127.0.0.1", host.port)  # ... and to one who joins later
            tasks.append(asyncio.create_task(late.run()))
            await late.wait_until(lambda p: "office" in p.pictures.packs, timeout=10)
        finally:
            await host.stop("test over")
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
        return early, late, events

    early, late, events = asyncio.run(scenario())
    assert ("pack", "office") in events
    received = late.pictures.packs["office"]
    assert received.picture("office/stapler").data() == pack.pictures[0].data()
    assert coverage(received.picture("office/stapler").path) > 0.3
    assert early.pictures.received_bytes > 0
    assert late.pictures.received_bytes == 0  # same cache folder: nothing sent twice
