"""Ranagedon as pure rules: sides, deployment, turns, the jump and dive actions, the view.

The physics lives in ``model`` (jumps, stacks, scoring) and ``slide``
(pymunk dives); this module decides who acts and what an action may be.

Decisions taken where the rulebook is silent (also in help.md):

* All 18 frogs play at every count. Ids 0..8 are green, 9..17 red; within a
  colour the borders go blue, magenta, yellow in threes. 2 players: seat 0
  green, seat 1 red. 3 players: sides by border (seat 0 blue, 1 magenta,
  2 yellow, six frogs each). 4 players: teams [0, 2] green and [1, 3] red;
  seats alternate teams; either partner may jump any team frog on their turn,
  and a team shares its score.
* Abilities: option ``abilities`` "printed" (2p by border: magenta double
  jump, blue diving, yellow poisonous; 3p none; 4p by colour: red double
  jump, green diving) or "alternate" (3p by colour, 4p by the 2p border table).
* Deployment is simultaneous, each side in its own sector around the pad
  (side 0 at the bottom, then clockwise), every frog's edge at least a palm
  from the pad's edge, own discs not overlapping, the group connected with no
  gap wider than one disc. A side takes a suggested cluster or places each
  frog. In 4p either partner deploys for the team. The seat that confirms
  first begins; a deploy timeout gives the unconfirmed sides cluster 0 and,
  when nobody had confirmed, a seeded random seat begins.
* A jump presses the border at angle ``theta`` (``r`` 11..16 mm from the
  centre; anything else is refused) with strength ``s`` in 0..1.
  Randomness: ``stream(seed, "jump", n)``, ``n`` the action counter, drawn
  flip, angle, distance, skid for a jump; angle, distance for a dive (a dive
  scatters 2 + 4 s degrees and 5 % in length).
* Double jump: after a landing (or an off-table put-back) the free jumper
  may jump once more or stop. Diving: a dive that touched nothing offers one
  jump of the diver (or stop); a flipped or poisoned jump ends the turn.
* The game ends when the seat to move has no free frog of its side, or, as
  a house limit so a game of misses cannot go on for ever, after
  ``TURN_LIMIT`` turns per seat. Most points win, then most free frogs, then
  a shared win (a team win lists both partners).
* Only the seed is hidden while the game runs (it decides future scatter);
  the final view shows it for the audit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from lanplay.game import (
    SYSTEM,
    Action,
    IllegalAction,
    LogLine,
    Result,
    Seat,
    Timer,
    View,
    Viewer,
    log_view,
    per_state,
)
from lanplay.games.ranagedon import model, slide
from lanplay.games.ranagedon.geometry import (
    CLUSTERS,
    DEPLOY_MIN,
    DISC_HEIGHT,
    FINGER,
    LINK,
    PAD_R,
    PAD_X,
    PAD_Y,
    PALM,
    RING_IN,
    TABLE_H,
    TABLE_W,
    R,
    cluster,
    deploy_problem,
    normal,
    pad_contact,
    rnd,
    sector,
)
from lanplay.games.ranagedon.model import DIVE, DOUBLE, POISON, Draws, Frog
from lanplay.messages import N_, Msg, Problem, items, msg, msg_n
from lanplay.messages import seat as _seat
from lanplay.rng import choice_index, stream

GAME_ID = "ranagedon"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
FROGS = 18
COLOURS = (N_("green"), N_("red"))
BORDERS = (N_("blue"), N_("magenta"), N_("yellow"))
PRINTED, ALTERNATE = "printed", "alternate"
ABILITY_CHOICES = (PRINTED, ALTERNATE)
DEPLOY_CHOICES = (0, 60, 120)
TURN_LIMIT = 30
"""House limit: turns per seat before the game ends anyway."""
SAMPLE_ANGLES = 4
SAMPLE_STRENGTHS = (0.25, 0.5, 0.8)
SAMPLE_R = (RING_IN + R) / 2
DIVE_ANGLE_BASE_DEG = 2.0
DIVE_ANGLE_POWER_DEG = 4.0
DIVE_LENGTH_SD = 0.05
MAX_INT = 10**9
DEPLOY, JUMP, AGAIN, OVER = "deploy", "jump", "again", "over"
KINDS = ("deploy", "jump", "dive", "stop", "timeout")
TIMEOUT_ACTION: Action = {"type": "timeout", "phase": DEPLOY}

_BY_BORDER = {"magenta": DOUBLE, "blue": DIVE, "yellow": POISON}
_BY_COLOUR = {"red": DOUBLE, "green": DIVE}


@dataclass(frozen=True)
class Event:
    """The most recent public event, so a table can animate it."""

    n: int
    kind: str
    seat: Seat
    frog: int | None
    outcome: str
    theta: float | None = None
    r: float | None = None
    s: float | None = None
    start: tuple[float, float] | None = None
    arc: tuple[tuple[float, float, float], ...] = ()
    slide: tuple[tuple[int, tuple[tuple[float, float], ...]], ...] = ()
    moved: tuple[Frog, ...] = ()

    def to_view(self) -> dict[str, Any]:
        trajectory: dict[str, Any] | None = None
        if self.kind == "jump":
            trajectory = model.arc_view(self.arc, model.FLIP_POINTS
                                        if self.outcome == "flipped" else model.ARC_POINTS)
        elif self.kind == "dive":
            trajectory = {"kind": "slide", "hz": slide.SAMPLE_HZ,
                          "discs": [{"frog": f, "points": [list(p) for p in pts]}
                                    for f, pts in self.slide]}
        return {
            "n": self.n, "kind": self.kind, "seat": self.seat, "frog": self.frog,
            "input": {} if self.kind == "deploy" else
            {"theta": self.theta, "r": self.r, "s": self.s},
            "outcome": self.outcome,
            "start": None if self.start is None else list(self.start),
            "trajectory": trajectory,
            "positions": [{"id": f.id, "x": f.x, "y": f.y, "level": f.level,
                           "supports": list(f.supports)} for f in self.moved],
        }


@dataclass(frozen=True)
class State:
    """The whole game; ``step`` counts applied actions and keys the jump streams."""

    players: int
    abilities: str
    seed: int
    frogs: tuple[Frog, ...]
    deployed: tuple[bool, ...]
    phase: str = DEPLOY
    step: int = 0
    first: Seat | None = None
    turn: Seat | None = None
    again_frog: int | None = None
    again_kind: str | None = None
    turns: int = 0
    end: str | None = None
    log: tuple[LogLine, ...] = ()
    last: Event | None = None


# --- sides and frogs -----------------------------------------------------------------


def side_count(players: int) -> int:
    return 3 if players == 3 else 2


def side_of(players: int, seat: Seat) -> int:
    return seat % side_count(players)


def side_seats(players: int) -> list[list[Seat]]:
    n = side_count(players)
    return [[s for s in range(players) if s % n == k] for k in range(n)]


def ability(players: int, rule: str, colour: str, border: str) -> str | None:
    if players == 2 or (players == 4 and rule == ALTERNATE):
        return _BY_BORDER[border]
    if players == 4 or rule == ALTERNATE:
        return _BY_COLOUR.get(colour)
    return None


def side_frogs(state: State, side: int) -> list[int]:
    return [f.id for f in state.frogs if f.side == side]


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise Problem(msg_n("Ranagedon needs {low}-{high} players; there is {n}.",
                            "Ranagedon needs {low}-{high} players; there are {n}.", players,
                            low=MIN_PLAYERS, high=MAX_PLAYERS))
    rule = options.get("abilities", PRINTED)
    if rule not in ABILITY_CHOICES:
        raise Problem(msg("Option {option} must be one of {choices}.", option="abilities",
                          choices=items(list(ABILITY_CHOICES))))
    frogs: list[Frog] = []
    for fid in range(FROGS):
        colour, border = COLOURS[fid // 9], BORDERS[fid % 9 // 3]
        side = BORDERS.index(border) if players == 3 else fid // 9
        frogs.append(Frog(fid, side, colour, border, ability(players, rule, colour, border),
                          0.0, 0.0))
    n = side_count(players)
    for side in range(n):
        ids = [f.id for f in frogs if f.side == side]
        for fid, (x, y) in zip(ids, cluster(0, side, n, len(ids)), strict=True):
            frogs[fid] = replace(frogs[fid], x=x, y=y)
    return State(players, rule, seed, tuple(frogs), (False,) * n,
                 log=(LogLine(msg("Deploy your frogs: take a suggested cluster or place "
                                  "them.")),))


# --- who acts --------------------------------------------------------------------------


def actors(state: State) -> frozenset[Seat]:
    if state.phase == DEPLOY:
        return frozenset(s for s in range(state.players)
                         if not state.deployed[side_of(state.players, s)])
    if state.phase in (JUMP, AGAIN) and state.turn is not None:
        return frozenset({state.turn})
    return frozenset()


def _free_own(state: State, seat: Seat) -> list[int]:
    side = side_of(state.players, seat)
    return [fid for fid in model.free_ids(state.frogs) if state.frogs[fid].side == side]


def _samples(frog: int, kind: str) -> list[Action]:
    """A few presses around the frog: 4 directions (turned by 45 degrees on odd
    frogs) for a jump, 2 for a dive, strengths cycling so every frog gets several.

    Kept small on purpose: bots aim on their own, and random play and the
    conformance suite only need a spread, not thousands of near-duplicates.
    """
    count = SAMPLE_ANGLES if kind == "jump" else SAMPLE_ANGLES // 2
    out: list[Action] = []
    for k in range(count):
        theta = k * 2 * math.pi / count + (frog % 2) * math.pi / SAMPLE_ANGLES
        s = SAMPLE_STRENGTHS[(k + frog) % len(SAMPLE_STRENGTHS)]
        if kind == "jump":
            out.append({"type": "jump", "frog": frog, "theta": theta, "r": SAMPLE_R, "s": s})
        else:
            out.append({"type": "dive", "frog": frog, "theta": theta, "s": s})
    return out


def legal(state: State, seat: Seat) -> list[Action]:
    """Deploy: the clusters. Jump/again: a sample (4 jumps per free frog, 2 dives per diver)."""
    if seat not in actors(state):
        return []
    if state.phase == DEPLOY:
        return [{"type": "deploy", "cluster": k} for k in range(len(CLUSTERS))]
    if state.phase == AGAIN and state.again_frog is not None:
        return [*_samples(state.again_frog, "jump"), {"type": "stop"}]
    out: list[Action] = []
    for fid in _free_own(state, seat):
        out += _samples(fid, "jump")
    for fid in _free_own(state, seat):
        if state.frogs[fid].ability == DIVE:
            out += _samples(fid, "dive")
    return out


# --- checking ------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return type(value) is int


NUMBER_WORDS = {
    "r": (N_("The press distance must be a number."),
          N_("The press distance must be a finite number.")),
    "theta": (N_("The angle must be a number."), N_("The angle must be a finite number.")),
    "s": (N_("The strength must be a number."), N_("The strength must be a finite number.")),
}
"""Why a number field is refused: (not a number, not finite), whole sentences so each
language says them with its own grammar."""


def _number(action: Action, key: str) -> float:
    value: Any = action.get(key)
    not_number, not_finite = NUMBER_WORDS[key]
    if type(value) not in (int, float):
        raise IllegalAction(msg(not_number))
    if (type(value) is int and abs(value) > MAX_INT) or not math.isfinite(value):
        raise IllegalAction(msg(not_finite))
    return float(value)


def _keys(action: Action, allowed: set[str]) -> None:
    extra = sorted(str(k) for k in action if k not in allowed)
    if extra:
        raise IllegalAction(msg("Unexpected field {field} in this action.",
                                field=repr(extra[0])[:40]))
    missing = sorted(allowed - set(action))
    if missing:
        raise IllegalAction(msg("This action needs the field {field}.",
                                field=repr(missing[0])))


def _frog(state: State, seat: Seat, action: Action) -> int:
    fid: Any = action.get("frog")
    if not _is_int(fid) or not 0 <= fid < FROGS:
        raise IllegalAction(msg("Choose a frog by its id, 0 to {last}.", last=FROGS - 1))
    frog = state.frogs[fid]
    if frog.side != side_of(state.players, seat):
        raise IllegalAction(msg("That frog is not yours."))
    if not model.is_free(state.frogs, fid):
        raise IllegalAction(msg("That frog is not free: it stands on a frog or one stands "
                                "on it."))
    if state.phase == AGAIN and fid != state.again_frog:
        raise IllegalAction(msg("Only the frog that just moved may jump now."))
    return int(fid)


def _deploy_points(state: State, seat: Seat, action: Action) -> list[tuple[float, float]]:
    side = side_of(state.players, seat)
    count = len(side_frogs(state, side))
    n = side_count(state.players)
    if "cluster" in action:
        _keys(action, {"type", "cluster"})
        k = action["cluster"]
        if not _is_int(k) or not 0 <= k < len(CLUSTERS):
            raise IllegalAction(msg("Choose a suggested cluster 0 to {last}.",
                                    last=len(CLUSTERS) - 1))
        return cluster(k, side, n, count)
    _keys(action, {"type", "frogs"})
    spots = action["frogs"]
    if not isinstance(spots, list) or len(spots) != count:
        raise IllegalAction(msg("Give a position [x, y] for each of your {n} frogs.", n=count))
    points = []
    for spot in spots:
        if (not isinstance(spot, list) or len(spot) != 2
                or not all(type(v) in (int, float) and not (type(v) is int and abs(v) > MAX_INT)
                           and math.isfinite(v) for v in spot)):
            raise IllegalAction(msg("Each frog's position must be a pair of numbers [x, y] in "
                                    "mm."))
        points.append((rnd(float(spot[0])), rnd(float(spot[1]))))
    problem = deploy_problem(points, side, n)
    if problem:
        raise IllegalAction(msg("That deployment is not allowed: {problem}.", problem=problem))
    return points


def check(state: State, seat: Seat, action: Action) -> None:
    """Raise IllegalAction with a reason the seat understands, or return."""
    if not isinstance(action, dict):
        raise IllegalAction(msg("An action must be a map with a type."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        raise IllegalAction(msg("Unknown action."))
    if kind == "timeout":
        if seat != SYSTEM:
            raise IllegalAction(msg("Only the host's clock ends the deployment."))
        _keys(action, {"type", "phase"})
        if state.phase != DEPLOY or action.get("phase") != DEPLOY:
            raise IllegalAction(msg("The deployment is already over."))
        return
    if not _is_int(seat) or seat not in actors(state):
        raise IllegalAction(msg("It is not your turn.") if state.phase != DEPLOY
                            else msg("Your side has already deployed."))
    if kind == "deploy":
        if state.phase != DEPLOY:
            raise IllegalAction(msg("The frogs are already deployed."))
        _deploy_points(state, seat, action)
        return
    if state.phase == DEPLOY:
        raise IllegalAction(msg("Deploy your frogs first."))
    if kind == "stop":
        if state.phase != AGAIN:
            raise IllegalAction(msg("There is no extra jump to decline."))
        _keys(action, {"type"})
        return
    if kind == "dive":
        if state.phase != JUMP:
            raise IllegalAction(msg("A dive must be the first move of a turn."))
        _keys(action, {"type", "frog", "theta", "s"})
        fid = _frog(state, seat, action)
        if state.frogs[fid].ability != DIVE:
            raise IllegalAction(msg("Only diving frogs can be hit to slide."))
    else:
        _keys(action, {"type", "frog", "theta", "r", "s"})
        _frog(state, seat, action)
        r = _number(action, "r")
        if not RING_IN <= r <= R:
            raise IllegalAction(msg("Press on the coloured border: {low} to {high} mm from "
                                    "the centre.", low=float(RING_IN), high=float(R)))
    _number(action, "theta")
    s = _number(action, "s")
    if not 0 <= s <= 1:
        raise IllegalAction(msg("The strength must be between 0 and 1."))


# --- applying --------------------------------------------------------------------------


FROG_NAMES = {
    "blue": N_("a frog with a blue border"),
    "magenta": N_("a frog with a magenta border"),
    "yellow": N_("a frog with a yellow border"),
}
"""A frog as the log names it: by its border (its ability), never by its rulebook
colour: the line names the player, whose badge colour the frog carries (a log that said
"green frog" gave a player with an orange badge a third colour)."""


def _name(frog: Frog) -> Msg:
    return msg(FROG_NAMES[frog.border])


CLUSTER_WORDS = {name: word for (name, _), word in zip(
    CLUSTERS, (N_("block"), N_("line"), N_("wedge")), strict=True)}
"""A suggested cluster as the deployment's log line names it."""
JUMP_OUTCOMES = {"landed": N_("landed"), "stacked": N_("landed on a stack"),
                 "flipped": N_("flipped over"),
                 "poisoned": N_("stepped on poison and went back"),
                 "off_table": N_("jumped off the table")}


