"""The catalogue of games: what each is, and its rules module once written.

A game not yet implemented still has an entry (name, player range, modes), so
``lanplay games`` and the host dialog can show what is coming.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from lanplay.game import Game


@dataclass(frozen=True)
class Entry:
    id: str
    name: str
    players: tuple[int, int]
    modes: tuple[str, ...]
    module: str | None
    """Dotted path of the module whose ``GAME`` implements the surface."""

    @property
    def available(self) -> bool:
        return self.module is not None


CATALOGUE: tuple[Entry, ...] = (
    Entry("ranking", "Ranking", (3, 5), ("standard",), "lanplay.games.ranking"),
    Entry("s-tier", "S-tier", (2, 16), ("cooperative", "competitive", "team"),
          "lanplay.games.s_tier"),
    Entry("ranking-top", "Ranking Top", (3, 5), ("standard",), "lanplay.games.ranking_top"),
    Entry("ranagedon", "Ranagedon", (2, 4), ("standard",), "lanplay.games.ranagedon"),
    Entry("alles-klar", "Alles klar?", (2, 5), ("standard",), "lanplay.games.alles_klar"),
)


def entry(game_id: str) -> Entry:
    for e in CATALOGUE:
        if e.id == game_id:
            return e
    names = ", ".join(e.id for e in CATALOGUE)
    raise KeyError(f"no game {game_id!r}; the games are {names}")


def load(game_id: str) -> Game:
    """The rules module of an available game; KeyError with a reason otherwise."""
    e = entry(game_id)
    if e.module is None:
        raise KeyError(f"{e.name} is not available yet")
    game: Game = importlib.import_module(e.module).GAME
    return game


def available() -> list[Game]:
    return [load(e.id) for e in CATALOGUE if e.available]
