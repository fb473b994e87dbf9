"""A lying host cannot pull the S-tier leader's note out of the leader's laptop early.

A small "host" on 127.0.0.1 (``hostile``) deals a real S-tier game with the real
rules, takes the leader's commitment, then shows that laptop alone a view that
says "reveal" (or "count") while the guessers are still guessing, or while the
other team's leader is still writing. The note and its salt never leave; the
table says the ask was refused; the laptop's verdict of the game names it. Asked
for a count once the guessers are in, the laptop counts once: a second board
gets nothing (that would be a guessing oracle), the same board the same answer.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import hostile

from lanplay.games.s_tier import GAME
from lanplay.peer.keeper import Keeper
from lanplay.peer.peer import Peer
from protocol.codec import FrameReader, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    Accepted,
    Audit,
    GameOver,
    Intent,
    Ping,
    Pong,
    SeedCommit,
    Snapshot,
    Welcome,
)

LOCAL = "127.0.0.1"
FAKE = "ab" * 32


class Liar:
    """The host's side: the real game, and the lies it tells one laptop. ``lies(state,
    leader)`` gives the views to show after the leader's commitment, one at a time
    (each followed by a ping: its pong says the laptop has handled the view, and
    answered if it would), then the game's end and an audit."""

    def __init__(self, mode: str, players: int, lies: Any) -> None:
        options = {"guess_seconds": 0} if mode == "cooperative" else {}
        self.state = GAME.setup(players, mode, options, 5)
        self.leader = (self.state.leader if mode == "cooperative"
                       else self.state.leaders[0])
        self.lies = lies
        self.intents: list[dict[str, Any]] = []
        self.heard = bytearray()
        self.pongs: asyncio.Queue[int] = asyncio.Queue()

    async def script(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(encode(Welcome(PROTOCOL_VERSION, self.leader, "t0k3n", "Mallory",
                                    "s-tier")))
        writer.write(encode(SeedCommit(1, FAKE, self.state.players, 0.0)))
        writer.write(encode(Snapshot(1, GAME.view(self.state, self.leader))))
        frames = FrameReader()
        state_id = 1
        views: list[dict[str, Any]] = []

        def next_lie() -> None:  # one at a time: each after the pong of the last
            nonlocal state_id
            if len(views) < state_id:
                writer.write(encode(GameOver(state_id, {"winners": [], "scores": []})))
                writer.write(encode(Audit(1, "s-tier", "cooperative", {}, FAKE, [FAKE],
                                          [], [], 0, 0)))
                return
            view = views[state_id - 1]
            state_id += 1
            writer.write(encode(Snapshot(state_id, view)))
            writer.write(encode(Ping(state_id - 1, state_id)))

        while data := await reader.read(65536):
            self.heard += data
            for m in frames.feed(data):
                if isinstance(m, Pong):
                    self.pongs.put_nowait(m.nonce)
                    next_lie()
                if not isinstance(m, Intent):
                    continue
                self.intents.append(m.action)
                writer.write(encode(Accepted(m.id, state_id)))
                if m.action.get("type") == "commit":
                    views.extend(self.lies(GAME.apply(self.state, self.leader, m.action),
                                           self.leader))
                    next_lie()
            await writer.drain()


async def lied_to(tmp: Path, liar: Liar, asks: int) -> tuple[Peer, Keeper]:
    async with hostile.hostile_host(liar.script) as port:
        peer = Peer("Ann", reconnect_for=0, dead_after=30)
        keeper = Keeper(tmp / "notes")
        keeper.attach(peer)
        await peer.connect(LOCAL, port, timeout=5)
        task = asyncio.create_task(peer.run())
        try:
            await peer.wait_until(lambda p: p.view is not None
                                  and p.view.get("phase") in ("note", "notes"), 5)
            assert peer.view is not None
            tiers = [p["id"] for p in peer.view["pictures"]]
            keeper.intent({"type": "note", "tiers": tiers})
            for nonce in range(1, asks + 1):
                assert await asyncio.wait_for(liar.pongs.get(), 5) == nonce
            await peer.wait_until(lambda p: p.verdict is not None, 5)
        finally:
            await peer.close()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    return peer, keeper


def asked(view: dict[str, Any], leader: int, **changes: Any) -> dict[str, Any]:
    return {**view, "actors": [leader], **changes}


def test_a_cooperative_leader_s_laptop_reveals_nothing_while_the_others_guess(
        tmp_path: Path) -> None:
    def lies(after: Any, leader: int) -> list[dict[str, Any]]:
        view = GAME.view(after, leader)
        assert view["phase"] == "guess" and view["locked"] == []
        return [asked(view, leader, phase="reveal"),  # 0.03 s after the deal
                asked(view, leader, phase="count"),
                asked(view, leader, phase="reveal", attempt=2)]

    liar = Liar("cooperative", 3, lies)
    peer, keeper = asyncio.run(asyncio.wait_for(lied_to(tmp_path, liar, 3), 30))
    (secret,) = keeper.kept.values()
    assert [a["type"] for a in liar.intents] == ["commit"]
    assert secret["salt"].encode() not in liar.heard  # the note never left
    refused = [r for r in peer.rejections if "nothing was sent" in r.reason]
    assert len(refused) == 3
    assert "not every guesser has locked in yet" in refused[0].reason
    verdict = peer.verdict
    assert verdict is not None and not verdict.ok
    assert verdict.reason.startswith("At state 2: the host asked this laptop about the "
                                     "leader's note when the rules did not allow it")


def test_a_team_leader_s_laptop_reveals_nothing_while_the_other_leader_writes(
        tmp_path: Path) -> None:
    def lies(after: Any, leader: int) -> list[dict[str, Any]]:
        view = GAME.view(after, leader)
        assert view["commitments"][1] is None  # Red's leader is still writing
        return [asked(view, leader, phase="reveal")]

    liar = Liar("team", 4, lies)
    peer, keeper = asyncio.run(asyncio.wait_for(lied_to(tmp_path, liar, 1), 30))
    (secret,) = keeper.kept.values()
    assert [a["type"] for a in liar.intents] == ["commit"]
    assert secret["salt"].encode() not in liar.heard
    (refused,) = [r for r in peer.rejections if "nothing was sent" in r.reason]
    assert "the other leader has not written their note yet" in refused.reason
    assert peer.verdict is not None and "did not allow it" in peer.verdict.reason


def test_a_count_is_told_once_per_note_and_the_note_only_at_the_round_s_end(
        tmp_path: Path) -> None:
    """Asked to count the full board: one count. Another board: nothing (a guessing
    oracle). The same board again: the same count. Then the second attempt's end:
    the reveal."""
    def lies(after: Any, leader: int) -> list[dict[str, Any]]:
        view = GAME.view(after, leader)
        full = [p["id"] for p in view["pictures"]]
        guessers = [s for s in range(after.players) if s != leader]
        ended = asked(view, leader, phase="count", board=full, locked=guessers)
        other = asked(ended, leader, board=[*full[1:], full[0]])
        last = asked(ended, leader, phase="reveal", attempt=2, count=1)
        return [ended, other, ended, last]

    liar = Liar("cooperative", 3, lies)
    peer, _keeper = asyncio.run(asyncio.wait_for(lied_to(tmp_path, liar, 4), 30))
    kinds = [a["type"] for a in liar.intents]
    assert kinds == ["commit", "count", "count", "reveal"], kinds
    assert liar.intents[1] == liar.intents[2]
    (refused,) = [r for r in peer.rejections if "nothing was sent" in r.reason]
    assert "already counted another board" in refused.reason


def test_a_timer_the_host_ends_early_runs_its_length_on_the_laptop(tmp_path: Path) -> None:
    """The host says the guess time is up right after the deal: the laptop saw the
    timer start and holds its note until its own clock agrees."""
    def lies(after: Any, leader: int) -> list[dict[str, Any]]:
        view = GAME.view(after, leader)
        timed = {**view, "attempt": 2, "timer": {"key": f"guess-{after.round}-2",
                                                  "seconds": 120}}
        up = {"key": "Time is up: the board is submitted as it lies.", "seats": []}
        over = asked(view, leader, phase="reveal", attempt=2, log=[*view["log"], up])
        return [timed, over]

    liar = Liar("cooperative", 3, lies)
    _peer, keeper = asyncio.run(asyncio.wait_for(lied_to(tmp_path, liar, 2), 30))
    assert [a["type"] for a in liar.intents] == ["commit"]
    assert keeper._wake is not None  # it answers when 119 s have passed here
    keeper.detach()
