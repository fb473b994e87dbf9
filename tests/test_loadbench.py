"""The load benchmark's game and one short run of it with a flooding peer.

The figures themselves are machine-dependent and live in docs/BENCHMARKS.md;
here only what must hold on any machine: Relay is a proper game (it ends,
hides each seat's secret, refuses bad moves), and under a flood of 1000
intents a second the flooder is refused ("rate", then thrown out with
"flood" under the default settings) while every move of the 16 players still
reaches all 48 other peers and no honest peer is refused anything.
"""

from __future__ import annotations

import conformance as c
import pytest

from lanplay import games
from lanplay.game import IllegalAction
from lanplay.host import HostConfig
from lanplay.tools import loadbench

GAME = loadbench.GAME


def test_relay_is_in_the_catalogue_only_while_the_benchmark_runs() -> None:
    with pytest.raises(KeyError):
        games.load(loadbench.GAME_ID)
    with loadbench.registered():
        assert games.load(loadbench.GAME_ID) is GAME
        assert games.entry(loadbench.GAME_ID).players == (2, 16)
    with pytest.raises(KeyError):
        games.load(loadbench.GAME_ID)


@pytest.mark.parametrize("players", [2, 16])
def test_relay_ends_and_each_seat_sees_only_its_own_secret(players: int) -> None:
    run = c.play(c.Case(GAME, "standard", players), seed=3, chooser=c.bot_chooser(3),
                 options={"rounds": 2})
    final = run.final
    assert final.moves == 2 * players and GAME.result(final) is not None
    for state in run.states[:: max(1, len(run.states) // 5)]:
        views = {v: GAME.view(state, v) for v in [*range(players), None]}
        assert views[None]["mine"] is None
        for seat in range(players):
            assert views[seat]["mine"] == state.secrets[seat]
            assert {k: v for k, v in views[seat].items() if k != "mine"} == \
                {k: v for k, v in views[None].items() if k != "mine"}
        assert c.round_trip_problem(views[0], "view") is None


def test_relay_refuses_moves_out_of_turn_or_out_of_range() -> None:
    state = GAME.setup(4, "standard", {"rounds": 1}, 1)
    for seat, action in [(1, {"type": "play", "n": 1}), (0, {"type": "play", "n": 4}),
                         (0, {"type": "play", "n": True}), (0, {"type": "pass"})]:
        with pytest.raises(IllegalAction):
            GAME.check(state, seat, action)


@pytest.mark.timeout(90)
def test_a_flood_is_refused_and_thrown_out_while_48_peers_get_every_move() -> None:
    run = loadbench.run_once("cut-off", rounds=2, seed=5, flood="default", save=False)
    assert run["moves"] == 2 * loadbench.PLAYERS  # each timed at all 48 peers
    assert run["others_rejected"] == 0 and run["resyncs"] == 0
    flood = run["flood"]
    assert flood["rejected"].get("rate", 0) > 150, flood
    out = flood["thrown_out"]
    assert out is not None and out["after_ms"] < 5000, flood  # long before the game ended
    assert not out["told"] or "too many messages" in out["reason"], flood
    assert set(flood["rejected"]) <= {"rate", "spectator"}, flood


@pytest.mark.timeout(90)
def test_with_the_cut_off_out_of_reach_the_flood_is_throttled_for_the_whole_game() -> None:
    run = loadbench.run_once("flood", rounds=2, seed=5, flood="sustained", save=False)
    assert run["moves"] == 2 * loadbench.PLAYERS and run["others_rejected"] == 0
    flood = run["flood"]
    assert flood["thrown_out"] is None, flood
    # the bucket lets through its burst plus its refill, nothing more: the rest is "rate"
    limits = HostConfig()
    allowed = flood["rejected"].get("spectator", 0)
    assert allowed <= limits.burst + limits.rate * flood["seconds"] + 2, flood
    assert flood["rejected"].get("rate", 0) >= flood["sent"] - allowed - 50, flood
