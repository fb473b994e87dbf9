"""S-tier as pure rules: one entry point per surface call, dispatching on the mode.

Each mode keeps its own state type and rules module (``coop``,
``competitive``, ``team``); the decisions taken where the rulebook is silent
are in those modules' docstrings and in help.md. ``setup`` takes the content
library as an argument so tests can pass a test pack; the Game class passes
``in_play.for_options(options)``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from lanplay.content.library import Library
from lanplay.game import Action, Result, Seat, Timer, View, Viewer
from lanplay.games.s_tier import competitive, coop, team
from lanplay.games.s_tier.common import GAME_ID, format_log
from lanplay.messages import Problem, content, items, msg

State = coop.Coop | competitive.Competitive | team.Team
MODES: dict[str, ModuleType] = {
    coop.MODE: coop, competitive.MODE: competitive, team.MODE: team,
}


def module_of(state: State) -> ModuleType:
    if isinstance(state, coop.Coop):
        return coop
    if isinstance(state, competitive.Competitive):
        return competitive
    return team


def setup(players: int, mode: str, options: Mapping[str, Any], seed: int,
          library: Library) -> State:
    if mode not in MODES:
        raise Problem(msg("{game} has no mode {mode}; choose one of {modes}.",
                          game=content("game", GAME_ID, "S-tier"), mode=repr(mode)[:60],
                          modes=items(list(MODES))))
    made: State = MODES[mode].setup(players, options, seed, library)
    return made


def actors(state: State) -> frozenset[Seat]:
    found: frozenset[Seat] = module_of(state).actors(state)
    return found


def legal(state: State, seat: Seat) -> list[Action]:
    found: list[Action] = module_of(state).legal(state, seat)
    return found


def check(state: State, seat: Seat, action: object) -> None:
    module_of(state).check(state, seat, action)


def apply(state: State, seat: Seat, action: Action) -> State:
    after: State = module_of(state).apply(state, seat, action)
    return after


def view(state: State, viewer: Viewer) -> View:
    seen: View = module_of(state).view(state, viewer)
    return seen


def result(state: State) -> Result | None:
    found: Result | None = module_of(state).result(state)
    return found


def timer(state: State, options: Mapping[str, Any]) -> Timer | None:
    found: Timer | None = module_of(state).timer(state, options)
    return found


def order_independent(state: State, seat: Seat, action: object) -> bool:
    return bool(module_of(state).order_independent(state, seat, action))


def hidden_variant(state: State, viewer: Viewer, rng: random.Random) -> State:
    variant: State = module_of(state).hidden_variant(state, viewer, rng)
    return variant


def describe(action: Action) -> str:
    """An action in words, for a player's own record."""
    kind = action.get("type")
    tiers = ("S", "A", "B", "C", "D")
    tier = action.get("tier")
    where = tiers[tier] if type(tier) is int and 0 <= tier < 5 else "the pool"
    if kind in ("note", "commit"):
        return "write the note"
    if kind == "count":
        return f"count {action.get('correct')} correct"
    if kind == "reveal":
        return "reveal the note"
    if kind == "void":
        return "give up the round (no note)"
    if kind in ("move", "take"):
        return f"{kind} {action.get('picture')} to {where}"
    if kind == "place":
        return f"place your picture on {where}"
    if kind in ("lock", "unlock", "wrong", "silent"):
        return {"lock": "lock in", "unlock": "unlock", "wrong": "say Wrong",
                "silent": "stay silent"}[str(kind)]
    return "an unknown action"


__all__ = ["GAME_ID", "MODES", "State", "actors", "apply", "check", "describe", "format_log",
           "hidden_variant", "legal", "order_independent", "result", "setup", "timer", "view"]
