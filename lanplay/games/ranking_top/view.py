"""What one seat sees of a Ranking Top state: the view contract the table reads.

The contract is spelled out in the table engineer's spec (every key always
present); hidden information (other hands, the deck order) is removed here
and nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lanplay.game import View, Viewer, log_view
from lanplay.games.ranking_top import cards
from lanplay.games.ranking_top.rules import actors, rankable, result, toppers
from lanplay.games.ranking_top.state import GAME_ID, Event, Link, State
from lanplay.messages import Msg

DISCARD_SHOWN = 5
"""The top cards of the discard pile in the view (the rest only as a count): the
table fans a few, Arwrarwrirwrarwro takes 3, and a whole pile in every view
would make each update cost more than the rest of the view together."""
CARD_FIELDS = ("card",)
CARD_LIST_FIELDS = ("discarded",)
EVENT_DEFAULTS: dict[str, Any] = {
    "seat": None, "card": None, "to": None, "stands": None, "protected": False,
    "window": None, "timeout": False, "tops": None, "effective": None, "discarded": [],
    "effect": None,
}
"""Every event carries every key (in this order), so a view's ``last`` keeps one shape."""


def _link(link: Link) -> dict[str, Any]:
    return {"card": cards.card_data(link.card), "seat": link.seat, "to": link.to,
            "stands": link.stands}


def _event(event: Event | None) -> dict[str, Any] | None:
    if event is None:
        return None
    out: dict[str, Any] = {"kind": event.kind, **EVENT_DEFAULTS, "discarded": []}
    for key, value in event.fields:
        if key in CARD_FIELDS:
            out[key] = cards.card_data(value)
        elif key in CARD_LIST_FIELDS:
            out[key] = [cards.card_data(c) for c in value]
        elif isinstance(value, Msg):
            out[key] = value.to_wire()
        else:
            out[key] = value
    return out


def view(state: State, viewer: Viewer) -> View:
    own = viewer if viewer is not None and 0 <= viewer < state.players else None
    res = result(state)
    in_window = state.phase == "window"
    return {
        "game": GAME_ID,
        "you": viewer,
        "players": state.players,
        "phase": state.phase,
        "actors": sorted(actors(state)),
        "current": state.current,
        "direction": state.direction,
        "hand_size": state.hand_size,
        "needed": [state.needed(s) for s in range(state.players)],
        "hand": [] if own is None else [cards.card_data(c) for c in state.hands[own]],
        "hand_counts": [len(h) for h in state.hands],
        "deck": len(state.deck),
        "discard": [cards.card_data(c) for c in state.discard[-DISCARD_SHOWN:]],
        "discard_count": len(state.discard),
        "ranking": [[{**cards.card_data(c), "stands": n} for c, n in row]
                    for row in state.ranking],
        "chain": [_link(link) for link in state.chain],
        "window": state.window,
        "passed": list(state.passed),
        "standing": (len(state.chain) - 1) % 2 == 0 if in_window else None,
        "again": state.again,
        "can_top": [] if own is None else toppers(state, own),
        "can_rank": [] if own is None else rankable(state, own),
        "reshuffles": state.reshuffles,
        "log": log_view(state),
        "last": _event(state.last),
        "over": res is not None,
        "winners": None if res is None else list(res.winners),
        "scores": None if res is None else list(res.scores),
    }


def describe(action: Mapping[str, Any]) -> str:
    """An action in words, for a player's own record."""
    kind = action.get("type")
    card = action.get("card")
    name = (cards.label(card) if isinstance(card, int) and not isinstance(card, bool)
            and 0 <= card < cards.DECK_SIZE else "a card")
    if kind == "play":
        where = "into your Ranking Top" if action.get("to") == "top" else "onto the discard pile"
        return f"play {name} {where}"
    if kind == "top":
        return f"top with {name}"
    if kind == "pass":
        return "pass"
    if kind == "keep":
        return f"keep {name}"
    if kind == "timeout":
        return "the window's time ran out"
    return "an unknown action"
