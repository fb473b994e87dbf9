"""The game's flow: start a game, tell each action, run its timers and its clock.

``Play`` holds the Session (None in the lobby) and moves it along: a start
runs the shuffle (``seeds.Shuffle``: the host's commitment, every seat's
contribution) and deals from the seed it gives, every accepted action is
followed by ``after_action`` (the save first, then the deltas, then the game
over and its audit), and the game's own deadlines fire as SYSTEM actions. What a stand-in does is
``away.py``; what is written to disk is ``saving.py``.

When a save fails (a full disk) the moves it held were never told: ``hold``
takes the game back to what the peers were told (which is what is on disk),
refuses those moves (``disk_full``), tells every window that play is paused,
and tries to save again every ``save_retry`` seconds; the first save that
succeeds lets play go on by itself (``_recovered``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from lanplay.fair import audit
from lanplay.fair.seed import Fairness
from lanplay.game import SYSTEM, Result, Timer
from lanplay.host import fanout
from lanplay.host.away import StandIns
from lanplay.host.config import HostConfig
from lanplay.host.peers import Conn, Peers
from lanplay.host.saving import Saver
from lanplay.host.seeds import SeedSource, Shuffle
from lanplay.host.shared import Status
from lanplay.messages import Msg, msg
from lanplay.room import Room
from lanplay.session import Refusal, Session
from lanplay.verdict import verdict_of
from protocol.codec import pack
from protocol.messages import Audit, Clock, Contribution, Contributions, GameOver, to_wire

log = logging.getLogger("lanplay.host")


def game_over(state_id: int, result: Result) -> GameOver:
    """The end as every client is told it: the result, and its verdict in words for a
    client that cannot read one from it (the browser page)."""
    wire = result.to_wire()
    return GameOver(state_id, wire, "finished", verdict_of(wire).to_wire())


class Play:
    def __init__(self, room: Room, config: HostConfig, status: Status, peers: Peers,
                 saver: Saver, seeds: SeedSource, lobby_changed: Callable[[], None],
                 emit: Callable[[str], None]) -> None:
        self.room = room
        self.config = config
        self.status = status
        self.peers = peers
        self.saver = saver
        self.shuffle = Shuffle(room, config, status, peers, seeds, self._deal)
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
        self.carried: tuple[str, float] | None = None
        """A handed-over room's running deadline (key, seconds left): the first timer
        here, if it is that one, runs for no longer than it had left."""
        self._audit: tuple[Session, list[Audit]] | None = None
        self.paused: str | None = None
        """Why every move is held now (a save failed), as the lobby says; None: play on."""
        self.paused_message: Msg | None = None
        """``paused`` as a message, for each laptop to say in its language."""
        self.refusal: Msg = msg("The host cannot save the game, so your move was not made.")
        """What a player whose move is held is told (with code ``disk_full``)."""
        self._retry: asyncio.TimerHandle | None = None
        self._undone_over = False
        self.moving: Msg | None = None
        """Why no move is taken now (the room is moving to another laptop); None: play."""

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
        """Begin the next game: its shuffle first (``_deal`` follows once it is made)."""
        room = self.room
        if room.phase == "playing":
            raise Refusal("started", msg("The game is already being played."))
        problem = room.problem()
        if problem:
            raise Refusal("not_ready", problem)
        self.session = None
        room.phase = "playing"
        self.finished.clear()
        for seat in room.seats:
            seat.ready = seat.bot
        self.published = -1
        self.shuffle.begin(self.games_played + 1)
        self._lobby_changed()
        self._emit("shuffling")

    def contribution(self, conn: Conn, msg: Contribution) -> None:
        self.shuffle.offer(conn, msg)

    def _deal(self, fair: Fairness) -> None:
        """The shuffle is made: deal from its seed, and tell every peer what it was
        made of (before its snapshot, so it sees its own contribution is in)."""
        room = self.room
        session = self.session = Session(room.game, len(room.seats), room.mode, room.options,
                                         fair.seed)
        session.fair = fair
        self.games_played = fair.game
        self._spent_timer = None
        self.standins.new_game()
        self.saver.new_save(session, self.games_played)
        snapshots = fanout.snapshots(session, self.peers)
        told = pack(to_wire(self.contributions(fair)))

        def publish() -> None:
            self.published = 0
            for link, snapshot in snapshots:
                link.send_body(told)
                link.send(snapshot)

        self.saver.commit(session, self.games_played, publish)
        lost = [seat for seat in room.seats if not seat.connected]
        for seat in lost:  # gone during the shuffle: the game waits for it
            self.standins.away_from(seat)
        self.schedule_timer()
        if lost:
            self._lobby_changed()
        self._emit("started")

    def forget_game(self) -> None:
        """The room chose another game between games: the finished one (saved, over)
        is no table to show a newcomer any more; the next start makes a new one."""
        if self.room.phase != "playing":
            self.session = None

    @staticmethod
    def contributions(fair: Fairness) -> Contributions:
        return Contributions(fair.game, fair.commitment, fair.hex_values(), list(fair.drawn))

    def audit(self, session: Session) -> list[Audit]:
        """The audit of the finished game (built once): what every peer replays it from."""
        if session.fair is None:
            return []  # resumed from a save made before fair play: nothing to show
        if self._audit is None or self._audit[0] is not session:
            parts = audit.messages(session.fair, session.game.id, session.mode,
                                   session.options, [(e.seat, e.action) for e in session.log])
            self._audit = (session, parts)
        return self._audit[1]

    def halt(self) -> None:
        """No more timers, and no shuffle waiting (the host stops)."""
        self.shuffle.cancel()
        self.cancel_timer()

    def freeze(self, why: Msg) -> None:
        """The room is being handed over: no move is taken (``why`` is the refusal), no
        timer runs and no stand-in moves until ``thaw`` (or for good, once it moved)."""
        self.moving = why
        self.cancel_timer()
        self.standins.cancel()

    def thaw(self) -> None:
        """The hand-over did not happen: play goes on here."""
        self.moving = None
        self._spent_timer = None
        if self.room.phase == "playing" and self.session is not None:
            for seat in self.room.seats:
                if not seat.connected:
                    self.standins.away_from(seat)
            self.schedule_timer()
            self.standins.soon()

    def resumed(self) -> None:
        """A resumed game goes on: the peers know its state, the save is rewritten
        (the port may be new, and list_saves sorts by time), its clock runs again."""
        session = self.session
        assert session is not None
        self.published = session.state_id
        self.saver.commit(session, self.games_played, lambda: None)
        self.schedule_timer()
        self._lobby_changed()

    def after_action(self, then: Callable[[], None] | None = None,
                     refuse: Callable[[Msg], None] | None = None) -> None:
        """Tell every live viewer its delta (and run ``then``) once the save that
        holds the action is on disk: no peer hears of a move a crash could undo.
        If it cannot be saved the move is undone, and ``refuse`` is told why."""
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
                self.peers.broadcast(game_over(state_id, result))
                for part in self.audit(session):
                    self.peers.broadcast(part)
                self._lobby_changed()
                self.finished.set()
                self._emit("over")
            self._emit("action")

        dropped = (lambda: refuse(self.refusal)) if refuse is not None else None
        self.saver.commit(session, self.games_played, publish, dropped)

    # --- when a save fails --------------------------------------------------------------

    def hold(self, why: str, dropped: list[Callable[[], None]]) -> None:
        """A save failed: go back to what the peers were told (that is what is on
        disk), refuse the held moves, pause, and try to save again soon."""
        session = self.session
        if session is None or self.status.dead:
            return
        told = max(self.published, 0)
        rewound = session.state_id > told
        if rewound:
            if self.room.phase == "over":  # the undone move had ended the game
                self.room.phase = "playing"
                if self.results:
                    self.results.pop()
                self._undone_over = True
            session.rewind(told)
            self._spent_timer = None
        self.saver.rewound(told)
        self.cancel_timer()
        first = self.paused is None
        self.paused_message = msg("Play is paused: the host cannot save the game ({why}). It "
                                  "goes on by itself once the host can save again.", why=why)
        self.paused = self.paused_message.english()
        self.refusal = msg("The host cannot save the game ({why}), so your move was not made. "
                           "Play goes on by itself once it can save; then make your move "
                           "again.", why=why)
        if first:
            log.info("Play is held: the game cannot be saved (%s).", why)
            self._lobby_changed()
            self._emit("paused")
        self._emit("save_failed")
        if rewound and self.published >= 0:  # the undone deltas were never sent
            for link, snapshot in fanout.snapshots(session, self.peers):
                link.send(snapshot)
        for refuse in dropped:
            refuse()
        self.cancel_retry()
        if not self.status.stopping:
            self._retry = asyncio.get_running_loop().call_later(
                self.config.save_retry, self._save_again)

    def _save_again(self) -> None:
        self._retry = None
        if self.session is None or self.status.stopping or self.paused is None:
            return
        self.saver.commit(self.session, self.games_played, self._recovered, full=True)

    def _recovered(self) -> None:
        """A save worked again: play goes on where everyone left it."""
        session = self.session
        if session is None or self.paused is None or self.status.stopping:
            return
        self.paused = self.paused_message = None
        log.info("The game is saved again; play goes on.")
        if self.published < 0:  # the game's start itself had not been saved
            self.published = session.state_id
            for link, snapshot in fanout.snapshots(session, self.peers):
                link.send(snapshot)
        self.schedule_timer()
        if self._undone_over:  # the game over cleared the away seats: mark them again
            self._undone_over = False
            for seat in self.room.seats:
                if not seat.connected:
                    self.standins.away_from(seat)
        self.standins.soon()
        self._lobby_changed()
        self._emit("unpaused")

    def cancel_retry(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None

    def send_snapshot(self, conn: Conn) -> None:
        """The conn's whole view, taken now (the next delta builds on it) but sent
        after whatever game news is still waiting for its save."""
        session = self.session
        assert session is not None
        snapshot = session.snapshot(self.peers.viewer(conn))
        result = session.result
        over = game_over(session.state_id, result) if result is not None else None
        told = self.contributions(session.fair) if session.fair is not None else None
        audited = self.audit(session) if result is not None else []

        def publish() -> None:
            if told is not None:
                conn.link.send(told)
            conn.link.send(snapshot)
            if over is not None:
                conn.link.send(over)
                for part in audited:
                    conn.link.send(part)
            elif self._timer is not None:
                conn.link.send(self.clock())

        self.saver.after_pending(publish)

    # --- the game's deadlines ---------------------------------------------------------

    def schedule_timer(self) -> None:
        if self.status.dead or self.paused is not None or self.moving is not None:
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
        seconds = float(timer.seconds)
        carried, self.carried = self.carried, None
        if carried is not None and carried[0] == timer.key:
            seconds = min(seconds, carried[1])
        loop = asyncio.get_running_loop()
        handle = loop.call_later(seconds, self._expire, timer)
        self._timer = (timer.key, handle)
        self._timer_seconds = float(timer.seconds)
        # Our own deadline: under qasync call_later gives a plain Handle, without when().
        self._timer_deadline = loop.time() + seconds
        self.peers.broadcast(self.clock())

    def _expire(self, timer: Timer) -> None:
        self._timer = None
        self.peers.broadcast(self.clock())
        if self.session is None or self.status.dead or self.paused is not None \
                or self.moving is not None:
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
