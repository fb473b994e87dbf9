"""The one binding of a pure rules module to the ``lanplay.game.Game`` surface.

Every game's rules live in its rules module (decisions in its docstring and
help.md); the Game object only forwards to it. Writing that forwarding once
keeps each game's ``__init__`` down to what a host and a player see (name,
modes, options, help) and what really differs between games (content at
setup, timers, what commutes, teams), so the five surfaces cannot drift apart.
It also adds to every view what the viewer may do now (``may``, docs/GAMES.md),
so no client has to re-implement the rules to know it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from lanplay.game import (
    Action,
    Game,
    Result,
    Seat,
    Timer,
    View,
    Viewer,
    format_log,
    game_word,
)
from lanplay.messages import Problem, items, msg


class RulesGame(Game):
    """A Game that forwards to ``rules`` (the pure rules) and ``player`` (the bot).

    Subclassing the protocol makes mypy check every binding against it; a
    subclass sets the metadata (``id``, ``name``, ``modes`` ...) and the modules.

    The defaults for ``timer`` and ``order_independent`` are the safe answers
    of a game without them: no deadline, and nothing commutes. A game with
    timers or simultaneous answers overrides them.
    """

    rules: ModuleType
    player: ModuleType
    secrets: ModuleType | None = None
    """A secret a player keeps on their own laptop (``lanplay.game.Secrets``), if any."""

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int) -> Any:
        """Refuse an unknown mode, then deal; a game with content or modes overrides."""
        self.check_mode(mode)
        return self.rules.setup(players, options, seed)

    def check_mode(self, mode: str) -> None:
        if all(m.id != mode for m in self.modes):
            raise Problem(msg("{game} has no mode {mode}; choose one of {modes}.",
                              game=game_word(self), mode=repr(mode)[:60],
                              modes=items([m.id for m in self.modes])))

    def actors(self, state: Any) -> frozenset[Seat]:
        found: frozenset[Seat] = self.rules.actors(state)
        return found

    def legal(self, state: Any, seat: Seat) -> list[Action]:
        found: list[Action] = self.rules.legal(state, seat)
        return found

    def check(self, state: Any, seat: Seat, action: Action) -> None:
        self.rules.check(state, seat, action)

    def apply(self, state: Any, seat: Seat, action: Action) -> Any:
        return self.rules.apply(state, seat, action)

    def view(self, state: Any, viewer: Viewer) -> View:
        """The rules' view with what the viewer may do now (``may``) added at the end."""
        seen = self.table_view(state, viewer)
        seen["may"] = self.may(state, viewer)
        return seen

    def table_view(self, state: Any, viewer: Viewer) -> View:
        """The rules' own view (everything but ``may``); a fresh map each call."""
        seen: View = self.rules.view(state, viewer)
        return seen

    def may(self, state: Any, viewer: Viewer) -> list[Action]:
        """What ``viewer`` may send now, as action templates (docs/GAMES.md, "What a seat
        may do"): nothing for a spectator or a seat that cannot act, else its legal
        actions. A game whose ``legal`` samples a continuous action overrides this
        with templates that give the action's bounds instead of a sample."""
        if viewer is None or viewer not in self.rules.actors(state):
            return []
        found: list[Action] = self.rules.legal(state, viewer)
        return found

    def result(self, state: Any) -> Result | None:
        found: Result | None = self.rules.result(state)
        return found

    def timer(self, state: Any, options: Mapping[str, Any]) -> Timer | None:
        return None

    def order_independent(self, state: Any, seat: Seat, action: Action) -> bool:
        return False

    def hidden_variant(self, state: Any, viewer: Viewer, rng: random.Random) -> Any:
        return self.rules.hidden_variant(state, viewer, rng)

    def bot(self, view: View, seat: Seat, rng: random.Random) -> Action | None:
        chosen: Action | None = self.player.choose(view, seat, rng)
        return chosen

    def describe(self, action: Action) -> str:
        """An action in words, for a player's own record."""
        return str(self.rules.describe(action))

    def format_log(self, entry: Mapping[str, Any], names: list[str]) -> str:
        """A public log line with the seats' names filled in (the same for every game)."""
        return format_log(entry, names)


__all__ = ["RulesGame"]
