"""What the three S-tier modes' states and views share, written once.

Every mode plays rounds, each with the next topic, and ends in phase
``over``; its view opens with the same frame (game, mode, seats, round,
phase, actors, tiers) and closes with the log, the last event and the
result, so the tables read those keys the same way in every mode. The
states stay separate frozen dataclasses (their fields are what saves
store); these bases only add properties.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from lanplay.game import Result, Seat, View, Viewer, log_view, per_state
from lanplay.games.s_tier.common import GAME_ID, TIERS, LogLine, Topic, plain, topic_of
from lanplay.rng import shuffled


class Rounds:
    """The fields every mode's state has, and what follows from them."""

    players: int
    round: int
    phase: str
    topics: tuple[Topic, ...]
    log: tuple[LogLine, ...]
    last: Mapping[str, Any] | None

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def topic(self) -> Topic:
        return topic_of(self.topics, self.round)


class OneLeader(Rounds):
    """A mode with one leader a round (cooperative, competitive): everyone else guesses."""

    leader: Seat

    @property
    def guessers(self) -> tuple[Seat, ...]:
        return tuple(s for s in range(self.players) if s != self.leader)


def framed_view(state: Rounds, mode: str, viewer: Viewer, actors: frozenset[Seat],
                result: Result | None, table: Mapping[str, Any]) -> View:
    """``table`` (the mode's own keys) between the frame every mode's view shares.

    The frame but ``you`` follows from the state alone (``actors`` and ``result`` are
    the state's own): it is built once per state, and every viewer's view shares its
    parts (up to 17 views a state; the host's diff then looks at each part once)."""
    head, tail = per_state(state, "_frame_view", lambda: _frame(state, actors, result))
    return {"game": GAME_ID, "mode": mode, "you": viewer, **head, **table, **tail}


def _frame(state: Rounds, actors: frozenset[Seat], result: Result | None
           ) -> tuple[dict[str, Any], dict[str, Any]]:
    head = {"players": state.players, "round": state.round, "phase": state.phase,
            "actors": sorted(actors), "tiers": list(TIERS)}
    tail = {
        "log": log_view(state),
        "last": per_state(state, "_last_view", lambda: plain(state.last))
        if state.last is not None else None,
        "over": result is not None,
        "winners": None if result is None else list(result.winners),
        "scores": None if result is None else list(result.scores),
    }
    return head, tail


def unseen_topics(topics: Sequence[Topic], round_no: int, current_hidden: bool,
                  rng: random.Random) -> tuple[Topic, ...]:
    """``topics`` with every one a viewer has not seen reshuffled (hidden variants):
    the later rounds', and this round's too while ``current_hidden``."""
    start = round_no if current_hidden else round_no + 1
    out = list(topics)
    if start - 1 < len(out):
        out[start - 1:] = shuffled(out[start - 1:], rng)
    return tuple(out)


__all__ = ["OneLeader", "Rounds", "framed_view", "unseen_topics"]
