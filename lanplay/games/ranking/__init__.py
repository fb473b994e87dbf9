"""Ranking (3-5 players): rank picture tiles up and down a tower, and guess whose tile is whose.

The rules, and every decision taken where the rulebook is silent, are in
``rules.py`` (module docstring) and ``help.md`` (what players read on F1).
This module only binds them to the ``lanplay.game.Game`` surface and fetches
the content (pictures and questions) once, at setup.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lanplay.content import in_play
from lanplay.game import Action, Mode, Option, Seat, Timer
from lanplay.games.binding import RulesGame
from lanplay.games.ranking import bot as player
from lanplay.games.ranking import rules
from lanplay.games.ranking import state as data
from lanplay.games.ranking.state import State


class Ranking(RulesGame):
    """The Game surface of Ranking; stateless, so one module-level instance."""

    rules = rules
    player = player

    id = data.GAME_ID
    name = "Ranking"
    summary = ("Everyone slips a picture into the row; compare pairs up and down the tower "
               "and guess whose picture is whose.")
    modes = (Mode("standard", "Standard", data.MIN_PLAYERS, data.MAX_PLAYERS,
                  "The rulebook game for 3-5 players."),)
    options = (
        Option("question_side", "Question side", "red", data.SIDES,
               "Which side of the question tiles to play with; both are equally hard."),
        Option("place_seconds", "Seconds to place a tile", 0, data.PLACE_SECONDS,
               "0 = no limit. When time is up, a random tile of each late player's hand "
               "is placed for them."),
        Option("guess_seconds", "Seconds to guess", 30, data.GUESS_SECONDS,
               "How long the others have to place a guess stone after each comparison; "
               "missing answers count as passes. 0 = no limit."),
        Option("pack", "Picture pack", "", (),
               "A custom pack from your packs folder; empty = the built-in pictures."),
    )
    rules_help = Path(__file__).with_name("help.md").read_text(encoding="utf-8")

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int) -> State:
        self.check_mode(mode)
        return rules.setup(players, options, seed, in_play.for_options(options))

    def timer(self, state: State, options: Mapping[str, Any]) -> Timer | None:
        """The place and guess waits, each with its own host option (0 = no timer)."""
        action = rules.timer_action(state)
        if action is None:
            return None
        if state.phase == "place":
            seconds, key = options.get("place_seconds", 0), f"place-{state.round}"
        else:
            seconds, key = options.get("guess_seconds", 30), f"guess-{state.step}"
        if not isinstance(seconds, int | float) or seconds <= 0:
            return None
        return Timer(key, seconds, action)

    def order_independent(self, state: State, seat: Seat, action: Action) -> bool:
        """Placing and guessing are simultaneous answers; comparing is not."""
        return isinstance(action, Mapping) and action.get("type") in ("place", "guess", "pass")


GAME = Ranking()

__all__ = ["GAME", "Ranking"]
