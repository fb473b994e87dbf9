"""Ranking's plain data: the constants of the rulebook and what a state holds (the
question, the row's tiles with their stones, the last public event, the state).

No rules here: ``rules`` reads and replaces these (and re-exports every name).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lanplay.game import LogLine, Seat
from lanplay.messages import N_

GAME_ID = "ranking"
MIN_PLAYERS, MAX_PLAYERS = 3, 5
ROW_SIZE = 7
HAND_SIZE = 6
START_FLOOR = 3
TOP, BOTTOM = 6, 0
FLOOR_SUM = START_FLOOR * ROW_SIZE
GOAL = 15
ROOF = 7
SIDES = ("red", "blue")
PLACE_SECONDS = (0, 30, 60, 120)
GUESS_SECONDS = (0, 15, 30, 60)
COLOURS = (N_("blue"), N_("yellow"), N_("green"), N_("red"), N_("purple"))
PASS = "pass"
PHASES = ("place", "compare", "guess", "over")

Answer = int | str | None
"""A pending guess: a slot, ``"pass"``, or None (not answered yet)."""


# --- plain data held in the state ------------------------------------------------

@dataclass(frozen=True)
class Ask:
    """The round's question tile, copied out of the content."""

    id: str
    text: str
    side: str
    weights: tuple[tuple[str, float], ...]
    own: bool = False
    """From the group's custom pack: drawn before any built-in question."""

    def to_view(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "side": self.side,
                "weights": [[a, w] for a, w in self.weights]}


@dataclass(frozen=True)
class Slot:
    """A picture tile in the row; ``owner`` is secret until scoring (None = supply)."""

    picture: str
    floor: int = START_FLOOR
    stones: tuple[Seat, ...] = ()
    owner: Seat | None = None
    by: tuple[Seat, ...] = ()
    """Who put each stone down, in the order of ``stones`` (public: at the table
    everyone sees who bets on what)."""


@dataclass(frozen=True)
class Event:
    """The most recent public event, for the table to animate."""

    kind: str
    seat: Seat = 0
    up: int = 0
    down: int = 0
    answers: tuple[tuple[Seat, int | str], ...] = ()
    round: int = 0
    gains: tuple[int, ...] = ()
    owners: tuple[Seat | None, ...] = ()

    def to_view(self) -> dict[str, Any]:
        if self.kind == "compare":
            return {"kind": "compare", "seat": self.seat, "up": self.up, "down": self.down}
        if self.kind == "guesses":
            return {"kind": "guesses", "for": self.seat,
                    "slots": {str(s): a for s, a in self.answers}}
        return {"kind": "score", "round": self.round, "gains": list(self.gains),
                "owners": list(self.owners)}


@dataclass(frozen=True)
class State:
    """The whole game. ``row`` is empty while tiles are being placed."""

    players: int
    side: str
    seed: int
    names: tuple[tuple[str, str], ...]
    bag: tuple[Ask, ...]
    question: Ask
    round: int
    phase: str
    starter: Seat
    current: Seat
    hands: tuple[tuple[str, ...], ...]
    supply: tuple[str, ...]
    placed: tuple[str | None, ...]
    row: tuple[Slot, ...]
    revealed: bool
    last_row: tuple[Slot, ...]
    stones: tuple[tuple[int, ...], ...]
    guess_for: Seat | None
    eligible: tuple[Seat, ...]
    pending: tuple[Answer, ...]
    step: int
    compares: int
    scores: tuple[int, ...]
    log: tuple[LogLine, ...]
    last: Event | None = None
    end: str = ""

    @property
    def over(self) -> bool:
        return self.phase == "over"
