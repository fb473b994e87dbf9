"""Drivers and checks that every game passes, whatever its rules.

``test_conformance.py`` runs them over every available game, mode and player
count; the benchmarks reuse the drivers (``random_playthrough``,
``bot_playthrough``). Everything here speaks only the surface of
``lanplay.game``, so a new game is covered the moment the catalogue names its
module.

Two conventions the checks rely on, both from ``lanplay/game.py``:

* a state is a value: it compares equal to a deep copy of itself, so
  "nothing changed" is ``state == snapshot``;
* a view, a legal action and a timer action travel over msgpack unchanged,
  so they hold only nil, bool, int, float, str, bytes, lists and maps with str
  keys (the wire codec decodes with ``strict_map_key=True`` and delta paths
  name map keys as str). A tuple comes back as a list: that is a failure.
"""

from __future__ import annotations

import copy
import hashlib
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgpack

from lanplay.game import (
    SYSTEM,
    Action,
    Game,
    IllegalAction,
    Seat,
    Viewer,
    resolve_options,
    secrets_of,
)
from lanplay.games import CATALOGUE, load
from lanplay.peer.keeper import Laptops

MAX_STEPS = 20_000
"""A random game that has not ended after this many actions is reported stuck."""

MAX_VIEW_BYTES = 64 * 1024
"""A packed view above this is too big to send on every change."""

TIMEOUT_CHANCE = 0.15
"""How often the random driver lets a pending timer fire although a seat could act."""

SAMPLE_STATES = 12

WALK_LIMIT = 250
"""The most states of one game a per-state check walks; a longer game is walked at
evenly spread states, first and last included."""
"""How many states of a playthrough the expensive checks look at."""

# --- the cases -----------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One game, one mode, one player count: a row of the conformance table."""

    game: Game
    mode: str
    players: int

    @property
    def id(self) -> str:
        return f"{self.game.id}-{self.mode}-{self.players}p"

    @property
    def options(self) -> dict[str, Any]:
        return resolve_options(self.game, {})


def games() -> tuple[list[Game], dict[str, str]]:
    """Every available game, and for each one that fails to load, why."""
    loaded: list[Game] = []
    broken: dict[str, str] = {}
    for entry in CATALOGUE:
        if not entry.available:
            continue
        try:
            loaded.append(load(entry.id))
        except Exception as exc:  # a half-written module must fail one test, not all
            broken[entry.id] = f"{type(exc).__name__}: {exc}"
    return loaded, broken


def cases(only: Sequence[Game] | None = None) -> list[Case]:
    """Every (game, mode) of the available games at its telling player counts."""
    out = []
    for game in only if only is not None else games()[0]:
        for mode in game.modes:
            for players in player_counts(mode.min_players, mode.max_players):
                out.append(Case(game, mode.id, players))
    return out


