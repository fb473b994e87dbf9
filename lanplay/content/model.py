"""The content as values: pictures, questions, topics, cards and the pack holding them.

Frozen, so a game can keep them in its state and a library can hand the same
object to every caller. A picture knows where its image lives (a file in the
package, a pack folder or the picture cache) and reads it only when asked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

Weights = tuple[tuple[str, float], ...]
"""Signed weights per axis: ``(("cuteness", 1.0), ("danger", -1.0))``."""

NEUTRAL = 5
"""The score of an axis a pack author left out: neither high nor low."""


class ContentError(Exception):
    """Content that cannot be used; ``reason`` says why, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Picture:
    id: str
    name: str
    pack: str
    kind: str
    """``svg`` or ``png``: what the bytes are, checked by content, not by name."""
    path: Path
    scores: Mapping[str, float] = field(default_factory=dict, hash=False)
    category: str = ""

    def score(self, axis: str) -> float:
        return self.scores.get(axis, NEUTRAL)

    def data(self) -> bytes:
        return self.path.read_bytes()

    @cached_property
    def sha256(self) -> str:
        """The content hash that names the picture on the wire and in the cache."""
        return hashlib.sha256(self.data()).hexdigest()


@dataclass(frozen=True)
class Question:
    """A Ranking question tile side. ``side`` is red, blue, or "" for either."""

    id: str
    text: str
    weights: Weights
    side: str = ""
    pack: str = ""


@dataclass(frozen=True)
class Topic:
    """An S-tier topic card."""

    id: str
    text: str
    weights: Weights
    pack: str = ""


@dataclass(frozen=True)
class Card:
    """A double-sided S-tier picture card: two picture ids."""

    front: str
    back: str


@dataclass(frozen=True)
class Pack:
    id: str
    name: str
    pictures: tuple[Picture, ...] = ()
    questions: tuple[Question, ...] = ()
    topics: tuple[Topic, ...] = ()
    cards: tuple[Card, ...] = ()
    folder: Path | None = None
    author: str = ""
    description: str = ""

    @property
    def builtin(self) -> bool:
        return self.id == "builtin"

    def picture(self, picture_id: str) -> Picture:
        for picture in self.pictures:
            if picture.id == picture_id:
                return picture
        raise KeyError(f"pack {self.id!r} has no picture {picture_id!r}")
