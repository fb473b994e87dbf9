"""Alles klar? as pure rules: the deck, the state, and what one play does.

Decisions taken where the rulebook is silent (also in help.md):

* 77 cards, ids 0..76: id = 11 * set + (value - 1). Sets 0..4 carry the one
  numeral I..V, set 5 carries none, set 6 carries two numerals: values 1..10
  get (I,II) (I,III) (I,IV) (I,V) (II,III) (II,IV) (II,V) (III,IV) (III,V)
  (IV,V) in that order and value 11 repeats (I,II).
* The first player (left of the dealer) is drawn by the shared seeded
  generator and named in the log. Hands hold ``hand_size`` cards (3, 4 or 5).
* A play resolves in this order: (1) an earlier face-up card of the same
  value turns face down, whoever played it; (2) the card's numeral turns its
  ranking card down (nothing if already down); a two-numeral card turns ONE
  of its numerals down, chosen by its player when both are still up;
  (3) no ranking card up: blind trick, its cards leave the game and the
  player who caused it leads; exactly one ranking card N up and at least N
  cards face up: the N-th highest face-up value takes every card of the
  trick (face-down ones too) and its owner leads; otherwise the next seat
  clockwise plays (one seat may play several times in a trick).
* The player draws after playing while the pile lasts; the drawn card takes
  the played card's place in the hand.
* End (option ``end_rule``): "finish-trick" (default, the rulebook's "the
  current round is still played to the end"): once the pile is empty the
  trick in progress is finished from the hands, skipping seats with empty
  hands; when it is decided or blind the game ends, cards still in hands
  count for nobody. "empty-hands" (house rule): tricks go on until every
  hand is empty. Either way, if every hand runs out before a trick is
  decided, that trick is blind and the game ends.
* Cards turned face down on the table stay known to everyone (all saw them
  face up); only hands and the draw pile are hidden.
* Score = cards won; the most cards win; equal counts share the win.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from lanplay.game import Action, IllegalAction, LogLine, Result, Seat, View, Viewer, log_view
from lanplay.messages import N_, Items, Msg, items, msg, msg_n, seats
from lanplay.messages import seat as _seat
from lanplay.rng import choice_index, shuffled, stream

GAME_ID = "alles-klar"
VALUES = 11
SETS = 7
DECK_SIZE = VALUES * SETS
ROMAN = ("I", "II", "III", "IV", "V")
ORDINAL = (N_("highest"), N_("second-highest"), N_("third-highest"), N_("fourth-highest"),
           N_("fifth-highest"))
PAIRS: tuple[tuple[int, int], ...] = (
    (1, 2), (1, 3), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5), (3, 4), (3, 5), (4, 5), (1, 2),
)
HAND_SIZES = (3, 4, 5)
FINISH_TRICK = "finish-trick"
EMPTY_HANDS = "empty-hands"
END_RULES = (FINISH_TRICK, EMPTY_HANDS)
ALL_UP = (True,) * 5
MIN_PLAYERS, MAX_PLAYERS = 2, 5


# --- the deck ---------------------------------------------------------------

def card_value(card: int) -> int:
    return card % VALUES + 1


def card_numerals(card: int) -> tuple[int, ...]:
    """The Roman numerals (1..5) printed on a card; the set decides them."""
    kind = card // VALUES
    if kind < 5:
        return (kind + 1,)
    if kind == 5:
        return ()
    return PAIRS[card % VALUES]


def card_id(value: int, *numerals: int) -> int:
    """The card with this value and these numerals (for tests and tools)."""
    for card in range(value - 1, DECK_SIZE, VALUES):
        if card_numerals(card) == tuple(numerals):
            return card
    raise ValueError(f"no card {value} with numerals {numerals}")


def card_label(card: int) -> str:
    """'7 (III)', '4 (I, V)' or '9': how players name a card."""
    numerals = card_numerals(card)
    if not numerals:
        return str(card_value(card))
    return f"{card_value(card)} ({', '.join(ROMAN[n - 1] for n in numerals)})"


def card_data(card: int) -> dict[str, Any]:
    return {"id": card, "value": card_value(card), "numerals": list(card_numerals(card))}


# --- the effect of a play, on public information only ----------------------

@dataclass(frozen=True)
class Outcome:
    """How a trick stands: "open", "won" (by ``value``, rank ``rank``) or "blind"."""

    kind: str
    value: int | None = None
    rank: int | None = None


def turned_numeral(numerals: Sequence[int], ranking: Sequence[bool],
                   choice: int | None) -> int | None:
    """The ranking card a play turns down; ``choice`` counts only between two up."""
    up = [n for n in numerals if ranking[n - 1]]
    if not up:
        return None
    if len(up) == 1:
        return up[0]
    return choice if choice in up else None


def decide(up_values: Collection[int], ranking: Sequence[bool]) -> Outcome:
    """Whether the face-up values under these ranking cards settle the trick."""
    up = [n for n in range(1, 6) if ranking[n - 1]]
    if not up:
        return Outcome("blind")
    if len(up) == 1 and len(up_values) >= up[0]:
        rank = up[0]
        return Outcome("won", sorted(up_values, reverse=True)[rank - 1], rank)
    return Outcome("open")


def outcome(up_values: Collection[int], ranking: Sequence[bool], value: int,
            numerals: Sequence[int], numeral: int | None
            ) -> tuple[tuple[bool, ...], int | None, Outcome]:
    """Playing ``value`` onto a trick: the new ranking, the numeral turned, the result.

    Shared by the rules and the bot, so the bot judges a play exactly as the
    table will. A repeated value replaces the earlier face-up one, so the
    face-up values stay a set.
    """
    turned = turned_numeral(numerals, ranking, numeral)
    after = tuple(up and n != turned for n, up in enumerate(ranking, start=1))
    return after, turned, decide(set(up_values) | {value}, after)


def play_actions(cards: Iterable[tuple[int, Sequence[int]]],
                 ranking: Sequence[bool]) -> list[Action]:
    """Every play of these (id, numerals) cards; ``numeral`` named iff one turns down."""
    actions: list[Action] = []
    for card, numerals in cards:
        up = [n for n in numerals if ranking[n - 1]]
        if not up:
            actions.append({"type": "play", "card": card})
        for n in up:
            actions.append({"type": "play", "card": card, "numeral": n})
    return actions


# --- the state ----------------------------------------------------------------

@dataclass(frozen=True)
class Placed:
    """A card in front of its player in the current trick."""

    card: int
    up: bool = True


@dataclass(frozen=True)
class LastPlay:
    """The most recent play, so a table can animate it."""

    seat: Seat
    card: int
    turned: int | None
    covered: int | None
    result: str
    winner: Seat | None

    def to_view(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": card_data(self.card), "turned": self.turned,
                "covered": self.covered, "result": self.result, "winner": self.winner}


@dataclass(frozen=True)
class State:
    """The whole game; ``pile[0]`` is the top card, ``turn`` None once over."""

    players: int
    hand_size: int
    end_rule: str
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    table: tuple[tuple[Placed, ...], ...]
    ranking: tuple[bool, ...]
    turn: Seat | None
    leader: Seat
    trick: int
    won: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...]
    log: tuple[LogLine, ...]
    last: LastPlay | None = None
    seed: int = 0

    @property
    def over(self) -> bool:
        return self.turn is None


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    """Shuffle with the seeded "deal" stream, deal, and draw the first player."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Alles klar? needs 2-5 players; there are {players}.")
    hand_size = options.get("hand_size", 4)
    end_rule = options.get("end_rule", FINISH_TRICK)
    if hand_size not in HAND_SIZES or isinstance(hand_size, bool):
        raise ValueError(f"option hand_size must be one of {list(HAND_SIZES)}")
    if end_rule not in END_RULES:
        raise ValueError(f"option end_rule must be one of {list(END_RULES)}")
    deck = shuffled(range(DECK_SIZE), stream(seed, "deal"))
    hands = tuple(tuple(deck[s * hand_size:(s + 1) * hand_size]) for s in range(players))
    first = choice_index(players, stream(seed, "first"))
    return State(
        players=players, hand_size=hand_size, end_rule=end_rule, hands=hands,
        pile=tuple(deck[players * hand_size:]), table=((),) * players, ranking=ALL_UP,
        turn=first, leader=first, trick=1, won=((),) * players, removed=(),
        log=(LogLine(msg("{actor} leads the first trick.", actor=_seat(first))),), seed=seed,
    )


