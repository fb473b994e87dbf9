"""What a table teaches, for the window and the browser page alike: the first-turn tours
(a few steps, each pointing at a piece of the table) and the rules help (F1, "Rules").

One source: the window's tour (``ui.tables.teach``) and the page's (``/teaching.json``,
``lanplay.web.assets``) read these steps, and the same help files. The step texts are
keys of the ``lanplay`` catalogue (marked ``N_``), which the window renders with
``lanplay.messages.render`` and the page with its own ``render`` (the host serves that
catalogue to it), so a step reads the same in both, in English, German and Spanish.
They name no device: "choose", not "click" or "tap"; the keys show on the pieces.

A step's spot is a key each table names its pieces by: the window's tables answer
``teach_spot(key)`` with a rect, the page's tables with an element (``SPOTS``).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

from lanplay.locale import help_path
from lanplay.messages import N_

Step = tuple[str, str]
"""(where it points: a table's spot key, what it says: English, a ``lanplay`` key)."""

SPOT_KEYS = ("hand", "ranking", "tower", "plates", "chart", "stage", "board", "pool")
"""Every spot a step may point at (a table names those it has)."""

STEPS: dict[str, tuple[Step, ...]] = {
    "alles-klar": (
        ("hand", N_("This is your hand. On your turn one card goes to the middle.")),
        ("ranking", N_("The ranking cards I to V decide the trick: when one is left face "
                       "up, say IV, the 4th highest card wins once 4 cards lie open.")),
        ("hand", N_("A card with a numeral turns that ranking card face down. The lit "
                    "cards are the ones you may play now.")),
    ),
    "ranking": (
        ("hand", N_("This is your hand. Each round you slip one picture into the row, "
                    "face down: nobody knows which is yours.")),
        ("tower", N_("The tower: on your turn pick two pictures on one floor; one goes "
                     "up, the other down, as the question says.")),
        ("plates", N_("After each comparison the others may bet with a guess stone whose "
                      "picture it was. High floors score; stones on your own cost you.")),
    ),
    "ranking-top": (
        ("hand", N_("This is your hand. Choose a card, then where it goes.")),
        ("chart", N_("Your Ranking Top: fill it 5, 4, 3, 2, 1, each place with a card of "
                     "that number. Complete it with a 1 to win.")),
        ("stage", N_("Every play can be topped: with the same number or a Top card, "
                     "within a few seconds: TOP! or Pass.")),
    ),
    "s-tier/cooperative": (
        ("board", N_("The tier list, S (best) to D. The leader secretly wrote which picture "
                     "belongs in which tier for the topic above it.")),
        ("pool", N_("Together, put each picture on a tier: choose it, then the tier. One "
                    "picture per tier.")),
        ("board", N_("When all is placed, lock in. Three or more right move the green token "
                     "towards the star, fewer the red one; green there first: you all "
                     "win.")),
    ),
    "s-tier/competitive": (
        ("board", N_("The tier list, S (best) to D. The leader secretly wrote where each "
                     "picture belongs for the topic above it.")),
        ("pool", N_("You get one picture: put it on the tier where you think the leader "
                    "wrote it.")),
        ("board", N_("Right: you keep the picture as a point; if at least half are right, "
                     "the leader scores too. Everyone leads once.")),
    ),
    "s-tier/team": (
        ("board", N_("Two teams, a leader each: both leaders secretly wrote where their "
                     "five pictures belong for the topic above.")),
        ("pool", N_("Teams take turns: take any picture, even the other leader's, and put "
                    "it on your team's side where you think it belongs.")),
        ("board", N_("Right pictures score for your team; the team with more moves towards "
                     "the star. Once a round a leader may say \u201cWrong\u201d.")),
    ),
    "ranagedon": (
        ("board", N_("The table: land your frogs on the golden lily pad and on other frogs "
                     "to score.")),
        ("board", N_("Choose one of your lit frogs and pull back from it like a slingshot: "
                     "it jumps the other way, farther the farther you pull.")),
        ("plates", N_("The scores, and under them the list of what each frog can do "
                      "(its colour or its border tells which).")),
    ),
}
"""Three steps a game (S-tier's modes each their own), in the order of a first turn."""


def tour_key(game: str, mode: object) -> str:
    """The tour for ``game`` played in ``mode``: its mode's own where it has one (S-tier's
    three modes are three different games to learn), else the game's."""
    key = f"{game}/{mode}"
    return key if key in STEPS else game


def tours() -> dict[str, Any]:
    """Every tour as the page reads it (``/teaching.json``): key -> [[spot, text], ...]."""
    return {key: [list(step) for step in steps] for key, steps in STEPS.items()}


_COMMENT = re.compile(r"\A(\s*<!--.*?-->\s*)+", re.DOTALL)


def rules_text(game_id: str, lang: str) -> str:
    """The game's rules help (markdown) in ``lang``, English where there is no
    translation; the translation's note of what it was translated from left out."""
    from lanplay import games

    entry = games.entry(game_id)
    if entry.module is None:
        return ""
    module = importlib.import_module(entry.module)
    where = Path(module.__file__ or "").parent
    try:
        text = help_path(where, lang).read_text(encoding="utf-8")
    except OSError:
        return str(games.load(game_id).rules_help)
    return _COMMENT.sub("", text)


__all__ = ["SPOT_KEYS", "STEPS", "Step", "rules_text", "tour_key", "tours"]
