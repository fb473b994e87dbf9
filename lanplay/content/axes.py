"""The axes pictures are scored on, and how a question or topic names its axis.

Every picture has a 0-10 score per axis; every question and topic names the
axis it is about (one axis and a direction, or a weighted mix for questions
of taste). That is all a bot needs to rank pictures plausibly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lanplay.content.model import ContentError, Weights

AXES: dict[str, str] = {
    "value": "how much money it is worth",
    "size": "how big it is",
    "danger": "how dangerous it is",
    "noise": "how loud it is",
    "usefulness": "how useful it is day to day",
    "cuteness": "how cute it is",
    "smell": "how strongly it smells",
    "speed": "how fast it moves",
    "weight": "how heavy it is",
    "age": "how old it is, or how long it has been around",
    "warmth": "how hot it is (0 ice cold, 5 room temperature, 10 fire)",
    "rarity": "how rare it is",
    "fun": "how much fun it is",
    "taste": "how good it would taste",
}
"""Each axis and what a 10 on it means."""



def parse_scores(raw: Any, where: str) -> dict[str, float]:
    """A picture's ``scores`` table, checked: known axes, numbers from 0 to 10."""
    if not isinstance(raw, Mapping):
        raise ContentError(f"{where}: scores must be a table like {{ value = 3, size = 7 }}")
    scores: dict[str, float] = {}
    for axis, value in raw.items():
        if axis not in AXES:
            raise ContentError(f"{where}: unknown axis {axis!r} in scores; the axes are "
                               f"{', '.join(AXES)}")
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not 0 <= value <= 10:
            raise ContentError(f"{where}: score {axis} = {value!r} must be a number "
                               f"from 0 to 10")
        scores[axis] = value
    return scores


def parse_axis(axis: Any, direction: Any, where: str) -> Weights:
    """What a question or topic is about, as signed weights.

    ``axis = "size"`` (more is better), ``axis = "size"`` with
    ``direction = "low"`` (less is better), or a mix
    ``axis = { cuteness = 1, danger = -1 }``. No axis at all gives no weights:
    a bot then ranks by chance.
    """
    if axis is None:
        if direction is not None:
            raise ContentError(f"{where}: 'direction' needs an 'axis'")
        return ()
    if isinstance(axis, str):
        if axis not in AXES:
            raise ContentError(f"{where}: unknown axis {axis!r}; the axes are "
                               f"{', '.join(AXES)}")
        if direction not in (None, "high", "low"):
            raise ContentError(f"{where}: direction must be \"high\" or \"low\", "
                               f"not {direction!r}")
        return ((axis, -1.0 if direction == "low" else 1.0),)
    if isinstance(axis, Mapping):
        if direction is not None:
            raise ContentError(f"{where}: a mix of axes carries its direction in the "
                               f"signs of its weights; leave out 'direction'")
        weights: list[tuple[str, float]] = []
        for name, weight in axis.items():
            if name not in AXES:
                raise ContentError(f"{where}: unknown axis {name!r}; the axes are "
                                   f"{', '.join(AXES)}")
            if isinstance(weight, bool) or not isinstance(weight, int | float) \
                    or not -10 <= weight <= 10 or weight == 0:
                raise ContentError(f"{where}: weight {name} = {weight!r} must be a "
                                   f"non-zero number from -10 to 10")
            weights.append((name, float(weight)))
        if not weights:
            raise ContentError(f"{where}: the axis mix is empty")
        return tuple(weights)
    raise ContentError(f"{where}: axis must be an axis name or a table of weights")


def describe(weights: Weights) -> str:
    """``value``, ``less size``, or ``cuteness +1, danger -1``: for the browser."""
    if not weights:
        return "no axis (bots guess)"
    if len(weights) == 1:
        name, weight = weights[0]
        return name if weight > 0 else f"less {name}"
    return ", ".join(f"{name} {weight:+g}" for name, weight in weights)


def to_wire(weights: Weights) -> dict[str, float]:
    return dict(weights)


def fit(scores: Mapping[str, float], weights: Weights, neutral: float = 5.0) -> float:
    """How well a picture fits, from 0 to 10 (``neutral`` with no weights).

    A negative weight counts ``10 - score``, so the result stays on the same
    0-10 scale whatever the mix.
    """
    total = sum(abs(w) for _, w in weights)
    if total == 0:
        return neutral
    acc = 0.0
    for axis, weight in weights:
        score = scores.get(axis, neutral)
        acc += abs(weight) * (score if weight > 0 else 10 - score)
    return acc / total
