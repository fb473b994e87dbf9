"""S-tier competitive mode (4-11): each guesser places one picture of the leader's note.

Decisions where the rulebook is silent (also in help.md):

* The first leader is drawn by the shared generator, then the role passes
  clockwise; the game ends when every player has led once.
* The round's pictures (max(players - 1, 5)) lie face up from the start;
  the leader writes a tier per picture (no empty tier, at most 2 per tier),
  then the program deals one picture to each guesser with the seeded stream
  ("deal", round), clockwise from the leader's left; the rest are extras.
* Placements are secret until everyone has placed (the digital "without
  discussion"); a placement is final. The ``place_seconds`` timer counts an
  unplaced picture as wrong.
* The note stays on the leader's laptop (DESIGN.md "Fair play"): the host
  gets its commitment, and the note itself once everyone has placed (no
  count is needed before). A reveal that does not match the commitment, or
  a leader whose note cannot be had (a stand-in, or a laptop that lost it),
  voids the round: nobody scores, and it counts as that leader's turn.
* "At least half" is ceil(guessers / 2). The leader's victory pictures are
  counted as points (the deck is not emptied by them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from lanplay.content.library import Library
from lanplay.game import (
    SYSTEM,
    Action,
    IllegalAction,
    Result,
    Seat,
    Timer,
    View,
    Viewer,
    per_state,
)
from lanplay.games.s_tier.common import (
    PLAIN_NOTE,
    TIER_COUNT,
    TIERS,
    Deck,
    LogLine,
    Topic,
    ceil_half,
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
    names,
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

MODE = "competitive"
MIN_PLAYERS, MAX_PLAYERS = 4, 11
PLACE_SECONDS = (0, 30, 60, 120)
MAX_PER_TIER = 2
SAMPLE_NOTES = 24
ACTIONS = ("commit", "place", "reveal", "void", "note")
SECRET_PHASES = ("note", "reveal")
"""The phases in which the host waits for the leader's laptop."""


@dataclass(frozen=True)
class Competitive(OneLeader):
    players: int
    seed: int
    place_seconds: int
    deck: Deck
    topics: tuple[Topic, ...]
    round: int
    leader: Seat
    phase: str
    hand: tuple[int, ...] = ()
    faces: tuple[str, ...] = ()
    note: tuple[int, ...] | None = None
    """The revealed note (None until the reveal; the leader's laptop keeps it)."""
    commitment: str | None = None
    dealt: tuple[str | None, ...] = ()
    placed: tuple[int | None, ...] = ()
    won: tuple[int, ...] = ()
    led: tuple[Seat, ...] = ()
    log: tuple[LogLine, ...] = ()
    last: Mapping[str, Any] | None = None

    def name(self, picture: str | None) -> str:
        found = self.deck.name_in(self.hand, picture)
        return str(picture) if found is None else found

    def word(self, picture: str | None) -> Content:
        """A picture of this round as a message argument."""
        return picture_word(picture, self.name(picture))


def picture_count(players: int) -> int:
    return max(players - 1, 5)


def setup(players: int, options: Mapping[str, Any], seed: int, library: Library) -> Competitive:
    check_players(MODE, MIN_PLAYERS, MAX_PLAYERS, players)
    seconds = int_option(options, "place_seconds", 60, PLACE_SECONDS)
    deck, topics = load_content(library, seed)
    state = Competitive(players=players, seed=seed, place_seconds=seconds, deck=deck,
                        topics=topics, round=0, leader=first_seat(players, seed), phase="note",
                        won=(0,) * players)
    return start_round(state, state.leader)


def start_round(state: Competitive, leader: Seat) -> Competitive:
    round_no = state.round + 1
    hand, deck = state.deck.draw(picture_count(state.players), state.seed)
    line = LogLine(msg("Round {round}: {leader} leads and writes the note.", round=round_no,
                       leader=_seat(leader)))
    return replace(state, deck=deck, round=round_no, leader=leader, phase="note", hand=hand,
                   faces=default_faces(deck, hand, state.seed, round_no), note=None,
                   commitment=None,
                   dealt=(None,) * state.players, placed=(None,) * state.players,
                   led=(*state.led, leader), log=(*state.log, line))


