"""S-tier team mode (4-16): two teams guess both leaders' notes, picture by picture.

Decisions where the rulebook is silent (also in help.md):

* Teams: seat % 2 (Green = even seats, Red = odd seats); the host forms teams
  by ordering seats. Each team's first leader is drawn by the shared
  generator; leaders then rotate within each team.
* The team whose leader's note arrives first moves first; the teams then
  alternate one take at a time until all 10 pictures are taken. Any non-leader
  of the team to move may take (the first to act decides for the team).
* After a team takes its own leader's picture, that leader is asked
  "Wrong?" every time while the round's Wrong is unused (right or wrong
  placement alike, so the question reveals nothing); "Wrong" is only
  possible when the placement is wrong. The team then moves the picture to
  another tier.
* The notes stay on the leaders' laptops (DESIGN.md "Fair play"): the host
  gets each note's commitment; a leader's laptop refuses a "Wrong" its note
  gives the lie (``secret.seal``), and the host checks every "Wrong" at the
  reveal, when both laptops send their notes once every picture is taken. A
  "Wrong" the note does not bear out (a modified laptop's) names the leader,
  and the picture is scored where it lay when the leader said it. A reveal that
  does not match its commitment, or a leader whose note cannot be had (a
  stand-in, or a laptop that lost it), voids the round for both teams.
* The team with more correct pictures this round moves one step; a tie
  (0-0 included) moves both. Track: ``team_track`` steps (default 5). Both
  tokens at the star together: more pictures over all rounds wins, else a
  draw (every seat wins).
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
    check_players,
    check_void,
    commitment_field,
    default_faces,
    freeze,
    int_option,
    load_content,
    matches,
    need_player,
    only_keys,
    picture_word,
    read_action,
    reveal_fields,
    sample_commitment,
    tier_field,
)
from lanplay.games.s_tier.rounds import Rounds, framed_view, unseen_topics
from lanplay.messages import N_, Content, Msg, items, msg, topic
from lanplay.messages import seat as _seat
from lanplay.rng import choice_index, shuffled, stream

MODE = "team"
MIN_PLAYERS, MAX_PLAYERS = 4, 16
TRACKS = (3, 4, 5, 6, 7, 8)
TEAM_NAMES = (N_("Green"), N_("Red"))
SAMPLE_NOTES = 24
ACTIONS = ("commit", "take", "wrong", "silent", "move", "reveal", "void", "note")
SECRET_PHASES = ("notes", "reveal")
"""The phases in which the host waits for leaders' laptops."""
PER_LEADER = 5


@dataclass(frozen=True)
class Team(Rounds):
    """``pictures`` order: team 0's leader's five, then team 1's; per picture the
    team that took it and the tier it lies on. Before the reveal the state holds
    each note's ``commitments`` and each "Wrong" said (``claims``: the picture
    and the tier it lay on); ``notes`` are the revealed notes."""

    players: int
    seed: int
    star: int
    deck: Deck
    topics: tuple[Topic, ...]
    round: int
    offsets: tuple[int, int]
    phase: str
    hands: tuple[tuple[int, ...], ...] = ((), ())
    faces: tuple[tuple[str, ...], ...] = ((), ())
    notes: tuple[tuple[str, ...] | None, ...] = (None, None)
    commitments: tuple[str | None, ...] = (None, None)
    claims: tuple[tuple[int, int] | None, ...] = (None, None)
    turn: int | None = None
    takers: tuple[int | None, ...] = (None,) * 10
    placed: tuple[int | None, ...] = (None,) * 10
    wrong_used: tuple[bool, bool] = (False, False)
    pending: tuple[int, int] | None = None
    steps: tuple[int, int] = (0, 0)
    round_pictures: tuple[int, int] | None = None
    total: tuple[int, int] = (0, 0)
    log: tuple[LogLine, ...] = ()
    last: Mapping[str, Any] | None = None

    @property
    def teams(self) -> tuple[tuple[Seat, ...], tuple[Seat, ...]]:
        return per_state(self, "_teams", lambda: teams_of(self.players))

    @property
    def leaders(self) -> tuple[Seat, Seat]:
        return per_state(self, "_leaders", self._leaders)

    def _leaders(self) -> tuple[Seat, Seat]:
        t0, t1 = self.teams
        r = self.round - 1
        return (t0[(self.offsets[0] + r) % len(t0)], t1[(self.offsets[1] + r) % len(t1)])

    @property
    def pictures(self) -> tuple[str, ...]:
        return (*self.faces[0], *self.faces[1])

    def owner(self, index: int) -> int:
        return index // PER_LEADER

    def truth(self, index: int) -> int | None:
        note = self.notes[self.owner(index)]
        return None if note is None else note.index(self.pictures[index])

    def takers_of(self, team: int) -> tuple[Seat, ...]:
        """Who acts for ``team``: its non-leaders (its leader if it has none)."""
        rest = tuple(s for s in self.teams[team] if s != self.leaders[team])
        return rest or (self.leaders[team],)

    def name(self, picture: str) -> str:
        names = per_state(self, "_names", dict[str, str])
        found = names.get(picture)
        if found is None:
            named = self.deck.name_in((c for hand in self.hands for c in hand), picture)
            found = names[picture] = picture if named is None else named
        return found

    def word(self, picture: str) -> Content:
        """A picture of this round as a message argument."""
        return picture_word(picture, self.name(picture))


