"""S-tier cooperative mode, read like the rulebook: a scenario, an action, the outcome."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from lanplay.content import default_library
from lanplay.game import SYSTEM, IllegalAction
from lanplay.games.s_tier import GAME
from lanplay.games.s_tier import coop as rules
from lanplay.games.s_tier.common import commitment
from lanplay.games.s_tier.coop import Coop, correct_count, token_steps
from lanplay.peer.keeper import Laptops

LIB = default_library()
LAPTOPS = Laptops(GAME, random.Random(0))
"""Every seat's laptop: the leader's keeps the note, commits, counts and reveals."""


def start(players: int = 3, seed: int = 5, **options: Any) -> Coop:
    return rules.setup(players, {"guess_seconds": 0, **options}, seed, LIB)


def act(state: Coop, seat: int, action: dict[str, Any]) -> Coop:
    """``action`` through the seat's laptop, then whatever the leader's laptop answers."""
    return LAPTOPS.apply(state, seat, action)


def write(state: Coop, tiers: list[str | None] | None = None, **extra: Any) -> Coop:
    note = list(state.faces) if tiers is None else tiers
    return act(state, state.leader, {"type": "note", "tiers": note, **extra})


def note_of(state: Coop) -> tuple[str | None, ...]:
    """The note as the leader's laptop keeps it (the host's state has none)."""
    return tuple(LAPTOPS.shown(state, state.leader)["note"])


def set_board(state: Coop, target: list[str | None]) -> Coop:
    """One guesser moves pictures until the board is ``target``."""
    seat = state.guessers[0]
    for t, picture in enumerate(target):
        if picture is not None and state.board[t] != picture:
            state = rules.apply(state, seat, {"type": "move", "picture": picture, "tier": t})
    return state


def lock_all(state: Coop, laptops: bool = True) -> Coop:
    """Every guesser locks in; then the leader's laptop answers, unless the test plays
    that laptop itself (``laptops=False``)."""
    for seat in state.guessers:
        state = (act if laptops else rules.apply)(state, seat, {"type": "lock"})
    return state


def guess(state: Coop, order: list[int]) -> Coop:
    """Lay the note's pictures in ``order`` (a permutation of tiers) and lock in."""
    note = note_of(state)
    return lock_all(set_board(state, [note[i] for i in order]))


IDENTITY = [0, 1, 2, 3, 4]
THREE = [1, 0, 2, 3, 4]      # one swap: 3 correct
TWO = [1, 2, 0, 3, 4]        # a 3-cycle: 2 correct
ONE = [1, 0, 3, 2, 4]        # two swaps: 1 correct
NONE = [1, 2, 3, 4, 0]       # a 5-cycle: 0 correct


@pytest.mark.parametrize(("correct", "steps"), [(5, (2, 0)), (4, (2, 0)), (3, (1, 0)),
                                                (2, (0, 1)), (1, (0, 1)), (0, (0, 2))])
def test_token_moves_follow_the_rulebook_table(correct: int, steps: tuple[int, int]) -> None:
    assert token_steps(correct) == steps


def test_five_correct_moves_green_two_and_skips_the_second_attempt() -> None:
    state = guess(write(start()), IDENTITY)
    assert (state.green, state.red) == (2, 0)
    assert state.round == 2 and state.phase == "note" and state.attempt == 1
    assert state.last is not None and state.last["kind"] == "reveal"
    assert state.last["correct"] == 5


def test_first_attempt_shows_only_the_count_then_a_second_attempt() -> None:
    state = guess(write(start()), THREE)
    assert state.attempt == 2 and state.phase == "guess" and state.count == 3
    seen = GAME.view(state, state.guessers[0])
    assert seen["count"] == 3 and seen["note"] is None
    assert seen["last"] == {"kind": "count", "correct": 3}
    assert state.locked == ()
    state = guess(state, TWO)
    assert (state.green, state.red) == (0, 1)
    assert state.round == 2


def test_a_full_board_with_one_picture_in_the_pool_is_four_correct_via_the_timer() -> None:
    state = write(start())
    state = set_board(state, [*note_of(state)[:4], None])
    timeout = {"type": "timeout", "round": state.round, "attempt": 1}
    state = act(state, SYSTEM, timeout)
    assert state.count == 4 and state.attempt == 2
    with pytest.raises(IllegalAction, match="already over"):
        rules.check(state, SYSTEM, timeout)
    state = act(state, SYSTEM, {"type": "timeout", "round": state.round, "attempt": 2})
    assert (state.green, state.red) == (2, 0)


