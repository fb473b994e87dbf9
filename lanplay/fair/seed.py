"""The seed nobody chooses: the host commits to a secret, every seat adds its own.

The host draws a secret of 32 random bytes and first tells everyone only its
commitment, SHA-256(secret). Every seat then sends 32 random bytes of its own;
the host tells everyone all of them (so each laptop sees its own is in). The
game's seed is the first 8 bytes, big-endian, of SHA-256(secret followed by
the contributions in seat order). The host could not choose its secret to suit
the contributions (it committed first), and no peer can compute the deal before
the end (it lacks the secret, which comes with the audit).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lanplay.messages import Msg, msg

SECRET_BYTES = 32
"""Length of the host's secret and of every contribution."""
SEED_BYTES = 8
"""How much of the digest becomes the game's seed (an unsigned 64-bit int)."""

_HEX = re.compile(r"[0-9a-f]{64}")


def commitment(secret: bytes) -> str:
    """SHA-256 of the secret, as 64 lower-case hex digits (what the host shows first)."""
    return hashlib.sha256(secret).hexdigest()


def seed_digest(secret: bytes, values: Sequence[bytes]) -> bytes:
    """SHA-256(secret || values[0] || values[1] || ...)."""
    h = hashlib.sha256(secret)
    for value in values:
        h.update(value)
    return h.digest()


def derive_seed(secret: bytes, values: Sequence[bytes]) -> int:
    """The game's seed: the first 8 bytes of ``seed_digest`` as a big-endian int."""
    return int.from_bytes(seed_digest(secret, values)[:SEED_BYTES], "big")


def seeded_bytes(seed: int, *keys: object) -> bytes:
    """32 bytes that only (seed, keys) decide: a configured seed's stand-in for
    random bytes, so tests and benchmarks replay the same games. Never used when
    no seed is configured."""
    text = ":".join(["lanplay fair play", str(seed), *map(str, keys)]).encode()
    return hashlib.sha256(text).digest()


def from_hex(text: object) -> bytes | None:
    """32 bytes from 64 lower-case hex digits, or None for anything else."""
    if not isinstance(text, str) or not _HEX.fullmatch(text):
        return None
    return bytes.fromhex(text)


@dataclass(frozen=True)
class Fairness:
    """Where one game's seed came from: all a replay needs besides options and log."""

    game: int
    """The game's number in its room (1 for the first)."""
    secret: bytes
    values: tuple[bytes, ...]
    """Every seat's contribution, in seat order."""
    drawn: tuple[int, ...] = ()
    """Seats whose contribution the host drew itself (none came in time)."""

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    @property
    def seed(self) -> int:
        return derive_seed(self.secret, self.values)

    def hex_values(self) -> list[str]:
        return [v.hex() for v in self.values]

    def to_save(self) -> dict[str, object]:
        """As a save file holds it (JSON)."""
        return {"game": self.game, "secret": self.secret.hex(), "values": self.hex_values(),
                "drawn": list(self.drawn)}

    @classmethod
    def from_save(cls, data: object, seats: int) -> Fairness:
        """Read back from a save (untrusted): ValueError with a reason if it is not one."""
        if not isinstance(data, dict):
            raise ValueError("its shuffle record is not a map")
        game, secret = data.get("game"), from_hex(data.get("secret"))
        values = data.get("values")
        drawn = data.get("drawn", [])
        if not isinstance(game, int) or isinstance(game, bool) or game < 1:
            raise ValueError("its shuffle record has no game number")
        if secret is None:
            raise ValueError("its shuffle record has no valid secret")
        if not isinstance(values, list) or len(values) != seats:
            raise ValueError(f"its shuffle record does not hold {seats} contributions")
        parsed = [from_hex(v) for v in values]
        if any(v is None for v in parsed):
            raise ValueError("its shuffle record holds a contribution that is not 32 bytes")
        if not isinstance(drawn, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats
                for s in drawn):
            raise ValueError("its shuffle record names seats that do not exist")
        return cls(game, secret, tuple(v for v in parsed if v is not None),
                   tuple(sorted(set(drawn))))


@dataclass
class Exchange:
    """The host's bookkeeping of one shuffle: the secret, and what each seat sent.

    Pure: the host broadcasts the commitment, hands each Contribution to
    ``offer``, and calls ``close`` once ``complete`` or when the wait is over.
    """

    game: int
    seats: int
    secret: bytes
    values: dict[int, bytes] = field(default_factory=dict)

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    @property
    def complete(self) -> bool:
        return len(self.values) == self.seats

    def missing(self) -> list[int]:
        return [s for s in range(self.seats) if s not in self.values]

    def offer(self, seat: int, game: int, value: str) -> tuple[str, Msg] | None:
        """Take ``seat``'s contribution; (code, reason) when it cannot count."""
        if game != self.game:
            return "late", msg("That contribution is for another game's shuffle.")
        if not 0 <= seat < self.seats:
            return "spectator", msg("Only seated players contribute to the shuffle.")
        if seat in self.values:
            return "duplicate", msg("Your contribution to this shuffle is already in.")
        raw = from_hex(value)
        if raw is None:
            return "malformed", msg("A contribution is 64 lower-case hex digits (32 bytes).")
        self.values[seat] = raw
        return None

    def close(self, draw: Callable[[int], bytes]) -> Fairness:
        """Every seat's value, ``draw(seat)`` for those that sent none."""
        drawn = tuple(self.missing())
        values = tuple(self.values[s] if s in self.values else draw(s)
                       for s in range(self.seats))
        return Fairness(self.game, self.secret, values, drawn)
