"""Ranking Top for a client: its phases, actions and view, as pure data.

docs/GAMES.md is generated from this (``python -m lanplay.tools.gamedoc``), and
tests/test_game_reference.py holds every view and action of seeded play to it.
The shapes are those of ``lanplay.games.shape``.
"""

from __future__ import annotations

from typing import Any

from lanplay.games.shape import LOG, MESSAGE, SEAT

CARD_ID = {"type": "int", "min": 0, "max": 93,
           "doc": "song cards 0-79 (song = id // 10, number = id % 10 // 2 + 1), Top cards "
                  "80-88, Primordial Rules 89-93"}
SEATS: dict[str, Any] = {"type": "list", "items": "int", "doc": "one number per seat"}
NUMBER = {"type": "int", "min": 1, "max": 5}
CARD: dict[str, Any] = {
    "type": "map", "name": "card",
    "summary": "A card, with its texts so a table can show it from the view alone.",
    "fields": {
        "id": CARD_ID,
        "song": {"type": "int", "min": 0, "max": 7, "nullable": True,
                 "doc": "the song (0-7); null for Top and Primordial Rule cards"},
        "number": {**NUMBER, "nullable": True, "doc": "a song card's number"},
        "kind": {"type": "str", "enum": ["song", "top", "primordial"]},
        "title": "str", "artist": "str",
        "effect": {"type": "str", "doc": "what the card does, in English (the content "
                   "catalogue says it under `ranking-top:effect:<song>`, `...:top` and "
                   "`...:primordial`)"},
    },
}
WINDOW = {"type": "int", "min": 1, "doc": "the open window's number (the view's `window`)"}
TO = {"type": "str", "enum": ["top", "discard"],
      "doc": "into your Ranking Top, or onto the discard pile"}
EVENT_KINDS = ["play", "top", "pass", "close", "keep"]

