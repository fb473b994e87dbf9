"""S-tier cooperative mode (2-6): everyone guesses one leader's note on a shared board.

Decisions where the rulebook is silent (also in help.md):

* The first leader is drawn by the shared generator; the role then passes
  clockwise each round.
* The shared board: any guesser moves any picture (onto an occupied tier the
  two swap; ``None`` puts it back in the pool). A move unlocks everyone. The
  attempt is submitted when every guesser has locked in, which needs every
  picture on the board; the ``guess_seconds`` timer submits the board as it
  lies (pictures left in the pool count as wrong). A move to where the
  picture already lies changes nothing.
* Track: the star is ``coop_track`` steps from each token's start (default 4).
  4-5 correct: green +2; 3: green +1; 1-2: red +1; 0: red +2.
* Harder game (``text_side``): the four effects sit one per step in the order
  the rulebook lists them; each step moved by either token crosses the next
  one, and an effect works from the next round on (so every effect can be
  reached whatever the track length).
* The note stays on the leader's laptop (DESIGN.md "Fair play"): the host
  gets its commitment (with "choose the side" the faces shown, with "place
  one" the hint), then the count after attempt 1 from the leader's laptop,
  on trust, and the note itself at the reveal, which checks the commitment
  and every count and hint told: a leader whose laptop told wrong is named
  and the round is scored from the note. A reveal that does not match the
  commitment, or a leader whose note cannot be had (a stand-in, or a laptop
  that lost it), voids the round: no token moves, the next leader leads.
* "Take four": the note leaves one tier empty; the empty tier counts as a
  fifth thing to get right only when the board holds all four pictures and
  leaves exactly that tier empty. "Place one": the leader names a tier with a
  picture; that picture is fixed there and counts. "Choose the side": the
  leader writes either face of each card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from lanplay.content.library import Library
from lanplay.game import SYSTEM, Action, IllegalAction, Result, Seat, Timer, View, Viewer
from lanplay.games.s_tier.common import (
    PLAIN_NOTE,
    TIER_COUNT,
    TIERS,
    Deck,
    LogLine,
    Topic,
    check_players,
    check_void,
    commitment_field,
    default_faces,
    first_seat,
    freeze,
    int_option,
    is_int,
    is_tier,
    load_content,
    matches,
    need_note_writer,
    need_player,
    only_keys,
    picture_word,
    read_action,
    reveal_fields,
    sample_commitment,
    tier_field,
)
from lanplay.games.s_tier.rounds import OneLeader, framed_view, unseen_topics
from lanplay.messages import N_, Content, Msg, items, msg, msg_n, topic
from lanplay.messages import seat as _seat
from lanplay.rng import choice_index, shuffled, stream

MODE = "cooperative"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
EFFECTS = ("choose-side", "place-one", "no-second", "take-four")
EFFECT_NAMES = {
    "choose-side": N_("Choose the side of the pictures"),
    "place-one": N_("Place one picture on the correct spot"),
    "no-second": N_("No second attempt"),
    "take-four": N_("Take four pictures"),
}
TRACKS = (3, 4, 5, 6)
GUESS_SECONDS = (0, 120, 300, 600)
SAMPLE_NOTES = 24
ACTIONS = ("commit", "move", "lock", "unlock", "count", "reveal", "void", "note")
SECRET_PHASES = ("note", "count", "reveal")
"""The phases in which the host waits for the leader's laptop (its note or what it gives)."""

Board = tuple[str | None, ...]


@dataclass(frozen=True)
class Coop(OneLeader):
    """One cooperative game; ``faces`` are the pictures the round's cards show.

    Before the reveal the state holds the note's ``commitment``, the ``count``
    the leader's laptop told after attempt 1 and the board it was told for
    (``counted``); ``note`` is the revealed note (None until the reveal)."""

    players: int
    seed: int
    text_side: bool
    star: int
    guess_seconds: int
    deck: Deck
    topics: tuple[Topic, ...]
    round: int
    leader: Seat
    phase: str
    hand: tuple[int, ...]
    faces: tuple[str, ...]
    effects: tuple[str, ...] = ()
    note: Board | None = None
    commitment: str | None = None
    counted: Board | None = None
    hint: int | None = None
    board: Board = (None,) * TIER_COUNT
    locked: tuple[Seat, ...] = ()
    attempt: int = 1
    count: int | None = None
    moves: int = 0
    green: int = 0
    red: int = 0
    log: tuple[LogLine, ...] = ()
    last: Mapping[str, Any] | None = None

    def name(self, picture: str | None) -> str:
        if picture is None:
            return "nothing"
        found = self.deck.name_in(self.hand, picture)
        return picture if found is None else found

    def word(self, picture: str | None) -> Content | Msg:
        """A picture of this round (or an empty tier) as a message argument."""
        if picture is None:
            return msg("nothing")
        return picture_word(picture, self.name(picture))


