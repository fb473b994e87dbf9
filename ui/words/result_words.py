"""A finished game's result in one line, in the window's language: who won, then every
score (the Replays list and a replay's header).

The line is ``lanplay.verdict.summary``'s (the headless commands print the same in
English); this renders it with the names this laptop shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lanplay.messages import render
from lanplay.verdict import Verdict, summary, verdict_of


def result_words(result: Mapping[str, Any] | None, names: Sequence[str],
                 scores: bool = True) -> str:
    """"Mia won (Mia 38, Jonas 0)" in the window's language; "" for no result."""
    line = summary(result, scores)
    return "" if line is None else render(line, names)


def view_verdict(view: Mapping[str, Any], scores: str = "scores") -> Verdict:
    """Who won by a table's view (its ``winners`` and the ``scores`` key it keeps them
    under), as the end screen reads a result: a table's last banner says a draw, and
    marks nobody gold, where the end screen does."""
    return verdict_of({"winners": view.get("winners") or [], "scores": view.get(scores) or []})


def tie(view: Mapping[str, Any], scores: str = "scores") -> int | None:
    """The score every seat ended on when a table's game is a draw, else None."""
    found = view_verdict(view, scores)
    best = found.best
    if found.kind != "draw" or best is None or not float(best).is_integer():
        return None
    return int(best)


__all__ = ["result_words", "tie", "view_verdict"]