def teams_of(players: int) -> tuple[tuple[Seat, ...], tuple[Seat, ...]]:
    return (tuple(range(0, players, 2)), tuple(range(1, players, 2)))


def setup(players: int, options: Mapping[str, Any], seed: int, library: Library) -> Team:
    check_players(MODE, MIN_PLAYERS, MAX_PLAYERS, players)
    star = int_option(options, "team_track", 5, TRACKS)
    deck, topics = load_content(library, seed)
    t0, t1 = teams_of(players)
    offsets = (choice_index(len(t0), stream(seed, "first", 0)),
               choice_index(len(t1), stream(seed, "first", 1)))
    state = Team(players=players, seed=seed, star=star, deck=deck, topics=topics, round=0,
                 offsets=offsets, phase="notes")
    return start_round(state)


def start_round(state: Team) -> Team:
    round_no = state.round + 1
    hand0, deck = state.deck.draw(PER_LEADER, state.seed)
    hand1, deck = deck.draw(PER_LEADER, state.seed)
    after = replace(state, deck=deck, round=round_no, phase="notes", hands=(hand0, hand1),
                    faces=(default_faces(deck, hand0, state.seed, round_no, "green"),
                           default_faces(deck, hand1, state.seed, round_no, "red")),
                    notes=(None, None), commitments=(None, None), claims=(None, None),
                    turn=None, takers=(None,) * 10, placed=(None,) * 10,
                    wrong_used=(False, False), pending=None)
    line = LogLine(msg("Round {round}: {green} leads Green, {red} leads Red; both write a note.",
                       round=round_no, green=_seat(after.leaders[0]),
                       red=_seat(after.leaders[1])), after.leaders)
    return replace(after, log=(*state.log, line))


# --- who acts ------------------------------------------------------------------------

def actors(state: Team) -> frozenset[Seat]:
    """Who may act now; worked out once per state (each of up to 17 viewers' views, its
    offers and every check ask for it, and a state never changes)."""
    return per_state(state, "_actors", lambda: _actors(state))


def _actors(state: Team) -> frozenset[Seat]:
    if state.phase == "notes":
        return frozenset(state.leaders[t] for t in (0, 1) if state.commitments[t] is None)
    if state.phase == "reveal":
        return frozenset(state.leaders[t] for t in (0, 1) if state.notes[t] is None)
    if state.phase == "take" and state.turn is not None:
        return frozenset(state.takers_of(state.turn))
    if state.phase in ("wrong", "fix") and state.pending is not None:
        team = state.pending[1]
        return frozenset({state.leaders[team]} if state.phase == "wrong"
                         else state.takers_of(team))
    return frozenset()


def legal(state: Team, seat: Seat) -> list[Action]:
    if seat not in actors(state):
        return []
    if state.phase == "notes":
        team = state.leaders.index(seat)
        rng = stream(state.seed, "sample", state.round, team)
        salts = stream(state.seed, "sample-salt", state.round, team)
        seen: set[tuple[str, ...]] = set()
        out: list[Action] = []
        for _ in range(SAMPLE_NOTES * 2):
            note = tuple(shuffled(state.faces[team], rng))
            if note not in seen:
                seen.add(note)
                out.append({"type": "commit", "commitment": sample_commitment(note, salts)})
        return out[:SAMPLE_NOTES]
    if state.phase == "reveal":
        return [{"type": "void"}]  # the reveal itself only the leader's laptop knows
    if state.phase == "take":
        return [{"type": "take", "picture": p, "tier": t}
                for i, p in enumerate(state.pictures) if state.takers[i] is None
                for t in range(TIER_COUNT)]
    assert state.pending is not None
    index = state.pending[0]
    if state.phase == "wrong":
        return [{"type": "silent"}, {"type": "wrong"}]  # only the leader's laptop knows which
    return [{"type": "move", "picture": state.pictures[index], "tier": t}
            for t in range(TIER_COUNT) if t != state.placed[index]]


