"""The conformance suite: every available game, every mode, every player count.

Each test names the rule of the surface it proves (see lanplay/game.py and
docs/GAME-SURFACE.md); the drivers and checks live in tests/conformance.py.
A test collects every violation it finds in a case and reports the first few,
each with the seed and step that reproduce it.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import conformance as c
import pytest

from lanplay.game import SYSTEM, IllegalAction, Result, Timer, player_range
from lanplay.games import CATALOGUE, entry, shape
from protocol import delta

GAMES, BROKEN = c.games()
CASES = c.cases(GAMES)
SEEDS = (0, 1, 2)
SHOWN = 8
"""How many violations a failing test lists."""

case_param = pytest.mark.parametrize("case", CASES, ids=[k.id for k in CASES])
game_param = pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])


def report(problems: list[str]) -> str:
    more = f"\n... and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return "\n".join(problems[:SHOWN]) + more


# --- the catalogue -----------------------------------------------------------------


@pytest.mark.parametrize("game_id", [e.id for e in CATALOGUE if e.available])
def test_game_module_loads(game_id: str) -> None:
    assert game_id not in BROKEN, f"{game_id} does not load: {BROKEN[game_id]}"


@game_param
def test_game_describes_itself(game: Any) -> None:
    e = entry(game.id)
    problems = []
    for attr in ("id", "name", "summary", "rules_help"):
        value = getattr(game, attr, None)
        if not isinstance(value, str) or not value.strip():
            problems.append(f"{attr} must be a non-empty str, is {value!r:.60}")
    if game.name != e.name:
        problems.append(f"name {game.name!r} differs from the catalogue's {e.name!r}")
    if tuple(m.id for m in game.modes) != e.modes:
        problems.append(f"modes {[m.id for m in game.modes]} differ from the catalogue's {e.modes}")
    if player_range(game) != e.players:
        problems.append(f"players {player_range(game)} differ from the catalogue's {e.players}")
    for mode in game.modes:
        if not 1 <= mode.min_players <= mode.max_players:
            problems.append(f"mode {mode.id} has players {mode.min_players}-{mode.max_players}")
    keys = [o.key for o in game.options]
    if len(set(keys)) != len(keys):
        problems.append(f"option keys repeat: {keys}")
    for opt in game.options:
        if opt.choices and opt.default not in opt.choices:
            problems.append(f"option {opt.key}: default {opt.default!r} is not a choice")
        if c.wire_problem(opt.default) or c.wire_problem(list(opt.choices)):
            problems.append(f"option {opt.key}: default or choices are not plain wire values")
        for choice in opt.choices or (opt.default,):
            try:
                parsed = opt.parse(str(choice).lower() if isinstance(choice, bool) else str(choice))
            except ValueError as exc:
                problems.append(f"option {opt.key}: parse({choice!r}) fails: {exc}")
                continue
            if c.strict_difference(parsed, choice):
                problems.append(f"option {opt.key}: parse(str({choice!r})) gives {parsed!r}")
    assert not problems, report(problems)


# --- games end -------------------------------------------------------------------


def result_problems(case: c.Case, run: c.Playthrough) -> list[str]:
    game, state = case.game, run.final
    result = game.result(state)
    where = f"{case.id} seed {run.seed}"
    if not isinstance(result, Result):
        return [f"{where}: result is {type(result).__name__}, not Result"]
    problems = []
    seats = range(case.players)
    if not isinstance(result.winners, tuple) or not all(type(w) is int for w in result.winners):
        problems.append(f"{where}: winners {result.winners!r} is not a tuple of seats")
    elif not set(result.winners) <= set(seats) or len(set(result.winners)) != len(result.winners):
        problems.append(f"{where}: winners {result.winners} are not distinct seats of {seats}")
    if len(result.scores) != case.players:
        problems.append(f"{where}: {len(result.scores)} scores for {case.players} players")
    if not all(type(s) in (int, float) and s == s for s in result.scores):
        problems.append(f"{where}: scores {result.scores!r} are not all numbers")
    problem = c.round_trip_problem(result.to_wire(), f"{where}: result.to_wire()")
    if problem:
        problems.append(problem)
    if game.actors(state):
        problems.append(f"{where}: the game has ended but actors are {set(game.actors(state))}")
    if game.timer(state, run.options) is not None:
        problems.append(f"{where}: the game has ended but a timer is pending")
    for seat in seats:
        if game.legal(state, seat):
            problems.append(f"{where}: the game has ended but seat {seat} has legal actions")
    return problems


@case_param
def test_seeded_random_games_end(case: c.Case) -> None:
    problems = []
    for seed in SEEDS:
        problems += result_problems(case, c.random_run(case, seed))
    assert not problems, report(problems)


@case_param
def test_bot_games_end_with_checked_actions(case: c.Case) -> None:
    """Bots in every seat finish; ``play`` checks every bot action before applying it."""
    problems = []
    for seed in SEEDS[:2]:
        run = c.bot_run(case, seed)
        problems += result_problems(case, run)
        game = case.game
        for i, state in c.sample(run.states, 30):
            actors = game.actors(state)
            for seat in range(case.players):
                if seat in actors:
                    continue
                view = c.wire_round_trip(game.view(state, seat))
                action = game.bot(view, seat, random.Random(i))
                if action is not None:
                    problems.append(f"{case.id} seed {seed} step {i}: the bot of seat {seat}, "
                                    f"which may not act, proposes {action!r}")
    assert not problems, report(problems)


# --- the surface is consistent with itself -------------------------------------------


def surface_problems(case: c.Case, run: c.Playthrough, i: int, state: Any) -> Iterator[str]:
    game, where = case.game, c.describe(case, run.seed, i)
    actors = game.actors(state)
    if not isinstance(actors, frozenset | set):
        yield f"{where}: actors is a {type(actors).__name__}, not a frozenset"
    if not set(actors) <= set(range(case.players)):
        yield f"{where}: actors {set(actors)} are not all seats"
    for seat in range(case.players):
        legal = game.legal(state, seat)
        if not isinstance(legal, list):
            yield f"{where}: legal(seat {seat}) is a {type(legal).__name__}, not a list"
        if (seat in actors) != bool(legal):
            yield (f"{where}: seat {seat} is {'' if seat in actors else 'not '}an actor "
                   f"but has {len(legal)} legal actions")
        for action in legal:
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                yield f"{where}: legal action {action!r:.80} is not a dict with a str type"
                continue
            problem = c.round_trip_problem(action, f"{where}: legal action of seat {seat}")
            if problem:
                yield problem
            try:
                game.check(state, seat, action)
            except IllegalAction as exc:
                yield f"{where}: check refuses seat {seat}'s legal {action!r}: {exc.reason}"
            independent = game.order_independent(state, seat, action)
            if type(independent) is not bool:
                yield f"{where}: order_independent gives {independent!r}, not a bool"
    timer = game.timer(state, run.options)
    if timer is not None:
        if not isinstance(timer, Timer) or not isinstance(timer.key, str):
            yield f"{where}: timer {timer!r} is not a Timer with a str key"
            return
        if not isinstance(timer.seconds, int | float) or not timer.seconds > 0:
            yield f"{where}: timer {timer.key} lasts {timer.seconds!r} seconds"
        problem = c.round_trip_problem(timer.action, f"{where}: timer action")
        if problem:
            yield problem
        try:
            game.check(state, SYSTEM, dict(timer.action))
        except IllegalAction as exc:
            yield f"{where}: check refuses the pending timer's {timer.action!r}: {exc.reason}"
    elif not actors and game.result(state) is None:
        yield f"{where}: the game is running but nobody acts and no timer is pending"


@case_param
def test_legal_actions_pass_check_and_travel(case: c.Case) -> None:
    problems: list[str] = []
    for seed in SEEDS:
        run = c.random_run(case, seed)
        for i, state in c.sample(run.states, 60):
            problems += surface_problems(case, run, i, state)
    assert not problems, report(problems)


# --- what a seat may do (the view's ``may``) -------------------------------------


def may_problems(case: c.Case, run: c.Playthrough, i: int, state: Any) -> Iterator[str]:
    """``may`` against the rules at one state, for every seat and a spectator."""
    game, where = case.game, c.describe(case, run.seed, i)
    actors = game.actors(state)
    rng = random.Random(run.seed * 7907 + i)
    for viewer in run.viewers():
        view = game.view(state, viewer)
        may = view.get("may")
        if not isinstance(may, list):
            yield f"{where}: view({viewer}) has no 'may' list"
            continue
        if viewer is None or viewer not in actors:
            if may:
                yield f"{where}: seat {viewer}, which may not act, is offered {may[0]!r:.100}"
            continue
        if not may:
            yield f"{where}: seat {viewer} may act but its 'may' is empty"
        for template in may:
            for action in c.template_samples(template, view, rng):
                try:
                    game.check(state, viewer, action)
                except IllegalAction as exc:
                    yield (f"{where}: seat {viewer}'s 'may' offers {action!r:.160}, which "
                           f"check refuses: {exc.reason}")
            yield from sealed_note_problems(game, state, viewer, view, template, rng, where)
        for action in game.legal(state, viewer):
            if not any(shape.fits(t, action) for t in may):
                yield (f"{where}: seat {viewer}'s legal {action!r:.120} fits no template of "
                       "its 'may'")


def sealed_note_problems(game: Any, state: Any, seat: int, view: dict[str, Any],
                         template: dict[str, Any], rng: random.Random,
                         where: str) -> Iterator[str]:
    """A template that commits to a note (S-tier): notes of the form it gives are ones
    the seat's laptop seals (its ``secrets.seal`` refuses what the rules would not take,
    PROTOCOL.md "The S-tier note"), and what it sends fits the template and passes."""
    choose = template.get("choose") or {}
    commit = next((ch for ch in choose.values() if ch.get("kind") == "commitment"), None)
    secrets = c.secrets_of(game)
    if commit is None or secrets is None:
        return
    for _ in range(3):
        note = c.sample_note(commit["note"], rng)
        plain: dict[str, Any] = {"type": "note", "tiers": note}
        if "hint" in choose:
            plain["hint"] = rng.choice([t for t, p in enumerate(note) if p is not None])
        try:
            sealed = secrets.seal(view, seat, plain, rng.randbytes(16))
        except IllegalAction as exc:
            yield f"{where}: seat {seat}'s laptop refuses the note {note!r:.100}: {exc.reason}"
            continue
        if sealed is None or not shape.fits(template, sealed[0]):
            yield f"{where}: seat {seat}'s laptop sends {sealed!r:.100}, not what 'may' says"
            continue
        try:
            game.check(state, seat, sealed[0])
        except IllegalAction as exc:
            yield f"{where}: check refuses seat {seat}'s sealed note: {exc.reason}"


@case_param
def test_may_is_what_the_rules_accept(case: c.Case) -> None:
    """Each seat's view says what it may send now, so a thin client never re-implements
    the rules: [] for a spectator and a seat that may not act; every listed action,
    and every filling of a template's choices (ends and inside), passes ``check``;
    and every action ``legal`` lists fits one of the templates."""
    problems: list[str] = []
    for seed in SEEDS:
        run = c.random_run(case, seed)
        for i in c.walk(run.states):
            problems += may_problems(case, run, i, run.states[i])
    for seed in SEEDS[:2]:
        run = c.bot_run(case, seed)
        for i, state in c.sample(run.states, 30):
            problems += may_problems(case, run, i, state)
    assert not problems, report(problems)


# --- refusing --------------------------------------------------------------------


def refusal_problems(case: c.Case, use_apply: bool) -> list[str]:
    game, problems = case.game, []
    for seed in SEEDS[:2]:
        run = c.random_run(case, seed)
        for i, state in c.sample(run.states):
            where = c.describe(case, seed, i)
            before = c.snapshot(state)
            if state != before:
                problems.append(f"{where}: the state differs from its deep copy; states must be "
                                "values (a frozen dataclass of plain data)")
                continue
            variants = {seat: game.hidden_variant(state, seat, random.Random(seed * 31 + i))
                        for seat in range(case.players)}
            for seat, action in c.illegal_submissions(game, state, case.players, run.options):
                ok, reason = c.refusal(game, state, seat, action, use_apply=use_apply)
                if not ok:
                    problems.append(f"{where}: {reason}")
                elif seat in variants:
                    _, other = c.refusal(game, variants[seat], seat, action, use_apply=use_apply)
                    if other != reason:
                        problems.append(f"{where}: the reason given to seat {seat} for "
                                        f"{action!r:.120} depends on what it cannot see: "
                                        f"{reason!r} vs {other!r}")
                if state != before:
                    problems.append(f"{where}: refusing {action!r:.120} from seat {seat} "
                                    "changed the state")
                    before = c.snapshot(state)
    return problems


@case_param
def test_check_refuses_illegal_actions_and_changes_nothing(case: c.Case) -> None:
    problems = refusal_problems(case, use_apply=False)
    assert not problems, report(problems)


@case_param
def test_apply_refuses_illegal_actions_and_changes_nothing(case: c.Case) -> None:
    """A host bug that skips ``check`` must still not corrupt a game."""
    problems = refusal_problems(case, use_apply=True)
    assert not problems, report(problems)


@case_param
def test_timer_keys_are_stable_and_stale_timer_actions_refused(case: c.Case) -> None:
    """The host keeps a running timer while its key stays and fires the action it
    saw first, so one key must always carry one action; and a timer that fires
    after its window closed must not close the next one."""
    problems = []
    for seed in SEEDS:
        run = c.random_run(case, seed)
        actions: dict[str, Any] = {}
        for i, state in enumerate(run.states):
            timer = case.game.timer(state, run.options)
            if timer is None:
                continue
            first = actions.setdefault(timer.key, timer.action)
            if c.strict_difference(first, timer.action):
                problems.append(f"{c.describe(case, seed, i)}: timer {timer.key!r} now carries "
                                f"{timer.action!r}, first {first!r}")
        for i, action in c.stale_timer_actions(case.game, run.states, run.options):
            ok, reason = c.refusal(case.game, run.states[i], SYSTEM, action)
            if not ok:
                problems.append(f"{c.describe(case, seed, i)}: stale timer action: {reason}")
    assert not problems, report(problems)


# --- values, not objects ---------------------------------------------------------


@case_param
def test_apply_and_the_readers_never_mutate_their_input(case: c.Case) -> None:
    game, problems = case.game, []
    for seed in SEEDS[:2]:
        run = c.random_run(case, seed)
        for i in c.walk(run.moves):
            seat, action = run.moves[i]
            state, where = run.states[i], c.describe(case, seed, i)
            before = c.snapshot(state)
            game.actors(state)
            for viewer in run.viewers():
                game.view(state, viewer)
                if viewer is not None:
                    game.legal(state, viewer)
                    game.hidden_variant(state, viewer, random.Random(i))
            game.timer(state, run.options)
            game.result(state)
            if state != before:
                problems.append(f"{where}: a reader (view, legal, hidden_variant, ...) "
                                "mutated the state")
                before = c.snapshot(state)
            given = c.snapshot(action)
            after = game.apply(state, seat, given)
            if state != before:
                problems.append(f"{where}: apply of seat {seat}'s {action!r} mutated its input")
            if given != action:
                problems.append(f"{where}: apply changed the action it was given: {action!r} "
                                f"became {given!r}")
            if after != run.states[i + 1]:
                problems.append(f"{where}: applying seat {seat}'s {action!r} twice to the same "
                                "state gave different states")
    assert not problems, report(problems)


@case_param
def test_views_survive_msgpack_and_deltas(case: c.Case) -> None:
    game, problems = case.game, []
    largest = 0
    for seed in SEEDS:
        run = c.random_run(case, seed)
        last: dict[Any, Any] = {}
        for i in c.walk(run.states):
            state, where = run.states[i], c.describe(case, seed, i)
            for viewer in run.viewers():
                view = game.view(state, viewer)
                if not isinstance(view, dict):
                    problems.append(f"{where}: view({viewer}) is a {type(view).__name__}")
                    continue
                problem = c.round_trip_problem(view, f"{where}: view({viewer})")
                if problem:
                    problems.append(problem)
                    continue
                size = len(c.pack(view))
                largest = max(largest, size)
                if size > c.MAX_VIEW_BYTES:
                    problems.append(f"{where}: view({viewer}) packs to {size} bytes")
                if viewer in last:
                    ops = delta.diff(last[viewer], view)
                    problem = c.same_wire_value(delta.apply(last[viewer], ops), view)
                    if problem:
                        problems.append(f"{where}: a delta does not rebuild view({viewer}): "
                                        f"{problem}")
                if seed == SEEDS[0]:  # deltas are protocol's job; one game shows a view fits
                    last[viewer] = view
    assert not problems, report(problems)


# --- seeds ------------------------------------------------------------------------


@case_param
def test_same_seed_and_choices_give_the_same_game(case: c.Case) -> None:
    game = case.game
    for seed in SEEDS[:2]:
        run = c.random_run(case, seed)
        again = c.play(case, seed)
        assert len(again.states) == len(run.states), f"{case.id} seed {seed}: lengths differ"
        for i in c.walk(run.states):
            a, b = run.states[i], again.states[i]
            for viewer in run.viewers():
                problem = c.strict_difference(game.view(a, viewer), game.view(b, viewer))
                assert problem is None, f"{c.describe(case, seed, i)} view({viewer}): {problem}"
        replayed = c.replay(case, seed, run.moves)
        for i, (a, b) in enumerate(zip(run.states, replayed, strict=True)):
            assert a == b, f"{c.describe(case, seed, i)}: replaying the log gives another state"


@case_param
def test_another_seed_gives_another_game(case: c.Case) -> None:
    game = case.game
    viewers = [*range(case.players), None]
    opts = case.options

    def opening(seed: int) -> list[Any]:
        state = game.setup(case.players, case.mode, opts, seed)
        return [game.view(state, v) for v in viewers]

    first = opening(0)
    if any(opening(seed) != first for seed in range(1, 5)):
        return
    # No visible deal (a game of skill): the seed must still steer chance later.
    base = c.play(case, 0, choice_seed=0)
    for seed in range(1, 5):
        other = c.play(case, seed, choice_seed=0)
        if [game.view(s, None) for s in other.states] != [game.view(s, None) for s in base.states]:
            return
    pytest.fail(f"{case.id}: seeds 0-4 give the same game")


@game_param
def test_replay_is_the_same_in_another_process(game: Any) -> None:
    """String hashing differs per process: a set iterated in a deal would show here."""
    mode = game.modes[0]
    case = c.Case(game, mode.id, mode.max_players)
    here = c.digest(case, 0)
    tests = Path(__file__).resolve().parent
    code = (f"import sys; sys.path[:0] = [{str(tests)!r}, {str(tests.parent)!r}]\n"
            "import importlib, conformance as c\n"
            f"game = importlib.import_module({entry(game.id).module!r}).GAME\n"
            f"print(c.digest(c.Case(game, {mode.id!r}, {mode.max_players}), 0))")
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, timeout=60, check=False)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip() == here, (
            f"{case.id}: the same seed and actions give other views with "
            f"PYTHONHASHSEED={hash_seed} (iteration over a set or dict of hashes?)")


# --- hidden information ----------------------------------------------------------


@case_param
def test_views_show_nothing_hidden(case: c.Case) -> None:
    """A state that differs only in what v cannot see gives v the same view."""
    game, problems = case.game, []
    differing = 0
    for seed in SEEDS:
        run = c.random_run(case, seed)
        for i, state in c.sample(run.states):
            where = c.describe(case, seed, i)
            before = c.snapshot(state)
            for viewer in run.viewers():
                rng = random.Random(seed * 7919 + i * 13 + (viewer if viewer is not None else 99))
                variant = game.hidden_variant(state, viewer, rng)
                differing += variant != state
                problem = c.strict_difference(game.view(state, viewer), game.view(variant, viewer))
                if problem:
                    problems.append(f"{where}: hidden_variant for {viewer} changes what it sees: "
                                    f"{problem}")
                if game.actors(variant) != game.actors(state):
                    problems.append(f"{where}: who acts depends on what {viewer} cannot see")
                if game.timer(variant, run.options) != game.timer(state, run.options):
                    problems.append(f"{where}: the timer depends on what {viewer} cannot see")
                if game.result(variant) != game.result(state):
                    problems.append(f"{where}: the result depends on what {viewer} cannot see")
                if viewer is not None:
                    problem = c.strict_difference(game.legal(state, viewer),
                                                  game.legal(variant, viewer))
                    if problem:
                        problems.append(f"{where}: seat {viewer}'s legal actions depend on what "
                                        f"it cannot see: {problem}")
            if state != before:
                problems.append(f"{where}: hidden_variant mutated the state")
    if case.players >= 2 and not differing:
        problems.append(f"{case.id}: hidden_variant never changed a state, so this test "
                        "proved nothing (it must reshuffle what the viewer cannot see)")
    assert not problems, report(problems)


# --- simultaneous choices --------------------------------------------------------


@case_param
def test_order_independent_actions_survive_another_seats_action(case: c.Case) -> None:
    """An order-independent action still passes check after another seat's one.

    That is what lets the host accept it against an older state_id: in a
    simultaneous phase the answers commute. An action that ends the phase
    takes the seat out of the actors, so the claim is only tested while the
    seat still has to answer.
    """
    game, problems = case.game, []
    for seed in SEEDS:
        run = c.random_run(case, seed)
        for i, state in c.sample(run.states, 30):
            where = c.describe(case, seed, i)
            for seat, action in c.illegal_submissions(game, state, case.players, run.options):
                try:
                    flag = game.order_independent(state, seat, action)
                except Exception as exc:
                    problems.append(f"{where}: order_independent raised {type(exc).__name__} "
                                    f"({exc}) for seat {seat}'s {action!r:.120}")
                    break
                if type(flag) is not bool:
                    problems.append(f"{where}: order_independent gives {flag!r}, not a bool")
            actors = sorted(game.actors(state))
            independent = {seat: [a for a in game.legal(state, seat)
                                  if game.order_independent(state, seat, a)][:4]
                           for seat in actors}
            for seat, mine in independent.items():
                between = [(other, theirs[0]) for other, theirs in independent.items()
                           if other != seat and theirs]
                for other, theirs in between:
                    later = game.apply(state, other, theirs)
                    if seat not in game.actors(later):
                        continue
                    for action in mine:
                        try:
                            game.check(later, seat, action)
                        except IllegalAction as exc:
                            problems.append(f"{where}: seat {seat}'s order-independent "
                                            f"{action!r} is refused after seat {other} played "
                                            f"{theirs!r}: {exc.reason}")
    assert not problems, report(problems)


# --- options ---------------------------------------------------------------------


def option_cases() -> list[Any]:
    out = []
    for game in GAMES:
        mode = game.modes[0]
        for opt in game.options:
            values = opt.choices or ((not opt.default,) if isinstance(opt.default, bool) else ())
            for value in values:
                if value != opt.default:
                    out.append(pytest.param(game, mode.id, {opt.key: value},
                                            id=f"{game.id}-{opt.key}={value}"))
    return out


@pytest.mark.parametrize(("game", "mode", "options"), option_cases())
def test_every_option_choice_plays_to_the_end(game: Any, mode: str,
                                              options: dict[str, Any]) -> None:
    spec = next(m for m in game.modes if m.id == mode)
    for players in sorted({spec.min_players, spec.max_players}):
        run = c.play(c.Case(game, mode, players), 0, c.mixed_chooser(0), options=options)
        problems = result_problems(run.case, run)
        for i, state in c.sample(run.states, 20):
            problems += surface_problems(run.case, run, i, state)
            problems += may_problems(run.case, run, i, state)
        assert not problems, report(problems)
