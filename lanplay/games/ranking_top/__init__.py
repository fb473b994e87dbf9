"""Ranking Top (3-5 players): race to build your Ranking Top from 5 down to 1,
topping your opponents' plays on the way.

The rules, and every decision taken where the rulebook is silent, are in
``rules.py`` (module docstring) and ``help.md`` (what players read on F1).
This module only binds them to the ``lanplay.game.Game`` surface.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lanplay.game import Action, Mode, Option, Result, Seat, Timer, View, Viewer
from lanplay.games.ranking_top import bot as player
from lanplay.games.ranking_top import rules
from lanplay.games.ranking_top import view as views
from lanplay.games.ranking_top.state import (
    DEFAULT_TOP_SECONDS,
    GAME_ID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TOP_SECONDS,
    State,
)


class RankingTop:
    """The Game surface of Ranking Top; stateless, so one module-level instance."""

    id = GAME_ID
    name = "Ranking Top"
    summary = ("A music race: play songs 5 down to 1 into your Ranking Top, and say "
               "\"top\" to cancel your opponents' plays.")
    modes = (Mode("standard", "Standard", MIN_PLAYERS, MAX_PLAYERS,
                  "The rulebook game for 3-5 players."),)
    options = (
        Option("top_seconds", "Seconds to say top", DEFAULT_TOP_SECONDS, TOP_SECONDS,
               "How long every play waits for a top before it takes effect "
               "(0: no timer, the window waits until everyone passed)."),
    )
    rules_help = Path(__file__).with_name("help.md").read_text(encoding="utf-8")

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int) -> State:
        if mode != "standard":
            raise ValueError(f"Ranking Top has no mode {mode!r}; choose standard")
        return rules.setup(players, options, seed)

    def actors(self, state: State) -> frozenset[Seat]:
        return rules.actors(state)

    def legal(self, state: State, seat: Seat) -> list[Action]:
        return rules.legal(state, seat)

    def check(self, state: State, seat: Seat, action: Action) -> None:
        rules.check(state, seat, action)

    def apply(self, state: State, seat: Seat, action: Action) -> State:
        return rules.apply(state, seat, action)

    def view(self, state: State, viewer: Viewer) -> View:
        return views.view(state, viewer)

    def result(self, state: State) -> Result | None:
        return rules.result(state)

    def timer(self, state: State, options: Mapping[str, Any]) -> Timer | None:
        """One timer per window (key ``window-k``); ``top_seconds`` 0 means none.

        The seconds were copied into the state at setup, so the timer never
        disagrees with the game that is running.
        """
        action = rules.timer_action(state)
        if action is None or state.top_seconds <= 0:
            return None
        return Timer(f"window-{state.window}", float(state.top_seconds), action)

    def order_independent(self, state: State, seat: Seat, action: Action) -> bool:
        """A pass names its window, so it commutes with other seats' passes; a top,
        which reopens the window, and a play never do."""
        try:
            return (isinstance(action, Mapping) and action.get("type") == "pass"
                    and state.phase == "window")
        except Exception:
            return False

    def hidden_variant(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        return rules.hidden_variant(state, viewer, rng)

    def bot(self, view: View, seat: Seat, rng: random.Random) -> Action | None:
        return player.choose(view, seat, rng)

    def describe(self, action: Action) -> str:
        return views.describe(action)

    def format_log(self, entry: Mapping[str, Any], names: list[str]) -> str:
        return views.format_log(entry, names)


GAME = RankingTop()

__all__ = ["GAME", "RankingTop"]