def build(hands: Sequence[Sequence[int]], *, table: Sequence[Sequence[int | Placed]] = (),
          up: Iterable[int] = (1, 2, 3, 4, 5), turn: Seat = 0, leader: Seat | None = None,
          pile: Sequence[int] = (), won: Sequence[Sequence[int]] = (),
          removed: Sequence[int] = (), end_rule: str = FINISH_TRICK,
          hand_size: int = 4) -> State:
    """A state in the middle of a game, for scenario tests.

    ``table`` lists each seat's trick cards in play order (ints are face up,
    ``Placed(card, False)`` face down); ``up`` lists the face-up ranking cards.
    """
    players = len(hands)
    rows = [tuple(p if isinstance(p, Placed) else Placed(p) for p in row) for row in table]
    rows += [()] * (players - len(rows))
    won_rows = [tuple(w) for w in won] + [()] * (players - len(won))
    ups = set(up)
    return State(
        players=players, hand_size=hand_size, end_rule=end_rule,
        hands=tuple(tuple(h) for h in hands), pile=tuple(pile), table=tuple(rows),
        ranking=tuple(n in ups for n in range(1, 6)), turn=turn,
        leader=turn if leader is None else leader, trick=1, won=tuple(won_rows),
        removed=tuple(removed), log=(),
    )


