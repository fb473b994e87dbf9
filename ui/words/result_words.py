"""A finished game's result in one line, in the window's language: who won, then every
score (the Replays list and a replay's header).

``lanplay.replay.model.result_text`` says the same in English (for the headless
commands); this one speaks through ``ui.words.i18n``, with the names this laptop shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ui.words.i18n import _, and_list


def result_words(result: Mapping[str, Any] | None, names: Sequence[str],
                 scores: bool = True) -> str:
    """"Mia won (Mia 38, Jonas 0)" in the window's language; "" for no result."""
    if not isinstance(result, Mapping):
        return ""

    def name(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return str(names[seat])
        return _("Seat {n}").format(n=seat + 1) if isinstance(seat, int) else _("someone")

    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    detail = result.get("detail")
    outcome = detail.get("outcome") if isinstance(detail, Mapping) else None
    who = [name(w) for w in winners]
    if outcome == "victory":
        head = _("Victory: everyone won together")
    elif outcome == "defeat":
        head = _("Defeat: everyone lost together")
    elif not who:
        head = _("Nobody won")
    elif len(who) == 1:
        head = _("{name} won").format(name=who[0])
    elif _is_team(detail, winners):
        head = _("Team {names} won").format(names=and_list(who))
    else:
        head = _("{names} shared the win").format(names=and_list(who))
    points = [s for s in result.get("scores") or [] if isinstance(s, int | float)]
    if not scores or not points or outcome in ("victory", "defeat"):
        return head
    listed = ", ".join(_("{name} {score}").format(name=name(i), score=f"{s:g}")
                       for i, s in enumerate(points))
    return _("{result} ({scores})").format(result=head, scores=listed)


def _is_team(detail: Any, winners: list[int]) -> bool:
    teams = detail.get("teams") if isinstance(detail, Mapping) else None
    return isinstance(teams, list) and any(
        isinstance(t, list) and sorted(t) == sorted(winners) for t in teams)


__all__ = ["result_words"]