def _start_play(state: State, first: Seat, log: list[LogLine]) -> State:
    log.append(LogLine(msg("{actor} begins.", actor=_seat(first))))
    return replace(state, phase=JUMP, turn=first, first=first, log=tuple(log))


def _deploy(state: State, seat: Seat, action: Action) -> State:
    side = side_of(state.players, seat)
    points = _deploy_points(state, seat, action)
    frogs = list(state.frogs)
    for fid, (x, y) in zip(side_frogs(state, side), points, strict=True):
        frogs[fid] = replace(frogs[fid], x=rnd(x), y=rnd(y))
    deployed = tuple(d or k == side for k, d in enumerate(state.deployed))
    how = (CLUSTER_WORDS[CLUSTERS[action["cluster"]][0]] if "cluster" in action
           else N_("own formation"))
    log = [*state.log, LogLine(msg("{actor} deployed ({how}).", actor=_seat(seat),
                                   how=msg(how)))]
    moved = tuple(frogs[fid] for fid in side_frogs(state, side))
    first = seat if state.first is None else state.first
    after = replace(state, frogs=tuple(frogs), deployed=deployed, first=first, log=tuple(log),
                    last=Event(state.step, "deploy", seat, None, "deployed", moved=moved))
    return _start_play(after, first, log) if all(deployed) else after


