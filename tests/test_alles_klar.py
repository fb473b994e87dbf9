"""Alles klar? scenarios, written the way the rulebook tells them.

Cards are written as in the rulebook: ``c("7 III")`` is a 7 with numeral III,
``c("7")`` a 7 without numeral, ``c("7 II V")`` the two-numeral 7. States are
built directly with ``rules.build`` where that reads clearer than playing
into them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgpack
import pytest

from lanplay.game import Game, IllegalAction, format_log
from lanplay.games.alles_klar import GAME, rules
from lanplay.games.alles_klar.bot import choose
from lanplay.games.alles_klar.rules import Placed, State, build, card_id, decide

ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}


def c(text: str) -> int:
    value, *numerals = text.split()
    return card_id(int(value), *(ROMAN[n] for n in numerals))


def cards(text: str) -> list[int]:
    """'7 III, 5, 3 II V' -> three card ids."""
    return [c(part) for part in text.split(",") if part.strip()]


def down(text: str) -> Placed:
    return Placed(c(text), up=False)


def play(state: State, seat: int, card: str, numeral: int | None = None) -> State:
    action: dict[str, Any] = {"type": "play", "card": c(card)}
    if numeral is not None:
        action["numeral"] = numeral
    return GAME.apply(state, seat, action)


def up_values(state: State) -> list[int]:
    return sorted(rules.card_value(p.card) for row in state.table for p in row if p.up)


def ups(state: State) -> list[int]:
    return [n for n in range(1, 6) if state.ranking[n - 1]]


def won(state: State) -> list[list[int]]:
    """Each seat's won cards, sorted (the order inside a pile means nothing)."""
    return [sorted(w) for w in state.won]


def bag(text: str) -> list[int]:
    return sorted(cards(text))


def texts(state: State) -> list[str]:
    return [line.text for line in state.log]


# --- the deck -------------------------------------------------------------------

