"""Ranking for a client: its phases, actions and view, as pure data.

docs/GAMES.md is generated from this (``python -m lanplay.tools.gamedoc``), and
tests/test_game_reference.py holds every view and action of seeded play to it.
The shapes are those of ``lanplay.games.shape``.
"""

from __future__ import annotations

from typing import Any

from lanplay.games.shape import LOG, SEAT

SLOT = {"type": "int", "min": 0, "max": 6, "doc": "a slot of the row, 0-6"}
PICTURE = {"type": "str", "doc": "a picture id (the content library's)"}
SEATS: dict[str, Any] = {"type": "list", "items": "int", "doc": "one number per seat"}
ROW_SLOT: dict[str, Any] = {
    "type": "map", "name": "tile",
    "summary": "A picture tile in the row.",
    "fields": {
        "slot": SLOT,
        "picture": PICTURE,
        "name": {"type": "str", "doc": "the picture's name"},
        "floor": {"type": "int", "min": 0, "max": 6, "doc": "its floor on the tower (3 at "
                  "the start)"},
        "stones": {"type": "list", "items": SEAT,
                   "doc": "the guess stones on it, by the colour (seat) they guess"},
        "by": {"type": "list", "items": SEAT,
               "doc": "who put each of `stones` down, in its order"},
        "owner": {**SEAT, "nullable": True,
                  "doc": "whose tile it is: null until the round is scored (and for a "
                         "supply tile)"},
    },
}
ANSWERS = [0, 1, 2, 3, 4, 5, 6, "pass"]
WEIGHTS = {"type": "list", "items": {"type": "tuple", "items": ["str", "float"]},
           "doc": "[axis, weight] pairs the bots judge pictures by"}

