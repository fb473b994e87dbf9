"""What an S-tier seat may do now: the action templates of the view's ``may``.

Most phases are finite and ``may`` is the rules' ``legal``. The note is not: a
leader sends a commitment to one of thousands of notes, and later reveals it,
so there ``legal`` holds only a sample (commitments whose salts nobody keeps)
and the templates say instead what the laptop composes (``lanplay.games.shape``:
"commitment", "note", "salt", "faces" and "hint" choices, with the note's form).
Only the leader's own cards go into them, and only the leader gets them.
"""

from __future__ import annotations

from typing import Any

from lanplay.game import Action, Viewer, per_state
from lanplay.games.s_tier import rules
from lanplay.games.s_tier.common import TIER_COUNT
from lanplay.games.s_tier.competitive import MAX_PER_TIER, Competitive
from lanplay.games.s_tier.coop import Coop
from lanplay.games.s_tier.team import Team


def _arrangement(choices: list[list[str]]) -> dict[str, Any]:
    return {"form": "arrangement", "slots": TIER_COUNT, "choices": choices,
            "empty": TIER_COUNT - len(choices)}


def _tiering(pictures: list[str]) -> dict[str, Any]:
    return {"form": "tiering", "pictures": pictures, "tiers": TIER_COUNT,
            "min_per_tier": 1, "max_per_tier": MAX_PER_TIER}


def _commit(note: dict[str, Any], **more: dict[str, Any]) -> Action:
    return {"type": "commit", "choose": {"commitment": {"kind": "commitment", "note": note},
                                         **more}}


def _reveal(note: dict[str, Any]) -> list[Action]:
    return [{"type": "reveal", "choose": {"tiers": {"kind": "note", "note": note},
                                          "salt": {"kind": "salt"}}},
            {"type": "void"}]


def _coop_note(state: Coop) -> dict[str, Any]:
    if state.phase == "note" and "choose-side" in state.effects:
        cards = [state.deck.cards[c] for c in state.hand]
        return _arrangement([[card.front, card.back] for card in cards])
    return _arrangement([[p] for p in state.faces])


def _secret(state: rules.State, seat: int) -> list[Action] | None:
    """The templates of a phase where the leader's note is written or revealed."""
    if isinstance(state, Coop):
        if state.phase == "note":
            more: dict[str, dict[str, Any]] = {}
            if "choose-side" in state.effects:
                more["faces"] = {"kind": "faces"}
            if "place-one" in state.effects:
                more["hint"] = {"kind": "hint"}
            return [_commit(_coop_note(state), **more)]
        return _reveal(_coop_note(state)) if state.phase == "reveal" else None
    if isinstance(state, Competitive):
        note = _tiering(list(state.faces))
        if state.phase == "note":
            return [_commit(note)]
        return _reveal(note) if state.phase == "reveal" else None
    assert isinstance(state, Team)
    team = state.leaders.index(seat) if seat in state.leaders else None
    if team is None or state.phase not in ("notes", "reveal"):
        return None
    note = _arrangement([[p] for p in state.faces[team]])
    return [_commit(note)] if state.phase == "notes" else _reveal(note)


def templates(state: rules.State, seat: Viewer) -> list[Action]:
    """The templates of ``seat``: [] unless it may act now."""
    if seat is None or seat not in rules.actors(state):
        return per_state(state, "_no_may", list)  # one [] for the onlookers' views
    found = _secret(state, seat)
    if found is not None:
        return found
    if isinstance(state, Team) and state.phase in ("take", "fix"):
        # Every actor is one of the turn's team's takers and may do the same: one list,
        # shared by their views (up to 7 of them in a 16-seat game).
        return per_state(state, "_takers_may", lambda: rules.legal(state, seat))
    return rules.legal(state, seat)


__all__ = ["templates"]