def setup(players: int, options: Mapping[str, Any], seed: int, library: Library) -> Coop:
    check_players(MODE, MIN_PLAYERS, MAX_PLAYERS, players)
    star = int_option(options, "coop_track", 4, TRACKS)
    seconds = int_option(options, "guess_seconds", 300, GUESS_SECONDS)
    deck, topics = load_content(library, seed)
    state = Coop(players=players, seed=seed, text_side=bool(options.get("text_side", False)),
                 star=star, guess_seconds=seconds, deck=deck, topics=topics, round=0,
                 leader=first_seat(players, seed), phase="note", hand=(), faces=())
    return start_round(state, state.leader)


def active_effects(text_side: bool, green: int, red: int) -> tuple[str, ...]:
    return EFFECTS[:min(len(EFFECTS), green + red)] if text_side else ()


def start_round(state: Coop, leader: Seat) -> Coop:
    round_no = state.round + 1
    size = 4 if "take-four" in state.effects else 5
    hand, deck = state.deck.draw(size, state.seed)
    faces = default_faces(deck, hand, state.seed, round_no)
    line = LogLine(msg("Round {round}: {leader} leads and writes the note.", round=round_no,
                       leader=_seat(leader)))
    return replace(state, deck=deck, round=round_no, leader=leader, phase="note", hand=hand,
                   faces=faces, note=None, commitment=None, counted=None, hint=None,
                   board=(None,) * TIER_COUNT, locked=(), attempt=1, count=None, moves=0,
                   log=(*state.log, line))


# --- who acts, and what they may do ------------------------------------------------

def actors(state: Coop) -> frozenset[Seat]:
    if state.phase in SECRET_PHASES:
        return frozenset({state.leader})
    if state.phase == "guess":
        return frozenset(state.guessers)
    return frozenset()


def complete(state: Coop) -> bool:
    return sum(p is not None for p in state.board) == len(state.faces)


def movable(state: Coop) -> list[str]:
    fixed = None if state.hint is None else state.board[state.hint]
    return [p for p in state.faces if p != fixed]


def legal(state: Coop, seat: Seat) -> list[Action]:
    if seat not in actors(state):
        return []
    if state.phase == "note":
        return sample_commits(state)
    if state.phase == "count":
        return [*({"type": "count", "correct": n} for n in range(TIER_COUNT + 1)),
                {"type": "void"}]
    if state.phase == "reveal":
        return [{"type": "void"}]  # the reveal itself only the leader's laptop knows
    tiers: list[int | None] = [t for t in range(TIER_COUNT) if t != state.hint]
    out: list[Action] = [{"type": "move", "picture": p, "tier": t}
                         for p in movable(state) for t in [*tiers, None]]
    if seat not in state.locked and complete(state):
        out.append({"type": "lock"})
    out.append({"type": "unlock"})
    return out


def sample_commits(state: Coop) -> list[Action]:
    """Commitments to a sample of notes, with the faces and hint each would tell."""
    rng = stream(state.seed, "sample-salt", state.round)
    out: list[Action] = []
    for note in sample_notes(state):
        tiers = note["tiers"]
        action: Action = {"type": "commit", "commitment": sample_commitment(tiers, rng)}
        if "choose-side" in state.effects:
            action["faces"] = [next(p for p in tiers if p in (state.deck.cards[c].front,
                                                               state.deck.cards[c].back))
                               for c in state.hand]
        if "hint" in note:
            action["hint"] = {"tier": note["hint"], "picture": tiers[note["hint"]]}
        out.append(action)
    return out


