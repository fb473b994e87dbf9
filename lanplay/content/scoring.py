"""How a bot judges pictures: the picture's axis scores against what is asked, plus noise.

A bot that always agreed with the score table would be predictable and
dull; a little Gaussian noise makes it disagree with itself on close calls
while still putting a diamond above a sock when asked what is more valuable.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from lanplay.content import in_play
from lanplay.content.axes import fit
from lanplay.content.library import Library
from lanplay.content.model import Picture, Question, Topic

NOISE = 1.0
"""Standard deviation of the noise, on the 0-10 scale."""


def bot_score(picture: str | Picture, about: str | Question | Topic | Sequence[Any],
              rng: random.Random, *, library: Library | None = None,
              noise: float = NOISE) -> float:
    """How well ``picture`` answers ``about`` for a bot: higher fits better.

    ``picture`` and ``about`` may be objects or ids looked up in ``library``
    (default: the content in play, ``in_play.current()``); ``about`` may also
    be the weights themselves, as a game's view carries them. A picture this
    process does not know (a pack still arriving) scores neutral, so a bot
    still plays. Roughly 0-10; noise may push it outside.
    """
    lib = library or in_play.current()
    if isinstance(picture, str):
        found = lib.pictures.get(picture)
        scores = found.scores if found is not None else {}
    else:
        scores = picture.scores
    if isinstance(about, str):
        weights = lib.about(about).weights
    elif isinstance(about, Question | Topic):
        weights = about.weights
    else:
        weights = tuple((str(pair[0]), float(pair[1])) for pair in about)
    return fit(scores, weights) + rng.gauss(0.0, noise)


def bot_order(pictures: list[str], about: str | Question | Topic | Sequence[Any],
              rng: random.Random,
              *, library: Library | None = None, noise: float = NOISE) -> list[str]:
    """``pictures`` from the best fit to the worst, as one bot sees them today."""
    scored = [(bot_score(p, about, rng, library=library, noise=noise), p) for p in pictures]
    return [p for _, p in sorted(scored, key=lambda pair: -pair[0])]
