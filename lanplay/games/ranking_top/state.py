"""The Ranking Top state as a value, and the mutable working copy ``apply`` edits.

``State`` is frozen plain data (hands, deck, discard pile, Ranking Tops, the
chain of tops), so a state compares equal to its deep copy and replays
exactly. ``Work`` thaws one state, lets the rules and effects change it in
place with small helpers (draw, reshuffle, start the next turn), and freezes
the result; nothing else ever sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from lanplay.game import LogLine as LogLine  # rules.py takes it from here
from lanplay.game import Seat
from lanplay.games.ranking_top import cards
from lanplay.messages import Msg, msg, msg_n
from lanplay.messages import seat as _seat
from lanplay.rng import shuffled, stream

GAME_ID = "ranking-top"
MIN_PLAYERS, MAX_PLAYERS = 3, 5
HAND_SIZES = {3: 5, 4: 4, 5: 3}
TOP_SECONDS = (0, 2, 3, 4, 6, 8)
DEFAULT_TOP_SECONDS = 4
GOAL = 5
"""A Ranking Top holds 5, 4, 3, 2, 1: complete at five cards."""
TO_TOP, TO_DISCARD = "top", "discard"
PHASES = ("turn", "window", "keep", "again", "over")


@dataclass(frozen=True)
class Link:
    """One card of the chain: the contested play (``to`` set) or a top (``to`` None).

    ``stands`` is the number the card counts as for topping: a song card's
    number, a wildcard's value in a Ranking Top, None for a Top card and for a
    Primordial Rule that tops or is discarded.
    """

    card: int
    seat: Seat
    to: str | None
    stands: int | None


@dataclass(frozen=True)
class Event:
    """The most recent public event (``view["last"]``), as sorted key/value pairs.

    Values are ints, strs, bools, None or tuples of card ids; the view turns
    the fields ``card`` and ``discarded`` into card maps.
    """

    kind: str
    fields: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class State:
    players: int
    hand_size: int
    top_seconds: int
    seed: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    """Draw order, next card first (hidden)."""
    discard: tuple[int, ...]
    """Bottom first; the last card is the top of the pile (public)."""
    ranking: tuple[tuple[tuple[int, int], ...], ...]
    """Per seat, (card, number it stands for), 5 first."""
    direction: int
    current: Seat
    phase: str
    chain: tuple[Link, ...] = ()
    window: int = 0
    passed: tuple[bool, ...] = ()
    again: str | None = None
    reshuffles: int = 0
    log: tuple[LogLine, ...] = ()
    last: Event | None = None
    winner: Seat | None = None

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def needed(self, seat: Seat) -> int:
        """The number ``seat`` must play next into its Ranking Top (0 once complete)."""
        return GOAL - len(self.ranking[seat])

    def eligible(self) -> list[Seat]:
        """Who may still answer the open window: not the chain's last owner, not passed."""
        if self.phase != "window" or not self.chain:
            return []
        owner = self.chain[-1].seat
        return [s for s in range(self.players) if s != owner and not self.passed[s]]


class Work:
    """A thawed state: lists instead of tuples, edited in place by one ``apply``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.players = state.players
        self.seed = state.seed
        self.hands = [list(h) for h in state.hands]
        self.deck = list(state.deck)
        self.discard = list(state.discard)
        self.ranking = [list(r) for r in state.ranking]
        self.direction = state.direction
        self.current = state.current
        self.phase = state.phase
        self.chain = list(state.chain)
        self.window = state.window
        self.passed = list(state.passed)
        self.again = state.again
        self.reshuffles = state.reshuffles
        self.log = list(state.log)
        self.last = state.last
        self.winner = state.winner

    def freeze(self) -> State:
        return replace(
            self.state, hands=tuple(tuple(h) for h in self.hands), deck=tuple(self.deck),
            discard=tuple(self.discard), ranking=tuple(tuple(r) for r in self.ranking),
            direction=self.direction, current=self.current, phase=self.phase,
            chain=tuple(self.chain), window=self.window, passed=tuple(self.passed),
            again=self.again, reshuffles=self.reshuffles, log=tuple(self.log),
            last=self.last, winner=self.winner,
        )

    def say(self, text: Msg, *seats: Seat) -> None:
        """Log ``text``; ``seats`` default to the seats it names."""
        self.log.append(LogLine(text, seats))

    def event(self, kind: str, **fields: Any) -> None:
        self.last = Event(kind, tuple(sorted(fields.items())))

    def order_from(self, seat: Seat) -> list[Seat]:
        """Every seat in the direction of play, starting with ``seat``."""
        return [(seat + i * self.direction) % self.players for i in range(self.players)]

    def reshuffle(self) -> None:
        """The discard pile becomes the draw deck, shuffled by ("reshuffle", n)."""
        if not self.discard:
            return
        self.reshuffles += 1
        self.deck = shuffled(self.discard, stream(self.seed, "reshuffle", self.reshuffles))
        self.discard = []
        self.say(msg_n("The draw deck ran out: the discard pile is shuffled into a new deck "
                       "({n} card).", "The draw deck ran out: the discard pile is shuffled "
                       "into a new deck ({n} cards).", len(self.deck)))

    def draw(self, seat: Seat, count: int) -> int:
        """Draw up to ``count`` cards; fewer when the deck and discard pile are both empty."""
        drawn = 0
        for _ in range(count):
            if not self.deck:
                self.reshuffle()
            if not self.deck:
                break
            self.hands[seat].append(self.deck.pop(0))
            drawn += 1
        if drawn < count:
            self.say(msg("{actor} could draw only {drawn} of {count}: no cards are left to "
                         "draw.", actor=_seat(seat), drawn=drawn, count=count))
        return drawn

    def start_turn(self, seat: Seat) -> None:
        """Draw the player up to the starting hand size; skip a player with nothing to play."""
        hand_size = self.state.hand_size
        for _ in range(self.players):
            self.current, self.phase, self.again = seat, "turn", None
            missing = hand_size - len(self.hands[seat])
            if missing > 0:
                self.draw(seat, missing)
            if self.hands[seat]:
                return
            self.say(msg("{actor} has no card to play and is skipped.", actor=_seat(seat)))
            seat = (seat + self.direction) % self.players
        self.end_game(None)

    def end_turn(self) -> None:
        self.start_turn((self.current + self.direction) % self.players)

    def end_game(self, winner: Seat | None) -> None:
        self.phase, self.winner, self.again = "over", winner, None
        self.chain, self.passed = [], [False] * self.players
        if winner is not None:
            self.say(msg("{winner} completes their Ranking Top and wins the game!",
                         winner=_seat(winner)))
        else:
            self.say(msg("Nobody holds a card and nothing is left to draw: the game ends."))


def needed_of(ranking: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> int:
    return GOAL - len(ranking)


def can_rank(card: int, needed: int) -> bool:
    """Whether ``card`` may go into a Ranking Top that needs ``needed`` next."""
    if needed <= 0 or cards.is_top(card):
        return False
    return cards.is_primordial(card) or cards.number(card) == needed
