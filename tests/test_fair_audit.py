"""The audit and its check, without sockets: a whole game is played on a Session and
every peer's frames are made as the host makes them (through the codec), then fed to
the same Witness a peer runs. Honest games verify; every kind of tampering is caught
with its state_id and what differs."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from lanplay import games
from lanplay.fair import audit, digest
from lanplay.fair.audit import Gathered, Verdict
from lanplay.fair.seed import Exchange, seeded_bytes
from lanplay.fair.witness import Witness
from lanplay.game import SYSTEM, Viewer
from lanplay.peer.keeper import Laptops
from lanplay.session import Session
from protocol import delta
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

Frames = dict[Viewer, list[Message]]


def wire(msg: Message) -> Message:
    """As the peer gets it: packed and decoded (tuples become lists, and so on)."""
    return decode_body(pack(to_wire(msg)))


@dataclasses.dataclass
class Played:
    session: Session
    frames: Frames
    witnesses: dict[Viewer, Witness]
    seed: int = 1

    def viewers(self) -> list[Viewer]:
        return list(self.frames)


def play(game_id: str = "alles-klar", players: int = 3, mode: str | None = None,
         options: dict[str, Any] | None = None, seed: int = 1,
         silent: tuple[int, ...] = ()) -> Played:
    """A whole game as the host plays it, and the frames each seat and a spectator get."""
    game = games.load(game_id)
    viewers: list[Viewer] = [*range(players), None]
    witnesses = {v: Witness(None if v in silent else
                            lambda n, v=v: seeded_bytes(seed * 10 + (v or 0), "contribution", n))
                 for v in viewers}
    exchange = Exchange(1, players, seeded_bytes(seed, "secret", 1))
    commit = wire(SeedCommit(1, exchange.commitment, players, 5.0))
    assert isinstance(commit, SeedCommit)
    frames: Frames = {v: [commit] for v in viewers}
    for v in range(players):
        answer = witnesses[v].on_commit(commit, v)
        if v in silent:  # its answer never came
            assert answer is None
            continue
        assert isinstance(answer, Contribution)
        assert exchange.offer(v, answer.game, answer.value) is None
    fair = exchange.close(lambda s: seeded_bytes(seed, "drawn", 1, s))
    session = Session(game, players, mode, options, fair.seed)
    session.fair = fair
    told = Contributions(1, fair.commitment, fair.hex_values(), list(fair.drawn))
    for v in viewers:
        frames[v] += [wire(told), wire(session.snapshot(v))]
    bot_rngs = {s: random.Random(seed * 100 + s) for s in range(players)}
    laptops = Laptops(game, random.Random(seed))  # an S-tier note stays on its laptop
    while session.result is None:
        move = laptops.due(session.state)  # an answer a laptop owes (a count, a reveal)
        for seat in sorted(session.actors()):
            if move is not None:
                break
            action = game.bot(laptops.shown(session.state, seat), seat, bot_rngs[seat])
            if action is not None:
                move = (seat, laptops.send(session.state, seat, action))
        if move is None:
            timer = session.timer()
            assert timer is not None, "nobody can act and no timer runs"
            move = (SYSTEM, dict(timer.action))
        session.submit(*move)
        for v, d in session.deltas(viewers).items():
            frames[v].append(wire(d))
        assert session.state_id < 5000
    over = GameOver(session.state_id, session.result.to_wire(), "finished")
    parts = audit.messages(fair, game.id, session.mode, session.options,
                           [(e.seat, e.action) for e in session.log])
    for v in viewers:
        frames[v] += [wire(over), *map(wire, parts)]
    return Played(session, frames, witnesses, seed)


def verdict_of(played: Played, viewer: Viewer,
               alter: Callable[[Message], Message] = lambda m: m) -> Verdict:
    """Feed ``viewer``'s frames (each through ``alter``) to its witness as the peer does."""
    witness = played.witnesses[viewer]
    view: dict[str, Any] | None = None
    found: Verdict | None = None
    for original in played.frames[viewer]:
        msg = alter(original)
        if isinstance(msg, SeedCommit):
            if viewer is None or witness.seen is None:
                witness.on_commit(msg, viewer)
        elif isinstance(msg, Contributions):
            witness.on_contributions(msg)
        elif isinstance(msg, Snapshot):
            view = msg.view
            witness.on_view(msg.state_id, view, viewer)
        elif isinstance(msg, Delta):
            assert view is not None
            view = delta.apply(view, msg.ops)
            witness.on_view(msg.state_id, view, viewer, msg.ops)
        elif isinstance(msg, GameOver):
            witness.on_game_over(msg)
        elif isinstance(msg, Audit):
            found = witness.on_audit(msg) or found
    assert found is not None, "no verdict"
    return found