MODE: dict[str, Any] = {
    "phases": [
        {"phase": "turn", "actors": "the seat in `current`", "actions": ["play"],
         "doc": "The seat to move plays a card into its Ranking Top (the number it needs "
                "next, `needed`, or a Primordial Rule) or onto the discard pile. A play that "
                "can be topped opens a window."},
        {"phase": "window", "actors": "every seat but the owner of the chain's last card "
                                      "that has not passed",
         "actions": ["top", "pass", "timeout"],
         "doc": "Window k is open on the chain's last card: each eligible seat tops it with "
                "a card from `can_top` or passes. A top opens window k+1. The window closes "
                "when every eligible seat passed or its timer ran out; then an even number "
                "of tops leaves the play standing, an odd number cancels it."},
        {"phase": "again", "actors": "the seat in `current`", "actions": ["play"],
         "doc": "After Objeción Denegada or Diente blanco: the same seat plays one more "
                "card (`again` says which)."},
        {"phase": "keep", "actors": "the seat in `current`", "actions": ["keep"],
         "doc": "After El Dinosaurio Anacleto: the seat keeps one card, discards the rest "
                "and draws 4."},
    ],
    "phase_key": "phase",
    "actions": {
        "play": {
            "doc": "Play a card from your hand.",
            "by": "the seat in `current`", "sender": "seat",
            "fields": {"card": {**CARD_ID, "doc": "a card in your hand"},
                       "to": {**TO, "doc": "\"top\" only with a card of `can_rank`"}},
        },
        "top": {
            "doc": "Top the chain's last card with a card of your hand (one of `can_top`).",
            "by": "an eligible seat in an open window", "sender": "seat",
            "fields": {"card": {**CARD_ID, "doc": "a card of `can_top`"}, "window": WINDOW},
        },
        "pass": {
            "doc": "Let the chain's last card be.",
            "by": "an eligible seat in an open window", "sender": "seat",
            "fields": {"window": WINDOW},
        },
        "keep": {
            "doc": "The one card to keep (El Dinosaurio Anacleto).",
            "by": "the seat in `current`", "sender": "seat",
            "fields": {"card": {**CARD_ID, "doc": "a card in your hand"}},
        },
        "timeout": {
            "doc": "The host's clock closes the window: those who did not answer pass.",
            "by": "the host, as its timer fires", "sender": "host",
            "fields": {"window": WINDOW},
        },
    },
    "timers": [
        {"phase": "window", "key": "window-<window>",
         "seconds": "option `top_seconds` (default 4; 0: no timer, the window waits for "
                    "every pass)", "action": "timeout"},
    ],
    "view": {
        "type": "map",
        "fields": {
            "game": {"type": "str", "enum": ["ranking-top"]},
            "you": {**SEAT, "nullable": True, "doc": "your seat; null for a spectator"},
            "players": {"type": "int", "min": 3, "max": 5},
            "phase": {"type": "str", "enum": ["turn", "window", "again", "keep", "over"]},
            "actors": {"type": "list", "items": SEAT, "doc": "the seats that may act now"},
            "current": {**SEAT, "doc": "the seat whose turn it is"},
            "direction": {"type": "int", "enum": [1, -1],
                          "doc": "1 clockwise, -1 counter-clockwise"},
            "hand_size": {"type": "int", "min": 3, "max": 5,
                          "doc": "the hand a turn draws up to"},
            "needed": {**SEATS, "doc": "per seat, the number its Ranking Top needs next "
                       "(5 down to 1; 0 when complete)"},
            "hand": {"type": "list", "items": CARD,
                     "doc": "your own hand; [] for a spectator (others' are hidden)"},
            "hand_counts": {**SEATS, "doc": "how many cards each seat holds"},
            "deck": {"type": "int", "min": 0, "doc": "cards left to draw (hidden)"},
            "discard": {"type": "list", "items": CARD, "max_items": 5,
                        "doc": "the top cards of the discard pile, the top one last"},
            "discard_count": {"type": "int", "min": 0},
            "ranking": {"type": "list",
                        "items": {"type": "list", "items": {
                            **CARD, "name": "ranked card",
                            "summary": "A card in a Ranking Top.",
                            "fields": {**CARD["fields"], "stands": {
                                **NUMBER, "doc": "the number it stands for"}}}},
                        "doc": "per seat, its Ranking Top, 5 first"},
            "chain": {"type": "list", "doc": "the contested play and the tops on it, in "
                      "order, while a window is open",
                      "items": {"type": "map", "fields": {
                          "card": CARD, "seat": SEAT,
                          "to": {**TO, "nullable": True, "doc": "the play's destination; "
                                 "null for a top"},
                          "stands": {**NUMBER, "nullable": True,
                                     "doc": "the number it counts as for topping; null for "
                                            "a Top card or a Primordial Rule that tops"}}}},
            "window": {"type": "int", "min": 0,
                       "doc": "the number of the last window opened (counted over the game)"},
            "passed": {"type": "list", "items": "bool",
                       "doc": "per seat, whether it passed in the open window"},
            "standing": {"type": "bool", "nullable": True,
                         "doc": "in a window: whether the play would stand if it closed now"},
            "again": {"type": "str", "enum": ["objecion", "diente"], "nullable": True,
                      "doc": "why the seat plays again (phase again)"},
            "can_top": {"type": "list", "items": CARD_ID,
                        "doc": "your cards that may top the chain's last card now"},
            "can_rank": {"type": "list", "items": CARD_ID,
                         "doc": "your cards that may go into your Ranking Top now"},
            "reshuffles": {"type": "int", "min": 0},
            "log": LOG,
            "last": {
                "type": "map", "nullable": True,
                "doc": "the most recent public event, every key always present (null where "
                       "it does not apply)",
                "fields": {
                    "kind": {"type": "str", "enum": EVENT_KINDS,
                             "doc": "play, top, pass, close (a window closed and the chain "
                                    "resolved) or keep"},
                    "seat": {**SEAT, "nullable": True},
                    "card": {**CARD, "nullable": True},
                    "to": {**TO, "nullable": True},
                    "stands": {**NUMBER, "nullable": True},
                    "protected": {"type": "bool", "doc": "played through Objeción Denegada: "
                                  "cannot be topped"},
                    "window": {"type": "int", "min": 1, "nullable": True},
                    "timeout": {"type": "bool", "doc": "close: the timer closed it"},
                    "tops": {"type": "int", "min": 0, "nullable": True,
                             "doc": "close: how many tops the chain had"},
                    "effective": {"type": "bool", "nullable": True,
                                  "doc": "close: whether the play stood"},
                    "discarded": {"type": "list", "items": CARD,
                                  "doc": "close, keep: the cards that went to the discard pile"},
                    "effect": {**MESSAGE, "nullable": True,
                               "doc": "what the play's effect did, as a message"},
                },
            },
            "over": {"type": "bool"},
            "winners": {"type": "list", "items": SEAT, "nullable": True,
                        "doc": "the winning seat, once over"},
            "scores": {**SEATS, "nullable": True,
                       "doc": "cards in each Ranking Top, once over"},
        },
    },
    "hidden": [
        "Other seats' hands and the draw order: a seat sees its own `hand`, `can_top` and "
        "`can_rank`, and counts for the rest.",
        "Everything discarded is public (the view shows the top 5 and the count).",
    ],
}

SCHEMA: dict[str, Any] = {
    "game": "ranking-top",
    "about": "Passes in a window are order-independent (they name the window); a top and "
             "a play never are.",
    "modes": {"standard": MODE},
}

__all__ = ["SCHEMA"]
