"""Away seats and their stand-ins: a seat that lost its peer in a game is kept.

The game waits for the seat; after ``standin_after`` seconds a stand-in bot
plays it, choosing from that seat's own view only (the same ``game.bot`` a bot
peer runs), so a stand-in knows no more than its seat. A secret kept on the
seat's laptop (the S-tier note) a stand-in cannot know: where the game needs
it, the host does what the game's ``secrets.standin`` says (voids the round).
The person coming back takes the seat over at once.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Protocol

from lanplay import rng
from lanplay.game import SYSTEM, secrets_of
from lanplay.host.config import HostConfig
from lanplay.host.shared import Status
from lanplay.messages import Msg
from lanplay.room import Room, Seat
from lanplay.session import Session

log = logging.getLogger("lanplay.host")


class Game(Protocol):
    """What a stand-in needs of the game's flow: the session, and telling a move."""

    @property
    def session(self) -> Session | None: ...

    @property
    def paused(self) -> str | None: ...

    @property
    def moving(self) -> Msg | None: ...

    def after_action(self, then: Callable[[], None] | None = None,
                     refuse: Callable[[Msg], None] | None = None) -> None: ...


class StandIns:
    def __init__(self, room: Room, config: HostConfig, status: Status, game: Game,
                 lobby_changed: Callable[[], None], emit: Callable[[str], None]) -> None:
        self.room = room
        self.config = config
        self.status = status
        self.game = game
        self._lobby_changed = lobby_changed
        self._emit = emit
        self._away: dict[str, asyncio.TimerHandle] = {}
        self._tick: asyncio.TimerHandle | None = None
        self._rngs: dict[int, random.Random] = {}
        self._stuck = -1
        self._pace = rng.stream(config.seed or 0, "standin-pace")
        """Varies the stand-ins' waits (``rng.varied``), apart from their choices."""

    def new_game(self) -> None:
        """Fresh choosers for a new game, and no seat marked stuck."""
        self._rngs.clear()
        self._stuck = -1

    def away_from(self, seat: Seat, now: float | None = None) -> None:
        """The seat lost its last connection: the game waits for it, and after
        ``standin_after`` seconds a stand-in bot plays it."""
        if self.room.phase != "playing" or self.status.stopping:
            return
        if self.game.moving is not None:  # the new host counts its own away time
            seat.away_since = time.monotonic() if now is None else now
            return
        seat.away_since = time.monotonic() if now is None else now
        after = self.config.standin_after
        if after is None or after < 0 or seat.standin:
            return
        old = self._away.pop(seat.token, None)
        if old is not None:
            old.cancel()
        self._away[seat.token] = asyncio.get_running_loop().call_later(
            after, self._stand_in, seat)

    def left(self, seat: Seat) -> bool:
        """The seat's person left the game on purpose: a stand-in plays it at once
        (False where the room has no stand-ins: the game then waits for them)."""
        after = self.config.standin_after
        if after is None or after < 0 or self.room.phase != "playing" \
                or self.status.stopping:
            return False
        old = self._away.pop(seat.token, None)
        if old is not None:
            old.cancel()
        if not seat.standin:
            self._stand_in(seat)
        return seat.standin

    def _stand_in(self, seat: Seat) -> None:
        self._away.pop(seat.token, None)
        if (self.status.stopping or seat.connected or self.room.phase != "playing"
                or not any(s is seat for s in self.room.seats)):
            return
        seat.standin = True
        self._emit("standin")
        self._lobby_changed()
        self.soon()

    def back(self, seat: Seat) -> None:
        """The person is back: the seat is theirs again at once."""
        handle = self._away.pop(seat.token, None)
        if handle is not None:
            handle.cancel()
        seat.away_since = None
        if seat.standin:
            seat.standin = False
            self._emit("standin_over")
        self.soon()  # someone is back at the table: a stand-in that waited for that moves

    def soon(self) -> None:
        """A stand-in moves after ``bot_delay`` (varied) if one of them may move now."""
        if self._tick is None and any(s.standin for s in self.room.seats):
            self._tick = asyncio.get_running_loop().call_later(
                rng.varied(self.config.bot_delay, self._pace), self._move)

    def _move(self) -> None:
        """One move by a stand-in, chosen from that seat's own view only."""
        self._tick = None
        session = self.game.session
        if session is None or self.status.stopping or self.room.phase != "playing" \
                or session.state_id == self._stuck or self.game.paused is not None \
                or self.game.moving is not None:
            return
        actors = session.actors()
        for index, seat in enumerate(self.room.seats):
            if not seat.standin or index not in actors:
                continue
            chooser = self._rngs.setdefault(
                index, rng.stream(session.seed, "standin", index))
            try:
                view = session.view(index)
                secrets = secrets_of(session.game)
                void = secrets.standin(view, index) if secrets is not None else None
                if void is not None:  # it would need a secret kept on the seat's laptop
                    if not any(s.connected for s in self.room.seats):
                        continue  # nobody at the table: wait, do not void round after round
                    session.submit(SYSTEM, void)
                    self.game.after_action()
                    return
                action = session.game.bot(view, index, chooser)
                if action is None:
                    continue
                session.submit(index, action, session.state_id)
            except Exception as exc:  # a bot or rules bug: the seat waits for its person
                log.warning("the stand-in for seat %d cannot move: %s", index,
                            getattr(exc, "reason", exc))
                self._stuck = session.state_id
                return
            self.game.after_action()
            return

    def cancel(self) -> None:
        """No more stand-in timers (the host stops, or the game ended)."""
        for handle in self._away.values():
            handle.cancel()
        self._away.clear()
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def game_over(self) -> None:
        """The game ended: no timers, and no seat is away or stood in for any more."""
        self.cancel()
        for seat in self.room.seats:
            seat.away_since, seat.standin = None, False
