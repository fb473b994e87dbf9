"""What a peer notes of each game while it plays, and the verdict at its end.

The peer hands over every fair-play message and every view it comes to hold;
the witness keeps the commitment, the contributions, its own contribution and
a digest per state_id (not the views), and checks the audit when it is whole.
``lanplay verify`` feeds it a recorded peer's frames the same way, offline.

The digests are worked out when they are needed (the audit, anyone reading
``seen``), not on the move: a view is never changed once made (a delta copies
what it changes), so the view noted at a state hashes later to the very bytes it
would have then, and the views of one game share all they did not change. Until
then the views wait, within ``PENDING_WORK`` and ``PENDING_VIEWS``; past either
they are hashed at once, as a host sending without end would make them.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

from lanplay.fair.audit import Gathered, Seen, Verdict, checking
from lanplay.fair.digest import Parts
from protocol.messages import Audit, Contribution, Contributions, GameOver, SeedCommit

PENDING_WORK = 500_000
"""What the views awaiting their digests may hold beyond the current one, in the
elements their deltas copied or added (``BoundedView.work``): an honest game's
deltas come to at most about 80,000."""
PENDING_VIEWS = 4096
"""Views awaiting their digests (an honest game has at most about 600)."""


class Witness:
    def __init__(self, contribute: Callable[[int], bytes] | None = None) -> None:
        self.contribute = contribute
        """This laptop's 32 random bytes for game ``n`` (None: it sends none, offline)."""
        self._seen: Seen | None = None
        self.verdict: Verdict | None = None
        self.last_audit: Audit | None = None
        """The last whole audit (a replay of the finished game is built from it)."""
        self.pending: Checking | None = None
        """The whole audit's check while it runs (``take_audit``)."""
        self._parts = Parts()
        self._stale = False
        """``_parts`` missed a view: the next one is hashed whole."""
        self._pending: list[tuple[Seen, int, Mapping[str, Any], Sequence[Any] | None,
                                  int | None]] = []
        self._work = 0
        self._gathered = Gathered()

    @property
    def seen(self) -> Seen | None:
        """What this laptop noted of the game so far, every view's digest included."""
        self.flush()
        return self._seen

    @seen.setter
    def seen(self, seen: Seen | None) -> None:
        self.flush()
        self._seen = seen

    def flush(self) -> None:
        """Work out the digests of the views noted but not hashed yet, in order."""
        pending, self._pending, self._work = self._pending, [], 0
        parts = self._parts
        for seen, state_id, view, ops, seat in pending:
            if ops is None or self._stale:
                record = parts.reset(view)
                self._stale = False
            else:
                record = parts.update(view, ops)
            seen.viewer = seat
            seen.saw(state_id, record)

    def on_commit(self, msg: SeedCommit, seat: int | None) -> Contribution | None:
        """A new game's shuffle: note the commitment; the contribution to send, if seated."""
        seen = self.seen
        if seen is not None and seen.game == msg.game and self._open:
            if seen.commitment != msg.commitment:  # told twice: the first one counts
                seen.problems.append((0, "the host's commitment changed after it was made."))
            return None
        self.seen = Seen(msg.game, msg.commitment, before_deal=True, viewer=seat)
        self.verdict = self.pending = None
        if seat is None or self.contribute is None:
            return None
        value = self.contribute(msg.game)
        self.seen.sent = value
        return Contribution(msg.game, value.hex())

    def on_contributions(self, msg: Contributions) -> None:
        seen = self.seen
        if seen is None or seen.game != msg.game:
            # joined (or came back) after the commitment: it cannot vouch for the shuffle
            seen = self.seen = Seen(msg.game, msg.commitment)
            self.verdict = self.pending = None
        if seen.commitment != msg.commitment:
            seen.problems.append((0, "the host's commitment changed after it was made."))
        if seen.announced is None:
            seen.announced, seen.drawn = list(msg.values), list(msg.drawn)
        elif seen.announced != list(msg.values) or seen.drawn != list(msg.drawn):
            seen.problems.append((0, "the host announced other contributions the second "
                                     "time."))

    def on_view(self, state_id: int, view: Mapping[str, Any], seat: int | None,
                ops: Sequence[Any] | None = None, work: int | None = None) -> None:
        """The view the peer holds now, at ``state_id`` (``ops``: the delta that led here;
        ``work``: what it holds that the last view did not, ``BoundedView.work``, if
        known). It must never be changed in place: its digest is worked out later."""
        seen = self._seen
        if seen is None or not self._open:
            self._stale = True  # nothing to note: no need to hash it either
            return
        pending = self._pending
        pending.append((seen, state_id, view, ops, seat))
        self._work += (len(ops) if ops is not None else 1024) if work is None else work
        if self._work > PENDING_WORK or len(pending) > PENDING_VIEWS:
            self.flush()

    def doubt(self, state_id: int, what: str) -> None:
        """Something this laptop refused the host while playing (asked for the S-tier
        note before the round's end): the game's verdict names it, at ``state_id``."""
        seen = self.seen
        if seen is not None and self._open and len(seen.problems) < 16:
            seen.problems.append((state_id, what))

    def on_game_over(self, msg: GameOver) -> None:
        seen = self._seen  # the views may wait on: the audit comes after
        if seen is not None and self._open:
            seen.final, seen.result = msg.state_id, msg.result

    @property
    def _open(self) -> bool:
        """The game takes notes still: its audit is neither checked nor being checked."""
        return self.verdict is None and self.pending is None

    def on_lost(self) -> None:
        """The connection dropped: the parts gathered go (a resync sends the audit
        again), so a host cannot keep them growing across reconnects."""
        self._gathered.drop()

    def on_audit(self, msg: Audit) -> Verdict | None:
        """Add a part of the audit; the verdict once it is whole (else None), checked
        at once (``lanplay verify``; a peer checks in slices: ``take_audit``)."""
        job = self.take_audit(msg)
        if job is None:
            return None
        verdict = job.step()
        assert verdict is not None
        return verdict

    def take_audit(self, msg: Audit) -> Checking | None:
        """Add a part of the audit; once it is whole (or refused), its check, to run
        slice by slice (``Checking.step``). Until that is done the game stays open to
        no more notes, as if its verdict were in: the check sees what came before."""
        try:
            whole = self._gathered.add(msg)
        except ValueError as exc:
            return self._checking(self.seen, Verdict(False, str(exc), None, game=msg.game))
        if whole is None:
            return None
        self.last_audit = whole
        seen = self.seen
        if seen is None or seen.game != whole.game:
            return self._checking(seen, Verdict(
                False, "At the deal (state 0): the host never showed this laptop the "
                       "shuffle of this game.", 0, game=whole.game))
        if seen.result is None:
            return self._checking(seen, Verdict(
                False, "The host sent the audit before the game's end.", seen.final,
                game=whole.game))
        try:
            steps = checking(whole, seen)
        except Exception as exc:  # a bug of ours must not cost the connection
            return self._checking(seen, _broken(exc, whole.game))
        return self._checking(seen, steps, whole.game)

    def _checking(self, seen: Seen | None, work: Verdict | Generator[None, None, Verdict],
                  game: int = 0) -> Checking:
        job = Checking(self, seen, work, game)
        self.pending = job
        return job