def _timeout(state: State) -> State:
    log = [*state.log, LogLine(msg("Time is up: undeployed sides take their first cluster."))]
    first = state.first
    if first is None:
        first = choice_index(state.players, stream(state.seed, "first"))
    after = replace(state, deployed=(True,) * len(state.deployed), first=first)
    return _start_play(after, first, log)


def _end_turn(state: State, log: list[LogLine]) -> State:
    assert state.turn is not None
    turns = state.turns + 1
    nxt = (state.turn + 1) % state.players
    base = replace(state, turns=turns, again_frog=None, again_kind=None)
    if turns >= TURN_LIMIT * state.players:
        log.append(LogLine(msg("Every player has had {n} turns: the game ends.", n=TURN_LIMIT)))
        return replace(base, phase=OVER, turn=None, end="turn limit", log=tuple(log))
    if not _free_own(base, nxt):
        log.append(LogLine(msg("{actor} has no free frog: the game ends.", actor=_seat(nxt))))
        return replace(base, phase=OVER, turn=None, end="no free frog", log=tuple(log))
    return replace(base, phase=JUMP, turn=nxt, log=tuple(log))


def _jump(state: State, seat: Seat, action: Action) -> State:
    fid = int(action["frog"])
    theta, r, s = float(action["theta"]), float(action["r"]), float(action["s"])
    rng = stream(state.seed, "jump", state.step)
    draws = Draws(rng.random(), rng.random(), rng.random(), rng.random())
    me = state.frogs[fid]
    done = model.jump(state.frogs, fid, theta, s, draws)
    moved = () if done.frogs[fid] == me else (done.frogs[fid],)
    event = Event(state.step, "jump", seat, fid, done.outcome, theta, r, s, (me.x, me.y),
                  arc=done.arc, moved=moved)
    log = [*state.log, LogLine(msg("{actor} jumped {frog}: {outcome}.", actor=_seat(seat),
                                   frog=_name(me), outcome=msg(JUMP_OUTCOMES[done.outcome])))]
    after = replace(state, frogs=done.frogs, last=event)
    if (state.phase == JUMP and me.ability == DOUBLE and done.outcome in ("landed", "off_table")
            and model.is_free(done.frogs, fid)):
        return replace(after, phase=AGAIN, again_frog=fid, again_kind=DOUBLE, log=tuple(log))
    return _end_turn(after, log)