@pytest.mark.parametrize(("first", "second", "green", "red"),
                         [(ONE, ONE, 0, 1), (NONE, NONE, 0, 2), (NONE, THREE, 1, 0)])
def test_tokens_after_two_attempts(first: list[int], second: list[int], green: int,
                                   red: int) -> None:
    state = guess(guess(write(start()), first), second)
    assert (state.green, state.red) == (green, red)


def test_green_at_the_star_first_is_victory_for_everyone() -> None:
    state = replace(write(start(players=4)), green=3)
    state = guess(guess(state, NONE), THREE)
    result = GAME.result(state)
    assert result is not None and state.phase == "over"
    assert result.winners == (0, 1, 2, 3) and result.detail["outcome"] == "victory"
    assert result.detail["why"] == {  # the end screen's reason (issue 31)
        "key": "The green token reached the star before the red one."}
    assert GAME.actors(state) == frozenset()


def test_red_at_the_star_is_defeat_with_no_winners() -> None:
    state = replace(write(start(players=4)), red=3)
    state = guess(guess(state, ONE), ONE)
    result = GAME.result(state)
    assert result is not None and result.winners == ()
    assert result.detail["outcome"] == "defeat"
    assert result.detail["why"] == {"key": "The red token reached the star before the green one."}


def test_no_second_attempt_after_five_correct_even_on_attempt_one() -> None:
    state = guess(write(start()), IDENTITY)
    assert state.count is None and state.last is not None and state.last["kind"] == "reveal"


# --- the harder game ------------------------------------------------------------------


def test_effects_start_when_a_token_crosses_them_and_stack() -> None:
    state = start(text_side=True)
    assert state.effects == ()
    state = guess(guess(write(state), ONE), ONE)          # red moves 1: crosses effect 1
    assert state.effects == ("choose-side",)
    leader_view = GAME.view(state, state.leader)
    assert len(leader_view["cards"]) == 5
    assert GAME.view(state, state.guessers[0])["cards"] == []
    backs = [state.deck.cards[c].back for c in state.hand]
    state = write(state, backs)
    assert state.faces == tuple(backs)
    state = guess(state, IDENTITY)                        # green moves 2: effects 2 and 3
    assert state.effects == ("choose-side", "place-one", "no-second")
    assert len(state.hand) == 5
    state = replace(state, effects=rules.EFFECTS)
    state = rules.start_round(replace(state, round=state.round - 1), state.leader)
    assert len(state.hand) == 4 and len(state.faces) == 4


def test_effects_never_start_on_the_plain_side() -> None:
    state = guess(guess(write(start()), NONE), NONE)
    assert state.red == 2 and state.effects == ()


def test_choose_side_refuses_two_faces_of_one_card() -> None:
    state = replace(start(), effects=("choose-side",))
    card = state.deck.cards[state.hand[0]]
    tiers = [card.front, card.back, *[state.deck.cards[c].front for c in state.hand[2:]]]
    with pytest.raises(IllegalAction, match="one side of each card"):
        write(state, tiers)


def test_place_one_fixes_the_hint_on_the_board() -> None:
    state = replace(start(), effects=("place-one",))
    with pytest.raises(IllegalAction, match="hint"):
        write(state)
    state = write(state, hint=2)
    note = note_of(state)
    assert state.board[2] == note[2]
    view = GAME.view(state, state.guessers[0])
    assert view["hint"] == {"picture": note[2], "tier": 2}
    with pytest.raises(IllegalAction, match="hint"):
        rules.check(state, state.guessers[0], {"type": "move", "picture": note[2], "tier": 0})
    with pytest.raises(IllegalAction, match="hint"):
        rules.check(state, state.guessers[0], {"type": "move", "picture": note[0], "tier": 2})
    state = guess(state, IDENTITY)
    assert state.last is not None and state.last["correct"] == 5


def test_no_second_attempt_reveals_at_once() -> None:
    state = replace(start(), effects=("no-second",))
    state = guess(write(state), THREE)
    assert state.round == 2 and state.green == 1
    assert state.last is not None and state.last["kind"] == "reveal"


def take_four() -> Coop:
    state = replace(start(), effects=("take-four",))
    return rules.start_round(replace(state, round=0), state.leader)


