"""Ranagedon (2-4 players): flick frog discs onto enemy frogs and the golden lily pad.

The rules and every decision taken where the rulebook is silent are in the
docstrings of ``rules.py`` (turns, sides, deployment), ``model.py`` (the
jump, settling, scoring) and ``slide.py`` (the pymunk dive), and in
``help.md`` (what players read on F1). This module only binds them to the
``lanplay.game.Game`` surface.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lanplay.game import Action, Mode, Option, Seat, Timer, Viewer
from lanplay.games.binding import RulesGame
from lanplay.games.ranagedon import bot as player
from lanplay.games.ranagedon import rules
from lanplay.games.ranagedon.may import templates
from lanplay.games.ranagedon.rules import State


class Ranagedon(RulesGame):
    """The Game surface of Ranagedon; stateless, so one module-level instance."""

    rules = rules
    player = player

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

    def timer(self, state: State, options: Mapping[str, Any]) -> Timer | None:
        return rules.timer(state, options)

    def teams(self, players: int, mode: str) -> list[list[Seat]] | None:
        """With 4 players, the room shows the two teams (green: seats 1 and 3, red:
        seats 2 and 4) while the owner reorders seats; otherwise no teams."""
        return rules.side_seats(players) if players == 4 else None

    def may(self, state: State, viewer: Viewer) -> list[Action]:
        """Jumps and dives with their bounds, not ``legal``'s sample (``may.py``)."""
        return templates(state, viewer)

    def order_independent(self, state: State, seat: Seat, action: Action) -> bool:
        """Deployments commute: each side places only in its own sector."""
        return (isinstance(action, dict) and action.get("type") == "deploy"
                and state.phase == rules.DEPLOY)


GAME = Ranagedon()

__all__ = ["GAME", "Ranagedon"]
