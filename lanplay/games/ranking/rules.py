"""Ranking as pure rules: place a tile, compare pairs up and down the tower, guess, score.

The components come from a ``lanplay.content.Library`` once, at ``setup``;
from then on the state holds only plain data (picture ids and names, the
question texts and weights), so a running game never reads a pack again.

Decisions taken where the rulebook is silent (also in help.md):

* Colours by seat: blue, yellow, green, red, purple. The starting player of
  round 1 is drawn by the shared seeded generator; later rounds start left
  of the player whose comparison ended the previous round.
* The question of each round is drawn from the bag of the chosen side by
  ``stream(seed, "question", round)``, a custom pack's questions (for that
  side or both) before any built-in one; the 7 tiles of a row are shuffled by
  ``stream(seed, "row", round)`` and all start on floor 3.
* A comparison takes two tiles on the same floor 1..5 (a tile on floor 0 or
  6 cannot move further). The floors always sum to 21, so a legal pair
  exists until the round ends; every comparison raises the sum of squared
  floors by 2, so a round always ends.
* The round ends right after the comparison that leaves at least one tile
  on floor 6 and at least one on floor 0; its guess step still runs.
* Guessing: after a comparison by P every other player still holding a
  P-coloured stone answers at once (a stone on one of the 7 tiles, own tile
  included, or pass). Answers stay hidden until all are in (or the guess
  timer ends the step: missing answers count as passes); then the stones
  are shown. Nobody holding a P stone: no guess step.
* Scoring: floor minus the own-coloured stones on the own tile, never below
  0. Totals count steps on the track (0..6 up, pointing up; 7 the roof, where
  the stone is turned to point down; 8..14 down; 15 out). The game ends
  after the round in which a total reaches 15; the highest total wins
  (that is the one furthest beyond the goal), equal totals share the win.
* A new round needs 7 tiles from the supply (one per hand, the rest to fill
  the row). If the supply holds fewer, or the question bag is empty, the
  game ends after the round just scored; the highest total wins.
* The place timer (host option, off by default) places a tile for every
  player still choosing, drawn by ``stream(seed, "autoplace", round, seat)``.
* Hidden: hands, the supply, who owns which tile until scoring (then the
  owners are shown; supply tiles show no owner), others' pending guesses.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeGuard

from lanplay.content.library import Library
from lanplay.game import (
    SYSTEM,
    Action,
    IllegalAction,
    LogLine,
    Result,
    Seat,
    View,
    Viewer,
    log_view,
)
from lanplay.games.ranking.state import (  # noqa: F401 (re-exported for the binding)
    BOTTOM,
    COLOURS,
    FLOOR_SUM,
    GAME_ID,
    GOAL,
    GUESS_SECONDS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PASS,
    PHASES,
    PLACE_SECONDS,
    ROOF,
    ROW_SIZE,
    SIDES,
    START_FLOOR,
    TOP,
    Answer,
    Ask,
    Event,
    Slot,
    State,
)
from lanplay.messages import N_, Content, Msg, Problem, items, msg, msg_n, picture, question, seats
from lanplay.messages import seat as _seat
from lanplay.rng import choice_index, shuffled, stream


def initial_stones(players: int) -> tuple[tuple[int, ...], ...]:
    """One stone of each other colour (two each with three players)."""
    each = 2 if players == 3 else 1
    return tuple(tuple(0 if s == c else each for c in range(players)) for s in range(players))


def setup(players: int, options: Mapping[str, Any], seed: int, library: Library) -> State:
    """Draw 120 tiles and the question bag from ``library``, deal 6 each, start round 1."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise Problem(msg_n("Ranking needs {low}-{high} players; there is {n}.",
                            "Ranking needs {low}-{high} players; there are {n}.", players,
                            low=MIN_PLAYERS, high=MAX_PLAYERS))
    side = options.get("question_side", "red")
    if side not in SIDES:
        raise Problem(msg("Option {option} must be one of {choices}.", option="question_side",
                          choices=items(list(SIDES))))
    tiles = library.ranking_tiles(seed)
    names = tuple((t, library.picture(t).name) for t in tiles)
    bag = tuple(Ask(q.id, q.text, side, tuple((str(a), float(w)) for a, w in q.weights),
                    own=q.pack not in ("", "builtin"))
                for q in library.ranking_questions(side))
    if not bag:
        raise Problem(msg("There are no questions for the {side} side.", side=msg(side)))
    if len(tiles) < players * HAND_SIZE + ROW_SIZE:
        raise Problem(msg("There are not enough picture tiles for one round."))
    deck = shuffled(tiles, stream(seed, "deal"))
    hands = tuple(tuple(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(players))
    first = choice_index(players, stream(seed, "first"))
    state = State(
        players=players, side=side, seed=seed, names=names, bag=bag, question=bag[0],
        round=0, phase="place", starter=first, current=first, hands=hands,
        supply=tuple(deck[players * HAND_SIZE:]), placed=(None,) * players, row=(),
        revealed=False, last_row=(), stones=initial_stones(players), guess_for=None,
        eligible=(), pending=(None,) * players, step=0, compares=0,
        scores=(0,) * players, log=(),
    )
    return _start_round(state, first, [LogLine(msg("{actor} is the starting player.",
                                                   actor=_seat(first)))])


def build(floors: Sequence[int], owners: Sequence[Seat | None], *, players: int = 4,
          current: Seat = 0, stones: Sequence[Sequence[Seat]] = (),
          scores: Sequence[int] = (), supply: int = 60, seed: int = 0) -> State:
    """A compare-phase state with this row, for scenario tests.

    Pictures are named ``p0`` .. ``p6`` by slot; hands hold 5 tiles ``h<seat>-<i>``.
    """
    row = tuple(Slot(f"p{i}", f, tuple(stones[i]) if i < len(stones) else (), o)
                for i, (f, o) in enumerate(zip(floors, owners, strict=True)))
    hands = tuple(tuple(f"h{s}-{i}" for i in range(HAND_SIZE - 1)) for s in range(players))
    pool = tuple(f"s{i}" for i in range(supply))
    names = tuple((t, t.upper()) for t in [s.picture for s in row] + [*sum(hands, ()), *pool])
    ask = Ask("q", "What is more valuable?", "red", (("value", 1.0),))
    left = [list(r) for r in initial_stones(players)]
    placed = []
    for slot in row:
        by = []
        for colour in slot.stones:
            guesser = next(s for s in range(players) if s != colour and left[s][colour] > 0)
            left[guesser][colour] -= 1
            by.append(guesser)
        placed.append(replace(slot, by=tuple(by)))
    row = tuple(placed)
    return State(
        players=players, side="red", seed=seed, names=names, bag=(ask,) * 10, question=ask,
        round=1, phase="compare", starter=current, current=current, hands=hands,
        supply=pool, placed=(None,) * players, row=row, revealed=False, last_row=(),
        stones=tuple(tuple(r) for r in left), guess_for=None, eligible=(),
        pending=(None,) * players, step=0, compares=0,
        scores=tuple(scores) if scores else (0,) * players, log=(),
    )


def _start_round(state: State, starter: Seat, log: list[LogLine]) -> State:
    """Draw the next question and open the place phase."""
    number = state.round + 1
    bag = list(state.bag)
    # A group that brought its own questions wants to play them: those first.
    pool = [i for i, ask in enumerate(bag) if ask.own] or list(range(len(bag)))
    question = bag.pop(pool[choice_index(len(pool), stream(state.seed, "question", number))])
    log.append(LogLine(msg("Round {round}: {actor} draws the question \"{question}\"",
                           round=number, actor=_seat(starter),
                           question=question_word(question.id, question.text))))
    return replace(
        state, bag=tuple(bag), question=question, round=number, phase="place",
        starter=starter, current=starter, placed=(None,) * state.players, row=(),
        revealed=False, stones=initial_stones(state.players), guess_for=None, eligible=(),
        pending=(None,) * state.players, compares=0, log=(*state.log, *log),
    )


# --- who acts and what they may do ------------------------------------------------------

def actors(state: State) -> frozenset[Seat]:
    if state.phase == "place":
        return frozenset(s for s in range(state.players) if state.placed[s] is None)
    if state.phase == "compare":
        return frozenset({state.current})
    if state.phase == "guess":
        return frozenset(s for s in state.eligible if state.pending[s] is None)
    return frozenset()


def comparable(row: Sequence[Slot]) -> list[tuple[int, int]]:
    """Every ordered (up, down) pair of slots sharing a floor 1..5."""
    return [(a, b) for a, sa in enumerate(row) for b, sb in enumerate(row)
            if a != b and sa.floor == sb.floor and BOTTOM < sa.floor < TOP]


def legal(state: State, seat: Seat) -> list[Action]:
    if seat not in actors(state):
        return []
    if state.phase == "place":
        return [{"type": "place", "tile": t} for t in state.hands[seat]]
    if state.phase == "compare":
        return [{"type": "compare", "up": a, "down": b} for a, b in comparable(state.row)]
    return [*({"type": "guess", "slot": i} for i in range(ROW_SIZE)), {"type": PASS}]


def round_over(row: Sequence[Slot]) -> bool:
    """After a comparison: a tile on floor 6 and a tile on floor 0."""
    floors = {s.floor for s in row}
    return TOP in floors and BOTTOM in floors


def timer_action(state: State) -> Action | None:
    """The timeout that closes the current wait (whether or not a timer runs)."""
    if state.phase == "place":
        return {"type": "timeout", "round": state.round, "phase": "place"}
    if state.phase == "guess":
        return {"type": "timeout", "step": state.step}
    return None


# --- checking an action from the network --------------------------------------------------

def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _same(action: Mapping[Any, Any], expected: Mapping[str, Any]) -> bool:
    return (set(action) == set(expected)
            and all(type(action[k]) is type(v) and action[k] == v for k, v in expected.items()))


def _only(action: Mapping[Any, Any], keys: Iterable[str], what: str) -> None:
    """Refuse a field not in ``keys``; ``what`` is the refusal's key (``{field}``)."""
    allowed = set(keys)
    extra = sorted(str(k) for k in action if k not in allowed)
    if extra:
        raise IllegalAction(msg(what, field=repr(extra[0][:40])))


def _slot(action: Mapping[Any, Any], key: str) -> int:
    value = action.get(key)
    if key not in action:
        raise IllegalAction(msg("Say which tile: the action has no '{field}'.", field=key))
    if not _is_int(value) or not 0 <= value < ROW_SIZE:
        raise IllegalAction(msg("'{field}' must be a slot of the row, 0 to {last}.",
                                field=key, last=ROW_SIZE - 1))
    return value


def _waiting(state: State) -> Msg:
    if state.phase == "place":
        return msg("Now everyone places a tile.")
    if state.phase == "compare":
        return msg("Now {seat} compares two tiles.", seat=_seat(state.current))
    return msg("Now the others guess the tile of the player who compared.")


def check(state: State, seat: Seat, action: object) -> None:
    """Refuse anything but a legal action, with a reason that reveals nothing hidden."""
    if not isinstance(action, Mapping):
        raise IllegalAction(msg("An action must be a map with a 'type'."))
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction(msg("An action needs a 'type': place, compare, guess or pass."))
    if kind not in ("place", "compare", "guess", PASS, "timeout"):
        raise IllegalAction(msg("Unknown action {action}.", action=repr(kind[:40])))
    if state.over:
        raise IllegalAction(msg("The game is over."))
    if kind == "timeout":
        _check_timeout(state, seat, action)
        return
    if seat == SYSTEM:
        raise IllegalAction(msg("The host's clock only ends waits; it does not play."))
    if not _is_int(seat) or not 0 <= seat < state.players:
        raise IllegalAction(msg("You are not a player at this table."))
    if kind == "place":
        _check_place(state, seat, action)
    elif kind == "compare":
        _check_compare(state, seat, action)
    else:
        _check_guess(state, seat, kind, action)


def _check_timeout(state: State, seat: Seat, action: Mapping[Any, Any]) -> None:
    if seat != SYSTEM:
        raise IllegalAction(msg("Only the host's clock can end a wait."))
    expected = timer_action(state)
    if expected is None or not _same(action, expected):
        raise IllegalAction(msg("That timer belongs to a wait that is already over."))


def _check_place(state: State, seat: Seat, action: Mapping[Any, Any]) -> None:
    if state.phase != "place":
        raise IllegalAction(msg("Tiles are placed only at the start of a round. {now}",
                                now=_waiting(state)))
    if state.placed[seat] is not None:
        raise IllegalAction(msg("You have already placed your tile this round."))
    _only(action, ("type", "tile"), N_("A place has no field {field}."))
    if "tile" not in action:
        raise IllegalAction(msg("Say which tile to place: the action has no 'tile'."))
    tile = action["tile"]
    if not isinstance(tile, str):
        raise IllegalAction(msg("'tile' must be the id of a picture in your hand."))
    if tile not in state.hands[seat]:
        raise IllegalAction(msg("That picture is not in your hand."))


def _check_compare(state: State, seat: Seat, action: Mapping[Any, Any]) -> None:
    if state.phase != "compare":
        raise IllegalAction(msg("You cannot compare now. {now}", now=_waiting(state)))
    if seat != state.current:
        raise IllegalAction(msg("It is not your turn to compare: waiting for {waiting}.",
                                waiting=seats([state.current])))
    _only(action, ("type", "up", "down"), N_("A comparison has no field {field}."))
    up, down = _slot(action, "up"), _slot(action, "down")
    if up == down:
        raise IllegalAction(msg("Choose two different tiles: one goes up, the other down."))
    a, b = state.row[up].floor, state.row[down].floor
    if BOTTOM in (a, b) or TOP in (a, b):
        raise IllegalAction(msg("A tile on floor 0 or floor 6 cannot be compared any more."))
    if a != b:
        raise IllegalAction(msg("Both tiles must be on the same floor; these are on floors "
                                "{a} and {b}.", a=a, b=b))


def _check_guess(state: State, seat: Seat, kind: str, action: Mapping[Any, Any]) -> None:
    if state.phase != "guess" or state.guess_for is None:
        raise IllegalAction(msg("There is nothing to guess now. {now}", now=_waiting(state)))
    if seat == state.guess_for:
        raise IllegalAction(msg("The others are guessing your tile; wait for them."))
    if seat not in state.eligible:
        raise IllegalAction(msg("You have no {colour} guess stone left, so you sit this one "
                                "out.", colour=msg(COLOURS[state.guess_for])))
    if state.pending[seat] is not None:
        raise IllegalAction(msg("You have already answered for this comparison."))
    if kind == "guess":
        _only(action, ("type", "slot", "step"), N_("A guess has no field {field}."))
    else:
        _only(action, ("type", "step"), N_("A pass has no field {field}."))
    if "step" in action and not (_is_int(action["step"]) and action["step"] == state.step):
        raise IllegalAction(msg("That answer was for an earlier comparison."))
    if kind == "guess":
        _slot(action, "slot")


# --- applying ---------------------------------------------------------------------------------

def apply(state: State, seat: Seat, action: Action) -> State:
    """The next state; scoring and the next round happen inside."""
    check(state, seat, action)
    kind = action["type"]
    if kind == "place":
        return _place(state, seat, action["tile"])
    if kind == "compare":
        return _compare(state, seat, action["up"], action["down"])
    if kind == "timeout":
        return _timeout(state)
    answer: int | str = action["slot"] if kind == "guess" else PASS
    pending = list(state.pending)
    pending[seat] = answer
    state = replace(state, pending=tuple(pending))
    if all(pending[s] is not None for s in state.eligible):
        return _close_guess(state)
    return state


def _place(state: State, seat: Seat, tile: str) -> State:
    hands = list(state.hands)
    hand = list(hands[seat])
    hand.remove(tile)
    hands[seat] = tuple(hand)
    placed = list(state.placed)
    placed[seat] = tile
    state = replace(state, hands=tuple(hands), placed=tuple(placed))
    if all(p is not None for p in placed):
        return _form_row(state)
    return state


def _form_row(state: State) -> State:
    """Fill up to 7 from the supply, shuffle, line up on floor 3."""
    fill = ROW_SIZE - state.players
    tiles: list[tuple[str, Seat | None]] = [
        (t, s) for s, t in enumerate(state.placed) if t is not None]
    tiles += [(t, None) for t in state.supply[:fill]]
    order = shuffled(tiles, stream(state.seed, "row", state.round))
    row = tuple(Slot(t, START_FLOOR, (), owner) for t, owner in order)
    line = LogLine(msg_n("The row is laid out with {n} tile from the supply; {actor} compares "
                         "first.", "The row is laid out with {n} tiles from the supply; "
                         "{actor} compares first.", fill, actor=_seat(state.current)))
    return replace(state, supply=state.supply[fill:], placed=(None,) * state.players,
                   row=row, last_row=(), phase="compare", log=(*state.log, line))


def question_word(ident: str, text: str) -> Content:
    """A question as a message argument (each laptop shows it in its language)."""
    return question(ident, text)


def _name(state: State, ident: str) -> Content:
    """A picture as a message argument, with its name from the content."""
    return picture(ident, dict(state.names).get(ident, ident))


def _compare(state: State, seat: Seat, up: int, down: int) -> State:
    row = list(state.row)
    row[up] = replace(row[up], floor=row[up].floor + 1)
    row[down] = replace(row[down], floor=row[down].floor - 1)
    text = msg("{actor} rates {a} above {b}: up to floor {up}, down to floor {down}.",
               actor=_seat(seat), a=_name(state, row[up].picture),
               b=_name(state, row[down].picture), up=row[up].floor, down=row[down].floor)
    state = replace(state, row=tuple(row), compares=state.compares + 1,
                    last=Event("compare", seat, up, down),
                    log=(*state.log, LogLine(text)))
    eligible = tuple(s for s in range(state.players)
                     if s != seat and state.stones[s][seat] > 0)
    if not eligible:
        return _after_guesses(state)
    return replace(state, phase="guess", guess_for=seat, eligible=eligible,
                   pending=(None,) * state.players, step=state.step + 1)


def _timeout(state: State) -> State:
    if state.phase == "place":
        late = [s for s in range(state.players) if state.placed[s] is None]
        hands = list(state.hands)
        placed = list(state.placed)
        for s in late:
            hand = list(hands[s])
            placed[s] = hand.pop(choice_index(len(hand),
                                              stream(state.seed, "autoplace", state.round, s)))
            hands[s] = tuple(hand)
        line = LogLine(msg("Time is up: a tile was placed for {late}.", late=seats(late)))
        return _form_row(replace(state, hands=tuple(hands), placed=tuple(placed),
                                 log=(*state.log, line)))
    line = LogLine(msg("Time is up: missing guesses count as passes."))
    return _close_guess(replace(state, log=(*state.log, line)))


def _close_guess(state: State) -> State:
    """Put the stones down, show every answer, and go on."""
    target = state.guess_for
    assert target is not None
    row = list(state.row)
    stones = [list(r) for r in state.stones]
    answers: list[tuple[Seat, int | str]] = []
    parts: list[Msg] = []
    for s in state.eligible:
        answer = state.pending[s]
        if _is_int(answer):
            row[answer] = replace(row[answer], stones=(*row[answer].stones, target),
                                  by=(*row[answer].by, s))
            stones[s][target] -= 1
            answers.append((s, answer))
            parts.append(msg("{seat} on {picture}", seat=_seat(s),
                             picture=_name(state, row[answer].picture)))
        else:
            answers.append((s, PASS))
            parts.append(msg("{seat} passes", seat=_seat(s)))
    line = LogLine(msg("Guesses for {target}'s tile: {guesses}.", target=_seat(target),
                       guesses=items(parts)))
    state = replace(state, row=tuple(row), stones=tuple(tuple(r) for r in stones),
                    guess_for=None, eligible=(), pending=(None,) * state.players,
                    last=Event("guesses", target, answers=tuple(answers)),
                    log=(*state.log, line))
    return _after_guesses(state)


def _after_guesses(state: State) -> State:
    if round_over(state.row):
        return _score(state)
    return replace(state, phase="compare", current=(state.current + 1) % state.players)


def gain(slot: Slot) -> int:
    """Floor minus the owner's own-coloured stones on it, never below 0."""
    if slot.owner is None:
        return 0
    return max(0, slot.floor - slot.stones.count(slot.owner))


def track(total: int) -> tuple[int, str]:
    """Where a total stands on the tower and where its point faces: (step 0..7,
    "up"/"down"/"out").

    Up from 0 to 6; a stone reaching the roof (7) is turned so its point faces
    down (the rulebook), then goes down: 8 is back on 6, 14 on 0, 15 is out.
    """
    if total >= GOAL:
        return 0, "out"
    if total < ROOF:
        return total, "up"
    return 2 * ROOF - total, "down"


def _score(state: State) -> State:
    ender = state.current
    gains = [0] * state.players
    log = list(state.log)
    log.append(LogLine(msg("{actor}'s comparison ends the round. The owners are revealed:",
                           actor=_seat(ender))))
    for slot in sorted(state.row, key=lambda s: s.floor):
        if slot.owner is None:
            continue
        g = gain(slot)
        gains[slot.owner] += g
        own = slot.stones.count(slot.owner)
        if own:
            line = msg_n("{owner}: {picture} on floor {floor} minus {n} guess stone: +{gain}.",
                         "{owner}: {picture} on floor {floor} minus {n} guess stones: +{gain}.",
                         own, owner=_seat(slot.owner), picture=_name(state, slot.picture),
                         floor=slot.floor, gain=g)
        else:
            line = msg("{owner}: {picture} on floor {floor}: +{gain}.", owner=_seat(slot.owner),
                       picture=_name(state, slot.picture), floor=slot.floor, gain=g)
        log.append(LogLine(line))
    scores = tuple(a + b for a, b in zip(state.scores, gains, strict=True))
    state = replace(state, scores=scores, revealed=True, last_row=state.row,
                    last=Event("score", round=state.round, gains=tuple(gains),
                               owners=tuple(s.owner for s in state.row)))
    if max(scores) >= GOAL:
        return _finish(state, log, "goal")
    if len(state.supply) < ROW_SIZE or not state.bag:
        log.append(LogLine(msg("The supply cannot fill another round.") if state.bag
                           else msg("The question bag is empty.")))
        return _finish(state, log, "supply" if state.bag else "questions")
    supply = state.supply
    hands = []
    for hand in state.hands:
        hands.append((*hand, supply[0]))
        supply = supply[1:]
    state = replace(state, hands=tuple(hands), supply=supply, log=tuple(log))
    return _start_round(state, (ender + 1) % state.players, [])


def _winners(scores: Sequence[int]) -> tuple[Seat, ...]:
    best = max(scores)
    return tuple(s for s, v in enumerate(scores) if v == best)


def _finish(state: State, log: list[LogLine], reason: str) -> State:
    winners = _winners(state.scores)
    best = state.scores[winners[0]]
    if len(winners) == 1:
        line = msg_n("Game over: {winner} wins with {n} point.",
                     "Game over: {winner} wins with {n} points.", best, winner=_seat(winners[0]))
    else:
        line = msg_n("Game over: {winners} share the win with {n} point.",
                     "Game over: {winners} share the win with {n} points.", best,
                     winners=seats(winners))
    log.append(LogLine(line))
    return replace(state, phase="over", guess_for=None, eligible=(),
                   pending=(None,) * state.players, log=tuple(log), end=reason)


# --- the end, the views, and hidden variants ----------------------------------------------------

def result(state: State) -> Result | None:
    if not state.over:
        return None
    return Result(_winners(state.scores), tuple(state.scores),
                  {"end": state.end, "rounds": state.round, "seed": state.seed})


def _slots_view(state: State, row: Sequence[Slot], names: Mapping[str, str],
                owners: bool) -> list[dict[str, Any]]:
    return [{"slot": i, "picture": s.picture, "name": names.get(s.picture, s.picture),
             "floor": s.floor, "stones": list(s.stones), "by": list(s.by),
             "owner": s.owner if owners else None} for i, s in enumerate(row)]


def view(state: State, viewer: Viewer) -> View:
    """Everything public, plus the viewer's own hand, tile and pending guess."""
    seat = viewer if _is_int(viewer) and 0 <= viewer < state.players else None
    names = dict(state.names)
    res = result(state)
    if state.phase == "place":
        answered = [p is not None for p in state.placed]
    elif state.phase == "guess":
        answered = [state.pending[s] is not None for s in range(state.players)]
    else:
        answered = [False] * state.players
    mine = None
    if seat is not None:
        mine = next((i for i, s in enumerate(state.row) if s.owner == seat), None)
    return {
        "game": GAME_ID,
        "you": viewer,
        "players": state.players,
        "round": state.round,
        "phase": state.phase,
        "actors": sorted(actors(state)),
        "starter": state.starter,
        "current": state.current,
        "question": state.question.to_view(),
        "row": _slots_view(state, state.row, names, state.revealed),
        "previous_row": _slots_view(state, state.last_row, names, True),
        "mine": mine,
        "hand": [] if seat is None else [{"id": t, "name": names.get(t, t)}
                                         for t in state.hands[seat]],
        "hand_counts": [len(h) for h in state.hands],
        "placed": state.placed[seat] if seat is not None and state.phase == "place" else None,
        "answered": answered,
        "guess": state.pending[seat] if seat is not None and state.phase == "guess" else None,
        "guess_for": state.guess_for,
        "stones_left": [list(r) for r in state.stones],
        "scores": list(state.scores),
        "supply": len(state.supply),
        "step": state.step,
        "compares": state.compares,
        "log": log_view(state),
        "last": None if state.last is None else state.last.to_view(),
        "over": res is not None,
        "winners": None if res is None else list(res.winners),
        "final": None if res is None else list(res.scores),
    }


def hidden_variant(state: State, viewer: Viewer, rng: random.Random) -> State:
    """Re-deal what ``viewer`` cannot see: others' tiles, the supply, secret owners,
    others' pending guesses; every count stays."""
    others = [s for s in range(state.players) if s != viewer]
    pool = [t for s in others for t in state.hands[s]] + list(state.supply)
    pool += [t for s in others if (t := state.placed[s]) is not None]
    pool = shuffled(pool, rng)
    hands = list(state.hands)
    placed = list(state.placed)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(pool[:size]), pool[size:]
        if placed[s] is not None:
            placed[s], pool = pool[0], pool[1:]
    supply = tuple(pool)
    row = list(state.row)
    if row and not state.revealed:
        secret = [i for i, slot in enumerate(row) if slot.owner is None or slot.owner != viewer]
        owners = shuffled([row[i].owner for i in secret], rng)
        for i, owner in zip(secret, owners, strict=True):
            row[i] = replace(row[i], owner=owner)
    pending = list(state.pending)
    for s in state.eligible:
        if s != viewer and pending[s] is not None:
            pending[s] = rng.choice([*range(ROW_SIZE), PASS])
    return replace(state, hands=tuple(hands), placed=tuple(placed), supply=supply,
                   row=tuple(row), pending=tuple(pending))


def describe(action: Action) -> str:
    """An action in words, for a player's own record."""
    kind = action.get("type")
    if kind == "place" and isinstance(action.get("tile"), str):
        return f"place {action['tile']}"
    if kind == "compare" and _is_int(action.get("up")) and _is_int(action.get("down")):
        return f"push slot {action['up']} up and slot {action['down']} down"
    if kind == "guess" and _is_int(action.get("slot")):
        return f"put a guess stone on slot {action['slot']}"
    if kind == PASS:
        return "pass"
    return "an unknown action"