def _dive(state: State, seat: Seat, action: Action) -> State:
    fid = int(action["frog"])
    theta, s = float(action["theta"]), float(action["s"])
    rng = stream(state.seed, "jump", state.step)
    spread = math.radians(DIVE_ANGLE_BASE_DEG + DIVE_ANGLE_POWER_DEG * s)
    phi = theta + math.pi + spread * normal(rng.random())
    length = max(0.0, slide.slide_length(s) * (1 + DIVE_LENGTH_SD * normal(rng.random())))
    me = state.frogs[fid]
    done = slide.simulate(state.frogs, fid, phi, length)
    outcome = "dive_touched" if done.touched else "dive_clear"
    moved = tuple(done.frogs[f] for f, _ in done.paths)
    event = Event(state.step, "dive", seat, fid, outcome, theta, None, s, (me.x, me.y),
                  slide=done.paths, moved=moved)
    text = (msg("touched another frog") if done.touched
            else msg("touched nothing and may jump"))
    log = [*state.log, LogLine(msg("{actor} dived {frog}: {outcome}.", actor=_seat(seat),
                                   frog=_name(me), outcome=text))]
    after = replace(state, frogs=done.frogs, last=event)
    if not done.touched:
        return replace(after, phase=AGAIN, again_frog=fid, again_kind=DIVE, log=tuple(log))
    return _end_turn(after, log)


