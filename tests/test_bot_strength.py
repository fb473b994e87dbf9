"""Bots of two strengths, a room setting the host's bots read: "relaxed" (the default:
sometimes a good-enough move of the same kind rather than the best, slower to lock in)
and "strong" (the game's own bot, as before). The games' ``bot(view, seat, rng)`` stay
pure: the difference is in how a bot peer uses their choice."""

from __future__ import annotations

import random

import pytest

from lanplay import games
from lanplay.host.commands import BOT_STRENGTHS
from lanplay.peer.bots import LOCK_WAIT, RELAXED_SLIP, relaxed, wait_for
from lanplay.room import Room
from lanplay.session import Session


def _views(game_id: str, players: int, steps: int = 40) -> list[tuple[dict, int, object]]:
    game = games.load(game_id)
    session = Session(game, players, seed=3)
    rng = random.Random(3)
    out = []
    for _ in range(steps):
        if session.result is not None:
            break
        seat = min(session.actors())
        view = session.view(seat)
        out.append((view, seat, session.state))
        session.submit(seat, game.bot(view, seat, rng))
    return out


@pytest.mark.parametrize("game_id, players", [("alles-klar", 3), ("ranking-top", 3),
                                              ("ranagedon", 2)])
def test_a_relaxed_move_is_one_the_seat_may_send_and_of_the_same_kind(
        game_id: str, players: int) -> None:
    game = games.load(game_id)
    ease = random.Random(1)
    slipped = 0
    for view, seat, state in _views(game_id, players):
        best = game.bot(view, seat, random.Random(2))
        move = relaxed(best, view, ease)
        assert move.get("type") == best.get("type")
        game.check(state, seat, move)  # the rules take it
        slipped += move != best
        assert view["may"], "a seat that acts may do something"
    assert slipped > 0  # it does play differently sometimes


def test_a_relaxed_bot_slips_about_as_often_as_it_says() -> None:
    view = {"may": [{"type": "play", "card": c} for c in range(5)]}
    ease = random.Random(7)
    moves = [relaxed({"type": "play", "card": 0}, view, ease) for _ in range(2000)]
    share = sum(m["card"] != 0 for m in moves) / len(moves)
    assert abs(share - RELAXED_SLIP * 4 / 5) < 0.05


def test_a_relaxed_bot_takes_its_time_before_locking_in() -> None:
    pace = random.Random(1)
    assert wait_for({"type": "lock"}, 1.0, "relaxed", pace) >= LOCK_WAIT
    assert wait_for({"type": "lock"}, 1.0, "strong", pace) < 1.5
    assert wait_for({"type": "lock"}, 0.0, "relaxed", pace) == 0.0  # tests: no waits


def test_the_room_offers_both_strengths_relaxed_by_default() -> None:
    room = Room("alles-klar", host_name="Mia")
    assert room.bots == "relaxed" and room.lobby_message().bots == "relaxed"
    assert BOT_STRENGTHS == ("relaxed", "strong")