def sample_notes(state: Coop) -> list[Action]:
    rng = stream(state.seed, "sample", state.round)
    out: list[Action] = []
    seen: set[str] = set()
    for _ in range(SAMPLE_NOTES * 2):
        faces = list(state.faces)
        if "choose-side" in state.effects:
            faces = [state.deck.cards[c].face(choice_index(2, rng)) for c in state.hand]
        tiers: list[str | None] = list(shuffled(faces, rng))
        if len(tiers) < TIER_COUNT:
            tiers.insert(choice_index(TIER_COUNT, rng), None)
        action: Action = {"type": "note", "tiers": tiers}
        if "place-one" in state.effects:
            action["hint"] = [t for t, p in enumerate(tiers) if p is not None][
                choice_index(len(faces), rng)]
        key = repr(action)
        if key not in seen:
            seen.add(key)
            out.append(action)
        if len(out) == SAMPLE_NOTES:
            break
    return out


# --- checking -------------------------------------------------------------------

def check(state: Coop, seat: Seat, action: object) -> None:
    act, kind = read_action(action, ACTIONS, state.over)
    if kind == "timeout":
        check_timeout(state, seat, act)
        return
    if kind == "void":
        check_void(act, seat, actors(state) if state.phase in SECRET_PHASES else (),
                   own=state.phase != "note")
        return
    need_player(seat, state.players)
    if kind == "note":
        raise IllegalAction(PLAIN_NOTE)
    if kind == "commit":
        check_commit(state, seat, act)
        return
    if kind in ("count", "reveal"):
        check_answer(state, seat, act, kind)
        return
    if state.phase == "note":
        raise IllegalAction(msg("Wait: the leader is still writing the note."))
    if state.phase != "guess":
        raise IllegalAction(msg("Wait: the leader's laptop is checking the board against the "
                                "note."))
    if seat == state.leader:
        raise IllegalAction(msg("You are the leader this round: stay silent while the others "
                                "guess."))
    if kind == "move":
        only_keys(act, "picture", "tier")
        check_move(state, act)
    elif kind == "lock":
        only_keys(act)
        if seat in state.locked:
            raise IllegalAction(msg("You are already locked in."))
        if not complete(state):
            raise IllegalAction(msg("Lay every picture on the board before you lock in."))
    else:
        only_keys(act)


def check_timeout(state: Coop, seat: Seat, act: Mapping[str, Any]) -> None:
    if seat != SYSTEM:
        raise IllegalAction(msg("Only the host's clock can end the time for guessing."))
    only_keys(act, "round", "attempt")
    if (state.phase != "guess" or act.get("round") != state.round
            or act.get("attempt") != state.attempt or not is_int(act.get("round"))
            or not is_int(act.get("attempt"))):
        raise IllegalAction(msg("That timer belongs to an attempt that is already over."))


def check_commit(state: Coop, seat: Seat, act: Mapping[str, Any]) -> None:
    """The note's commitment, with what the table must see of it: the face of each
    card ("choose the side") and the hint ("place one")."""
    need_note_writer(state.phase, state.leader, seat)
    sides = "choose-side" in state.effects
    hinted = "place-one" in state.effects
    only_keys(act, "commitment", *(("faces",) if sides else ()), *(("hint",) if hinted else ()))
    commitment_field(act)
    faces = list(state.faces)
    if sides:
        faces = act.get("faces")  # type: ignore[assignment]
        if not isinstance(faces, list) or len(faces) != len(state.hand):
            raise IllegalAction(msg("'faces' must give the side you chose of each of your {n} "
                                    "cards, in their order.", n=len(state.hand)))
        for c, face in zip(state.hand, faces, strict=True):
            card = state.deck.cards[c]
            if not isinstance(face, str) or face not in (card.front, card.back):
                raise IllegalAction(msg("Choose one side of each card: {front} or {back}.",
                                        front=picture_word(card.front, card.front_name),
                                        back=picture_word(card.back, card.back_name)))
    if hinted:
        hint = act.get("hint")
        if (not isinstance(hint, Mapping) or set(hint) != {"tier", "picture"}
                or not is_tier(hint["tier"]) or hint["picture"] not in faces):
            raise IllegalAction(msg("'Place one picture' is active: 'hint' names the tier and "
                                    "the picture you lay there, {{'tier': 0-4, 'picture': "
                                    "id}}."))


