"""How long the host spends on one jump and on one dive slide.

Run ``python -m lanplay.games.ranagedon.bench``. The layouts are the states
of seeded bot games (2 players, so divers exist), and every timed press is
drawn from a seeded generator, so runs measure the same work.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time

from lanplay.games.ranagedon import GAME, model, rules, slide


def layouts(games: int) -> list[rules.State]:
    """States in phase jump from seeded bot games."""
    out = []
    for seed in range(games):
        state = GAME.setup(2, "standard", {}, seed)
        rngs = [random.Random(seed), random.Random(seed + 1000)]
        while GAME.result(state) is None:
            seat = min(GAME.actors(state))
            if state.phase == rules.JUMP:
                out.append(state)
            action = GAME.bot(GAME.view(state, seat), seat, rngs[seat])
            assert action is not None
            state = GAME.apply(state, seat, action)
    return out


def measure(actions: int = 2000, games: int = 10) -> dict[str, float]:
    """Microseconds per jump (model and whole ``apply``) and per slide: median and mean."""
    states = layouts(games)
    rng = random.Random(1)
    jumps, applies, slides = [], [], []
    for i in range(actions):
        state = states[i % len(states)]
        seat = state.turn
        assert seat is not None
        free = [f for f in model.free_ids(state.frogs)
                if state.frogs[f].side == rules.side_of(2, seat)]
        fid = free[int(rng.random() * len(free))]
        theta, s = rng.random() * 2 * math.pi, rng.random()
        draws = model.Draws(rng.random(), rng.random(), rng.random(), rng.random())
        t = time.perf_counter()
        model.jump(state.frogs, fid, theta, s, draws)
        jumps.append(time.perf_counter() - t)
        action = {"type": "jump", "frog": fid, "theta": theta, "r": 13.5, "s": s}
        t = time.perf_counter()
        GAME.apply(state, seat, action)
        applies.append(time.perf_counter() - t)
        t = time.perf_counter()
        slide.simulate(state.frogs, fid, theta, slide.slide_length(s))
        slides.append(time.perf_counter() - t)
    out = {}
    for name, samples in (("jump", jumps), ("jump_apply", applies), ("slide", slides)):
        out[f"{name}_median_us"] = round(statistics.median(samples) * 1e6, 1)
        out[f"{name}_mean_us"] = round(statistics.fmean(samples) * 1e6, 1)
    return out


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for key, value in measure(count).items():
        print(f"{key:20} {value:10.1f}")
