"""S-tier for a client: each mode's phases, actions and view, as pure data.

docs/GAMES.md is generated from this (``python -m lanplay.tools.gamedoc``), and
tests/test_game_reference.py holds every view and action of seeded play to it
(played through ``lanplay.peer.keeper.Laptops``: the notes stay on the leaders'
laptops). The shapes are those of ``lanplay.games.shape``.
"""

from __future__ import annotations

from typing import Any

from lanplay.games.shape import LOG, SEAT

TIER = {"type": "int", "min": 0, "max": 4, "doc": "a tier: 0 = S, 1 = A, 2 = B, 3 = C, 4 = D"}
PICTURE = {"type": "str", "doc": "a picture id (the content library's)"}
NAMED: dict[str, Any] = {"type": "map", "name": "picture",
                         "summary": "A picture and its name.",
                         "fields": {"id": PICTURE, "name": "str"}}
HEX64 = {"type": "str", "hex": 64}
SALT = {"type": "str", "hex": 32, "doc": "the note's salt"}
SEATS: dict[str, Any] = {"type": "list", "items": SEAT}
TOPIC: dict[str, Any] = {
    "type": "map", "nullable": True, "name": "topic", "summary": "A round's topic.",
    "doc": "the round's topic; null for those who may not see it yet",
    "fields": {"id": "str", "text": {"type": "str", "doc": "e.g. \"Best to ride on\""},
               "weights": {"type": "list", "items": {"type": "tuple", "items": ["str", "float"]},
                           "doc": "[axis, weight] pairs the bots judge pictures by"}},
}
TRACK: dict[str, Any] = {"type": "map", "doc": "the tokens' steps and the star's",
                         "fields": {"green": {"type": "int", "min": 0},
                                    "red": {"type": "int", "min": 0},
                                    "star": {"type": "int", "min": 1}}}
TIMER: dict[str, Any] = {"type": "map", "nullable": True,
                         "doc": "the wait's timer, while one runs (the host's `clock` message "
                                "counts it down)",
                         "fields": {"key": "str", "seconds": {"type": "int", "min": 1}}}
ARRANGED = {"type": "list", "items": {**PICTURE, "nullable": True}, "min_items": 5,
            "max_items": 5, "doc": "a picture id (or null) per tier, S to D"}


def frame(mode: str, phases: list[str], table: dict[str, Any]) -> dict[str, Any]:
    """The view keys every mode shares around ``table``, the mode's own."""
    return {
        "type": "map",
        "fields": {
            "game": {"type": "str", "enum": ["s-tier"]},
            "mode": {"type": "str", "enum": [mode]},
            "you": {**SEAT, "nullable": True, "doc": "your seat; null for a spectator"},
            "players": {"type": "int", "min": 2, "max": 16},
            "round": {"type": "int", "min": 1},
            "phase": {"type": "str", "enum": [*phases, "over"]},
            "actors": {**SEATS, "doc": "the seats that may act now"},
            "tiers": {"type": "list", "items": "str", "doc": "the tiers' names: S A B C D"},
            **table,
            "log": LOG,
            "over": {"type": "bool"},
            "winners": {**SEATS, "nullable": True, "doc": "the winning seats, once over"},
            "scores": {"type": "list", "items": "float", "nullable": True,
                       "doc": "one score per seat, once over"},
        },
    }


VOID = {
    "doc": "Give the round up: no note can be had. Nobody scores and the round ends.",
    "by": "the leader whose laptop lost its note (while the note is asked for), or the host "
          "for a leader a stand-in plays for", "sender": "seat or host",
    "forms": [
        {"doc": "From the leader's laptop.", "fields": {}},
        {"doc": "From the host (as SYSTEM): `seat` is the leader.",
         "fields": {"seat": {**SEAT, "doc": "the leader whose note is missing"}}},
    ],
}
COMMIT_DOC = ("Write the note: send its commitment (PROTOCOL.md, \"The S-tier note\"); the "
              "note itself stays on the laptop until the reveal. The table's plain `note` "
              "action never leaves the laptop (the host refuses it).")
REVEAL_DOC = ("The laptop reveals the note it committed to, and its salt; the host checks "
              "them against the commitment and scores the round (a mismatch voids it).")


# --- cooperative ------------------------------------------------------------------