def actors(state: Competitive) -> frozenset[Seat]:
    if state.phase in SECRET_PHASES:
        return frozenset({state.leader})
    if state.phase == "place":
        return frozenset(s for s in state.guessers if state.placed[s] is None)
    return frozenset()


def legal(state: Competitive, seat: Seat) -> list[Action]:
    if seat not in actors(state):
        return []
    if state.phase == "place":
        return [{"type": "place", "tier": t} for t in range(TIER_COUNT)]
    if state.phase == "reveal":
        return [{"type": "void"}]  # the reveal itself only the leader's laptop knows
    salts = stream(state.seed, "sample-salt", state.round)
    return [{"type": "commit", "commitment": sample_commitment(note["tiers"], salts)}
            for note in sample_notes(len(state.faces), stream(state.seed, "sample", state.round))]


def sample_notes(count: int, rng: random.Random) -> list[Action]:
    """Random notes with every tier used and at most two pictures per tier."""
    out: list[Action] = []
    seen: set[tuple[int, ...]] = set()
    for _ in range(SAMPLE_NOTES * 2):
        doubles = shuffled(range(TIER_COUNT), rng)[:count - TIER_COUNT]
        tiers = [*range(TIER_COUNT), *doubles]
        note = tuple(shuffled(tiers, rng))
        if note not in seen:
            seen.add(note)
            out.append({"type": "note", "tiers": list(note)})
        if len(out) == SAMPLE_NOTES:
            break
    return out


def note_problem(tiers: object, count: int) -> Msg | None:
    """Why ``tiers`` is not a valid competitive note for ``count`` pictures, or None."""
    if not isinstance(tiers, list) or len(tiers) != count:
        return msg("'tiers' must give a tier for each of the {n} pictures, in their order.",
                   n=count)
    if not all(is_tier(t) for t in tiers):
        return msg("Each entry of 'tiers' is a tier from 0 (S) to 4 (D).")
    used = [tiers.count(t) for t in range(TIER_COUNT)]
    if 0 in used:
        return msg("No tier may stay empty: put a picture in {tier}.",
                   tier=TIERS[used.index(0)])
    if max(used) > MAX_PER_TIER:
        return msg("At most 2 pictures per tier: {tier} has {n}.",
                   tier=TIERS[used.index(max(used))], n=max(used))
    return None


def check(state: Competitive, seat: Seat, action: object) -> None:
    act, kind = read_action(action, ACTIONS, state.over)
    if kind == "timeout":
        if seat != SYSTEM:
            raise IllegalAction(msg("Only the host's clock can end the time for placing."))
        only_keys(act, "round", "phase")
        if (state.phase != "place" or not is_int(act.get("round"))
                or act.get("round") != state.round or act.get("phase") != "place"):
            raise IllegalAction(msg("That timer belongs to a round that is already scored."))
        return
    if kind == "void":
        check_void(act, seat, actors(state) if state.phase in SECRET_PHASES else (),
                   own=state.phase == "reveal")
        return
    need_player(seat, state.players)
    if kind == "note":
        raise IllegalAction(PLAIN_NOTE)
    if kind == "commit":
        need_note_writer(state.phase, state.leader, seat)
        only_keys(act, "commitment")
        commitment_field(act)
        return
    if kind == "reveal":
        if state.phase != "reveal":
            raise IllegalAction(msg("The note is revealed when everyone has placed."))
        if seat != state.leader:
            raise IllegalAction(msg("Only the leader's laptop knows the note."))
        only_keys(act, "tiers", "salt")
        reveal_fields(act)
        return
    if state.phase == "note":
        raise IllegalAction(msg("Wait: the leader is still writing the note."))
    if state.phase != "place":
        raise IllegalAction(msg("Everyone has placed: the leader's laptop reveals the note."))
    if seat == state.leader:
        raise IllegalAction(msg("You are the leader this round: you place nothing."))
    if state.placed[seat] is not None:
        raise IllegalAction(msg("You have already placed your picture."))
    only_keys(act, "tier")
    tier_field(act)


def order_independent(state: Competitive, seat: Seat, action: object) -> bool:
    """Each guesser places only their own picture, so placements commute."""
    return (isinstance(action, Mapping) and state.phase == "place"
            and action.get("type") == "place")


