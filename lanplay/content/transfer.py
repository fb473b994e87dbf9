"""A custom pack's pictures travel from the host to the peers that lack them.

Sans-IO, like ``protocol/``: the host's ``PictureServer`` turns a pack into a
``PackOffer`` and answers ``PictureRequest`` messages with ``PictureChunk``
messages; a peer's ``PictureReceiver`` turns an offer into a request for
the pictures its cache lacks and reassembles the chunks. Whoever owns the
sockets just passes the messages along.

Only the host needs the pack folder. Pictures are named by their SHA-256,
cached by it on each peer (so a second game with the same pack sends
nothing), checked against it on arrival, and checked again as images. A
peer asks for at most ``BATCH_BYTES`` at a time and for the next batch only
when the last one is complete: the flow control lives here, so a big pack
never floods the host's write buffer or starves the game's own messages.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanplay.content.axes import parse_axis, parse_scores
from lanplay.content.images import KINDS, MAX_PICTURE_BYTES, sniff
from lanplay.content.library import Library, builtin
from lanplay.content.model import Card, ContentError, Pack, Picture, Question, Topic
from lanplay.content.packs import MAX_ITEMS, MAX_NAME, MAX_PACK_BYTES, MAX_PICTURES, MAX_TEXT
from protocol.codec import MAX_FRAME
from protocol.messages import PackOffer, PictureChunk, PictureRequest

CHUNK_BYTES = 96 * 1024
"""Bytes of picture per chunk: far under the frame limit, and small enough that
a chunk never holds up a game delta queued behind it for long."""

BATCH_BYTES = 1 << 20
"""A peer asks for at most this much at once (always at least one picture)."""

MAX_HASHES = 256
"""A request naming more pictures than this is cut short by the host."""

MAX_ANSWER_BYTES = 4 * BATCH_BYTES
"""The most one request gets, whatever it asks: a peer cannot make the host queue
more than half of a connection's write buffer at once."""

MAX_PACKS = 8
"""Packs one receiver takes from its host (a game plays one at a time): a host
offering pack after pack cannot fill the peer's memory or disk."""

_HASH = re.compile(r"[0-9a-f]{64}")
_PACK_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_ITEM_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}/[a-z0-9][a-z0-9_-]{0,39}")

assert CHUNK_BYTES + 1024 < MAX_FRAME