def apply(state: State, seat: Seat, action: Action) -> State:
    check(state, seat, action)
    kind = action["type"]
    if kind == "timeout":
        after = _timeout(state)
    elif kind == "deploy":
        after = _deploy(state, seat, action)
    elif kind == "jump":
        after = _jump(state, seat, action)
    elif kind == "dive":
        after = _dive(state, seat, action)
    else:
        log = [*state.log, LogLine(msg("{actor} declined the extra jump.", actor=_seat(seat)))]
        after = _end_turn(state, log)
    return replace(after, step=state.step + 1)


# --- reading ----------------------------------------------------------------------------


def points(state: State) -> list[int]:
    """Live points per seat (a team's score for both partners)."""
    per_side = model.side_points(state.frogs, side_count(state.players))
    return [per_side[side_of(state.players, s)] for s in range(state.players)]


def free_counts(state: State) -> list[int]:
    free = model.free_ids(state.frogs)
    per_side = [sum(1 for f in free if state.frogs[f].side == k)
                for k in range(side_count(state.players))]
    return [per_side[side_of(state.players, s)] for s in range(state.players)]


def result(state: State) -> Result | None:
    if state.phase != OVER:
        return None
    scores, free = points(state), free_counts(state)
    best = max(zip(scores, free, strict=True))
    winners = tuple(s for s in range(state.players) if (scores[s], free[s]) == best)
    detail: dict[str, Any] = {"free": free, "end": state.end, "seed": state.seed}
    if state.players == 4:
        detail["teams"] = side_seats(4)
    return Result(winners, tuple(scores), detail)