COOP: dict[str, Any] = {
    "phases": [
        {"phase": "note", "actors": "the `leader`", "actions": ["commit", "void"],
         "doc": "The leader writes the note (a picture per tier; with `effects` "
                "\"take-four\" one tier stays empty, \"choose-side\" any face of each card, "
                "\"place-one\" one picture laid on the board as a hint). Guessers see "
                "neither the topic nor the pictures yet."},
        {"phase": "guess", "actors": "every guesser, all the time",
         "actions": ["move", "lock", "unlock", "timeout"],
         "doc": "Everyone but the leader arranges one shared board; a move unlocks everyone. "
                "When every guesser has locked in (which needs every picture on the board), "
                "or the timer runs out, the attempt is in."},
        {"phase": "count", "actors": "the `leader`", "actions": ["count", "void"],
         "doc": "After attempt 1 (unless \"no-second\"): the leader's laptop counts the "
                "board against the note; 5 skips attempt 2."},
        {"phase": "reveal", "actors": "the `leader`", "actions": ["reveal", "void"],
         "doc": "After the last attempt the laptop reveals the note; the round is scored and "
                "the tokens move, or the game ends at the star."},
    ],
    "phase_key": "phase",
    "actions": {
        "commit": {
            "doc": COMMIT_DOC, "by": "the `leader`", "sender": "seat",
            "fields": {"commitment": {**HEX64, "doc": "the note's commitment"},
                       "faces": {"type": "list", "items": PICTURE,
                                 "doc": "with \"choose-side\" only: the face the note holds "
                                        "of each card, in the order of the view's `cards`"},
                       "hint": {"type": "map", "doc": "with \"place-one\" only: the picture "
                                "laid on the board and its tier (as in the note)",
                                "fields": {"tier": TIER, "picture": PICTURE}}},
            "optional": ["faces", "hint"],
        },
        "move": {
            "doc": "Move a picture on the shared board (onto an occupied tier the two swap; "
                   "to where it lies, nothing happens). Unlocks everyone.",
            "by": "a guesser", "sender": "seat",
            "fields": {"picture": {**PICTURE, "doc": "one of `pictures` (not the hint)"},
                       "tier": {**TIER, "nullable": True,
                                "doc": "where to (not the hint's tier); null: back to the "
                                       "pool"}},
        },
        "lock": {
            "doc": "Lock in the board as you see it (every picture on it). Not "
                   "order-independent: a lock against an older board is refused as stale.",
            "by": "a guesser", "sender": "seat",
        },
        "unlock": {"doc": "Unlock again.", "by": "a guesser", "sender": "seat"},
        "count": {
            "doc": "How many of attempt 1's pictures are right (taken on trust; checked at "
                   "the reveal, a laptop that told wrong is named).",
            "by": "the `leader`'s laptop, by itself", "sender": "seat",
            "fields": {"correct": {"type": "int", "min": 0, "max": 5}},
        },
        "reveal": {
            "doc": REVEAL_DOC, "by": "the `leader`'s laptop, by itself", "sender": "seat",
            "fields": {"tiers": {**ARRANGED, "doc": "the note: a picture id per tier, S to D "
                                 "(null: the empty tier of \"take-four\")"},
                       "salt": SALT},
        },
        "void": VOID,
        "timeout": {
            "doc": "The host's clock ends the attempt: the board is submitted as it lies.",
            "by": "the host, as its timer fires", "sender": "host",
            "fields": {"round": {"type": "int", "min": 1},
                       "attempt": {"type": "int", "min": 1, "max": 2}},
        },
    },
    "timers": [
        {"phase": "guess", "key": "guess-<round>-<attempt>",
         "seconds": "option `guess_seconds` (default 300; 0: no timer)", "action": "timeout"},
    ],
    "view": frame("cooperative", ["note", "guess", "count", "reveal"], {
        "topic": TOPIC,
        "pictures": {"type": "list", "items": NAMED, "max_items": 5,
                     "doc": "the round's pictures (the faces shown); [] for guessers while "
                            "the note is written"},
        "leader": {**SEAT, "doc": "this round's leader"},
        "leaders": {"type": "list", "items": SEAT, "max_items": 0, "doc": "[] (team mode)"},
        "note": {**ARRANGED, "nullable": True,
                 "doc": "the revealed note: the leader's from the reveal on, everyone's once "
                        "over (the laptop fills in its own note before)"},
        "commitment": {**HEX64, "nullable": True, "doc": "the note's commitment, once "
                       "written (the leader's laptop finds its note by it)"},
        "cards": {"type": "list", "doc": "the leader's cards while writing with "
                  "\"choose-side\": [front id, front name, back id, back name]; else []",
                  "items": {"type": "tuple", "items": ["str", "str", "str", "str"]}},
        "board": {**ARRANGED, "doc": "the shared board: a picture id per tier, null = empty "
                  "(the rest lie in the pool)"},
        "guessers": {**SEATS, "doc": "everyone but the leader"},
        "locked": {**SEATS, "doc": "the guessers locked in"},
        "attempt": {"type": "int", "min": 1, "max": 2},
        "count": {"type": "int", "min": 0, "max": 5, "nullable": True,
                  "doc": "attempt 1's count, as the leader's laptop told it"},
        "moves": {"type": "int", "min": 0, "doc": "moves this attempt"},
        "hint": {"type": "map", "nullable": True, "doc": "\"place-one\": the leader's hint",
                 "fields": {"picture": PICTURE, "tier": TIER}},
        "track": TRACK,
        "effects": {"type": "list", "doc": "the effects working this round (text side)",
                    "items": {"type": "str", "enum": ["choose-side", "place-one", "no-second",
                                                      "take-four"]}},
        "text_side": {"type": "bool", "doc": "the host's option: the harder side"},
        "timer": TIMER,
        "last": {
            "type": "tagged", "tag": "kind", "nullable": True,
            "doc": "the most recent event",
            "cases": {
                "count": {"type": "map", "doc": "attempt 1's count",
                          "fields": {"kind": {"type": "str", "enum": ["count"]},
                                     "correct": {"type": "int", "min": 0, "max": 5}}},
                "reveal": {"type": "map", "doc": "the round scored from the note",
                           "fields": {"kind": {"type": "str", "enum": ["reveal"]},
                                      "correct": {"type": "int", "min": 0, "max": 5},
                                      "note": ARRANGED, "board": ARRANGED,
                                      "green": {"type": "int", "min": 0,
                                                "doc": "steps the green token moved"},
                                      "red": {"type": "int", "min": 0,
                                              "doc": "steps the red token moved"}}},
                "void": {"type": "map", "doc": "the round was void",
                         "fields": {"kind": {"type": "str", "enum": ["void"]},
                                    "correct": "null"}},
            },
        },
    }),
    "hidden": [
        "The note, from everyone, the host included, until the reveal: the leader's laptop "
        "keeps it (`note` is null before; the leader's own table fills it in).",
        "The topic and the pictures from the guessers while the note is written.",
        "The deck's and the topics' order from everyone.",
    ],
}