class TransferError(Exception):
    """The host sent something unusable; ``reason`` says what, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- the host side --------------------------------------------------------------------


def manifest(pack: Pack, blobs: Mapping[str, bytes] | None = None) -> dict[str, Any]:
    """The wire form of a pack: everything but the image bytes (plain msgpack values).

    ``blobs`` maps picture ids to their bytes when the caller already read them.
    """
    blobs = blobs if blobs is not None else {p.id: p.data() for p in pack.pictures}
    return {
        "id": pack.id,
        "name": pack.name,
        "author": pack.author,
        "description": pack.description,
        "pictures": [{"id": p.id, "name": p.name, "kind": p.kind,
                      "sha256": hashlib.sha256(blobs[p.id]).hexdigest(),
                      "size": len(blobs[p.id]), "scores": dict(p.scores),
                      "category": p.category}
                     for p in pack.pictures],
        "questions": [{"id": q.id, "text": q.text, "side": q.side,
                       "axis": dict(q.weights) or None} for q in pack.questions],
        "topics": [{"id": t.id, "text": t.text, "axis": dict(t.weights) or None}
                   for t in pack.topics],
        "cards": [[c.front, c.back] for c in pack.cards],
    }


def chunks(sha256: str, data: bytes, size: int = CHUNK_BYTES) -> list[PictureChunk]:
    total = max(1, math.ceil(len(data) / size))
    return [PictureChunk(sha256, i, total, data[i * size:(i + 1) * size])
            for i in range(total)]


class PictureServer:
    """The host's packs in play and their picture bytes, read once when added.

    Holding the bytes (a pack is at most ``MAX_PACK_BYTES``) means a file
    edited while the game runs cannot make a picture disagree with its hash.
    """

    def __init__(self) -> None:
        self._offers: dict[str, PackOffer] = {}
        self._data: dict[str, bytes] = {}

    def add(self, pack: Pack) -> PackOffer:
        """Start offering ``pack``; its offer goes to every peer, present and future."""
        blobs = {picture.id: picture.data() for picture in pack.pictures}
        for data in blobs.values():
            self._data[hashlib.sha256(data).hexdigest()] = data
        offer = PackOffer(manifest(pack, blobs))
        self._offers[pack.id] = offer
        return offer

    def offers(self) -> list[PackOffer]:
        return list(self._offers.values())

    def answer(self, request: PictureRequest) -> list[PictureChunk]:
        """The chunks for the requested pictures this host has.

        Unknown hashes are skipped: a peer only ever gets bytes of a pack the
        host chose to share. An honest peer asks for one batch at a time; a
        request for more than ``MAX_ANSWER_BYTES`` is cut short.
        """
        out: list[PictureChunk] = []
        budget = MAX_ANSWER_BYTES
        for digest in request.hashes[:MAX_HASHES]:
            data = self._data.get(digest)
            if data is None:
                continue
            if len(data) > budget:
                break
            out.extend(chunks(digest, data))
            budget -= len(data)
        return out


# --- the peer side --------------------------------------------------------------------


def cache_dir() -> Path:
    """``LANPLAY_CACHE_DIR`` if set (tests, portable installs), else the platform's."""
    override = os.environ.get("LANPLAY_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("lanplay", appauthor=False))


class PictureCache:
    """Pictures received from hosts, one file per content hash."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else cache_dir() / "pictures"

    def path(self, sha256: str, kind: str) -> Path:
        return self.folder / f"{sha256}.{kind}"

    def has(self, sha256: str, kind: str) -> bool:
        return self.path(sha256, kind).is_file()

    def store(self, sha256: str, kind: str, data: bytes) -> Path:
        """Write atomically, so a crash never leaves half a picture under a good name."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(sha256, kind)
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".incoming-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target


@dataclass(frozen=True)
class Wanted:
    sha256: str
    kind: str
    size: int
    label: str = "a picture"
    """How a refusal names it: "picture 'office/stapler' (Red stapler)"."""


@dataclass
class _Incoming:
    wanted: Wanted
    total: int | None = None
    parts: dict[int, bytes] = field(default_factory=dict)
    received: int = 0


@dataclass(frozen=True)
class Progress:
    """What a peer does next: send ``request`` (if any); ``completed`` packs are usable."""

    request: PictureRequest | None = None
    completed: tuple[str, ...] = ()


class PictureReceiver:
    """A peer's side of the transfer: which packs it knows, what it still needs."""

    def __init__(self, cache: PictureCache | None = None) -> None:
        self.cache = cache or PictureCache()
        self.packs: dict[str, Pack] = {}
        """Packs whose every picture is in the cache, by pack id."""
        self.pending: dict[str, tuple[Pack, set[str]]] = {}
        """Packs still waiting for pictures: the pack and the hashes it lacks."""
        self._wanted: dict[str, Wanted] = {}
        self._asked: dict[str, _Incoming] = {}
        self.received_bytes = 0

    def on_offer(self, offer: PackOffer) -> Progress:
        """Take a host's offer; ask for the pictures the cache lacks (or none)."""
        pack, pictures = parse_manifest(offer.pack, self.cache)
        if pack.id not in self.packs and pack.id not in self.pending \
                and len(self.packs) + len(self.pending) >= MAX_PACKS:
            raise TransferError(f"the host offered more than {MAX_PACKS} packs")
        self.packs.pop(pack.id, None)
        self.pending.pop(pack.id, None)
        # An offer comes on joining, after a reconnect too: whatever was in flight
        # on an older connection is lost, so it is asked for again.
        self._asked.clear()
        missing = {w.sha256 for w in pictures if not self.cache.has(w.sha256, w.kind)}
        for wanted in pictures:
            if wanted.sha256 in missing:
                self._wanted.setdefault(wanted.sha256, wanted)
        self.pending[pack.id] = (pack, missing)
        return self._next()

    def on_chunk(self, chunk: PictureChunk) -> Progress:
        """Take one chunk; a finished picture is checked, cached and may finish packs."""
        incoming = self._asked.get(chunk.sha256)
        if incoming is None:  # a late answer to a request made before a new offer
            return Progress()
        wanted = incoming.wanted
        most = max(1, math.ceil(wanted.size / 1024))
        if incoming.total is None:
            if not 1 <= chunk.total <= most:
                raise TransferError(f"the host split a picture into {chunk.total} parts")
            incoming.total = chunk.total
        if incoming.parts.get(chunk.index) == chunk.data:
            return Progress()  # the same part again, answering a repeated request
        if chunk.total != incoming.total or not 0 <= chunk.index < chunk.total \
                or chunk.index in incoming.parts:
            raise TransferError("the host sent a picture's parts out of order")
        incoming.received += len(chunk.data)
        if incoming.received > wanted.size:
            raise TransferError("the host sent a picture larger than it announced")
        incoming.parts[chunk.index] = chunk.data
        self.received_bytes += len(chunk.data)
        if len(incoming.parts) < incoming.total:
            return Progress()
        data = b"".join(incoming.parts[i] for i in range(incoming.total))
        del self._asked[chunk.sha256]
        self._wanted.pop(chunk.sha256, None)
        if len(data) != wanted.size or hashlib.sha256(data).hexdigest() != wanted.sha256:
            raise TransferError("a picture from the host arrived damaged (its content "
                                "hash does not match)")
        try:
            kind = sniff(data)
        except ContentError as exc:
            raise TransferError(f"the host's {wanted.label} {exc.reason}") from exc
        if kind != wanted.kind:
            raise TransferError(f"the host's {wanted.label} is a {kind.upper()}, "
                                f"announced as {wanted.kind.upper()}")
        self.cache.store(wanted.sha256, wanted.kind, data)
        return self._next()

    def _next(self) -> Progress:
        completed = []
        for pack_id, (pack, missing) in list(self.pending.items()):
            missing -= {h for h in missing if h not in self._wanted and h not in self._asked}
            if not missing:
                del self.pending[pack_id]
                self.packs[pack_id] = pack
                completed.append(pack_id)
        request = None
        if not self._asked and self._wanted:
            batch: list[str] = []
            budget = BATCH_BYTES
            for digest, wanted in self._wanted.items():
                if batch and (wanted.size > budget or len(batch) >= MAX_HASHES):
                    break
                batch.append(digest)
                budget -= wanted.size
                self._asked[digest] = _Incoming(wanted)
            request = PictureRequest(batch)
        return Progress(request, tuple(completed))

    def missing(self) -> int:
        """Pictures still to come, over every pending pack."""
        return len(self._wanted)

    def library(self) -> Library:
        """The built-in pack plus every complete pack received so far."""
        return Library([builtin(), *self.packs.values()])


def parse_manifest(data: Any, cache: PictureCache) -> tuple[Pack, list[Wanted]]:
    """Check a host's manifest as the untrusted input it is; TransferError if unusable."""
    try:
        return _parse_manifest(data, cache)
    except ContentError as exc:
        raise TransferError(f"the host's pack cannot be used: {exc.reason}") from exc


def _parse_manifest(data: Any, cache: PictureCache) -> tuple[Pack, list[Wanted]]:
    if not isinstance(data, dict):
        raise ContentError("it is not a map")
    pack_id = data.get("id")
    if not isinstance(pack_id, str) or not _PACK_ID.fullmatch(pack_id) \
            or pack_id == "builtin":
        raise ContentError(f"its id {str(pack_id)[:50]!r} is not a pack id")
    name = _str(data, "name", MAX_NAME, "the pack", required=True)
    pictures: list[Picture] = []
    wanted: list[Wanted] = []
    total = 0
    seen: set[str] = set()
    for n, raw in enumerate(_list(data, "pictures", MAX_PICTURES), 1):
        where = f"pictures[{n}]"
        picture_id = _item_id(raw, pack_id, seen, where)
        kind, digest, size = raw.get("kind"), raw.get("sha256"), raw.get("size")
        if kind not in KINDS:
            raise ContentError(f"{where}: kind must be png or svg")
        if not isinstance(digest, str) or not _HASH.fullmatch(digest):
            raise ContentError(f"{where}: sha256 must be 64 lowercase hex digits")
        if isinstance(size, bool) or not isinstance(size, int) \
                or not 0 < size <= MAX_PICTURE_BYTES:
            raise ContentError(f"{where}: size must be 1 to {MAX_PICTURE_BYTES} bytes")
        total += size
        if total > MAX_PACK_BYTES:
            raise ContentError(f"its pictures add up to more than {MAX_PACK_BYTES >> 20} MiB")
        scores = parse_scores(raw.get("scores") or {}, where)
        title = _str(raw, "name", MAX_NAME, where, required=True)
        pictures.append(Picture(picture_id, title, pack_id, kind, cache.path(digest, kind),
                                scores, _str(raw, "category", MAX_NAME, where)))
        wanted.append(Wanted(digest, kind, size, f"picture {picture_id!r} ({title})"))
    questions = []
    for n, raw in enumerate(_list(data, "questions", MAX_ITEMS), 1):
        where = f"questions[{n}]"
        side = raw.get("side", "")
        if side not in ("red", "blue", ""):
            raise ContentError(f"{where}: side must be red, blue or empty")
        questions.append(Question(_item_id(raw, pack_id, seen, where),
                                  _str(raw, "text", MAX_TEXT, where, required=True),
                                  parse_axis(raw.get("axis"), None, where), side, pack_id))
    topics = []
    for n, raw in enumerate(_list(data, "topics", MAX_ITEMS), 1):
        where = f"topics[{n}]"
        topics.append(Topic(_item_id(raw, pack_id, seen, where),
                            _str(raw, "text", MAX_TEXT, where, required=True),
                            parse_axis(raw.get("axis"), None, where), pack_id))
    cards = _cards(data.get("cards", []), {p.id for p in pictures})
    pack = Pack(pack_id, name, tuple(pictures), tuple(questions), tuple(topics), cards,
                None, _str(data, "author", MAX_NAME, "the pack"),
                _str(data, "description", MAX_TEXT, "the pack"))
    return pack, wanted


def _cards(raw: Any, ids: set[str]) -> tuple[Card, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_PICTURES:
        raise ContentError("cards must be a list of [front, back] pairs")
    out = []
    for pair in raw:
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in ids for p in pair)):
            raise ContentError("a card must name two of the pack's pictures")
        out.append(Card(pair[0], pair[1]))
    return tuple(out)


def _list(data: dict[str, Any], key: str, limit: int) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > limit \
            or not all(isinstance(v, dict) for v in value):
        raise ContentError(f"{key} must be a list of at most {limit} maps")
    return value


def _item_id(raw: dict[str, Any], pack_id: str, seen: set[str], where: str) -> str:
    value = raw.get("id")
    if not isinstance(value, str) or not _ITEM_ID.fullmatch(value) \
            or not value.startswith(pack_id + "/"):
        raise ContentError(f"{where}: id {str(value)[:90]!r} must be '{pack_id}/<id>'")
    if value in seen:
        raise ContentError(f"{where}: duplicate id {value!r}")
    seen.add(value)
    return value


def _str(raw: dict[str, Any], key: str, limit: int, where: str,
         required: bool = False) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str) or len(value) > limit or (required and not value.strip()):
        raise ContentError(f"{where}: {key} must be text of at most {limit} characters")
    return value

