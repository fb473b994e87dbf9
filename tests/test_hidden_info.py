"""No peer is ever told a hidden card: checked frame by frame against the host's truth.

Each case plays a whole seeded game through the real host (``selfplay`` with
``record``), then replays the host's action log in a fresh Session to know
the true state at every ``state_id``. Every frame each peer received is
decoded and its view rebuilt; at the ``state_id`` a frame carries:

* every card map ({"id", "value", ...}) in the frame and in the rebuilt view
  is a card already played to the table (face up once, so known to all) or
  one in that peer's own hand; never another hand's card or a pile card;
* a delta that sets a bare ``id`` sets an allowed one too;
* no text in the frame names a hidden card ("7 (III)");
* the raw bytes never contain another player's hand packed as a list;
* the rebuilt view is exactly ``Session.view(seat)`` for that state.
"""

from __future__ import annotations

import asyncio
import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lanplay import games
from lanplay.games.alles_klar.rules import (
    END_RULES,
    HAND_SIZES,
    State,
    card_data,
    card_label,
    card_numerals,
)
from lanplay.session import Session
from lanplay.tools.selfplay import selfplay
from protocol import delta
from protocol.codec import decode_body, pack
from protocol.messages import Delta, Snapshot, Welcome

GAME = "alles-klar"
CASES = [
    pytest.param(2 + i % 4, 1000 + 17 * i,
                 {"hand_size": HAND_SIZES[i % 3], "end_rule": END_RULES[(i // 4) % 2]},
                 id=f"{2 + i % 4}p-seed{1000 + 17 * i}-hand{HAND_SIZES[i % 3]}"
                    f"-{END_RULES[(i // 4) % 2]}")
    for i in range(30)
]


def read_frames(path: Path) -> list[bytes]:
    data = path.read_bytes()
    out, at = [], 0
    while at < len(data):
        (length,) = struct.unpack_from(">I", data, at)
        out.append(data[at + 4:at + 4 + length])
        at += 4 + length
    assert at == len(data), f"{path.name} ends inside a frame"
    return out


def true_states(folder: Path) -> tuple[Session, dict[int, State]]:
    """Replay the host's log; the state after each state_id."""
    log = json.loads((folder / "host-log.json").read_text())
    session = Session(games.load(log["game"]), log["players"], log["mode"], log["options"],
                      log["seed"])
    states = {0: session.state}
    for entry in log["actions"]:
        assert session.submit(entry["seat"], entry["action"]) == entry["state_id"]
        states[session.state_id] = session.state
    return session, states


def played(state: State) -> set[int]:
    """Cards that have been face up on the table: known to everyone."""
    table = {p.card for row in state.table for p in row}
    return table | {c for w in state.won for c in w} | set(state.removed)


def nodes(value: Any) -> Iterator[Any]:
    stack = [value]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def id_sets(ops: list[Any]) -> Iterator[Any]:
    """Values a delta sets at a path ending in "id" (a card changed field by field)."""
    for op in ops:
        if op[0] == delta.SET and op[1] and op[1][-1] == "id":
            yield op[2]


class Leaks:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.found: list[str] = []

    def check(self, where: str, state: State, message: Any, body: bytes,
              view: dict[str, Any], ops: list[Any]) -> None:
        mine = set(state.hands[self.seat])
        allowed = mine | played(state)
        hidden = ({c for s, h in enumerate(state.hands) if s != self.seat for c in h}
                  | set(state.pile))
        assert not hidden & allowed
        seen = [n["id"] for n in [*nodes(message), *nodes(view)]
                if isinstance(n, dict) and "id" in n and "value" in n]
        seen += list(id_sets(ops))
        for card in seen:
            if card not in allowed:
                kind = "hidden" if card in hidden else "unknown"
                self.found.append(f"{where}: {kind} card {card} ({card_label(card)})")
        labels = [card_label(c) for c in hidden if card_numerals(c)]
        for text in (n for n in nodes(message) if isinstance(n, str)):
            self.found += [f"{where}: text names {lab!r}: {text!r}" for lab in labels
                           if lab in text]
        for s, hand in enumerate(state.hands):
            if s == self.seat or not hand:
                continue
            as_maps = pack([card_data(c) for c in hand])
            if as_maps in body:
                self.found.append(f"{where}: seat {s}'s hand as card maps")
            if len(hand) >= 3 and pack(list(hand)) in body:
                self.found.append(f"{where}: seat {s}'s hand as a list of ids")


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("players", "seed", "options"), CASES)
def test_no_peer_is_ever_told_a_hidden_card(players: int, seed: int, options: dict[str, Any],
                                            tmp_path: Path) -> None:
    summary = asyncio.run(selfplay(GAME, players, seed=seed, options=options, record=tmp_path,
                                   timeout=30))
    session, states = true_states(tmp_path)
    assert session.result is not None
    assert list(session.result.winners) == summary["winners"]
    assert session.state_id == summary["state_id"] == max(states)
    checked = 0
    for peer in range(players):
        bodies = read_frames(tmp_path / f"peer-{peer}.frames")
        assert len(bodies) == summary["frames"][peer]
        welcome = decode_body(bodies[0])
        assert isinstance(welcome, Welcome) and welcome.seat == peer
        leaks = Leaks(peer)
        view: dict[str, Any] | None = None
        at = -1
        for n, body in enumerate(bodies):
            msg = decode_body(body)
            ops: list[Any] = []
            if isinstance(msg, Snapshot):
                view, at = msg.view, msg.state_id
            elif isinstance(msg, Delta):
                assert view is not None and msg.base == at, f"peer {peer} frame {n}: a gap"
                view, at, ops = delta.apply(view, msg.ops), msg.state_id, msg.ops
            if view is None:
                continue  # the lobby, before the deal: nothing about cards at all
            state = states[at]
            leaks.check(f"peer {peer} frame {n} (state {at})", state, msg, body, view, ops)
            if isinstance(msg, Snapshot | Delta):
                assert view == session.game.view(state, peer), f"peer {peer} frame {n}"
                checked += 1
        assert at == session.state_id, f"peer {peer} did not see the end"
        assert not leaks.found, "\n".join(leaks.found[:10])
    assert checked >= players * len(session.log)


def leaks_in(seat: int, state: State, message: dict[str, Any],
             ops: list[Any] | None = None) -> list[str]:
    leaks = Leaks(seat)
    leaks.check("planted", state, message, pack(message), {}, ops or [])
    return leaks.found


@pytest.mark.timeout(30)
def test_the_leak_check_finds_a_planted_leak(tmp_path: Path) -> None:
    """The check above is not vacuous: a hand sent to the wrong seat is caught."""
    asyncio.run(selfplay(GAME, 3, seed=5, record=tmp_path, timeout=30))
    session, states = true_states(tmp_path)
    state = states[4]
    honest = {"type": "snapshot", "state_id": 4, "view": session.game.view(state, 0)}
    assert leaks_in(0, state, honest) == []
    wrong_seat = {"type": "snapshot", "state_id": 4, "view": session.game.view(state, 1)}
    found = leaks_in(0, state, wrong_seat)
    assert any("hidden card" in f for f in found), found
    assert any("hand as card maps" in f for f in found), found
    ops = [[delta.SET, ["hand", 0, "id"], state.pile[0]]]
    next_card = {"type": "delta", "base": 3, "state_id": 4, "ops": ops}
    assert any("hidden card" in f for f in leaks_in(0, state, next_card, ops)), ops
    told = {"type": "chat", "text": f"I hold {card_label(state.hands[1][0])}", "sender": "x"}
    if card_numerals(state.hands[1][0]):
        assert any("text names" in f for f in leaks_in(0, state, told))
