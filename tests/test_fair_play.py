"""Fair play over real TCP on 127.0.0.1: the shuffle every seat contributes to, the audit
every peer checks at the end, and a host that cheats caught by every peer.

The pure check is ``test_fair_audit.py``; here the real host and real peers run it:
seeded games of every game and mode end verified on every laptop, a silent seat is
drawn for and named, a resumed game keeps its shuffle, "Play again" makes a new one,
and a host that changes a dealt card, a logged move or its secret is caught."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import struct
from pathlib import Path
from typing import Any

import pytest
from nethelpers import LOCAL, Tasks, hosting, rejected, run, seat
from resilience import Table, config

from lanplay.fair.audit import Verdict
from lanplay.host import Host, flow
from lanplay.peer.peer import Peer
from lanplay.session import Session
from lanplay.store import saves
from lanplay.tools.selfplay import selfplay
from lanplay.tools.verify import read_frames, run_verify
from protocol.codec import decode_body, pack
from protocol.messages import (
    Audit,
    Contribution,
    Contributions,
    Delta,
    GameOver,
    Message,
    SeedCommit,
    Snapshot,
    to_wire,
)

VERIFIED = ("Checked on this laptop: the shuffle came from everyone, every move followed "
            "the rules")


async def verdicts(peers: list[Peer], timeout: float = 20) -> list[Verdict]:
    for peer in peers:
        await peer.wait_until(lambda p: p.verdict is not None, timeout)
    return [p.verdict for p in peers if p.verdict is not None]


# --- every game and mode ---------------------------------------------------------------


CASES = [("alles-klar", 2, None), ("ranking", 3, None), ("ranking-top", 3, None),
         ("ranagedon", 2, None), ("s-tier", 2, "cooperative"), ("s-tier", 4, "competitive"),
         ("s-tier", 4, "team")]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("game", "players", "mode"), CASES,
                         ids=[f"{g}-{m or 'standard'}-{p}p" for g, p, m in CASES])
def test_every_peer_verifies_a_seeded_game_over_tcp_and_so_does_its_record(
        game: str, players: int, mode: str | None, tmp_path: Path) -> None:
    out = run(selfplay(game, players, mode, seed=11, record=tmp_path, timeout=40))
    assert out["audit"] == ["verified"] * players
    status, lines = run_verify(tmp_path / f"peer-{players - 1}.frames")
    assert (status, lines[-1]) == (0, "verified"), lines
    assert f"verified ({out['actions']} moves" in lines[0]


# --- the shuffle -------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_the_commitment_comes_first_the_deal_after_every_contribution_and_no_secret_before_the_end(
) -> None:
    async def main() -> None:
        tasks = Tasks()
        frames: list[list[bytes]] = [[], [], []]
        async with hosting(autostart=3) as host:
            peers = [await seat(host, "Bot 0", tasks, bot_seed=0, recorder=frames[0].append)]
            # a contribution before any shuffle counts for nothing
            early = peers[0]
            answer = await rejected(early, lambda: early.send(Contribution(1, "11" * 32)) or 0)
            assert answer.code == "late"
            peers += [await seat(host, f"Bot {i}", tasks, bot_seed=i,
                                 recorder=frames[i].append) for i in (1, 2)]
            await asyncio.wait_for(host.finished.wait(), 20)
            session = host.session
            assert session is not None and session.fair is not None
            fair = session.fair
            assert [v.ok for v in await verdicts(peers)] == [True] * 3
        await tasks.join()
        for number, bodies in enumerate(frames):
            kinds = [type(decode_body(b)) for b in bodies]
            commit = kinds.index(SeedCommit)
            told = kinds.index(Contributions)
            deal = kinds.index(Snapshot)
            assert commit < told < deal < kinds.index(GameOver) < kinds.index(Audit)
            # before the audit no frame holds the secret (raw or hex) or the seed: no peer
            # can compute another seat's hand before the end
            before = b"".join(bodies[:kinds.index(Audit)])
            for secret in (fair.secret, fair.secret.hex().encode(),
                           pack(fair.seed), str(fair.seed).encode()):
                assert secret not in before, number
            assert fair.secret.hex().encode() in bodies[kinds.index(Audit)]
            told_msg = decode_body(bodies[told])
            assert isinstance(told_msg, Contributions)
            assert told_msg.values == fair.hex_values() and told_msg.drawn == []
            assert told_msg.commitment == fair.commitment

    run(main())


@pytest.mark.timeout(30)
def test_a_silent_seat_gets_a_contribution_drawn_by_the_host_and_everyone_is_told() -> None:
    async def main() -> None:
        tasks = Tasks()
        async with hosting(autostart=3, contribution_wait=0.3) as host:
            mute = await seat(host, "Mute", tasks, bot_seed=7)
            mute.witness.contribute = None  # its laptop never answers the commitment
            others = [await seat(host, f"Bot {i}", tasks, bot_seed=i) for i in (1, 2)]
            peers = [mute, *others]
            found = await verdicts(peers)
            session = host.session
            assert session is not None and session.fair is not None
            assert session.fair.drawn == (0,)
            for peer, verdict in zip(peers, found, strict=True):
                assert verdict.ok and verdict.drawn == (0,), (peer.name, verdict.reason)
                assert peer.witness.seen is not None and peer.witness.seen.drawn == [0]
                assert verdict.line([s.name for s in host.room.seats]) == (
                    "Checked on this laptop: every move followed the rules; the shuffle "
                    "came from everyone but Mute, for whom the host drew (no answer in "
                    "time)")
        await tasks.join()

    run(main())


@pytest.mark.timeout(40)
def test_play_again_makes_a_new_shuffle_and_a_spectator_checks_from_where_it_came(
) -> None:
    async def main() -> None:
        tasks = Tasks()
        async with hosting(autostart=3) as host:
            peers = [await seat(host, f"Bot {i}", tasks, bot_seed=i) for i in range(3)]
            await asyncio.wait_for(host.finished.wait(), 20)
            first = await verdicts(peers)
            assert [v.game for v in first] == [1, 1, 1] and all(v.ok for v in first)
            one = host.session
            assert one is not None and one.fair is not None
            await peers[0].wait_until(lambda p: p.lobby is not None and p.lobby.problem
                                      is None and p.lobby.phase == "over", 10)
            host.start_game()
            await peers[0].wait_until(lambda p: p.state_id > 3 and p.result is None, 20)
            watcher = Peer("Watcher", spectate=True)
            await watcher.connect(LOCAL, host.port)
            tasks.add(watcher.run())
            await asyncio.wait_for(host.finished.wait(), 20)
            two = host.session
            assert two is not None and two.fair is not None and two is not one
            assert two.fair.game == 2 and two.fair.commitment != one.fair.commitment
            second = await verdicts([*peers, watcher])
            assert [v.game for v in second] == [2] * 4 and all(v.ok for v in second), \
                [v.reason for v in second]
            assert [v.late for v in second] == [False, False, False, True]
            assert 0 < second[3].states < second[0].states == two.state_id + 1
        await tasks.join()

    run(main())


@pytest.mark.timeout(60)
def test_a_resumed_game_keeps_its_seed_and_commitment_and_still_verifies(
        tmp_path: Path) -> None:
    async def main() -> None:
        table = Table(Host("alles-klar", config=config(tmp_path, seed=3, autostart=3)))
        await table.host.start()
        try:
            for i in range(3):
                await table.seat(f"Bot {i}", "drive", seed=30 + i)
            dead = await table.kill_at(5)
            before = dead.session
            assert before is not None and before.fair is not None
            saved = next(p for p in (tmp_path / "saves").iterdir() if p.suffix == ".json")
            # the save holds the shuffle; one edited to another secret is refused
            data = json.loads(saved.read_text())
            assert data["fair"]["secret"] == before.fair.secret.hex()
            data["fair"]["secret"] = "ab" * 32
            edited = tmp_path / "edited.json"
            edited.write_text(json.dumps(data))
            with pytest.raises(saves.SaveError, match="not the one the saved shuffle gives"):
                saves.rebuild(saves.load(edited))
            resumed = await table.resume(saved, config(tmp_path))
            after = resumed.session
            assert after is not None and after.fair == before.fair
            assert after.seed == before.seed == before.fair.seed
            await table.finish()
            found = await verdicts(table.peers)
            assert all(v.ok and not v.late for v in found), [v.reason for v in found]
            for peer in table.peers:  # one commitment, seen before the deal, kept
                assert peer.witness.seen is not None
                assert peer.witness.seen.commitment == before.fair.commitment
                assert peer.witness.seen.problems == []
        finally:
            await table.close()

    run(main())


# --- a host that cheats ----------------------------------------------------------------


async def cheated(tamper: Any, *, options: dict[str, Any] | None = None
                  ) -> tuple[Host, list[Verdict]]:
    """A seeded game of three bots and a spectator whose host ``tamper(host)`` changes."""
    tasks = Tasks()
    async with hosting(autostart=3) as host:
        if options:
            host.room.set_game("alles-klar", None, options)
        tamper(host)
        watcher = Peer("Watcher", spectate=True)
        await watcher.connect(LOCAL, host.port)
        tasks.add(watcher.run())
        peers = [await seat(host, f"Bot {i}", tasks, bot_seed=i) for i in range(3)]
        found = await verdicts([*peers, watcher])
    await tasks.join()
    return host, found


@pytest.mark.timeout(40)
def test_a_host_that_changes_a_dealt_card_is_caught_by_every_peer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Stacked(Session):
        """The host's own deal, with seat 1's first card swapped for the pile's top."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            s = self.state
            hands = [list(h) for h in s.hands]
            pile = list(s.pile)
            hands[0][0], pile[0] = pile[0], hands[0][0]
            self.state = dataclasses.replace(s, hands=tuple(map(tuple, hands)),
                                             pile=tuple(pile))

    monkeypatch.setattr(flow, "Session", Stacked)
    _, found = run(cheated(lambda host: None, options={"end_rule": "empty-hands"}))
    assert not any(v.ok for v in found)
    seat_1 = found[0]
    assert seat_1.state_id == 0 and "seat 1's view this laptop was sent differs from the " \
        "replay in: hand" in seat_1.reason
    for verdict in found[1:]:  # the others see it when the swapped cards are played
        assert verdict.state_id is not None and verdict.state_id > 0
        assert "was not legal" in verdict.reason or "differs from the replay" \
            in verdict.reason, verdict.reason
    assert found[0].line().startswith("Checked on this laptop: this game does not add up.")


