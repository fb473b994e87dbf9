"""A legal S-tier game of many ``move`` actions and the frames a seat got, as the host
makes them: built once for the tests of a long audit check (issue 23, finding 8)."""

from __future__ import annotations

import random
from typing import Any

from lanplay import games
from lanplay.fair import audit
from lanplay.fair.seed import Exchange, seeded_bytes
from lanplay.fair.witness import Witness
from lanplay.game import SYSTEM
from lanplay.peer.keeper import Laptops
from lanplay.session import Session
from protocol import delta
from protocol.codec import decode_body, pack
from protocol.messages import (
    Audit,
    Contributions,
    Delta,
    GameOver,
    Message,
    SeedCommit,
    Snapshot,
    to_wire,
)

SEED = 23
PLAYERS = 3
VIEWER = 1
"""The seat whose laptop checks the audit (a guesser in the first round)."""
CONTRIBUTION_SEED = SEED * 10 + VIEWER
"""A ``Peer``'s ``contribution_seed`` that makes its contribution the one built here."""


def wire(msg: Message) -> Message:
    return decode_body(pack(to_wire(msg)))


def build(extra: int) -> tuple[list[Message], list[Audit]]:
    """The frames seat ``VIEWER`` got (commit .. game_over) and the audit's parts, of a
    cooperative S-tier game in which the guessers moved a picture ``extra`` times
    in the first round before playing on as bots do."""
    game = games.load("s-tier")
    exchange = Exchange(1, PLAYERS, seeded_bytes(SEED, "secret", 1))
    commit = SeedCommit(1, exchange.commitment, PLAYERS, 5.0)
    for v in range(PLAYERS):
        exchange.offer(v, 1, seeded_bytes(SEED * 10 + v, "contribution", 1).hex())
    fair = exchange.close(lambda s: seeded_bytes(SEED, "drawn", 1, s))
    session = Session(game, PLAYERS, "cooperative", None, fair.seed)
    session.fair = fair
    told = Contributions(1, fair.commitment, fair.hex_values(), list(fair.drawn))
    frames: list[Message] = [wire(commit), wire(told), wire(session.snapshot(VIEWER))]
    rngs = {s: random.Random(SEED * 100 + s) for s in range(PLAYERS)}
    laptops = Laptops(game, random.Random(SEED))
    bounced = 0
    while session.result is None:
        state = session.state
        move = laptops.due(state)
        if move is None and bounced < extra and state.phase == "guess":
            seat = min(s for s in session.actors())
            picture = state.faces[0]
            move = (seat, {"type": "move", "picture": picture, "tier": None
                           if bounced % 2 else next(t for t in range(5) if t != state.hint)})
            bounced += 1
        for seat in sorted(session.actors()):
            if move is not None:
                break
            action = game.bot(laptops.shown(state, seat), seat, rngs[seat])
            if action is not None:
                move = (seat, laptops.send(state, seat, action))
        if move is None:
            timer = session.timer()
            assert timer is not None
            move = (SYSTEM, dict(timer.action))
        session.submit(*move)
        frames.append(wire(session.deltas([VIEWER])[VIEWER]))
    assert session.result is not None
    frames.append(wire(GameOver(session.state_id, session.result.to_wire(), "finished")))
    parts = [wire(p) for p in audit.messages(fair, game.id, session.mode, session.options,
                                              [(e.seat, e.action) for e in session.log])]
    return frames, [p for p in parts if isinstance(p, Audit)]


def witnessed(frames: list[Message]) -> Witness:
    """A witness that was fed ``frames`` as the peer of seat ``VIEWER`` feeds it."""
    witness = Witness(lambda n: seeded_bytes(CONTRIBUTION_SEED, "contribution", n))
    view: dict[str, Any] | None = None
    for msg in frames:
        if isinstance(msg, SeedCommit):
            witness.on_commit(msg, VIEWER)
        elif isinstance(msg, Contributions):
            witness.on_contributions(msg)
        elif isinstance(msg, Snapshot):
            view = msg.view
            witness.on_view(msg.state_id, view, VIEWER)
        elif isinstance(msg, Delta):
            assert view is not None
            view = delta.apply(view, msg.ops)
            witness.on_view(msg.state_id, view, VIEWER, msg.ops)
        elif isinstance(msg, GameOver):
            witness.on_game_over(msg)
    return witness
