"""A Ranagedon player that sees only its view: aim a free frog at the best target.

Targets are the top of every frog or stack it may step on (worth the enemy
frogs it would stand on, plus what the enemy top was scoring) and the lily
pad (worth its bonus). Each is weighed by the chance the jump succeeds: no
flip, and scatter (the model's spread at that strength) small enough to hit.
The aim inverts the model's distance ``D = 20 + 380 s^1.5`` and presses the
border opposite the target, with a little seeded noise. It never dives (a
slide is hard to judge from a view) and declines an extra jump that is not
worth the risk. Deployment takes a suggested cluster.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from lanplay.game import Action, Seat, View
from lanplay.games.ranagedon import model
from lanplay.games.ranagedon.geometry import PAD_R, R, dist

AIM_NOISE = 0.015
"""Radians of the bot's own hand shake."""
POWER_NOISE = 0.01
PAD_AIM = PAD_R - R
MIN_AGAIN = 0.35
"""An extra jump is taken only when its expected gain is at least this."""
FREE_COST = 0.25
"""A frog that ends on a stack can never jump again."""
PRESS = 13.5


def _below(frogs: Sequence[Mapping[str, Any]], fid: int) -> set[int]:
    seen: set[int] = set()
    todo = list(frogs[fid]["supports"])
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo.extend(frogs[f]["supports"])
    return seen


def _hit_chance(d: float, s: float, tolerance: float) -> float:
    lateral = max(1e-6, d * math.radians(model.ANGLE_BASE_DEG + model.ANGLE_POWER_DEG * s))
    along = max(1e-6, model.reach(s) * (model.DIST_SD_BASE + model.DIST_SD_POWER * s))
    root2 = math.sqrt(2)
    return (math.erf(tolerance / (lateral * root2)) * math.erf(tolerance / (along * root2))
            * (1 - model.flip_chance(s)))


def _targets(frogs: Sequence[Mapping[str, Any]], side: int,
             ) -> list[tuple[float, float, float, float, set[int]]]:
    """(x, y, value, tolerance, frogs under the landing) for every place worth a jump."""
    out = []
    for t in frogs:
        if t["covered"]:
            continue
        under = {t["id"], *_below(frogs, t["id"])}
        enemies = sum(1 for f in under if frogs[f]["side"] != side)
        value = float(enemies)
        if t["side"] != side:
            value += sum(1 for f in under if frogs[f]["side"] != t["side"])
            value += 0.5 if t["free"] else 0.0
            value += 1.0 if t["pad"] == "partly" else 0.0
        else:
            value -= FREE_COST if t["free"] else 0.0
        tolerance = R + (model.MARGIN_TABLE if t["level"] == 0 else model.MARGIN_STACK)
        out.append((t["x"], t["y"], value - FREE_COST, tolerance, under))
    return out


def _plan(view: View, side: int, movers: Sequence[int],
          ) -> tuple[float, int, float, float] | None:
    """(expected gain, frog, direction, distance) of the best jump, or None."""
    frogs = view["frogs"]
    pad = view["pad"]
    targets = _targets(frogs, side)
    best: tuple[float, int, float, float] | None = None
    for fid in movers:
        me = frogs[fid]
        options = [(x, y, v, tol) for x, y, v, tol, under in targets
                   if fid not in under and (me["ability"] == model.POISON
                                            or all(frogs[u]["ability"] != model.POISON
                                                   for u in under))]
        if me["pad"] != "inside":
            gain = model.INSIDE_BONUS - (1.0 if me["pad"] == "partly" else 0.0)
            options.append((pad["x"], pad["y"], gain, PAD_AIM))
        for x, y, value, tol in options:
            d = dist(me["x"], me["y"], x, y)
            if d < model.DIST_MIN or d > model.DIST_MIN + model.DIST_SPAN:
                continue
            s = model.strength_for(d)
            expected = value * _hit_chance(d, s, tol)
            if best is None or expected > best[0]:
                best = (expected, fid, math.atan2(y - me["y"], x - me["x"]), d)
    return best


def _aim(fid: int, phi: float, d: float, rng: random.Random) -> Action:
    theta = math.remainder(phi + math.pi + rng.uniform(-AIM_NOISE, AIM_NOISE), 2 * math.pi)
    s = min(1.0, max(0.0, model.strength_for(d) + rng.uniform(-POWER_NOISE, POWER_NOISE)))
    return {"type": "jump", "frog": fid, "theta": theta, "r": PRESS, "s": s}


def choose(view: View, seat: Seat, rng: random.Random) -> Action | None:
    """This seat's action now, or None when it is not an actor."""
    if view.get("over") or seat not in view.get("actors", []):
        return None
    if view["phase"] == "deploy":
        return {"type": "deploy", "cluster": rng.randrange(len(view["clusters"][0]))}
    side = view["side_of"][seat]
    frogs = view["frogs"]
    if view["phase"] == "again":
        fid = view["again"]["frog"]
        plan = _plan(view, side, [fid])
        if plan is None or plan[0] < MIN_AGAIN:
            return {"type": "stop"}
        return _aim(fid, plan[2], plan[3], rng)
    movers = [f["id"] for f in frogs if f["free"] and f["side"] == side]
    if not movers:
        return None
    plan = _plan(view, side, movers)
    if plan is not None:
        return _aim(plan[1], plan[2], plan[3], rng)
    fid = movers[0]
    me = frogs[fid]
    enemy = min((f for f in frogs if f["side"] != side),
                key=lambda f: dist(me["x"], me["y"], f["x"], f["y"]))
    phi = math.atan2(enemy["y"] - me["y"], enemy["x"] - me["x"])
    return _aim(fid, phi, min(200.0, dist(me["x"], me["y"], enemy["x"], enemy["y"])), rng)
