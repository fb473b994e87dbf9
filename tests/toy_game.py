"""A tiny game that exercises what Alles klar? does not: simultaneous secret
choices, order-independent actions and a host-scheduled timer.

"Highest unique": each round every seat secretly picks 1, 2 or 3 at once; the
round closes when all have picked or the timer runs out (a missing pick counts
as nothing). The highest pick that nobody else made scores a point. Three
rounds. It stands in for Ranking's guesses and Ranking Top's reaction windows
so that the host's machinery for them is tested before those games exist.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from lanplay.game import (
    SYSTEM,
    Action,
    IllegalAction,
    Mode,
    Option,
    Result,
    Seat,
    Timer,
    View,
    Viewer,
)

ROUNDS = 3


@dataclass(frozen=True)
class State:
    players: int
    round: int = 0
    picks: tuple[int | None, ...] = ()
    history: tuple[tuple[int | None, ...], ...] = ()
    scores: tuple[int, ...] = ()


class HighestUnique:
    id = "toy"
    name = "Highest unique"
    summary = "Pick 1-3 at once; the highest pick nobody else made scores."
    modes = (Mode("standard", "Standard", 2, 4),)
    options = (Option("window", "Seconds to pick", 0.3, (0.3, 5.0, 30.0)),)
    rules_help = summary

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int) -> State:
        return State(players, 0, (None,) * players, (), (0,) * players)

    def actors(self, state: State) -> frozenset[Seat]:
        if state.round >= ROUNDS:
            return frozenset()
        return frozenset(s for s, p in enumerate(state.picks) if p is None)

    def legal(self, state: State, seat: Seat) -> list[Action]:
        if seat not in self.actors(state):
            return []
        return [{"type": "pick", "n": n} for n in (1, 2, 3)]

    def check(self, state: State, seat: Seat, action: Action) -> None:
        if state.round >= ROUNDS:
            raise IllegalAction("The game is over.")
        if seat == SYSTEM:
            if action != {"type": "timeout", "round": state.round}:
                raise IllegalAction("That timeout belongs to another round.")
            return
        if not isinstance(action, dict) or action.get("type") != "pick":
            raise IllegalAction("Pick a number: {'type': 'pick', 'n': 1..3}.")
        n = action.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or n not in (1, 2, 3):
            raise IllegalAction("Pick 1, 2 or 3.")
        if seat not in self.actors(state):
            raise IllegalAction("You have already picked this round.")

    def apply(self, state: State, seat: Seat, action: Action) -> State:
        self.check(state, seat, action)
        picks = state.picks
        if seat != SYSTEM:
            picks = (*picks[:seat], action["n"], *picks[seat + 1:])
            if any(p is None for p in picks):
                return replace(state, picks=picks)
        scores = list(state.scores)
        made = [p for p in picks if p is not None]
        unique = [p for p in made if made.count(p) == 1]
        if unique:
            scores[picks.index(max(unique))] += 1
        return replace(state, round=state.round + 1, picks=(None,) * state.players,
                       history=(*state.history, picks), scores=tuple(scores))

    def view(self, state: State, viewer: Viewer) -> View:
        return {
            "game": "toy",  # every view names its game: a peer checks it against the room's
            "round": state.round,
            "answered": [p is not None for p in state.picks],
            "mine": state.picks[viewer] if viewer is not None and viewer >= 0 else None,
            "history": [list(h) for h in state.history],
            "scores": list(state.scores),
        }

    def result(self, state: State) -> Result | None:
        if state.round < ROUNDS:
            return None
        best = max(state.scores)
        return Result(tuple(s for s, v in enumerate(state.scores) if v == best),
                      tuple(float(v) for v in state.scores))

    def timer(self, state: State, options: Mapping[str, Any]) -> Timer | None:
        if state.round >= ROUNDS:
            return None
        return Timer(f"round-{state.round}", float(options["window"]),
                     {"type": "timeout", "round": state.round})

    def order_independent(self, state: State, seat: Seat, action: Action) -> bool:
        return True  # a secret pick does not depend on anyone else's

    def hidden_variant(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        picks = tuple(p if s == viewer or p is None else rng.choice((1, 2, 3))
                      for s, p in enumerate(state.picks))
        return replace(state, picks=picks)

    def bot(self, view: View, seat: Seat, rng: random.Random) -> Action | None:
        if view["round"] >= ROUNDS or view["answered"][seat]:
            return None
        return {"type": "pick", "n": rng.choice((1, 2, 3))}


GAME = HighestUnique()
