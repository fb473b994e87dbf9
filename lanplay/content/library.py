"""The library a game draws from: the built-in pack plus any custom packs in play.

Ranking needs a question bag for the chosen side and 120 picture tiles;
S-tier needs topics and 70 double-sided cards. All draws are seeded, so the
same seed and packs give the same components on every machine.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from pathlib import Path

from lanplay import rng
from lanplay.content.model import Card, Pack, Picture, Question, Topic
from lanplay.content.packs import Discovery, discover, load_manifest

BUILTIN_DIR = Path(__file__).resolve().parent
BUILTIN_MANIFEST = BUILTIN_DIR / "builtin.json"
RANKING_TILES = 120
STIER_CARDS = 70
SIDES = ("red", "blue")


@functools.cache
def builtin() -> Pack:
    """The pictures, questions and topics that ship with lanplay.

    Its files are checked by the tests rather than on every load: they are
    part of the package, not something a user dropped in.
    """
    return load_manifest(BUILTIN_MANIFEST, default_id="builtin", check_files=False,
                         namespaced=False)


class Library:
    """Several packs seen as one: look-ups by id, and the components of a game."""

    def __init__(self, packs: Iterable[Pack]) -> None:
        self.packs: tuple[Pack, ...] = tuple(packs)
        self.pictures: dict[str, Picture] = {}
        self.questions: dict[str, Question] = {}
        self.topics: dict[str, Topic] = {}
        for pack in self.packs:
            for picture in pack.pictures:
                self.pictures.setdefault(picture.id, picture)
            for question in pack.questions:
                self.questions.setdefault(question.id, question)
            for topic in pack.topics:
                self.topics.setdefault(topic.id, topic)

    def picture(self, picture_id: str) -> Picture:
        try:
            return self.pictures[picture_id]
        except KeyError:
            raise KeyError(f"no picture {picture_id!r} in the packs in play") from None

    def about(self, item_id: str) -> Question | Topic:
        """The question or topic with this id."""
        found = self.questions.get(item_id) or self.topics.get(item_id)
        if found is None:
            raise KeyError(f"no question or topic {item_id!r} in the packs in play")
        return found

    def custom(self) -> list[Pack]:
        return [p for p in self.packs if not p.builtin]

    # --- Ranking -----------------------------------------------------------------

    def ranking_questions(self, side: str) -> list[Question]:
        """The bag for one side: the custom packs' questions first, then the built-in 46."""
        if side not in SIDES:
            raise ValueError(f"side must be 'red' or 'blue', not {side!r}")
        mine = [q for p in self.custom() for q in p.questions if q.side in (side, "")]
        return mine + [q for q in builtin().questions if q.side == side]

    def ranking_tiles(self, seed: int, count: int = RANKING_TILES) -> list[str]:
        """``count`` picture ids: every custom picture, filled up from the built-in ones.

        A group brings a pack to see its pictures, so they all go in (up to
        ``count``); the rest are a seeded sample of the built-in library.
        """
        draw = rng.stream(seed, "content", "ranking-tiles")
        mine = [p.id for pack in self.custom() for p in pack.pictures]
        tiles = rng.shuffled(mine, draw)[:count]
        taken = set(tiles)
        base = [p.id for p in builtin().pictures if p.id not in taken]
        tiles += rng.shuffled(base, draw)[:count - len(tiles)]
        return rng.shuffled(tiles, draw)

    # --- S-tier ------------------------------------------------------------------

    def stier_topics(self) -> list[Topic]:
        """Every topic in play: the custom packs' first, then the built-in ones."""
        return [t for p in self.custom() for t in p.topics] + list(builtin().topics)

    def stier_cards(self, seed: int, count: int = STIER_CARDS) -> list[Card]:
        """A shuffled deck: every custom card, filled up to ``count`` with built-in ones."""
        draw = rng.stream(seed, "content", "stier-cards")
        mine = [c for p in self.custom() for c in p.cards]
        base = rng.shuffled(list(builtin().cards), draw)
        return rng.shuffled(mine + base[:max(0, count - len(mine))], draw)


def library(pack_ids: Sequence[str] = (), found: Discovery | None = None) -> Library:
    """The built-in pack plus the named custom packs (KeyError naming a missing one)."""
    if not pack_ids:
        return default_library()
    found = discover() if found is None else found
    return Library([builtin(), *(found.pack(i) for i in pack_ids)])


@functools.cache
def default_library() -> Library:
    return Library([builtin()])
