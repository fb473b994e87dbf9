"""Ranagedon for a client: its phases, actions and view, as pure data.

docs/GAMES.md is generated from this (``python -m lanplay.tools.gamedoc``), and
tests/test_game_reference.py holds every view and action of seeded play to it.
The shapes are those of ``lanplay.games.shape``.
"""

from __future__ import annotations

from typing import Any

from lanplay.games.shape import LOG, SEAT

FROG_ID = {"type": "int", "min": 0, "max": 17,
           "doc": "0-8 green, 9-17 red; within a colour the borders go blue, magenta, "
                  "yellow in threes"}
MM = {"type": "float", "doc": "mm on the table (x right, y down; the pad's centre is at "
                              "400, 400)"}
POINT = {"type": "tuple", "items": [MM, MM], "doc": "[x, y] in mm"}
CMM3 = {"type": "tuple", "items": ["int", "int", "int"],
        "doc": "[x, y, height] in hundredths of a mm"}
SEATS: dict[str, Any] = {"type": "list", "items": "int", "doc": "one number per seat"}
SIDE = {"type": "int", "min": 0, "max": 2, "doc": "a side: 2 players 0-1 (green, red), 3 "
                                                  "players 0-2 (by border), 4 players the two "
                                                  "teams 0-1"}
ABILITY = {"type": "str", "enum": ["double", "dive", "poison"], "nullable": True}
THETA = {"type": "number", "doc": "where you press the frog's border: an angle in radians "
                                  "from the x axis towards y (any finite number; the frog "
                                  "leaves the opposite way)"}
STRENGTH = {"type": "number", "min": 0, "max": 1, "doc": "how hard: 0 to 1"}
PRESS = {"type": "number", "min": 11.0, "max": 16.0,
         "doc": "how far from the frog's centre you press: on the coloured border, 11 to 16 "
                "mm"}
POSITION: dict[str, Any] = {
    "type": "map", "name": "position",
    "summary": "Where a frog lies now.",
    "fields": {"id": FROG_ID, "x": MM, "y": MM,
               "level": {"type": "int", "min": 0, "doc": "0 on the table, 1 on a frog ..."},
               "supports": {"type": "list", "items": FROG_ID,
                            "doc": "the frogs it rests on"}},
}
OUTCOMES = ["deployed", "landed", "stacked", "flipped", "poisoned", "off_table",
            "dive_touched", "dive_clear"]