@pytest.fixture(scope="module")
def honest() -> Played:
    return play()


def fresh(played: Played) -> Played:
    """The same game with new witnesses (they keep state between feeds)."""
    seed = played.seed
    witnesses = {v: Witness(lambda n, v=v: seeded_bytes(seed * 10 + (v or 0),
                                                         "contribution", n))
                 for v in played.frames}
    for v, w in witnesses.items():
        if v is not None:
            commit = played.frames[v][0]
            assert isinstance(commit, SeedCommit)
            w.on_commit(commit, v)
    return Played(played.session, played.frames, witnesses, seed)


def in_audit(change: Callable[[Audit], Audit]) -> Callable[[Message], Message]:
    return lambda m: change(m) if isinstance(m, Audit) else m


# --- honest games ---------------------------------------------------------------------


CASES = [("alles-klar", 3, None), ("ranking", 3, None), ("ranking-top", 3, None),
         ("ranagedon", 2, None), ("s-tier", 3, "cooperative"), ("s-tier", 4, "competitive"),
         ("s-tier", 4, "team")]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("game", "players", "mode"), CASES,
                         ids=[f"{g}-{m or 'standard'}-{p}p" for g, p, m in CASES])
def test_an_honest_game_is_verified_by_every_seat_and_a_spectator(
        game: str, players: int, mode: str | None) -> None:
    played = fresh(play(game, players, mode))
    for viewer in played.viewers():
        verdict = verdict_of(played, viewer)
        assert verdict.ok, (viewer, verdict.reason)
        assert verdict.summary() == "verified"
        assert verdict.moves == played.session.state_id
        assert verdict.states == played.session.state_id + 1  # every view was compared
        assert not verdict.late and verdict.drawn == ()
        assert verdict.line() == ("Checked on this laptop: the shuffle came from everyone, "
                                  "every move followed the rules")


def test_a_silent_seat_is_drawn_for_and_named(honest: Played) -> None:
    played = play(silent=(1,))
    told = next(m for m in played.frames[0] if isinstance(m, Contributions))
    assert told.drawn == [1]
    for viewer in played.viewers():
        verdict = verdict_of(played, viewer)
        assert verdict.ok and verdict.drawn == (1,), verdict.reason
        assert "everyone but Ben, for whom the host drew" in verdict.line(["Ada", "Ben", "Cy"])


def test_a_late_joiner_checks_the_moves_but_cannot_vouch_for_the_shuffle(
        honest: Played) -> None:
    played = fresh(honest)
    witness = played.witnesses[None] = Witness()  # it never saw the seed_commit
    frames = [m for m in played.frames[None] if not isinstance(m, SeedCommit)]
    later = [m for m in frames if not isinstance(m, Delta) or m.state_id > 5]
    # it joined at state 5: a snapshot of that state instead of the first ones
    snap = wire(Snapshot(5, _view_at(played, None, 5)))
    order = [m for m in later if isinstance(m, Contributions)] + [snap] + \
        [m for m in later if not isinstance(m, Contributions | Snapshot)]
    played.frames[None] = order
    verdict = verdict_of(played, None)
    assert verdict.ok and verdict.late, verdict.reason
    assert verdict.states == played.session.state_id - 4
    assert "joined after the shuffle" in verdict.line()
    assert witness.seen is not None and witness.seen.commitment is not None


def _view_at(played: Played, viewer: Viewer, state_id: int) -> dict[str, Any]:
    replayed = Session(played.session.game, played.session.players, played.session.mode,
                       played.session.options, played.session.seed)
    for entry in played.session.log[:state_id]:
        replayed.submit(entry.seat, entry.action)
    return replayed.view(viewer)


# --- tampering -------------------------------------------------------------------------


