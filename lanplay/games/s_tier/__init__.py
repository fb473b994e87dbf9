"""S-tier (2-16 players): guess how the leader ranked five pictures on a tier list.

Three modes: cooperative (2-6), competitive (4-11) and team (4-16). The rules
and every decision taken where the rulebook is silent are in ``coop.py``,
``competitive.py``, ``team.py`` (module docstrings) and ``help.md`` (what
players read on F1). This module only binds them (through ``rules.py``, which
dispatches on the mode) to the Game surface and hands ``rules.setup`` the
content library the options name. The leader's note stays on the leader's
laptop: ``secret.py`` is what that laptop does with it (``secrets``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lanplay.content import in_play
from lanplay.game import Action, Mode, Option, Seat, Timer, Viewer
from lanplay.games.binding import RulesGame
from lanplay.games.s_tier import bot as player
from lanplay.games.s_tier import competitive, coop, rules, secret, team
from lanplay.games.s_tier.may import templates
from lanplay.games.s_tier.rules import State


class STier(RulesGame):
    """The Game surface of S-tier; stateless, so one module-level instance."""

    rules = rules
    player = player
    secrets = secret

    id = rules.GAME_ID
    name = "S-tier"
    summary = "The leader ranks five pictures from S to D on a secret note; guess how."
    modes = (
        Mode(coop.MODE, "Cooperative", coop.MIN_PLAYERS, coop.MAX_PLAYERS,
             "Everyone together arranges one board to match the leader's note."),
        Mode(competitive.MODE, "Competitive", competitive.MIN_PLAYERS, competitive.MAX_PLAYERS,
             "Each player guesses the tier of their own picture, without discussion."),
        Mode(team.MODE, "Team", team.MIN_PLAYERS, team.MAX_PLAYERS,
             "Two teams (even and odd seats) race their tokens to the star."),
    )
    options = (
        Option(in_play.PACK_OPTION, "Picture pack", "", (),
               "A custom pack from your packs folder; empty = the built-in pictures."),
        Option("text_side", "Harder game (text side)", False, (),
               "Effects on the track start working as the tokens cross them.",
               modes=("cooperative",)),
        Option("coop_track", "Steps to the star", 4, coop.TRACKS,
               "How far each token is from the star.", modes=("cooperative",)),
        Option("team_track", "Steps to the star", 5, team.TRACKS,
               "How far each team's token is from the star.", modes=("team",)),
        Option("guess_seconds", "Time to guess (s)", 300, coop.GUESS_SECONDS,
               "The board is submitted as it lies when time runs out; 0 = no limit.",
               modes=("cooperative",)),
        Option("place_seconds", "Time to place (s)", 60, competitive.PLACE_SECONDS,
               "An unplaced picture counts as wrong when time runs out; 0 = no limit.",
               modes=("competitive",)),
    )
    rules_help = Path(__file__).with_name("help.md").read_text(encoding="utf-8")

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int) -> State:
        return rules.setup(players, mode, options, seed, in_play.for_options(options))

    def timer(self, state: State, options: Mapping[str, Any]) -> Timer | None:
        return rules.timer(state, options)

    def order_independent(self, state: State, seat: Seat, action: Action) -> bool:
        return rules.order_independent(state, seat, action)

    def may(self, state: State, viewer: Viewer) -> list[Action]:
        """``legal``, but a note's commitment and its reveal as templates (``may.py``)."""
        return templates(state, viewer)

    def teams(self, players: int, mode: str) -> list[list[Seat]] | None:
        """The teams the room shows while seats are reordered (G8): even and odd
        seats in team mode, none otherwise."""
        if mode != "team":
            return None
        return [list(range(0, players, 2)), list(range(1, players, 2))]


GAME = STier()

__all__ = ["GAME", "STier"]
