"""The Diving slide: discs sliding on the table, simulated with pymunk.

A fresh ``pymunk.Space`` is built for every slide from the stored positions:
Chipmunk caches contact impulses between steps, so a reused space would make
the same slide come out differently. Each stack (frogs joined by supports)
is one rigid body, so it moves as one; discs collide only with discs at
their own stack level (two stacks' tops meet even when their bases do not).
Table friction is a constant deceleration applied by hand each step (pymunk
has only exponential damping). Only the host runs this; peers animate the
30 Hz samples it returns and snap to the final positions.

Decisions (also in help.md): where the slide stops, discs pymunk left a
little inside each other are pushed apart to touch. A body (a frog or a
whole stack) with any disc partly off the table goes back where its path
last crossed the edge, a finger inside, and if a frog lies there, to the
nearest free spot (``geometry.come_to_rest``, the jump's rule too). The
diver "touched" something when its disc came within contact distance of
another disc at any step (sliding off the table does not count as touching,
so a diver put back may still jump).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pymunk

from lanplay.games.ranagedon.geometry import R, come_to_rest, rnd
from lanplay.games.ranagedon.model import Frog

SLIDE_MIN = 20.0
SLIDE_SPAN = 330.0
FRICTION_DECEL = 2900.0
"""mm/s^2: about 0.3 g of table friction."""
SPIN_DECEL = 40.0
"""rad/s^2 for a spinning stack."""
STEP = 1 / 120
SAMPLE_HZ = 30
MAX_SECONDS = 4.0
ELASTICITY = 0.7
SEPARATE_ROUNDS = 50
SEPARATE_EPS = 1e-6
"""Discs closer than 2R by more than this are pushed apart after a slide."""


@dataclass(frozen=True)
class Slide:
    """The new frogs, whether the diver touched anything, and each moved frog's path."""

    frogs: tuple[Frog, ...]
    touched: bool
    paths: tuple[tuple[int, tuple[tuple[float, float], ...]], ...]


def slide_length(s: float) -> float:
    return SLIDE_MIN + SLIDE_SPAN * s