# --- checking ----------------------------------------------------------------------

def check(state: Team, seat: Seat, action: object) -> None:
    act, kind = read_action(action, ACTIONS, state.over)
    if kind == "timeout":
        raise IllegalAction(msg("Team mode has no timers."))
    if kind == "void":
        check_void(act, seat, actors(state) if state.phase in SECRET_PHASES else (),
                   own=state.phase == "reveal")
        return
    need_player(seat, state.players)
    if kind == "note":
        raise IllegalAction(PLAIN_NOTE)
    if kind == "commit":
        check_commit(state, seat, act)
        return
    if kind == "reveal":
        if state.phase != "reveal":
            raise IllegalAction(msg("The notes are revealed when every picture is taken."))
        if seat not in actors(state):
            raise IllegalAction(msg("Only a leader whose note is not yet revealed can reveal "
                                    "it."))
        only_keys(act, "tiers", "salt")
        reveal_fields(act)
        return
    if state.phase == "notes":
        raise IllegalAction(msg("Wait: the leaders are still writing their notes."))
    if state.phase == "reveal":
        raise IllegalAction(msg("Every picture is taken: the leaders' laptops reveal the "
                                "notes."))
    if seat in state.leaders and kind in ("take", "move") and seat not in actors(state):
        raise IllegalAction(msg("Leaders stay silent: their team-mates place the pictures."))
    if kind == "take":
        check_take(state, seat, act)
    elif kind in ("wrong", "silent"):
        if state.phase != "wrong" or seat not in actors(state):
            raise IllegalAction(msg("Only a leader whose picture was just placed by their own "
                                    "team can say 'Wrong' or stay silent."))
        only_keys(act)
    else:
        check_fix(state, seat, act)


def check_commit(state: Team, seat: Seat, act: Mapping[str, Any]) -> None:
    if state.phase != "notes":
        raise IllegalAction(msg("The notes for this round are already written."))
    if seat not in state.leaders:
        raise IllegalAction(msg("Only the two leaders write notes."))
    team = state.leaders.index(seat)
    if state.commitments[team] is not None:
        raise IllegalAction(msg("You have already written your note."))
    only_keys(act, "commitment")
    commitment_field(act)


def note_problem(state: Team, team: int, tiers: list[Any]) -> Msg | None:
    if (len(tiers) != TIER_COUNT or not all(isinstance(p, str) for p in tiers)
            or sorted(tiers) != sorted(state.faces[team])):
        return msg("the note does not hold each of the leader's pictures once")
    return None


def check_take(state: Team, seat: Seat, act: Mapping[str, Any]) -> None:
    if state.phase != "take":
        raise IllegalAction(msg("Wait: a picture just placed is being checked."))
    assert state.turn is not None
    if seat not in actors(state):
        raise IllegalAction(msg("It is team {team}'s turn to take a picture.",
                                team=msg(TEAM_NAMES[state.turn])))
    only_keys(act, "picture", "tier")
    picture = act.get("picture")
    if not isinstance(picture, str) or picture not in state.pictures:
        raise IllegalAction(msg("'picture' must be one of this round's pictures."))
    if state.takers[state.pictures.index(picture)] is not None:
        raise IllegalAction(msg("That picture has already been taken."))
    tier_field(act)


def check_fix(state: Team, seat: Seat, act: Mapping[str, Any]) -> None:
    if state.phase != "fix" or seat not in actors(state) or state.pending is None:
        raise IllegalAction(msg("A picture is moved only after the team's leader says "
                                "'Wrong'."))
    only_keys(act, "picture", "tier")
    index = state.pending[0]
    if act.get("picture") != state.pictures[index]:
        raise IllegalAction(msg("Move the picture your leader called wrong: {picture}.",
                                picture=state.word(state.pictures[index])))
    tier = tier_field(act)
    if tier == state.placed[index]:
        raise IllegalAction(msg("Your leader said it is wrong there: choose another tier."))