# --- competitive ------------------------------------------------------------------

COMPETITIVE: dict[str, Any] = {
    "phases": [
        {"phase": "note", "actors": "the `leader`", "actions": ["commit", "void"],
         "doc": "The pictures (max(players - 1, 5)) lie face up; the leader writes a tier "
                "for each (no tier empty, at most 2 per tier). Then one picture is dealt "
                "to each guesser (`dealt`), the rest are `extra`."},
        {"phase": "place", "actors": "every guesser who has not placed",
         "actions": ["place", "timeout"],
         "doc": "Each guesser places their own picture on a tier, without discussion; "
                "placements stay secret until everyone placed and are final."},
        {"phase": "reveal", "actors": "the `leader`", "actions": ["reveal", "void"],
         "doc": "The laptop reveals the note; right guessers keep their picture (a point), "
                "the leader takes 1 when at least half are right, 2 when all are. The game "
                "ends when every seat has led once."},
    ],
    "phase_key": "phase",
    "actions": {
        "commit": {"doc": COMMIT_DOC, "by": "the `leader`", "sender": "seat",
                   "fields": {"commitment": {**HEX64, "doc": "the note's commitment"}}},
        "place": {
            "doc": "Place your dealt picture on a tier.",
            "by": "a guesser who has not placed", "sender": "seat",
            "fields": {"tier": TIER},
        },
        "reveal": {
            "doc": REVEAL_DOC, "by": "the `leader`'s laptop, by itself", "sender": "seat",
            "fields": {"tiers": {"type": "list", "items": TIER,
                                 "doc": "the note: a tier per picture, in the order of "
                                        "`pictures`"},
                       "salt": SALT},
        },
        "void": VOID,
        "timeout": {
            "doc": "The host's clock ends the placing: unplaced pictures count as wrong.",
            "by": "the host, as its timer fires", "sender": "host",
            "fields": {"round": {"type": "int", "min": 1},
                       "phase": {"type": "str", "enum": ["place"]}},
        },
    },
    "timers": [
        {"phase": "place", "key": "place-<round>",
         "seconds": "option `place_seconds` (default 60; 0: no timer)", "action": "timeout"},
    ],
    "view": frame("competitive", ["note", "place", "reveal"], {
        "topic": TOPIC,
        "pictures": {"type": "list", "items": NAMED, "doc": "the round's pictures, face up "
                     "for all"},
        "leader": {**SEAT, "doc": "this round's leader"},
        "leaders": {"type": "list", "items": SEAT, "max_items": 0, "doc": "[] (team mode)"},
        "note": {"type": "list", "items": TIER, "nullable": True,
                 "doc": "the revealed note (a tier per picture): the leader's from the "
                        "reveal on, everyone's once over"},
        "commitment": {**HEX64, "nullable": True, "doc": "the note's commitment, once "
                       "written"},
        "dealt": {"type": "list", "items": {**PICTURE, "nullable": True},
                  "doc": "per seat, the picture dealt to it (null for the leader, and for "
                         "all while the note is written)"},
        "extra": {"type": "list", "items": PICTURE, "doc": "the pictures nobody was dealt"},
        "placed": {**TIER, "nullable": True, "doc": "the tier you placed on"},
        "answered": {"type": "list", "items": "bool", "doc": "per seat, whether it placed "
                     "(only that, never where)"},
        "won": {"type": "list", "items": "int", "doc": "pictures won per seat"},
        "led": {**SEATS, "doc": "the seats that have led, in order"},
        "timer": TIMER,
        "last": {
            "type": "map", "nullable": True,
            "doc": "the last round's end, self-contained (a fresh snapshot draws it alone)",
            "fields": {
                "kind": {"type": "str", "enum": ["reveal", "void"]},
                "note": {"type": "list", "items": TIER, "nullable": True,
                         "doc": "the note (null: void)"},
                "placements": {"type": "list", "items": {**TIER, "nullable": True},
                               "doc": "per seat, where it placed"},
                "correct": {**SEATS, "doc": "the guessers who were right"},
                "leader_gain": {"type": "int", "min": 0, "max": 2},
                "leader": SEAT,
                "pictures": {"type": "list", "items": NAMED},
                "dealt": {"type": "list", "items": {**PICTURE, "nullable": True}},
            },
        },
    }),
    "hidden": [
        "The note, from everyone, the host included, until the reveal.",
        "The topic from the guessers while the note is written; the deal until then.",
        "Where others placed, until the reveal (`answered` shows only that they did).",
    ],
}


