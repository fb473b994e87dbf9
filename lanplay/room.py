"""The room before and between games: seats, readiness, the chosen game.

Pure bookkeeping with no I/O, so the rules of the room (who may do what,
what is missing before a start) are tested without sockets. The Host turns
Control messages into calls here and broadcasts ``lobby_message()``.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from lanplay import games, names
from lanplay.game import Game, mode_of, resolve_options, seats_problem
from lanplay.messages import N_, Msg, Problem, items, msg, seats
from lanplay.session import Refusal
from protocol.messages import PROTOCOL_VERSION, Lobby, Welcome

PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
           "#FFFFFF")
"""Okabe-Ito's seven, then white: colour-blind-safe (Okabe-Ito's grey fell together with
its purple and green for deuteranopes, tests/test_colour_vision.py); names and badges
always go with colours in the UI."""
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass
class Seat:
    name: str
    colour: str
    token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    bot: bool = False
    ready: bool = False
    owner: bool = False
    connected: bool = False
    hosted: bool = False
    """A bot the host runs itself (it starts it again after a resume)."""
    away_since: float | None = None
    """Host monotonic time the seat lost its last connection in a game."""
    standin: bool = False
    """A stand-in bot plays this seat until its person comes back."""

    def public(self, now: float | None = None) -> dict[str, Any]:
        """What everyone may know of a seat (never the token).

        ``away_for`` is in seconds, not a time of day: the laptops' clocks
        need not agree.
        """
        away = None
        if self.away_since is not None:
            now = time.monotonic() if now is None else now
            away = round(max(0.0, now - self.away_since), 1)
        return {"name": self.name, "colour": self.colour, "ready": self.ready,
                "bot": self.bot, "connected": self.connected, "owner": self.owner,
                "away_for": away, "standin": self.standin}


class Room:
    def __init__(self, game_id: str, mode: str | None = None,
                 options: dict[str, Any] | None = None, host_name: str = "lanplay") -> None:
        self.host_name = host_name
        self.id = secrets.token_urlsafe(9)
        """The room's id: kept by every laptop that referees it (a hand-over, a take-over)."""
        self.term = 1
        """One more at each hand-over or take-over: a peer follows only a higher term."""
        self.deputy: dict[str, Any] | None = None
        """Where the room's deputy would referee (name, address, port, web_port); None:
        it has none (``lanplay.host.handover``)."""
        self.seats: list[Seat] = []
        self.phase = "lobby"
        self.spectators = 0
        self.watchers: list[str] = []
        """The spectators' names (the host keeps them with ``spectators``)."""
        self.banned: set[str] = set()
        self.standin_after: float | None = None
        self.bots = "relaxed"
        """How the host's bots play ("relaxed" or "strong"): they read it in the lobby."""
        self.game: Game = games.load(game_id)
        self.mode = mode_of(self.game, mode).id
        self.options = resolve_options(self.game, options or {})

    # --- the game choice -------------------------------------------------------

    def set_game(self, game_id: str, mode: str | None, options: dict[str, Any]) -> list[Seat]:
        """Choose another game, mode or options, the room staying open; returns the
        seats that no longer fit the new seat range (they leave it, see ``_fit_seats``).
        Between games the room goes back to the lobby: the next game is a new one."""
        self._need_phase(N_("You cannot choose the game while the game is being played."),
                         "lobby", "over")
        try:
            game = games.load(game_id)
            mode_id = mode_of(game, mode).id
            opts = resolve_options(game, options)
        except Problem as exc:
            raise Refusal("bad_game", exc.message) from exc
        except KeyError:
            raise Refusal("bad_game", msg("There is no game {game}; the games are {games}.",
                                          game=repr(str(game_id))[:60],
                                          games=items([e.id for e in games.CATALOGUE]))
                          ) from None
        self.game, self.mode, self.options = game, mode_id, opts
        self.phase = "lobby"
        return self._fit_seats()

    def _fit_seats(self) -> list[Seat]:
        """Seats beyond the game's most: bots go first (the last seated first), then
        people from the last seat on, never the owner; everyone else stays seated."""
        over = len(self.seats) - self.max_players
        out: list[Seat] = []
        for goes in (lambda s: s.bot, lambda s: not s.owner):
            for seat in reversed(list(self.seats)):
                if over > 0 and goes(seat) and seat not in out:
                    self.seats.remove(seat)
                    out.append(seat)
                    over -= 1
        return out

    @property
    def max_players(self) -> int:
        return mode_of(self.game, self.mode).max_players

    def problem(self) -> Msg | None:
        """Why the game cannot start now (a message naming seats by their index); None
        when it can."""
        too = seats_problem(self.game, self.mode, len(self.seats))
        if too:
            return too
        waiting = [i for i, s in enumerate(self.seats) if not s.connected]
        if waiting:
            return msg("Waiting for {seats} to reconnect.", seats=seats(waiting))
        unready = [i for i, s in enumerate(self.seats) if not s.ready]
        if unready:
            return msg("Waiting for {seats} to be ready.", seats=seats(unready))
        return None

    def names(self) -> list[str]:
        """The seats' names, by index: what a message's seats are named with."""
        return [s.name for s in self.seats]

    # --- seats ---------------------------------------------------------------

    def add(self, name: str, colour: str = "", *, bot: bool = False, owner: bool = False,
            token: str | None = None) -> Seat:
        """Seat a player. The name is cleaned (``lanplay.names``: no control or format
        characters, at most 24 characters, "Player" if nothing is left) and made
        unique in the room ("Ann (2)"), so everyone sees, and every log prints,
        the same harmless text."""
        if self.phase == "playing":
            raise Refusal("started", msg("The game has already started; you can watch as a "
                                         "spectator."))
        if len(self.seats) >= self.max_players:
            raise Refusal("full", msg("The room is full ({n} seats).", n=self.max_players))
        colour = self._colour_for(colour, bot)
        seat = Seat(name=names.unique(names.name(name), (s.name for s in self.seats)),
                    colour=colour, bot=bot, ready=bot, owner=owner, connected=True)
        if token:
            seat.token = token
        self.seats.append(seat)
        return seat

    def _colour_for(self, wanted: str, bot: bool) -> str:
        """The colour a new seat asked for, if nobody has it; a person's choice also
        wins over a bot's (the bot moves to a colour nobody uses). Otherwise, and
        for no choice (or no "#RRGGBB"), the first colour nobody uses (the palette's
        last once all are)."""
        if not isinstance(wanted, str) or not _COLOUR.fullmatch(wanted):
            return self._free_colour()
        holder = next((s for s in self.seats if s.colour.upper() == wanted.upper()), None)
        if holder is not None and holder.bot and not bot:
            holder.colour = self._free_colour(but=wanted)
            holder = None
        return wanted if holder is None else self._free_colour()

    def _free_colour(self, but: str = "") -> str:
        taken = {s.colour.upper() for s in self.seats} | {but.upper()}
        return next((c for c in PALETTE if c not in taken), PALETTE[-1])

    def by_token(self, token: str) -> Seat | None:
        # bytes: compare_digest refuses str with non-ASCII characters (a hostile hello)
        wanted = token.encode()
        return next((s for s in self.seats
                     if secrets.compare_digest(s.token.encode(), wanted)), None)

    def index(self, seat: Seat) -> int:
        return self.seats.index(seat)

    def remove(self, index: int) -> Seat:
        self._need_phase(N_("You cannot remove a player while the game is being played."),
                         "lobby", "over")
        seat = self._seat_at(index)
        self.seats.remove(seat)
        self.banned.add(seat.token)
        return seat

    def leave(self, seat: Seat) -> None:
        """A player left between games: the seat goes, the token is not banned."""
        self.seats.remove(seat)

    def move(self, index: int, to: int) -> None:
        self._need_phase(N_("You cannot reorder seats while the game is being played."),
                         "lobby", "over")
        seat = self._seat_at(index)
        if not isinstance(to, int) or not 0 <= to < len(self.seats):
            raise Refusal("bad_seat", msg("There is no seat {seat} to move to.",
                                          seat=repr(to)[:40]))
        self.seats.remove(seat)
        self.seats.insert(to, seat)

    def set_ready(self, seat: Seat, ready: bool) -> None:
        self._need_phase(N_("You cannot change readiness while the game is being played."),
                         "lobby", "over")
        seat.ready = ready

    def _seat_at(self, index: Any) -> Seat:
        if not isinstance(index, int) or isinstance(index, bool) \
                or not 0 <= index < len(self.seats):
            raise Refusal("bad_seat", msg("There is no seat {seat}.", seat=repr(index)[:40]))
        return self.seats[index]

    def _need_phase(self, refusal: str, *phases: str) -> None:
        """Refuse with ``refusal`` (a key) unless the room is in one of ``phases``."""
        if self.phase not in phases:
            raise Refusal("started", msg(refusal))

    # --- what everyone is told ---------------------------------------------------

    def welcome(self, seat: Seat | None) -> Welcome:
        """The welcome for ``seat`` (None: a spectator), with the room's id and term."""
        return Welcome(PROTOCOL_VERSION, self.index(seat) if seat is not None else None,
                       seat.token if seat is not None else "", self.host_name, self.game.id,
                       owner=seat is not None and seat.owner, room=self.id, term=self.term)

    def lobby_message(self, now: float | None = None) -> Lobby:
        now = time.monotonic() if now is None else now
        problem = self.problem() if self.phase != "playing" else None
        return Lobby(host_name=self.host_name, game=self.game.id, mode=self.mode,
                     options=dict(self.options), seats=[s.public(now) for s in self.seats],
                     phase=self.phase,
                     problem=None if problem is None else problem.english(self.names()),
                     spectators=self.spectators, standin_after=self.standin_after,
                     watchers=list(self.watchers), bots=self.bots,
                     problem_message=None if problem is None else problem.to_wire(),
                     room=self.id, term=self.term)
