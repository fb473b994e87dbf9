"""Ranagedon (2-4 players): flick frog discs onto enemy frogs and the golden lily pad.

The rules and every decision taken where the rulebook is silent are in the
docstrings of ``rules.py`` (turns, sides, deployment), ``model.py`` (the
jump, settling, scoring) and ``slide.py`` (the pymunk dive), and in
``help.md`` (what players read on F1). This module only binds them to the
``lanplay.game.Game`` surface.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lanplay.game import Action, Mode, Option, Result, Seat, Timer, View, Viewer
from lanplay.games.ranagedon import bot as player
from lanplay.games.ranagedon import rules
from lanplay.games.ranagedon.rules import State


class Ranagedon:
    """The Game surface of Ranagedon; stateless, so one module-level instance."""

    id = rules.GAME_ID
    name = "Ranagedon"
    summary = "Make your frogs jump onto enemy frogs and into the golden lily pad."
    modes = (Mode("standard", "Standard", rules.MIN_PLAYERS, rules.MAX_PLAYERS,
                  "The rulebook game: 2 players, 3 players, or 4 in two teams."),)
    options = (
        Option("abilities", "Frog abilities", rules.PRINTED, rules.ABILITY_CHOICES,
               "printed: 2 players by border colour, 4 players by frog colour, 3 players "
               "none (as the rulebook's icons read). alternate: 3 players by frog colour, "
               "4 players by border colour."),
        Option("deploy_seconds", "Seconds to deploy", 0, rules.DEPLOY_CHOICES,
               "0: no limit. Otherwise sides that have not deployed when time is up take "
               "their first suggested cluster."),
    )
    rules_help = Path(__file__).with_name("help.md").read_text(encoding="utf-8")

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int) -> State:
        if mode != "standard":
            raise ValueError(f"Ranagedon has no mode {mode!r}; choose standard")
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
        return rules.timer(state, options)

    def order_independent(self, state: State, seat: Seat, action: Action) -> bool:
        """Deployments commute: each side places only in its own sector."""
        return (isinstance(action, dict) and action.get("type") == "deploy"
                and state.phase == rules.DEPLOY)

    def hidden_variant(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        return rules.hidden_variant(state, viewer, rng)

    def bot(self, view: View, seat: Seat, rng: random.Random) -> Action | None:
        return player.choose(view, seat, rng)

    def describe(self, action: Action) -> str:
        return rules.describe(action)

    def format_log(self, entry: Mapping[str, Any], names: list[str]) -> str:
        return rules.format_log(entry, names)


GAME = Ranagedon()

__all__ = ["GAME", "Ranagedon"]
