"""A sensible Alles klar? player that sees only its own view.

It judges each legal play with the same ``outcome`` helper the rules use:
take a trick it wins at once, never hand a trick to someone else when it can
help it, and otherwise keep the trick open without making the next player's
job easy (it averages over the cards the next player might lay). Seeded
noise breaks ties so bots do not all play alike.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from lanplay.game import Action, Seat, View
from lanplay.games.alles_klar.rules import VALUES, Outcome, decide, outcome, play_actions

WIN = 100.0
BLIND = -10.0
RISK = 30.0
TURN_COST = 1.0
NOISE = 0.5


def choose(view: View, seat: Seat, rng: random.Random) -> Action | None:
    """The play this bot makes now, or None when it is not its turn."""
    if view.get("over") or view.get("turn") != seat:
        return None
    hand: list[Mapping[str, Any]] = view.get("hand") or []
    if not hand:
        return None
    ranking: list[bool] = list(view["ranking"])
    owners = {c["value"]: s for s, row in enumerate(view["table"]) for c in row if c["up"]}
    size = sum(len(row) for row in view["table"]) + 1
    numerals = {c["id"]: c["numerals"] for c in hand}
    values = {c["id"]: c["value"] for c in hand}

    best: Action | None = None
    best_score = float("-inf")
    for action in play_actions(((c["id"], c["numerals"]) for c in hand), ranking):
        card = action["card"]
        value = values[card]
        after, turned, result = outcome(owners.keys(), ranking, value, numerals[card],
                                        action.get("numeral"))
        mine = {**owners, value: seat}
        score = _score(result, mine, after, seat, size)
        if result.kind == "open" and turned is not None:
            score -= TURN_COST
        score += rng.random() * NOISE
        if score > best_score:
            best, best_score = action, score
    return best


def _winner(result: Outcome, owners: Mapping[int, Seat]) -> Seat | None:
    return None if result.value is None else owners.get(result.value)


def _score(result: Outcome, owners: Mapping[int, Seat], ranking: Sequence[bool],
           seat: Seat, size: int) -> float:
    if result.kind == "won":
        return (WIN + size) if _winner(result, owners) == seat else -(WIN + size)
    if result.kind == "blind":
        return BLIND
    return -RISK * _next_risk(owners, ranking, seat) * min(size, 10) / 10


def _next_risk(owners: Mapping[int, Seat], ranking: Sequence[bool], seat: Seat) -> float:
    """How much more the next player's likely card favours others than us (-1..1).

    Averages over every value the next card might have and every ranking card
    it might turn down (or none); the next player is taken to be someone else.
    """
    other = -1
    up = [n for n in range(1, 6) if ranking[n - 1]]
    net = 0
    total = 0
    for turned in [None, *up]:
        after = [r and n != turned for n, r in enumerate(ranking, start=1)]
        for value in range(1, VALUES + 1):
            result = decide(set(owners) | {value}, after)
            total += 1
            if result.kind != "won":
                continue
            winner = other if result.value == value else owners.get(result.value or 0)
            net += -1 if winner == seat else 1
    return net / total if total else 0.0