def actors(state: State) -> frozenset[Seat]:
    return frozenset() if state.turn is None else frozenset({state.turn})


def legal(state: State, seat: Seat) -> list[Action]:
    if state.turn is None or seat != state.turn:
        return []
    return play_actions(((c, card_numerals(c)) for c in state.hands[seat]), state.ranking)


# --- checking an action from the network --------------------------------------

def _numerals_text(numerals: Sequence[int]) -> Items:
    return items([ROMAN[n - 1] for n in numerals], "or")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check(state: State, seat: Seat, action: object) -> None:
    """Refuse anything but a legal play, with a reason that reveals nothing hidden."""
    if not isinstance(action, Mapping):
        raise IllegalAction(msg("An action must be a map with a 'type'."))
    if state.turn is None:
        raise IllegalAction(msg("The game is over."))
    kind = action.get("type")
    if kind is None:
        raise IllegalAction(msg("An action needs a 'type'; here the only one is 'play'."))
    if kind != "play":
        raise IllegalAction(msg("Unknown action {action}.", action=repr(str(kind)[:40])))
    if seat != state.turn:
        raise IllegalAction(msg("It is not your turn: waiting for {waiting}.",
                                waiting=seats([state.turn])))
    extra = sorted(str(k) for k in action if k not in ("type", "card", "numeral"))
    if extra:
        raise IllegalAction(msg("A play has only 'card' and 'numeral', not {key}.",
                                key=repr(extra[0][:40])))
    if "card" not in action:
        raise IllegalAction(msg("Say which card to play: the play has no 'card'."))
    card = action["card"]
    if not _is_int(card):
        raise IllegalAction(msg("'card' must be the number of a card in your hand."))
    if card not in state.hands[seat]:
        raise IllegalAction(msg("That card is not in your hand."))
    numeral = action.get("numeral")
    if numeral is not None and not (_is_int(numeral) and 1 <= numeral <= 5):
        raise IllegalAction(msg("'numeral' must be a ranking card from 1 (I) to 5 (V)."))
    numerals = card_numerals(card)
    up = [n for n in numerals if state.ranking[n - 1]]
    if numeral is None:
        if len(up) > 1:
            raise IllegalAction(msg("Choose which ranking card to turn down: {numerals}.",
                                    numerals=_numerals_text(up)))
        return
    name = ROMAN[numeral - 1]
    if numeral not in numerals:
        raise IllegalAction(msg("{card} does not carry the numeral {numeral}.",
                                card=card_label(card), numeral=name))
    if numeral not in up:
        if up:
            raise IllegalAction(msg("Ranking card {numeral} is already face down; this card "
                                    "can only turn down {numerals}.", numeral=name,
                                    numerals=_numerals_text(up)))
        raise IllegalAction(msg("Ranking card {numeral} is already face down; play this "
                                "card without a numeral.", numeral=name))


