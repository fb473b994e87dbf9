"""Issue 31: every end says who won, decided in one place (``lanplay.verdict``) from the
result alone. S-tier competitive's 4-way tie at 0 told all four "Du hast gewonnen!"; a
cooperative defeat said only "The game is over."; a team's win named no team. A tie of
every seat is a draw in every game, a tie of some stays a shared win, a team's win names
the team and tells each player whether it was theirs, and a cooperative game says
whether the group won or lost and why. The page gets the same words (``to_wire``)."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from conformance import Case, play, random_choice
from test_s_tier_coop import IDENTITY, NONE, guess, start, write

from lanplay import games
from lanplay.locale import set_language
from lanplay.messages import render
from lanplay.verdict import summary, verdict_of

NAMES = ["Mia", "Ben", "Ada", "Jonas"]


def said(result: dict[str, Any], you: int | None, names: list[str] = NAMES) -> str:
    return render(verdict_of(result).line(you), names, "en")


def test_four_players_tied_at_zero_is_a_draw_for_every_reader() -> None:
    """The reported end screen: four winners with 0 each, each told "You win!"."""
    tie = {"winners": [0, 1, 2, 3], "scores": [0.0, 0.0, 0.0, 0.0], "detail": {"seed": 1}}
    found = verdict_of(tie)
    assert found.kind == "draw" and found.marked == ()
    for you in (0, 1, 2, 3, None):
        assert said(tie, you) == "A draw: everyone has 0 points."
    one = {"winners": [0, 1], "scores": [1, 1]}
    assert said(one, 0) == "A draw: everyone has 1 point."


def test_a_tie_of_some_seats_stays_a_shared_win() -> None:
    shared = {"winners": [0, 3], "scores": [4, 1, 2, 4]}
    found = verdict_of(shared)
    assert found.kind == "shared" and found.marked == (0, 3)
    assert said(shared, 0) == "You share the win!"
    assert said(shared, 1) == "Mia and Jonas share the win!"
    assert said(shared, None) == "Mia and Jonas share the win!"
    assert said({"winners": [2], "scores": [1, 1, 5, 0]}, 2) == "You win!"
    assert said({"winners": [2], "scores": [1, 1, 5, 0]}, None) == "Ada wins!"


def test_a_team_win_names_the_team_and_tells_each_player_whether_it_was_theirs() -> None:
    result = {"winners": [1, 3], "scores": [2, 5, 2, 5],
              "detail": {"teams": [[0, 2], [1, 3]], "total": [2, 5]}}
    assert verdict_of(result).kind == "team_won"
    assert said(result, 3) == "Your team wins: Red team (Ben and Jonas)!"
    assert said(result, 0) == "Red team (Ben and Jonas) wins. Your team lost."
    assert said(result, None) == "Red team (Ben and Jonas) wins!"
    names = [f"P{i}" for i in range(16)]
    big = {"winners": list(range(0, 16, 2)), "scores": [3, 1] * 8,
           "detail": {"teams": [list(range(0, 16, 2)), list(range(1, 16, 2))]}}
    # eight names took two lines at 1024x640; the score rows below name everyone
    assert said(big, None, names) == "Green team (P0, P2, P4 and 5 more) wins!"
    tied = {"winners": list(range(4)), "scores": [3, 3, 3, 3],
            "detail": {"teams": [[0, 2], [1, 3]]}}
    assert said(tied, 0) == "A draw: each team has 3 points."


def test_a_cooperative_game_says_the_group_won_or_lost_and_why() -> None:
    """The rulebook: green at the star first is a victory, red first a defeat."""
    won = guess(write(guess(write(start(players=3)), IDENTITY)), IDENTITY)  # green +2, +2
    lost = start(players=3)
    for _ in range(2):  # both attempts all wrong: red +2 a round
        lost = guess(guess(write(lost), NONE), NONE)
    for state, kind, seat_line, watcher_line, reason in (
            (won, "group_won", "Victory: you all win together!", "Victory for the table!",
             "The green token reached the star before the red one."),
            (lost, "group_lost", "Defeat: you all lose together.", "The table lost together.",
             "The red token reached the star before the green one.")):
        result = games.load("s-tier").result(state)
        assert result is not None
        found = verdict_of(result.to_wire())
        assert found.kind == kind and found.together and found.marked == ()
        assert said(result.to_wire(), 1) == seat_line
        assert said(result.to_wire(), None) == watcher_line
        assert render(found.reason, NAMES, "en") == reason
    assert "Victory" not in said(games.load("s-tier").result(lost).to_wire(), 0)


GAMES = [("alles-klar", "standard", 3), ("ranking", "standard", 4),
         ("ranking-top", "standard", 3), ("ranagedon", "standard", 2),
         ("ranagedon", "standard", 4), ("s-tier", "competitive", 4), ("s-tier", "team", 4)]


@pytest.mark.parametrize(("game_id", "mode", "players"), GAMES,
                         ids=[f"{g}-{m}-{p}" for g, m, p in GAMES])
def test_every_game_s_result_reads_as_a_draw_when_every_seat_ties(
        game_id: str, mode: str, players: int) -> None:
    """A real result of each game (its own ``detail``: teams, ends, seeds) with every seat
    on the same score and among the winners, as its rules make a tie."""
    game = games.load(game_id)
    mode = mode if any(m.id == mode for m in game.modes) else game.modes[0].id
    run = play(Case(game, mode, players), 3, random_choice)
    result = game.result(run.final)
    assert result is not None
    tie = {**result.to_wire(), "winners": list(range(players)), "scores": [2] * players}
    found = verdict_of(tie)
    assert found.kind == "draw" and found.marked == ()
    for you in (*range(players), None):
        assert "win" not in said(tie, you, [*NAMES, "Lea"]).lower()
    real = verdict_of(result.to_wire())  # and the real end reads as what it is
    best = max(result.scores)
    if len(result.winners) == players and len(set(result.scores)) == 1:
        assert real.kind == "draw"
    else:
        assert real.kind in ("won", "shared", "team_won")
        assert all(result.scores[w] == best for w in real.winners)


def test_the_page_gets_the_same_words_over_msgpack() -> None:
    """``to_wire`` is what the host's game_over carries for a client without this
    module: each role's line renders as the window's does."""
    for result in ({"winners": [0, 1, 2, 3], "scores": [0, 0, 0, 0]},
                   {"winners": [1, 3], "scores": [1, 2, 1, 2],
                    "detail": {"teams": [[0, 2], [1, 3]]}},
                   {"winners": [], "scores": [1, 1],
                    "detail": {"outcome": "defeat",
                               "why": {"key": "The red token reached the star before the "
                                              "green one."}}}):
        found = verdict_of(result)
        wire = msgpack.unpackb(msgpack.packb(found.to_wire()))
        assert wire["marked"] == list(found.marked) and wire["kind"] == found.kind
        for you in (0, 1, None):
            line = wire["lines"][found.role(you)]
            assert render(line, NAMES, "en") == said(result, you)
        assert ("reason" in wire) == (found.reason is not None)


def test_the_words_travel_as_keys_and_speak_german() -> None:
    set_language("de")
    try:
        tie = {"winners": [0, 1, 2, 3], "scores": [0, 0, 0, 0]}
        assert render(verdict_of(tie).line(0), NAMES) == "Unentschieden: Alle haben 0 Punkte."
        team = {"winners": [0, 2], "scores": [5, 1, 5, 1], "detail": {"teams": [[0, 2], [1, 3]]}}
        assert render(verdict_of(team).line(0), NAMES) == \
            "Dein Team gewinnt: Grünes Team (Mia und Ada)!"
        line = summary(tie)
        assert line is not None
        assert render(line, NAMES) == "Unentschieden (Mia 0, Ben 0, Ada 0, Jonas 0)"
    finally:
        set_language(None)


def test_junk_never_raises() -> None:
    for junk in (None, 3, [], {"winners": "x"}, {"winners": [True, -1, 99], "scores": [1]},
                 {"winners": [0], "scores": [float("nan")], "detail": {"why": 5}}):
        found = verdict_of(junk)  # type: ignore[arg-type]
        assert isinstance(render(found.line(0), NAMES, "en"), str)
    assert verdict_of(random.Random(0).random()).kind == "none"  # type: ignore[arg-type]
