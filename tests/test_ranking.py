"""Ranking scenarios, written the way the rulebook tells them.

Rows are built with ``rules.build(floors, owners)``: slot i holds picture
``p<i>`` on ``floors[i]``, owned by ``owners[i]`` (None = from the supply).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from content_samples import write_pack
from hypothesis import given, settings
from hypothesis import strategies as st

from lanplay import content
from lanplay.content.library import Library
from lanplay.game import SYSTEM, IllegalAction
from lanplay.games.ranking import GAME, rules
from lanplay.games.ranking.bot import choose
from lanplay.games.ranking.rules import Slot, State, build, gain, track

LIB = content.default_library()


def new(players: int = 4, seed: int = 0, **options: Any) -> State:
    return rules.setup(players, options, seed, LIB)


def place_all(state: State) -> State:
    """Every seat places its first hand tile."""
    for seat in range(state.players):
        state = GAME.apply(state, seat, {"type": "place", "tile": state.hands[seat][0]})
    return state


def compare(state: State, up: int, down: int) -> State:
    return GAME.apply(state, state.current, {"type": "compare", "up": up, "down": down})


def everyone_passes(state: State) -> State:
    while state.phase == "guess":
        seat = min(GAME.actors(state))
        state = GAME.apply(state, seat, {"type": "pass"})
    return state


def refuse(state: State, seat: int, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as info:
        GAME.check(state, seat, action)
    return info.value.reason


def bot_game(players: int, seed: int, lib: Library = LIB) -> Iterator[State]:
    """Every state of a game the bots play in all seats, each from its own view."""
    state = rules.setup(players, {}, seed, lib)
    rng = random.Random(seed)
    yield state
    while not state.over:
        seat = min(GAME.actors(state))
        view = msgpack.unpackb(msgpack.packb(GAME.view(state, seat)), raw=False)
        action = GAME.bot(view, seat, rng)
        assert action is not None, f"the bot of seat {seat} waits in {state.phase}"
        state = GAME.apply(state, seat, action)
        yield state


# --- the tower --------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 10**6), max_size=200))
def test_floors_always_sum_to_21_and_a_comparison_exists_until_the_round_ends(
        seed: int, picks: list[int]) -> None:
    state = place_all(new(4, seed))
    first_round = state.round
    for pick in picks:
        if state.round != first_round or state.over:
            break
        if state.phase == "guess":
            state = everyone_passes(state)
            continue
        floors = [s.floor for s in state.row]
        assert sum(floors) == rules.FLOOR_SUM
        assert all(0 <= f <= 6 for f in floors)
        legal = GAME.legal(state, state.current)
        assert legal, f"no comparison possible on floors {floors}"
        state = GAME.apply(state, state.current, legal[pick % len(legal)])
        if state.phase == "guess" or state.round == first_round:
            assert sum(s.floor for s in state.row) == rules.FLOOR_SUM
    else:
        return
    # the round ended: its last row is kept with owners shown
    if state.round != first_round:
        floors = {s.floor for s in state.last_row}
        assert {0, 6} <= floors and sum(s.floor for s in state.last_row) == 21


def test_the_row_starts_on_floor_3_with_supply_tiles_filling_it_to_7() -> None:
    for players in (3, 4, 5):
        state = place_all(new(players))
        assert state.phase == "compare" and len(state.row) == 7
        assert [s.floor for s in state.row] == [3] * 7
        owners = [s.owner for s in state.row]
        assert sorted(o for o in owners if o is not None) == list(range(players))
        assert owners.count(None) == 7 - players
        assert all(len(h) == 5 for h in state.hands)


# --- scoring ------------------------------------------------------------------------


def test_scoring_example_floor_6_with_two_own_stones_scores_4() -> None:
    yellow = 1
    drum = Slot("drum", 6, stones=(3, yellow, yellow), owner=yellow)
    assert gain(drum) == 4


def test_scoring_is_never_negative_and_supply_tiles_score_for_nobody() -> None:
    assert gain(Slot("x", 1, stones=(2, 2), owner=2)) == 0
    assert gain(Slot("x", 0, stones=(2,), owner=2)) == 0
    assert gain(Slot("x", 5, stones=(0, 1), owner=None)) == 0


def test_the_track_climbs_to_the_roof_then_down_and_out_at_15() -> None:
    assert track(0) == (0, "up") and track(6) == (6, "up")
    assert track(7) == (7, "down")  # turned on the roof so the point faces down
    assert track(8) == (6, "down") and track(14) == (0, "down")
    assert track(15) == (0, "out") and track(19) == (0, "out")


def test_the_rulebooks_roof_example_both_stones_now_point_down() -> None:
    # Yellow (seat 1) and red (seat 3) are on 6, pointing up. Seat 0 ends the round:
    # yellow's tile (slot 3) stays on floor 1, red's (slot 1) goes up to floor 2.
    state = build([6, 1, 1, 1, 3, 4, 5], [None, 3, None, 1, 0, 2, None],
                  scores=[0, 6, 0, 6])
    assert track(state.scores[1]) == track(state.scores[3]) == (6, "up")
    state = everyone_passes(compare(state, 1, 2))
    assert state.round == 2 and state.scores == (3, 7, 4, 8)
    assert track(state.scores[1]) == (7, "down")  # yellow: the roof
    assert track(state.scores[3]) == (6, "down")  # red: back on floor 6


def test_three_players_hold_two_stones_of_each_other_colour() -> None:
    assert new(3).stones == ((0, 2, 2), (2, 0, 2), (2, 2, 0))
    assert new(4).stones[2] == (1, 1, 0, 1)
    assert GAME.view(new(5), 0)["stones_left"][4] == [1, 1, 1, 1, 0]


# --- the end of a round --------------------------------------------------------------


def test_a_tile_on_6_alone_does_not_end_the_round() -> None:
    state = build([5, 5, 1, 3, 3, 2, 2], [0, 1, 2, 3, None, None, None])
    state = everyone_passes(compare(state, 0, 1))
    assert state.phase == "compare" and state.round == 1 and state.current == 1


def test_the_round_ends_after_the_comparison_leaving_6_and_0_and_its_guesses_still_count(
        ) -> None:
    # Seat 1 owns slot 0 on floor 6 and compares last: 1 and 2 on floor 1 -> 2 and 0.
    # Seat 0 already put its yellow stone on slot 0.
    state = build([6, 1, 1, 3, 3, 4, 3], [1, 0, None, 2, 3, None, None], current=1,
                  stones=[[1], [], [], [], [], [], []], scores=[0, 14, 2, 3])
    state = compare(state, 1, 2)
    assert state.phase == "guess" and state.guess_for == 1
    assert sorted(GAME.actors(state)) == [2, 3]
    state = GAME.apply(state, 2, {"type": "guess", "slot": 0})
    state = GAME.apply(state, 3, {"type": "guess", "slot": 5})
    # yellow: floor 6 minus two yellow stones = 4; seat 0 on floor 2; seats 2, 3 on 3
    assert state.scores == (2, 18, 5, 6)
    assert state.over and GAME.result(state) is not None
    assert GAME.result(state).winners == (1,)  # type: ignore[union-attr]
    view = GAME.view(state, 2)
    assert [s["owner"] for s in view["row"]] == [1, 0, None, 2, 3, None, None]
    assert view["previous_row"] == view["row"]
    assert view["last"] == {"kind": "score", "round": 1, "gains": [2, 4, 3, 3],
                            "owners": [1, 0, None, 2, 3, None, None]}


def test_a_new_round_starts_left_of_the_player_who_ended_it() -> None:
    state = build([6, 1, 1, 3, 3, 4, 3], [1, 0, None, 2, 3, None, None], current=2)
    state = everyone_passes(compare(state, 1, 2))
    assert state.phase == "place" and state.round == 2 and state.starter == 3
    assert all(len(h) == 6 for h in state.hands)
    assert state.stones == rules.initial_stones(4)  # every stone back
    view = GAME.view(state, 0)
    assert view["row"] == [] and len(view["previous_row"]) == 7
    assert view["previous_row"][0]["owner"] == 1
    state = place_all(state)
    assert GAME.view(state, 0)["previous_row"] == []


def test_equal_totals_past_the_goal_share_the_win() -> None:
    state = build([6, 1, 1, 3, 3, 4, 3], [1, 0, None, 2, 3, None, None],
                  scores=[12, 11, 0, 0])
    state = everyone_passes(compare(state, 1, 2))
    assert state.scores[:2] == (14, 17)
    state = build([6, 1, 1, 3, 3, 4, 3], [2, 0, None, 1, 3, None, None],
                  scores=[13, 15, 0, 0])
    state = everyone_passes(compare(state, 1, 2))
    assert state.scores[:3] == (15, 18, 6) and GAME.result(state).winners == (1,)  # type: ignore[union-attr]
    state = build([6, 1, 1, 3, 3, 4, 3], [2, 0, None, 1, 3, None, None],
                  scores=[16, 15, 12, 0])
    state = everyone_passes(compare(state, 1, 2))
    assert GAME.result(state).winners == (0, 1, 2)  # type: ignore[union-attr]


def test_the_game_ends_when_the_supply_cannot_fill_another_round() -> None:
    state = build([6, 1, 1, 3, 3, 4, 3], [1, 0, None, 2, 3, None, None], supply=6)
    state = everyone_passes(compare(state, 1, 2))
    assert state.over and GAME.result(state).detail["end"] == "supply"  # type: ignore[union-attr]


# --- guessing at once ------------------------------------------------------------------


def test_guesses_are_hidden_until_everyone_answered() -> None:
    state = build([3] * 7, [0, 1, 2, 3, None, None, None], current=0)
    state = compare(state, 0, 1)
    assert sorted(GAME.actors(state)) == [1, 2, 3]
    state = GAME.apply(state, 1, {"type": "guess", "slot": 0})
    mine, theirs, spectator = (GAME.view(state, v) for v in (1, 2, None))
    assert mine["guess"] == 0 and theirs["guess"] is None
    assert theirs["answered"] == [False, True, False, False]
    for view in (theirs, spectator):
        assert all(s["stones"] == [] for s in view["row"])
        assert view["stones_left"][1][0] == 1  # the pending stone is still in hand
    log_before = theirs["log"]
    state = GAME.apply(state, 2, {"type": "pass"})
    assert GAME.view(state, 3)["log"] == log_before  # still nothing said
    state = GAME.apply(state, 3, {"type": "guess", "slot": 0})
    view = GAME.view(state, 2)
    assert view["phase"] == "compare" and view["current"] == 1
    assert view["row"][0]["stones"] == [0, 0]
    assert view["last"] == {"kind": "guesses", "for": 0, "slots": {"1": 0, "2": "pass",
                                                                   "3": 0}}
    assert view["stones_left"][1][0] == 0 and view["stones_left"][3][0] == 0


def test_a_seat_without_a_stone_of_the_comparers_colour_sits_out() -> None:
    state = build([3] * 7, [0, 1, 2, 3, None, None, None], current=0,
                  stones=[[0], [0], [], [], [], [], []])  # two blue stones already down
    state = compare(state, 0, 1)
    assert sorted(GAME.actors(state)) == [3]
    assert "no blue guess stone" in refuse(state, 1, {"type": "pass"})
    state = build([3] * 7, [0, 1, 2, 3, None, None, None], current=0,
                  stones=[[0], [0], [0], [], [], [], []])
    state = compare(state, 0, 1)
    assert state.phase == "compare" and state.current == 1  # nobody can guess: no step


def test_the_guess_timer_counts_missing_answers_as_passes_and_a_stale_one_is_refused(
        ) -> None:
    state = compare(build([3] * 7, [0, 1, 2, 3, None, None, None]), 0, 1)
    timer = GAME.timer(state, {"guess_seconds": 15})
    assert timer is not None and timer.seconds == 15
    assert GAME.timer(state, {"guess_seconds": 0}) is None
    state = GAME.apply(state, 2, {"type": "guess", "slot": 0})
    assert GAME.timer(state, {"guess_seconds": 15}) == timer  # same wait, same timer
    after = GAME.apply(state, SYSTEM, timer.action)
    assert after.last is not None and dict(after.last.answers) == {1: "pass", 2: 0, 3: "pass"}
    assert "already over" in refuse(after, SYSTEM, timer.action)
    assert "host's clock" in refuse(state, 1, timer.action)


def test_the_place_timer_places_a_tile_for_whoever_is_late() -> None:
    state = new(4, seed=3, place_seconds=30)
    state = GAME.apply(state, 2, {"type": "place", "tile": state.hands[2][0]})
    timer = GAME.timer(state, {"place_seconds": 30})
    assert timer is not None and timer.action == {"type": "timeout", "round": 1,
                                                  "phase": "place"}
    state = GAME.apply(state, SYSTEM, timer.action)
    assert state.phase == "compare" and all(len(h) == 5 for h in state.hands)
    assert GAME.timer(new(4), {}) is None  # off by default


def test_an_answer_for_an_earlier_comparison_is_refused() -> None:
    state = compare(build([3] * 7, [0, 1, 2, 3, None, None, None]), 0, 1)
    assert GAME.view(state, 1)["step"] == state.step
    GAME.check(state, 1, {"type": "pass", "step": state.step})
    assert "earlier comparison" in refuse(state, 1, {"type": "guess", "slot": 2,
                                                     "step": state.step - 1})


# --- illegal actions ---------------------------------------------------------------------


def test_illegal_actions_are_refused_with_reasons() -> None:
    state = build([4, 2, 3, 3, 3, 6, 0], [0, 1, 2, 3, None, None, None], current=0)
    assert "same floor" in refuse(state, 0, {"type": "compare", "up": 0, "down": 1})
    assert "floor 0 or floor 6" in refuse(state, 0, {"type": "compare", "up": 5, "down": 6})
    assert "two different" in refuse(state, 0, {"type": "compare", "up": 2, "down": 2})
    assert "slot of the row" in refuse(state, 0, {"type": "compare", "up": 7, "down": 2})
    assert "not your turn" in refuse(state, 1, {"type": "compare", "up": 2, "down": 3})
    assert "nothing to guess" in refuse(state, 1, {"type": "guess", "slot": 2})
    fresh = new(4)
    assert "not in your hand" in refuse(fresh, 0, {"type": "place", "tile": "no-such"})
    assert "not in your hand" in refuse(fresh, 0, {"type": "place",
                                                   "tile": fresh.hands[1][0]})
    placed = GAME.apply(fresh, 0, {"type": "place", "tile": fresh.hands[0][0]})
    assert "already placed" in refuse(placed, 0, {"type": "place", "tile": placed.hands[0][0]})
    assert "Unknown action" in refuse(fresh, 0, {"type": "steal"})


# --- hidden information ---------------------------------------------------------------------


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


@pytest.mark.parametrize("players", [3, 5])
def test_hands_owners_and_supply_never_reach_another_seat(players: int) -> None:
    names = {t: p.name for t, p in LIB.pictures.items()}
    questions = " ".join(q.text for side in ("red", "blue")
                         for q in LIB.ranking_questions(side)).lower()
    checked, logged = 0, 0
    for state in bot_game(players, seed=players):
        public = {s.picture for s in (*state.row, *state.last_row)}
        for viewer in [*range(players), None]:
            view = GAME.view(state, viewer)
            hidden = set(state.supply)
            hidden |= {t for s in range(players) if s != viewer
                       for t in (*state.hands[s], state.placed[s]) if t is not None}
            assert not (hidden - public) & set(strings(view))
            if not state.revealed:
                assert all(s["owner"] is None for s in view["row"])
                mine = view["mine"]
                assert mine is None or state.row[mine].owner == viewer
            checked += 1
        # Every new log line, against every tile still in a hand or the supply.
        secret = (set(state.supply) | {t for h in state.hands for t in h}
                  | {t for t in state.placed if t is not None}) - public
        for line in state.log[logged:]:
            text = line.text
            # A shown tile's name may contain a hidden one ("Baby bottle", "Baby").
            for shown in sorted((n for t, n in state.names if t not in secret),
                                key=len, reverse=True):
                text = text.replace(shown, "")
            for tile in secret:
                if names[tile].lower() not in questions:
                    assert not re.search(rf"\b{re.escape(names[tile])}\b", text), line
        logged = len(state.log)
    assert checked > 100


# --- bots and content ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_bot_game_ends_with_a_winner(players: int) -> None:
    *_, last = bot_game(players, seed=11)
    result = GAME.result(last)
    assert result is not None and result.winners
    assert max(result.scores) >= rules.GOAL or result.detail["end"] != "goal"


def test_bots_beat_random_players() -> None:
    totals = {"bot": 0, "random": 0}
    for seed in range(6):
        state = new(4, seed)
        rng = random.Random(seed)
        kinds = ["bot", "random"] * 2 if seed % 2 else ["random", "bot"] * 2
        while not state.over:
            seat = min(GAME.actors(state))
            if kinds[seat] == "bot":
                action = choose(GAME.view(state, seat), seat, rng)
            else:
                legal = GAME.legal(state, seat)
                action = legal[int(rng.random() * len(legal))]
            assert action is not None
            state = GAME.apply(state, seat, action)
        for seat, kind in enumerate(kinds):
            totals[kind] += state.scores[seat]
    assert totals["bot"] > 1.3 * totals["random"], totals


def test_bots_place_the_tile_that_fits_the_question() -> None:
    state = new(4, seed=5)
    view = GAME.view(state, 0)
    weights = view["question"]["weights"]
    scores = {t["id"]: content.bot_score(t["id"], weights, random.Random(0), noise=0)
              for t in view["hand"]}
    picks = [choose(view, 0, random.Random(i))["tile"] for i in range(20)]  # type: ignore[index]
    assert max(set(picks), key=picks.count) == max(scores, key=scores.__getitem__)


def test_a_custom_pack_plays_its_pictures_and_questions(tmp_path: Path) -> None:
    write_pack(tmp_path / "packs" / "office")
    lib = content.library(["office"], content.discover(tmp_path / "packs"))
    state = rules.setup(3, {"question_side": "blue"}, 4, lib)
    everything = {t for t, _ in state.names}
    assert {"office/stapler", "office/mug", "office/printer"} <= everything
    assert len(everything) == 120
    assert dict(state.names)["office/stapler"] == "Red stapler"
    assert any(q.id == "office/loud" for q in (state.question, *state.bag))
    # The group's own question (the office pack has one for both sides) comes first.
    assert state.question.id == "office/loud"
    assert not any(q.own for q in state.bag)
    assert all(q.side == "blue" for q in (state.question, *state.bag))
    *_, last = bot_game(3, seed=4, lib=lib)
    assert GAME.result(last) is not None
