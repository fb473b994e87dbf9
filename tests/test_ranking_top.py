"""Ranking Top: scenarios from the rulebook and the decisions in rules.py."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from lanplay.game import SYSTEM, IllegalAction
from lanplay.games.ranking_top import GAME, cards
from lanplay.games.ranking_top.cards import (
    ARWR,
    DIENTE,
    DINOSAURIO,
    MAMA,
    MUNECA,
    OBJECION,
    SENORA,
    SEVERLA,
    song_card,
)
from lanplay.games.ranking_top.state import HAND_SIZES, State

TOP = [80 + i for i in range(9)]
PRIM = [89 + i for i in range(5)]


def S(song: int, number: int, copy: int = 0) -> int:
    return song_card(song, number, copy)


def make(hands: Sequence[Sequence[int]], *, deck: Sequence[int] = (),
         discard: Sequence[int] = (), ranking: Sequence[Sequence[int]] | None = None,
         current: int = 0, direction: int = 1, top_seconds: int = 0) -> State:
    """A mid-game state; ``ranking`` lists each seat's Ranking Top cards (5 first)."""
    players = len(hands)
    rows = [tuple((c, 5 - i) for i, c in enumerate(r)) for r in (ranking or [[]] * players)]
    return State(players=players, hand_size=HAND_SIZES[players], top_seconds=top_seconds,
                 seed=7, hands=tuple(tuple(h) for h in hands), deck=tuple(deck),
                 discard=tuple(discard), ranking=tuple(rows), direction=direction,
                 current=current, phase="turn", passed=(False,) * players)


def play(state: State, seat: int, card: int, to: str = "discard") -> State:
    return GAME.apply(state, seat, {"type": "play", "card": card, "to": to})


def top(state: State, seat: int, card: int) -> State:
    return GAME.apply(state, seat, {"type": "top", "card": card, "window": state.window})


def pass_all(state: State) -> State:
    while state.phase == "window":
        seat = min(GAME.actors(state))
        state = GAME.apply(state, seat, {"type": "pass", "window": state.window})
    return state


def refused(state: State, seat: int, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, seat, action)
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, action)
    return err.value.reason


FILLER = [S(MUNECA, 2, 0), S(MUNECA, 2, 1), S(SEVERLA, 2, 0), S(SEVERLA, 2, 1)]
"""Plain cards for hands that only need to exist."""


# --- the deck and the deal --------------------------------------------------------------------


def test_deck_has_80_songs_9_tops_5_primordials() -> None:
    data = [cards.card_data(c) for c in range(cards.DECK_SIZE)]
    assert cards.DECK_SIZE == 94
    kinds = Counter(d["kind"] for d in data)
    assert kinds == {"song": 80, "top": 9, "primordial": 5}
    songs = Counter((d["song"], d["number"]) for d in data if d["kind"] == "song")
    assert songs == {(s, n): 2 for s in range(8) for n in range(1, 6)}
    assert all(d["song"] is None and d["number"] is None for d in data if d["kind"] != "song")
    assert data[S(SEVERLA, 3)]["title"] == "Severlá"
    assert data[TOP[0]]["artist"] == "Policarpo Avendaño"
    assert set(data[0]) == {"id", "song", "number", "kind", "title", "artist", "effect"}


@pytest.mark.parametrize(("players", "size"), [(3, 5), (4, 4), (5, 3)])
def test_starting_hands_by_player_count(players: int, size: int) -> None:
    state = GAME.setup(players, "standard", {"top_seconds": 0}, 3)
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.deck) == 94 - size * players
    everything = [c for h in state.hands for c in h] + list(state.deck)
    assert sorted(everything) == list(range(94))


