"""Ranagedon scenarios: the rulebook's printed stacks and the model's tests.

Jumps are aimed with ``model.CALM`` draws (no flip, no scatter) so a test
knows where a frog lands; rules-level tests pick a seed whose first draws
do not flip. Layouts are written as ``f(id, x, y, ...)``.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import msgpack
import pytest

from lanplay.game import SYSTEM, IllegalAction
from lanplay.games.ranagedon import GAME, model, rules, slide
from lanplay.games.ranagedon.geometry import (
    FINGER,
    PAD_X,
    PAD_Y,
    TABLE_W,
    R,
    cluster,
    deploy_problem,
    dist,
)
from lanplay.games.ranagedon.model import CALM, Draws, Frog
from lanplay.rng import stream


def f(fid: int, x: float, y: float, side: int = 0, level: int = 0,
      supports: tuple[int, ...] = (), ability: str | None = None) -> Frog:
    colour = "green" if side == 0 else "red"
    return Frog(fid, side, colour, "blue", ability, float(x), float(y), level, supports)


def aim(frog: Frog, tx: float, ty: float) -> tuple[float, float]:
    """(theta, s) that send ``frog`` to (tx, ty) without scatter."""
    phi = math.atan2(ty - frog.y, tx - frog.x)
    return phi + math.pi, model.strength_for(dist(frog.x, frog.y, tx, ty))


def hop(frogs: list[Frog], fid: int, tx: float, ty: float, draws: Draws = CALM) -> model.Jump:
    theta, s = aim(frogs[fid], tx, ty)
    return model.jump(frogs, fid, theta, s, draws)


# --- scoring as printed ----------------------------------------------------------


def test_green_green_red_on_top_gives_red_two_points() -> None:
    frogs = [f(0, 200, 200), f(1, 200, 200, level=1, supports=(0,)),
             f(2, 200, 200, side=1, level=2, supports=(1,))]
    assert model.side_points(frogs, 2) == [0, 2]


def test_red_green_red_on_top_gives_red_one_point() -> None:
    frogs = [f(0, 200, 200, side=1), f(1, 200, 200, level=1, supports=(0,)),
             f(2, 200, 200, side=1, level=2, supports=(1,))]
    assert model.side_points(frogs, 2) == [0, 1]


def test_branching_stack_scores_each_top_for_every_enemy_below() -> None:
    # green, red, green on the table; red X on both greens (2), red Y on red + green (1)
    frogs = [f(0, 200, 200), f(1, 280, 200, side=1), f(2, 240, 200),
             f(3, 220, 200, side=1, level=1, supports=(0, 2)),
             f(4, 260, 200, side=1, level=1, supports=(1, 2))]
    assert model.side_points(frogs, 2) == [0, 3]
    assert model.below(frogs, 3) == {0, 2}


def test_a_frog_steps_on_frogs_it_does_not_touch() -> None:
    frogs = [f(0, 200, 200), f(1, 200, 200, side=1, level=1, supports=(0,)),
             f(2, 200, 200, level=2, supports=(1,))]
    assert model.below(frogs, 2) == {0, 1}
    assert model.side_points(frogs, 2) == [1, 0]


def test_lily_pad_wholly_inside_gives_two_even_when_stepped_on() -> None:
    frogs = [f(0, PAD_X + 30, PAD_Y)]
    assert model.side_points(frogs, 2) == [2, 0]
    frogs.append(f(1, PAD_X + 30, PAD_Y, side=1, level=1, supports=(0,)))
    assert model.side_points(frogs, 2) == [2, 1]


def test_lily_pad_partly_gives_one_lost_when_stepped_on() -> None:
    frogs = [f(0, PAD_X + 55, PAD_Y)]
    assert model.side_points(frogs, 2) == [1, 0]
    frogs.append(f(1, PAD_X + 55, PAD_Y, side=1, level=1, supports=(0,)))
    assert model.side_points(frogs, 2) == [0, 1]


def test_a_frog_just_off_the_pad_scores_nothing() -> None:
    assert model.side_points([f(0, PAD_X + 55 + R, PAD_Y)], 2) == [0, 0]


# --- the jump -----------------------------------------------------------------------


def test_zero_scatter_goes_away_from_the_press_by_the_model_distance() -> None:
    frogs = [f(0, 200, 400)]
    s = 0.5
    done = model.jump(frogs, 0, math.pi, s, CALM)  # pressed on the left: jumps right
    land = done.arc[model.ARC_POINTS - 1]
    assert land[0] == pytest.approx(200 + 20 + 380 * s**1.5, abs=0.01)
    assert land[1] == pytest.approx(400, abs=0.01)
    skid = min(0.06 * (20 + 380 * s**1.5), R)
    assert done.frogs[0].x == pytest.approx(land[0] + skid, abs=0.01)
    assert done.outcome == "landed"


def test_press_outside_the_ring_is_refused() -> None:
    state = started(2, seed=1)
    fid = own_free(state, state.turn)[0]
    for r in (10.9, 16.1, 0):
        with pytest.raises(IllegalAction, match="coloured border"):
            GAME.check(state, state.turn, jump(fid, 0.0, 0.5, r=r))
    GAME.check(state, state.turn, jump(fid, 0.0, 0.5, r=11))
    GAME.check(state, state.turn, jump(fid, 0.0, 0.5, r=16))


def test_landing_on_a_frog_stacks_on_it() -> None:
    frogs = [f(0, 200, 400), f(1, 350, 400, side=1)]
    done = hop(frogs, 0, 355, 405)
    me = done.frogs[0]
    assert (done.outcome, me.level, me.supports) == ("stacked", 1, (1,))
    assert (me.x, me.y) == (355, 405)
    assert model.side_points(done.frogs, 2) == [1, 0]


def test_landing_on_the_rim_slides_off() -> None:
    frogs = [f(0, 200, 400), f(1, 350, 400, side=1)]
    done = hop(frogs, 0, 350, 372)  # 28 mm from its centre: beyond R + margin
    me = done.frogs[0]
    assert done.outcome == "landed" and me.level == 0
    assert dist(me.x, me.y, 350, 400) >= 2 * R - 0.02


def test_landing_between_two_frogs_bridges_them() -> None:
    frogs = [f(0, 200, 300), f(1, 372, 400, side=1), f(2, 428, 400, side=1)]
    done = hop(frogs, 0, 400, 400)  # 28 mm from each, on the line between
    me = done.frogs[0]
    assert (done.outcome, me.level, me.supports) == ("stacked", 1, (1, 2))
    assert model.side_points(done.frogs, 2)[0] == 2 + 0


def test_landing_inside_three_frogs_rests_on_all_three() -> None:
    c = (300.0, 300.0)
    ring = [f(i + 1, c[0] + 28.9 * math.cos(a), c[1] + 28.9 * math.sin(a), side=1)
            for i, a in enumerate((0.0, 2 * math.pi / 3, 4 * math.pi / 3))]
    done = hop([f(0, 150, 300), *ring], 0, *c)
    assert done.frogs[0].supports == (1, 2, 3)


def test_a_frog_on_a_stack_slides_down_onto_the_lower_level() -> None:
    frogs = [f(0, 200, 400), f(1, 330, 400, side=1), f(2, 362, 400, side=1),
             f(3, 330, 400, side=1, level=1, supports=(1,))]
    done = hop(frogs, 0, 352, 402)  # off the rim of the top frog, onto frog 2
    me = done.frogs[0]
    assert (done.outcome, me.level, me.supports) == ("stacked", 1, (2,))


def test_forced_flip_returns_the_frog() -> None:
    frogs = [f(0, 200, 400)]
    done = model.jump(frogs, 0, math.pi, 1.0, Draws(0.32, 0.5, 0.5, 0.5))
    assert done.outcome == "flipped" and done.frogs == tuple(frogs)
    gentle = model.jump(frogs, 0, math.pi, 0.0, Draws(0.032, 0.5, 0.5, 0.5))
    assert gentle.outcome == "landed"


def test_off_the_table_at_an_edge_comes_back_a_finger_inside() -> None:
    frogs = [f(0, 700, 400)]
    done = hop(frogs, 0, 860, 400)
    me = done.frogs[0]
    assert done.outcome == "off_table" and me.level == 0
    assert (me.x, me.y) == (TABLE_W - R - FINGER, 400)


def test_off_the_table_at_a_corner_comes_back_inside_both_edges() -> None:
    frogs = [f(0, 700, 700)]
    done = hop(frogs, 0, 840, 840)
    assert done.outcome == "off_table"
    assert (done.frogs[0].x, done.frogs[0].y) == (TABLE_W - R - FINGER, TABLE_W - R - FINGER)


def test_poisonous_frog_bounces_a_non_poisonous_jumper() -> None:
    frogs = [f(0, 200, 400), f(1, 350, 400, side=1, ability=model.POISON)]
    done = hop(frogs, 0, 350, 400)
    assert done.outcome == "poisoned" and done.frogs == tuple(frogs)


def test_poison_anywhere_below_bounces_but_poisonous_frogs_step_on_it() -> None:
    frogs = [f(0, 200, 400), f(1, 350, 400, side=1, ability=model.POISON),
             f(2, 350, 400, side=1, level=1, supports=(1,))]
    assert hop(frogs, 0, 350, 400).outcome == "poisoned"
    frogs[0] = replace(frogs[0], ability=model.POISON)
    assert hop(frogs, 0, 350, 400).outcome == "stacked"


# --- the slide ----------------------------------------------------------------------


def test_a_clear_dive_touches_nothing() -> None:
    frogs = (f(0, 200, 400), f(1, 600, 600, side=1))
    done = slide.simulate(frogs, 0, 0.0, 200)
    assert not done.touched
    assert done.frogs[0].x == pytest.approx(400, abs=6) and done.frogs[1] == frogs[1]
    assert [fid for fid, _ in done.paths] == [0]


def test_a_blocked_dive_pushes_the_frog_it_hits() -> None:
    frogs = (f(0, 200, 400), f(1, 300, 400, side=1))
    done = slide.simulate(frogs, 0, 0.0, 250)
    assert done.touched
    assert done.frogs[1].x > 300 + 5
    assert done.frogs[0].x < done.frogs[1].x


def test_a_dive_moves_a_stack_as_one() -> None:
    frogs = (f(0, 200, 400), f(1, 300, 400, side=1),
             f(2, 300, 400, side=1, level=1, supports=(1,)))
    done = slide.simulate(frogs, 0, 0.0, 250)
    a, b = done.frogs[1], done.frogs[2]
    assert a.x > 305 and (a.x, a.y) == pytest.approx((b.x, b.y), abs=0.02)
    assert b.level == 1 and b.supports == (1,)


def test_the_same_slide_twice_gives_the_same_positions() -> None:
    frogs = tuple(f(i, 200 + 40 * (i % 4), 300 + 40 * (i // 4)) for i in range(12))
    assert slide.simulate(frogs, 0, 0.3, 300) == slide.simulate(frogs, 0, 0.3, 300)


# --- rules: helpers -----------------------------------------------------------------


def jump(fid: int, theta: float, s: float, r: float = 13.5) -> dict[str, object]:
    return {"type": "jump", "frog": fid, "theta": theta, "r": r, "s": s}


def started(players: int, seed: int = 1, abilities: str = "printed") -> rules.State:
    state = GAME.setup(players, "standard", {"abilities": abilities}, seed)
    for seat in range(players):
        if seat in GAME.actors(state):
            state = GAME.apply(state, seat, {"type": "deploy", "cluster": 0})
    return state


def own_free(state: rules.State, seat: int | None) -> list[int]:
    assert seat is not None
    side = rules.side_of(state.players, seat)
    return [i for i in model.free_ids(state.frogs) if state.frogs[i].side == side]


def calm_seed(step: int, s: float) -> int:
    """A seed whose jump at ``step`` does not flip."""
    return next(seed for seed in range(1000)
                if stream(seed, "jump", step).random() >= model.flip_chance(s))


def layout(state: rules.State, moves: dict[int, tuple[float, float]]) -> rules.State:
    frogs = list(state.frogs)
    for fid, (x, y) in moves.items():
        frogs[fid] = replace(frogs[fid], x=x, y=y, level=0, supports=())
    return replace(state, frogs=tuple(frogs))


# --- deployment ---------------------------------------------------------------------


def test_deploying_a_cluster_and_the_first_to_confirm_begins() -> None:
    state = GAME.setup(2, "standard", {}, 3)
    assert state.phase == "deploy" and GAME.actors(state) == {0, 1}
    assert GAME.order_independent(state, 1, {"type": "deploy", "cluster": 2})
    state = GAME.apply(state, 1, {"type": "deploy", "cluster": 2})
    assert GAME.actors(state) == {0}
    with pytest.raises(IllegalAction, match="already deployed"):
        GAME.check(state, 1, {"type": "deploy", "cluster": 0})
    state = GAME.apply(state, 0, {"type": "deploy", "cluster": 1})
    assert state.phase == "jump" and state.turn == 1
    reds = [fr for fr in state.frogs if fr.side == 1]
    assert [(fr.x, fr.y) for fr in reds] == cluster(2, 1, 2, 9)


def test_own_formation_must_follow_the_deployment_rules() -> None:
    state = GAME.setup(2, "standard", {}, 3)
    good = [[250.0 + 50 * i, 650.0] for i in range(9)]
    GAME.check(state, 0, {"type": "deploy", "frogs": good})
    cases = {
        "palm": [[400.0 + 50 * (i - 4), 540.0] for i in range(9)],
        "overlap": [[250.0 + 20 * i, 650.0] for i in range(9)],
        "together": [[250.0 + 50 * i + (100 if i > 4 else 0), 650.0] for i in range(9)],
        "sector": [[250.0 + 50 * i, 300.0] for i in range(9)],
        "table": [[250.0 + 50 * i, 790.0] for i in range(9)],
        "each of your 9": good[:8],
        "pair of numbers": [*good[:8], [1.0, float("nan")]],
    }
    for word, frogs in cases.items():
        with pytest.raises(IllegalAction, match=word):
            GAME.check(state, 0, {"type": "deploy", "frogs": frogs})
    after = GAME.apply(state, 0, {"type": "deploy", "frogs": good})
    assert [(fr.x, fr.y) for fr in after.frogs if fr.side == 0] == [tuple(p) for p in good]


def test_every_suggested_cluster_is_a_legal_deployment() -> None:
    for players, sides, count in ((2, 2, 9), (3, 3, 6), (4, 2, 9)):
        for side in range(sides):
            for k in range(3):
                assert deploy_problem(cluster(k, side, sides, count), side, sides) is None, \
                    (players, side, k)


def test_deploy_timeout_gives_cluster_zero_and_refuses_a_late_timer() -> None:
    state = GAME.setup(3, "standard", {"deploy_seconds": 60}, 5)
    timer = GAME.timer(state, {"deploy_seconds": 60})
    assert timer is not None and timer.action == {"type": "timeout", "phase": "deploy"}
    assert GAME.timer(state, {"deploy_seconds": 0}) is None
    with pytest.raises(IllegalAction):
        GAME.check(state, 0, dict(timer.action))
    state = GAME.apply(state, 2, {"type": "deploy", "cluster": 1})
    state = GAME.apply(state, SYSTEM, dict(timer.action))
    assert state.phase == "jump" and state.turn == 2
    with pytest.raises(IllegalAction, match="already over"):
        GAME.check(state, SYSTEM, dict(timer.action))


# --- turns, abilities --------------------------------------------------------------


def test_double_jump_offered_then_declined() -> None:
    seed = calm_seed(2, 0.3)
    state = started(2, seed=seed)
    state = replace(state, turn=0)
    magenta = 4  # green, border magenta
    assert state.frogs[magenta].ability == model.DOUBLE
    state = layout(state, {magenta: (150.0, 150.0)})
    state = GAME.apply(state, 0, jump(magenta, math.pi, 0.3))  # to the right, into space
    assert state.phase == "again" and GAME.actors(state) == {0}
    assert GAME.view(state, 0)["again"] == {"frog": magenta, "kind": "double"}
    legal = GAME.legal(state, 0)
    assert {"type": "stop"} in legal and {a.get("frog") for a in legal} == {magenta, None}
    with pytest.raises(IllegalAction, match="Only the frog"):
        GAME.check(state, 0, jump(3, 0.0, 0.3))
    state = GAME.apply(state, 0, {"type": "stop"})
    assert state.phase == "jump" and state.turn == 1


def test_double_jump_taken_ends_the_turn_after_the_second() -> None:
    seed = next(s for s in range(1000)
                if all(stream(s, "jump", k).random() > 0.2 for k in (2, 3)))
    state = layout(replace(started(2, seed=seed), turn=0), {4: (150.0, 150.0)})
    state = GAME.apply(state, 0, jump(4, math.pi, 0.3))
    assert state.phase == "again"
    state = GAME.apply(state, 0, jump(4, math.pi / 2, 0.3))
    assert state.phase == "jump" and state.turn == 1


def test_a_frog_without_double_jump_ends_the_turn() -> None:
    state = layout(replace(started(2, seed=calm_seed(2, 0.3)), turn=0), {3 - 3: (150.0, 150.0)})
    state = GAME.apply(state, 0, jump(0, math.pi, 0.3))
    assert state.phase == "jump" and state.turn == 1


def test_clear_dive_offers_a_jump_and_blocked_dive_ends_the_turn() -> None:
    state = replace(started(2, seed=1), turn=0)
    blue = 0
    state = layout(state, {blue: (150.0, 150.0)})
    clear = GAME.apply(state, 0, {"type": "dive", "frog": blue, "theta": math.pi, "s": 0.3})
    assert clear.phase == "again" and clear.again_kind == "dive"
    assert clear.last is not None and clear.last.outcome == "dive_clear"
    view = GAME.view(clear, None)
    assert view["last"]["trajectory"]["kind"] == "slide"
    assert view["last"]["trajectory"]["discs"][0]["frog"] == blue
    with pytest.raises(IllegalAction, match="first move"):
        GAME.check(clear, 0, {"type": "dive", "frog": blue, "theta": 0.0, "s": 0.3})
    state = layout(state, {blue: (150.0, 150.0), 9: (250.0, 150.0)})
    blocked = GAME.apply(state, 0, {"type": "dive", "frog": blue, "theta": math.pi, "s": 0.5})
    assert blocked.last is not None and blocked.last.outcome == "dive_touched"
    assert blocked.phase == "jump" and blocked.turn == 1
    with pytest.raises(IllegalAction, match="diving"):
        GAME.check(state, 0, {"type": "dive", "frog": 3, "theta": 0.0, "s": 0.3})


def test_abilities_follow_the_option() -> None:
    def table(players: int, rule: str) -> set[tuple[str, str, str | None]]:
        state = GAME.setup(players, "standard", {"abilities": rule}, 0)
        return {(fr.colour, fr.border, fr.ability) for fr in state.frogs}
    assert ("green", "yellow", "poison") in table(2, "printed")
    assert {a for *_, a in table(3, "printed")} == {None}
    assert {(c, a) for c, _, a in table(4, "printed")} == {("red", "double"), ("green", "dive")}
    assert {(c, a) for c, _, a in table(3, "alternate")} == {("red", "double"),
                                                            ("green", "dive")}
    assert ("red", "magenta", "double") in table(4, "alternate")


def test_game_ends_when_the_next_player_has_no_free_frog() -> None:
    state = replace(started(2, seed=calm_seed(2, 0.2)), turn=0)
    frogs = list(state.frogs)
    for k, red in enumerate(range(9, 18)):
        green = 1 + k % 8
        frogs[red] = replace(frogs[red], x=frogs[green].x, y=frogs[green].y, level=1,
                             supports=(green,))
    frogs[0] = replace(frogs[0], x=150.0, y=150.0)
    state = replace(state, frogs=tuple(frogs))
    assert GAME.result(state) is None
    over = GAME.apply(state, 0, jump(0, math.pi, 0.2))
    result = GAME.result(over)
    assert over.phase == "over" and result is not None
    assert result.winners == (1,) and result.scores == (0, 9)
    assert GAME.actors(over) == frozenset() and GAME.legal(over, 0) == []


def test_ties_go_to_most_free_frogs_then_are_shared() -> None:
    state = replace(started(2, seed=1), phase="over", turn=None)
    assert GAME.result(state) is not None and GAME.result(state).winners == (0, 1)  # type: ignore[union-attr]
    frogs = list(state.frogs)
    frogs[1] = replace(frogs[1], x=frogs[2].x, y=frogs[2].y, level=1, supports=(2,))
    result = GAME.result(replace(state, frogs=tuple(frogs)))
    assert result is not None and result.winners == (1,) and result.scores == (0, 0)


def test_four_players_play_in_teams() -> None:
    state = GAME.setup(4, "standard", {}, 2)
    view = GAME.view(state, 2)
    assert view["teams"] == [[0, 2], [1, 3]] and view["your_side"] == 0
    state = GAME.apply(state, 2, {"type": "deploy", "cluster": 0})
    assert GAME.actors(state) == {1, 3}
    state = GAME.apply(state, 3, {"type": "deploy", "cluster": 0})
    assert state.turn == 2
    greens = {a["frog"] for a in GAME.legal(state, 2) if a["type"] == "jump"}
    assert greens == set(range(9))
    with pytest.raises(IllegalAction, match="not yours"):
        GAME.check(state, 2, jump(10, 0.0, 0.3))
    frogs = list(state.frogs)
    frogs[9] = replace(frogs[9], x=frogs[0].x, y=frogs[0].y, level=1, supports=(0,))
    over = replace(state, frogs=tuple(frogs), phase="over", turn=None)
    result = GAME.result(over)
    assert result is not None and result.winners == (1, 3) and result.scores == (0, 1, 0, 1)
    assert result.detail["teams"] == [[0, 2], [1, 3]]


# --- hidden information and refusals -----------------------------------------------


def test_only_the_seed_is_hidden_and_only_while_running() -> None:
    state = started(2, seed=7)
    assert GAME.view(state, 0)["seed"] is None
    variant = GAME.hidden_variant(state, 0, random.Random(1))
    assert variant.seed != state.seed and replace(variant, seed=state.seed) == state
    assert GAME.view(variant, 0) == GAME.view(state, 0)
    over = replace(state, phase="over", turn=None)
    assert GAME.view(over, None)["seed"] == 7
    assert GAME.hidden_variant(over, 0, random.Random(1)) == over


def test_illegal_actions_are_refused_with_reasons() -> None:
    state = started(2, seed=1)
    me, other = state.turn, 1 - (state.turn or 0)
    assert me is not None
    mine, theirs = own_free(state, me)[0], own_free(state, other)[0]
    refusals = [
        (other, jump(theirs, 0.0, 0.3), "not your turn"),
        (me, jump(theirs, 0.0, 0.3), "not yours"),
        (me, jump(mine, 0.0, 1.5), "between 0 and 1"),
        (me, jump(mine, float("inf"), 0.5), "finite"),
        (me, jump(99, 0.0, 0.5), "frog by its id"),
        (me, {"type": "stop"}, "no extra jump"),
        (me, {"type": "timeout", "phase": "deploy"}, "clock"),
        (me, {"type": "deploy", "cluster": 0}, "already deployed"),
        (me, {**jump(mine, 0.0, 0.5), "extra": 1}, "Unexpected"),
        (me, {"type": "fly"}, "Unknown"),
    ]
    for seat, action, words in refusals:
        with pytest.raises(IllegalAction, match=words):
            GAME.check(state, seat, action)
    frogs = list(state.frogs)
    under = own_free(state, me)[1]
    frogs[9 if me == 0 else 0] = replace(frogs[9 if me == 0 else 0], x=frogs[under].x,
                                         y=frogs[under].y, level=1, supports=(under,))
    with pytest.raises(IllegalAction, match="not free"):
        GAME.check(replace(state, frogs=tuple(frogs)), me, jump(under, 0.0, 0.5))


# --- replay and whole games ---------------------------------------------------------


def test_same_seed_and_inputs_give_the_same_positions() -> None:
    def game(seed: int) -> rules.State:
        state = started(3, seed=seed)
        for k in range(12):
            seat = state.turn
            if seat is None:
                break
            fid = own_free(state, seat)[0] if state.phase == "jump" else state.again_frog
            assert fid is not None
            state = GAME.apply(state, seat, jump(fid, k * 0.7, 0.2 + 0.05 * k))
        return state
    assert game(11) == game(11)
    assert game(11).frogs != game(12).frogs


def test_view_has_the_contract_keys_and_a_jump_trajectory() -> None:
    state = started(2, seed=calm_seed(2, 0.4))
    seat = state.turn
    fid = own_free(state, seat)[0]
    state = GAME.apply(state, seat, jump(fid, math.pi / 2, 0.4))  # jumps up, towards the pad
    view = GAME.view(state, None)
    for key in ("game", "you", "players", "phase", "actors", "table", "pad", "sizes", "sides",
                "teams", "side_of", "your_side", "frogs", "deployed", "sectors", "clusters",
                "turn", "again", "turns", "turn_limit", "scores", "free", "log", "last",
                "over", "winners", "final", "seed"):
        assert key in view
    last = view["last"]
    assert last["kind"] == "jump" and last["frog"] == fid
    arc = last["trajectory"]
    assert arc["kind"] == "arc" and sorted(arc) == ["height", "kind", "then", "to"]
    assert last["positions"][0]["id"] == fid
    assert arc["height"] > 10 * 100  # hundredths of a mm
    numbers = [*arc["to"], arc["height"], *(v for p in arc["then"] for v in p)]
    assert all(type(v) is int for v in numbers)


def drawn(start: list[float], arc: dict[str, Any], samples: int) -> list[tuple[float, ...]]:
    """The points a table draws from a view's arc (docs/GAMES.md), in mm."""
    to, height = [v / 100 for v in arc["to"]], arc["height"] / 100
    out = []
    for i in range(samples):
        t = i / (samples - 1)
        out.append((start[0] + t * (to[0] - start[0]), start[1] + t * (to[1] - start[1]),
                    height * math.sin(math.pi * t) + to[2] * t))
    return out + [tuple(v / 100 for v in p) for p in arc["then"]]


