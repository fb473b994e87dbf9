"""S-tier competitive and team modes, read like the rulebook."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from lanplay.content import default_library
from lanplay.game import IllegalAction
from lanplay.games.s_tier import GAME, rules
from lanplay.games.s_tier import competitive as comp
from lanplay.games.s_tier import team as teams
from lanplay.games.s_tier.competitive import Competitive
from lanplay.games.s_tier.team import Team
from lanplay.peer.keeper import Laptops

LIB = default_library()
LAPTOPS = Laptops(GAME, random.Random(0))
"""Every seat's laptop: a leader's keeps its note, commits and reveals by itself."""


def act(state: Any, seat: int, action: dict[str, Any]) -> Any:
    """``action`` through the seat's laptop, then whatever the leaders' laptops answer."""
    return LAPTOPS.apply(state, seat, action)


def kept_note(state: Any, leader: int) -> list[Any]:
    """A leader's note as its laptop keeps it (the host holds only the commitment)."""
    return list(LAPTOPS.shown(state, leader)["note"])


# --- competitive ----------------------------------------------------------------------


def comp_start(players: int = 5, seed: int = 3) -> Competitive:
    return comp.setup(players, {"place_seconds": 0}, seed, LIB)


def standard_note(count: int) -> list[int]:
    return [*range(5), *range(count - 5)]


def comp_note(state: Competitive) -> Competitive:
    return act(state, state.leader, {"type": "note", "tiers": standard_note(len(state.faces))})


def place_right(state: Competitive, right: int) -> Competitive:
    """The first ``right`` guessers place correctly, the others one tier off."""
    truth = dict(zip(state.faces, kept_note(state, state.leader), strict=True))
    for i, seat in enumerate(state.guessers):
        tier = truth[state.dealt[seat] or ""]
        if i >= right:
            tier = (tier + 1) % 5
        state = act(state, seat, {"type": "place", "tier": tier})
    return state


def test_competitive_lays_out_max_of_guessers_and_five_pictures() -> None:
    assert len(comp_start(4).faces) == 5
    assert len(comp_start(9).faces) == 8
    assert len(comp_start(11).faces) == 10


@pytest.mark.parametrize(("tiers", "reason"), [
    ([0, 0, 1, 2, 3], "No tier may stay empty"),
    ([0, 0, 0, 1, 2, 3, 4, 4], "At most 2 pictures per tier"),
    ([0, 1, 2, 3], "a tier for each"),
    ([0, 1, 2, 3, 5], "from 0"),
])
def test_competitive_note_constraints(tiers: list[int], reason: str) -> None:
    state = comp_start(players=9) if len(tiers) == 8 else comp_start()
    if len(tiers) == 5 and reason == "a tier for each":
        tiers = tiers[:4]
    with pytest.raises(IllegalAction, match=reason):  # the laptop refuses it: it never leaves
        LAPTOPS.send(state, state.leader, {"type": "note", "tiers": tiers})


def test_two_per_tier_is_fine() -> None:
    state = comp_start(players=9)
    sent = LAPTOPS.send(state, state.leader, {"type": "note", "tiers": [0, 0, 1, 1, 2, 3, 4, 4]})
    assert list(sent) == ["type", "commitment"] and sent["type"] == "commit"
    comp.check(state, state.leader, sent)


@pytest.mark.parametrize(("players", "right", "gain"), [
    (5, 4, 2), (5, 2, 1), (5, 1, 0), (4, 2, 1), (4, 1, 0), (4, 3, 2), (6, 3, 1), (6, 2, 0),
])
def test_leader_gains_a_point_at_half_and_two_when_all(players: int, right: int,
                                                        gain: int) -> None:
    state = comp_note(comp_start(players))
    leader = state.leader
    state = place_right(state, right)
    assert state.last is not None and state.last["leader_gain"] == gain
    assert state.won[leader] == gain
    assert sum(state.won) == gain + right