def player_counts(lo: int, hi: int) -> list[int]:
    """Every count of a small range; of a wide one (S-tier's 4-16 teams) the ends,
    their neighbours (both parities, so uneven teams too) and the middle.

    Rules code branches on the ends (fewest seats, most seats, uneven teams),
    not on 9 players against 10, and the whole range would cost S-tier alone
    more than four minutes of the suite's ten.
    """
    if hi - lo <= 4:
        return list(range(lo, hi + 1))
    return sorted({lo, lo + 1, (lo + hi) // 2, hi - 1, hi})


# --- wire values ---------------------------------------------------------------

_SCALARS = (type(None), bool, int, float, str, bytes)


def wire_problem(value: Any, path: str = "") -> str | None:
    """Where ``value`` holds something msgpack would not give back as it is."""
    if isinstance(value, float) and math.isnan(value):
        return f"{path or '<root>'} is NaN (never equal to itself)"
    if type(value) in _SCALARS:
        if type(value) is int and not -(2**63) <= value < 2**64:
            return f"{path or '<root>'} is an int too large for msgpack: {value}"
        return None
    if type(value) is list:
        for i, item in enumerate(value):
            problem = wire_problem(item, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                return f"{path or '<root>'} has a {type(key).__name__} map key {key!r}"
            problem = wire_problem(item, f"{path}.{key}")
            if problem:
                return problem
        return None
    return f"{path or '<root>'} is a {type(value).__name__}: {value!r:.80}"


def strict_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where ``a`` and ``b`` differ in value or in type (True != 1, [] != ())."""
    where = path or "<root>"
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} {a!r:.60} vs {type(b).__name__} {b!r:.60}"
    if isinstance(a, dict):
        if list(a) != list(b):
            missing = [k for k in a if k not in b]
            extra = [k for k in b if k not in a]
            if missing or extra:
                return f"{where}: keys only in first {missing!r:.60}, only in second {extra!r:.60}"
        for key in a:
            problem = strict_difference(a[key], b[key], f"{path}.{key}")
            if problem:
                return problem
        return None
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return f"{where}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            problem = strict_difference(x, y, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if a != b:
        return f"{where}: {a!r:.60} vs {b!r:.60}"
    return None


def strictly_in(action: Any, actions: Sequence[Any]) -> bool:
    return any(strict_difference(action, other) is None for other in actions)


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def wire_round_trip(value: Any) -> Any:
    """``value`` after a trip over the wire, as a peer receives it."""
    return msgpack.unpackb(pack(value), raw=False, strict_map_key=False)


def round_trip_problem(value: Any, what: str) -> str | None:
    """Why ``value`` does not survive msgpack exactly, or None."""
    problem = wire_problem(value)
    if problem:
        return f"{what}: {problem}"
    try:
        back = wire_round_trip(value)
    except Exception as exc:
        return f"{what}: msgpack round trip raised {type(exc).__name__}: {exc}"
    if back == value:  # the types were checked above, so == is strict here
        return None
    return f"{what} changes over msgpack: {strict_difference(value, back)}"


def same_wire_value(a: Any, b: Any) -> str | None:
    """Where two wire-clean values differ (fast when they do not)."""
    if pack(a) == pack(b):
        return None
    return strict_difference(a, b) or "<root>: map keys in another order"


# --- playing -------------------------------------------------------------------

Move = tuple[Seat, Action]
Chooser = Callable[[Game, Any, Mapping[str, Any], random.Random, "Laptops | None"],
                   "Move | None"]
"""(game, state, options, rng, laptops) -> a move; ``laptops`` holds the secrets the
seats keep on their own laptops (the S-tier notes), None for a game without any."""


@dataclass
class Playthrough:
    """A whole game: ``states[i]`` and ``moves[i]`` give ``states[i + 1]``."""

    case: Case
    seed: int
    options: dict[str, Any]
    states: list[Any] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.states[-1]

    def viewers(self) -> list[Viewer]:
        return [*range(self.case.players), None]


class Stuck(AssertionError):
    """A game that cannot go on: nobody can act and no timer is pending."""


def describe(case: Case, seed: int, step: int) -> str:
    return f"{case.id} seed {seed} step {step}"


def random_choice(game: Game, state: Any, options: Mapping[str, Any],
                  rng: random.Random, laptops: Laptops | None = None) -> Move | None:
    """A seeded random pick among the actors' legal actions and a pending timer."""
    seats = sorted(s for s in game.actors(state) if s != SYSTEM)
    moves = {seat: game.legal(state, seat) for seat in seats}
    able = [seat for seat in seats if moves[seat]]
    timer = game.timer(state, options)
    if timer is not None and (not able or rng.random() < TIMEOUT_CHANCE):
        return SYSTEM, dict(timer.action)
    if not able:
        return None
    seat = able[int(rng.random() * len(able))]
    options_of_seat = moves[seat]
    return seat, options_of_seat[int(rng.random() * len(options_of_seat))]


def bot_chooser(seed: int) -> Chooser:
    """The game's own bot in every seat, each fed the view a peer would receive.

    Asks the actors in a seeded random order; the first that answers acts. A
    pending timer fires when every bot waits. Each bot keeps its own generator.
    """
    rngs: dict[Seat, random.Random] = {}

    def choose(game: Game, state: Any, options: Mapping[str, Any],
               rng: random.Random, laptops: Laptops | None = None) -> Move | None:
        seats = sorted(s for s in game.actors(state) if s != SYSTEM)
        rng.shuffle(seats)
        for seat in seats:
            bot_rng = rngs.setdefault(seat, random.Random(seed * 1009 + seat))
            seen = laptops.shown(state, seat) if laptops is not None else game.view(state, seat)
            view = wire_round_trip(seen)
            action = game.bot(view, seat, bot_rng)
            if action is not None:
                return seat, action
        timer = game.timer(state, options)
        return (SYSTEM, dict(timer.action)) if timer is not None else None

    return choose


def mixed_chooser(seed: int, bot_share: float = 0.5) -> Chooser:
    """Half the time the game's bot, half the time a random legal action.

    Pure random play cannot finish a phase that needs every seat to agree
    (S-tier's shared board, where any move unlocks everyone) unless a timer
    ends it; with that timer switched off by an option, the bots' sense
    carries the game on while the random half still explores.
    """
    bots = bot_chooser(seed)

    def choose(game: Game, state: Any, options: Mapping[str, Any],
               rng: random.Random, laptops: Laptops | None = None) -> Move | None:
        if rng.random() < bot_share:
            move = bots(game, state, options, rng, laptops)
            if move is not None:
                return move
        return random_choice(game, state, options, rng, laptops)

    return choose


def play(case: Case, seed: int, chooser: Chooser = random_choice, *,
         options: Mapping[str, Any] | None = None, choice_seed: int | None = None,
         max_steps: int = MAX_STEPS) -> Playthrough:
    """Play one game to its end with ``chooser``; raise if it stalls or never ends.

    Each chosen action must pass ``check`` before it is applied, so a driver
    never feeds the game something the host would have refused.
    """
    game = case.game
    opts = resolve_options(game, options or {})
    rng = random.Random(seed if choice_seed is None else choice_seed)
    run = Playthrough(case, seed, opts)
    state = game.setup(case.players, case.mode, opts, seed)
    run.states.append(state)
    laptops = Laptops(game, random.Random(f"laptops {seed}")) if secrets_of(game) else None
    for step in range(max_steps):
        if game.result(state) is not None:
            return run
        move = laptops.due(state) if laptops is not None else None
        if move is None:
            move = chooser(game, state, opts, rng, laptops)
            if move is None:
                raise Stuck(f"{describe(case, seed, step)}: no seat acts and no timer is "
                            f"pending (actors {sorted(game.actors(state))})")
            if laptops is not None:
                move = through_laptop(game, state, move, laptops, rng)
        seat, action = move
        try:
            game.check(state, seat, action)
        except IllegalAction as exc:
            raise AssertionError(f"{describe(case, seed, step)}: seat {seat} chose {action!r}, "
                                 f"which check refuses: {exc.reason}") from exc
        run.moves.append((seat, copy.deepcopy(action)))
        state = game.apply(state, seat, action)
        run.states.append(state)
    if game.result(state) is not None:
        return run
    raise AssertionError(f"{case.id} seed {seed}: no result after {max_steps} actions")


def through_laptop(game: Game, state: Any, move: Move, laptops: Laptops,
                   rng: random.Random) -> Move:
    """The move as the seat's laptop sends it: a secret it writes (the S-tier note)
    leaves as its commitment. A commitment picked from ``legal`` (a sample the
    laptop holds no secret for) is written by the seat's bot instead, so the laptop
    can answer for it later; a random game still reaches every reveal."""
    seat, action = move
    if seat != SYSTEM and "commitment" in action and action["commitment"] not in laptops.kept:
        plain = game.bot(laptops.shown(state, seat), seat, rng)
        if plain is not None:
            action = plain
    if seat == SYSTEM:
        return move
    try:
        return seat, laptops.send(state, seat, action)
    except IllegalAction:  # the laptop refuses what its secret gives the lie (a false
        plain = game.bot(laptops.shown(state, seat), seat, rng)  # "Wrong"): its bot plays
        if plain is None:
            raise
        return seat, laptops.send(state, seat, plain)


_RUNS: dict[tuple[str, int, str], Playthrough] = {}


def _cached(case: Case, seed: int, kind: str) -> Playthrough:
    key = (case.id, seed, kind)
    if key not in _RUNS:
        chooser = bot_chooser(seed) if kind == "bot" else random_choice
        _RUNS[key] = play(case, seed, chooser)
    return _RUNS[key]


def random_run(case: Case, seed: int) -> Playthrough:
    """A seeded random game (cached: states are immutable values)."""
    return _cached(case, seed, "random")


def bot_run(case: Case, seed: int) -> Playthrough:
    """A game of bots in every seat (cached)."""
    return _cached(case, seed, "bot")


def walk(states: Sequence[Any], limit: int = WALK_LIMIT) -> list[int]:
    """The indexes of ``states`` a per-state check looks at.

    Every one of a game up to ``limit`` states; of a longer one (a random
    5-player Ranking Top runs to a thousand actions, each view holding the
    whole log) ``limit`` evenly spread ones, so a check costs the same for
    every game instead of growing with the square of its length.
    """
    n = len(states)
    if n <= limit:
        return list(range(n))
    return sorted({round(k * (n - 1) / (limit - 1)) for k in range(limit)})


def random_playthrough(game: Game, players: int, mode: str, seed: int) -> list[Any]:
    """The states of a seeded random game, first (setup) to last (ended)."""
    return random_run(Case(game, mode, players), seed).states


def bot_playthrough(game: Game, players: int, mode: str, seed: int) -> list[Any]:
    """The states of a game the game's own bots play in every seat."""
    return bot_run(Case(game, mode, players), seed).states


def replay(case: Case, seed: int, moves: Sequence[Move],
           options: Mapping[str, Any] | None = None) -> list[Any]:
    """The states that (seed, moves) give, as a host resuming a save would."""
    game = case.game
    state = game.setup(case.players, case.mode, resolve_options(game, options or {}), seed)
    states = [state]
    for seat, action in moves:
        state = game.apply(state, seat, action)
        states.append(state)
    return states


def digest(case: Case, seed: int) -> str:
    """A hash of every view of a seeded random game (compared across processes)."""
    run = random_run(case, seed)
    h = hashlib.sha256()
    for state in run.states:
        for viewer in run.viewers():
            h.update(pack(case.game.view(state, viewer)))
    return h.hexdigest()


def sample(states: Sequence[Any], k: int = SAMPLE_STATES) -> list[tuple[int, Any]]:
    """About ``k`` states spread over the game, always the first and the last."""
    if len(states) <= k:
        return list(enumerate(states))
    picks = sorted({round(i * (len(states) - 1) / (k - 1)) for i in range(k)})
    return [(i, states[i]) for i in picks]


def snapshot(state: Any) -> Any:
    return copy.deepcopy(state)


# --- refusing --------------------------------------------------------------------

_NESTED = [[{"x": [None, {"y": b"\x00"}]}], {"deep": [[[[]]]]}]

JUNK_ACTIONS: tuple[Action, ...] = (
    {},
    {"type": 5},
    {"type": "nonsense"},
    {"type": None},
    {"type": ""},
    {"type": True},
    {"type": 1.5},
    {"type": 10**30},
    {"type": ["play"]},
    {"type": {"type": "play"}},
    {"type": "x" * 500},
    {"kind": "play"},
    {"type": "nonsense", "card": 0, "seat": 0},
    {"type": _NESTED},
)
"""Actions no game accepts from anyone (ints beyond 64 bits cannot come off the
wire, but a bug in the host must still not crash a game)."""


def _junk_values(value: Any) -> list[Any]:
    """Values of a field that a sane rule refuses (wrong type, absurd size)."""
    out: list[Any] = [None, "nonsense", [], {}, *_NESTED, b"\xff"]
    if type(value) is bool:
        out += [0, 1, "yes"]
    elif type(value) is int:
        out += [-1, 10**30, -(10**30), 2**64, value + 0.5, float(value), str(value), True,
                [value]]
    elif type(value) is float:
        # Any number may be a legal angle or strength, so only non-numbers and
        # non-finite floats are certainly wrong.
        out += [float("nan"), float("inf"), float("-inf"), str(value), True, [value]]
    elif type(value) is str:
        out += ["", value + "?", 7, 10**30, True, [value]]
    elif type(value) is list:
        out += [[None], [*value, *value, *value], [[*value]], "x", 3, True,
                [None if i == 0 else v for i, v in enumerate(value)],
                [10**30 for _ in value]]
    elif type(value) is dict:
        out += [{"x": 1}, "x", 3, True]
    return out


def junk_variants(action: Action) -> Iterator[Action]:
    """A legal action spoiled one way at a time: a field missing, of a wrong type, absurd."""
    yield {**action, "type": "nonsense"}
    if len(action) > 1:
        yield {"type": action.get("type")}
    for key, value in action.items():
        if key == "type":
            continue
        yield {k: v for k, v in action.items() if k != key}
        for junk in _junk_values(value):
            yield {**action, key: junk}
    yield {**action, "extra": _NESTED}


def first_of_each_type(actions: Sequence[Action], limit: int = 3) -> list[Action]:
    """A few legal actions per action type, enough to spoil each kind of field."""
    seen: dict[Any, int] = {}
    out = []
    for action in actions:
        key = repr(action.get("type"))
        if seen.get(key, 0) < limit:
            seen[key] = seen.get(key, 0) + 1
            out.append(action)
    return out


def refusal(game: Game, state: Any, seat: Seat, action: Any,
            *, use_apply: bool = False) -> tuple[bool, str]:
    """``(True, reason)`` when ``check`` (or ``apply``) refuses ``action`` properly,
    else ``(False, what went wrong)``."""
    call = game.apply if use_apply else game.check
    name = "apply" if use_apply else "check"
    try:
        call(state, seat, action)
    except IllegalAction as exc:
        if not isinstance(exc.reason, str) or not exc.reason.strip():
            return False, f"{name} refused seat {seat}'s {action!r:.200} with an empty reason"
        return True, exc.reason
    except Exception as exc:
        return False, (f"{name} raised {type(exc).__name__} ({exc}) instead of IllegalAction "
                       f"for seat {seat}'s {action!r:.200}")
    if alias_of_legal(game, state, seat, action):
        return True, "(accepted as another spelling of a legal action)"
    return False, f"{name} accepted seat {seat}'s {action!r:.200}"


def alias_of_legal(game: Game, state: Any, seat: Seat, action: Any) -> bool:
    """Whether ``action``, though not listed by ``legal``, does exactly what a listed one does.

    A lenient ``check`` may accept another spelling of a legal action (an
    optional field left out where only one value fits); anything else it
    accepts must be listed, or the bots and the UI cannot know it exists.
    """
    try:
        after = game.apply(state, seat, action)
    except Exception:
        return False
    for legal in game.legal(state, seat):
        other = game.apply(state, seat, legal)
        # repr tells True from 1 and 1.0 from 1, which == does not.
        if after == other and repr(after) == repr(other):
            return True
    return False


def illegal_submissions(game: Game, state: Any, players: int,
                        options: Mapping[str, Any]) -> Iterator[tuple[Seat, Any]]:
    """(seat, action) pairs the rules must refuse in ``state``."""
    actors = game.actors(state)
    legal = {seat: game.legal(state, seat) for seat in range(players)}
    examples = [a for seat in sorted(actors) for a in first_of_each_type(legal.get(seat, []))]
    timer = game.timer(state, options)
    outsiders = [s for s in range(players) if s not in actors] + [players, players + 7, -2]
    if SYSTEM not in actors:
        outsiders.append(SYSTEM)
    for seat in outsiders:
        for action in [*examples, *JUNK_ACTIONS[:4]]:
            if seat == SYSTEM and timer is not None and strictly_in(action, [timer.action]):
                continue
            yield seat, action
    for seat in sorted(actors):
        own = legal.get(seat, [])
        for action in JUNK_ACTIONS:
            yield seat, action
        for example in first_of_each_type(own):
            for bad in junk_variants(example):
                if not strictly_in(bad, own):
                    yield seat, bad
        if timer is not None and not strictly_in(timer.action, own):
            yield seat, dict(timer.action)  # a player cannot fake the host's timeout


# --- what a seat may do (the view's ``may``) ---------------------------------------

NUMBER_SPAN = 1000.0
"""How far from 0 an unbounded number choice is sampled."""


def template_samples(template: Mapping[str, Any], view: Mapping[str, Any],
                     rng: random.Random, count: int = 3) -> list[Action]:
    """Actions ``template`` allows (``lanplay.games.shape``): itself when it chooses
    nothing, else ``count`` fillings of its choices; a number choice gives its ends
    first, then values inside."""
    choose: Mapping[str, Any] = template.get("choose") or {}
    fixed = {k: v for k, v in template.items() if k != "choose"}
    if not choose:
        return [dict(fixed)]
    spec = next((ch["note"] for ch in choose.values()
                 if ch.get("kind") in ("commitment", "note")), None)
    out = []
    for k in range(count):
        note = sample_note(spec, rng) if spec is not None else None
        action = dict(fixed)
        for key, choice in choose.items():
            action[key] = _sample_choice(choice, k, spec, note, view, rng)
        out.append(action)
    return out


def _sample_choice(choice: Mapping[str, Any], k: int, spec: Mapping[str, Any] | None,
                   note: list[Any] | None, view: Mapping[str, Any],
                   rng: random.Random) -> Any:
    kind = choice["kind"]
    if kind == "number":
        lo = choice["min"] if choice["min"] is not None else -NUMBER_SPAN
        hi = choice["max"] if choice["max"] is not None else NUMBER_SPAN
        return [lo, hi][k] if k < 2 else lo + (hi - lo) * rng.random()
    if kind == "salt":
        return rng.randbytes(16).hex()
    if kind == "formation":
        clusters = view["clusters"][choice["side"]]
        return [list(p) for p in clusters[k % len(clusters)]["frogs"]]
    assert spec is not None and note is not None, f"a {kind} choice needs a note beside it"
    if kind == "commitment":
        return hashlib.sha256(rng.randbytes(16) + repr(note).encode()).hexdigest()
    if kind == "note":
        return note
    if kind == "faces":
        return [next(p for p in note if p in options) for options in spec["choices"]]
    if kind == "hint":
        tier = rng.choice([t for t, p in enumerate(note) if p is not None])
        return {"tier": tier, "picture": note[tier]}
    raise AssertionError(f"no sampler for the choice kind {kind!r}")


def sample_note(spec: Mapping[str, Any], rng: random.Random) -> list[Any]:
    """A random note of the form ``spec`` describes."""
    if spec["form"] == "tiering":
        count, tiers = len(spec["pictures"]), spec["tiers"]
        chosen = [t for t in range(tiers) for _ in range(spec["min_per_tier"])]
        while len(chosen) < count:
            t = rng.randrange(tiers)
            if chosen.count(t) < spec["max_per_tier"]:
                chosen.append(t)
        rng.shuffle(chosen)
        return chosen[:count]
    written: list[Any] = [rng.choice(options) for options in spec["choices"]]
    written += [None] * spec["empty"]
    rng.shuffle(written)
    return written


def stale_timer_actions(game: Game, states: Sequence[Any],
                        options: Mapping[str, Any]) -> Iterator[tuple[int, Action]]:
    """(index, action): an earlier timer's action at a state where it is not pending."""
    previous: Action | None = None
    for i, state in enumerate(states):
        timer = game.timer(state, options)
        if previous is not None and (timer is None or not strictly_in(previous, [timer.action])):
            yield i, previous
        if timer is not None:
            previous = dict(timer.action)