def apply(state: Competitive, seat: Seat, action: Action) -> Competitive:
    check(state, seat, action)
    kind = action["type"]
    if kind == "commit":
        return deal(replace(state, commitment=action["commitment"], phase="place"))
    if kind == "place":
        placed = list(state.placed)
        placed[seat] = action["tier"]
        after = replace(state, placed=tuple(placed),
                        log=(*state.log, LogLine(msg("{actor} has placed their picture.",
                                                     actor=_seat(seat)))))
        return replace(after, phase="reveal") if not actors(after) else after
    if kind == "reveal":
        return reveal(state, list(action["tiers"]), action["salt"])
    if kind == "void":
        return void(state, "standin" if seat == SYSTEM else "lost")
    missing = [s for s in state.guessers if state.placed[s] is None]
    line = LogLine(msg("Time is up for {late}: unplaced pictures count as wrong.",
                       late=names(missing)), tuple(missing))
    return replace(state, phase="reveal", log=(*state.log, line))


def deal(state: Competitive) -> Competitive:
    order = shuffled(range(len(state.faces)), stream(state.seed, "deal", state.round))
    dealt: list[str | None] = [None] * state.players
    for i, seat in enumerate((state.leader + k) % state.players
                             for k in range(1, state.players)):
        dealt[seat] = state.faces[order[i]]
    line = LogLine(msg("{leader} has written the note. The topic: \u201c{topic}\u201d. The "
                       "pictures are dealt.", leader=_seat(state.leader),
                       topic=topic(state.topic.id, state.topic.text)))
    return replace(state, dealt=tuple(dealt), log=(*state.log, line))


def reveal(state: Competitive, tiers: list[Any], salt: str) -> Competitive:
    """The note, checked against its commitment; the round scored from it."""
    if not matches(state.commitment, tiers, salt) or note_problem(tiers, len(state.faces)):
        return void(state, "mismatch")
    return score(replace(state, note=tuple(tiers)))


VOID_WHY = {
    "standin": N_("A stand-in plays for {leader} and cannot know a note kept on their laptop"),
    "lost": N_("{leader}'s laptop no longer has the note"),
    "mismatch": N_("{leader}'s laptop revealed a note that is not the one it committed to"),
}


def void(state: Competitive, why: str) -> Competitive:
    """No note can be had: nobody scores this round, which still was the leader's turn."""
    line = LogLine(msg("{why}: round {round} is void, nobody scores.",
                       why=msg(VOID_WHY[why], leader=_seat(state.leader)), round=state.round))
    last = freeze({"kind": "void", "note": None, "placements": list(state.placed),
                   "correct": [], "leader_gain": 0, "leader": state.leader,
                   "pictures": [{"id": p, "name": state.name(p)} for p in state.faces],
                   "dealt": list(state.dealt)})
    after = replace(state, last=last, deck=state.deck.discarding(state.hand),
                    log=(*state.log, line))
    return next_round(after)


def score(state: Competitive) -> Competitive:
    assert state.note is not None
    truth = dict(zip(state.faces, state.note, strict=True))
    correct = tuple(s for s in state.guessers
                    if state.placed[s] is not None and truth[state.dealt[s] or ""]
                    == state.placed[s])
    guessers = len(state.guessers)
    gain = 2 if len(correct) == guessers else 1 if len(correct) >= ceil_half(guessers) else 0
    won = list(state.won)
    for s in correct:
        won[s] += 1
    won[state.leader] += gain
    written = items([msg("{picture} {tier}", picture=state.word(p), tier=TIERS[t])
                     for p, t in truth.items()])
    lines = [LogLine(msg("{leader}'s note: {note}.", leader=_seat(state.leader), note=written))]
    if correct:
        lines.append(LogLine(msg("{right} guessed right and keep their picture.",
                                 right=names(correct)), correct))
    else:
        lines.append(LogLine(msg("Nobody guessed right.")))
    if gain:
        lines.append(LogLine(msg_n("{leader} takes {n} victory picture.",
                                   "{leader} takes {n} victory pictures.", gain,
                                   leader=_seat(state.leader))))
    # Self-contained (a fresh snapshot draws the reveal from it alone), all of it
    # public once revealed; one kind, so the keys and their order never change.
    last = freeze({"kind": "reveal", "note": list(state.note), "placements": list(state.placed),
                   "correct": list(correct), "leader_gain": gain, "leader": state.leader,
                   "pictures": [{"id": p, "name": state.name(p)} for p in state.faces],
                   "dealt": list(state.dealt)})
    kept = {state.dealt[s] for s in correct}
    after = replace(state, won=tuple(won), last=last,
                    deck=state.deck.discarding_unkept(state.hand, kept), log=(*state.log, *lines))
    return next_round(after)