def test_take_four_the_empty_tier_counts_as_a_fifth_picture() -> None:
    state = take_four()
    assert len(state.faces) == 4
    a, b, c, d = state.faces
    with pytest.raises(IllegalAction, match="exactly one tier empty"):
        write(state, [a, b, c, d, d])
    state = write(state, [a, b, None, c, d])
    state = lock_all(set_board(state, [a, b, None, c, d]))
    assert state.last is not None and state.last["correct"] == 5
    assert state.green == 2


@pytest.mark.parametrize(("board", "right"), [
    (["a", "b", None, "c", "d"], 5),
    (["a", "b", "c", None, "d"], 3),      # wrong empty tier: a, b, d
    (["a", "b", None, None, "d"], 3),     # c still in the pool: no empty-tier credit
    ([None, "a", "b", "d", "c"], 0),
])
def test_take_four_counting(board: list[str | None], right: int) -> None:
    assert correct_count(["a", "b", None, "c", "d"], board) == right


# --- the shared board ---------------------------------------------------------------------


def test_a_move_unlocks_everyone_and_lock_needs_a_complete_board() -> None:
    state = write(start(players=4))
    g0, g1, g2 = state.guessers
    with pytest.raises(IllegalAction, match="every picture"):
        rules.check(state, g0, {"type": "lock"})
    note = note_of(state)
    state = set_board(state, list(note))
    state = rules.apply(state, g0, {"type": "lock"})
    state = rules.apply(state, g1, {"type": "lock"})
    assert state.locked == (g0, g1)
    with pytest.raises(IllegalAction, match="already locked"):
        rules.check(state, g0, {"type": "lock"})
    state = rules.apply(state, g2, {"type": "move", "picture": note[0], "tier": 1})
    assert state.locked == () and state.board[0] == note[1]
    assert GAME.order_independent(state, g0, {"type": "move"})
    assert not GAME.order_independent(state, g0, {"type": "lock"})


def test_moving_back_to_the_pool_and_onto_an_occupied_tier() -> None:
    state = write(start())
    p, q = note_of(state)[0], note_of(state)[1]
    seat = state.guessers[0]
    state = rules.apply(state, seat, {"type": "move", "picture": p, "tier": 0})
    state = rules.apply(state, seat, {"type": "move", "picture": q, "tier": 0})
    assert state.board[0] == q and p not in state.board      # p went back where q came from
    state = rules.apply(state, seat, {"type": "move", "picture": p, "tier": 3})
    state = rules.apply(state, seat, {"type": "move", "picture": p, "tier": 0})
    assert state.board[0] == p and state.board[3] == q
    state = rules.apply(state, seat, {"type": "move", "picture": p, "tier": None})
    assert state.board[0] is None


@pytest.mark.parametrize(("who", "action", "reason"), [
    ("guesser", {"type": "note", "tiers": []}, "Only the leader"),
    ("leader", {"type": "note", "tiers": list("vwxyz")}, "Write each of your pictures once"),
    ("leader", {"type": "note", "tiers": "abc"}, "5 entries"),
    ("guesser", {"type": "move", "picture": "x", "tier": 0}, "still writing"),
    ("guesser", {"type": "timeout", "round": 1, "attempt": 1}, "host's clock"),
    ("guesser", {"type": "dance"}, "Unknown action"),
])
def test_illegal_actions_in_the_note_phase_are_refused_with_reasons(
        who: str, action: dict[str, Any], reason: str) -> None:
    state = start()
    seat = state.leader if who == "leader" else state.guessers[0]
    with pytest.raises(IllegalAction, match=reason):
        act(state, seat, action)


def test_the_leader_stays_silent_during_the_guess() -> None:
    state = write(start())
    with pytest.raises(IllegalAction, match="stay silent"):
        rules.check(state, state.leader, {"type": "move", "picture": state.faces[0], "tier": 0})
    with pytest.raises(IllegalAction, match="already written"):
        write(state)


# --- hidden information ------------------------------------------------------------


def test_guessers_see_neither_topic_nor_pictures_nor_note_while_the_leader_writes() -> None:
    state = start(players=4)
    topic = state.topic.text
    leader = GAME.view(state, state.leader)
    assert leader["topic"]["text"] == topic and len(leader["pictures"]) == 5
    for viewer in [*state.guessers, None]:
        seen = GAME.view(state, viewer)
        assert seen["topic"] is None and seen["pictures"] == [] and seen["note"] is None
        text = json.dumps(seen)
        assert topic not in text
        for picture in state.faces:
            assert picture not in text


