"""The game's flow: start a game, tell each action, run its timers and its clock.

``Play`` holds the Session (None in the lobby) and moves it along: a start
takes the seed from a ``SeedSource``, every accepted action is followed by
``after_action`` (the save first, then the deltas, then the game over), and
the game's own deadlines fire as SYSTEM actions. What a stand-in does is
``away.py``; what is written to disk is ``saving.py``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from lanplay.game import SYSTEM, Result, Timer
from lanplay.host import fanout
from lanplay.host.away import StandIns
from lanplay.host.config import HostConfig
from lanplay.host.peers import Conn, Peers
from lanplay.host.saving import Saver
from lanplay.host.seeds import SeedSource
from lanplay.host.shared import Status
from lanplay.room import Room
from lanplay.session import Refusal, Session
from protocol.messages import Clock, GameOver

log = logging.getLogger("lanplay.host")


class Play:
    def __init__(self, room: Room, config: HostConfig, status: Status, peers: Peers,
                 saver: Saver, seeds: SeedSource, lobby_changed: Callable[[], None],
                 emit: Callable[[str], None]) -> None:
        self.room = room
        self.config = config
        self.status = status
        self.peers = peers
        self.saver = saver
        self.seeds = seeds
        self._lobby_changed = lobby_changed
        self._emit = emit
        self.standins = StandIns(room, config, status, self, lobby_changed, emit)
        self.session: Session | None = None
        self.games_played = 0
        self.results: list[Result] = []
        self.finished = asyncio.Event()
        self.published = -1
        """The state_id peers have been told of (saved before telling)."""
        self._timer: tuple[str, asyncio.TimerHandle] | None = None
        self._timer_seconds = 0.0
        self._timer_deadline = 0.0
        self._spent_timer: str | None = None

    def state_told(self) -> int:
        """The state_id the peers know (-1 with no game), as pings carry it."""
        return self.published if self.session is not None else -1

    def start_if_due(self) -> None:
        """Autostart: once ``config.autostart`` seats are taken and nothing is missing."""
        if (self.config.autostart and self.room.phase == "lobby"
                and len(self.room.seats) == self.config.autostart
                and self.room.problem() is None):
            self.start_game()

    def start_game(self) -> None:
        room = self.room
        if room.phase == "playing":
            raise Refusal("started", "The game is already being played.")
        problem = room.problem()
        if problem:
            raise Refusal("not_ready", problem)
        seed = self.seeds.seed(self.games_played)
        session = self.session = Session(room.game, len(room.seats), room.mode, room.options,
                                         seed)
        self.games_played += 1
        self._spent_timer = None
        self.standins.new_game()
        room.phase = "playing"
        self.finished.clear()
        for seat in room.seats:
            seat.ready = seat.bot
        self.published = -1
        self.saver.new_save(session, self.games_played)
        self._lobby_changed()
        snapshots = fanout.snapshots(session, self.peers)

        def publish() -> None:
            self.published = 0
            for link, snapshot in snapshots:
                link.send(snapshot)

        self.saver.commit(session, self.games_played, publish)
        self.schedule_timer()
        self._emit("started")

    def forget_game(self) -> None:
        """The room chose another game between games: the finished one (saved, over)
        is no table to show a newcomer any more; the next start makes a new one."""
        if self.room.phase != "playing":
            self.session = None

    def resumed(self) -> None:
        """A resumed game goes on: the peers know its state, the save is rewritten
        (the port may be new, and list_saves sorts by time), its clock runs again."""
        session = self.session
        assert session is not None
        self.published = session.state_id
        self.saver.commit(session, self.games_played, lambda: None)
        self.schedule_timer()
        self._lobby_changed()

    def after_action(self, then: Callable[[], None] | None = None) -> None:
        """Tell every live viewer its delta (and run ``then``) once the save that
        holds the action is on disk: no peer hears of a move a crash could undo."""
        session = self.session
        assert session is not None
        if self.status.dead:
            return
        sends = fanout.delta_bodies(session, self.peers)
        state_id, result = session.state_id, session.result
        if result is not None:
            self.cancel_timer()
            self.standins.game_over()
            self.room.phase = "over"
            self.results.append(result)
        else:
            self.schedule_timer()
            self.standins.soon()

        def publish() -> None:
            self.published = state_id
            for link, body in sends:
                link.send_body(body)
            if then is not None:
                then()
            if result is not None:
                self.peers.broadcast(GameOver(state_id, result.to_wire(), "finished"))
                self._lobby_changed()
                self.finished.set()
                self._emit("over")
            self._emit("action")

        self.saver.commit(session, self.games_played, publish)

    def send_snapshot(self, conn: Conn) -> None:
        """The conn's whole view, taken now (the next delta builds on it) but sent
        after whatever game news is still waiting for its save."""
        session = self.session
        assert session is not None
        snapshot = session.snapshot(self.peers.viewer(conn))
        result = session.result
        over = GameOver(session.state_id, result.to_wire(), "finished") \
            if result is not None else None

        def publish() -> None:
            conn.link.send(snapshot)
            if over is not None:
                conn.link.send(over)
            elif self._timer is not None:
                conn.link.send(self.clock())

        self.saver.after_pending(publish)

    # --- the game's deadlines ---------------------------------------------------------

    def schedule_timer(self) -> None:
        if self.status.dead:
            return
        session = self.session
        timer: Timer | None = session.timer() if session is not None else None
        if timer is None:
            self.cancel_timer()
            return
        if (self._timer is not None and self._timer[0] == timer.key) \
                or timer.key == self._spent_timer:
            return
        self.cancel_timer()
        loop = asyncio.get_running_loop()
        handle = loop.call_later(timer.seconds, self._expire, timer)
        self._timer = (timer.key, handle)
        self._timer_seconds = float(timer.seconds)
        # Our own deadline: under qasync call_later gives a plain Handle, without when().
        self._timer_deadline = loop.time() + timer.seconds
        self.peers.broadcast(self.clock())

    def _expire(self, timer: Timer) -> None:
        self._timer = None
        self.peers.broadcast(self.clock())
        if self.session is None or self.status.dead:
            return
        try:
            self.session.submit(SYSTEM, timer.action)
        except Refusal as exc:
            # The game refused its own deadline: a rules bug. Do not fire the
            # same key forever; the next state change may bring a new timer.
            log.warning("timer %s refused by the game: %s", timer.key, exc.reason)
            self._spent_timer = timer.key
            return
        self.after_action()

    def cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer[1].cancel()
            self._timer = None
            self.peers.broadcast(self.clock())

    def clock(self) -> Clock:
        """The running deadline as peers see it (G1 in docs/GAME-SURFACE.md)."""
        if self._timer is None:
            return Clock("", 0.0, 0.0)
        key = self._timer[0]
        left = max(0.0, self._timer_deadline - asyncio.get_running_loop().time())
        return Clock(key, self._timer_seconds, round(left, 3))