def test_draw_up_at_the_start_of_a_turn_only_to_the_starting_size() -> None:
    deck = [S(MAMA, 2), S(MAMA, 3), S(MAMA, 4), S(ARWR, 2)]
    hands = [[S(SEVERLA, 4), *FILLER[:3]], [S(MUNECA, 1)],
             [TOP[0], S(DIENTE, 2), S(DIENTE, 3), S(DIENTE, 4)],
             [TOP[1], TOP[2], S(SENORA, 1), S(SENORA, 2), S(SENORA, 3)]]
    state = pass_all(play(make(hands, deck=deck), 0, S(SEVERLA, 4)))
    # Severlá: reversed, seat 0 drew 1; the next seat is 3 (counter-clockwise).
    assert state.current == 3 and state.hands[0] == (*FILLER[:3], S(MAMA, 2))
    assert len(state.hands[3]) == 5  # more than the starting hand: no draw
    state = play(state, 3, TOP[1])  # no effect, no window
    assert state.current == 2 and len(state.hands[2]) == 4
    state = play(state, 2, TOP[0])
    assert state.current == 1
    assert state.hands[1] == (S(MUNECA, 1), S(MAMA, 3), S(MAMA, 4), S(ARWR, 2))


# --- playing into the Ranking Top -------------------------------------------------------------


def test_ranking_top_goes_5_to_1_and_primordial_stands_for_the_needed_number() -> None:
    state = make([[S(MAMA, 4), S(MAMA, 5), PRIM[0], TOP[0]], FILLER, FILLER],
                 deck=FILLER * 3)
    assert "needs a 5" in refused(state, 0, {"type": "play", "card": S(MAMA, 4), "to": "top"})
    assert "Top card" in refused(state, 0, {"type": "play", "card": TOP[0], "to": "top"})
    wild = pass_all(play(state, 0, PRIM[0], "top"))
    assert wild.ranking[0] == ((PRIM[0], 5),)
    state = pass_all(play(state, 0, S(MAMA, 5), "top"))
    assert state.ranking[0] == ((S(MAMA, 5), 5),)
    assert GAME.view(state, 1)["needed"] == [4, 5, 5]


def test_untopped_1_ends_the_game_and_a_topped_1_does_not() -> None:
    four = [S(MAMA, 5), S(MAMA, 4), S(MAMA, 3), S(MAMA, 2)]
    state = make([[S(SEVERLA, 1)], [S(ARWR, 1), *FILLER], FILLER], ranking=[four, [], []],
                 deck=FILLER * 4)
    played = play(state, 0, S(SEVERLA, 1), "top")
    assert played.phase == "window" and GAME.result(played) is None
    topped = pass_all(top(played, 1, S(ARWR, 1)))
    assert GAME.result(topped) is None and len(topped.ranking[0]) == 4
    won = pass_all(played)
    result = GAME.result(won)
    assert result is not None and result.winners == (0,) and result.scores == (5, 0, 0)
    assert GAME.actors(won) == frozenset() and GAME.legal(won, 1) == []
    assert GAME.view(won, None)["winners"] == [0]


# --- topping chains ---------------------------------------------------------------------------


def test_one_top_cancels_and_everything_goes_to_the_discard_pile() -> None:
    state = make([[S(MAMA, 5), *FILLER], [S(DIENTE, 5), *FILLER], FILLER], deck=FILLER * 4)
    state = play(state, 0, S(MAMA, 5), "top")
    assert GAME.actors(state) == {1, 2}
    state = top(state, 1, S(DIENTE, 5))
    assert GAME.actors(state) == {0, 2}  # the owner of the top may not top it
    state = pass_all(state)
    assert state.ranking[0] == () and state.discard == (S(DIENTE, 5), S(MAMA, 5))
    last = GAME.view(state, 2)["last"]
    assert last["kind"] == "close" and last["tops"] == 1 and last["effective"] is False


def test_rulebook_example_2_the_player_tops_the_top_and_the_effect_happens() -> None:
    """Elena plays Diente blanco 1, Rafa tops with a 1, Elena tops back with a Top."""
    elena = [S(DIENTE, 1), TOP[0], FILLER[0]]
    state = make([elena, [S(MAMA, 1), *FILLER], FILLER], deck=[S(ARWR, 3), S(ARWR, 4)] * 3)
    state = top(play(state, 0, S(DIENTE, 1)), 1, S(MAMA, 1))
    assert GAME.view(state, 0)["standing"] is False
    state = top(state, 0, TOP[0])
    assert state.window == 3 and GAME.view(state, 0)["standing"] is True
    state = pass_all(state)
    assert state.phase == "again" and state.again == "diente"  # the effect happens
    assert S(ARWR, 3) in state.hands[0] and S(ARWR, 4) in state.hands[0]
    assert list(state.discard) == [S(MAMA, 1), TOP[0], S(DIENTE, 1)]