def test_placements_stay_secret_until_everyone_placed() -> None:
    state = comp_note(comp_start(players=5))
    a, b = state.guessers[0], state.guessers[1]
    seen = GAME.view(state, a)
    assert seen["dealt"][a] is not None and seen["dealt"][state.leader] is None
    placed0 = comp.apply(state, b, {"type": "place", "tier": 0})
    placed4 = comp.apply(state, b, {"type": "place", "tier": 4})
    assert GAME.view(placed0, a) == GAME.view(placed4, a)
    assert GAME.view(placed0, a)["answered"][b] is True
    assert GAME.view(placed0, b)["placed"] == 0
    with pytest.raises(IllegalAction, match="already placed"):
        comp.check(placed0, b, {"type": "place", "tier": 1})


def test_competitive_guessers_see_no_topic_or_note_while_the_leader_writes() -> None:
    state = comp_start()
    for seat in state.guessers:
        seen = GAME.view(state, seat)
        assert seen["topic"] is None and seen["note"] is None
        assert state.topic.text not in json.dumps(seen)
    state = comp_note(state)
    assert state.note is None and state.commitment is not None
    assert GAME.view(state, state.leader)["note"] is None  # its laptop shows it its own
    assert kept_note(state, state.leader) == standard_note(len(state.faces))


def test_the_game_ends_when_everyone_has_led_once() -> None:
    state = comp_start(players=4)
    leaders = []
    while not state.over:
        leaders.append(state.leader)
        state = place_right(comp_note(state), 1)
    assert sorted(leaders) == [0, 1, 2, 3]
    result = GAME.result(state)
    assert result is not None and result.scores == tuple(float(w) for w in state.won)
    best = max(state.won)
    assert result.winners == tuple(s for s in range(4) if state.won[s] == best)


def test_nobody_guessing_right_all_game_is_a_draw_at_zero() -> None:
    """Issue 31: a 4-player end at 0/0/0/0, read against the rulebook's scoring. "Players
    who placed their pictures correctly take them and keep them as points"; the leader
    takes a picture only "if at least half of the players guessed correctly"; "In case
    of a tie, it is a draw." So a game in which no placement is ever right scores 0 for
    every seat, leaders included, and ends in a draw: a correct outcome, not a scoring
    bug (seeded random play reaches it too: ``lanplay selfplay``'s random drivers, one
    game in about ten at 4 players, each of 12 placements wrong with 4 chances in 5)."""
    state = comp_start(players=4)
    while not state.over:
        state = place_right(comp_note(state), 0)  # every guesser one tier off
        assert state.last is not None and list(state.last["correct"]) == []
        assert state.last["leader_gain"] == 0
    assert state.won == (0, 0, 0, 0)
    result = GAME.result(state)
    assert result is not None and result.winners == (0, 1, 2, 3)
    assert result.scores == (0.0, 0.0, 0.0, 0.0)
    assert state.log[-1].message.english() == \
        "Everyone has led. It is a draw: everyone has 0 pictures."
    # one right placement in the whole game breaks the tie: no draw, one winner
    state = comp_start(players=4)
    state = place_right(comp_note(state), 1)
    while not state.over:
        state = place_right(comp_note(state), 0)
    result = GAME.result(state)
    assert result is not None and len(result.winners) == 1
    assert sorted(result.scores) == [0.0, 0.0, 0.0, 1.0]
    assert "wins with 1 picture" in state.log[-1].message.english()


def test_the_place_timer_counts_unplaced_pictures_as_wrong() -> None:
    state = comp_note(comp.setup(5, {"place_seconds": 30}, 3, LIB))
    timer = GAME.timer(state, {"place_seconds": 30})
    assert timer is not None and timer.seconds == 30
    state = comp.apply(state, -1, timer.action)
    assert state.phase == "reveal" and GAME.actors(state) == {state.leader}
    state = LAPTOPS.settle(state)
    assert GAME.view(state, None)["last"]["correct"] == []
    with pytest.raises(IllegalAction):
        comp.check(state, -1, timer.action)


