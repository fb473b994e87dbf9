"""What a Ranagedon seat may do now: the action templates of the view's ``may``.

A jump and a dive are continuous (any angle, a press on the coloured border,
a strength), so instead of ``legal``'s few sample presses the templates give
each free frog's bounds (``lanplay.games.shape``, "number" choices); a
deployment is one of the suggested clusters or a formation of the side's own.
Everything here is public (only the seed is hidden), and it is computed only
for a seat that may act.
"""

from __future__ import annotations

from lanplay.game import Action, Viewer, per_state
from lanplay.games.ranagedon import model
from lanplay.games.ranagedon.geometry import CLUSTERS, RING_IN, R
from lanplay.games.ranagedon.model import DIVE
from lanplay.games.ranagedon.rules import AGAIN, DEPLOY, State, actors, side_of


def _number(low: float | None, high: float | None) -> dict[str, object]:
    return {"kind": "number", "min": low, "max": high}


def _jump(frog: int) -> Action:
    return {"type": "jump", "frog": frog,
            "choose": {"theta": _number(None, None), "r": _number(RING_IN, R),
                       "s": _number(0.0, 1.0)}}


def _dive(frog: int) -> Action:
    return {"type": "dive", "frog": frog,
            "choose": {"theta": _number(None, None), "s": _number(0.0, 1.0)}}


def templates(state: State, seat: Viewer) -> list[Action]:
    """The templates of ``seat``: [] unless it may act now."""
    if seat is None or seat not in actors(state):
        return per_state(state, "_no_may", list)  # one [] for the onlookers' views
    side = side_of(state.players, seat)
    if state.phase == DEPLOY:
        count = sum(1 for f in state.frogs if f.side == side)
        return [*({"type": "deploy", "cluster": k} for k in range(len(CLUSTERS))),
                {"type": "deploy",
                 "choose": {"frogs": {"kind": "formation", "count": count, "side": side}}}]
    if state.phase == AGAIN and state.again_frog is not None:
        return [_jump(state.again_frog), {"type": "stop"}]
    free = [f for f in model.free_ids(state.frogs) if state.frogs[f].side == side]
    return [*(_jump(f) for f in free),
            *(_dive(f) for f in free if state.frogs[f].ability == DIVE)]


__all__ = ["templates"]
