"""The page's cryptography against the protocol's test vectors, in the browser: the
S-tier note's commitment, the seed from the secret and the contributions, and the
password's answer (PBKDF2 and HMAC in JavaScript, as the host checks them)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from browserhelpers import HostThread, browser, hosting  # noqa: F401

from lanplay.admission import RoomKey

SEEDS = {
    "secret": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "values": ["202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
               "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f",
               "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"],
}


@pytest.mark.timeout(60)
def test_the_pages_hashes_match_the_protocols_vectors(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("alles-klar")
    page = browser.new_page()
    try:
        page.goto(hosting.url)
        got = page.evaluate("""async ([seeds]) => {
            const keeper = await import('/keeper.js');
            const fair = await import('/fair.js');
            const wire = await import('/wire.js');
            return {
              note: keeper.commitment(["crown", "cat", null, "bread", "office/mug"],
                                      "000102030405060708090a0b0c0d0e0f"),
              unicode: keeper.noteJson(["caf\\u00e9", null]),
              seed: String(fair.seedOf(seeds.secret, seeds.values)),
              answer: await wire.answerFor("swordfish", "0123456789abcdef0123456789abcdef",
                                           "nonce-42"),
            };
        }""", [SEEDS])
        assert got["note"] == "ec228f3ebe04d413b74d3cfdfc755eeca3e73ba41b0182dfccd1eaf3c1564b8c"
        assert got["unicode"] == '["caf\\u00e9",null]'
        assert got["seed"] == "5125018601239332113"
        key = RoomKey.derive("swordfish", "0123456789abcdef0123456789abcdef")
        assert got["answer"] == key.answer("nonce-42")
    finally:
        page.close()


def _views(rng: Any, n: int) -> list[Any]:
    """Random views of a game's shape: maps of lists of maps, numbers, texts and nulls."""
    def value(depth: int) -> Any:
        kind = rng.randrange(6 if depth < 3 else 3)
        if kind == 0:
            return rng.randrange(-5, 50)
        if kind == 1:
            return rng.choice(["a", "b", "crown", "", None])
        if kind == 2:
            return rng.random() < 0.5
        if kind == 3:
            return [value(depth + 1) for _ in range(rng.randrange(5))]
        return {rng.choice("abcdef"): value(depth + 1) for _ in range(rng.randrange(4))}
    base = {"game": "x", "log": [], "hand": [1, 2, 3], "table": {"a": [1, {"b": 2}]}}
    out = [base]
    for _ in range(n):
        nxt = json.loads(json.dumps(out[-1]))
        for _ in range(rng.randrange(1, 4)):
            nxt[rng.choice(["log", "hand", "table", "extra", "more"])] = value(1)
        nxt["log"] = out[-1]["log"] + [{"key": "x {n}", "args": {"n": len(out)}}]
        out.append(nxt)
    return out


@pytest.mark.timeout(60)
def test_the_pages_deltas_agree_with_the_protocols_and_leave_the_old_view(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    """Issue 32: the page applies a delta by copying only the paths it changes (a copy of
    the whole view was most of a delta's cost): still exactly ``protocol.delta.apply``,
    and the view it started from is as it was."""
    import random

    from protocol import delta

    rng = random.Random(32)
    views = _views(rng, 60)
    steps = [[old, delta.diff(old, new), new] for old, new in itertools.pairwise(views)]
    hosting.start("alles-klar")
    page = browser.new_page()
    try:
        page.goto(hosting.url)
        got = page.evaluate("""async ([steps]) => {
            const wire = await import('/wire.js');
            return steps.map(([old, ops, want]) => {
              const before = JSON.stringify(old);
              const after = wire.applyDelta(old, ops);
              const same = JSON.stringify(after) === JSON.stringify(want);
              return [same, JSON.stringify(old) === before];
            });
        }""", [steps])
        assert all(same for same, _ in got), got
        assert all(kept for _, kept in got), got
    finally:
        page.close()
