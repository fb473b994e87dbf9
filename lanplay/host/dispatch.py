"""Dispatching: what each message from an admitted peer does.

Moves go to the game (checked by the Session, told after the save), a
contribution to the shuffle to ``seeds.py`` (through the game's flow), room
commands to ``commands.py``, chat to everyone, picture requests to the shared
packs; anything a peer may not send is rejected with a reason. Saying goodbye
ends the connection and is ``connections.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from lanplay import messages
from lanplay.host.peers import Conn, Peers
from lanplay.host.words import rejected
from lanplay.room import Room
from lanplay.session import Refusal, Session
from protocol.messages import (
    Accepted,
    Ack,
    Chat,
    Contribution,
    Control,
    Intent,
    Message,
    PictureRequest,
    Ping,
    Pong,
    Rejected,
    Resync,
    Stand,
)

MAX_CHAT = 500


class Game(Protocol):
    """What dispatching needs of the game's flow."""

    @property
    def session(self) -> Session | None: ...

    @property
    def paused(self) -> str | None: ...

    @property
    def refusal(self) -> messages.Msg: ...

    @property
    def moving(self) -> messages.Msg | None: ...

    def after_action(self, then: Callable[[], None] | None = None,
                     refuse: Callable[[messages.Msg], None] | None = None) -> None: ...

    def send_snapshot(self, conn: Conn) -> None: ...

    def contribution(self, conn: Conn, msg: Contribution) -> None: ...


class Moves(Protocol):
    """What dispatching needs of the hand-over (``lanplay.host.handover``)."""

    def on_stand(self, conn: Conn, stand: Stand) -> None: ...

    def on_ack(self, conn: Conn, ack: Ack) -> None: ...


class Dispatcher:
    def __init__(self, room: Room, peers: Peers, game: Game,
                 control: Callable[[Conn, Control], None],
                 pictures: Callable[[PictureRequest], Iterable[Message]],
                 moves: Moves | None = None) -> None:
        self.room = room
        self.peers = peers
        self.game = game
        self._control = control
        self._pictures = pictures
        self.moves = moves

    def handle(self, conn: Conn, msg: Message) -> None:
        if isinstance(msg, Intent):
            self._on_intent(conn, msg)
        elif isinstance(msg, Control):
            if self.game.moving is not None and msg.command != "ready":
                conn.link.send(self._rejected(msg.id, "moving", self.game.moving))
                return
            try:
                self._control(conn, msg)
            except Refusal as exc:
                conn.link.send(self._rejected(msg.id, exc.code, exc.message))
        elif isinstance(msg, Chat):
            self._on_chat(conn, msg)
        elif isinstance(msg, Ping):
            conn.link.send(Pong(msg.nonce))
        elif isinstance(msg, Pong):
            pass
        elif isinstance(msg, Resync):
            if self.game.session is not None:
                self.game.send_snapshot(conn)
        elif isinstance(msg, Contribution):
            self.game.contribution(conn, msg)
        elif isinstance(msg, PictureRequest):
            for chunk in self._pictures(msg):
                conn.link.send(chunk)
        elif isinstance(msg, Stand) and self.moves is not None:
            self.moves.on_stand(conn, msg)
        elif isinstance(msg, Ack) and self.moves is not None:
            self.moves.on_ack(conn, msg)
        else:
            conn.link.send(self._rejected(0, "unexpected", messages.msg(
                "Your lanplay sent something only a host may send; use the same lanplay "
                "version on both laptops.")))

    def _rejected(self, ident: int, code: str, message: messages.Msg) -> Rejected:
        """A refusal, its English naming the room's seats as the laptops do."""
        return rejected(ident, code, message, [s.name for s in self.room.seats])

    def _on_intent(self, conn: Conn, msg: Intent) -> None:
        session = self.game.session
        if session is None or self.room.phase == "lobby":
            conn.link.send(self._rejected(msg.id, "no_game",
                                          messages.msg("The game has not started yet.")))
            return
        if conn.seat is None:
            conn.link.send(self._rejected(msg.id, "spectator",
                                          messages.msg("Spectators cannot make moves.")))
            return
        if self.game.paused is not None:  # the host cannot save: no move may be made
            conn.link.send(self._rejected(msg.id, "disk_full", self.game.refusal))
            return
        if self.game.moving is not None:  # the room is being handed to another laptop
            conn.link.send(self._rejected(msg.id, "moving", self.game.moving))
            return
        try:
            session.submit(self.room.index(conn.seat), msg.action, msg.state_id)
        except Refusal as exc:
            conn.link.send(self._rejected(msg.id, exc.code, exc.message))
            return
        conn.limit.refund()
        accepted = Accepted(msg.id, session.state_id)
        self.game.after_action(lambda: conn.link.send(accepted), lambda why: conn.link.send(
            self._rejected(msg.id, "disk_full", why)))

    def _on_chat(self, conn: Conn, msg: Chat) -> None:
        text = msg.text.strip()[:MAX_CHAT]
        if not text:
            return
        # a watcher has a name: the room says "Watching: Jonas", so the chat does too
        sender = conn.seat.name if conn.seat else (conn.name or "Spectator")
        self.peers.broadcast(Chat(text, sender, self.peers.viewer(conn)))
