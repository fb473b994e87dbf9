"""Frogs that jump: the closed-form hop, settling on stacks, and scoring (RANAGEDON-MODEL.md).

A 2-D engine has no height, so jumps and stacks are a 2.5-D model: a frog
has a position, a stack level and the frogs it rests on. A jump is computed
landing point first from four uniform draws given in a fixed order (flip,
angle, distance, skid), so the model itself holds no randomness and a test
can pass "no scatter" draws.

Decisions where the model leaves room (also in help.md):

* Bridge: a landing is also stable when it lies within the margin m of the
  segment joining two of the top frogs it overlaps.
* Slide-off moves the frog until it just touches the nearest top frog
  (centres 2R apart), away from it.
* Skid: ``min(0.06 D, R) * (0.5 + u)`` capped at R, ``u`` the skid draw; it
  stops at the first contact and at the table's edge.
* Off the table is judged at the frog's final resting place: a landing
  point partly off the table, or a slide off a rim (or onto a stack) that
  leaves it partly past the edge. The frog goes back where its path last
  crossed the edge, a finger in from it, at level 0, and if a frog lies
  there, to the nearest free spot (``geometry.come_to_rest``, shared with
  the dive). The skid stops at the edge, so it never leaves the table.
* Touching is exact: a landing closer than ``2R - TOUCH / 2`` to a frog is on
  it (it rests on it or slides off to touch it, centres 2R apart); frogs at
  one level never overlap beyond the 0.01 mm rounding of stored positions.
* Poison is judged after settling: a non-poisonous jumper with a poisonous
  frog anywhere below goes back to its start.
* The lily pad bonus counts only frogs on the table (level 0): a frog on a
  stack rests on frogs, not on the pad.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from lanplay.games.ranagedon.geometry import (
    DISC_HEIGHT,
    TABLE_H,
    TABLE_W,
    TOUCH,
    Point,
    R,
    come_to_rest,
    dist,
    in_hull,
    normal,
    on_table,
    pad_contact,
    rnd,
    segment_distance,
    spiral_spot,
)

FLIP_BASE = 0.03
FLIP_POWER = 0.30
ANGLE_BASE_DEG = 3.0
ANGLE_POWER_DEG = 7.0
DIST_MIN = 20.0
DIST_SPAN = 380.0
DIST_EXP = 1.5
DIST_SD_BASE = 0.06
DIST_SD_POWER = 0.08
CAPTURE = 2 * R - TOUCH / 2
"""A landing rests on (or slides off) every frog whose centre is closer than this:
they would overlap. A frog slid off to touch one (2R apart) is not caught again."""
MARGIN_TABLE = 0.5 * R
MARGIN_STACK = 0.15 * R
SETTLE_ROUNDS = 8
SKID_SHARE = 0.06
ARC_POINTS = 12
FLIP_POINTS = 8
"""A flipped frog's hop on the spot: its samples (an arc from the start to itself)."""
ARC_HEIGHT_SHARE = 0.3
ARC_HEIGHT_MAX = 90.0
FLIP_HOP = 25.0
INSIDE_BONUS = 2
PARTLY_BONUS = 1

DOUBLE, DIVE, POISON = "double", "dive", "poison"


@dataclass(frozen=True)
class Frog:
    """One disc; ``supports`` are the frogs it rests on (empty on the table)."""

    id: int
    side: int
    colour: str
    border: str
    ability: str | None
    x: float
    y: float
    level: int = 0
    supports: tuple[int, ...] = ()


@dataclass(frozen=True)
class Draws:
    """The four uniform draws of one jump, in the model's order."""

    flip: float
    angle: float
    distance: float
    skid: float


CALM = Draws(1.0, 0.5, 0.5, 0.5)
"""No flip, no scatter, a middling skid: what tests use to aim exactly."""


@dataclass(frozen=True)
class Jump:
    """What one jump did: the new frogs, the outcome and the flight for the table."""

    frogs: tuple[Frog, ...]
    outcome: str
    arc: tuple[tuple[float, float, float], ...]


# --- stacks ------------------------------------------------------------------------


def covered(frogs: Sequence[Frog]) -> frozenset[int]:
    """Ids of frogs something rests on."""
    return frozenset(s for f in frogs for s in f.supports)


def below(frogs: Sequence[Frog], fid: int) -> frozenset[int]:
    """Every frog reachable down through supports (the frogs ``fid`` steps on)."""
    seen: set[int] = set()
    todo = list(frogs[fid].supports)
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo.extend(frogs[f].supports)
    return frozenset(seen)