def test_a_secret_that_does_not_match_its_commitment_is_caught(honest: Played) -> None:
    played = fresh(honest)
    alter = in_audit(lambda a: dataclasses.replace(a, secret="ab" * 32))
    for viewer in played.viewers():
        verdict = verdict_of(played, viewer, alter)
        assert not verdict.ok and verdict.state_id == 0
        assert "does not match the commitment it made before the deal" in verdict.reason


def test_a_contribution_changed_in_the_audit_is_caught(honest: Played) -> None:
    played = fresh(honest)

    def other(a: Audit) -> Audit:
        return dataclasses.replace(a, values=[a.values[0], "00" * 32, *a.values[2:]])

    for viewer in played.viewers():
        verdict = verdict_of(played, viewer, in_audit(other))
        assert not verdict.ok and verdict.state_id == 0
        assert "seat 2's contribution in the audit is not the one announced" in verdict.reason


def test_each_peer_sees_whether_its_own_contribution_is_in(honest: Played) -> None:
    played = fresh(honest)

    def swap(m: Message) -> Message:  # the host replaced seat 1's value everywhere
        if isinstance(m, Contributions | Audit):
            return dataclasses.replace(m, values=[m.values[0], "00" * 32, *m.values[2:]])
        return m

    verdict = verdict_of(played, 1, swap)
    assert not verdict.ok and verdict.state_id == 0
    assert "does not use this laptop's contribution" in verdict.reason
    # the others cannot tell whose bytes those were; their replay matches their views
    # until the deal differs from what they were shown
    assert not verdict_of(played, 0, swap).ok

    played = fresh(honest)

    def drawn(m: Message) -> Message:  # and the host claims seat 1 sent nothing
        if isinstance(m, Contributions | Audit):
            return dataclasses.replace(m, drawn=[1])
        return m

    verdict = verdict_of(played, 1, drawn)
    assert not verdict.ok and "drew this laptop's contribution itself" in verdict.reason


def test_an_action_changed_in_the_audit_log_is_caught_at_its_state(honest: Played) -> None:
    session = honest.session
    game = session.game
    at = next(i for i, e in enumerate(session.log) if e.seat >= 0 and i >= 4)
    state = Session(game, session.players, session.mode, session.options, session.seed)
    for entry in session.log[:at]:
        state.submit(entry.seat, entry.action)
    seat = session.log[at].seat
    played_card = session.log[at].action.get("card")
    choices = [a for a in game.legal(state.state, seat) if a.get("card") != played_card]
    assert choices, "the test needs a seat with another legal move"
    changed = choices[0]

    def swap(a: Audit) -> Audit:
        log = [list(e) for e in a.log]
        log[at] = [seat, changed]
        return dataclasses.replace(a, log=log)

    played = fresh(honest)
    for viewer in played.viewers():
        verdict = verdict_of(played, viewer, in_audit(swap))
        assert not verdict.ok and verdict.state_id == at + 1, (viewer, verdict.reason)
        assert "differs from the replay in" in verdict.reason

    def out_of_turn(a: Audit) -> Audit:
        log = [list(e) for e in a.log]
        log[at] = [(seat + 1) % session.players, log[at][1]]
        return dataclasses.replace(a, log=log)

    verdict = verdict_of(fresh(honest), 0, in_audit(out_of_turn))
    assert not verdict.ok and verdict.state_id == at + 1
    assert "when it was not that seat's turn" in verdict.reason or "not legal" in verdict.reason


def test_a_move_the_rules_refuse_and_a_timer_nobody_set_are_caught(honest: Played) -> None:
    session = honest.session
    at = next(i for i, e in enumerate(session.log) if e.seat >= 0)

    def illegal(a: Audit) -> Audit:
        log = [list(e) for e in a.log]
        log[at] = [log[at][0], {"type": "play", "card": 10_000}]
        return dataclasses.replace(a, log=log)

    verdict = verdict_of(fresh(honest), 0, in_audit(illegal))
    assert not verdict.ok and verdict.state_id == at + 1
    assert f"move {at + 1} by seat {session.log[at].seat + 1} was not legal (" in verdict.reason

    def timer(a: Audit) -> Audit:
        log = [list(e) for e in a.log]
        log.insert(at, [SYSTEM, {"type": "timeout"}])
        return dataclasses.replace(a, log=log, moves=len(log))

    verdict = verdict_of(fresh(honest), 0, in_audit(timer))
    assert not verdict.ok and verdict.state_id == at + 1
    assert "is a timer's, but no timer was running" in verdict.reason