def _groups(frogs: Sequence[Frog]) -> list[list[int]]:
    """Stacks: connected components of the supports relation, sorted by id."""
    parent = list(range(len(frogs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for f in frogs:
        for s in f.supports:
            parent[find(f.id)] = find(s)
    groups: dict[int, list[int]] = {}
    for f in frogs:
        groups.setdefault(find(f.id), []).append(f.id)
    return sorted(groups.values())


def _layer(level: int) -> int:
    """Collision bits: discs meet only discs at their own stack level."""
    return 1 << min(level, 31)


def simulate(frogs: Sequence[Frog], diver: int, phi: float, length: float) -> Slide:
    """Slide ``diver`` along ``phi`` so that, alone, it would travel ``length`` mm."""
    space = pymunk.Space()
    space.iterations = 20
    bodies: list[tuple[pymunk.Body, list[int], list[tuple[float, float]]]] = []
    diver_body: pymunk.Body | None = None
    for group in _groups(frogs):
        members = [frogs[i] for i in group]
        cx = sum(f.x for f in members) / len(members)
        cy = sum(f.y for f in members) / len(members)
        offsets = [(f.x - cx, f.y - cy) for f in members]
        moment = sum(pymunk.moment_for_circle(1.0, 0, R, off) for off in offsets)
        body = pymunk.Body(float(len(members)), moment)
        body.position = (cx, cy)
        space.add(body)
        for f, off in zip(members, offsets, strict=True):
            shape = pymunk.Circle(body, R, off)
            shape.elasticity = ELASTICITY
            shape.friction = 0.2
            shape.filter = pymunk.ShapeFilter(categories=_layer(f.level), mask=_layer(f.level))
            space.add(shape)
        bodies.append((body, group, offsets))
        if diver in group:
            diver_body = body
    assert diver_body is not None
    speed = math.sqrt(2 * FRICTION_DECEL * length)
    diver_body.velocity = (speed * math.cos(phi), speed * math.sin(phi))
    index = {id(b): k for k, (b, _, _) in enumerate(bodies)}
    rest = [[(b.position.x + ox, b.position.y + oy) for ox, oy in offsets]
            for b, _, offsets in bodies]
    active = [index[id(diver_body)]]
    touched = False

    def positions() -> list[list[tuple[float, float]]]:
        out = list(rest)
        for k in active:
            body, _, offsets = bodies[k]
            out[k] = [(p.x, p.y) for p in (body.local_to_world(off) for off in offsets)]
        return out

    def wake(arbiter: pymunk.Arbiter) -> None:
        nonlocal touched
        for shape in arbiter.shapes:
            body = shape.body
            if body is None:
                continue
            if body is not diver_body and diver_body in (a.body for a in arbiter.shapes):
                touched = True
            k = index[id(body)]
            if k not in active:
                active.append(k)

    samples = [positions()]
    every = round(1 / (STEP * SAMPLE_HZ))
    steps = 0
    while steps < MAX_SECONDS / STEP:
        space.step(STEP)
        steps += 1
        for k in list(active):
            bodies[k][0].each_arbiter(wake)
        moving = False
        for k in active:
            body = bodies[k][0]
            v = body.velocity
            if not (v.x or v.y):
                continue
            speed = math.hypot(v.x, v.y)
            slower = max(0.0, speed - FRICTION_DECEL * STEP)
            body.velocity = (v.x * slower / speed, v.y * slower / speed)
            w = body.angular_velocity
            if w:
                body.angular_velocity = math.copysign(max(0.0, abs(w) - SPIN_DECEL * STEP), w)
            moving = moving or slower > 0
        if steps % every == 0:
            samples.append(positions())
        if not moving:
            break
    if steps % every:
        samples.append(positions())
    samples[-1] = _separate(frogs, bodies, samples[-1], set(active))
    return _finish(frogs, bodies, samples, touched)


def _separate(frogs: Sequence[Frog],
              bodies: Sequence[tuple[pymunk.Body, list[int], list[tuple[float, float]]]],
              final: list[list[tuple[float, float]]], active: set[int],
              ) -> list[list[tuple[float, float]]]:
    """Resting discs touch and never overlap: pymunk leaves a contact a little
    interpenetrated (its slop, the last step), so push the moved bodies apart along
    the line of centres until discs at one level are 2R apart."""
    out = [list(points) for points in final]
    levels = [[frogs[fid].level for fid in group] for _, group, _ in bodies]
    for _ in range(SEPARATE_ROUNDS):
        pushed = False
        for a in range(len(out)):
            for b in range(a + 1, len(out)):
                if a not in active and b not in active:
                    continue
                for i, j in itertools.product(range(len(out[a])), range(len(out[b]))):
                    if levels[a][i] != levels[b][j]:
                        continue
                    (ax, ay), (bx, by) = out[a][i], out[b][j]
                    d = math.hypot(ax - bx, ay - by)
                    if d >= 2 * R - SEPARATE_EPS:
                        continue
                    ux, uy = ((ax - bx) / d, (ay - by) / d) if d > 1e-9 else (1.0, 0.0)
                    gap = 2 * R - d
                    share_a = 0.0 if a not in active else 1.0 if b not in active else 0.5
                    for k, sign, share in ((a, 1.0, share_a), (b, -1.0, 1.0 - share_a)):
                        dx, dy = sign * share * gap * ux, sign * share * gap * uy
                        out[k] = [(x + dx, y + dy) for x, y in out[k]]
                    pushed = True
        if not pushed:
            break
    return out


def _finish(frogs: Sequence[Frog],
            bodies: Sequence[tuple[pymunk.Body, list[int], list[tuple[float, float]]]],
            samples: list[list[list[tuple[float, float]]]], touched: bool) -> Slide:
    """Rest every body where it stopped, through the off-table rule (``come_to_rest``)."""
    at = {fid: p for b, (_, group, _) in enumerate(bodies)
          for fid, p in zip(group, samples[-1][b], strict=True)}
    out = list(frogs)
    paths: list[tuple[int, tuple[tuple[float, float], ...]]] = []
    for b, (_, group, _) in enumerate(bodies):
        mine = set(group)
        taken = [p for fid, p in at.items() if fid not in mine]
        rest, _ = come_to_rest([sample[b] for sample in samples], taken)
        for k, fid in enumerate(group):
            x, y = rnd(rest[k][0]), rnd(rest[k][1])
            at[fid] = (x, y)
            f = frogs[fid]
            if (x, y) == (f.x, f.y):
                continue
            out[fid] = replace(f, x=x, y=y)
            path = [(rnd(sample[b][k][0]), rnd(sample[b][k][1])) for sample in samples]
            path.append((x, y))
            paths.append((fid, tuple(path)))
    paths.sort()
    return Slide(tuple(out), touched, tuple(paths))
