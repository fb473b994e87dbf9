"""The shape of a game's result, checked before any code reads it: the host's
``game_over`` on a peer, and a kept audit from the disk.

Like ``lanplay/store/schema.py`` for saves: a result whose ``winners`` is a float,
``scores`` a number, or which lacks either, crashed the window's end screen and the
bot, and one such kept audit broke Help -> Replays until it was deleted (issue 23,
findings 2 and 7). A peer leaves a host that breaks the shape with one sentence; a
file that breaks it is left out of the list."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

MAX_SEATS = 64
"""No game seats more (S-tier team's 16 is the largest); a longer list is not a result."""


def result_fault(result: Any) -> str | None:
    """Why ``result`` is not a game result this version can read, or None."""
    if not isinstance(result, Mapping):
        return "the result is not a map"
    winners = result.get("winners")
    if not isinstance(winners, list) or len(winners) > MAX_SEATS:
        return "winners is not a list of seats"
    if any(not _seat(w) for w in winners):
        return "a winner is not a seat"
    scores = result.get("scores")
    if not isinstance(scores, list) or len(scores) > MAX_SEATS:
        return "scores is not a list of numbers"
    if any(not _number(s) for s in scores):
        return "a score is not a number"
    detail = result.get("detail", {})
    if detail is not None and not (isinstance(detail, Mapping)
                                   and all(isinstance(k, str) for k in detail)):
        return "detail is not a map of names"
    return None


def _seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_SEATS


def _number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) < 1 << 53
    return isinstance(value, float) and math.isfinite(value)


def saved_fault(value: Any) -> str | None:
    """Why ``value`` is not a time a file was kept at (seconds since 1970), or None:
    ``1e308`` and NaN broke the list's dates."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "its time is not a number"
    if not (math.isfinite(value) and 0 <= value < LAST_TIME):
        return "its time is out of range"
    return None


LAST_TIME = 32_503_680_000
"""The year 3000: later than any file is kept, earlier than dates overflow."""

__all__ = ["LAST_TIME", "MAX_SEATS", "result_fault", "saved_fault"]