def next_round(after: Competitive) -> Competitive:
    """The next leader's round, or the end once everyone has led."""
    state, won = after, after.won
    if len(state.led) == state.players:
        best = max(won)
        winners = tuple(s for s in range(state.players) if won[s] == best)
        if len(winners) == 1:
            said = msg_n("Everyone has led. {winner} wins with {n} picture.",
                         "Everyone has led. {winner} wins with {n} pictures.", best,
                         winner=_seat(winners[0]))
        elif len(winners) == state.players:  # the rulebook: "In case of a tie, it is a draw."
            said = msg_n("Everyone has led. It is a draw: everyone has {n} picture.",
                         "Everyone has led. It is a draw: everyone has {n} pictures.", best)
        else:
            said = msg_n("Everyone has led. {winners} share the win with {n} picture.",
                         "Everyone has led. {winners} share the win with {n} pictures.", best,
                         winners=names(winners))
        end = LogLine(said, winners)
        return replace(after, phase="over", log=(*after.log, end))
    return start_round(after, (state.leader + 1) % state.players)


def result(state: Competitive) -> Result | None:
    if not state.over:
        return None
    best = max(state.won)
    winners = tuple(s for s in range(state.players) if state.won[s] == best)
    return Result(winners, tuple(float(w) for w in state.won), {"seed": state.seed})


def timer(state: Competitive, options: Mapping[str, Any]) -> Timer | None:
    seconds = options.get("place_seconds", state.place_seconds)
    if state.phase != "place" or not seconds:
        return None
    return Timer(f"place-{state.round}", float(seconds),
                 {"type": "timeout", "round": state.round, "phase": "place"})


def view(state: Competitive, viewer: Viewer) -> View:
    leads = viewer == state.leader
    own = viewer is not None and 0 <= viewer < state.players
    public = per_state(state, "_public_view", lambda: _public_view(state))
    return framed_view(state, MODE, viewer, actors(state), result(state), {
        "topic": None if state.phase == "note" and not leads else public["topic"],
        "pictures": public["pictures"],
        "leader": state.leader, "leaders": public["leaders"],
        "note": list(state.note) if state.note is not None and (leads or state.over) else None,
        "commitment": state.commitment,
        "dealt": public["dealt"],
        "extra": public["extra"],
        "placed": state.placed[viewer] if own and viewer is not None else None,
        **public["rest"],
    })


def _public_view(state: Competitive) -> dict[str, Any]:
    """The parts of the view every viewer sees alike, built once per state (up to 16
    viewers' views share them, and the host's diff looks at each once)."""
    dealt_public = state.phase != "note"
    return {
        "topic": state.topic.to_view(),
        "pictures": [{"id": p, "name": state.name(p)} for p in state.faces],
        "leaders": [],
        "dealt": list(state.dealt) if dealt_public else [None] * state.players,
        "extra": [p for p in state.faces if p not in state.dealt] if dealt_public else [],
        "rest": {
            "answered": [p is not None for p in state.placed],
            "won": list(state.won),
            "led": list(state.led),
            "timer": ({"key": f"place-{state.round}", "seconds": state.place_seconds}
                      if state.phase == "place" and state.place_seconds else None),
        },
    }


def hidden_variant(state: Competitive, viewer: Viewer, rng: random.Random) -> Competitive:
    """Reshuffle the deck and unseen topics, and others' placements until the reveal
    (the note is not in the state before it: the leader's laptop keeps it)."""
    leads = viewer == state.leader
    topics = unseen_topics(state.topics, state.round, state.phase == "note" and not leads, rng)
    out = replace(state, deck=state.deck.shuffled_order(rng), topics=topics)
    if state.phase in ("place", "reveal"):
        placed = tuple(p if p is None or s == viewer else choice_index(TIER_COUNT, rng)
                       for s, p in enumerate(state.placed))
        out = replace(out, placed=placed)
    return out
