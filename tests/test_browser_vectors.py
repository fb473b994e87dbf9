"""The page's cryptography against the protocol's test vectors, in the browser: the
S-tier note's commitment, the seed from the secret and the contributions, and the
password's answer (PBKDF2 and HMAC in JavaScript, as the host checks them)."""

from __future__ import annotations

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