# --- applying a play ------------------------------------------------------------

def _next_with_cards(hands: Sequence[Sequence[int]], after: Seat) -> Seat | None:
    """The first seat clockwise after ``after`` (ending with itself) holding a card."""
    n = len(hands)
    for step in range(1, n + 1):
        seat = (after + step) % n
        if hands[seat]:
            return seat
    return None


def _end_line(won: Sequence[Sequence[int]]) -> LogLine:
    scores = [len(w) for w in won]
    best = max(scores)
    winners = tuple(s for s, score in enumerate(scores) if score == best)
    if len(winners) == 1:
        return LogLine(msg_n("Game over: {winner} wins with {n} card.",
                             "Game over: {winner} wins with {n} cards.", best,
                             winner=_seat(winners[0])))
    return LogLine(msg_n("Game over: {winners} share the win with {n} card each.",
                         "Game over: {winners} share the win with {n} cards each.", best,
                         winners=seats(winners)))


def apply(state: State, seat: Seat, action: Action) -> State:
    """Play, draw, resolve the trick, and end the game when the pile rules say so."""
    check(state, seat, action)
    card: int = action["card"]
    numeral: int | None = action.get("numeral")

    hands = [list(h) for h in state.hands]
    pile = state.pile
    slot = hands[seat].index(card)
    if pile:
        hands[seat][slot], pile = pile[0], pile[1:]
    else:
        del hands[seat][slot]

    value = card_value(card)
    table = [list(row) for row in state.table]
    covered: tuple[int, Seat] | None = None
    for owner, row in enumerate(table):
        for i, placed in enumerate(row):
            if placed.up and card_value(placed.card) == value:
                row[i] = Placed(placed.card, False)
                covered = (placed.card, owner)
    up_values = [card_value(p.card) for row in table for p in row if p.up]
    ranking, turned, result = outcome(up_values, state.ranking, value,
                                      card_numerals(card), numeral)
    table[seat].append(Placed(card))

    effects: list[Msg] = []
    if covered is not None:
        earlier, owner = covered
        label = card_label(earlier)
        if owner == seat:
            effects.append(msg("their earlier {card} turned face down", card=label))
        else:
            effects.append(msg("{owner}'s {card} turned face down", owner=_seat(owner),
                               card=label))
    if turned is not None:
        effects.append(msg("ranking card {numeral} turned down", numeral=ROMAN[turned - 1]))
    if effects:
        played = msg("{actor} played {card}: {effects}.", actor=_seat(seat),
                     card=card_label(card), effects=items(effects))
    else:
        played = msg("{actor} played {card}.", actor=_seat(seat), card=card_label(card))
    log = [*state.log, LogLine(played)]
    if state.pile and not pile:
        log.append(LogLine(msg("The draw pile is empty: this trick is the last one.")
                           if state.end_rule == FINISH_TRICK else
                           msg("The draw pile is empty: play on until every hand is empty.")))

    won = [list(w) for w in state.won]
    removed = state.removed
    trick_cards = [p.card for row in table for p in row]
    winner: Seat | None = None
    kind = result.kind
    next_seat: Seat | None
    if kind == "open":
        next_seat = _next_with_cards(hands, seat)
        if next_seat is None:
            kind = "blind"
            log.append(LogLine(msg_n("No one has a card left: blind trick, {n} card leaves "
                                     "the game.", "No one has a card left: blind trick, {n} "
                                     "cards leave the game.", len(trick_cards))))
    elif kind == "won":
        winner = next(s for s, row in enumerate(table) for p in row
                      if p.up and card_value(p.card) == result.value)
        assert result.rank is not None and result.value is not None
        won[winner].extend(trick_cards)
        log.append(LogLine(msg_n(
            "{winner} wins the trick with the {value} ({rank}, ranking card {numeral}): "
            "{n} card.", "{winner} wins the trick with the {value} ({rank}, ranking card "
            "{numeral}): {n} cards.", len(trick_cards), winner=_seat(winner),
            value=result.value, rank=msg(ORDINAL[result.rank - 1]),
            numeral=ROMAN[result.rank - 1])))
    else:
        log.append(LogLine(msg_n("{actor} turned down the last ranking card: blind trick, "
                                 "{n} card leaves the game.", "{actor} turned down the last "
                                 "ranking card: blind trick, {n} cards leave the game.",
                                 len(trick_cards), actor=_seat(seat))))

    leader, trick = state.leader, state.trick
    if kind == "open":
        turn: Seat | None = next_seat
        new_table = tuple(tuple(row) for row in table)
    else:
        if kind == "blind":
            removed = (*removed, *trick_cards)
        new_table = ((),) * state.players
        ranking = ALL_UP
        lead = seat if winner is None else winner
        finished = not pile and state.end_rule == FINISH_TRICK
        turn = None if finished else _next_with_cards(hands, lead - 1)
        if turn is not None:
            if turn != lead:
                log.append(LogLine(msg("{actor} has no card left; {next} leads.",
                                       actor=_seat(lead), next=_seat(turn))))
            leader, trick = turn, trick + 1
    if turn is None:
        log.append(_end_line(won))

    return replace(
        state, hands=tuple(tuple(h) for h in hands), pile=pile, table=new_table,
        ranking=ranking, turn=turn, leader=leader, trick=trick,
        won=tuple(tuple(w) for w in won), removed=removed, log=tuple(log),
        last=LastPlay(seat, card, turned, None if covered is None else covered[0],
                      kind, winner),
    )