MODE: dict[str, Any] = {
    "phases": [
        {"phase": "place", "actors": "every seat that has not placed",
         "actions": ["place", "timeout"],
         "doc": "Everyone slips a tile from their hand into the row at once. When the last "
                "has placed (or the place timer ends it), 7 - n supply tiles join, the row "
                "is shuffled and every tile starts on floor 3."},
        {"phase": "compare", "actors": "the seat in `current`",
         "actions": ["compare"],
         "doc": "The seat to compare pushes one tile up and another on the same floor "
                "(1-5) down."},
        {"phase": "guess", "actors": "every other seat still holding a stone of the "
                                     "comparer's colour, until it answered",
         "actions": ["guess", "pass", "timeout"],
         "doc": "After each comparison the others may put a stone of the comparer's colour "
                "on the tile they think is the comparer's. Answers stay hidden until all "
                "are in. Skipped when nobody holds such a stone. The round ends after the "
                "comparison that leaves a tile on floor 6 and one on floor 0 (its guesses "
                "still run): then it is scored and the next round's `place` begins."},
    ],
    "phase_key": "phase",
    "actions": {
        "place": {
            "doc": "Place one tile of your hand into this round's row.",
            "by": "a seat that has not placed", "sender": "seat",
            "fields": {"tile": {**PICTURE, "doc": "a tile in your hand (its `id`)"}},
        },
        "compare": {
            "doc": "Rate the tile in slot `up` above the tile in slot `down`: one floor up, "
                   "the other one floor down.",
            "by": "the seat in `current`", "sender": "seat",
            "fields": {"up": {**SLOT, "doc": "the slot that rises"},
                       "down": {**SLOT, "doc": "another slot on the same floor, 1-5, that "
                                "sinks"}},
        },
        "guess": {
            "doc": "Put a stone of the comparer's colour on the slot you think is theirs "
                   "(your own tile included).",
            "by": "a guessing seat", "sender": "seat",
            "fields": {"slot": SLOT,
                       "step": {"type": "int", "min": 1,
                                "doc": "the view's `step`: an answer naming an older step is "
                                       "refused (late answers cannot land on the next "
                                       "comparison)"}},
            "optional": ["step"],
        },
        "pass": {
            "doc": "Do not guess this time.",
            "by": "a guessing seat", "sender": "seat",
            "fields": {"step": {"type": "int", "min": 1, "doc": "as for `guess`"}},
            "optional": ["step"],
        },
        "timeout": {
            "doc": "The host's clock ends a wait.",
            "by": "the host, as its timer fires", "sender": "host",
            "forms": [
                {"doc": "Place: a tile drawn at random from each late seat's hand is placed "
                        "for it.",
                 "fields": {"round": {"type": "int", "min": 1, "doc": "the round"},
                            "phase": {"type": "str", "enum": ["place"]}}},
                {"doc": "Guess: missing answers count as passes.",
                 "fields": {"step": {"type": "int", "min": 1, "doc": "the guess step"}}},
            ],
        },
    },
    "timers": [
        {"phase": "place", "key": "place-<round>", "seconds": "option `place_seconds` "
         "(default 0: no timer)", "action": "timeout"},
        {"phase": "guess", "key": "guess-<step>", "seconds": "option `guess_seconds` "
         "(default 30; 0: no timer)", "action": "timeout"},
    ],
    "view": {
        "type": "map",
        "fields": {
            "game": {"type": "str", "enum": ["ranking"]},
            "you": {**SEAT, "nullable": True, "doc": "your seat; null for a spectator"},
            "players": {"type": "int", "min": 3, "max": 5},
            "round": {"type": "int", "min": 1},
            "phase": {"type": "str", "enum": ["place", "compare", "guess", "over"]},
            "actors": {"type": "list", "items": SEAT, "doc": "the seats that may act now"},
            "starter": {**SEAT, "doc": "who started this round"},
            "current": {**SEAT, "doc": "the seat that compares (or compared last)"},
            "question": {
                "type": "map", "doc": "this round's question",
                "fields": {"id": "str", "text": {"type": "str", "doc": "e.g. \"What is "
                                                                       "hotter?\""},
                           "side": {"type": "str", "enum": ["red", "blue"]},
                           "weights": WEIGHTS},
            },
            "row": {"type": "list", "items": ROW_SLOT, "max_items": 7,
                    "doc": "the 7 tiles of this round by slot; [] while tiles are placed"},
            "previous_row": {"type": "list", "items": ROW_SLOT, "max_items": 7,
                             "doc": "the row just scored, owners shown, until the next row "
                                    "is laid"},
            "mine": {**SLOT, "nullable": True, "doc": "the slot of your own tile"},
            "hand": {"type": "list", "items": {
                "type": "map", "fields": {"id": PICTURE, "name": "str"}},
                "doc": "your hand of picture tiles; [] for a spectator (others' are hidden)"},
            "hand_counts": {**SEATS, "doc": "how many tiles each seat holds"},
            "placed": {**PICTURE, "nullable": True,
                       "doc": "the tile you placed this round (phase place)"},
            "answered": {"type": "list", "items": "bool",
                         "doc": "per seat: has it placed (place) or answered (guess); only "
                                "that, never what"},
            "guess": {"type": "any", "nullable": True, "enum": ANSWERS,
                      "doc": "your own answer in this guess step: a slot or \"pass\""},
            "guess_for": {**SEAT, "nullable": True, "doc": "whose tile is being guessed"},
            "stones_left": {"type": "list", "items": {"type": "list", "items": "int"},
                            "doc": "per seat, its guess stones left of each colour (seat)"},
            "scores": {**SEATS, "doc": "totals on the track (15 is out: the goal)"},
            "supply": {"type": "int", "min": 0, "doc": "tiles left in the supply (hidden)"},
            "step": {"type": "int", "min": 0, "doc": "the guess step, counted over the game"},
            "compares": {"type": "int", "min": 0, "doc": "comparisons this round"},
            "log": LOG,
            "last": {
                "type": "tagged", "tag": "kind", "nullable": True,
                "doc": "the most recent public event, for the table to animate",
                "cases": {
                    "compare": {"type": "map", "doc": "a comparison",
                                "fields": {"kind": {"type": "str", "enum": ["compare"]},
                                           "seat": SEAT, "up": SLOT, "down": SLOT}},
                    "guesses": {"type": "map", "doc": "every answer of a guess step, shown "
                                "once all are in",
                                "fields": {"kind": {"type": "str", "enum": ["guesses"]},
                                           "for": {**SEAT, "doc": "whose tile was guessed"},
                                           "slots": {"type": "dict", "keys": "seat (as str)",
                                                     "values": {"type": "any",
                                                                "enum": ANSWERS},
                                                     "doc": "each guesser's slot or "
                                                            "\"pass\""}}},
                    "score": {"type": "map", "doc": "a round scored",
                              "fields": {"kind": {"type": "str", "enum": ["score"]},
                                         "round": {"type": "int", "min": 1},
                                         "gains": {**SEATS, "doc": "points per seat"},
                                         "owners": {"type": "list",
                                                    "items": {**SEAT, "nullable": True},
                                                    "doc": "the owner of each slot (null: "
                                                           "supply)"}}},
                },
            },
            "over": {"type": "bool"},
            "winners": {"type": "list", "items": SEAT, "nullable": True,
                        "doc": "the winning seats (ties share), once over"},
            "final": {**SEATS, "nullable": True, "doc": "the final scores, once over"},
        },
    },
    "hidden": [
        "Hands (each seat sees its own `hand`), the supply and the question bag.",
        "Which tile is whose until the round is scored: `owner` is null, only `mine` shows "
        "your own.",
        "Others' pending guesses: `answered` shows only that a seat answered; the stones "
        "appear when every answer is in.",
    ],
}

SCHEMA: dict[str, Any] = {
    "game": "ranking",
    "about": "Placing and guessing are simultaneous and order-independent (an intent made "
             "against an older `state_id` is still taken); comparing is one seat at a time.",
    "modes": {"standard": MODE},
}

__all__ = ["SCHEMA"]