def order_independent(state: Team, seat: Seat, action: object) -> bool:
    """Two leaders write (and reveal) at once; every other step depends on the table."""
    return isinstance(action, Mapping) and (
        (state.phase == "notes" and action.get("type") == "commit")
        or (state.phase == "reveal" and action.get("type") == "reveal"))


# --- applying ------------------------------------------------------------------

def apply(state: Team, seat: Seat, action: Action) -> Team:
    check(state, seat, action)
    kind = action["type"]
    if kind == "commit":
        return write_note(state, seat, action["commitment"])
    if kind == "take":
        return take(state, seat, action["picture"], action["tier"])
    if kind == "reveal":
        return reveal_note(state, seat, list(action["tiers"]), action["salt"])
    if kind == "void":
        leader = action["seat"] if seat == SYSTEM else seat
        return void(state, leader, "standin" if seat == SYSTEM else "lost")
    assert state.pending is not None
    index, team = state.pending
    if kind == "silent":
        line = LogLine(msg("{actor} stays silent.", actor=_seat(seat)))
        return advance(replace(state, log=(*state.log, line)))
    if kind == "wrong":
        used = (True, state.wrong_used[1]) if team == 0 else (state.wrong_used[0], True)
        claim = (index, state.placed[index])
        claims = (claim, state.claims[1]) if team == 0 else (state.claims[0], claim)
        line = LogLine(msg("{actor} says \u201cWrong!\u201d", actor=_seat(seat)))
        return replace(state, phase="fix", wrong_used=used, claims=claims,  # type: ignore[arg-type]
                       log=(*state.log, line), last=last_event("wrong", team=team))
    placed = list(state.placed)
    placed[index] = action["tier"]
    line = LogLine(msg("{actor} moves {picture} to {tier}.", actor=_seat(seat),
                       picture=state.word(state.pictures[index]), tier=TIERS[action["tier"]]))
    return advance(replace(state, placed=tuple(placed), log=(*state.log, line)))


def write_note(state: Team, seat: Seat, commitment: str) -> Team:
    team = state.leaders.index(seat)
    commitments = ((commitment, state.commitments[1]) if team == 0
                   else (state.commitments[0], commitment))
    first = state.commitments[1 - team] is None
    lines = [LogLine(msg("{leader} has written their note first.", leader=_seat(seat)) if first
                     else msg("{leader} has written their note.", leader=_seat(seat)))]
    after = replace(state, commitments=commitments, turn=team if first else state.turn)
    if commitments[0] is None or commitments[1] is None:
        return replace(after, log=(*state.log, *lines))
    assert after.turn is not None
    lines.append(LogLine(msg("The topic: \u201c{topic}\u201d. Team {team} takes first.",
                             topic=topic(state.topic.id, state.topic.text),
                             team=msg(TEAM_NAMES[after.turn]))))
    return replace(after, phase="take", log=(*state.log, *lines))


def take(state: Team, seat: Seat, picture: str, tier: int) -> Team:
    team = state.turn
    assert team is not None
    index = state.pictures.index(picture)
    takers, placed = list(state.takers), list(state.placed)
    takers[index], placed[index] = team, tier
    line = LogLine(msg("{actor} takes {picture} for {team}: {tier}.", actor=_seat(seat),
                       picture=state.word(picture), team=msg(TEAM_NAMES[team]),
                       tier=TIERS[tier]))
    after = replace(state, takers=tuple(takers), placed=tuple(placed),
                    log=(*state.log, line), pending=(index, team))
    if state.owner(index) == team and not state.wrong_used[team]:
        return replace(after, phase="wrong")
    return advance(after)


def advance(state: Team) -> Team:
    after = replace(state, pending=None, phase="take")
    if all(t is not None for t in state.takers):
        return replace(after, phase="reveal")
    assert state.turn is not None
    return replace(after, turn=1 - state.turn)


def last_event(kind: str, team: int | None = None, notes: Any = None, correct: Any = None,
               moved: Any = None, leaders: Any = None, pictures: Any = None
               ) -> Mapping[str, Any]:
    """``last`` for a Wrong or a reveal, with the same keys in the same order for
    both (a view delta keeps the first order it saw). A reveal is self-contained:
    both notes (picture ids by tier), the round's two leaders, and per picture its
    name, whose leader wrote it, the team that took it, the tier it lay on and
    whether right; all public once revealed, and none of the next round's cards."""
    event: Mapping[str, Any] = freeze({
        "kind": kind, "team": team, "notes": notes, "correct": correct, "moved": moved,
        "leaders": leaders, "pictures": pictures})
    return event


