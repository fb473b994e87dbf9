"""A sensible S-tier player that sees only its own view.

It judges pictures with ``lanplay.content.bot_score`` against the topic's
weights (with a little noise, so bots disagree on close calls), and turns a
score into an "ideal tier" (10 is S, 0 is D) when it must decide which tier
stays empty or which tiers hold two pictures.

On the cooperative shared board a bot moves a picture only while the board is
incomplete, and then onto an empty tier (it never pushes a placed picture back
into the pool), or once at the start of a second attempt (swapping the two
pictures it is least sure of); otherwise it locks in. That way bots never
keep unlocking each other, or a person, on the board.

A leading bot writes its note as a person's table does, ``{"type": "note",
"tiers": ...}``; its laptop's keeper (``lanplay.peer.keeper``) commits to it,
counts and reveals, so the bot never needs more than its view (in which
the keeper shows the leader its own note).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from lanplay.content import bot_score
from lanplay.game import Action, Seat, View

TIERS = 5
Weights = list[tuple[str, float]]


def choose(view: View, seat: Seat, rng: random.Random) -> Action | None:
    """The move this bot makes now, or None when it waits."""
    if view.get("over") or seat not in view.get("actors", []):
        return None
    if view.get("phase") in ("count", "reveal"):
        return None  # the leader's laptop answers from the note it keeps (keeper)
    mode = view.get("mode")
    if mode == "cooperative":
        return cooperative(view, seat, rng)
    if mode == "competitive":
        return competitive(view, seat, rng)
    if mode == "team":
        return team(view, seat, rng)
    return None


# --- judging pictures ------------------------------------------------------------

def weights_of(view: View) -> Weights:
    topic = view.get("topic") or {}
    return [(str(a), float(w)) for a, w in topic.get("weights", [])]


def scores(pictures: Sequence[str], weights: Weights, rng: random.Random,
           noise: float = 1.0) -> dict[str, float]:
    return {p: bot_score(p, weights, rng, noise=noise) for p in pictures}


def ideal(score: float) -> float:
    """Where a picture scoring ``score`` (0-10) belongs: 0.0 = S .. 4.0 = D."""
    return min(4.0, max(0.0, (10.0 - score) / 2.5))


def ranked(score: Mapping[str, float]) -> list[str]:
    return sorted(score, key=lambda p: (-score[p], p))


def spread(score: Mapping[str, float], tiers: Sequence[int]) -> dict[str, int]:
    """The best-first pictures on distinct ``tiers`` (in order), fitting ideal tiers best."""
    order = ranked(score)
    best: tuple[float, tuple[int, ...]] | None = None
    for pick in itertools.combinations(sorted(tiers), len(order)):
        cost = sum(abs(ideal(score[p]) - t) for p, t in zip(order, pick, strict=True))
        if best is None or cost < best[0]:
            best = (cost, pick)
    assert best is not None
    return dict(zip(order, best[1], strict=True))


def packed(score: Mapping[str, float]) -> dict[str, int]:
    """Every tier used, at most two per tier (competitive), fitting ideal tiers best."""
    order = ranked(score)
    doubles = len(order) - TIERS
    best: tuple[float, dict[str, int]] | None = None
    for twice in itertools.combinations(range(TIERS), doubles):
        slots = sorted([*range(TIERS), *twice])
        cost = sum(abs(ideal(score[p]) - t) for p, t in zip(order, slots, strict=True))
        if best is None or cost < best[0]:
            best = (cost, dict(zip(order, slots, strict=True)))
    assert best is not None
    return best[1]


# --- cooperative ---------------------------------------------------------------------

def cooperative(view: View, seat: Seat, rng: random.Random) -> Action | None:
    weights = weights_of(view)
    if view["phase"] == "note":
        return coop_note(view, weights, rng)
    board: list[str | None] = list(view["board"])
    pictures = [p["id"] for p in view["pictures"]]
    pool = [p for p in pictures if p not in board]
    hint = view.get("hint")
    fixed = hint["tier"] if hint else None
    table = shared(view)
    if pool:
        movable = sorted(p for p in pictures if p != (hint or {}).get("picture"))
        where = spread(scores(movable, weights, table), [t for t in range(TIERS) if t != fixed])
        picture = min(pool, key=lambda p: (where[p], p))
        # Onto an empty tier only: a picture someone placed is never pushed back into
        # the pool (a person and a bot who disagree would undo each other forever).
        # Bots fill the tiers in the order of their shared judgement, so among bots
        # the picture's own tier is the empty one.
        free = [t for t in range(TIERS) if board[t] is None and t != fixed]
        tier = min(free, key=lambda t: (abs(t - where[picture]), t)) if free \
            else where[picture]
        return {"type": "move", "picture": picture, "tier": tier}
    if seat in view["locked"]:
        return None
    if view["attempt"] == 2 and view.get("moves") == 0 and not view["locked"]:
        swap = least_sure(board, fixed, weights, table)
        if swap is not None:
            return {"type": "move", "picture": swap[0], "tier": swap[1]}
    return {"type": "lock"}


def shared(view: View) -> random.Random:
    """The table's common judgement for this attempt.

    Guessers act at the same time on the shared board; if each followed its
    own noisy ranking, their moves would keep displacing each other. Seeded
    by what every guesser sees, all bots aim for the same arrangement, so a
    late duplicate move changes nothing and the board converges.
    """
    topic = view.get("topic") or {}
    return random.Random(f"s-tier:{view.get('round')}:{view.get('attempt')}:{topic.get('id')}")


def coop_note(view: View, weights: Weights, rng: random.Random) -> Action:
    cards = view.get("cards") or []
    if cards:
        faces = []
        for front, _, back, _ in cards:
            both = scores([front, back], weights, rng)
            faces.append(max((front, back), key=lambda p: (abs(both[p] - 5.0), p)))
    else:
        faces = [p["id"] for p in view["pictures"]]
    score = scores(faces, weights, rng)
    where = spread(score, range(TIERS))
    tiers: list[str | None] = [None] * TIERS
    for p, t in where.items():
        tiers[t] = p
    action: Action = {"type": "note", "tiers": tiers}
    if "place-one" in view.get("effects", []):
        action["hint"] = max(where.values(),
                             key=lambda t: abs(ideal(score[tiers[t] or ""]) - t))
    return action


def least_sure(board: Sequence[str | None], fixed: int | None, weights: Weights,
               rng: random.Random) -> tuple[str, int] | None:
    """Swap the two neighbouring pictures whose scores are closest: (picture, its new tier)."""
    placed = [(t, p) for t, p in enumerate(board) if p is not None and t != fixed]
    if len(placed) < 2:
        return None
    score = scores(sorted(p for _, p in placed), weights, rng, noise=0.3)
    pairs = itertools.pairwise(placed)
    (_, upper), (t_low, _) = min(pairs, key=lambda ab: abs(score[ab[0][1]] - score[ab[1][1]]))
    return upper, t_low


# --- competitive ---------------------------------------------------------------------

def competitive(view: View, seat: Seat, rng: random.Random) -> Action | None:
    weights = weights_of(view)
    pictures = [p["id"] for p in view["pictures"]]
    where = packed(scores(pictures, weights, rng))
    if view["phase"] == "note":
        return {"type": "note", "tiers": [where[p] for p in pictures]}
    mine = view["dealt"][seat]
    if mine is None:
        return None
    return {"type": "place", "tier": where[mine]}


# --- team -----------------------------------------------------------------------------

def team(view: View, seat: Seat, rng: random.Random) -> Action | None:
    weights = weights_of(view)
    phase = view["phase"]
    pictures: list[dict[str, Any]] = view["pictures"]
    if phase == "notes":
        own = [p["id"] for p in pictures]
        order = ranked(scores(own, weights, rng))
        return {"type": "note", "tiers": order}
    if phase == "wrong":
        pending = view["pending"]
        note = view.get("note") or []
        lying = next(p["tier"] for p in pictures if p["id"] == pending["picture"])
        wrong = pending["picture"] in note and note.index(pending["picture"]) != lying
        return {"type": "wrong" if wrong else "silent"}
    guess = estimates(pictures, weights, rng)
    if phase == "fix":
        picture = view["pending"]["picture"]
        now = next(p["tier"] for p in pictures if p["id"] == picture)
        estimate, _ = guess[picture]
        tier = min((t for t in range(TIERS) if t != now), key=lambda t: (abs(t - estimate), t))
        return {"type": "move", "picture": picture, "tier": tier}
    mine = seat % 2
    open_ = [p for p in pictures if p["taken"] is None]
    best = max(open_, key=lambda p: (guess[p["id"]][1] + (0.5 if p["team"] == mine else 0.0),
                                     p["id"]))
    return {"type": "take", "picture": best["id"], "tier": guess[best["id"]][0]}


def estimates(pictures: Sequence[Mapping[str, Any]], weights: Weights,
              rng: random.Random) -> dict[str, tuple[int, float]]:
    """Per picture: the tier its leader most likely wrote, and how sure (the score gap)."""
    out: dict[str, tuple[int, float]] = {}
    for owner in (0, 1):
        ids = [p["id"] for p in pictures if p["team"] == owner]
        score = scores(ids, weights, rng)
        order = ranked(score)
        for rank, p in enumerate(order):
            gaps = [abs(score[p] - score[q]) for q in order[max(0, rank - 1):rank + 2] if q != p]
            out[p] = (rank, min(gaps) if gaps else 10.0)
    return out
