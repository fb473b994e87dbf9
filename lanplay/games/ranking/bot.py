"""A sensible Ranking player that sees only its own view.

It judges pictures with ``lanplay.content.bot_score`` against the question's
weights (with a little noise, so bots disagree on close calls). It places
the hand tile that fits best; it compares so that its own tile climbs (or a
tile that others' stones mark as an opponent's sinks) while the order still
looks honest; and it spends a guess stone only when the comparer's push
looks self-serving, or when the round is about to end anyway.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from lanplay.content import bot_score
from lanplay.game import Action, Seat, View

JUDGE_NOISE = 0.6
"""The bot's own doubt about a picture, on the 0-10 scale."""
HONESTY = 0.5
"""Weight of "this order looks right to me" against self-interest."""
OWN_UP = 3.0
OWN_DOWN = 8.0
SUSPECT_DOWN = 0.8
MOVE_NOISE = 0.8


def choose(view: View, seat: Seat, rng: random.Random) -> Action | None:
    """The action this bot takes now, or None when it is not asked to act."""
    if view.get("over") or seat not in (view.get("actors") or []):
        return None
    weights = view["question"]["weights"]
    phase = view.get("phase")
    if phase == "place":
        return _place(view, weights, rng)
    if phase == "compare":
        return _compare(view, weights, rng)
    if phase == "guess":
        return _guess(view, seat, weights, rng)
    return None


def _place(view: View, weights: Any, rng: random.Random) -> Action | None:
    hand: list[Mapping[str, Any]] = view.get("hand") or []
    if not hand:
        return None
    best = max(hand, key=lambda t: bot_score(t["id"], weights, rng, noise=JUDGE_NOISE))
    return {"type": "place", "tile": best["id"]}


def _judge(row: Sequence[Mapping[str, Any]], weights: Any, rng: random.Random) -> list[float]:
    return [bot_score(s["picture"], weights, rng, noise=JUDGE_NOISE) for s in row]


def _compare(view: View, weights: Any, rng: random.Random) -> Action | None:
    row: list[Mapping[str, Any]] = view.get("row") or []
    mine = view.get("mine")
    you = view.get("you")
    judged = _judge(row, weights, rng)
    best: Action | None = None
    best_value = float("-inf")
    for up, a in enumerate(row):
        for down, b in enumerate(row):
            if up == down or a["floor"] != b["floor"] or not 0 < a["floor"] < 6:
                continue
            value = HONESTY * (judged[up] - judged[down])
            if up == mine:
                value += OWN_UP + 0.3 * a["floor"]
            if down == mine:
                value -= OWN_DOWN
            else:
                # Others' stones on a tile say whose they think it is; not ours.
                value += SUSPECT_DOWN * sum(1 for c in b["stones"] if c != you)
            value += rng.gauss(0.0, MOVE_NOISE)
            if value > best_value:
                best, best_value = {"type": "compare", "up": up, "down": down}, value
    return best


def _guess(view: View, seat: Seat, weights: Any, rng: random.Random) -> Action:
    row: list[Mapping[str, Any]] = view.get("row") or []
    target = view.get("guess_for")
    last = view.get("last") or {}
    mine = view.get("mine")
    if target is None or last.get("kind") != "compare" or last.get("seat") != target:
        return {"type": "pass"}
    up, down = last["up"], last["down"]
    if up == mine or not 0 <= up < len(row):
        return {"type": "pass"}
    judged = _judge(row, weights, rng)
    floors = [s["floor"] for s in row]
    ending = 6 in floors and 0 in floors
    held = view["stones_left"][seat][target]
    # How self-serving the push looks: up judged no better than down, already high.
    suspicion = 0.35 + 0.08 * (judged[down] - judged[up]) + 0.05 * (floors[up] - 3)
    suspicion += 0.15 * sum(1 for c in row[up]["stones"] if c == target)
    if held > 1:
        suspicion += 0.15
    if ending or rng.random() < suspicion:
        return {"type": "guess", "slot": up}
    return {"type": "pass"}