def test_a_top_card_can_only_be_topped_by_a_top_card() -> None:
    state = make([[S(MAMA, 3), *FILLER], [TOP[0], *FILLER], [S(ARWR, 3), PRIM[0], TOP[1]]])
    state = top(play(state, 0, S(MAMA, 3)), 1, TOP[0])
    assert GAME.view(state, 2)["can_top"] == [TOP[1]]
    reason = refused(state, 2, {"type": "top", "card": S(ARWR, 3), "window": state.window})
    assert "cannot top" in reason
    assert "only tops another Primordial" in refused(
        state, 2, {"type": "top", "card": PRIM[0], "window": state.window})


def test_primordial_in_the_ranking_top_topped_by_primordial_top_or_its_number() -> None:
    hands = [[PRIM[0], *FILLER], [PRIM[1], TOP[0], S(ARWR, 5), S(ARWR, 4)], FILLER]
    state = play(make(hands), 0, PRIM[0], "top")
    assert sorted(GAME.view(state, 1)["can_top"]) == sorted([PRIM[1], TOP[0], S(ARWR, 5)])
    by_prim = top(state, 1, PRIM[1])
    # a topping Primordial counts as no number: only a Top or a Primordial tops it back
    assert by_prim.chain[-1].stands is None
    for topper in (PRIM[1], TOP[0], S(ARWR, 5)):
        assert pass_all(top(state, 1, topper)).ranking[0] == ()


def test_primordial_tops_only_primordials_and_songs_top_their_number() -> None:
    hands = [[S(MAMA, 4), *FILLER], [PRIM[0], S(ARWR, 4), S(ARWR, 2)], FILLER]
    state = play(make(hands), 0, S(MAMA, 4))
    assert GAME.view(state, 1)["can_top"] == [S(ARWR, 4)]
    assert GAME.legal(state, 1) == [{"type": "pass", "window": 1},
                                    {"type": "top", "card": S(ARWR, 4), "window": 1}]


def test_four_tops_leave_the_play_standing() -> None:
    hands = [[S(MAMA, 5), TOP[0], FILLER[0]], [TOP[1], FILLER[1]], [TOP[2], TOP[3], FILLER[2]]]
    state = play(make(hands, deck=FILLER * 3), 0, S(MAMA, 5), "top")
    for seat, card in ((1, TOP[1]), (2, TOP[2]), (0, TOP[0]), (2, TOP[3])):
        state = top(state, seat, card)
    assert len(state.chain) == 5 and GAME.view(state, 1)["standing"] is True
    state = pass_all(state)
    assert state.ranking[0] == ((S(MAMA, 5), 5),)
    assert state.discard == (TOP[1], TOP[2], TOP[0], TOP[3])


# --- the window closes ------------------------------------------------------------------------


def test_window_closes_when_every_eligible_seat_passed() -> None:
    state = play(make([[S(MAMA, 5), *FILLER], FILLER, FILLER, FILLER]), 0, S(MAMA, 5), "top")
    assert GAME.actors(state) == {1, 2, 3}
    state = GAME.apply(state, 2, {"type": "pass", "window": 1})
    assert GAME.actors(state) == {1, 3} and GAME.view(state, 0)["passed"] == [
        False, False, True, False]
    assert "already passed" in refused(state, 2, {"type": "pass", "window": 1})
    state = GAME.apply(state, 1, {"type": "pass", "window": 1})
    assert state.phase == "window"
    state = GAME.apply(state, 3, {"type": "pass", "window": 1})
    assert state.phase == "turn" and state.current == 1 and len(state.ranking[0]) == 1


