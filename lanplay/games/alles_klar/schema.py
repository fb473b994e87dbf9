"""Alles klar? for a client: its phases, actions and view, as pure data.

docs/GAMES.md is generated from this (``python -m lanplay.tools.gamedoc``), and
tests/test_game_reference.py holds every view and action of seeded play to it.
The shapes are those of ``lanplay.games.shape``.
"""

from __future__ import annotations

from typing import Any

from lanplay.games.shape import LOG, SEAT

SEATS: dict[str, Any] = {"type": "list", "items": "int", "doc": "one number per seat"}
CARD_ID = {"type": "int", "min": 0, "max": 76,
           "doc": "id = 11 * set + (value - 1); sets 0-4 carry numeral I-V, set 5 none, set 6 "
                  "two numerals"}
CARD: dict[str, Any] = {
    "type": "map", "name": "card",
    "summary": "A card: everything about it is in its id, repeated here for convenience.",
    "fields": {
        "id": CARD_ID,
        "value": {"type": "int", "min": 1, "max": 11, "doc": "the number on the card"},
        "numerals": {"type": "list", "items": {"type": "int", "min": 1, "max": 5},
                     "max_items": 2, "doc": "the Roman numerals on it (1 = I .. 5 = V)"},
    },
}
TABLE_CARD: dict[str, Any] = {
    **CARD, "name": "table card", "summary": "A card in the current trick, in play order.",
    "fields": {**CARD["fields"],
               "up": {"type": "bool", "doc": "face up (false: turned down by a later card "
                      "of the same value; still known to all)"}},
}

MODE: dict[str, Any] = {
    "phases": [
        {"phase": "play", "actors": "the seat in `turn`",
         "actions": ["play"],
         "doc": "Trick after trick: the seat to play lays a card; when the trick is decided "
                "or blind, the next one starts. There is no phase key in the view: the game "
                "is in `play` until `over`."},
    ],
    "phase_key": None,
    "actions": {
        "play": {
            "doc": "Play a card from your hand. Name `numeral` when the card turns down a "
                   "ranking card: a card with one numeral still up may leave it out, a card "
                   "with two numerals up must choose one.",
            "by": "the seat in `turn`",
            "sender": "seat",
            "fields": {
                "card": {**CARD_ID, "doc": "a card in your hand (its `id`)"},
                "numeral": {"type": "int", "min": 1, "max": 5,
                            "doc": "the ranking card this card turns down (1 = I .. 5 = V): "
                                   "one of its numerals that is still up"},
            },
            "optional": ["numeral"],
        },
    },
    "timers": [],
    "view": {
        "type": "map",
        "fields": {
            "game": {"type": "str", "enum": ["alles-klar"]},
            "players": {"type": "int", "min": 2, "max": 5},
            "you": {**SEAT, "nullable": True, "doc": "your seat; null for a spectator"},
            "end_rule": {"type": "str", "enum": ["finish-trick", "empty-hands"],
                         "doc": "the host's option: what happens when the draw pile is empty"},
            "turn": {**SEAT, "nullable": True, "doc": "the seat to play; null once over"},
            "leader": {**SEAT, "doc": "the seat that led the current trick"},
            "trick": {"type": "int", "min": 1, "doc": "the trick's number, from 1"},
            "hand": {"type": "list", "items": CARD,
                     "doc": "your own hand; [] for a spectator (others' hands are hidden)"},
            "hand_counts": {**SEATS, "doc": "how many cards each seat holds"},
            "table": {"type": "list", "items": {"type": "list", "items": TABLE_CARD},
                      "doc": "per seat, the cards it played into the current trick"},
            "ranking": {"type": "list", "items": "bool", "min_items": 5, "max_items": 5,
                        "doc": "ranking cards I..V: true while face up"},
            "pile": {"type": "int", "min": 0, "doc": "cards left in the draw pile (hidden)"},
            "won": {**SEATS, "doc": "cards each seat has won"},
            "removed": {"type": "int", "min": 0, "doc": "cards that left the game in blind "
                        "tricks"},
            "log": LOG,
            "last": {
                "type": "map", "nullable": True,
                "doc": "the most recent play, for the table to animate; null before the first",
                "fields": {
                    "seat": {**SEAT, "doc": "who played"},
                    "card": {**CARD, "doc": "the card played"},
                    "turned": {"type": "int", "min": 1, "max": 5, "nullable": True,
                               "doc": "the ranking card it turned down"},
                    "covered": {**CARD_ID, "nullable": True,
                                "doc": "the earlier card of the same value it turned face down"},
                    "result": {"type": "str", "enum": ["open", "won", "blind"],
                               "doc": "how the trick stands after it"},
                    "winner": {**SEAT, "nullable": True, "doc": "who took the trick (won)"},
                },
            },
            "over": {"type": "bool"},
            "scores": {**SEATS, "nullable": True, "doc": "cards won per seat, once over"},
            "winners": {"type": "list", "items": SEAT, "nullable": True,
                        "doc": "the winning seats (ties share), once over"},
        },
    },
    "hidden": [
        "Other seats' hands and the order of the draw pile: a seat sees only its own `hand`, "
        "and counts for the rest.",
        "Cards turned face down on the table stay in the view (everyone saw them face up).",
    ],
}

SCHEMA: dict[str, Any] = {
    "game": "alles-klar",
    "about": "No timers, nothing simultaneous: one seat acts at a time.",
    "modes": {"standard": MODE},
}

__all__ = ["SCHEMA"]
