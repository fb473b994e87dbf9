"""Ranking Top as pure rules: play a card, let opponents top it, resolve the chain.

Decisions taken where the rulebook is silent (also in help.md):

* Deck: 8 songs x numbers 1..5 x 2 copies (80), 9 Top, 5 Primordial Rule
  cards, ids in ``cards.py``. Shuffled by ``stream(seed, "deal")``; the first
  player is drawn by ``stream(seed, "first")`` (the rulebook's "last person
  who listened to 31 Minutos"). Hands: 3p 5, 4p 4, 5p 3 cards.
* Draw-up happens when a turn begins. When the deck runs out the whole
  discard pile is shuffled into a new deck by ``stream(seed, "reshuffle",
  n)``; when deck and discard pile are both empty a draw gives what there
  is (maybe nothing). A player who then has no card at all is skipped.
* A play into the Ranking Top must be a song card with the number the seat
  needs next (5, 4, 3, 2, 1) or a Primordial Rule, which stands for exactly
  that number. A Top card never goes into a Ranking Top. Any card may be
  played onto the discard pile; a Top or Primordial Rule there has no effect
  and opens no window (there is nothing to cancel).
* Every other play opens window k (k counts windows over the whole game).
  Every seat except the owner of the chain's last card may top it, the
  player to move included (so they can top a top of their own play, as in
  the rulebook's second example). A Top tops anything; a song card tops a
  card counting as its number; a Primordial Rule tops only Primordial
  Rules; a Primordial Rule in a Ranking Top counts as the number it stands
  for. A Primordial that tops (or a Top card) counts as no number, so only a
  Top (or, for a Primordial, another Primordial) can top it back.
* A top opens window k+1 for the topping card, and everyone eligible may
  answer again. A window closes when every eligible seat has passed or its
  timer (``top_seconds``, 0 = none) runs out. Then the chain resolves: an
  even number of tops leaves the play effective; odd cancels it. Topping
  cards go to the discard pile in chain order, then a cancelled play.
* Objeción Denegada: after it stands, its player must play another card,
  which opens no window and resolves at once. Diente blanco: draw 2, then
  play one more card, which opens a window as usual. A player with no card
  left skips that second play.
* El Dinosaurio Anacleto: the player chooses the one card to keep (with one
  card or none, nothing to choose), discards the rest, draws 4.
* Mi muñeca me hablo: every hand goes to the player on its right (the
  previous seat), whatever the direction of play.
* Severlá: reverse the direction, then its player draws 1.
* La señora interesante: everyone discards their hand, then each draws 4,
  starting with the player and following the direction of play (also the
  order for Mi mamá's draws, which matters only when cards run short).
* Arwrarwrirwrarwro: takes the (up to) 3 cards that were on top of the
  discard pile before this card's chain, i.e. the 3 most recent discards
  before it was played; it lands on the pile after them.
* The game ends the moment a card standing for 1 resolves untopped in a
  Ranking Top. Scores = cards in each Ranking Top. (If nobody could ever
  play again the game would end with the longest Ranking Tops sharing the
  win; with 94 cards and at most 20 in Ranking Tops this cannot happen.)
* Hidden: hands and the deck order. Everything discarded is public, so
  the cards Arwrarwrirwrarwro takes are named in the log; the view shows
  the top 5 cards of the discard pile and its size (see ``view.py``).
* The log has one line per resolved play (with its tops and effect); tops
  and passes show live in the view's ``chain``, ``passed`` and ``last``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, TypeGuard

from lanplay.game import SYSTEM, Action, IllegalAction, Result, Seat, Viewer
from lanplay.games.ranking_top import cards
from lanplay.games.ranking_top.effects import succeed
from lanplay.games.ranking_top.state import (
    DEFAULT_TOP_SECONDS,
    HAND_SIZES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TO_DISCARD,
    TO_TOP,
    TOP_SECONDS,
    Link,
    LogLine,
    State,
    Work,
    can_rank,
)
from lanplay.messages import N_, Arg, Msg, Problem, items, msg, msg_n, seats
from lanplay.messages import seat as _seat
from lanplay.rng import choice_index, shuffled, stream

DESTINATIONS = (TO_TOP, TO_DISCARD)


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    """Shuffle with ("deal",), deal the starting hands, draw the first player."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise Problem(msg_n("Ranking Top needs {low}-{high} players; there is {n}.",
                            "Ranking Top needs {low}-{high} players; there are {n}.", players,
                            low=MIN_PLAYERS, high=MAX_PLAYERS))
    seconds = options.get("top_seconds", DEFAULT_TOP_SECONDS)
    if seconds not in TOP_SECONDS or isinstance(seconds, bool):
        raise Problem(msg("Option {option} must be one of {choices}.", option="top_seconds",
                          choices=items([str(c) for c in TOP_SECONDS])))
    size = HAND_SIZES[players]
    deck = shuffled(range(cards.DECK_SIZE), stream(seed, "deal"))
    hands = tuple(tuple(deck[s * size:(s + 1) * size]) for s in range(players))
    first = choice_index(players, stream(seed, "first"))
    return State(
        players=players, hand_size=size, top_seconds=int(seconds), seed=seed, hands=hands,
        deck=tuple(deck[players * size:]), discard=(), ranking=((),) * players,
        direction=1, current=first, phase="turn", passed=(False,) * players,
        log=(LogLine(msg("Each player holds {n} cards. {actor} starts; play goes clockwise.",
                         n=size, actor=_seat(first))),),
    )