def check_answer(state: Coop, seat: Seat, act: Mapping[str, Any], kind: str) -> None:
    """The count after attempt 1, or the note at the reveal: only when asked, only
    from the leader (its laptop answers by itself)."""
    if state.phase != kind:
        raise IllegalAction(msg("The leader's laptop was not asked for that now."))
    if seat != state.leader:
        raise IllegalAction(msg("Only the leader's laptop knows the note."))
    if kind == "count":
        only_keys(act, "correct")
        right = act.get("correct")
        if not is_int(right) or not 0 <= right <= TIER_COUNT:
            raise IllegalAction(msg("'correct' must be the number of right pictures, 0 to 5."))
        return
    only_keys(act, "tiers", "salt")
    reveal_fields(act)


def note_problem(state: Coop, tiers: Sequence[Any]) -> Msg | None:
    """Why ``tiers`` is not a note of this round's pictures (the faces shown), or None."""
    if len(tiers) != TIER_COUNT or not all(p is None or isinstance(p, str) for p in tiers):
        return msg("the note must hold 5 entries, a picture id or nothing per tier")
    if sum(p is None for p in tiers) != TIER_COUNT - len(state.faces):
        return msg("the note leaves the wrong number of tiers empty")
    if sorted(p for p in tiers if p is not None) != sorted(state.faces):
        return msg("the note does not hold each picture of the round once")
    return None


def check_move(state: Coop, act: Mapping[str, Any]) -> None:
    picture = act.get("picture")
    if not isinstance(picture, str) or picture not in state.faces:
        raise IllegalAction(msg("'picture' must be one of this round's pictures."))
    if "tier" not in act:
        raise IllegalAction(msg("Say where: 'tier' from 0 (S) to 4 (D), or null for the "
                                "pool."))
    if act["tier"] is not None:
        tier_field(act)
    if state.hint is not None:
        if picture == state.board[state.hint]:
            raise IllegalAction(msg("That picture is the leader's hint: it stays where it is."))
        if act["tier"] == state.hint:
            raise IllegalAction(msg("That tier holds the leader's hint."))


def order_independent(state: Coop, seat: Seat, action: object) -> bool:
    """Moves and unlocks commute with other guessers' ones; a lock names the board seen."""
    return (isinstance(action, Mapping) and state.phase == "guess"
            and action.get("type") in ("move", "unlock"))


# --- applying -------------------------------------------------------------------

def apply(state: Coop, seat: Seat, action: Action) -> Coop:
    check(state, seat, action)
    kind = action["type"]
    if kind == "commit":
        return write_note(state, action)
    if kind == "move":
        return move(state, action["picture"], action["tier"])
    if kind == "lock":
        locked = tuple(sorted({*state.locked, seat}))
        after = replace(state, locked=locked)
        return submit(after) if len(locked) == len(state.guessers) else after
    if kind == "unlock":
        return replace(state, locked=tuple(s for s in state.locked if s != seat))
    if kind == "count":
        return told(state, action["correct"])
    if kind == "reveal":
        return reveal(state, list(action["tiers"]), action["salt"])
    if kind == "void":
        return void(state, "standin" if seat == SYSTEM else "lost")
    line = LogLine(msg("Time is up: the board is submitted as it lies."))
    return submit(replace(state, log=(*state.log, line)))


def write_note(state: Coop, action: Action) -> Coop:
    """The note is written: the host keeps its commitment, shows the faces and the hint."""
    faces = tuple(action["faces"]) if "faces" in action else state.faces
    after = replace(state, faces=faces, commitment=action["commitment"], phase="guess")
    lines = [LogLine(msg("{leader} has written the note. The topic: \u201c{topic}\u201d.",
                         leader=_seat(state.leader),
                         topic=topic(state.topic.id, state.topic.text)))]
    board: list[str | None] = [None] * TIER_COUNT
    hint = action.get("hint")
    if isinstance(hint, Mapping):
        board[hint["tier"]] = hint["picture"]
        lines.append(LogLine(msg("{leader} lays {picture} on tier {tier} as a hint.",
                                 leader=_seat(state.leader), picture=after.word(hint["picture"]),
                                 tier=TIERS[hint["tier"]])))
        after = replace(after, hint=hint["tier"])
    return replace(after, board=tuple(board), log=(*state.log, *lines))


def move(state: Coop, picture: str, tier: int | None) -> Coop:
    board = list(state.board)
    source = board.index(picture) if picture in board else None
    if source == tier:
        return state
    if tier is None:
        assert source is not None
        board[source] = None
    else:
        occupant = board[tier]
        board[tier] = picture
        if source is not None:
            board[source] = occupant
    return replace(state, board=tuple(board), locked=(), moves=state.moves + 1)