def test_the_views_arc_draws_the_hosts_flight_in_a_quarter_of_the_bytes() -> None:
    """Every jump of seeded bot games, flips, stacks, skids and off-table ones among them:
    the arc's parameters give the points the host's model flew within 0.02 mm, in
    under 30 % of the bytes of those points as float64 triples (what the view sent)."""
    outcomes: set[str] = set()
    for seed in range(6):
        state = GAME.setup(4, "standard", {}, seed)
        rngs = [random.Random(seed * 10 + s) for s in range(4)]
        for _ in range(rules.TURN_LIMIT * 4 * 3):
            if GAME.result(state) is not None:
                break
            seat = min(GAME.actors(state))
            action = GAME.bot(GAME.view(state, seat), seat, rngs[seat])
            assert action is not None
            state = GAME.apply(state, seat, action)
            event = state.last
            if event is None or event.kind != "jump":
                continue
            outcomes.add(event.outcome)
            view = GAME.view(state, None)["last"]
            samples = model.FLIP_POINTS if event.outcome == "flipped" else model.ARC_POINTS
            points = drawn(view["start"], view["trajectory"], samples)
            assert len(points) == len(event.arc)
            assert max(abs(a - b) for p, q in zip(points, event.arc, strict=True)
                       for a, b in zip(p, q, strict=True)) <= 0.02
            floats = msgpack.packb([list(p) for p in event.arc])
            assert len(msgpack.packb(view["trajectory"])) < 0.3 * len(floats)
    assert {"landed", "stacked"} <= outcomes


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_end(players: int) -> None:
    for seed in range(3):
        state = GAME.setup(players, "standard", {}, seed)
        rngs = [random.Random(seed * 10 + s) for s in range(players)]
        for _ in range(rules.TURN_LIMIT * players * 3):
            if GAME.result(state) is not None:
                break
            seat = min(GAME.actors(state))
            action = GAME.bot(GAME.view(state, seat), seat, rngs[seat])
            assert action is not None
            state = GAME.apply(state, seat, action)
        result = GAME.result(state)
        assert result is not None
        assert state.end == "no free frog"
        assert max(result.scores) > 0


def test_the_bot_aims_at_an_enemy_within_reach() -> None:
    state = replace(started(2, seed=1), turn=0)
    state = layout(state, {0: (150.0, 150.0), 9: (300.0, 150.0)})
    action = GAME.bot(GAME.view(state, 0), 0, random.Random(0))
    assert action is not None and action["type"] == "jump"
    if action["frog"] == 0:
        direction = action["theta"] + math.pi
        assert math.cos(direction) == pytest.approx(1.0, abs=0.01)
        assert model.reach(action["s"]) == pytest.approx(150, abs=8)


def test_the_room_shows_teams_only_with_four_players() -> None:
    from lanplay.games.ranagedon import GAME as FROGS

    assert FROGS.teams(4, "standard") == [[0, 2], [1, 3]]
    assert FROGS.teams(3, "standard") is None and FROGS.teams(2, "standard") is None