def actors(state: State) -> frozenset[Seat]:
    if state.phase == "window":
        return frozenset(state.eligible())
    if state.phase in ("turn", "again", "keep"):
        return frozenset({state.current})
    return frozenset()


def toppers(state: State, seat: Seat) -> list[int]:
    """The cards of ``seat`` that may top the chain's last card now (in hand order)."""
    if seat not in state.eligible():
        return []
    last = state.chain[-1]
    return [c for c in state.hands[seat] if cards.tops(c, last.card, last.stands)]


def rankable(state: State, seat: Seat) -> list[int]:
    """The cards of ``seat`` that may go into its Ranking Top now (in hand order)."""
    if state.phase not in ("turn", "again") or seat != state.current:
        return []
    needed = state.needed(seat)
    return [c for c in state.hands[seat] if can_rank(c, needed)]


def legal(state: State, seat: Seat) -> list[Action]:
    if seat not in actors(state):
        return []
    if state.phase == "window":
        out: list[Action] = [{"type": "pass", "window": state.window}]
        out += [{"type": "top", "card": c, "window": state.window}
                for c in toppers(state, seat)]
        return out
    hand = state.hands[seat]
    if state.phase == "keep":
        return [{"type": "keep", "card": c} for c in hand]
    needed = state.needed(seat)
    out = []
    for c in hand:
        if can_rank(c, needed):
            out.append({"type": "play", "card": c, "to": TO_TOP})
        out.append({"type": "play", "card": c, "to": TO_DISCARD})
    return out


def timer_action(state: State) -> Action | None:
    """The timeout that closes the open window (whether or not a timer runs)."""
    if state.phase == "window":
        return {"type": "timeout", "window": state.window}
    return None


# --- checking an action from the network --------------------------------------

FIELDS = {
    "play": ("card", "to"),
    "top": ("card", "window"),
    "pass": ("window",),
    "keep": ("card",),
    "timeout": ("window",),
}


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _what_now(state: State) -> Msg:
    if state.phase == "window":
        return msg("a window is open: the answer is 'top' or 'pass'")
    if state.phase == "keep":
        return msg("the player to move chooses the card to keep ('keep')")
    return msg("the player to move plays a card ('play')")


