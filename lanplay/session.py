"""One game in progress on the host, with no I/O: state, state_id, log, views.

The Session is where the host's rules of engagement live: stale actions are
refused, every accepted action bumps ``state_id`` and joins the log, and each
viewer's delta is computed from the redacted view it was last sent, so no
code path can send a hand to the wrong seat. The Host only moves bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lanplay.fair.seed import Fairness
from lanplay.game import (
    SYSTEM,
    Action,
    Game,
    IllegalAction,
    Result,
    Seat,
    Timer,
    View,
    Viewer,
    mode_of,
    resolve_options,
    seats_problem,
)
from lanplay.messages import Msg, Problem, msg, seats
from protocol import delta
from protocol.messages import Delta, Snapshot


class Refusal(IllegalAction):
    """An IllegalAction with a machine-readable ``code`` for the wire; its ``message``
    travels too (``Rejected.message``), so the offender reads it in its language."""

    def __init__(self, code: str, reason: Msg | str) -> None:
        super().__init__(reason)
        self.code = code


@dataclass(frozen=True)
class LogEntry:
    seat: Seat
    action: Action
    state_id: int


class Session:
    """The authoritative game: apply checked actions, hand out views and deltas."""

    def __init__(self, game: Game, players: int, mode: str | None = None,
                 options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        self.game = game
        self.mode = mode_of(game, mode).id
        self.options = resolve_options(game, options or {})
        problem = seats_problem(game, self.mode, players)
        if problem:
            raise Problem(problem)
        self.players = players
        self.seed = seed
        self.fair: Fairness | None = None
        """Where ``seed`` came from (the host's secret, every seat's contribution), for
        the audit at the end; None for a session no shuffle made (tests, old saves)."""
        self.state: Any = game.setup(players, self.mode, self.options, seed)
        self.state_id = 0
        self.log: list[LogEntry] = []
        self._views: dict[Viewer, tuple[int, View, delta.Marks | None]] = {}
        """Per viewer: the state_id and the view it was last sent, and the view's marks
        (``delta.marks``: its next diff compares bytes, not trees)."""

    # --- acting -------------------------------------------------------------

    @property
    def result(self) -> Result | None:
        return self.game.result(self.state)

    def actors(self) -> frozenset[Seat]:
        return self.game.actors(self.state)

    def timer(self) -> Timer | None:
        return None if self.result else self.game.timer(self.state, self.options)

    def submit(self, seat: Seat, action: Any, state_id: int | None = None) -> int:
        """Apply ``action`` by ``seat`` made against ``state_id``; return the new id.

        Raises Refusal (with a code) and leaves everything unchanged when the
        action may not be applied.
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise Refusal("malformed", msg("An action must be a map with a 'type'."))
        if self.result is not None:
            raise Refusal("over", msg("The game is over."))
        if seat != SYSTEM and seat not in self.actors():
            raise Refusal("not_your_turn", self._waiting_for())
        if (state_id is not None and state_id != self.state_id
                and not self._order_independent(seat, action)):
            raise Refusal("stale", msg("The table changed before your move arrived; "
                                       "look again and make it once more."))
        try:
            self.game.check(self.state, seat, action)
        except IllegalAction as exc:
            raise Refusal("illegal", exc.message) from exc
        self.state = self.game.apply(self.state, seat, action)
        self.state_id += 1
        self.log.append(LogEntry(seat, action, self.state_id))
        return self.state_id

    def _order_independent(self, seat: Seat, action: Action) -> bool:
        # Asked before ``check``, so the action may be any junk from the wire.
        try:
            return bool(self.game.order_independent(self.state, seat, action))
        except Exception:
            return False

    def _waiting_for(self) -> Msg:
        waiting = sorted(self.actors())
        if not waiting:
            return msg("It is not your turn.")
        return msg("It is not your turn: waiting for {waiting}.", waiting=seats(waiting))

    # --- what each viewer is told --------------------------------------------

    def view(self, viewer: Viewer) -> View:
        return self.game.view(self.state, viewer)

    def snapshot(self, viewer: Viewer) -> Snapshot:
        """The whole view; also the base the next delta for ``viewer`` builds on."""
        view = self.view(viewer)
        self._views[viewer] = (self.state_id, view, delta.marks(view))
        return Snapshot(self.state_id, view)

    def deltas(self, viewers: Iterable[Viewer]) -> dict[Viewer, Delta]:
        """One Delta per viewer, from the view it was last sent to the current one.

        Call once after each accepted action, for every viewer with a live
        connection; a viewer not listed falls behind and is sent a snapshot
        when it comes back.
        """
        out: dict[Viewer, Delta] = {}
        shared: delta.Shared = {}  # a public change is diffed once for all viewers
        parts: delta.Parts = {}  # and a part their views share is looked at once
        for viewer in viewers:
            if viewer in out:
                continue
            new = self.view(viewer)
            marks = delta.marks(new)
            base, old, old_marks = self._views.get(viewer, (-1, None, None))
            self._views[viewer] = (self.state_id, new, marks)
            ops = (delta.diff_marked(old, new, old_marks, marks, shared, parts) if old is not None
                   else [[delta.SET, [], new]])
            out[viewer] = Delta(base, self.state_id, ops)
        return out

    def forget(self, viewer: Viewer) -> None:
        """Drop the cached view of a viewer with no connection left."""
        self._views.pop(viewer, None)

    def rewind(self, state_id: int) -> None:
        """Go back to ``state_id`` by replaying the log up to it (moves after it are
        forgotten, and so is every view sent: the next one must be a snapshot)."""
        if not 0 <= state_id <= self.state_id:
            raise ValueError(f"cannot rewind from state {self.state_id} to {state_id}")
        again = Session(self.game, self.players, self.mode, self.options, self.seed)
        for entry in self.log[:state_id]:
            again.submit(entry.seat, entry.action)
        self.state, self.state_id, self.log = again.state, again.state_id, again.log
        self._views.clear()

    def replay(self) -> Session:
        """A fresh session fed this log: the audit that the log explains the state."""
        again = Session(self.game, self.players, self.mode, self.options, self.seed)
        again.fair = self.fair
        for entry in self.log:
            again.submit(entry.seat, entry.action)
        return again