def test_timeout_closes_the_window_and_stale_window_actions_are_refused() -> None:
    hands = [[S(MAMA, 5), *FILLER], [S(ARWR, 5), *FILLER], [TOP[0], *FILLER]]
    state = play(make(hands, top_seconds=4, deck=FILLER * 3), 0, S(MAMA, 5), "top")
    timer = GAME.timer(state, {"top_seconds": 4})
    assert timer is not None and timer.key == "window-1" and timer.seconds == 4
    assert timer.action == {"type": "timeout", "window": 1}
    assert "Only the host" in refused(state, 1, timer.action)
    topped = top(state, 1, S(ARWR, 5))
    assert GAME.timer(topped, {}).key == "window-2"  # type: ignore[union-attr]
    assert "closed" in refused(topped, SYSTEM, timer.action)
    assert "closed" in refused(topped, 2, {"type": "pass", "window": 1})
    assert "closed" in refused(topped, 2, {"type": "top", "card": TOP[0], "window": 1})
    closed = GAME.apply(topped, SYSTEM, {"type": "timeout", "window": 2})
    assert closed.phase == "turn" and closed.ranking[0] == ()
    assert GAME.view(closed, 0)["last"]["timeout"] is True
    assert "closed" in refused(closed, SYSTEM, {"type": "timeout", "window": 2})
    assert GAME.timer(closed, {}) is None
    off = play(make(hands, top_seconds=0), 0, S(MAMA, 5), "top")
    assert GAME.timer(off, {"top_seconds": 0}) is None


def test_pass_is_order_independent_but_top_is_not() -> None:
    state = play(make([[S(MAMA, 5), *FILLER], [TOP[0]], FILLER]), 0, S(MAMA, 5), "top")
    assert GAME.order_independent(state, 1, {"type": "pass", "window": 1}) is True
    assert GAME.order_independent(state, 1, {"type": "top", "card": TOP[0], "window": 1}) is False
    assert GAME.order_independent(state, 1, ["junk"]) is False  # type: ignore[arg-type]


# --- Objeción Denegada and Diente blanco ------------------------------------------------------


def test_objecion_second_card_opens_no_window_but_objecion_can_be_topped() -> None:
    hands = [[S(OBJECION, 3), S(MAMA, 5), *FILLER[:2]], [S(ARWR, 3), TOP[0], *FILLER], FILLER]
    state = play(make(hands, deck=FILLER * 3), 0, S(OBJECION, 3))
    assert state.phase == "window"  # Objeción itself can be topped
    assert pass_all(top(state, 1, S(ARWR, 3))).phase == "turn"
    state = pass_all(state)
    assert state.phase == "again" and state.again == "objecion" and GAME.actors(state) == {0}
    assert GAME.view(state, 0)["can_rank"] == [S(MAMA, 5)]
    state = play(state, 0, S(MAMA, 5), "top")
    assert state.phase == "turn" and state.current == 1  # no window: it stands at once
    assert state.ranking[0] == ((S(MAMA, 5), 5),)
    assert GAME.view(state, 2)["last"]["protected"] is True


def test_objecion_protected_1_wins_at_once() -> None:
    four = [S(MAMA, 5), S(MAMA, 4), S(MAMA, 3), S(MAMA, 2)]
    state = make([[S(OBJECION, 5), PRIM[0]], [TOP[0], TOP[1]], FILLER], ranking=[four, [], []])
    state = play(pass_all(play(state, 0, S(OBJECION, 5))), 0, PRIM[0], "top")
    result = GAME.result(state)
    assert result is not None and result.winners == (0,)


def test_diente_second_play_opens_a_window() -> None:
    hands = [[S(DIENTE, 3), S(MAMA, 5)], [S(ARWR, 5), *FILLER], FILLER]
    state = pass_all(play(make(hands, deck=[S(ARWR, 1), S(ARWR, 2), *FILLER]), 0, S(DIENTE, 3)))
    assert state.phase == "again" and state.again == "diente"
    assert sorted(state.hands[0]) == sorted([S(MAMA, 5), S(ARWR, 1), S(ARWR, 2)])
    state = play(state, 0, S(MAMA, 5), "top")
    assert state.phase == "window"
    state = pass_all(top(state, 1, S(ARWR, 5)))
    assert state.ranking[0] == () and state.current == 1


# --- the song effects -------------------------------------------------------------------------


def test_mi_muneca_passes_every_hand_to_the_right() -> None:
    hands = [[S(MUNECA, 3), S(ARWR, 1)], [S(ARWR, 2)], [], [S(ARWR, 4), S(ARWR, 5)]]
    state = pass_all(play(make(hands, deck=FILLER * 4), 0, S(MUNECA, 3)))
    # the hand of seat s goes to seat s - 1 (its right); seat 2 had none
    assert state.hands[0][:1] == (S(ARWR, 2),)
    assert len(state.hands[1]) == 4 and set(state.hands[1]) <= set(FILLER)  # drew up
    assert state.hands[2] == (S(ARWR, 4), S(ARWR, 5))
    assert state.hands[3] == (S(ARWR, 1),)


