"""Ranking Top (3-5 players): race to build your Ranking Top from 5 down to 1,
topping your opponents' plays on the way.

The rules, and every decision taken where the rulebook is silent, are in
``rules.py`` (module docstring) and ``help.md`` (what players read on F1).
This module only binds them to the ``lanplay.game.Game`` surface; what
players see (the view and the words for actions and log lines) lives in
``view.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lanplay.game import Action, Mode, Option, Seat, Timer, View, Viewer
from lanplay.games.binding import RulesGame
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


class RankingTop(RulesGame):
    """The Game surface of Ranking Top; stateless, so one module-level instance."""

    rules = rules
    player = player

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

    def table_view(self, state: State, viewer: Viewer) -> View:
        return views.view(state, viewer)

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

    def describe(self, action: Action) -> str:
        return views.describe(action)


GAME = RankingTop()

__all__ = ["GAME", "RankingTop"]