def test_the_competitive_reveal_in_last_is_whole_and_hides_nothing() -> None:
    state = comp_note(comp_start(players=5))
    faces, dealt, leader = state.faces, state.dealt, state.leader
    names = {p: state.name(p) for p in faces}
    state = place_right(state, 2)
    assert state.round == 2 and state.phase == "note"
    last = GAME.view(state, None)["last"]
    assert list(last) == ["kind", "note", "placements", "correct", "leader_gain", "leader",
                          "pictures", "dealt"]
    assert last["pictures"] == [{"id": p, "name": names[p]} for p in faces]
    assert last["dealt"] == list(dealt) and last["leader"] == leader
    truth = dict(zip(faces, last["note"], strict=True))
    right = [s for s in range(5) if s != leader and truth[dealt[s]] == last["placements"][s]]
    assert last["correct"] == right and len(right) == 2
    # Nothing of the next round: its pictures are new, its note unwritten.
    assert not set(state.faces) & {p["id"] for p in last["pictures"]}
    for seat in [None, *range(5)]:
        assert GAME.view(state, seat)["last"] == last


# --- team -------------------------------------------------------------------------------


def team_start(players: int = 4, seed: int = 2, track: int = 5) -> Team:
    return teams.setup(players, {"team_track": track}, seed, LIB)


def notes(state: Team, first: int = 0) -> Team:
    for t in (first, 1 - first):
        state = act(state, state.leaders[t], {"type": "note", "tiers": list(state.faces[t])})
    return state


def taker(state: Team) -> int:
    assert state.turn is not None
    return state.takers_of(state.turn)[0]


def take(state: Team, picture: str, tier: int) -> Team:
    return act(state, taker(state), {"type": "take", "picture": picture, "tier": tier})


def test_teams_alternate_starting_with_the_first_note() -> None:
    state = notes(team_start(), first=1)
    assert state.phase == "take" and state.turn == 1
    other = state.faces[0][0]                     # Red takes Green's picture: no Wrong asked
    state = take(state, other, 0)
    assert state.turn == 0 and state.phase == "take"
    with pytest.raises(IllegalAction, match="already been taken"):
        teams.check(state, taker(state), {"type": "take", "picture": other, "tier": 1})
    with pytest.raises(IllegalAction, match="Leaders stay silent"):
        teams.check(state, state.leaders[0], {"type": "take", "picture": state.faces[1][0],
                                              "tier": 1})


def test_wrong_is_asked_every_time_but_usable_once_per_round() -> None:
    state = notes(team_start(players=6))
    own = state.faces[0]                           # Green's leader wrote own[k] on tier k
    state = take(state, own[0], 0)                 # right
    assert state.phase == "wrong" and GAME.actors(state) == {state.leaders[0]}
    assert GAME.legal(state, state.leaders[0]) == [{"type": "silent"}, {"type": "wrong"}]
    state = act(state, state.leaders[0], {"type": "silent"})
    state = take(state, own[4], 4)                 # Red takes a Green picture
    state = take(state, own[1], 3)                 # wrong
    assert state.phase == "wrong"
    state = act(state, state.leaders[0], {"type": "wrong"})
    assert state.phase == "fix" and state.wrong_used == (True, False)
    assert state.last is not None and state.last["kind"] == "wrong"
    with pytest.raises(IllegalAction, match="another tier"):
        teams.check(state, taker(state), {"type": "move", "picture": own[1], "tier": 3})
    state = act(state, taker(state), {"type": "move", "picture": own[1], "tier": 1})
    assert state.turn == 1 and state.phase == "take"
    state = take(state, own[3], 4)
    state = take(state, own[2], 0)                 # wrong, but Wrong is used up
    assert state.phase == "take" and state.turn == 1


def test_a_tie_moves_both_tokens() -> None:
    state = notes(team_start())
    for k in range(5):
        state = take(state, state.faces[0][k], k)   # Green: own leader's, all right
        if state.phase == "wrong":
            state = act(state, state.leaders[0], {"type": "silent"})
        state = take(state, state.faces[1][k], k)   # Red: own leader's, all right
        if state.phase == "wrong":
            state = act(state, state.leaders[1], {"type": "silent"})
    assert state.round_pictures == (5, 5) and state.steps == (1, 1)
    assert GAME.view(state, None)["last"]["moved"] == [True, True]
    assert state.round == 2