def test_a_view_changed_after_the_fact_is_caught_where_it_was_changed(
        honest: Played) -> None:
    target = next(m for m in honest.frames[0] if isinstance(m, Delta) and m.state_id == 7)

    def altered(m: Message) -> Message:
        if m is target:
            return dataclasses.replace(m, ops=[*m.ops, [0, ["turn"], 99]])
        return m

    verdict = verdict_of(fresh(honest), 0, altered)
    assert not verdict.ok and verdict.state_id == 7
    assert "seat 1's view this laptop was sent differs from the replay in: turn" \
        in verdict.reason
    assert verdict_of(fresh(honest), 1, altered).ok  # seat 2's frames were not touched


def test_a_result_or_a_log_that_is_not_the_replays_is_caught(honest: Played) -> None:
    def result(m: Message) -> Message:
        if isinstance(m, GameOver):
            return dataclasses.replace(m, result={**m.result, "scores": [-1, -1, -1]})
        return m

    end = honest.session.state_id
    verdict = verdict_of(fresh(honest), 0, result)
    assert not verdict.ok and verdict.state_id == end
    assert "the result the host announced is not the replay's" in verdict.reason

    def short(a: Audit) -> Audit:
        return dataclasses.replace(a, log=a.log[:-1], moves=len(a.log) - 1)

    verdict = verdict_of(fresh(honest), 0, in_audit(short))
    assert not verdict.ok and verdict.state_id == end
    assert f"this laptop was shown state {end}, but the audit's log ends at {end - 1}" \
        in verdict.reason


def test_a_commitment_that_changes_during_the_game_is_caught(honest: Played) -> None:
    def changed(m: Message) -> Message:
        if isinstance(m, Contributions):
            return dataclasses.replace(m, commitment="ee" * 32)
        return m

    verdict = verdict_of(fresh(honest), 0, changed)
    assert not verdict.ok and verdict.state_id == 0
    assert "the host's commitment changed after it was made" in verdict.reason


# --- the pieces -----------------------------------------------------------------------


def test_a_view_digest_ignores_key_order_but_not_types() -> None:
    a = {"b": [1, {"y": 2, "x": (3, 4)}], "a": True}
    b = {"a": True, "b": [1, {"x": [3, 4], "y": 2}]}
    assert digest.view_digest(a) == digest.view_digest(b)
    assert digest.differences(digest.view_digest(a), b) == []
    c = {"a": True, "b": [1.0, {"x": [3, 4], "y": 2}]}
    assert digest.differences(digest.view_digest(a), c) == ["b"]
    assert digest.differences(digest.view_digest(a), {"a": True}) == ["another part"]
    assert digest.differences(digest.view_digest({"a": True}), a) == ["b"]


def test_digests_kept_delta_by_delta_are_those_of_the_whole_view() -> None:
    """``Parts`` reuses what it knew of the unchanged maps and lists (by identity) and
    of a list that only grew; every record must still be the view's digest from
    scratch, whatever the deltas did: grow a log, change inside it, shrink it,
    replace a part by another type, drop a key, or make the view not a map."""
    rng = random.Random(7)
    parts = digest.Parts()
    view: Any = {"log": [{"t": "a", "s": [0]}], "hand": [1, 2], "n": 1, "gone": {"x": 1}}
    bounded = delta.BoundedView(view)
    assert parts.reset(bounded.value) == digest.view_digest(bounded.value)
    steps: list[list[list[Any]]] = [
        [[delta.EXTEND, ["log"], [{"s": [1], "t": "b"}]]],
        [[delta.EXTEND, ["log"], [{"t": "c", "s": [2]}, {"t": "d", "s": []}]]],
        [[delta.SET, ["log", 1, "t"], "B"]],
        [[delta.TRUNCATE, ["log"], 2], [delta.SET, ["n"], 2.0]],
        [[delta.EXTEND, ["log"], [{"t": "e", "s": [3]}]], [delta.DELETE, ["gone"]]],
        [[delta.SET, ["hand"], {"a": [1, (2, 3)]}]],
        [[delta.SET, ["log"], []]],
        [[delta.EXTEND, ["log"], [{"t": str(i), "s": [i]} for i in range(20)]]],
        [[delta.SET, ["log", 3], {"s": [9], "t": "z"}], [delta.SET, ["hand", "a", 0], 5]],
    ]
    for ops in steps + [[[delta.EXTEND, ["log"], [{"t": str(rng.random()), "s": [1]}]]]
                        for _ in range(20)]:
        bounded.apply(ops)
        assert parts.update(bounded.value, ops) == digest.view_digest(bounded.value), ops
    bounded.apply([[delta.SET, [], [1, 2]]])
    assert parts.update(bounded.value, [[delta.SET, [], [1, 2]]]) \
        == digest.Parts().reset(bounded.value)


