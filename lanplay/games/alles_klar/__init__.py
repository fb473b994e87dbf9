"""Alles klar? (2-5 players): a trick game where Roman numerals decide which card wins.

The rules, and every decision taken where the rulebook is silent, are in
``rules.py`` (module docstring) and ``help.md`` (what players read on F1).
This module only binds them to the ``lanplay.game.Game`` surface, keeping
``RulesGame``'s defaults: no timers (every wait is for one player's turn) and
nothing order-independent (a play always depends on the table it was made
against).
"""

from __future__ import annotations

from pathlib import Path

from lanplay.game import Mode, Option
from lanplay.games.alles_klar import bot as player
from lanplay.games.alles_klar import rules
from lanplay.games.binding import RulesGame


class AllesKlar(RulesGame):
    """The Game surface of Alles klar?; stateless, so one module-level instance."""

    rules = rules
    player = player

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


GAME = AllesKlar()

__all__ = ["GAME", "AllesKlar"]
