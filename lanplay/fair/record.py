"""A recorded peer checked offline: the frames it received, replayed as it lived them.

The record is what ``selfplay --record`` and ``join --record`` write: every
frame body the peer received, in order. ``verify`` rebuilds the peer's view
from its snapshots and deltas exactly as the peer did, feeds the same
``Witness`` the peer ran, and returns a verdict for each game whose audit the
record holds. Anything altered after the fact (a delta, an action of the audit's
log, the secret, a contribution) makes the replay and the record part ways, and
the verdict names the first state_id where they do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lanplay.fair.audit import Verdict, replay
from lanplay.fair.witness import Witness
from protocol import delta
from protocol.codec import decode_body
from protocol.messages import (
    Audit,
    Contributions,
    Delta,
    GameOver,
    ProtocolError,
    SeedCommit,
    Snapshot,
    UnknownType,
    Welcome,
)


def verify(bodies: Iterable[bytes]) -> list[Verdict]:
    """One verdict per game audited in the record, in order; a damaged record ends
    with a failed verdict saying where."""
    witness = Witness()
    seat: int | None = None
    view: dict[str, Any] | None = None
    at = -1
    views: dict[int, dict[str, Any]] = {}
    verdicts: list[Verdict] = []
    for number, body in enumerate(bodies, start=1):
        try:
            msg = decode_body(body)
        except UnknownType:  # a later version's message: the peer skipped it too
            continue
        except ProtocolError as exc:
            verdicts.append(Verdict(False, f"Frame {number} of the record is damaged "
                                           f"({exc.reason}).", max(at, 0)))
            return verdicts
        if isinstance(msg, Welcome):
            seat = msg.seat
        elif isinstance(msg, SeedCommit):
            view, at, views = None, -1, {}
            witness.on_commit(msg, seat)
        elif isinstance(msg, Contributions):
            witness.on_contributions(msg)
        elif isinstance(msg, Snapshot):
            view, at = msg.view, msg.state_id
            views[at] = view
            witness.on_view(at, view, seat)
        elif isinstance(msg, Delta):
            if view is None or msg.base != at:
                view = None  # the peer saw a gap and asked for a snapshot
                continue
            try:
                view = delta.apply(view, msg.ops)
            except ProtocolError as exc:
                verdicts.append(Verdict(False, f"At state {msg.state_id}: the recorded delta "
                                               f"does not fit the view at state {at} "
                                               f"({exc.reason}).", msg.state_id))
                return verdicts
            at = msg.state_id
            views[at] = view
            witness.on_view(at, view, seat, msg.ops)
        elif isinstance(msg, GameOver):
            witness.on_game_over(msg)
        elif isinstance(msg, Audit):
            verdict = witness.on_audit(msg)
            if verdict is not None:
                if not verdict.ok and verdict.state_id in views:
                    verdict = _detailed(verdict, witness, views[verdict.state_id])
                verdicts.append(verdict)
    return verdicts


def _detailed(verdict: Verdict, witness: Witness, received: dict[str, Any]) -> Verdict:
    """Offline the record holds whole views: say where inside the view they differ."""
    seen, whole = witness.seen, witness.last_audit
    if seen is None or whole is None or "differs from the replay" not in verdict.reason:
        return verdict
    try:
        for state_id, game, state in replay(whole):
            if state_id == verdict.state_id:
                where = first_difference(received, game.view(state, seen.viewer))
                if where:
                    return Verdict(False, f"{verdict.reason} First difference: {where}.",
                                   verdict.state_id, verdict.moves, verdict.states,
                                   verdict.late, verdict.drawn, verdict.game)
                break
    except Exception:  # a replay that breaks was already judged: keep that verdict
        return verdict
    return verdict


def first_difference(received: Any, replayed: Any, path: str = "") -> str | None:
    """The first place where two views differ, as ``path: recorded X, replay Y``."""
    if isinstance(received, dict) and isinstance(replayed, dict):
        for key in sorted(set(received) | set(replayed)):
            step = f"{path}.{key}" if path else key
            if key not in received:
                return f"{step}: missing from the record"
            if key not in replayed:
                return f"{step}: in the record only"
            found = first_difference(received[key], replayed[key], step)
            if found:
                return found
        return None
    if isinstance(received, (list, tuple)) and isinstance(replayed, (list, tuple)):
        for index, (a, b) in enumerate(zip(received, replayed, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(received) != len(replayed):
            return f"{path}: {len(received)} items in the record, {len(replayed)} in the replay"
        return None
    if type(received) is type(replayed) and received == replayed:
        return None
    return f"{path or 'the view'}: {_short(received)} in the record, {_short(replayed)} in " \
           f"the replay"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
