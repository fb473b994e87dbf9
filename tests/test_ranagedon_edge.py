"""Ranagedon: where a frog finally rests (issue 10).

The rulebook: "If a frog ends up partially or totally off the table, it is
placed in the same direction from which it exited but at a finger's distance
from the edge." The program applies it to the final resting place after a
jump's landing, slide off a rim and skid, and after a dive; a frog put back
never lands on another frog; and frogs at one level touch, never overlap
(only the 0.01 mm rounding of stored positions is allowed: ``TOUCH``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest

from lanplay.games.ranagedon import model, slide
from lanplay.games.ranagedon.geometry import FINGER, TABLE_H, TABLE_W, TOUCH, R, dist
from lanplay.games.ranagedon.model import CALM, Frog


def f(fid: int, x: float, y: float, side: int = 0, level: int = 0,
      supports: tuple[int, ...] = ()) -> Frog:
    colour = "green" if side == 0 else "red"
    return Frog(fid, side, colour, "blue", None, float(x), float(y), level, supports)


def hop(frogs: Sequence[Frog], fid: int, tx: float, ty: float) -> model.Jump:
    """Jump ``fid`` so that, without scatter, it lands at (tx, ty)."""
    me = frogs[fid]
    phi = math.atan2(ty - me.y, tx - me.x)
    return model.jump(frogs, fid, phi + math.pi, model.strength_for(dist(me.x, me.y, tx, ty)),
                      CALM)


def wholly_on_table(frog: Frog) -> bool:
    return R <= frog.x <= TABLE_W - R and R <= frog.y <= TABLE_H - R


def overlapping(frogs: Sequence[Frog]) -> list[tuple[int, int, float]]:
    """Pairs at one level whose discs overlap by more than the rounding slack."""
    return [(a.id, b.id, round(dist(a.x, a.y, b.x, b.y), 3))
            for a, b in itertools.combinations(frogs, 2)
            if a.level == b.level and dist(a.x, a.y, b.x, b.y) < 2 * R - TOUCH]


# --- 1. the off-table rule judges the final resting place ----------------------------


def test_a_slide_off_a_rim_past_the_edge_is_off_the_table() -> None:
    # The case: landing at x=17 on the rim of a frog at x=45 slid it to x=13.
    frogs = [f(0, 200, 400), f(1, 45, 400, side=1)]
    done = hop(frogs, 0, 17, 400)
    me = done.frogs[0]
    assert done.outcome == "off_table"
    assert wholly_on_table(me) and me.level == 0 and me.supports == ()
    assert me.x >= R + FINGER - 0.01  # a finger in from the edge it crossed
    assert overlapping(done.frogs) == []
    assert done.arc[-1] == (me.x, me.y, 0.0)


def test_a_landing_that_slides_onto_a_frog_hanging_over_the_edge_is_off_the_table() -> None:
    # The landing at (18, 316) slides off the stack at (30, 300) to (10.8, 325.6), where
    # it rests on frog 3: 5 mm past the edge, it used to stay there, "stacked".
    frogs = [f(0, 300, 300), f(1, 30, 300, side=1),
             f(2, 30, 300, side=1, level=1, supports=(1,)), f(3, 24, 332, side=1)]
    done = hop(frogs, 0, 18, 316)
    me = done.frogs[0]
    assert done.outcome == "off_table"
    assert wholly_on_table(me) and (me.level, me.supports) == (0, ())
    assert overlapping(done.frogs) == []


def test_a_frog_slid_off_near_the_edge_rests_where_it_is_when_on_the_table() -> None:
    frogs = [f(0, 200, 400), f(1, 80, 400, side=1)]
    done = hop(frogs, 0, 52, 400)  # slides off to x=48, then skids 0.06 D towards the edge
    assert done.outcome == "landed"
    assert done.frogs[0].x == pytest.approx(80 - 2 * R - 0.06 * 148, abs=0.01)


# --- 2 and 3. a dive's put-back: where it left the table, on a free spot -------------


def test_a_dive_off_the_table_comes_back_where_it_crossed_the_edge() -> None:
    # (300, 700) sliding at 45 degrees crosses the edge y = 784 at x = 384.
    frogs = (f(0, 300, 700),)
    done = slide.simulate(frogs, 0, math.pi / 4, 300)
    me = done.frogs[0]
    assert not done.touched
    assert (me.x, me.y) == pytest.approx((384, TABLE_H - R - FINGER), abs=0.5)


def test_a_dive_put_back_never_lands_on_a_frog() -> None:
    # Frog 1 is where the put-back used to go (the slide's x kept), frog 2 lies on
    # the spot where the path crossed the edge; the slide touches neither.
    frogs = (f(0, 300, 700), f(1, 512.13, 766, side=1), f(2, 400, 752, side=1))
    done = slide.simulate(frogs, 0, math.pi / 4, 300)
    me = done.frogs[0]
    assert not done.touched and done.frogs[1:] == frogs[1:]
    assert wholly_on_table(me) and overlapping(done.frogs) == []
    assert dist(me.x, me.y, 384, TABLE_H - R - FINGER) < 4 * R  # the nearest free spot


def test_a_stack_pushed_off_the_table_comes_back_whole() -> None:
    # The diver pushes a stack (frog 2 on frog 1, hanging 5 mm to the right) over the
    # right-hand edge: the top disc crosses first, so it goes back a finger inside.
    frogs = (f(0, 680, 400), f(1, 720, 400, side=1),
             f(2, 725, 400, side=1, level=1, supports=(1,)))
    done = slide.simulate(frogs, 0, 0.0, 300)
    base, top = done.frogs[1], done.frogs[2]
    assert done.touched and max(x for x, _ in dict(done.paths)[2]) > TABLE_W - R
    assert (top.x, top.y) == pytest.approx((TABLE_W - R - FINGER, 400), abs=0.05)
    assert (base.x, base.y) == pytest.approx((TABLE_W - R - FINGER - 5, 400), abs=0.05)
    assert (top.level, top.supports) == (1, (1,))
    assert overlapping(done.frogs) == []


# --- 4. frogs at one level touch, never overlap --------------------------------------


def test_a_landing_just_inside_touching_distance_slides_off_to_touch() -> None:
    frogs = [f(0, 200, 400), f(1, 400, 400, side=1)]
    done = hop(frogs, 0, 400 - 31.7, 400)  # 0.3 mm of overlap: used to stay there
    me = done.frogs[0]
    assert me.level == 0
    assert dist(me.x, me.y, 400, 400) == pytest.approx(2 * R, abs=TOUCH)


def test_a_dive_into_a_row_of_frogs_leaves_them_touching_not_overlapping() -> None:
    # A Newton's cradle: pymunk left the last two discs 0.4 mm into each other.
    frogs = (f(0, 200, 400), f(1, 300, 400, side=1), f(2, 332, 400, side=1))
    for length in (100, 200):
        done = slide.simulate(frogs, 0, 0.0, length)
        assert done.touched and overlapping(done.frogs) == []


def test_frogs_on_two_stacks_collide_at_their_own_level() -> None:
    # Stack A's top hangs out to the right, stack B's to the left: pushed together,
    # the tops meet first (they used to pass through each other).
    frogs = (f(0, 200, 400), f(1, 300, 400, side=1), f(2, 320, 400, side=1, level=1,
                                                        supports=(1,)),
             f(3, 400, 400, side=1), f(4, 380, 400, side=1, level=1, supports=(3,)))
    done = slide.simulate(frogs, 0, 0.0, 250)
    assert done.frogs[4].x - done.frogs[2].x >= 2 * R - TOUCH
    assert overlapping(done.frogs) == []