def test_a_long_audit_comes_in_parts_that_gather_into_the_whole(honest: Played) -> None:
    session = honest.session
    fair = session.fair
    assert fair is not None
    log = [(e.seat, e.action) for e in session.log]
    parts = audit.messages(fair, session.game.id, session.mode, session.options, log,
                           part_bytes=200)
    assert len(parts) > 3 and all(len(pack(to_wire(p))) < 2000 for p in parts)
    assert [p.at for p in parts] == [sum(len(q.log) for q in parts[:i])
                                     for i in range(len(parts))]
    gathered = Gathered()
    assert [gathered.add(p) for p in parts[:-1]] == [None] * (len(parts) - 1)
    whole = gathered.add(parts[-1])
    assert whole is not None and whole.log == [[s, a] for s, a in log]
    # a part out of order starts over: no whole audit from pieces that do not fit
    gathered = Gathered()
    assert gathered.add(parts[0]) is None and gathered.add(parts[2]) is None
    assert all(gathered.add(p) is None for p in parts[3:])
    one = audit.messages(fair, session.game.id, session.mode, session.options, log)
    assert len(one) == 1 and one[0].moves == len(log)


def test_a_view_that_is_not_a_map_is_a_difference_not_a_crash(honest: Played) -> None:
    end = honest.session.state_id
    target = next(m for m in honest.frames[0] if isinstance(m, Delta) and m.state_id == end)

    def listed(m: Message) -> Message:  # the last delta makes the view a list
        return dataclasses.replace(m, ops=[[0, [], [1, 2]]]) if m is target else m

    verdict = verdict_of(fresh(honest), 0, listed)
    assert not verdict.ok and verdict.state_id == end
    assert "differs from the replay in:" in verdict.reason and "another part" in verdict.reason


def test_a_check_that_breaks_gives_a_verdict_not_an_exception(
        honest: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    from lanplay.fair import witness

    def broken(*_: Any) -> Verdict:
        raise RuntimeError("a bug")

    monkeypatch.setattr(witness, "checking", broken)
    verdict = verdict_of(fresh(honest), 0)
    assert not verdict.ok and "could not check the audit" in verdict.reason


def test_an_audit_of_thousands_of_moves_comes_in_parts_a_peer_can_decode() -> None:
    """A peer refuses a frame with an array of more than 2,048 items (and more than
    10,000 maps and arrays in all): a long log is split well inside those limits."""
    from lanplay.fair.seed import Fairness
    from protocol.codec import FROM_HOST, decode_body, encode
    from protocol.messages import ProtocolError

    fair = Fairness(1, b"s" * 32, (b"v" * 32,) * 3)
    log = [(i % 3, {"type": "place", "at": [i, {"x": i}]}) for i in range(9000)]
    parts = audit.messages(fair, "alles-klar", "standard", {}, log)
    assert len(parts) > 4
    gathered = Gathered()
    whole = None
    for part in parts:
        body = encode(part)[4:]
        decoded = decode_body(body)  # within every limit a peer decodes under
        assert len(body) < FROM_HOST.frame
        assert isinstance(decoded, Audit)
        whole = gathered.add(decoded) or whole
    assert whole is not None and len(whole.log) == 9000
    with pytest.raises(ProtocolError, match="array"):  # one part would not do
        decode_body(encode(dataclasses.replace(parts[0], log=[list(e) for e in log]))[4:])


def test_an_audit_longer_than_any_game_is_refused_not_gathered(honest: Played) -> None:
    def endless(m: Message) -> Message:
        return dataclasses.replace(m, moves=10**9) if isinstance(m, Audit) else m

    verdict = verdict_of(fresh(honest), 0, endless)
    assert not verdict.ok and "claims 1000000000 moves, more than any game has" \
        in verdict.reason