class Checking:
    """One audit's check, run a slice at a time (``step``): the peer of a window gives
    the event loop a turn between slices, so the window stays alive through a long one.
    Its verdict becomes the witness's unless another check or game came meanwhile."""

    def __init__(self, witness: Witness, seen: Seen | None,
                 work: Verdict | Generator[None, None, Verdict], game: int) -> None:
        self.witness = witness
        self.seen = seen
        self.game = game
        self.verdict = work if isinstance(work, Verdict) else None
        self._steps = None if isinstance(work, Verdict) else work
        self.spent = 0.0
        """Seconds of the caller's clock spent checking so far (selfplay reports it)."""
        self.stale = False
        """Done, but another check or game came meanwhile: the verdict is not kept."""
        self._settled = False

    @property
    def current(self) -> bool:
        """This is still the witness's check of its game (none newer came)."""
        return self.witness.pending is self and self.witness.seen is self.seen

    def step(self, clock: Callable[[], float] | None = None, budget: float = 0.0
             ) -> Verdict | None:
        """Check for about ``budget`` seconds of ``clock`` (at least one move; without a
        clock, to the end); the verdict once done (kept as the witness's if
        ``current``), else None. The clock is the caller's: this module reads none."""
        if self.verdict is None and self._steps is not None:
            start = clock() if clock is not None else 0.0
            until = start + budget
            try:
                while True:
                    next(self._steps)
                    if clock is not None and clock() >= until:
                        break
            except StopIteration as done:
                self.verdict = done.value
            except Exception as exc:  # a bug of ours must not cost the connection
                self.verdict = _broken(exc, self.game)
            finally:
                if clock is not None:
                    self.spent += clock() - start
        if self.verdict is not None and not self._settled:
            self._settled = True
            if self.current:
                self.witness.verdict, self.witness.pending = self.verdict, None
            else:
                self.stale = True
        return self.verdict


def _broken(exc: Exception, game: int) -> Verdict:
    return Verdict(False, f"This laptop could not check the audit (an internal error: "
                          f"{type(exc).__name__}).", None, game=game)
