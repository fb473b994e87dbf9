"""Where each game's seed comes from.

``Play.start_game`` asks a ``SeedSource``; ``LocalSeeds`` is the host alone
choosing. A source that lets every laptop check the seed (the host commits to
a secret, the peers add their contributions, the seed is derived from all of
them) is another ``SeedSource`` beside it, handed to ``Host(seeds=...)``.
"""

from __future__ import annotations

import secrets
from typing import Protocol

from lanplay import rng
from lanplay.host.config import HostConfig


class SeedSource(Protocol):
    def seed(self, games_played: int) -> int:
        """The seed of the next game, ``games_played`` games into this room."""
        ...


class LocalSeeds:
    """``config.seed`` if set, else a random base per game; each later game in the
    room derives its own seed from that base."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config

    def seed(self, games_played: int) -> int:
        base = self.config.seed if self.config.seed is not None else secrets.randbits(32)
        if games_played == 0:
            return base
        return rng.stream(base, "game", games_played).getrandbits(32)
