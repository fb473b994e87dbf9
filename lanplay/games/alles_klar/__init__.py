"""Alles klar? (2-5 players): a trick game where Roman numerals decide which card wins.

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
from lanplay.games.alles_klar import bot as player
from lanplay.games.alles_klar import rules
from lanplay.games.alles_klar.rules import State


class AllesKlar:
    """The Game surface of Alles klar?; stateless, so one module-level instance."""

    id = rules.GAME_ID
    name = "Alles klar?"
    summary = "Lay cards and turn down ranking cards until it is clear which card takes the trick."
    modes = (Mode("standard", "Standard", rules.MIN_PLAYERS, rules.MAX_PLAYERS,
                  "The rulebook game for 2-5 players."),)
    options = (
        Option("hand_size", "Cards in hand", 4, rules.HAND_SIZES,
               "How many cards each player holds (the rulebook deals 4)."),
        Option("end_rule", "End of the game", rules.FINISH_TRICK, rules.END_RULES,
               "finish-trick: when the draw pile is empty the current trick is played "
               "out and the game ends (rulebook). empty-hands: keep playing tricks until "
               "every hand is empty (house rule)."),
    )
    rules_help = Path(__file__).with_name("help.md").read_text(encoding="utf-8")

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int) -> State:
        if mode != "standard":
            raise ValueError(f"Alles klar? has no mode {mode!r}; choose standard")
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
        return rules.view(state, viewer)

    def result(self, state: State) -> Result | None:
        return rules.result(state)

    def timer(self, state: State, options: Mapping[str, Any]) -> Timer | None:
        """No timers: every wait is for one player's turn."""
        return None

    def order_independent(self, state: State, seat: Seat, action: Action) -> bool:
        """A play always depends on the table it was made against."""
        return False

    def hidden_variant(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        return rules.hidden_variant(state, viewer, rng)

    def bot(self, view: View, seat: Seat, rng: random.Random) -> Action | None:
        return player.choose(view, seat, rng)

    def describe(self, action: Action) -> str:
        return rules.describe(action)

    def format_log(self, entry: Mapping[str, Any], names: list[str]) -> str:
        return rules.format_log(entry, names)


GAME = AllesKlar()

__all__ = ["GAME", "AllesKlar"]
