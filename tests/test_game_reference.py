"""The client-facing game reference (docs/GAMES.md) against the code, so it cannot drift.

Each game declares its phases, actions and view next to its rules
(``lanplay/games/<game>/schema.py``, pure data in the shapes of
``lanplay.games.shape``); the document is generated from those schemas, and
here every view that seeded random and bot play of every game, mode and
player count shows (S-tier played through ``lanplay.peer.keeper.Laptops``, the
leaders' notes kept on their laptops), and every action the players, the
laptops and the host's timers send, is held against them. Every action type
the reference names must turn up in that play, so it lists nothing dead.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import conformance as c
import pytest

from lanplay.game import SYSTEM, secrets_of
from lanplay.games import CATALOGUE, entry
from lanplay.games import shape as sh
from lanplay.tools import gamedoc

GAMES, _ = c.games()
CASES = c.cases(GAMES)
RANDOM_SEEDS = (0, 1, 2)
BOT_SEEDS = (0, 1)
VIEW_STATES = c.WALK_LIMIT
"""States per game whose every view is checked: all of them, or of a longer game that
many spread over it, ends included (as the conformance suite walks)."""
SHOWN = 8
ROOT = Path(__file__).resolve().parents[1]

EXTRA: tuple[tuple[str, str, int, dict[str, Any], int], ...] = (
    # What default options never show (the host's other timers, the harder S-tier
    # side), played half by the bots, half at random, with a seed that shows it.
    ("ranking", "standard", 3, {"place_seconds": 30, "guess_seconds": 15}, 0),
    ("ranagedon", "standard", 3, {"deploy_seconds": 60}, 3),
    ("ranking-top", "standard", 4, {"top_seconds": 0}, 0),
    ("s-tier", "cooperative", 3, {"text_side": True, "coop_track": 6}, 0),
    ("s-tier", "cooperative", 5, {"text_side": True, "coop_track": 6, "guess_seconds": 0}, 1),
    ("s-tier", "competitive", 5, {"place_seconds": 0}, 0),
    ("alles-klar", "standard", 3, {"end_rule": "empty-hands", "hand_size": 5}, 0),
    # Seat 0 away: the host's stand-in voids the rounds whose note it would need.
    ("s-tier", "cooperative", 3, {"standin": 0}, 0),
    ("s-tier", "competitive", 4, {"standin": 0}, 0),
    ("s-tier", "team", 4, {"standin": 0}, 0),
)

case_param = pytest.mark.parametrize("case", CASES, ids=[k.id for k in CASES])
MODES = [(g, m.id) for g in GAMES for m in g.modes]
mode_param = pytest.mark.parametrize(("game", "mode"), MODES,
                                     ids=[f"{g.id}-{m}" for g, m in MODES])


def report(problems: list[str]) -> str:
    more = f"\n... and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return "\n".join(problems[:SHOWN]) + more


def schema(game: Any) -> Mapping[str, Any]:
    module = entry(game.id).module
    assert module is not None
    return sh.schema_of(module)


_EXTRA_RUNS: dict[int, c.Playthrough] = {}


def runs(game: Any, mode: str) -> Iterator[c.Playthrough]:
    """Every seeded playthrough of one game and mode the checks look at."""
    for case in CASES:
        if case.game is game and case.mode == mode:
            for seed in RANDOM_SEEDS:
                yield c.random_run(case, seed)
            for seed in BOT_SEEDS:
                yield c.bot_run(case, seed)
    for i, (game_id, extra_mode, players, options, seed) in enumerate(EXTRA):
        if game_id == game.id and extra_mode == mode:
            if i not in _EXTRA_RUNS:
                chooser = c.mixed_chooser(seed)
                if "standin" in options:
                    chooser = standin_chooser(options["standin"], chooser)
                    options = {}
                _EXTRA_RUNS[i] = c.play(c.Case(game, mode, players), seed, chooser,
                                        options=options)
            yield _EXTRA_RUNS[i]


def standin_chooser(away: int, otherwise: c.Chooser) -> c.Chooser:
    """The host's stand-in for seat ``away``: where its note is needed, what the game's
    ``secrets.standin`` says (a SYSTEM void); else ``otherwise``."""

    def choose(game: Any, state: Any, options: Mapping[str, Any], rng: Any,
               laptops: Any = None) -> c.Move | None:
        secrets = secrets_of(game)
        if secrets is not None and away in game.actors(state):
            action = secrets.standin(game.view(state, away), away)
            if action is not None:
                return SYSTEM, action
        return otherwise(game, state, options, rng, laptops)

    return choose


def phase_of(spec: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    key = spec.get("phase_key")
    if key is None:
        return "over" if view.get("over") else str(spec["phases"][0]["phase"])
    return str(view[key])


# --- the schemas themselves ------------------------------------------------------------


@pytest.mark.parametrize("game_id", [e.id for e in CATALOGUE if e.available])
def test_every_game_declares_its_reference(game_id: str) -> None:
    game = next(g for g in GAMES if g.id == game_id)
    found = schema(game)
    problems = []
    if found.get("game") != game.id:
        problems.append(f"the schema names the game {found.get('game')!r}, not {game.id!r}")
    if sorted(found.get("modes", {})) != sorted(m.id for m in game.modes):
        problems.append(f"modes {sorted(found.get('modes', {}))} are not the game's "
                        f"{sorted(m.id for m in game.modes)}")
    for mode, spec in found.get("modes", {}).items():
        problems += [f"{mode} view: {p}" for p in sh.shape_problems(spec["view"])]
        actions = spec["actions"]
        for name, action in actions.items():
            for i, form in enumerate(sh.action_shapes(name, action)):
                problems += [f"{mode} action {name} form {i}: {p}"
                             for p in sh.shape_problems(form)]
            if not str(action.get("doc", "")).strip() or not action.get("by"):
                problems.append(f"{mode} action {name}: say what it does (doc) and who "
                                "sends it (by)")
            if action.get("sender") not in ("seat", "host", "seat or host"):
                problems.append(f"{mode} action {name}: sender is 'seat', 'host' or "
                                "'seat or host'")
        listed = [a for phase in spec["phases"] for a in phase["actions"]]
        problems += [f"{mode}: phase action {a!r} is not among the actions" for a in listed
                     if a not in actions]
        problems += [f"{mode}: action {a!r} belongs to no phase" for a in actions
                     if a not in listed]
        for timer in spec["timers"]:
            if timer["action"] not in actions:
                problems.append(f"{mode}: timer action {timer['action']!r} is not an action")
    assert not problems, report(problems)


def test_the_shape_checker_catches_what_it_must() -> None:
    """A check that passes everything proves nothing: plant each kind of mistake."""
    view = {"type": "map", "fields": {"a": {"type": "int", "min": 0, "max": 3},
                                      "b": {"type": "list", "items": "str"},
                                      "c": {"type": "str", "enum": ["x"], "nullable": True}},
            "optional": ["c"]}
    assert sh.problems(view, {"a": 1, "b": ["q"]}) == []
    assert sh.problems(view, {"a": 1, "b": [], "c": None}) == []
    for bad in ({"a": 4, "b": []}, {"a": True, "b": []}, {"a": 1.0, "b": []},
                {"a": 1, "b": [3]}, {"a": 1, "b": (), }, {"b": []},
                {"a": 1, "b": [], "d": 0}, {"a": 1, "b": [], "c": "y"}):
        assert sh.problems(view, bad), bad
    assert sh.shape_problems({"type": "map", "fields": {"x": "integer"}})
    assert sh.shape_problems({"type": "int", "maximum": 3})


# --- play against the reference ---------------------------------------------------------


def view_problems(game: Any, spec: Mapping[str, Any], run: c.Playthrough) -> Iterator[str]:
    shape = sh.view_shape(spec["view"])
    phases = {p["phase"]: p for p in spec["phases"]}
    checked = 0
    for i in c.walk(run.states, VIEW_STATES):
        state, where = run.states[i], c.describe(run.case, run.seed, i)
        log_length = checked
        for viewer in run.viewers():
            view = game.view(state, viewer)
            if isinstance(view.get("log"), list):
                # The log is public and only grows: each line is checked once.
                log_length = len(view["log"])
                view = {**view, "log": view["log"][checked:]}
            for problem in sh.problems(shape, view, limit=3):
                yield f"{where} view({viewer}): {problem}"
            phase = phase_of(spec, view)
            if phase != "over" and phase not in phases:
                yield f"{where}: phase {phase!r} is not in the reference"
        checked = log_length


def action_problems(game: Any, spec: Mapping[str, Any], run: c.Playthrough) -> Iterator[str]:
    phases = {p["phase"]: p for p in spec["phases"]}
    for i, (seat, action) in enumerate(run.moves):
        where = c.describe(run.case, run.seed, i)
        for problem in sh.action_problems(spec["actions"], action):
            yield f"{where}: seat {seat}'s {action!r:.100}: {problem}"
        kind = action.get("type")
        phase = phase_of(spec, game.view(run.states[i], None))
        if phase in phases and kind not in phases[phase]["actions"]:
            yield f"{where}: {kind!r} was sent in phase {phase!r}, which does not list it"
        sender = spec["actions"].get(kind, {}).get("sender")
        if ("host" if seat == SYSTEM else "seat") not in str(sender).split(" or "):
            yield (f"{where}: {kind!r} came from {'the host' if seat == SYSTEM else 'a seat'}"
                   f", the reference says its sender is {sender!r}")


@case_param
def test_views_match_the_reference(case: c.Case) -> None:
    spec = schema(case.game)["modes"][case.mode]
    problems: list[str] = []
    for seed in RANDOM_SEEDS:
        problems += view_problems(case.game, spec, c.random_run(case, seed))
    for seed in BOT_SEEDS:
        problems += view_problems(case.game, spec, c.bot_run(case, seed))
    assert not problems, report(problems)


@mode_param
def test_actions_sent_match_the_reference_and_none_is_dead(game: Any, mode: str) -> None:
    spec = schema(game)["modes"][mode]
    problems: list[str] = []
    seen: dict[str, int] = defaultdict(int)
    for run in runs(game, mode):
        problems += action_problems(game, spec, run)
        for _, action in run.moves:
            seen[str(action.get("type"))] += 1
        if run.case.id not in {k.id for k in CASES}:  # the extra runs: their views too
            problems += view_problems(game, spec, run)
    dead = sorted(set(spec["actions"]) - set(seen))
    if dead:
        problems.append(f"{game.id} {mode}: the reference lists {dead}, which no play sent")
    assert not problems, report(problems)


@mode_param
def test_timers_match_the_reference(game: Any, mode: str) -> None:
    """Every timer the host runs has a key, phase and action the reference names."""
    spec = schema(game)["modes"][mode]
    declared = spec["timers"]
    problems: list[str] = []
    used = set()
    for run in runs(game, mode):
        for i, state in enumerate(run.states):
            timer = game.timer(state, run.options)
            if timer is None:
                continue
            phase = phase_of(spec, game.view(state, None))
            match = [t for t in declared if t["phase"] == phase
                     and re.fullmatch(re.sub(r"<[a-z]+>", r"\\d+", t["key"]), timer.key)]
            where = c.describe(run.case, run.seed, i)
            if not match:
                problems.append(f"{where}: timer {timer.key!r} in phase {phase!r} is not in "
                                "the reference")
                continue
            used.add(match[0]["key"])
            if timer.action.get("type") != match[0]["action"]:
                problems.append(f"{where}: timer {timer.key!r} fires {timer.action!r}")
            problems += [f"{where}: {p}" for p in
                         sh.action_problems(spec["actions"], dict(timer.action))]
    problems += [f"{game.id} {mode}: timer {t['key']!r} never ran" for t in declared
                 if t["key"] not in used]
    assert not problems, report(problems)


# --- the document -----------------------------------------------------------------------


def test_the_committed_reference_is_the_generated_one() -> None:
    committed = (ROOT / "docs" / "GAMES.md").read_text(encoding="utf-8")
    fresh = gamedoc.render()
    assert committed == fresh, ("docs/GAMES.md is not what the schemas give: run "
                                "`python -m lanplay.tools.gamedoc --write` and commit it")


def test_the_protocol_links_the_reference() -> None:
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    assert text.count("GAMES.md") >= 2, "link docs/GAMES.md from the view and intent sections"