@pytest.mark.timeout(40)
def test_a_host_that_changes_a_move_in_the_audit_log_is_caught_by_every_peer() -> None:
    changed: list[int] = []

    def tamper(host: Host) -> None:
        honest = host.play.audit

        def forged(session: Session) -> list[Audit]:
            parts = honest(session)
            log = [list(e) for e in parts[0].log]
            at = next(i for i, (s, a) in enumerate(log) if s >= 0 and i >= 6)
            log[at] = [log[at][0], {**log[at][1], "card": log[at + 1][1].get("card", 0)}]
            changed.append(at + 1)
            return [dataclasses.replace(parts[0], log=log)]

        host.play.audit = forged  # type: ignore[method-assign]

    _, found = run(cheated(tamper))
    assert changed
    for verdict in found:
        assert not verdict.ok and verdict.state_id == changed[0], verdict.reason
        assert f"move {changed[0]} by seat" in verdict.reason \
            or "differs from the replay" in verdict.reason


@pytest.mark.timeout(40)
def test_a_host_that_changes_its_secret_after_the_commitment_is_caught_by_every_peer(
) -> None:
    def tamper(host: Host) -> None:
        honest = host.play.audit
        host.play.audit = lambda session: [  # type: ignore[method-assign]
            dataclasses.replace(p, secret="00" * 32) for p in honest(session)]

    _, found = run(cheated(tamper))
    for verdict in found:
        assert not verdict.ok and verdict.state_id == 0
        assert verdict.reason == ("At the deal (state 0): the secret the host revealed does "
                                  "not match the commitment it made before the deal.")