def correct_count(note: Sequence[str | None], board: Sequence[str | None]) -> int:
    """Pictures on the right tier, plus the empty tier of "take four" when it matches."""
    right = sum(1 for t in range(TIER_COUNT) if note[t] is not None and board[t] == note[t])
    if None in note and sum(p is None for p in board) == 1 and board[note.index(None)] is None:
        right += 1
    return right


def token_steps(correct: int) -> tuple[int, int]:
    """(green, red) steps for a final count."""
    if correct >= 4:
        return 2, 0
    if correct == 3:
        return 1, 0
    if correct >= 1:
        return 0, 1
    return 0, 2


def submit(state: Coop) -> Coop:
    """The board is in: after attempt 1 the leader's laptop counts it (unless the
    first attempt is final), after the last attempt it reveals the note."""
    if state.attempt == 1 and "no-second" not in state.effects:
        return replace(state, phase="count", counted=state.board)
    return replace(state, phase="reveal")


def told(state: Coop, right: int) -> Coop:
    """The count of attempt 1, as the leader's laptop tells it (checked at the reveal)."""
    if right == TIER_COUNT:
        line = LogLine(msg("First attempt: 5 correct."))
        return replace(state, phase="reveal", count=right, log=(*state.log, line),
                       last={"kind": "count", "correct": right})
    line = LogLine(msg("First attempt: {n} correct. One more attempt.", n=right))
    return replace(state, phase="guess", attempt=2, count=right, locked=(), moves=0,
                   log=(*state.log, line), last={"kind": "count", "correct": right})


def lies(state: Coop, note: Board) -> list[Msg]:
    """What the leader's laptop told before the reveal that the note says otherwise."""
    out = []
    if state.counted is not None and state.count is not None:
        truth = correct_count(note, state.counted)
        if truth != state.count:
            out.append(msg("said {count} correct after the first attempt, but the note gives "
                           "{truth}", count=state.count, truth=truth))
    if state.hint is not None and note[state.hint] != state.board[state.hint]:
        out.append(msg("laid {picture} on {tier} as the hint, but the note has it elsewhere",
                       picture=state.word(state.board[state.hint]), tier=TIERS[state.hint]))
    return out


def reveal(state: Coop, tiers: list[Any], salt: str) -> Coop:
    """The note, checked against its commitment; the round scored from it."""
    if not matches(state.commitment, tiers, salt) or note_problem(state, tiers):
        return void(state, "mismatch")
    note: Board = tuple(tiers)
    right = correct_count(note, state.board)
    lines = [LogLine(msg("{leader}'s laptop {lie}.", leader=_seat(state.leader), lie=lie))
             for lie in lies(state, note)]
    if lines:
        lines.append(LogLine(msg("{leader} is named for it; the round is scored from the note.",
                                 leader=_seat(state.leader))))
    return score(replace(state, note=note, log=(*state.log, *lines)), right)


def score(state: Coop, right: int) -> Coop:
    assert state.note is not None
    up, down = token_steps(right)
    green, red = min(state.star, state.green + up), min(state.star, state.red + down)
    moved = (msg_n("green moves up {n} step", "green moves up {n} steps", up) if up
             else msg_n("red moves down {n} step", "red moves down {n} steps", down))
    written = items([msg("{tier} {picture}", tier=TIERS[t], picture=state.word(p))
                     for t, p in enumerate(state.note)])
    lines = [LogLine(msg("{leader}'s note: {note}. {right} of 5 correct: {moved}.",
                         leader=_seat(state.leader), note=written, right=right, moved=moved))]
    effects = active_effects(state.text_side, green, red)
    for effect in effects[len(state.effects):]:
        lines.append(LogLine(msg("Effect from the next round: {effect}.",
                                 effect=msg(EFFECT_NAMES[effect]))))
    # "kind" and "correct" first, as in the count event: a delta keeps key order.
    last = freeze({"kind": "reveal", "correct": right, "note": list(state.note),
                   "board": list(state.board), "green": up, "red": down})
    after = replace(state, green=green, red=red, deck=state.deck.discarding(state.hand),
                    last=last, count=state.count if state.attempt == 2 else None)
    if green >= state.star:
        lines.append(LogLine(msg("The green token reaches the star: victory for everyone!")))
    elif red >= state.star:
        lines.append(LogLine(msg("The red token reaches the star: the game is lost.")))
    after = replace(after, log=(*state.log, *lines))
    if green >= state.star or red >= state.star:
        return replace(after, phase="over", locked=())
    return start_round(replace(after, effects=effects), (state.leader + 1) % state.players)


