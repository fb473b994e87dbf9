"""Which sound a new view calls for, read from the view alone (no Qt, no rules).

At most two, in the order they should sound: what just happened (a trick
won, a top!, a card played) and then, when the view hands me the move, my
turn. Another game's view (a new table) calls for none.
"""

from __future__ import annotations

from typing import Any


def my_move(view: dict[str, Any], you: int | None) -> bool:
    """The view waits for me: I am its turn or among its actors."""
    if you is None or view.get("over"):
        return False
    actors = view.get("actors")
    if isinstance(actors, list) and you in actors:
        return True
    return view.get("turn") == you


def cues(previous: dict[str, Any] | None, view: dict[str, Any], you: int | None) -> list[str]:
    if previous is None or previous.get("game") != view.get("game"):
        return []
    out: list[str] = []
    last, before = view.get("last") or {}, previous.get("last") or {}
    if isinstance(last, dict) and last != before:
        if last.get("result") in ("won", "blind"):
            out.append("trick")
        elif last.get("kind") == "top":
            out.append("top")
    if not out and (view.get("log") or []) != (previous.get("log") or []):
        out.append("play")
    if my_move(view, you) and not my_move(previous, you):
        out.append("turn")
    return out


__all__ = ["cues", "my_move"]