def is_free(frogs: Sequence[Frog], fid: int) -> bool:
    return frogs[fid].level == 0 and fid not in covered(frogs)


def free_ids(frogs: Sequence[Frog]) -> list[int]:
    under = covered(frogs)
    return [f.id for f in frogs if f.level == 0 and f.id not in under]


def side_points(frogs: Sequence[Frog], sides: int) -> list[int]:
    """Points per side exactly as the rulebook prints them."""
    points = [0] * sides
    under = covered(frogs)
    for f in frogs:
        if f.id not in under:
            points[f.side] += sum(1 for b in below(frogs, f.id) if frogs[b].side != f.side)
        if f.level == 0:
            contact = pad_contact(f.x, f.y)
            if contact == "inside":
                points[f.side] += INSIDE_BONUS
            elif contact == "partly" and f.id not in under:
                points[f.side] += PARTLY_BONUS
    return points


# --- one jump ------------------------------------------------------------------------


def flip_chance(s: float) -> float:
    return FLIP_BASE + FLIP_POWER * s**3


def reach(s: float) -> float:
    """Jump distance without scatter."""
    return float(DIST_MIN + DIST_SPAN * s**DIST_EXP)


def strength_for(distance: float) -> float:
    """The inverse of ``reach``, clamped to 0..1 (what a bot aims with)."""
    return float(min(1.0, max(0.0, (distance - DIST_MIN) / DIST_SPAN)) ** (1 / DIST_EXP))


def direction(theta: float, s: float, draw: float) -> float:
    """Away from the pressed point, scattered more at full power."""
    return theta + math.pi + math.radians(ANGLE_BASE_DEG + ANGLE_POWER_DEG * s) * normal(draw)


def distance(s: float, draw: float) -> float:
    return max(0.0, reach(s) * (1 + (DIST_SD_BASE + DIST_SD_POWER * s) * normal(draw)))


def settle(others: Sequence[Frog], p: Point,
           ) -> tuple[Point, int, tuple[int, ...], list[Point] | None]:
    """Where a landing at ``p`` comes to rest: (point, level, supports, path).

    ``path`` lists the slide-off corrections; None when it never settled and
    the spiral fallback placed it on the table.
    """
    x, y = p
    path: list[Point] = []
    for _ in range(SETTLE_ROUNDS):
        near = [o for o in others if dist(x, y, o.x, o.y) < CAPTURE]
        if not near:
            return (x, y), 0, (), path
        top = max(o.level for o in near)
        tops = [o for o in near if o.level == top]
        margin = MARGIN_TABLE if top == 0 else MARGIN_STACK
        centres = [(o.x, o.y) for o in tops]
        stable = (any(dist(x, y, cx, cy) <= R + margin for cx, cy in centres)
                  or in_hull((x, y), centres)
                  or any(segment_distance((x, y), a, b) <= margin
                         for i, a in enumerate(centres) for b in centres[i + 1:]))
        if stable:
            return (x, y), top + 1, tuple(sorted(o.id for o in tops)), path
        nearest = min(tops, key=lambda o: (dist(x, y, o.x, o.y), o.id))
        d = dist(x, y, nearest.x, nearest.y)
        ux, uy = ((x - nearest.x) / d, (y - nearest.y) / d) if d > 1e-9 else (1.0, 0.0)
        x, y = nearest.x + ux * 2 * R, nearest.y + uy * 2 * R
        path.append((x, y))
    taken = [(o.x, o.y) for o in others]
    return spiral_spot(x, y, taken), 0, (), None


def skid(others: Sequence[Frog], p: Point, phi: float, length: float) -> Point:
    """Slide ``length`` along ``phi``, stopping at the first touch or the table edge."""
    x, y = p
    dx, dy = math.cos(phi), math.sin(phi)
    t = length
    for o in others:
        ox, oy = x - o.x, y - o.y
        b = ox * dx + oy * dy
        c = ox * ox + oy * oy - 4 * R * R
        if b >= 0:
            continue  # moving away from it
        if c <= 0:
            t = 0.0
            continue
        disc = b * b - c
        if disc >= 0:
            t = min(t, -b - math.sqrt(disc))
    for pos, d, lo, hi in ((x, dx, R, TABLE_W - R), (y, dy, R, TABLE_H - R)):
        if d > 1e-12:
            t = min(t, max(0.0, (hi - pos) / d))
        elif d < -1e-12:
            t = min(t, max(0.0, (lo - pos) / d))
    t = max(0.0, t)
    return x + t * dx, y + t * dy