def test_the_deck_has_77_cards_seven_of_each_value() -> None:
    assert Counter(rules.card_value(i) for i in range(77)) == {v: 7 for v in range(1, 12)}
    assert len({(rules.card_value(i), i // 11) for i in range(77)}) == 77


@pytest.mark.parametrize("numeral", [1, 2, 3, 4, 5])
def test_five_sets_carry_one_numeral_on_every_card(numeral: int) -> None:
    assert [rules.card_numerals(card_id(v, numeral)) for v in range(1, 12)] == [(numeral,)] * 11


def test_one_set_carries_no_numeral_and_one_set_two() -> None:
    assert [rules.card_numerals(i) for i in range(55, 66)] == [()] * 11
    assert [rules.card_numerals(i) for i in range(66, 77)] == [
        (1, 2), (1, 3), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5), (3, 4), (3, 5), (4, 5), (1, 2),
    ]
    assert rules.card_label(c("7 II V")) == "7 (II, V)"


def test_setup_deals_hands_and_a_pile_with_all_ranking_cards_up() -> None:
    state = GAME.setup(4, "standard", {"hand_size": 5}, seed=3)
    assert [len(h) for h in state.hands] == [5, 5, 5, 5]
    assert len(state.pile) == 77 - 20
    assert sorted([*state.pile, *(x for h in state.hands for x in h)]) == list(range(77))
    assert state.ranking == (True,) * 5
    assert GAME.actors(state) == {state.turn}
    assert state.log[0].seats == (state.turn,)


def test_the_first_player_is_drawn_by_the_seed() -> None:
    firsts = {GAME.setup(5, "standard", {}, seed).turn for seed in range(40)}
    assert firsts == {0, 1, 2, 3, 4}


# --- deciding a trick -----------------------------------------------------------

def test_rulebook_example_fourth_highest_wins() -> None:
    """A has 1 and 7, B has 8 and 11, C has 5; IV is the last ranking card up."""
    assert decide({11, 8, 7, 5, 1}, [False, False, False, True, False]) == rules.Outcome(
        "won", 5, 4)
    state = build([cards("2, 3"), cards("11 II, 4"), cards("6")],
                  table=[cards("1, 7"), cards("8"), cards("5")], up=(2, 4), turn=1,
                  pile=cards("9, 10"))
    after = play(state, 1, "11 II")
    assert won(after) == [[], [], bag("1, 7, 8, 5, 11 II")]
    assert after.turn == after.leader == 2
    assert after.table == ((), (), ()) and ups(after) == [1, 2, 3, 4, 5]
    assert texts(after)[-1] == (
        "{0} wins the trick with the 5 (fourth-highest, ranking card IV): 5 cards.")
    assert after.last is not None and after.last.result == "won" and after.last.winner == 2


@pytest.mark.parametrize(("values", "up", "expected"), [
    # The trick stays open while two or more ranking cards are up.
    ({11, 8, 7, 5, 1}, (2, 4), rules.Outcome("open")),
    # One ranking card N up: the N-th highest wins as soon as N cards are up.
    ({3}, (1,), rules.Outcome("won", 3, 1)),
    ({9, 4, 2}, (3,), rules.Outcome("won", 2, 3)),
    # Special case: V is the last one up, but only four cards lie face up.
    ({9, 4, 2, 1}, (5,), rules.Outcome("open")),
    ({9, 6, 4, 2, 1}, (5,), rules.Outcome("won", 1, 5)),
    # No ranking card up: blind.
    ({9, 4}, (), rules.Outcome("blind")),
])
def test_when_a_trick_is_decided(values: set[int], up: tuple[int, ...],
                                 expected: rules.Outcome) -> None:
    assert decide(values, [n in up for n in range(1, 6)]) == expected


def test_special_case_needs_the_fifth_card() -> None:
    state = build([cards("3 II, 9"), cards("2 III")], table=[cards("1, 2"), cards("3, 5")],
                  up=(5,), turn=0, pile=cards("11, 11 I, 11 II, 11 III"))
    assert up_values(state) == [1, 2, 3, 5]
    state = play(state, 0, "3 II")  # covers the other 3: still four face up
    assert state.turn == 1 and up_values(state) == [1, 2, 3, 5]
    assert state.table[1] == (Placed(c("3"), up=False), Placed(c("5")))
    state = play(state, 1, "2 III")  # covers the 2 again: still four
    assert state.turn == 0 and up_values(state) == [1, 2, 3, 5]
    state = play(state, 0, "9")  # fifth card up: the fifth-highest, the 1, wins
    assert won(state)[0] == bag("1, 2, 3, 5, 3 II, 2 III, 9")
    assert state.turn == 0


def test_turning_the_last_ranking_card_down_makes_a_blind_trick() -> None:
    state = build([cards("6, 7"), cards("8 V, 9"), cards("10, 11")],
                  table=[cards("1"), cards("2"), cards("3, 4")], up=(5,), turn=1,
                  pile=cards("5, 5 I"), removed=cards("6 I"))
    after = play(state, 1, "8 V")
    assert sorted(after.removed) == bag("6 I, 1, 2, 3, 4, 8 V")
    assert after.won == ((), (), ())
    assert after.table == ((), (), ()) and ups(after) == [1, 2, 3, 4, 5]
    assert after.turn == after.leader == 1  # the player who caused it leads
    assert after.trick == state.trick + 1
    assert texts(after)[-1] == ("{0} turned down the last ranking card: blind trick, "
                                "5 cards leave the game.")
    assert GAME.view(after, None)["removed"] == 6


# --- playing a card -----------------------------------------------------------------

@pytest.mark.parametrize(("before", "card", "after", "log"), [
    # Seat 1 plays a 7 while seat 0's 7 lies face up: seat 0's 7 turns face down.
    ([cards("7 I"), []], "7 III",
     [[down("7 I")], [c("7 III")]],
     "{0} played 7 (III): {1}'s 7 (I) turned face down, ranking card III turned down."),
    # Seat 1's own earlier 7 turns face down just the same.
    ([[], cards("7 I, 2")], "7 III",
     [[], [down("7 I"), c("2"), c("7 III")]],
     "{0} played 7 (III): their earlier 7 (I) turned face down, "
     "ranking card III turned down."),
    # A face-down 7 stays down; only the face-up one is turned.
    ([[down("7"), c("7 II")], cards("5")], "7 III",
     [[down("7"), down("7 II")], [c("5"), c("7 III")]],
     "{0} played 7 (III): {1}'s 7 (II) turned face down, ranking card III turned down."),
    # A new value turns nothing over.
    ([cards("6 I"), []], "7",
     [[c("6 I")], [c("7")]],
     "{0} played 7."),
])
def test_a_repeated_value_turns_the_earlier_card_face_down(
        before: list[list[int | Placed]], card: str, after: list[list[int | Placed]],
        log: str) -> None:
    state = build([cards("1"), [c(card), c("2 V")]], table=before, turn=1,
                  pile=cards("9, 10"))
    state = play(state, 1, card)
    assert state.table == tuple(tuple(p if isinstance(p, Placed) else Placed(p) for p in row)
                                for row in after)
    assert sum(p.up and rules.card_value(p.card) == 7 for row in state.table for p in row) == 1
    assert texts(state) == [log]


def test_the_played_card_is_replaced_by_the_top_of_the_pile() -> None:
    state = build([cards("4, 5, 6"), cards("1")], turn=0, pile=cards("9, 10"))
    after = play(state, 0, "5")
    assert after.hands[0] == tuple(cards("4, 9, 6"))
    assert after.pile == tuple(cards("10"))
    assert after.turn == 1


def test_a_numeral_already_down_has_no_effect() -> None:
    state = build([cards("4 II"), cards("1")], up=(1, 3), turn=0, pile=cards("9, 10"))
    after = play(state, 0, "4 II")
    assert ups(after) == [1, 3]
    assert texts(after) == ["{0} played 4 (II)."]
    assert GAME.legal(state, 0) == [{"type": "play", "card": c("4 II")}]


@pytest.mark.parametrize(("card", "up", "numeral", "turned", "reason"), [
    # Both numerals up: the player must choose.
    ("7 II V", (1, 2, 3, 4, 5), None, None, "Choose which ranking card to turn down: II or V."),
    ("7 II V", (1, 2, 3, 4, 5), 5, 5, None),
    ("7 II V", (1, 2, 3, 4, 5), 2, 2, None),
    # Only one up: it turns by itself; naming the other is refused.
    ("7 II V", (1, 2, 3, 4), None, 2, None),
    ("7 II V", (1, 2, 3, 4), 2, 2, None),
    ("7 II V", (1, 2, 3, 4), 5, None,
     "Ranking card V is already face down; this card can only turn down II."),
    # Neither up: nothing turns.
    ("7 II V", (1, 3, 4), None, None, None),
    ("7 II V", (1, 3, 4), 2, None,
     "Ranking card II is already face down; play this card without a numeral."),
    # A numeral the card does not carry.
    ("7 II V", (1, 2, 3, 4, 5), 3, None, "7 (II, V) does not carry the numeral III."),
    ("7 III", (1, 2, 3, 4, 5), 4, None, "7 (III) does not carry the numeral IV."),
    ("7", (1, 2, 3, 4, 5), 4, None, "7 does not carry the numeral IV."),
])
def test_a_two_numeral_card_turns_down_one_chosen_ranking_card(
        card: str, up: tuple[int, ...], numeral: int | None, turned: int | None,
        reason: str | None) -> None:
    state = build([cards(card), cards("1")], up=up, turn=0, pile=cards("9, 10"))
    action: dict[str, Any] = {"type": "play", "card": c(card)}
    if numeral is not None:
        action["numeral"] = numeral
    if reason is not None:
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, 0, action)
        assert err.value.reason == reason
        return
    after = GAME.apply(state, 0, action)
    assert ups(after) == [n for n in up if n != turned]
    assert after.last is not None and after.last.turned == turned


def test_legal_offers_one_play_per_choice_of_numeral() -> None:
    state = build([cards("7 II V, 3, 4 I"), cards("1")], up=(1, 2, 5), turn=0, pile=cards("9"))
    assert GAME.legal(state, 0) == [
        {"type": "play", "card": c("7 II V"), "numeral": 2},
        {"type": "play", "card": c("7 II V"), "numeral": 5},
        {"type": "play", "card": c("3")},
        {"type": "play", "card": c("4 I"), "numeral": 1},
    ]
    assert GAME.legal(state, 1) == []


def test_a_player_may_come_up_several_times_in_one_trick() -> None:
    state = build([cards("1, 2, 3"), cards("4, 5, 6")], turn=0, pile=cards("7, 8, 9, 10"))
    for seat, card in [(0, "1"), (1, "4"), (0, "2"), (1, "5")]:
        assert state.turn == seat
        state = play(state, seat, card)
    assert state.turn == 0 and state.trick == 1
    assert up_values(state) == [1, 2, 4, 5]


# --- the end of the game -------------------------------------------------------------

def test_finish_trick_the_trick_in_progress_is_the_last() -> None:
    state = build([cards("1, 6"), cards("2"), cards("3 I, 4")], up=(1, 2), turn=0,
                  pile=cards("10"), end_rule="finish-trick")
    state = play(state, 0, "1")  # draws the last card
    assert state.pile == () and not state.over
    assert "The draw pile is empty: this trick is the last one." in texts(state)
    state = play(state, 1, "2")  # seat 1's hand is now empty
    assert state.hands[1] == ()
    state = play(state, 2, "3 I")  # only II up and three cards up: the 2 wins
    assert state.turn is None and state.over
    assert won(state) == [[], bag("1, 2, 3 I"), []]
    assert state.hands == (tuple(cards("10, 6")), (), tuple(cards("4")))
    result = GAME.result(state)
    assert result is not None
    assert result.winners == (1,) and result.scores == (0, 3, 0)
    assert result.detail == {"blind": 0, "unplayed": 3}
    assert texts(state)[-1] == "Game over: {0} wins with 3 cards."
    assert GAME.actors(state) == frozenset()


def test_finish_trick_skips_empty_hands_and_is_blind_when_all_run_out() -> None:
    state = build([cards("1"), cards("2, 5"), cards("3")], turn=0, end_rule="finish-trick",
                  won=[cards("9"), [], []])
    state = play(state, 0, "1")
    state = play(state, 1, "2")
    state = play(state, 2, "3")
    assert state.turn == 1  # seats 0 and 2 are out of cards
    state = play(state, 1, "5")
    assert state.over and sorted(state.removed) == bag("1, 2, 3, 5")
    assert texts(state)[-2:] == [
        "No one has a card left: blind trick, 4 cards leave the game.",
        "Game over: {0} wins with 1 card."]


def test_empty_hands_keeps_playing_tricks_until_every_hand_is_empty() -> None:
    state = build([cards("1, 6"), cards("2, 7")], up=(1,), turn=0, pile=cards("10"),
                  end_rule="empty-hands")
    state = play(state, 0, "1")  # draws the last card; only I up: the 1 wins
    assert state.won[0] == (c("1"),) and not state.over
    assert "The draw pile is empty: play on until every hand is empty." in texts(state)
    assert state.turn == 0 and state.trick == 2 and len(state.hands[0]) == 2
    while not state.over:
        seat = state.turn
        assert seat is not None
        state = GAME.apply(state, seat, GAME.legal(state, seat)[0])
    assert state.hands == ((), ())
    total = sum(len(w) for w in state.won) + len(state.removed)
    assert total == 5


def test_empty_hands_a_winner_without_cards_passes_the_lead() -> None:
    state = build([cards("1"), cards("2, 4")], up=(1,), turn=0, end_rule="empty-hands")
    state = play(state, 0, "1")
    assert state.won[0] == (c("1"),)
    assert state.turn == state.leader == 1
    assert texts(state)[-1] == "{0} has no card left; {1} leads."
    assert state.log[-1].seats == (0, 1)


def test_equal_counts_share_the_win() -> None:
    state = build([cards("1"), cards("2"), cards("3")], up=(1,), turn=2,
                  won=[cards("4, 5, 6"), cards("7, 8"), cards("9")])
    state = play(state, 2, "3")
    result = GAME.result(state)
    assert result is not None
    assert result.scores == (3, 2, 2) and result.winners == (0,)
    state = build([cards("1"), cards("2"), cards("3")], up=(1,), turn=1,
                  won=[cards("4, 5"), cards("7"), cards("9, 10")])
    state = play(state, 1, "2")
    result = GAME.result(state)
    assert result is not None
    assert result.winners == (0, 1, 2) and result.scores == (2, 2, 2)
    assert texts(state)[-1] == "Game over: {0}, {1} and {2} share the win with 2 cards each."
    view = GAME.view(state, None)
    assert view["over"] and view["scores"] == [2, 2, 2] and view["winners"] == [0, 1, 2]


# --- refusals ----------------------------------------------------------------------

def _ongoing() -> State:
    return build([cards("7 II V, 3"), cards("4, 5")], turn=0, pile=cards("9, 10"))


@pytest.mark.parametrize(("seat", "action", "reason"), [
    (1, {"type": "play", "card": c("4")}, "It is not your turn: waiting for seat 1."),
    (-1, {"type": "play", "card": c("4")}, "It is not your turn: waiting for seat 1."),
    (0, {"type": "play", "card": c("4")}, "That card is not in your hand."),
    (0, {"type": "play", "card": 999}, "That card is not in your hand."),
    (0, {"type": "play"}, "Say which card to play: the play has no 'card'."),
    (0, {"type": "play", "card": "3"}, "'card' must be the number of a card in your hand."),
    (0, {"type": "play", "card": True}, "'card' must be the number of a card in your hand."),
    (0, {"type": "play", "card": 3.0}, "'card' must be the number of a card in your hand."),
    (0, {"type": "play", "card": c("3"), "numeral": True},
     "'numeral' must be a ranking card from 1 (I) to 5 (V)."),
    (0, {"type": "play", "card": c("3"), "numeral": 6},
     "'numeral' must be a ranking card from 1 (I) to 5 (V)."),
    (0, {"type": "play", "card": c("3"), "numeral": "II"},
     "'numeral' must be a ranking card from 1 (I) to 5 (V)."),
    (0, {"type": "play", "card": c("7 II V")}, "Choose which ranking card to turn down: II or V."),
    (0, {"type": "play", "card": c("3"), "why": 1},
     "A play has only 'card' and 'numeral', not 'why'."),
    (0, {"type": "x"}, "Unknown action 'x'."),
    (0, {"card": c("3")}, "An action needs a 'type'; here the only one is 'play'."),
    (0, {"type": ["play"]}, "Unknown action \"['play']\"."),
])
def test_illegal_actions_are_refused_and_change_nothing(seat: int, action: Any,
                                                        reason: str) -> None:
    state = _ongoing()
    before = GAME.view(state, 0), GAME.view(state, 1), state
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, action)
    assert err.value.reason == reason
    assert (GAME.view(state, 0), GAME.view(state, 1), state) == before