def test_the_host_holds_only_the_commitment_until_the_reveal() -> None:
    state = start(players=4)
    state = write(state, list(reversed(state.faces)))
    note = note_of(state)
    assert list(note) != list(state.faces)
    assert state.note is None and state.commitment is not None
    assert GAME.view(state, state.leader)["note"] is None  # the laptop shows its own
    other = replace(state, commitment="0" * 64)
    for viewer in [*state.guessers, None]:
        assert {**GAME.view(state, viewer), "commitment": None} == \
            {**GAME.view(other, viewer), "commitment": None}
    state = guess(state, THREE)
    assert state.note is None and state.count == 3
    hidden = json.dumps(saves_plain(state))
    assert json.dumps(list(note)) not in hidden
    state = guess(state, THREE)
    assert state.last is not None and tuple(state.last["note"]) == note


def saves_plain(state: Coop) -> Any:
    from lanplay.store.saves import plain

    return plain(state)


def test_a_plain_note_is_refused_by_the_host() -> None:
    state = start()
    with pytest.raises(IllegalAction, match="only the note's commitment"):
        rules.check(state, state.leader, {"type": "note", "tiers": list(state.faces)})


# --- what the leader's laptop tells, checked at the reveal --------------------------------


def commit(state: Coop, tiers: list[str | None], salt: bytes = bytes(16),
           **extra: Any) -> Coop:
    """The leader's laptop commits to ``tiers`` (a test that plays the laptop itself)."""
    return rules.apply(state, state.leader, {"type": "commit",
                                             "commitment": commitment(tiers, salt), **extra})


def reveal(state: Coop, tiers: list[str | None], salt: bytes = bytes(16)) -> Coop:
    return rules.apply(state, state.leader, {"type": "reveal", "tiers": tiers,
                                             "salt": salt.hex()})


def test_a_laptop_that_tells_a_wrong_count_is_caught_at_the_reveal_and_named() -> None:
    state = start(players=4)
    note = list(state.faces)
    state = lock_all(set_board(commit(state, note), [note[i] for i in THREE]), laptops=False)
    assert state.phase == "count" and GAME.actors(state) == {state.leader}
    state = rules.apply(state, state.leader, {"type": "count", "correct": 5})  # a lie: 3
    assert state.phase == "reveal" and state.count == 5
    assert GAME.view(state, state.guessers[0])["count"] == 5  # told, on trust
    leader = state.leader
    state = reveal(state, note)
    lines = [line for line in state.log if "named" in line.text or "said 5" in line.text]
    assert [line.seats for line in lines] == [(leader,), (leader,)]
    assert "said 5 correct after the first attempt, but the note gives 3" in lines[0].text
    assert state.last is not None and state.last["correct"] == 3  # scored from the note
    assert (state.green, state.red) == (1, 0)


def test_an_honest_count_names_nobody() -> None:
    state = write(start(players=4))
    state = guess(guess(state, THREE), TWO)
    assert not any("named" in line.text for line in state.log)


def test_a_hint_the_note_does_not_bear_out_is_named() -> None:
    state = replace(start(), effects=("place-one", "no-second"))
    note = list(state.faces)
    state = commit(state, note, hint={"tier": 0, "picture": note[1]})  # note[1] is on A
    assert state.board[0] == note[1] and state.hint == 0
    state = lock_all(set_board(state, [note[1], note[0], *note[2:]]), laptops=False)
    state = reveal(state, note)
    assert any("as the hint, but the note has it elsewhere" in line.text for line in state.log)
    assert state.last is not None and state.last["correct"] == 3


def test_a_reveal_that_is_not_the_committed_note_voids_the_round() -> None:
    state = replace(start(), effects=("no-second",))
    note = list(state.faces)
    leader, round_no = state.leader, state.round
    state = lock_all(set_board(commit(state, note), note), laptops=False)
    assert state.phase == "reveal"
    swapped = [note[1], note[0], *note[2:]]
    with pytest.raises(IllegalAction, match="32 lowercase hex"):
        rules.check(state, leader, {"type": "reveal", "tiers": note, "salt": "00"})
    state = reveal(state, swapped)
    assert state.round == round_no + 1 and (state.green, state.red) == (0, 0)
    line = next(line for line in state.log if "void" in line.text)
    assert line.seats == (leader,) and "not the one it committed to" in line.text
    assert state.last == {"kind": "void", "correct": None}