def arc(start: Point, end: Point, end_z: float, height: float,
        ) -> list[tuple[float, float, float]]:
    out = []
    for i in range(ARC_POINTS):
        t = i / (ARC_POINTS - 1)
        z = height * math.sin(math.pi * t) + end_z * t
        out.append((rnd(start[0] + t * (end[0] - start[0])),
                    rnd(start[1] + t * (end[1] - start[1])), rnd(z)))
    return out


def arc_view(points: Sequence[tuple[float, float, float]], samples: int) -> dict[str, Any]:
    """A jump's flight (``Jump.arc``) as the view sends it: the curve's parameters, not
    its points. The first ``samples`` points are ``arc``'s: from the start (height 0)
    to ``to`` = [x, y, z], at height ``height * sin(pi t) + z t`` above the line
    between them (t from 0 to 1); the rest, ``then``, are straight moves after it
    (slide-offs, the skid, a return to the table). Every number is an int, hundredths
    of a mm: the points are rounded to 0.01 mm already, so ``to`` and ``then`` are
    exact; ``height`` is read back from the sample nearest the top, within 0.01 mm.
    About a quarter of the bytes of the points as float64 [x, y, z] triples."""
    n = min(samples, len(points))
    if n < 1:
        return {"kind": "arc", "to": [0, 0, 0], "height": 0, "then": []}
    to = points[n - 1]
    height = 0.0
    if n >= 3:
        k = (n - 1) // 2
        t = k / (n - 1)
        height = (points[k][2] - to[2] * t) / math.sin(math.pi * t)
    return {"kind": "arc", "to": [hundredths(v) for v in to], "height": hundredths(height),
            "then": [[hundredths(v) for v in p] for p in points[n:]]}


def hundredths(mm: float) -> int:
    return round(mm * 100)


def _moved(frogs: Sequence[Frog], fid: int, p: Point, level: int,
           supports: tuple[int, ...]) -> tuple[Frog, ...]:
    out = list(frogs)
    out[fid] = replace(frogs[fid], x=rnd(p[0]), y=rnd(p[1]), level=level, supports=supports)
    return tuple(out)


def jump(frogs: Sequence[Frog], fid: int, theta: float, s: float, draws: Draws) -> Jump:
    """One jump of the free frog ``fid``, pressed at angle ``theta`` with strength ``s``."""
    me = frogs[fid]
    start = (me.x, me.y)
    if draws.flip < flip_chance(s):
        hop = [(me.x, me.y, rnd(FLIP_HOP * math.sin(math.pi * i / (FLIP_POINTS - 1))))
               for i in range(FLIP_POINTS)]
        return Jump(tuple(frogs), "flipped", tuple(hop))
    phi = direction(theta, s, draws.angle)
    d = distance(s, draws.distance)
    land = (me.x + d * math.cos(phi), me.y + d * math.sin(phi))
    height = min(ARC_HEIGHT_MAX, ARC_HEIGHT_SHARE * d)
    others = [f for f in frogs if f.id != fid]
    if on_table(*land):
        spot, level, supports, path = settle(others, land)
        z = level * DISC_HEIGHT
        points = arc(start, land, z, height)
        for px, py in path or []:
            points.append((rnd(px), rnd(py), z))
        if level == 0 and path is not None:
            length = min(R, min(SKID_SHARE * d, R) * (0.5 + draws.skid))
            spot = skid(others, spot, phi, length)
        points.append((rnd(spot[0]), rnd(spot[1]), rnd(z)))
        route = [start, land, *(path or []), spot]
    else:
        points = arc(start, land, 0.0, height)
        route = [start, land]
    (rest,), off = come_to_rest([[p] for p in route], [(o.x, o.y) for o in others])
    if off:
        points.append((rnd(rest[0]), rnd(rest[1]), 0.0))
        return Jump(_moved(frogs, fid, rest, 0, ()), "off_table", tuple(points))
    after = _moved(frogs, fid, spot, level, supports)
    if level == 0:
        return Jump(after, "landed", tuple(points))
    if me.ability != POISON and any(after[b].ability == POISON for b in below(after, fid)):
        return Jump(tuple(frogs), "poisoned", tuple(points))
    return Jump(after, "stacked", tuple(points))