def finish_round(state: Team, green_right: int, red_right: int) -> Team:
    """Green takes Green's pictures, Red takes Red's; the first k of each are right."""
    for k in range(5):
        for t, right in ((0, green_right), (1, red_right)):
            assert state.turn == t
            state = take(state, state.faces[t][k], k if k < right else (k + 1) % 5)
            if state.phase == "wrong":
                state = act(state, state.leaders[t], {"type": "silent"})
    return state


def test_the_team_reveal_in_last_is_whole_and_hides_nothing() -> None:
    state = notes(team_start(players=6))
    faces, leaders = state.faces, state.leaders
    names = {p: state.name(p) for t in (0, 1) for p in faces[t]}
    state = take(state, faces[0][0], 1)             # Green, its own leader's, wrong
    state = act(state, leaders[0], {"type": "wrong"})
    wrong = GAME.view(state, None)["last"]
    state = act(state, taker(state), {"type": "move", "picture": faces[0][0],
                                              "tier": 0})
    # Then Red, Green, ... : Green right, Red wrong on its first two.
    order = [(1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3), (0, 4), (1, 4)]
    for t, k in order:
        assert state.turn == t
        state = take(state, faces[t][k], (k + 1) % 5 if t == 1 and k < 2 else k)
        if state.phase == "wrong":
            state = act(state, leaders[t], {"type": "silent"})
    assert state.round == 2 and state.phase == "notes"
    last = GAME.view(state, None)["last"]
    assert list(last) == list(wrong) == ["kind", "team", "notes", "correct", "moved",
                                         "leaders", "pictures"]
    assert wrong["kind"] == "wrong" and wrong["team"] == 0 and wrong["pictures"] is None
    assert last["kind"] == "reveal" and last["leaders"] == list(leaders)
    assert [len(c) for c in last["correct"]] == [5, 3] and last["moved"] == [True, False]
    assert last["notes"] == [list(faces[0]), list(faces[1])]
    pics = {p["id"]: p for p in last["pictures"]}
    assert set(pics) == set(names) and all(p["name"] == names[i] for i, p in pics.items())
    for pid, p in pics.items():
        owner = 0 if pid in faces[0] else 1
        assert p["team"] == owner and p["taken"] in (0, 1) and p["tier"] in range(5)
        assert p["right"] == (p["tier"] == last["notes"][owner].index(pid))
        assert (pid in last["correct"][p["taken"]]) == p["right"]
    assert pics[faces[0][0]]["right"] and pics[faces[0][0]]["tier"] == 0
    assert any(not p["right"] for p in pics.values())
    # Nothing of the next round: the new hands are the new leaders' secret.
    new = {p for t in (0, 1) for p in state.faces[t]}
    assert not new & set(pics) and not new & {p for n in last["notes"] for p in n}
    for seat in [None, *range(6)]:
        assert GAME.view(state, seat)["last"] == last


def test_more_pictures_this_round_moves_one_token() -> None:
    state = finish_round(notes(team_start()), 4, 2)
    assert state.steps == (1, 0) and state.total == (4, 2)


def test_both_tokens_at_the_star_more_pictures_overall_wins() -> None:
    state = replace(notes(team_start(track=3)), steps=(2, 2), total=(3, 7))
    state = finish_round(state, 2, 2)
    result = GAME.result(state)
    assert result is not None and result.winners == state.teams[1]
    assert result.scores == (5.0, 9.0, 5.0, 9.0)
    draw = finish_round(replace(notes(team_start(track=3)), steps=(2, 2), total=(7, 7)), 1, 1)
    result = GAME.result(draw)
    assert result is not None and result.winners == (0, 1, 2, 3)


def test_one_token_at_the_star_wins_for_its_team() -> None:
    state = finish_round(replace(notes(team_start(track=3)), steps=(2, 2)), 1, 3)
    result = GAME.result(state)
    assert result is not None and result.winners == state.teams[1]