def test_a_refusal_never_names_another_hand() -> None:
    state = _ongoing()
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, 0, {"type": "play", "card": c("4")})
    assert "4" not in err.value.reason


def test_nothing_is_legal_after_the_game_is_over() -> None:
    state = build([cards("1"), cards("2")], up=(1,), turn=0)
    state = play(state, 0, "1")
    assert state.over
    with pytest.raises(IllegalAction, match=r"The game is over\."):
        GAME.check(state, 0, {"type": "play", "card": c("2")})
    assert GAME.legal(state, 1) == [] and GAME.actors(state) == frozenset()
    assert choose(GAME.view(state, 1), 1, random.Random(0)) is None


# --- views, log and hidden information ---------------------------------------------

def test_a_view_shows_only_the_own_hand() -> None:
    state = build([cards("7 II V, 3"), cards("4, 5")], table=[[down("9"), c("9 I")]],
                  up=(2, 3, 4, 5), turn=0, pile=cards("10, 11"))
    view = GAME.view(state, 1)
    assert view["hand"] == [{"id": c("4"), "value": 4, "numerals": []},
                            {"id": c("5"), "value": 5, "numerals": []}]
    assert view["hand_counts"] == [2, 2] and view["pile"] == 2
    assert view["table"][0] == [{"id": c("9"), "value": 9, "numerals": [], "up": False},
                                {"id": c("9 I"), "value": 9, "numerals": [1], "up": True}]
    assert view["ranking"] == [False, True, True, True, True]
    spectator = GAME.view(state, None)
    assert spectator["hand"] == [] and spectator["you"] is None
    assert not any(isinstance(v, tuple | set) for v in spectator.values())


