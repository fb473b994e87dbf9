"""Room commands: what the players and the room's owner change in the room.

Anyone seated may say they are ready; only the owner adds bots, removes and
moves seats, changes the game and starts it. Each command is checked against
the room (``lanplay.room``) and refused with a reason, never half done. The
host's own bots (``Bots``) are real peers over loopback.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from lanplay import messages, rng
from lanplay.game import game_word
from lanplay.host.config import HostConfig
from lanplay.host.packs import SharedPacks
from lanplay.host.peers import Conn, Peers
from lanplay.host.shared import Status, Tokens
from lanplay.host.words import refused
from lanplay.room import Room, Seat
from lanplay.session import Refusal
from protocol.messages import Chat, Control

OWNER_COMMANDS = ("add_bot", "remove_seat", "move_seat", "set_game", "start", "bots")
BOT_STRENGTHS = ("relaxed", "strong")


class Bots:
    """The host's own bots: each a real peer over loopback that sees only its own view."""

    def __init__(self, config: HostConfig, status: Status, tokens: Tokens,
                 spawn: Callable[[Any], object]) -> None:
        self.config = config
        self.status = status
        self.tokens = tokens
        self._spawn = spawn
        self.count = 0
        """Bots started in this room so far (their names and seeds count on)."""

    def add(self) -> None:
        self.count += 1
        token = secrets.token_urlsafe(16)
        self.tokens.bots.add(token)
        self.run(f"Bot {self.count}", token, self.count)

    def run(self, name: str, token: str, number: int) -> None:
        from lanplay.peer.bots import run_bot

        address = "127.0.0.1" if self.config.bind in ("", "0.0.0.0") else self.config.bind
        seed = rng.stream(self.config.seed or 0, "bot", number).getrandbits(32)
        # Its contributions to the shuffle are random unless the host's seed is set.
        contribution = None if self.config.seed is None else seed
        self._spawn(run_bot(address, self.status.port, name, seed=seed,
                            delay=self.config.bot_delay, token=token,
                            password=self.tokens.room_key,
                            contribution_seed=contribution, house=True))


class Commands:
    def __init__(self, room: Room, peers: Peers, packs: SharedPacks, bots: Bots,
                 start_game: Callable[[], None], detach: Callable[[Conn], None],
                 lobby_changed: Callable[[], None], spawn: Callable[[Any], object],
                 forget_game: Callable[[], None] = lambda: None) -> None:
        self.room = room
        self.peers = peers
        self.packs = packs
        self.bots = bots
        self._start_game = start_game
        self._forget_game = forget_game
        self._detach = detach
        self._lobby_changed = lobby_changed
        self._spawn = spawn

    def control(self, conn: Conn, msg: Control) -> None:
        """Carry out one room command from ``conn``; Refusal says why not."""
        room, cmd, args = self.room, msg.command, msg.args
        if cmd == "sit":
            self.sit(conn)
            return
        if cmd == "ready":
            if conn.seat is None:
                raise Refusal("spectator", messages.msg("Spectators have no seat to be ready in."))
            room.set_ready(conn.seat, bool(args.get("ready", True)))
            self._lobby_changed()
            return
        if cmd not in OWNER_COMMANDS:
            raise Refusal("unknown_command", messages.msg("Unknown room command {command}.",
                                                          command=repr(cmd[:40])))
        if conn.seat is None or not conn.seat.owner:
            raise Refusal("not_owner", messages.msg("Only the player who opened the room can "
                                                    "do that."))
        if cmd == "add_bot":
            self.add_bot()
        elif cmd == "remove_seat":
            self.remove_seat(args.get("seat"))
        elif cmd == "move_seat":
            room.move(args.get("seat"), args.get("to"))  # type: ignore[arg-type]
            self.peers.tell_seats()
            self._lobby_changed()
        elif cmd == "set_game":
            game = args.get("game", room.game.id)
            options = args.get("options", {})
            if not isinstance(game, str) or not isinstance(options, dict):
                raise Refusal("bad_game", messages.msg("set_game needs a game id and a map of "
                                                       "options."))
            mode = args.get("mode")
            unseated = room.set_game(game, mode if isinstance(mode, str) else None, options)
            self._forget_game()  # the next game is a new one (the last is saved and over)
            self.unseat(unseated)
            try:
                self.packs.share_named(room.options)
            except ValueError as exc:
                raise Refusal("bad_game", exc.message if isinstance(exc, messages.Problem)
                              else str(exc)) from None
            self._lobby_changed()
        elif cmd == "start":
            self._start_game()
        elif cmd == "bots":
            strength = args.get("strength")
            if strength not in BOT_STRENGTHS:
                raise Refusal("bad_bots", messages.msg("Bots play relaxed or strong, not "
                                                       "{strength}.",
                                                       strength=repr(str(strength)[:20])))
            room.bots = str(strength)
            self._lobby_changed()

    def add_bot(self) -> None:
        """Seat a bot: a real peer over loopback that sees only its own view."""
        if len(self.room.seats) >= self.room.max_players:
            raise Refusal("full", messages.msg("The room is full ({n} seats).",
                                               n=self.room.max_players))
        if self.room.phase == "playing":
            raise Refusal("started", messages.msg("Bots can only join before the game starts."))
        self.bots.add()

    def sit(self, conn: Conn) -> None:
        """A spectator takes a free seat between games (the ``sit`` room command)."""
        if conn.seat is not None:
            raise Refusal("seated", messages.msg("You already have a seat."))
        room = self.room
        if room.phase == "playing":
            raise Refusal("started", messages.msg("Seats free up between games: wait for this "
                                                  "one to end."))
        seat = room.add(conn.name, conn.colour)  # "full" when there is no free seat
        conn.seat = seat
        self.peers.unwatch(conn)
        conn.link.send(room.welcome(seat))
        self._lobby_changed()

    def unseat(self, seats: list[Seat]) -> None:
        """Seats the new game has no room for: a bot goes, a person watches on (and
        may take a seat again if one frees up); the others learn their new numbers."""
        gone = [c for c in self.peers.conns if any(c.seat is s for s in seats)]
        if seats:
            self.peers.tell_seats()  # the new numbers first, before any lobby shows them
        room = self.room
        for conn in gone:
            seat = conn.seat
            assert seat is not None
            if seat.bot:
                conn.link.send(refused("removed", messages.msg(
                    "The game changed and has no seat for this bot.")))
                self._detach(conn)
                self._spawn(conn.link.close())
                continue
            conn.seat = None
            self.peers.watch(conn)
            conn.link.send(room.welcome(None))
            said = messages.msg("The game changed to {game}, which has no seat for you: you "
                                "watch now, and may take a seat when one frees up.",
                                game=game_word(room.game))
            conn.link.send(Chat(said.english(), "lanplay", None, said.to_wire()))

    def remove_seat(self, index: Any) -> None:
        seat = self.room.remove(index)
        self.peers.tell_seats()
        for conn in [c for c in self.peers.conns if c.seat is seat]:
            conn.link.send(refused("removed", messages.msg("The host removed you from this "
                                                           "room.")))
            self._detach(conn)
            self._spawn(conn.link.close())  # flush the refusal, then close
        self._lobby_changed()