def test_severla_reverses_and_draws_one() -> None:
    state = make([[S(SEVERLA, 2), FILLER[0]], FILLER, FILLER, FILLER], deck=[S(ARWR, 1), *FILLER])
    state = pass_all(play(state, 0, S(SEVERLA, 2)))
    assert state.direction == -1 and state.current == 3
    assert state.hands[0] == (FILLER[0], S(ARWR, 1))
    state = pass_all(play(state, 3, FILLER[0]))
    assert state.current == 2


def test_la_senora_everyone_discards_and_draws_four() -> None:
    deck = [S(ARWR, n, c) for n in range(1, 6) for c in range(2)] + [S(MAMA, n) for n in (1, 2, 3)]
    hands = [[S(SENORA, 4), TOP[0]], [TOP[1], TOP[2], TOP[3]], [PRIM[0]]]
    state = pass_all(play(make(hands, deck=deck), 0, S(SENORA, 4)))
    assert [len(h) for h in state.hands] == [4, 5, 4]  # seat 1 then drew up to 5
    assert state.hands[0] == tuple(deck[:4]) and state.hands[1][:4] == tuple(deck[4:8])
    assert set(state.discard) == {S(SENORA, 4), TOP[0], TOP[1], TOP[2], TOP[3], PRIM[0]}


def test_dinosaurio_keeps_one_chosen_card_then_draws_four() -> None:
    hands = [[S(DINOSAURIO, 2), TOP[0], S(ARWR, 1), S(ARWR, 2)], FILLER, FILLER]
    deck = [S(MAMA, n) for n in range(1, 6)]
    state = pass_all(play(make(hands, deck=deck), 0, S(DINOSAURIO, 2)))
    assert state.phase == "keep" and GAME.actors(state) == {0}
    assert GAME.legal(state, 0) == [{"type": "keep", "card": c} for c in state.hands[0]]
    assert "No 'play' now" in refused(state, 0, {"type": "play", "card": TOP[0],
                                                  "to": "discard"})
    assert "not in your hand" in refused(state, 0, {"type": "keep", "card": S(MAMA, 5)})
    state = GAME.apply(state, 0, {"type": "keep", "card": TOP[0]})
    assert state.hands[0] == (TOP[0], *deck[:4]) and state.current == 1
    assert state.discard[-2:] == (S(ARWR, 1), S(ARWR, 2))
    last = GAME.view(state, 1)["last"]
    assert last["kind"] == "keep" and [c["id"] for c in last["discarded"]] == [
        S(ARWR, 1), S(ARWR, 2)]


def test_dinosaurio_with_an_empty_hand_just_draws() -> None:
    state = make([[S(DINOSAURIO, 2)], FILLER, FILLER], deck=FILLER * 2)
    state = pass_all(play(state, 0, S(DINOSAURIO, 2)))
    assert state.phase == "turn" and len(state.hands[0]) == 4 and state.current == 1


def test_mi_mama_draws_three_and_everyone_else_two() -> None:
    hands = [[S(MAMA, 4)], [FILLER[0]], [FILLER[1]], [FILLER[2]]]
    state = pass_all(play(make(hands, deck=FILLER * 4), 0, S(MAMA, 4)))
    assert len(state.hands[0]) == 3 and len(state.hands[2]) == 3 and len(state.hands[3]) == 3
    assert len(state.hands[1]) == 4  # seat 1 drew 2, then up to 4 on its turn


def test_arwr_takes_the_three_discards_before_its_chain() -> None:
    below = [S(MAMA, 1), S(MAMA, 2), S(MAMA, 3), S(MAMA, 4)]
    hands = [[S(ARWR, 2), TOP[0], FILLER[0]], [S(DIENTE, 2), *FILLER], FILLER]
    state = make(hands, discard=below, deck=FILLER * 3)
    state = pass_all(top(top(play(state, 0, S(ARWR, 2)), 1, S(DIENTE, 2)), 0, TOP[0]))
    assert state.hands[0] == (FILLER[0], S(MAMA, 2), S(MAMA, 3), S(MAMA, 4))
    assert state.discard == (S(MAMA, 1), S(DIENTE, 2), TOP[0], S(ARWR, 2))