def reveal_note(state: Team, seat: Seat, tiers: list[Any], salt: str) -> Team:
    """One leader's note, checked against its commitment; scored once both are in."""
    team = state.leaders.index(seat)
    if not matches(state.commitments[team], tiers, salt) or note_problem(state, team, tiers):
        return void(state, seat, "mismatch")
    note = tuple(tiers)
    notes = (note, state.notes[1]) if team == 0 else (state.notes[0], note)
    after = replace(state, notes=notes)
    if notes[0] is None or notes[1] is None:
        return after
    return reveal(replace(after, log=(*after.log, *lie_lines(after))))


def false_claims(state: Team) -> list[tuple[int, int, int]]:
    """Each "Wrong" said about a picture that lay where its leader's note has it, as
    (team, picture index, the tier it lay on)."""
    out = []
    for team, claim in enumerate(state.claims):
        if claim is not None and state.truth(claim[0]) == claim[1]:
            out.append((team, claim[0], claim[1]))
    return out


def lie_lines(state: Team) -> list[LogLine]:
    """A "Wrong" said about a picture that lay where its leader's note has it."""
    out = []
    for team, index, tier in false_claims(state):
        out.append(LogLine(msg("{leader} said \u201cWrong!\u201d about {picture} on {tier}, "
                               "but their note has it there: {leader} is named for it, and "
                               "the picture is scored where it lay.",
                               leader=_seat(state.leaders[team]),
                               picture=state.word(state.pictures[index]), tier=TIERS[tier])))
    return out


VOID_WHY = {
    "standin": N_("A stand-in plays for {leader} and cannot know a note kept on their laptop"),
    "lost": N_("{leader}'s laptop no longer has the note"),
    "mismatch": N_("{leader}'s laptop revealed a note that is not the one it committed to"),
}


def void(state: Team, leader: Seat, why: str) -> Team:
    """A note cannot be had: the round is void for both teams, no token moves."""
    line = LogLine(msg("{why}: round {round} is void, no token moves.",
                       why=msg(VOID_WHY[why], leader=_seat(leader)), round=state.round))
    deck = state.deck.discarding([c for hand in state.hands for c in hand])
    after = replace(state, deck=deck, turn=None, pending=None, round_pictures=None,
                    last=last_event("void", leaders=list(state.leaders)),
                    log=(*state.log, line))
    return start_round(after)


def reveal(state: Team) -> Team:
    restored = list(state.placed)
    for _team, index, tier in false_claims(state):  # where it lay before the false "Wrong"
        restored[index] = tier
    state = replace(state, placed=tuple(restored))
    right: list[list[str]] = [[], []]
    for i, p in enumerate(state.pictures):
        team = state.takers[i]
        if team is not None and state.placed[i] == state.truth(i):
            right[team].append(p)
    got = (len(right[0]), len(right[1]))
    moved = (got[0] >= got[1], got[1] >= got[0])
    steps = (min(state.star, state.steps[0] + moved[0]), min(state.star, state.steps[1] + moved[1]))
    total = (state.total[0] + got[0], state.total[1] + got[1])
    notes = [list(n or ()) for n in state.notes]
    lines = []
    for t in (0, 1):
        written = items([msg("{tier} {picture}", tier=TIERS[k], picture=state.word(p))
                         for k, p in enumerate(notes[t])])
        lines.append(LogLine(msg("{leader}'s note: {note}.", leader=_seat(state.leaders[t]),
                                 note=written)))
    who = (msg("both tokens move") if moved[0] and moved[1]
           else msg("{team} moves one step", team=msg(TEAM_NAMES[0 if moved[0] else 1])))
    lines.append(LogLine(msg("Green {green}, Red {red} correct: {who}.", green=got[0],
                             red=got[1], who=who)))
    kept = {p for team in right for p in team}
    placed = [{"id": p, "name": state.name(p), "team": state.owner(i), "taken": state.takers[i],
               "tier": state.placed[i], "right": p in right[state.takers[i] or 0]}
              for i, p in enumerate(state.pictures)]
    last = last_event("reveal", notes=notes, correct=right, moved=list(moved),
                      leaders=list(state.leaders), pictures=placed)
    deck = state.deck.discarding_unkept((c for hand in state.hands for c in hand), kept)
    after = replace(state, steps=steps, total=total, round_pictures=got, turn=None,
                    deck=deck, last=last, log=(*state.log, *lines))
    if steps[0] >= state.star or steps[1] >= state.star:
        winners = result_winners(after)
        text = (msg("Game over: It is a draw.") if len(winners) == state.players else
                msg("Game over: Team {team} wins.",
                    team=msg(TEAM_NAMES[state.teams.index(winners)])))
        return replace(after, phase="over", log=(*after.log, LogLine(text)))
    return start_round(after)


