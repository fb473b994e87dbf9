"""The table of Ranagedon in millimetres: sizes, and the plane geometry the model needs.

Every number of RANAGEDON-MODEL.md is a named constant here so play-testing
changes one line. Coordinates are screen-like: origin top-left, y downwards;
angles are measured from +x towards +y.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

from lanplay.messages import N_, Msg, msg

Point = tuple[float, float]

TABLE_W = 800.0
TABLE_H = 800.0
PAD_X = 400.0
PAD_Y = 400.0
PAD_R = 55.0
R = 16.0
"""Frog disc radius."""
RING_IN = 11.0
"""The coloured border is the ring between RING_IN and R."""
FINGER = 18.0
PALM = 85.0
DISC_HEIGHT = 3.0
"""Thickness of a disc: only for the z of a trajectory (stack level * height)."""
DEPLOY_MIN = PAD_R + PALM + R
"""A deployed frog's centre is at least this far from the pad centre (a palm between edges)."""
LINK = 4 * R
"""Deployed neighbours: centres at most this apart (a gap of at most one disc)."""
TOUCH = 0.02
"""Discs whose centres are at least ``2R - TOUCH`` apart touch; closer, they overlap.
The slack is only room for stored positions rounded to 0.01 mm: the model places
a disc touching at 2R, and counts a landing closer than ``2R - TOUCH / 2`` as on
the frog."""
SPACING = 2 * R + FINGER
"""Centre distance in the suggested clusters: a finger between discs."""
NORMAL_CLIP = 2.5
GOLDEN = math.pi * (3 - math.sqrt(5))
SPIRAL_STEP = 6.0
SPIRAL_TRIES = 4000
EPS = 1e-9

_STD = NormalDist()


def rnd(value: float) -> float:
    """Stored positions are rounded to 0.01 mm, so every machine agrees on them."""
    return round(value, 2) + 0.0


def dist(ax: float, ay: float, bx: float, by: float) -> float:
    return math.hypot(ax - bx, ay - by)


def normal(u: float) -> float:
    """A standard normal from one ``random()`` draw (inverse CDF), clipped to +-NORMAL_CLIP."""
    u = min(max(u, 1e-12), 1 - 1e-12)
    return max(-NORMAL_CLIP, min(NORMAL_CLIP, _STD.inv_cdf(u)))


def on_table(x: float, y: float) -> bool:
    """Whole disc on the table (a centre closer than R to an edge is partly off)."""
    return R <= x <= TABLE_W - R and R <= y <= TABLE_H - R


def exit_share(start: Point, end: Point) -> float:
    """How far along start->end (0..1) a disc first leaves the box of on-table centres."""
    (sx, sy), (ex, ey) = start, end
    t = 1.0
    for s, e, lo, hi in ((sx, ex, R, TABLE_W - R), (sy, ey, R, TABLE_H - R)):
        if e < lo and e != s:
            t = min(t, (lo - s) / (e - s))
        elif e > hi and e != s:
            t = min(t, (hi - s) / (e - s))
    return max(0.0, t)


def exit_point(start: Point, end: Point) -> Point:
    """Where the segment start->end first leaves the box of on-table centres."""
    t = exit_share(start, end)
    return start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1])


def inward(points: Sequence[Point]) -> Point:
    """The shift that brings every disc at least a finger in from every edge."""
    inner = R + FINGER
    shift = [0.0, 0.0]
    for axis, size in ((0, TABLE_W), (1, TABLE_H)):
        for p in points:
            if p[axis] < inner:
                shift[axis] = max(shift[axis], inner - p[axis])
            elif p[axis] > size - inner:
                shift[axis] = min(shift[axis], size - inner - p[axis])
    return shift[0], shift[1]


def put_back(start: Point, end: Point) -> Point:
    """The rulebook's off-table rule: where it left the table, a finger in from the edge."""
    x, y = exit_point(start, end)
    dx, dy = inward([(x, y)])
    return x + dx, y + dy


def overlaps(points: Sequence[Point], taken: Sequence[Point]) -> bool:
    """Some disc at ``points`` would overlap a disc at ``taken`` (a disc is placed only
    where it has room: 2R from every centre, so rounding keeps it within TOUCH)."""
    return any(dist(px, py, tx, ty) < 2 * R for px, py in points for tx, ty in taken)


def come_to_rest(path: Sequence[Sequence[Point]], taken: Sequence[Point],
                 ) -> tuple[list[Point], bool]:
    """Where discs moving as one (a frog, or a stack in a dive) finally rest.

    ``path[k][i]`` is disc i's centre at step k, starting on the table. The
    rulebook's off-table rule, applied to the final resting place: if any disc
    ends partly off the table, all go back to where the path last left it, a
    finger in from the edge it crossed, and if a frog (at ``taken``) lies there,
    to the nearest free spot. Returns the centres and whether the rule applied.
    """
    final = list(path[-1])
    if all(on_table(x, y) for x, y in final):
        return final, False
    k = len(path) - 2
    while k > 0 and not all(on_table(x, y) for x, y in path[k]):
        k -= 1
    before, after = path[k], path[k + 1]
    t, i = min((exit_share(a, b), i) for i, (a, b) in enumerate(zip(before, after, strict=True)))
    mx, my = t * (after[i][0] - before[i][0]), t * (after[i][1] - before[i][1])
    cross = [(x + mx, y + my) for x, y in before]  # moved as the first disc to leave: rigid
    dx, dy = inward(cross)
    spot = [(x + dx, y + dy) for x, y in cross]
    if overlaps(spot, taken):
        dx, dy = free_shift(spot, taken)
        spot = [(x + dx, y + dy) for x, y in spot]
    return spot, True


