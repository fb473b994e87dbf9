"""Ranagedon's table invariants over seeded random play (issue 10).

The bots aim carefully and never dive, so they miss the table's edges and
crowds; random legal actions (any free frog, any angle, press distance and
strength, dives half the time a diver is chosen, the extra jump declined a
quarter of the time) find them. After every action of every game, at every
mode, player count and ``abilities`` option:

* every frog lies wholly on the table;
* no two frogs at one level overlap (touching, within the 0.01 mm rounding
  of stored positions, is allowed);
* every frog's level is one more than each frog it rests on, and it lies
  over each of them; a frog on the table rests on nothing.

``GAMES`` games per configuration (6 configurations) keep this to a few
seconds, about 15 500 actions; ``LANPLAY_RANAGEDON_GAMES=500`` plays many more.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from lanplay.game import Action, Seat
from lanplay.games.ranagedon import GAME, model, rules
from lanplay.games.ranagedon.geometry import RING_IN, TABLE_H, TABLE_W, TOUCH, R, dist
from lanplay.games.ranagedon.model import Frog

GAMES = int(os.environ.get("LANPLAY_RANAGEDON_GAMES", "20"))
CONFIGS = [(mode.id, players, abilities) for mode in GAME.modes
           for players in range(mode.min_players, mode.max_players + 1)
           for abilities in rules.ABILITY_CHOICES]


def problems(frogs: Sequence[Frog]) -> list[str]:
    """Every way the frogs break the table's invariants, in words."""
    out = []
    for f in frogs:
        if not (R <= f.x <= TABLE_W - R and R <= f.y <= TABLE_H - R):
            out.append(f"frog {f.id} (level {f.level}) is partly off the table at "
                       f"({f.x}, {f.y})")
        if f.level == 0 and f.supports:
            out.append(f"frog {f.id} is on the table but rests on {f.supports}")
        if f.level > 0 and not f.supports:
            out.append(f"frog {f.id} is at level {f.level} but rests on nothing")
        for s in f.supports:
            if frogs[s].level != f.level - 1:
                out.append(f"frog {f.id} at level {f.level} rests on frog {s} at level "
                           f"{frogs[s].level}")
            if dist(f.x, f.y, frogs[s].x, frogs[s].y) >= 2 * R:
                out.append(f"frog {f.id} rests on frog {s} but does not lie over it")
    for a, b in itertools.combinations(frogs, 2):
        d = dist(a.x, a.y, b.x, b.y)
        if a.level == b.level and d < 2 * R - TOUCH:
            out.append(f"frogs {a.id} and {b.id} at level {a.level} overlap: centres {d:.3f} "
                       "apart")
    return out


def random_action(state: rules.State, rng: random.Random) -> tuple[Seat, Action]:
    """A random legal action of the first actor (continuous, not legal()'s sample)."""
    seat = min(GAME.actors(state))
    if state.phase == rules.DEPLOY:
        return seat, {"type": "deploy", "cluster": rng.randrange(3)}
    if state.phase == rules.AGAIN:
        if rng.random() < 0.25:
            return seat, {"type": "stop"}
        fid = state.again_frog
        assert fid is not None
    else:
        side = rules.side_of(state.players, seat)
        fid = rng.choice([i for i in model.free_ids(state.frogs)
                          if state.frogs[i].side == side])
    theta, s = rng.uniform(-math.pi, math.pi), rng.random()
    if (state.phase == rules.JUMP and state.frogs[fid].ability == model.DIVE
            and rng.random() < 0.5):
        return seat, {"type": "dive", "frog": fid, "theta": theta, "s": s}
    return seat, {"type": "jump", "frog": fid, "theta": theta, "r": rng.uniform(RING_IN, R),
                  "s": s}


@pytest.mark.parametrize(("mode", "players", "abilities"), CONFIGS)
def test_after_every_random_action_frogs_lie_on_the_table_apart_and_on_their_supports(
        mode: str, players: int, abilities: str) -> None:
    outcomes: Counter[str] = Counter()
    divers = False
    for k in range(GAMES):
        seed = 10_000 * players + 1_000 * rules.ABILITY_CHOICES.index(abilities) + k
        rng = random.Random(seed)
        state = GAME.setup(players, mode, {"abilities": abilities}, seed)
        divers = divers or any(f.ability == model.DIVE for f in state.frogs)
        while GAME.result(state) is None:
            seat, action = random_action(state, rng)
            GAME.check(state, seat, action)
            state = GAME.apply(state, seat, action)
            assert state.last is not None
            outcomes[state.last.outcome] += 1
            found = problems(state.frogs)
            assert not found, (f"{players} players, abilities {abilities}, seed {seed}, "
                               f"step {state.step - 1}: {action} ({state.last.outcome}): "
                               f"{found}")
    # The games reached the cases that matter: edges, stacks and (with divers) both dives.
    assert outcomes["off_table"] and outcomes["stacked"] and outcomes["landed"]
    if divers:
        assert outcomes["dive_touched"] and outcomes["dive_clear"]