def test_arwr_with_a_short_pile_takes_what_there_is() -> None:
    state = make([[S(ARWR, 2), FILLER[0]], FILLER, FILLER], discard=[S(MAMA, 1)], deck=FILLER)
    state = pass_all(play(state, 0, S(ARWR, 2)))
    assert S(MAMA, 1) in state.hands[0] and state.discard == (S(ARWR, 2),)


def test_top_and_primordial_on_the_discard_pile_do_nothing_and_open_no_window() -> None:
    state = play(make([[TOP[0], PRIM[0]], FILLER, FILLER], deck=FILLER), 0, TOP[0])
    assert state.phase == "turn" and state.current == 1 and state.discard == (TOP[0],)


# --- running out of cards ---------------------------------------------------------------------


def test_deck_reshuffles_the_discard_pile_with_its_own_stream() -> None:
    pile = [S(ARWR, n) for n in range(1, 6)]
    state = make([[S(MAMA, 4)], FILLER, FILLER], discard=pile, deck=[])
    state = pass_all(play(state, 0, S(MAMA, 4)))
    assert state.reshuffles == 1
    drawn = [c for h in state.hands for c in h if c in pile or c == S(MAMA, 4)]
    assert len(drawn) + len(state.deck) + len(state.discard) == 6
    again = pass_all(play(make([[S(MAMA, 4)], FILLER, FILLER], discard=pile, deck=[]),
                          0, S(MAMA, 4)))
    assert again == state


def test_nothing_to_draw_gives_what_there_is_and_empty_hands_are_skipped() -> None:
    state = make([[S(MAMA, 4)], [], [S(ARWR, 1)]], deck=[], discard=[])
    state = pass_all(play(state, 0, S(MAMA, 4)))
    # Mamá: its own card is the only one to draw, seat 0 gets it back; seat 1 is skipped.
    assert state.hands[0] == (S(MAMA, 4),)
    assert state.current == 2
    assert any("skipped" in line.text for line in state.log)


# --- hidden information -----------------------------------------------------------------------


def test_views_hide_hands_and_deck_and_a_pass_looks_the_same_whatever_the_hand() -> None:
    base = play(make([[S(MAMA, 5), *FILLER], [TOP[0], S(ARWR, 5)], FILLER], deck=FILLER),
                0, S(MAMA, 5), "top")
    empty = play(make([[S(MAMA, 5), *FILLER], [FILLER[0], FILLER[1]], FILLER], deck=FILLER),
                 0, S(MAMA, 5), "top")
    a = GAME.apply(base, 1, {"type": "pass", "window": 1})
    b = GAME.apply(empty, 1, {"type": "pass", "window": 1})
    for viewer in (0, 2, None):
        assert GAME.view(a, viewer) == GAME.view(b, viewer)
        assert GAME.legal(a, viewer or 0) == GAME.legal(b, viewer or 0)
    for viewer in (0, 2, None):
        assert TOP[0] not in card_ids(GAME.view(a, viewer))  # seat 1's Top stays hidden
    assert TOP[0] in card_ids(GAME.view(a, 1))
    assert GAME.view(a, None)["hand"] == [] and GAME.view(a, None)["can_top"] == []
    assert isinstance(GAME.view(a, 2)["deck"], int)


def card_ids(value: Any) -> set[int]:
    """Every card id anywhere in a view (card maps and id lists)."""
    if isinstance(value, dict):
        found = {value["id"]} if "kind" in value and "id" in value else set()
        for key, item in value.items():
            if key in ("can_top", "can_rank"):
                found |= set(item)
            else:
                found |= card_ids(item)
        return found
    if isinstance(value, list):
        return set().union(*(card_ids(v) for v in value)) if value else set()
    return set()