@pytest.mark.parametrize("phase", ["note", "count", "reveal"])
def test_the_host_voids_the_round_of_a_leader_whose_note_cannot_be_had(phase: str) -> None:
    state = start()
    leader, round_no = state.leader, state.round
    if phase != "note":
        note = list(state.faces)
        state = commit(state, note)
        state = lock_all(set_board(state, [note[i] for i in THREE]), laptops=False)
        if phase == "reveal":
            state = rules.apply(state, leader, {"type": "count", "correct": 5})
    assert state.phase == phase
    with pytest.raises(IllegalAction, match="needed now"):
        rules.check(state, SYSTEM, {"type": "void", "seat": state.guessers[0]})
    after = rules.apply(state, SYSTEM, {"type": "void", "seat": leader})
    assert after.round == round_no + 1 and after.leader != leader
    assert (after.green, after.red) == (0, 0) and after.commitment is None
    assert "A stand-in plays for {0} and cannot know a note" in after.log[-2].text
    if phase == "note":
        with pytest.raises(IllegalAction, match="needed now"):
            rules.check(state, leader, {"type": "void"})  # a leader writes, or is away
    else:
        mine = rules.apply(state, leader, {"type": "void"})
        assert "laptop no longer has the note" in mine.log[-2].text


# --- whole games -----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "text_side"), [(2, False), (4, True), (6, True)])
def test_a_bot_game_ends_without_any_timer(players: int, text_side: bool) -> None:
    options = {"guess_seconds": 0, "text_side": text_side, "pack": ""}
    state = GAME.setup(players, "cooperative", options, 11)
    rngs = {s: random.Random(s) for s in range(players)}
    for _ in range(2000):
        if GAME.result(state) is not None:
            break
        for seat in sorted(GAME.actors(state)):
            action = GAME.bot(LAPTOPS.shown(state, seat), seat, rngs[seat])
            if action is not None:
                state = act(state, seat, action)
                break
        else:
            pytest.fail("every bot waits and there is no timer")
    assert GAME.result(state) is not None


@pytest.mark.parametrize("seed", range(6))
def test_a_bot_and_a_person_who_disagree_still_fill_the_board(seed: int) -> None:
    """A person who always puts the first picture of the pool on the first empty tier
    (as tests/test_ui_games_window.py's player does) and two bots: the bots only fill
    empty tiers, never push the person's pictures back into the pool, so the board is
    complete within a few moves and every guesser locks in. (The bots pushed them back
    before: person and bot undid each other for 11,000 moves, the window test's hang.)"""
    options = {"guess_seconds": 0, "text_side": False, "pack": ""}
    state = GAME.setup(3, "cooperative", options, seed)
    rngs = {s: random.Random(s) for s in range(3)}
    person = 0
    for _ in range(400):
        if GAME.result(state) is not None:
            break
        actors = sorted(GAME.actors(state))
        view = LAPTOPS.shown(state, person)
        if person in actors and view["phase"] == "guess" and person not in view["locked"]:
            board = view["board"]
            pool = [p["id"] for p in view["pictures"] if p["id"] not in board]
            fixed = (view["hint"] or {}).get("tier")
            free = [t for t, p in enumerate(board) if p is None and t != fixed]
            if pool and free:
                state = act(state, person, {"type": "move", "picture": pool[0],
                                            "tier": free[0]})
                placed = [p for p in state.board if p is not None]
                for seat in (1, 2):  # each bot answers the person's move
                    shown = LAPTOPS.shown(state, seat)
                    action = GAME.bot(shown, seat, rngs[seat])
                    if action is not None and action["type"] == "move":
                        assert shown["board"][action["tier"]] is None \
                            or action["picture"] in shown["board"], (action, shown["board"])
                    if action is not None and seat in GAME.actors(state):
                        state = act(state, seat, action)
                if state.phase == "guess":  # nobody's picture went back into the pool
                    assert all(p in state.board for p in placed), (placed, state.board)
                continue
            state = act(state, person, {"type": "lock"})
            continue
        for seat in actors:
            if seat == person and view["phase"] == "guess":
                continue
            action = GAME.bot(LAPTOPS.shown(state, seat), seat, rngs[seat])
            if action is not None:
                state = act(state, seat, action)
                break
        else:
            if person not in actors:
                pytest.fail("every bot waits and there is no timer")
    assert GAME.result(state) is not None, "the person and the bots never finished"