def result_winners(state: Team) -> tuple[Seat, ...]:
    at = [state.steps[t] >= state.star for t in (0, 1)]
    if at[0] and at[1]:
        if state.total[0] == state.total[1]:
            return tuple(range(state.players))
        return state.teams[0 if state.total[0] > state.total[1] else 1]
    return state.teams[0 if at[0] else 1]


def result(state: Team) -> Result | None:
    if not state.over:
        return None
    scores = tuple(float(state.total[s % 2]) for s in range(state.players))
    return Result(result_winners(state), scores,
                  {"teams": [list(t) for t in state.teams], "total": list(state.total),
                   "steps": list(state.steps), "seed": state.seed})


def timer(state: Team, options: Mapping[str, Any]) -> Timer | None:
    return None


def picture_view(state: Team, index: int) -> dict[str, Any]:
    p = state.pictures[index]
    return {"id": p, "name": state.name(p), "team": state.owner(index),
            "taken": state.takers[index], "tier": state.placed[index]}


def view(state: Team, viewer: Viewer) -> View:
    leading = viewer is not None and viewer in state.leaders
    team = state.leaders.index(viewer) if leading and viewer is not None else None
    writing = state.phase == "notes"
    if not writing:  # the same for every viewer: built once per state
        pictures = per_state(state, "_pictures", lambda: [
            picture_view(state, i) for i in range(2 * PER_LEADER)])
    elif team is not None:
        pictures = [picture_view(state, i) for i in range(team * PER_LEADER,
                                                          (team + 1) * PER_LEADER)]
    else:
        pictures = per_state(state, "_no_pictures", list)  # one [] for all who wait
    note = state.notes[team] if team is not None else None
    public = per_state(state, "_public_view", lambda: _public_view(state))
    return framed_view(state, MODE, viewer, actors(state), result(state), {
        "topic": None if writing and not leading else public["topic"],
        "pictures": pictures,
        "leader": None, "leaders": public["leaders"],
        "note": list(note) if note is not None else None,
        **public["rest"],
    })


def _public_view(state: Team) -> dict[str, Any]:
    """The parts of the view every viewer sees alike, built once per state (17 viewers'
    views share them, and the host's diff looks at each once)."""
    pending = None if state.pending is None else {
        "picture": state.pictures[state.pending[0]], "team": state.pending[1]}
    return {"topic": state.topic.to_view(), "leaders": list(state.leaders), "rest": {
        "commitments": list(state.commitments),
        "teams": [list(t) for t in state.teams],
        "written": [c is not None for c in state.commitments],
        "turn": state.turn,
        "wrong_used": list(state.wrong_used),
        "pending": pending,
        "track": {"green": state.steps[0], "red": state.steps[1], "star": state.star},
        "round_pictures": None if state.round_pictures is None else list(state.round_pictures),
        "total": list(state.total),
    }}


def hidden_variant(state: Team, viewer: Viewer, rng: random.Random) -> Team:
    """Reshuffle the deck, unseen topics, unseen hands, and a revealed note ``viewer``
    cannot read yet (the other leader's, until both are in)."""
    leading = viewer in state.leaders
    writing = state.phase == "notes"
    topics = unseen_topics(state.topics, state.round, writing and not leading, rng)
    deck = state.deck.shuffled_order(rng)
    hands, faces, notes = list(state.hands), list(state.faces), list(state.notes)
    for t in (0, 1):
        if state.leaders[t] == viewer or state.over:
            continue
        if writing:
            mixed = shuffled([*hands[t], *deck.order], rng)
            hands[t] = tuple(mixed[:PER_LEADER])
            deck = replace(deck, order=tuple(mixed[PER_LEADER:]))
            faces[t] = tuple(deck.cards[c].face(choice_index(2, rng)) for c in hands[t])
        if notes[t] is not None:
            notes[t] = tuple(shuffled(notes[t] or (), rng))
    return replace(state, topics=topics, deck=deck, hands=tuple(hands),
                   faces=tuple(faces), notes=tuple(notes))
