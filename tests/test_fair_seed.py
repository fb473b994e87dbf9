"""The seed nobody chooses, without sockets: commitment, derivation, the host's exchange,
the shuffle record a save keeps, and the test vector docs/PROTOCOL.md gives."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from test_layering import ROOT, imported_names, sources, under

from lanplay.fair.seed import (
    Exchange,
    Fairness,
    commitment,
    derive_seed,
    from_hex,
    seed_digest,
    seeded_bytes,
)
from lanplay.messages import msg
from protocol.codec import encode
from protocol.messages import SeedCommit

DOC = Path(__file__).resolve().parents[1] / "docs" / "PROTOCOL.md"


def test_the_commitment_is_sha256_and_the_seed_hashes_secret_then_seats_in_order() -> None:
    secret = b"\x07" * 32
    values = [b"\x01" * 32, b"\x02" * 32]
    assert commitment(secret) == hashlib.sha256(secret).hexdigest()
    digest = hashlib.sha256(secret + values[0] + values[1]).digest()
    assert seed_digest(secret, values) == digest
    assert derive_seed(secret, values) == int.from_bytes(digest[:8], "big")
    # seat order counts, and so does every byte of every part
    assert derive_seed(secret, values[::-1]) != derive_seed(secret, values)
    assert derive_seed(b"\x08" + secret[1:], values) != derive_seed(secret, values)
    assert derive_seed(secret, [values[0], b"\x03" * 32]) != derive_seed(secret, values)
    # without the secret nobody gets the seed from the contributions alone
    assert derive_seed(b"", values) != derive_seed(secret, values)


def test_the_test_vector_in_protocol_md_matches_the_code() -> None:
    text = DOC.read_text()
    block = text[text.index("\nsecret      "):]
    rows = dict(re.findall(r"^(secret|commitment|seat \d|digest|seed)\s+(\S+)", block,
                           re.MULTILINE)[:7])
    secret = bytes.fromhex(rows["secret"])
    values = [bytes.fromhex(rows[f"seat {i}"]) for i in range(3)]
    assert secret == bytes(range(32)) and values[2] == bytes(range(96, 128))
    assert commitment(secret) == rows["commitment"]
    assert seed_digest(secret, values).hex() == rows["digest"]
    assert derive_seed(secret, values) == int(rows["seed"])
    # the seed_commit frame printed after it
    frame = block[block.index("```\n00 00 00"):][4:]
    hex_text = frame[:frame.index("{")]
    assert bytes.fromhex(hex_text.replace("\n", " ")) == encode(
        SeedCommit(1, rows["commitment"], 3, 5.0))


def test_the_exchange_takes_one_contribution_per_seat_and_draws_for_the_silent() -> None:
    exchange = Exchange(game=3, seats=3, secret=b"s" * 32)
    assert exchange.commitment == commitment(b"s" * 32)
    assert exchange.offer(0, 3, "aa" * 32) is None
    assert exchange.offer(0, 3, "bb" * 32) == ("duplicate", msg(
        "Your contribution to this shuffle is already in."))
    assert exchange.offer(1, 2, "bb" * 32)[0] == "late"  # type: ignore[index]
    assert exchange.offer(1, 3, "BB" * 32)[0] == "malformed"  # type: ignore[index]
    assert exchange.offer(1, 3, "bb" * 31)[0] == "malformed"  # type: ignore[index]
    assert exchange.offer(5, 3, "bb" * 32)[0] == "spectator"  # type: ignore[index]
    assert not exchange.complete and exchange.missing() == [1, 2]
    assert exchange.offer(2, 3, "cc" * 32) is None
    fair = exchange.close(lambda seat: bytes([seat]) * 32)
    assert fair.values == (b"\xaa" * 32, b"\x01" * 32, b"\xcc" * 32)
    assert fair.drawn == (1,)
    assert fair.seed == derive_seed(b"s" * 32, fair.values)
    assert fair.commitment == exchange.commitment


def test_a_shuffle_record_survives_a_save_and_a_damaged_one_is_refused() -> None:
    fair = Fairness(2, b"k" * 32, (b"\x01" * 32, b"\x02" * 32), (1,))
    assert Fairness.from_save(fair.to_save(), 2) == fair
    for damage, why in [
        ({"secret": "zz"}, "secret"), ({"values": ["01" * 32]}, "2 contributions"),
        ({"values": ["01" * 32, "xyz"]}, "32 bytes"), ({"drawn": [7]}, "seats"),
        ({"game": True}, "game number"),
    ]:
        with pytest.raises(ValueError, match=why):
            Fairness.from_save({**fair.to_save(), **damage}, 2)


def test_seeded_bytes_are_the_seed_alone_and_hex_is_strict() -> None:
    assert seeded_bytes(5, "secret", 1) == seeded_bytes(5, "secret", 1)
    assert len({seeded_bytes(5, "secret", 1), seeded_bytes(5, "secret", 2),
                seeded_bytes(6, "secret", 1), seeded_bytes(5, "drawn", 1, 0)}) == 4
    assert from_hex("0f" * 32) == b"\x0f" * 32
    for bad in ("0F" * 32, "0f" * 33, "", None, 5, "g" * 64):
        assert from_hex(bad) is None


@pytest.mark.timeout(30)
def test_fair_play_logic_is_pure() -> None:
    """The checks run on every laptop and offline: no sockets, no clock, no window."""
    forbidden = ("asyncio", "socket", "PyQt6", "ui", "zeroconf", "threading", "time",
                 "secrets", "lanplay.host", "lanplay.peer.peer", "lanplay.net.link",
                 "lanplay.store.saves", "lanplay.session", "lanplay.peer.bots", "lanplay.tools")
    bad, names = [], set()
    for path in sources("lanplay/fair"):
        for name, line, _ in imported_names(path):
            names.add(name)
            if any(under(name, f) for f in forbidden):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not bad, "\n".join(bad)
    assert {"hashlib", "lanplay.game", "protocol.codec"} <= names  # the walker sees them