VOID_WHY = {
    "standin": N_("A stand-in plays for {leader} and cannot know a note kept on their laptop"),
    "lost": N_("{leader}'s laptop no longer has the note"),
    "mismatch": N_("{leader}'s laptop revealed a note that is not the one it committed to"),
}


def void(state: Coop, why: str) -> Coop:
    """No note can be had (or the one revealed is not the one committed to): the round
    scores nothing and the next leader leads."""
    line = LogLine(msg("{why}: round {round} is void, no token moves.",
                       why=msg(VOID_WHY[why], leader=_seat(state.leader)), round=state.round))
    after = replace(state, deck=state.deck.discarding(state.hand), log=(*state.log, line),
                    last={"kind": "void", "correct": None})
    return start_round(after, (state.leader + 1) % state.players)


# --- reading ---------------------------------------------------------------------

def result(state: Coop) -> Result | None:
    if not state.over:
        return None
    won = state.green >= state.star
    winners = tuple(range(state.players)) if won else ()
    # The rulebook's end: whichever token reaches the star first decides (one token
    # moves a round, so never both); ``why`` says which, for the end screen.
    why = (msg("The green token reached the star before the red one.") if won
           else msg("The red token reached the star before the green one."))
    return Result(winners, tuple(float(state.green) for _ in range(state.players)),
                  {"outcome": "victory" if won else "defeat", "why": why.to_wire(),
                   "rounds": state.round, "seed": state.seed})


def timer(state: Coop, options: Mapping[str, Any]) -> Timer | None:
    seconds = options.get("guess_seconds", state.guess_seconds)
    if state.phase != "guess" or not seconds:
        return None
    return Timer(f"guess-{state.round}-{state.attempt}", float(seconds),
                 {"type": "timeout", "round": state.round, "attempt": state.attempt})


def view(state: Coop, viewer: Viewer) -> View:
    leads = viewer == state.leader
    secret = state.phase == "note" and not leads
    res = result(state)
    hint = None if state.hint is None else {"picture": state.board[state.hint],
                                            "tier": state.hint}
    cards = []
    if leads and state.phase == "note" and "choose-side" in state.effects:
        for c in state.hand:
            card = state.deck.cards[c]
            cards.append([card.front, card.front_name, card.back, card.back_name])
    seconds = state.guess_seconds
    return framed_view(state, MODE, viewer, actors(state), res, {
        "topic": None if secret else state.topic.to_view(),
        "pictures": [] if secret else [{"id": p, "name": state.name(p)} for p in state.faces],
        "leader": state.leader, "leaders": [],
        "note": list(state.note) if state.note is not None and (leads or state.over) else None,
        "commitment": state.commitment,
        "cards": cards,
        "board": list(state.board),
        "guessers": list(state.guessers),
        "locked": list(state.locked),
        "attempt": state.attempt,
        "count": state.count,
        "moves": state.moves,
        "hint": hint,
        "track": {"green": state.green, "red": state.red, "star": state.star},
        "effects": list(state.effects),
        "text_side": state.text_side,
        "timer": ({"key": f"guess-{state.round}-{state.attempt}", "seconds": seconds}
                  if state.phase == "guess" and seconds else None),
    })


def hidden_variant(state: Coop, viewer: Viewer, rng: random.Random) -> Coop:
    """Reshuffle the deck and future topics, and the hand and topic when unseen (the
    note is not in the state before its reveal: the leader's laptop keeps it)."""
    deck = state.deck.shuffled_order(rng)
    leads = viewer == state.leader
    topics = unseen_topics(state.topics, state.round, state.phase == "note" and not leads, rng)
    out = replace(state, deck=deck, topics=topics)
    if state.phase == "note" and not leads:
        mixed = shuffled([*state.hand, *deck.order], rng)
        hand = tuple(mixed[:len(state.hand)])
        faces = tuple(deck.cards[c].face(choice_index(2, rng)) for c in hand)
        out = replace(out, hand=hand, faces=faces,
                      deck=replace(deck, order=tuple(mixed[len(hand):])))
    return out