def check(state: State, seat: Seat, action: object) -> None:
    """Refuse anything but a legal action, with a reason that reveals nothing hidden."""
    if not isinstance(action, Mapping):
        raise IllegalAction(msg("An action must be a map with a 'type'."))
    if state.over:
        raise IllegalAction(msg("The game is over."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        shown = str(kind)[:40] if kind is not None else "nothing"
        raise IllegalAction(msg("Unknown action {action}: the actions are play, top, pass "
                                "and keep.", action=repr(shown)))
    extra = sorted(str(k)[:40] for k in action if k != "type" and k not in FIELDS[kind])
    if extra:
        raise IllegalAction(msg("A '{action}' has no field {field}.", action=kind,
                                field=repr(extra[0])))
    for key in FIELDS[kind]:
        if key not in action:
            raise IllegalAction(msg("A '{action}' needs a '{field}'.", action=kind, field=key))
    if kind == "timeout":
        _check_timeout(state, seat, action)
        return
    if seat == SYSTEM:
        raise IllegalAction(msg("The host only closes windows."))
    if kind in ("top", "pass"):
        _check_answer(state, seat, kind, action)
        return
    if state.phase == "window" or (state.phase == "keep") != (kind == "keep"):
        raise IllegalAction(msg("No '{action}' now: {now}.", action=kind,
                                now=_what_now(state)))
    if seat != state.current:
        raise IllegalAction(msg("It is not your turn: waiting for {waiting}.",
                                waiting=seats([state.current])))
    card = _own_card(state, seat, action["card"])
    if kind == "keep":
        return
    to = action["to"]
    if not isinstance(to, str) or to not in DESTINATIONS:
        raise IllegalAction(msg("'to' must be 'top' (your Ranking Top) or 'discard'."))
    if to == TO_TOP:
        needed = state.needed(seat)
        if cards.is_top(card):
            raise IllegalAction(msg("A Top card cannot go into a Ranking Top."))
        if not can_rank(card, needed):
            raise IllegalAction(msg("Your Ranking Top needs a {needed} next (or a Primordial "
                                    "Rule), not a {number}.", needed=needed,
                                    number=cards.number(card) or 0))


def _own_card(state: State, seat: Seat, card: object) -> int:
    if not _is_int(card):
        raise IllegalAction(msg("'card' must be the number of a card in your hand."))
    if card not in state.hands[seat]:
        raise IllegalAction(msg("That card is not in your hand."))
    return card


def _check_window(state: State, window: object) -> None:
    if not _is_int(window):
        raise IllegalAction(msg("'window' must be the number of the open window."))
    if state.phase != "window":
        raise IllegalAction(msg("Window {window} is closed: no window is open now.",
                                window=window))
    if window != state.window:
        raise IllegalAction(msg("Window {window} is closed: the open window is {open}.",
                                window=window, open=state.window))


def _check_timeout(state: State, seat: Seat, action: Mapping[str, Any]) -> None:
    if seat != SYSTEM:
        raise IllegalAction(msg("Only the host's timer closes a window."))
    _check_window(state, action["window"])


def _check_answer(state: State, seat: Seat, kind: str, action: Mapping[str, Any]) -> None:
    _check_window(state, action["window"])
    if seat not in state.eligible():
        if 0 <= seat < state.players and seat == state.chain[-1].seat:
            raise IllegalAction(msg("You cannot top your own card."))
        if 0 <= seat < state.players and state.passed[seat]:
            raise IllegalAction(msg("You already passed in this window."))
        raise IllegalAction(msg("You may not answer this window."))
    if kind == "pass":
        return
    card = _own_card(state, seat, action["card"])
    last = state.chain[-1]
    if not cards.tops(card, last.card, last.stands):
        if cards.is_primordial(card):
            raise IllegalAction(msg("A Primordial Rule only tops another Primordial Rule."))
        if cards.is_primordial(last.card) and last.stands is None:
            wanted = msg("a Top card or a Primordial Rule")
        elif last.stands is None:
            wanted = msg("a Top card")
        else:
            wanted = msg("a Top card or a {n}", n=last.stands)
        raise IllegalAction(msg("{card} cannot top {target}: that takes {wanted}.",
                                card=cards.word(card), target=cards.word(last.card),
                                wanted=wanted))


# --- applying -----------------------------------------------------------------------

def apply(state: State, seat: Seat, action: Action) -> State:
    check(state, seat, action)
    w = Work(state)
    kind = action["type"]
    if kind == "play":
        _play(w, seat, action["card"], action["to"], protected=state.again == "objecion")
    elif kind == "top":
        _top(w, seat, action["card"])
    elif kind == "pass":
        w.passed[seat] = True
        w.event("pass", seat=seat, window=w.window)
        if not w.freeze().eligible():
            _close(w, timeout=False)
    elif kind == "keep":
        _keep(w, seat, action["card"])
    else:
        _close(w, timeout=True)
    return w.freeze()


def _play(w: Work, seat: Seat, card: int, to: str, *, protected: bool) -> None:
    w.hands[seat].remove(card)
    w.again = None
    stands = w.state.needed(seat) if to == TO_TOP else cards.number(card)
    play = Link(card, seat, to, stands)
    w.event("play", seat=seat, card=card, to=to, stands=stands, protected=protected)
    if to == TO_DISCARD and not cards.has_effect(card):
        w.say(_play_line(play, "none"), seat)
        w.discard.append(card)
        w.end_turn()
        return
    if protected:
        mark = len(w.log)
        effect = succeed(w, play, len(w.discard))
        w.log.insert(mark, LogLine(_play_line(play, "protected",
                                              outcome=_outcome(play, effect)), (seat,)))
        w.event("play", seat=seat, card=card, to=to, stands=stands, protected=True,
                effect=effect)
        return
    w.chain = [play]
    _open_window(w)


PLAY_LINES = {
    ("discard", "none"): N_("{actor} plays {card} onto the discard pile: no effect."),
    ("discard", "protected"): N_("{actor} plays {card} onto the discard pile (cannot be "
                                 "topped): {outcome}"),
    ("discard", "plain"): N_("{actor} plays {card} onto the discard pile: {outcome}"),
    ("discard", "topped"): N_("{actor} plays {card} onto the discard pile; topped by {tops}: "
                              "{outcome}"),
    ("top", "protected"): N_("{actor} plays {card} into their Ranking Top (cannot be "
                             "topped): {outcome}"),
    ("top", "plain"): N_("{actor} plays {card} into their Ranking Top: {outcome}"),
    ("top", "topped"): N_("{actor} plays {card} into their Ranking Top; topped by {tops}: "
                          "{outcome}"),
    ("wild", "protected"): N_("{actor} plays {card} as a {n} into their Ranking Top (cannot "
                              "be topped): {outcome}"),
    ("wild", "plain"): N_("{actor} plays {card} as a {n} into their Ranking Top: {outcome}"),
    ("wild", "topped"): N_("{actor} plays {card} as a {n} into their Ranking Top; topped by "
                           "{tops}: {outcome}"),
}
"""The log line of a resolved play, by where it went and how it ended: whole sentences,
so a log of hundreds of plays stays small and each language orders them its own way."""


def _play_line(play: Link, form: str, **more: Arg) -> Msg:
    if play.to != TO_TOP:
        where = "discard"
    else:
        where = "wild" if cards.is_primordial(play.card) else "top"
        if where == "wild":
            more = {"n": play.stands or 0, **more}
    return msg(PLAY_LINES[where, form], actor=_seat(play.seat), card=cards.word(play.card),
               **more)


def _outcome(play: Link, effect: Msg | None) -> Msg:
    if play.to == TO_TOP:
        return msg("it stands, {n} done.", n=play.stands or 0)
    return effect if effect else msg("it stands.")


def _open_window(w: Work) -> None:
    w.window += 1
    w.phase = "window"
    w.passed = [False] * w.players


def _top(w: Work, seat: Seat, card: int) -> None:
    w.hands[seat].remove(card)
    w.chain.append(Link(card, seat, None, cards.number(card)))
    w.event("top", seat=seat, card=card, window=w.window)
    _open_window(w)


def _close(w: Work, *, timeout: bool) -> None:
    """Resolve the chain: even tops, the play stands; odd, it is cancelled."""
    chain, play, tops = w.chain, w.chain[0], len(w.chain) - 1
    stands = tops % 2 == 0
    base = len(w.discard)
    discarded = [link.card for link in chain[1:]] + ([] if stands else [play.card])
    w.discard.extend(discarded)
    w.chain, w.passed = [], [False] * w.players
    w.phase = "turn"
    by = items([msg("{seat} ({card})", seat=_seat(link.seat), card=cards.word(link.card))
                for link in chain[1:]])
    mark = len(w.log)
    effect: Msg | None = None
    if stands:
        effect = succeed(w, play, base)
        outcome = _outcome(play, effect)
    else:
        outcome = msg("cancelled.")
        w.end_turn()
    if tops:
        text = _play_line(play, "topped", tops=by, outcome=outcome)
    else:
        text = _play_line(play, "plain", outcome=outcome)
    w.log.insert(mark, LogLine(text, tuple(link.seat for link in chain)))
    w.event("close", window=w.window, timeout=timeout, seat=play.seat, card=play.card,
            to=play.to, stands=play.stands, tops=tops, effective=stands,
            discarded=tuple(discarded), effect=effect)


def _keep(w: Work, seat: Seat, card: int) -> None:
    discarded = [c for c in w.hands[seat] if c != card]
    w.hands[seat] = [card]
    w.discard.extend(discarded)
    w.say(msg("{actor} keeps 1 card, discards {n} and draws 4.", actor=_seat(seat),
              n=len(discarded)))
    w.event("keep", seat=seat, discarded=tuple(discarded))
    w.draw(seat, 4)
    w.end_turn()


# --- the end and hidden variants -------------------------------------------------

def result(state: State) -> Result | None:
    if not state.over:
        return None
    scores = tuple(len(r) for r in state.ranking)
    if state.winner is not None:
        winners: tuple[Seat, ...] = (state.winner,)
    else:
        best = max(scores)
        winners = tuple(s for s, v in enumerate(scores) if v == best)
    return Result(winners, scores, {"reshuffles": state.reshuffles, "seed": state.seed,
                                    "windows": state.window})


def hidden_variant(state: State, viewer: Viewer, rng: random.Random) -> State:
    """Re-deal the other hands and the deck among themselves, keeping every count."""
    from dataclasses import replace

    hidden = [s for s in range(state.players) if s != viewer]
    pool = shuffled([c for s in hidden for c in state.hands[s]] + list(state.deck), rng)
    hands = list(state.hands)
    for s in hidden:
        size = len(hands[s])
        hands[s], pool = tuple(pool[:size]), pool[size:]
    return replace(state, hands=tuple(hands), deck=tuple(pool))