# --- the end, the views, and hidden variants ---------------------------------------

def result(state: State) -> Result | None:
    if state.turn is not None:
        return None
    scores = tuple(len(w) for w in state.won)
    best = max(scores)
    winners = tuple(s for s, score in enumerate(scores) if score == best)
    return Result(winners, scores, {
        "blind": len(state.removed),
        "unplayed": sum(len(h) for h in state.hands),
    })


def view(state: State, viewer: Viewer) -> View:
    """Everything public, plus the viewer's own hand; plain msgpack-able data."""
    own = viewer is not None and 0 <= viewer < state.players
    res = result(state)
    return {
        "game": GAME_ID,
        "players": state.players,
        "you": viewer,
        "end_rule": state.end_rule,
        "turn": state.turn,
        "leader": state.leader,
        "trick": state.trick,
        "hand": [card_data(c) for c in state.hands[viewer]] if own and viewer is not None
        else [],
        "hand_counts": [len(h) for h in state.hands],
        "table": [[{**card_data(p.card), "up": p.up} for p in row] for row in state.table],
        "ranking": list(state.ranking),
        "pile": len(state.pile),
        "won": [len(w) for w in state.won],
        "removed": len(state.removed),
        "log": log_view(state),
        "last": None if state.last is None else state.last.to_view(),
        "over": res is not None,
        "scores": None if res is None else list(res.scores),
        "winners": None if res is None else list(res.winners),
    }


def hidden_variant(state: State, viewer: Viewer, rng: random.Random) -> State:
    """Re-deal the other hands and the pile among themselves, keeping every count."""
    hidden = [s for s in range(state.players) if s != viewer]
    cards = [c for s in hidden for c in state.hands[s]] + list(state.pile)
    cards = shuffled(cards, rng)
    hands = list(state.hands)
    for s in hidden:
        size = len(hands[s])
        hands[s], cards = tuple(cards[:size]), cards[size:]
    return replace(state, hands=tuple(hands), pile=tuple(cards))


def describe(action: Action) -> str:
    """An action in words, for a player's own record ("play 7 (II, V), turning down V")."""
    card = action.get("card")
    if action.get("type") != "play" or not _is_int(card) or not 0 <= card < DECK_SIZE:
        return "an unknown action"
    numeral = action.get("numeral")
    text = f"play {card_label(card)}"
    if _is_int(numeral) and 1 <= numeral <= 5:
        text += f", turning down ranking card {ROMAN[numeral - 1]}"
    return text