# --- lanplay verify ----------------------------------------------------------------------


def write_frames(path: Path, bodies: list[bytes]) -> None:
    path.write_bytes(b"".join(struct.pack(">I", len(b)) + b for b in bodies))


def altered(bodies: list[bytes], kind: type[Message], pick: int, change: Any) -> list[bytes]:
    """The record with the ``pick``-th message of ``kind`` replaced by ``change(msg)``."""
    out, seen = [], 0
    for body in bodies:
        msg = decode_body(body)
        if isinstance(msg, kind):
            if seen == pick:
                body = pack(to_wire(change(msg)))
            seen += 1
        out.append(body)
    return out


@pytest.mark.timeout(60)
def test_lanplay_verify_accepts_an_honest_record_and_names_where_an_altered_one_diverges(
        tmp_path: Path) -> None:
    out = run(selfplay("alles-klar", 3, seed=8, record=tmp_path, timeout=30))
    peer = tmp_path / "peer-1.frames"
    bodies = read_frames(peer)
    assert run_verify(peer)[0] == 0

    def check(name: str, changed: list[bytes]) -> list[str]:
        path = tmp_path / f"{name}.frames"
        write_frames(path, changed)
        status, lines = run_verify(path)
        assert status == 1, (name, lines)
        return lines

    # a delta changed after the fact: the first state whose view it changed
    deltas = [decode_body(b) for b in bodies if isinstance(decode_body(b), Delta)]
    tenth = deltas[10]
    assert isinstance(tenth, Delta)
    lines = check("delta", altered(bodies, Delta, 10, lambda d: dataclasses.replace(
        d, ops=[*d.ops, [0, ["turn"], 42]])))
    assert lines[0].startswith(f"game 1: state {tenth.state_id}: At state {tenth.state_id}:")
    assert "differs from the replay in: turn. First difference: turn: 42 in the record" \
        in lines[0]
    # an action of the audit's log
    lines = check("action", altered(bodies, Audit, 0, lambda a: dataclasses.replace(
        a, log=[*a.log[:4], [a.log[4][0], {"type": "play", "card": 999}], *a.log[5:]])))
    assert lines[0].startswith("game 1: state 5: At state 5: move 5 by seat")
    assert "was not legal" in lines[0]
    # the secret, and a contribution (in the audit, or as announced before the deal)
    lines = check("secret", altered(bodies, Audit, 0, lambda a: dataclasses.replace(
        a, secret="01" * 32)))
    assert lines[0] == ("game 1: state 0: At the deal (state 0): the secret the host "
                        "revealed does not match the commitment it made before the deal.")
    lines = check("value", altered(bodies, Audit, 0, lambda a: dataclasses.replace(
        a, values=["02" * 32, *a.values[1:]])))
    assert lines[0].startswith("game 1: state 0: At the deal (state 0): seat 1's "
                               "contribution in the audit is not the one announced")
    both = altered(altered(bodies, Audit, 0, lambda a: dataclasses.replace(
        a, values=["02" * 32, *a.values[1:]])), Contributions, 0,
        lambda c: dataclasses.replace(c, values=["02" * 32, *c.values[1:]]))
    lines = check("both", both)
    assert lines[0].startswith("game 1: state 0: At the deal (state 0): seat 2's view this "
                               "laptop was sent differs from the replay in:")
    assert out["audit"] == ["verified"] * 3
    # a record cut short holds no audit, and a torn file is said to be torn
    write_frames(tmp_path / "short.frames", bodies[:20])
    assert run_verify(tmp_path / "short.frames")[0] == 1
    (tmp_path / "torn.frames").write_bytes(peer.read_bytes()[:-3])
    from lanplay.tools.verify import RecordError

    with pytest.raises(RecordError, match="ends inside a frame"):
        run_verify(tmp_path / "torn.frames")
