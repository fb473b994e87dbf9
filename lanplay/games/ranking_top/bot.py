"""A sensible Ranking Top player that sees only its own view.

On its turn it plays toward its Ranking Top when it can (behind an Objeción
Denegada when it holds one, so the play cannot be topped), otherwise it
discards the card whose effect is worth most against what the card is worth
to keep. In a window it tops back a top of its own play, tops an opponent's
Ranking Top play that would finish it (a 1) or put it level or ahead, and
tops other useful plays only with a card it does not need; otherwise it
passes at once. Seeded noise breaks ties so bots do not all play alike.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from lanplay.game import Action, Seat, View
from lanplay.games.ranking_top import cards

NOISE = 0.3
Card = Mapping[str, Any]


def choose(view: View, seat: Seat, rng: random.Random) -> Action | None:
    """The action this bot takes now, or None when it may not act."""
    if view.get("over") or seat not in (view.get("actors") or []):
        return None
    phase = view["phase"]
    if phase == "window":
        return _answer(view, seat)
    if phase == "keep":
        hand = view["hand"]
        needed = view["needed"][seat]
        best = max(hand, key=lambda c: keep_value(c, needed) + rng.random() * NOISE)
        return {"type": "keep", "card": best["id"]}
    if phase in ("turn", "again"):
        return _play(view, seat, rng)
    return None


def keep_value(card: Card, needed: int) -> float:
    """How much a card in hand is worth to this player's race and defence."""
    if card["kind"] == "primordial":
        return 9.0
    if card["kind"] == "top":
        return 8.0
    number = int(card["number"])
    if number == needed:
        return 10.0
    if number == needed - 1:
        return 5.0
    if number < needed:
        return 3.0 - 0.5 * (needed - 1 - number)
    return 1.0


def _effect_value(card: Card, view: View, seat: Seat) -> float:
    """What discarding this card for its effect is worth now."""
    song = card["song"]
    hand: Sequence[Card] = view["hand"]
    needed = view["needed"][seat]
    counts = view["hand_counts"]
    if song is None:
        return 0.0
    left = int(counts[(seat + 1) % len(counts)])
    if song == cards.DIENTE:
        return 6.0
    if song == cards.MAMA:
        return 4.0
    if song == cards.ARWR:
        below = view["discard"][-3:]
        return 1.0 + sum(3.0 for c in below if keep_value(c, needed) >= 5.0)
    if song == cards.SEVERLA:
        return 2.0
    if song == cards.OBJECION:
        return 1.0
    rest = [c for c in hand if c["id"] != card["id"]]
    average = sum(keep_value(c, needed) for c in rest) / len(rest) if rest else 0.0
    if song == cards.DINOSAURIO:
        return 4.0 - average
    if song == cards.SENORA:
        return 2.0 - average / 2
    return 1.0 + 0.5 * (left - len(rest)) - average / 3  # MUNECA: we get the left hand


def _play(view: View, seat: Seat, rng: random.Random) -> Action:
    hand: Sequence[Card] = view["hand"]
    needed = view["needed"][seat]
    rank = set(view["can_rank"])
    if rank:
        choices = [c for c in hand if c["id"] in rank]
        songs = [c for c in choices if c["kind"] == "song"]
        chosen = (songs or choices)[0]
        shield = [c for c in hand if c["song"] == cards.OBJECION and c["id"] != chosen["id"]]
        if view["phase"] == "turn" and shield:
            return {"type": "play", "card": shield[0]["id"], "to": "discard"}
        return {"type": "play", "card": chosen["id"], "to": "top"}
    best = max(hand, key=lambda c: _effect_value(c, view, seat) - keep_value(c, needed)
               + rng.random() * NOISE)
    return {"type": "play", "card": best["id"], "to": "discard"}


def _answer(view: View, seat: Seat) -> Action:
    window = view["window"]
    passing: Action = {"type": "pass", "window": window}
    can_top = set(view["can_top"])
    if not can_top:
        return passing
    chain = view["chain"]
    play = chain[0]
    standing = bool(view["standing"])
    needed = view["needed"][seat]
    toppers = sorted((c for c in view["hand"] if c["id"] in can_top),
                     key=lambda c: keep_value(c, needed))
    cheapest = toppers[0]
    cheap = keep_value(cheapest, needed) < 5.0

    def top(card: Card) -> Action:
        return {"type": "top", "card": card["id"], "window": window}

    if play["seat"] == seat:
        return passing if standing else top(cheapest)
    if not standing:
        return passing
    if play["to"] == "top":
        owner = play["seat"]
        theirs = 6 - view["needed"][owner]  # cards after this play
        mine = 5 - needed
        if play["stands"] == 1 or theirs > mine or cheap:
            return top(cheapest)
        return passing
    song = play["card"]["song"]
    if cheap and song in (cards.DIENTE, cards.MAMA, cards.ARWR, cards.OBJECION):
        return top(cheapest)
    return passing