def test_format_log_fills_in_seat_names() -> None:
    entry = {"text": "{0} played 7 (III): {1}'s 7 (I) turned face down.", "seats": [2, 0]}
    assert format_log(entry, ["Ann", "Bo", "Cy"]) == (
        "Cy played 7 (III): Ann's 7 (I) turned face down.")
    assert GAME.describe({"type": "play", "card": c("7 II V"), "numeral": 5}) == (
        "play 7 (II, V), turning down ranking card V")


# --- whole games with bots -------------------------------------------------------------

def _bot_game(players: int, seed: int, end_rule: str) -> tuple[State, int]:
    state = GAME.setup(players, "standard", {"end_rule": end_rule}, seed)
    rng = random.Random(seed)
    moves = 0
    while not state.over:
        assert state.turn is not None
        seat = state.turn
        for viewer in [seat, None]:
            view = GAME.view(state, viewer)
            assert msgpack.unpackb(msgpack.packb(view)) == view
            variant = GAME.hidden_variant(state, viewer, rng)
            assert GAME.view(variant, viewer) == view
        action = GAME.bot(GAME.view(state, seat), seat, rng)
        assert action is not None and action in GAME.legal(state, seat)
        assert GAME.bot(GAME.view(state, seat), (seat + 1) % players, rng) is None
        state = GAME.apply(state, seat, action)
        moves += 1
        assert moves < 500
    return state, moves