def test_hidden_cards_never_reach_another_seats_view_in_a_game() -> None:
    for seed in range(3):
        state = GAME.setup(4, "standard", {"top_seconds": 0}, seed)
        rng = random.Random(seed)
        for _ in range(150):
            if GAME.result(state) is not None:
                break
            for viewer in range(4):
                view = GAME.view(state, viewer)
                assert [c["id"] for c in view["hand"]] == list(state.hands[viewer])
                others = {c for s in range(4) if s != viewer for c in state.hands[s]}
                assert not others & set(view["can_top"]) and not others & set(view["can_rank"])
            seat = rng.choice(sorted(GAME.actors(state)))
            state = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))


# --- refusals ---------------------------------------------------------------------------------


def test_illegal_actions_are_refused_with_reasons() -> None:
    state = make([[S(MAMA, 5), S(MAMA, 4)], [S(ARWR, 5), TOP[0]], FILLER])
    assert "not your turn" in refused(state, 1, {"type": "play", "card": TOP[0],
                                                  "to": "discard"})
    assert "not in your hand" in refused(state, 0, {"type": "play", "card": TOP[0],
                                                     "to": "discard"})
    assert "'to' must be" in refused(state, 0, {"type": "play", "card": S(MAMA, 5),
                                                 "to": "left"})
    assert "needs a 'to'" in refused(state, 0, {"type": "play", "card": S(MAMA, 5)})
    assert "Unknown action" in refused(state, 0, {"type": "dance"})
    assert "no window" in refused(state, 1, {"type": "pass", "window": 0})
    window = play(state, 0, S(MAMA, 5), "top")
    assert "own card" in refused(window, 0, {"type": "pass", "window": 1})
    assert "No 'play' now" in refused(window, 1, {"type": "play", "card": TOP[0],
                                                   "to": "discard"})
    assert "'window' must be" in refused(window, 1, {"type": "pass", "window": "1"})
    assert "host only" in refused(window, SYSTEM, {"type": "pass", "window": 1})


# --- bots -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bot_games_end_with_a_winner(players: int) -> None:
    for seed in range(3):
        state = GAME.setup(players, "standard", {"top_seconds": 0}, seed)
        rngs = [random.Random(seed * 10 + s) for s in range(players)]
        for _ in range(2000):
            if GAME.result(state) is not None:
                break
            moved = False
            for seat in sorted(GAME.actors(state)):
                action = GAME.bot(GAME.view(state, seat), seat, rngs[seat])
                if action is not None:
                    state = GAME.apply(state, seat, action)
                    moved = True
                    break
            assert moved, "the bots all waited"
        result = GAME.result(state)
        assert result is not None and len(result.winners) == 1
        assert result.scores[result.winners[0]] == 5


def test_bot_tops_an_opponents_1_and_saves_its_own_play() -> None:
    four = [S(MAMA, 5), S(MAMA, 4), S(MAMA, 3), S(MAMA, 2)]
    state = make([[S(SEVERLA, 1)], [TOP[0], S(ARWR, 5)], FILLER], ranking=[four, [], []])
    state = play(state, 0, S(SEVERLA, 1), "top")
    action = GAME.bot(GAME.view(state, 1), 1, random.Random(0))
    assert action == {"type": "top", "card": TOP[0], "window": 1}
    assert GAME.bot(GAME.view(state, 2), 2, random.Random(0)) == {"type": "pass", "window": 1}
    state = top(state, 1, TOP[0])
    mine = make([[S(SEVERLA, 1), TOP[1]], [TOP[0]], FILLER], ranking=[four, [], []])
    mine = top(play(mine, 0, S(SEVERLA, 1), "top"), 1, TOP[0])
    assert GAME.bot(GAME.view(mine, 0), 0, random.Random(0)) == {
        "type": "top", "card": TOP[1], "window": 2}


def test_bot_plays_toward_its_ranking_top_behind_objecion() -> None:
    state = make([[S(MAMA, 5), S(OBJECION, 2), FILLER[2]], FILLER, FILLER])
    assert GAME.bot(GAME.view(state, 0), 0, random.Random(0)) == {
        "type": "play", "card": S(OBJECION, 2), "to": "discard"}
    state = make([[S(MAMA, 5), FILLER[2]], FILLER, FILLER])
    assert GAME.bot(GAME.view(state, 0), 0, random.Random(0)) == {
        "type": "play", "card": S(MAMA, 5), "to": "top"}
    assert GAME.bot(GAME.view(state, 1), 1, random.Random(0)) is None