def test_team_notes_and_topic_are_hidden_while_leaders_write() -> None:
    state = team_start(players=6)
    helpers = [s for s in range(6) if s not in state.leaders]
    for seat in [*helpers, None]:
        seen = GAME.view(state, seat)
        assert seen["topic"] is None and seen["pictures"] == []
    leader = GAME.view(state, state.leaders[0])
    assert [p["id"] for p in leader["pictures"]] == list(state.faces[0])
    state = act(state, state.leaders[0], {"type": "note", "tiers": list(state.faces[0])})
    assert state.notes == (None, None) and state.commitments[0] is not None
    assert GAME.view(state, state.leaders[0])["note"] is None  # its laptop shows it its own
    assert kept_note(state, state.leaders[0]) == list(state.faces[0])
    assert GAME.order_independent(state, state.leaders[1], {"type": "commit"})


# --- the notes stay on the leaders' laptops ----------------------------------------------


def test_a_competitive_round_waits_for_the_reveal_and_a_false_one_is_void() -> None:
    from lanplay.games.s_tier.common import commitment

    state = comp_start(players=5)
    leader, round_no = state.leader, state.round
    note = standard_note(len(state.faces))
    state = comp.apply(state, leader, {"type": "commit", "commitment": commitment(note, b"s" * 16)})
    for seat in state.guessers:
        state = comp.apply(state, seat, {"type": "place", "tier": 0})
    assert state.phase == "reveal" and GAME.actors(state) == {leader}
    assert GAME.legal(state, leader) == [{"type": "void"}]
    with pytest.raises(IllegalAction, match="Only the leader"):
        comp.check(state, state.guessers[0], {"type": "reveal", "tiers": note,
                                              "salt": (b"s" * 16).hex()})
    wrong = comp.apply(state, leader, {"type": "reveal", "tiers": [1, *note[1:]],
                                       "salt": (b"s" * 16).hex()})
    assert wrong.round == round_no + 1 and sum(wrong.won) == 0
    assert wrong.last is not None and wrong.last["kind"] == "void"
    assert "not the one it committed to" in wrong.log[-2].text
    right = comp.apply(state, leader, {"type": "reveal", "tiers": note,
                                       "salt": (b"s" * 16).hex()})
    assert right.last is not None and right.last["kind"] == "reveal"
    assert right.last["note"] == tuple(note)
    stood_in = comp.apply(state, -1, {"type": "void", "seat": leader})
    assert stood_in.round == round_no + 1 and "A stand-in plays for {0}" in stood_in.log[-2].text
    assert list(wrong.last) == list(right.last)  # one shape: a delta keeps key order


def test_a_team_leader_s_laptop_refuses_a_false_wrong() -> None:
    """The rulebook allows "Wrong" only on a wrong placement: the leader's laptop checks
    it against the note it keeps, and nothing leaves."""
    state = notes(team_start(players=6))
    own = state.faces[0]                           # Green's leader wrote own[k] on tier k
    green = state.leaders[0]
    state = take(state, own[0], 0)                 # right
    with pytest.raises(IllegalAction, match="cannot say"):
        LAPTOPS.send(state, green, {"type": "wrong"})
    wrong = take(notes(team_start(players=6)), own[0], 3)  # wrong: the laptop lets it go
    assert LAPTOPS.send(wrong, green, {"type": "wrong"}) == {"type": "wrong"}


def test_a_team_leader_s_false_wrong_is_named_and_the_picture_scored_where_it_lay() -> None:
    """A modified laptop says "Wrong" on a right placement anyway: the team must move
    the picture, but the reveal scores it where it lay and names the leader."""
    state = notes(team_start(players=6))
    own = state.faces[0]
    green = state.leaders[0]
    state = take(state, own[0], 0)                 # right ...
    state = LAPTOPS.settle(GAME.apply(state, green, {"type": "wrong"}))  # ... "Wrong!"
    assert state.phase == "fix" and state.claims[0] == (0, 0)
    state = act(state, taker(state), {"type": "move", "picture": own[0], "tier": 1})
    for t, k in [(1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3), (0, 4), (1, 4)]:
        state = take(state, state.faces[t][k], k)
        if state.phase == "wrong":
            state = act(state, state.leaders[t], {"type": "silent"})
    assert state.round == 2
    named = [line for line in state.log if "named" in line.text]
    assert len(named) == 1 and named[0].seats == (green,)
    assert "said \u201cWrong!\u201d about" in named[0].text
    assert "scored where it lay" in named[0].text
    assert state.last is not None and [len(c) for c in state.last["correct"]] == [5, 5]
    shown = {p["id"]: p for p in state.last["pictures"]}
    assert shown[own[0]]["tier"] == 0 and shown[own[0]]["right"]


