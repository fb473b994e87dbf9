"""Every game, on the wire: what each peer was sent is its own view, and nothing more.

``test_hidden_info.py`` hunts Alles klar?'s cards byte by byte; this test holds
every game to the same promise without knowing its components. A whole seeded
game is played through the real host with bots (``selfplay --record``), the
host's action log is replayed to know the true state at every ``state_id``,
and for every frame each peer received:

* the view the peer rebuilt from snapshots and deltas is exactly
  ``view(state, seat)``, so a delta never carried anything the view lacks;
* at a spread of states, that view is also what the seat would see in any
  ``hidden_variant`` of the state (everything it may not see reshuffled), so
  what was sent cannot depend on hidden information (log lines and the
  table's last event included: they are part of the view).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from test_hidden_info import read_frames, true_states

from lanplay.tools.selfplay import selfplay
from protocol import delta
from protocol.codec import decode_body, pack
from protocol.messages import Delta, Snapshot

CASES = [
    ("ranking", 4, None, {}),
    ("s-tier", 4, "cooperative", {"text_side": True}),
    ("s-tier", 5, "competitive", {}),
    ("s-tier", 6, "team", {}),
    ("ranking-top", 4, None, {}),
    ("ranagedon", 4, None, {}),
    ("alles-klar", 3, None, {}),
]
VARIANTS = 3
"""Hidden variants compared at each sampled state."""
SAMPLES = 40
"""States per peer at which the variants are compared (spread over the game)."""


@pytest.mark.timeout(90)
@pytest.mark.parametrize(("game", "players", "mode", "options"), CASES,
                         ids=[f"{g}-{m or 'standard'}-{p}p" for g, p, m, _ in CASES])
def test_each_peer_is_sent_its_own_view_and_nothing_hidden(
        game: str, players: int, mode: str | None, options: dict[str, Any],
        tmp_path: Path) -> None:
    summary = asyncio.run(selfplay(game, players, mode, seed=29, options=options,
                                   record=tmp_path, timeout=60))
    session, states = true_states(tmp_path)
    rules = session.game
    assert session.result is not None
    assert list(session.result.winners) == summary["winners"]
    rng = random.Random(29)
    for peer in range(players):
        view: dict[str, Any] | None = None
        at = -1
        shown: list[int] = []
        for n, body in enumerate(read_frames(tmp_path / f"peer-{peer}.frames")):
            msg = decode_body(body)
            if isinstance(msg, Snapshot):
                view, at = msg.view, msg.state_id
            elif isinstance(msg, Delta):
                assert view is not None and msg.base == at, f"peer {peer} frame {n}: a gap"
                view, at = delta.apply(view, msg.ops), msg.state_id
            else:
                continue
            truth = rules.view(states[at], peer)
            assert pack(view) == pack(truth), f"peer {peer} frame {n} (state {at})"
            shown.append(at)
        assert shown and shown[-1] == session.state_id, f"peer {peer} did not see the end"
        picks = sorted(set(shown))
        step = max(1, len(picks) // SAMPLES)
        for at in picks[::step]:
            state = states[at]
            seen = pack(rules.view(state, peer))
            for _ in range(VARIANTS):
                other = rules.hidden_variant(state, peer, rng)
                assert pack(rules.view(other, peer)) == seen, \
                    f"{game}: seat {peer}'s view at state {at} depends on what it may not see"


@pytest.mark.timeout(60)
def test_the_check_finds_a_planted_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ranking view that also shows the next supply tile is caught."""
    from lanplay.games.ranking import rules as ranking

    honest = ranking.view

    def leaky(state: Any, viewer: Any) -> dict[str, Any]:
        return {**honest(state, viewer), "peek": state.supply[:1]}

    monkeypatch.setattr(ranking, "view", leaky)
    with pytest.raises(AssertionError, match="depends on what it may not see"):
        test_each_peer_is_sent_its_own_view_and_nothing_hidden("ranking", 3, None, {},
                                                               tmp_path)