def pad_contact(x: float, y: float) -> str | None:
    """'inside' (whole disc on the pad), 'partly' (overlapping it) or None."""
    d = dist(x, y, PAD_X, PAD_Y)
    if d + R <= PAD_R:
        return "inside"
    if d < PAD_R + R:
        return "partly"
    return None


def segment_distance(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 < EPS else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return dist(px, py, ax + t * dx, ay + t * dy)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(points: Iterable[Point]) -> list[Point]:
    """Convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def in_hull(p: Point, points: Sequence[Point]) -> bool:
    """Strictly usable hull (3+ corners) that contains p."""
    poly = hull(points)
    if len(poly) < 3:
        return False
    return all(_cross(poly[i], poly[(i + 1) % len(poly)], p) >= 0 for i in range(len(poly)))


def free_shift(points: Sequence[Point], taken: Sequence[Point]) -> Point:
    """The smallest shift on a golden-angle spiral that puts every disc on a free
    spot a finger from the edges (no shift when there is none)."""
    inner = R + FINGER
    for k in range(SPIRAL_TRIES):
        r = SPIRAL_STEP * math.sqrt(k)
        dx, dy = r * math.cos(k * GOLDEN), r * math.sin(k * GOLDEN)
        moved = [(x + dx, y + dy) for x, y in points]
        if all(inner <= px <= TABLE_W - inner and inner <= py <= TABLE_H - inner
               for px, py in moved) and not overlaps(moved, taken):
            return dx, dy
    return 0.0, 0.0


def spiral_spot(x: float, y: float, taken: Sequence[Point]) -> Point:
    """The nearest free on-table spot on a golden-angle spiral around (x, y)."""
    dx, dy = free_shift([(x, y)], taken)
    return x + dx, y + dy


# --- deployment sectors --------------------------------------------------------


def axis(side: int, sides: int) -> float:
    """Side 0 sits at the bottom of the screen (pi/2); the others follow clockwise."""
    return math.pi / 2 + side * 2 * math.pi / sides


def sector(side: int, sides: int) -> tuple[float, float]:
    a = axis(side, sides)
    return a - math.pi / sides, a + math.pi / sides


def in_sector(x: float, y: float, side: int, sides: int) -> bool:
    """The whole disc lies in the side's sector around the pad centre."""
    dx, dy = x - PAD_X, y - PAD_Y
    d = math.hypot(dx, dy)
    if d < EPS:
        return False
    half = math.pi / sides
    off = abs(math.remainder(math.atan2(dy, dx) - axis(side, sides), 2 * math.pi))
    if off > half:
        return False
    room = half - off
    return room >= math.pi / 2 or d * math.sin(room) >= R


CLUSTERS: tuple[tuple[str, tuple[Point, ...]], ...] = (
    (N_("Block"), ((200, -50), (200, 0), (200, 50), (250, -50), (250, 0), (250, 50),
               (300, -50), (300, 0), (300, 50))),
    (N_("Line"), ((200, -100), (200, -50), (200, 0), (200, 50), (200, 100),
              (243.3, -75), (243.3, -25), (243.3, 25), (243.3, 75))),
    (N_("Wedge"), ((200, 0), (243.3, -25), (243.3, 25), (286.6, -50), (286.6, 0), (286.6, 50),
               (329.9, -25), (329.9, 25), (373.2, 0))),
)
"""Suggested formations as (distance from the pad centre, sideways offset), front first."""


def cluster(index: int, side: int, sides: int, count: int) -> list[Point]:
    """The first ``count`` frogs of a suggested formation, turned to face the pad."""
    a = axis(side, sides)
    c, s = math.cos(a), math.sin(a)
    return [(rnd(PAD_X + u * c - v * s), rnd(PAD_Y + u * s + v * c))
            for u, v in CLUSTERS[index][1][:count]]


def deploy_problem(points: Sequence[Point], side: int, sides: int) -> Msg | None:
    """Why a side's own formation breaks the deployment rules (a message), or None."""
    for i, (x, y) in enumerate(points, 1):
        if not on_table(x, y):
            return msg("frog {i} is not wholly on the table", i=i)
        if not in_sector(x, y, side, sides):
            return msg("frog {i} is outside your side's deployment sector", i=i)
        if dist(x, y, PAD_X, PAD_Y) < DEPLOY_MIN - EPS:
            return msg("frog {i} is closer than a palm to the lily pad", i=i)
    for i, (ax, ay) in enumerate(points):
        for j in range(i + 1, len(points)):
            if dist(ax, ay, *points[j]) < 2 * R - EPS:
                return msg("frogs {i} and {j} overlap", i=i + 1, j=j + 1)
    reached, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j, p in enumerate(points):
            if j not in reached and dist(*points[i], *p) <= LINK + EPS:
                reached.add(j)
                todo.append(j)
    if len(reached) != len(points):
        return msg("your frogs must stay together: no gap wider than one disc")
    return None