def test_team_notes_are_revealed_by_both_laptops_and_a_false_one_voids_the_round() -> None:
    from lanplay.games.s_tier.common import commitment

    state = team_start()
    salt = bytes(range(16))
    for t in (0, 1):
        note = list(state.faces[t])
        state = teams.apply(state, state.leaders[t],
                            {"type": "commit", "commitment": commitment(note, salt)})
    for k in range(5):
        for t in (0, 1):
            state = teams.apply(state, taker(state), {"type": "take",
                                                      "picture": state.faces[t][k], "tier": k})
            if state.phase == "wrong":
                state = teams.apply(state, state.leaders[t], {"type": "silent"})
    assert state.phase == "reveal" and GAME.actors(state) == set(state.leaders)
    green, red = state.leaders
    reveal0 = {"type": "reveal", "tiers": list(state.faces[0]), "salt": salt.hex()}
    assert GAME.order_independent(state, green, reveal0)
    half = teams.apply(state, green, reveal0)
    assert GAME.actors(half) == {red} and half.phase == "reveal"
    assert GAME.view(half, red)["note"] is None  # Green's note waits for Red's
    done = teams.apply(half, red, {"type": "reveal", "tiers": list(state.faces[1]),
                                   "salt": salt.hex()})
    assert done.round == 2 and done.steps == (1, 1)
    bad = teams.apply(half, red, {"type": "reveal", "tiers": list(reversed(state.faces[1])),
                                  "salt": salt.hex()})
    assert bad.round == 2 and bad.steps == (0, 0) and bad.total == (0, 0)
    assert bad.last is not None and bad.last["kind"] == "void"
    assert bad.log[-2].seats == (red,) and "is void" in bad.log[-2].text
    with pytest.raises(IllegalAction, match="needed now"):
        teams.check(half, -1, {"type": "void", "seat": green})  # already revealed
    assert teams.apply(half, -1, {"type": "void", "seat": red}).steps == (0, 0)


# --- every mode: whole bot games -------------------------------------------------------


@pytest.mark.parametrize(("mode", "players"), [("competitive", 4), ("competitive", 11),
                                               ("team", 4), ("team", 9), ("cooperative", 5)])
def test_a_bot_game_ends(mode: str, players: int) -> None:
    options: dict[str, Any] = {"pack": "", "guess_seconds": 0, "place_seconds": 0}
    state = GAME.setup(players, mode, options, 7)
    rngs = {s: random.Random(s) for s in range(players)}
    for _ in range(3000):
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


def test_setup_refuses_a_wrong_mode_or_seat_count() -> None:
    with pytest.raises(ValueError, match="no mode"):
        rules.setup(4, "solo", {}, 0, LIB)
    with pytest.raises(ValueError, match="4-11"):
        rules.setup(3, "competitive", {}, 0, LIB)


def test_a_custom_pack_s_topics_come_first_and_its_cards_are_in_the_deck(tmp_path: Path) -> None:
    from content_samples import write_pack

    from lanplay import content
    from lanplay.games.s_tier import common

    write_pack(tmp_path / "packs" / "office")
    lib = content.library(["office"], content.discover(tmp_path / "packs"))
    deck, topics = common.load_content(lib, 3)
    assert {t.id for t in topics[:2]} == {t.id for t in lib.custom()[0].topics}
    faces = {p for card in deck.cards for p in (card.front, card.back)}
    assert {"office/stapler", "office/mug"} <= faces  # the odd third has no partner


def test_the_room_shows_the_teams_only_in_team_mode() -> None:
    from lanplay.games.s_tier import GAME as STIER

    assert STIER.teams(5, "team") == [[0, 2, 4], [1, 3]]
    assert STIER.teams(5, "cooperative") is None
