"""Seeded randomness kept as data: a stream is named by (seed, keys).

States store the game seed plus whatever counter they need, never a live
generator, so a state stays an immutable value and replaying (seed, actions)
draws the same numbers on every machine and Python version: only
``random()``-based draws from a SHA-256-seeded ``Random`` are used.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def stream(seed: int, *keys: object) -> random.Random:
    """An independent generator for (seed, *keys)."""
    text = ":".join([str(seed), *map(str, keys)]).encode()
    return random.Random(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """Fisher-Yates using only ``rng.random()`` (stable across Python versions)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def choice_index(n: int, rng: random.Random) -> int:
    """A uniform index in range(n) from ``rng.random()`` alone."""
    return min(int(rng.random() * n), n - 1)


def varied(seconds: float, rng: random.Random, by: float = 0.2) -> float:
    """``seconds`` varied by the fraction ``by`` either way (0 stays 0): a bot's
    human pace, drawn from a stream of its own so its choices do not change."""
    return seconds * rng.uniform(1 - by, 1 + by) if seconds > 0 else 0.0