def timer(state: State, options: Mapping[str, Any]) -> Timer | None:
    seconds = options.get("deploy_seconds", 0)
    if state.phase != DEPLOY or not seconds:
        return None
    return Timer(DEPLOY, float(seconds), dict(TIMEOUT_ACTION))


def frog_view(frogs: Sequence[Frog], fid: int, under: frozenset[int]) -> dict[str, Any]:
    f = frogs[fid]
    return {"id": f.id, "side": f.side, "colour": f.colour, "border": f.border,
            "ability": f.ability, "x": f.x, "y": f.y, "level": f.level,
            "supports": list(f.supports), "covered": fid in under,
            "free": f.level == 0 and fid not in under,
            "pad": pad_contact(f.x, f.y) if f.level == 0 else None}


def view(state: State, viewer: Viewer) -> View:
    """Everything is public but the seed (until the end); plain msgpack-able data. All
    but ``you`` and ``your_side`` is the same for every viewer: built once per state,
    and every viewer's view shares its parts (the host's diff looks at each once)."""
    seated = viewer is not None and 0 <= viewer < state.players
    head, tail = per_state(state, "_public_view", lambda: _public_view(state))
    return {
        "game": GAME_ID,
        "you": viewer,
        **head,
        "your_side": side_of(state.players, viewer) if seated and viewer is not None else None,
        **tail,
    }