@pytest.mark.parametrize("end_rule", ["finish-trick", "empty-hands"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_bot_games_end_and_every_card_is_accounted_for(players: int,
                                                              end_rule: str) -> None:
    state, _ = _bot_game(players, seed=players * 7, end_rule=end_rule)
    won = sum(len(w) for w in state.won)
    in_hands = sum(len(h) for h in state.hands)
    on_table = sum(len(row) for row in state.table)
    assert won + len(state.removed) + in_hands + on_table + len(state.pile) == 77
    assert state.pile == () and on_table == 0
    if end_rule == "empty-hands":
        assert in_hands == 0
    result = GAME.result(state)
    assert result is not None and sum(result.scores) == won
    assert result.detail["blind"] == len(state.removed)


def test_same_seed_same_game() -> None:
    first, _ = _bot_game(3, seed=11, end_rule="finish-trick")
    again, _ = _bot_game(3, seed=11, end_rule="finish-trick")
    assert first == again
    other = GAME.setup(3, "standard", {}, 12)
    assert other.hands != GAME.setup(3, "standard", {}, 11).hands


def test_the_game_satisfies_the_surface() -> None:
    assert isinstance(GAME, Game)
    assert GAME.id == "alles-klar" and GAME.name == "Alles klar?"
    assert [(m.id, m.min_players, m.max_players) for m in GAME.modes] == [("standard", 2, 5)]
    assert {o.key: o.default for o in GAME.options} == {"hand_size": 4,
                                                        "end_rule": "finish-trick"}
    assert "blind trick" in GAME.rules_help
    state = GAME.setup(2, "standard", {}, 0)
    assert GAME.timer(state, {}) is None
    assert not GAME.order_independent(state, 0, {"type": "play", "card": 0})
    with pytest.raises(ValueError):
        GAME.setup(6, "standard", {}, 0)


# --- the bot ---------------------------------------------------------------------

def test_the_bot_takes_a_trick_it_can_win() -> None:
    # Only I is up: the highest face-up card wins. The bot's 11 wins at once.
    state = build([cards("2 III, 11 III"), cards("9")], table=[[], cards("8")], up=(1, 3),
                  turn=0, pile=cards("10"))
    for seed in range(5):
        assert choose(GAME.view(state, 0), 0, random.Random(seed)) == {
            "type": "play", "card": c("11 III"), "numeral": 3}


def test_the_bot_does_not_hand_a_trick_to_another_player() -> None:
    # II and IV up; face up lie the bot's 6 and 3 and seat 1's 9. The 10 (IV)
    # would leave II alone: the second-highest, seat 1's 9, would win. The 8
    # keeps the trick open.
    state = build([cards("10 IV, 8"), cards("1")], table=[cards("6, 3"), cards("9")],
                  up=(2, 4), turn=0, pile=cards("11"))
    for seed in range(5):
        action = choose(GAME.view(state, 0), 0, random.Random(seed))
        assert action == {"type": "play", "card": c("8")}