MODE: dict[str, Any] = {
    "phases": [
        {"phase": "deploy", "actors": "every seat whose side has not deployed",
         "actions": ["deploy", "timeout"],
         "doc": "Every side deploys its frogs at once, in its own sector around the pad: a "
                "suggested cluster or its own formation. In 4 players either partner "
                "deploys for the team. The first side to deploy begins."},
        {"phase": "jump", "actors": "the seat in `turn`", "actions": ["jump", "dive"],
         "doc": "The seat to move jumps one free frog of its side (or, a diving frog, hits "
                "it to slide)."},
        {"phase": "again", "actors": "the seat in `turn`", "actions": ["jump", "stop"],
         "doc": "After a double jumper landed, or a dive touched nothing: the frog in "
                "`again` may jump once more, or the seat stops."},
    ],
    "phase_key": "phase",
    "actions": {
        "deploy": {
            "doc": "Deploy your side's frogs.",
            "by": "a seat whose side has not deployed", "sender": "seat",
            "forms": [
                {"doc": "A suggested cluster (the view's `clusters`).",
                 "fields": {"cluster": {"type": "int", "min": 0, "max": 2,
                                        "doc": "0 Block, 1 Line, 2 Wedge"}}},
                {"doc": "Your own formation.",
                 "fields": {"frogs": {"type": "list", "items": {
                     "type": "tuple", "items": ["number", "number"]},
                     "doc": "[x, y] in mm for each of your side's frogs, in id order, by "
                            "the deployment rules (the `formation` choice)"}}},
            ],
        },
        "jump": {
            "doc": "Press a free frog of your side to make it jump. Where it lands is "
                   "decided by the host (seeded scatter) and shown in `last`.",
            "by": "the seat in `turn`", "sender": "seat",
            "fields": {"frog": {**FROG_ID, "doc": "a free frog of your side (in phase "
                                "again, the frog in `again`)"},
                       "theta": THETA, "r": PRESS, "s": STRENGTH},
        },
        "dive": {
            "doc": "Hit a free diving frog of your side so it slides (the first move of a "
                   "turn only).",
            "by": "the seat in `turn`", "sender": "seat",
            "fields": {"frog": {**FROG_ID, "doc": "a free frog of your side with ability "
                                "dive"},
                       "theta": THETA, "s": STRENGTH},
        },
        "stop": {
            "doc": "Decline the extra jump; the turn ends.",
            "by": "the seat in `turn`", "sender": "seat",
        },
        "timeout": {
            "doc": "The host's clock ends the deployment: undeployed sides take cluster 0.",
            "by": "the host, as its timer fires", "sender": "host",
            "fields": {"phase": {"type": "str", "enum": ["deploy"]}},
        },
    },
    "timers": [
        {"phase": "deploy", "key": "deploy", "seconds": "option `deploy_seconds` (default "
         "0: no timer)", "action": "timeout"},
    ],
    "view": {
        "type": "map",
        "fields": {
            "game": {"type": "str", "enum": ["ranagedon"]},
            "you": {**SEAT, "nullable": True, "doc": "your seat; null for a spectator"},
            "players": {"type": "int", "min": 2, "max": 4},
            "phase": {"type": "str", "enum": ["deploy", "jump", "again", "over"]},
            "actors": {"type": "list", "items": SEAT, "doc": "the seats that may act now"},
            "table": {"type": "map", "doc": "the table's size in mm",
                      "fields": {"width": "float", "height": "float"}},
            "pad": {"type": "map", "doc": "the golden lily pad: centre and radius, mm",
                    "fields": {"x": "float", "y": "float", "r": "float"}},
            "sizes": {"type": "map", "doc": "the disc and the deployment rules, mm",
                      "fields": {"R": {"type": "float", "doc": "a frog's radius"},
                                 "ring": {"type": "tuple", "items": ["float", "float"],
                                          "doc": "the coloured border you press: from, to "
                                                 "(the jump's `r`)"},
                                 "finger": "float", "palm": "float",
                                 "disc_height": "float",
                                 "deploy_min": {"type": "float", "doc": "closest a deployed "
                                                "frog's centre may be to the pad's centre"},
                                 "link": {"type": "float", "doc": "widest gap between the "
                                          "centres of a formation's neighbours"}}},
            "abilities": {"type": "str", "enum": ["printed", "alternate"],
                          "doc": "the host's option: which frogs have which ability"},
            "sides": {"type": "list", "items": {"type": "list", "items": SEAT},
                      "doc": "the seats of each side"},
            "teams": {"type": "list", "items": {"type": "list", "items": SEAT},
                      "nullable": True, "doc": "4 players: the two teams; else null"},
            "side_of": {"type": "list", "items": SIDE, "doc": "each seat's side"},
            "your_side": {**SIDE, "nullable": True},
            "frogs": {"type": "list", "min_items": 18, "max_items": 18, "doc": "all 18 frogs",
                      "items": {"type": "map", "name": "frog", "summary": "A frog disc.",
                                "fields": {
                          "id": FROG_ID, "side": SIDE,
                          "colour": {"type": "str", "enum": ["green", "red"]},
                          "border": {"type": "str", "enum": ["blue", "magenta", "yellow"]},
                          "ability": ABILITY, "x": MM, "y": MM,
                          "level": {"type": "int", "min": 0},
                          "supports": {"type": "list", "items": FROG_ID},
                          "covered": {"type": "bool", "doc": "a frog stands on it"},
                          "free": {"type": "bool", "doc": "on the table with none on it: it "
                                   "may jump"},
                          "pad": {"type": "str", "enum": ["inside", "partly"],
                                  "nullable": True, "doc": "on the pad (level 0 only)"}}}},
            "deployed": {"type": "list", "items": "bool", "doc": "per side"},
            "sectors": {"type": "list", "items": {"type": "tuple", "items": ["float", "float"]},
                        "doc": "per side, its deployment sector around the pad's centre: "
                               "from and to angle, radians"},
            "clusters": {"type": "list", "doc": "per side, the suggested clusters (deploy "
                         "phase only; else [])",
                         "items": {"type": "list", "items": {"type": "map", "fields": {
                             "name": {"type": "str", "enum": ["Block", "Line", "Wedge"]},
                             "frogs": {"type": "list", "items": POINT}}}}},
            "turn": {**SEAT, "nullable": True, "doc": "the seat to move"},
            "again": {"type": "map", "nullable": True,
                      "doc": "phase again: the frog that may jump once more and why",
                      "fields": {"frog": FROG_ID,
                                 "kind": {"type": "str", "enum": ["double", "dive"]}}},
            "turns": {"type": "int", "min": 0},
            "turn_limit": {"type": "int", "doc": "turns per seat before the game ends anyway"},
            "scores": {**SEATS, "doc": "live points per seat (a team's for both partners)"},
            "free": {**SEATS, "doc": "free frogs of each seat's side"},
            "log": LOG,
            "last": {
                "type": "map", "nullable": True,
                "doc": "the most recent move, for the table to fly: follow `trajectory`, then "
                       "snap to `positions` (never predict a landing)",
                "fields": {
                    "n": {"type": "int", "min": 0, "doc": "the action's number"},
                    "kind": {"type": "str", "enum": ["deploy", "jump", "dive"]},
                    "seat": SEAT,
                    "frog": {**FROG_ID, "nullable": True},
                    "input": {"type": "map", "doc": "the press as sent ({} for a deploy)",
                              "fields": {"theta": "number",
                                         "r": {"type": "number", "nullable": True},
                                         "s": "number"},
                              "optional": ["theta", "r", "s"]},
                    "outcome": {"type": "str", "enum": OUTCOMES},
                    "start": {**POINT, "nullable": True, "doc": "where the frog was"},
                    "trajectory": {
                        "type": "tagged", "tag": "kind", "nullable": True,
                        "cases": {
                            "arc": {"type": "map",
                                    "doc": "a jump's flight, every number an int in "
                                           "hundredths of a mm: from `start` at height 0 to "
                                           "`to`, at height `height` sin(pi t) + z t above "
                                           "the line between them (t from 0 to 1), then "
                                           "straight through the points of `then`",
                                    "fields": {"kind": {"type": "str", "enum": ["arc"]},
                                               "to": {**CMM3, "doc": "[x, y, z] where the "
                                                      "arc comes down (z: the stack's "
                                                      "height there)"},
                                               "height": {"type": "int", "min": 0,
                                                          "doc": "how high the arc rises "
                                                                 "above that line"},
                                               "then": {"type": "list", "items": CMM3,
                                                        "doc": "[x, y, z] after the arc: "
                                                               "slide-offs, the skid, the "
                                                               "way back onto the table"}}},
                            "slide": {"type": "map", "doc": "a dive's slide, every moved disc",
                                      "fields": {"kind": {"type": "str", "enum": ["slide"]},
                                                 "hz": {"type": "int",
                                                        "doc": "samples per second"},
                                                 "discs": {"type": "list", "items": {
                                                     "type": "map", "fields": {
                                                         "frog": FROG_ID,
                                                         "points": {"type": "list",
                                                                    "items": POINT}}}}}},
                        },
                    },
                    "positions": {"type": "list", "items": POSITION,
                                  "doc": "every frog that moved, where it came to rest"},
                },
            },
            "over": {"type": "bool"},
            "winners": {"type": "list", "items": SEAT, "nullable": True,
                        "doc": "the winning seats (a team win lists both), once over"},
            "final": {**SEATS, "nullable": True, "doc": "the final points, once over"},
            "seed": {"type": "int", "nullable": True,
                     "doc": "the game's seed, shown once over (for the audit)"},
        },
    },
    "hidden": [
        "Only the seed while the game runs (it decides the scatter of future jumps); the "
        "final view shows it. Everything on the table is public.",
    ],
}

SCHEMA: dict[str, Any] = {
    "game": "ranagedon",
    "about": "4 players play in two teams. Jumps are continuous: `may` gives their bounds. "
             "Deployments are simultaneous and order-independent; nothing else is.",
    "modes": {"standard": MODE},
}

__all__ = ["SCHEMA"]