def _public_view(state: State) -> tuple[dict[str, Any], dict[str, Any]]:
    n = side_count(state.players)
    res = result(state)
    under = model.covered(state.frogs)
    clusters = []
    if state.phase == DEPLOY:
        for side in range(n):
            count = len(side_frogs(state, side))
            clusters.append([{"name": name, "frogs": [list(p) for p in cluster(k, side, n, count)]}
                             for k, (name, _) in enumerate(CLUSTERS)])
    head = {
        "players": state.players,
        "phase": state.phase,
        "actors": sorted(actors(state)),
        "table": {"width": TABLE_W, "height": TABLE_H},
        "pad": {"x": PAD_X, "y": PAD_Y, "r": PAD_R},
        "sizes": {"R": R, "ring": [RING_IN, R], "finger": FINGER, "palm": PALM,
                  "disc_height": DISC_HEIGHT, "deploy_min": DEPLOY_MIN, "link": LINK},
        "abilities": state.abilities,
        "sides": side_seats(state.players),
        "teams": side_seats(4) if state.players == 4 else None,
        "side_of": [side_of(state.players, s) for s in range(state.players)],
    }
    tail = {
        "frogs": [frog_view(state.frogs, f.id, under) for f in state.frogs],
        "deployed": list(state.deployed),
        "sectors": [list(sector(k, n)) for k in range(n)],
        "clusters": clusters,
        "turn": state.turn,
        "again": None if state.again_frog is None
        else {"frog": state.again_frog, "kind": state.again_kind},
        "turns": state.turns,
        "turn_limit": TURN_LIMIT,
        "scores": points(state),
        "free": free_counts(state),
        "log": log_view(state),
        "last": None if state.last is None else state.last.to_view(),
        "over": res is not None,
        "winners": None if res is None else list(res.winners),
        "final": None if res is None else list(res.scores),
        "seed": state.seed if res is not None else None,
    }
    return head, tail


def hidden_variant(state: State, viewer: Viewer, rng: random.Random) -> State:
    """Another seed while the game runs (it decides future scatter); nothing once over."""
    if state.phase == OVER:
        return state
    return replace(state, seed=state.seed ^ (1 + int(rng.random() * 2**31)))


def describe(action: Action) -> str:
    """An action in words, for a player's own record."""
    kind = action.get("type")
    if kind == "jump":
        return f"jump frog {action.get('frog')} (strength {action.get('s')})"
    if kind == "dive":
        return f"dive frog {action.get('frog')} (strength {action.get('s')})"
    if kind == "deploy":
        return "deploy"
    if kind == "stop":
        return "decline the extra jump"
    return "an unknown action"