# --- team ----------------------------------------------------------------------------

TEAM_PICTURE: dict[str, Any] = {
    "type": "map", "name": "team picture",
    "summary": "One of the round's ten pictures.",
    "fields": {"id": PICTURE, "name": "str",
               "team": {"type": "int", "min": 0, "max": 1,
                        "doc": "whose leader's picture: 0 Green, 1 Red"},
               "taken": {"type": "int", "min": 0, "max": 1, "nullable": True,
                         "doc": "the team that took it"},
               "tier": {**TIER, "nullable": True, "doc": "where it lies"}},
}
TEAM_NOTE = {"type": "list", "items": PICTURE, "min_items": 5, "max_items": 5,
             "doc": "a picture id per tier, S to D"}

TEAM: dict[str, Any] = {
    "phases": [
        {"phase": "notes", "actors": "both `leaders`, until each has written",
         "actions": ["commit", "void"],
         "doc": "Each team's leader writes a note of their own 5 pictures (both at once, "
                "order-independent). The team whose note arrives first takes first."},
        {"phase": "take", "actors": "the non-leaders of the team in `turn`",
         "actions": ["take"],
         "doc": "The teams alternate: one of the team to move takes any untaken picture of "
                "either leader onto a tier (the first to act decides for the team)."},
        {"phase": "wrong", "actors": "that team's leader",
         "actions": ["wrong", "silent"],
         "doc": "After a team took its own leader's picture, while that leader's Wrong is "
                "unused: the leader says Wrong or stays silent (asked every time, so the "
                "question reveals nothing)."},
        {"phase": "fix", "actors": "the non-leaders of that team", "actions": ["move"],
         "doc": "After Wrong: the team moves the picture to another tier."},
        {"phase": "reveal", "actors": "the `leaders` not yet revealed",
         "actions": ["reveal", "void"],
         "doc": "Every picture is taken: both laptops reveal their notes; the team with more "
                "right pictures moves a step (a tie moves both)."},
    ],
    "phase_key": "phase",
    "actions": {
        "commit": {"doc": COMMIT_DOC, "by": "a leader who has not written",
                   "sender": "seat",
                   "fields": {"commitment": {**HEX64, "doc": "the note's commitment"}}},
        "take": {
            "doc": "Take an untaken picture onto a tier of your team's side.",
            "by": "a non-leader of the team in `turn`", "sender": "seat",
            "fields": {"picture": {**PICTURE, "doc": "an untaken one of `pictures`"},
                       "tier": TIER},
        },
        "wrong": {"doc": "Say Wrong: the picture lies wrong (taken on trust, checked at the "
                         "reveal).", "by": "the leader asked", "sender": "seat"},
        "silent": {"doc": "Stay silent.", "by": "the leader asked", "sender": "seat"},
        "move": {
            "doc": "Move the picture your leader called wrong to another tier.",
            "by": "a non-leader of the team", "sender": "seat",
            "fields": {"picture": {**PICTURE, "doc": "the `pending` picture"},
                       "tier": {**TIER, "doc": "another tier than where it lies"}},
        },
        "reveal": {
            "doc": REVEAL_DOC, "by": "a leader's laptop, by itself", "sender": "seat",
            "fields": {"tiers": {**TEAM_NOTE, "doc": "the note: a picture id per tier"},
                       "salt": SALT},
        },
        "void": VOID,
    },
    "timers": [],
    "view": frame("team", ["notes", "take", "wrong", "fix", "reveal"], {
        "topic": TOPIC,
        "pictures": {"type": "list", "items": TEAM_PICTURE, "max_items": 10,
                     "doc": "Green's leader's five, then Red's; while the notes are written "
                            "only a leader's own five (to that leader), [] to the others"},
        "leader": {"type": "null", "doc": "null (two leaders: `leaders`)"},
        "leaders": {**SEATS, "min_items": 2, "max_items": 2,
                    "doc": "this round's leaders: Green's, Red's"},
        "note": {**TEAM_NOTE, "nullable": True,
                 "doc": "your own revealed note, if you lead"},
        "commitments": {"type": "list", "items": {**HEX64, "nullable": True},
                        "doc": "each leader's commitment, once written"},
        "teams": {"type": "list", "items": SEATS, "doc": "Green (even seats), Red (odd)"},
        "written": {"type": "list", "items": "bool", "doc": "per team, whether its note is in"},
        "turn": {"type": "int", "min": 0, "max": 1, "nullable": True,
                 "doc": "the team to take (0 Green, 1 Red)"},
        "wrong_used": {"type": "list", "items": "bool", "doc": "per team, this round"},
        "pending": {"type": "map", "nullable": True,
                    "doc": "the picture just taken that its leader is asked about, or moves",
                    "fields": {"picture": PICTURE, "team": {"type": "int", "min": 0,
                                                            "max": 1}}},
        "track": TRACK,
        "round_pictures": {"type": "list", "items": "int", "nullable": True,
                           "doc": "per team, right pictures last round"},
        "total": {"type": "list", "items": "int", "doc": "per team, right pictures so far"},
        "last": {
            "type": "map", "nullable": True,
            "doc": "the most recent Wrong, reveal or void; every key always present",
            "fields": {
                "kind": {"type": "str", "enum": ["wrong", "reveal", "void"]},
                "team": {"type": "int", "min": 0, "max": 1, "nullable": True,
                         "doc": "wrong: whose leader said it"},
                "notes": {"type": "list", "items": TEAM_NOTE, "nullable": True,
                          "doc": "reveal: both notes"},
                "correct": {"type": "list", "items": {"type": "list", "items": PICTURE},
                            "nullable": True, "doc": "reveal: per team, its right pictures"},
                "moved": {"type": "list", "items": "bool", "nullable": True,
                          "doc": "reveal: per team, whether its token moved"},
                "leaders": {**SEATS, "nullable": True},
                "pictures": {"type": "list", "nullable": True,
                             "items": {**TEAM_PICTURE, "name": "revealed picture",
                                       "summary": "A picture at the reveal.", "fields": {
                                 **TEAM_PICTURE["fields"],
                                 "right": {"type": "bool"}}},
                             "doc": "reveal: every picture, where it lay and whether right"},
            },
        },
    }),
    "hidden": [
        "Each note, from everyone, the host included, until its reveal; a leader's own "
        "revealed note shows only to that leader until both are in.",
        "The topic and each leader's pictures from the others while the notes are written.",
        "The deck's and the topics' order from everyone.",
    ],
}

SCHEMA: dict[str, Any] = {
    "game": "s-tier",
    "about": "Three modes, each with its own view. The note never reaches the host before "
             "its reveal: the leader's laptop sends its commitment, answers the count and "
             "reveals it by itself (PROTOCOL.md, \"A secret kept on a laptop\").",
    "modes": {"cooperative": COOP, "competitive": COMPETITIVE, "team": TEAM},
}

__all__ = ["SCHEMA"]
