"""The seed, the random generator, its streams, the shuffle and two deals, against
``docs/fair-play-vectors.json``: once with lanplay's own code, and once with a
generator written here from docs/PROTOCOL.md's words alone ("The random draws"), as a
client in another language would write it. So the file holds what the code does,
and the document says enough to do it (issue 23: a client could not replay an audit)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from lanplay import rng
from lanplay.fair.seed import commitment, derive_seed, seed_digest
from lanplay.game import resolve_options
from lanplay.games import load

ROOT = Path(__file__).resolve().parent.parent
VECTORS: dict[str, Any] = json.loads((ROOT / "docs" / "fair-play-vectors.json").read_text())
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text()


class MT19937:
    """The generator as PROTOCOL.md spells it: MT19937 (Matsumoto and Nishimura's
    reference), seeded by ``init_by_array`` with the seed's 32-bit words, least
    significant first; a double from two outputs, 53 bits."""

    def __init__(self, seed: int) -> None:
        key = []
        while True:
            key.append(seed & 0xFFFFFFFF)
            seed >>= 32
            if not seed:
                break
        self.mt = [0] * 624
        self.index = 624
        self._init_genrand(19650218)
        mt, i, j = self.mt, 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) \
                & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= 624:
                mt[0], i = mt[623], 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000

    def _init_genrand(self, s: int) -> None:
        mt = self.mt
        mt[0] = s
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF

    def uint32(self) -> int:
        mt = self.mt
        if self.index >= 624:
            for k in range(624):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def random(self) -> float:
        a, b = self.uint32() >> 5, self.uint32() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def doc_stream(seed: int, keys: list[Any]) -> MT19937:
    text = ":".join([str(seed), *map(str, keys)]).encode("utf-8")
    return MT19937(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))


def doc_shuffled(items: list[Any], gen: MT19937) -> list[Any]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(gen.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def test_the_seed_vector_is_the_documents() -> None:
    v = VECTORS["seed"]
    secret, values = bytes.fromhex(v["secret"]), [bytes.fromhex(x) for x in v["values"]]
    assert commitment(secret) == v["commitment"]
    assert seed_digest(secret, values).hex() == v["digest"]
    assert derive_seed(secret, values) == int(v["seed"])
    assert v["digest"] in DOC and v["seed"] in DOC


@pytest.mark.parametrize("v", VECTORS["mt19937"], ids=lambda v: v["seed"])
def test_the_generator_is_mt19937_seeded_by_its_words(v: dict[str, Any]) -> None:
    seed = int(v["seed"])
    ours, theirs = random.Random(seed), MT19937(seed)
    assert [ours.getrandbits(32) for _ in v["uint32"]] == v["uint32"]
    assert [theirs.uint32() for _ in v["uint32"]] == v["uint32"]
    ours, theirs = random.Random(seed), MT19937(seed)
    doubles = [float.fromhex(h) for h in v["random_hex"]]
    assert doubles == v["random"]
    assert [ours.random() for _ in doubles] == doubles == [theirs.random() for _ in doubles]


@pytest.mark.parametrize("v", VECTORS["stream"], ids=lambda v: v["text"])
def test_a_stream_is_named_by_its_seed_and_keys(v: dict[str, Any]) -> None:
    seed = int(v["seed"])
    assert ":".join([str(seed), *map(str, v["keys"])]) == v["text"]
    state = int.from_bytes(hashlib.sha256(v["text"].encode()).digest()[:8], "big")
    assert state == int(v["state"])
    ours, theirs = rng.stream(seed, *v["keys"]), doc_stream(seed, v["keys"])
    assert [ours.random() for _ in v["random"]] == v["random"]
    assert [theirs.random() for _ in v["random"]] == v["random"]


@pytest.mark.parametrize("v", VECTORS["shuffle"], ids=lambda v: f"{v['keys']}-{len(v['items'])}")
def test_a_shuffle_draws_from_the_end(v: dict[str, Any]) -> None:
    seed = int(v["seed"])
    assert rng.shuffled(v["items"], rng.stream(seed, *v["keys"])) == v["shuffled"]
    assert doc_shuffled(v["items"], doc_stream(seed, v["keys"])) == v["shuffled"]


@pytest.mark.parametrize("v", VECTORS["choice_index"], ids=lambda v: f"{v['keys']}-{v['n']}")
def test_a_choice_is_one_draw(v: dict[str, Any]) -> None:
    seed, n = int(v["seed"]), v["n"]
    assert rng.choice_index(n, rng.stream(seed, *v["keys"])) == v["index"]
    assert min(int(doc_stream(seed, v["keys"]).random() * n), n - 1) == v["index"]


@pytest.mark.parametrize("v", VECTORS["deal"], ids=lambda v: v["game"])
def test_a_deal_is_the_deal_stream_dealt_in_seat_order(v: dict[str, Any]) -> None:
    game, seed, players = load(v["game"]), int(v["seed"]), v["players"]
    assert resolve_options(game, {}) == v["options"]
    state = game.setup(players, game.modes[0].id, v["options"], seed)
    rest = state.pile if v["game"] == "alles-klar" else state.deck
    first = state.turn if v["game"] == "alles-klar" else state.current
    assert ([list(h) for h in state.hands], list(rest), first) == (v["hands"], v["rest"],
                                                                   v["first"])
    # as PROTOCOL.md says: the shuffled deck, a hand per seat in seat order, the rest left
    deck = doc_shuffled(list(range(len(v["rest"]) + sum(map(len, v["hands"])))),
                        doc_stream(seed, ["deal"]))
    size = len(v["hands"][0])
    assert [deck[s * size:(s + 1) * size] for s in range(players)] == v["hands"]
    assert deck[players * size:] == v["rest"]
    assert min(int(doc_stream(seed, ["first"]).random() * players), players - 1) == v["first"]


def test_the_document_points_at_the_vectors() -> None:
    assert "fair-play-vectors.json" in DOC
