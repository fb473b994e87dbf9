"""The pure surface every game implements, and the small types it speaks in.

A game is a rules module with no I/O: the host, the bots, the tests and the
benchmarks all drive it through this one surface, so a new game plugs in
without touching the session, host or peer. See docs/GAME-SURFACE.md for how
each of the five games maps onto it.

Conventions shared by every game:

* A seat is an ``int`` (0..n-1, clockwise). A viewer is a seat or ``None``
  for a spectator (the public view).
* An action is a plain dict of msgpack-able values with a ``"type"`` key, e.g.
  ``{"type": "play", "card": 17}``. It travels over the wire unchanged.
* ``SYSTEM`` is the actor of host-scheduled actions (timer expiries); only the
  host may submit them.
* A state is the game's own immutable value (usually a frozen dataclass). It
  holds the seeded random generator state, so ``(seed, actions)`` replays a
  game exactly.
* ``view`` is the only place where hidden information is removed. Public log
  lines live in the state and are exposed through the view, so nothing that
  reaches a peer bypasses ``view``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from lanplay.messages import Content, Msg, Problem, as_msg, content, items, msg, msg_n, render

Seat = int
Viewer = int | None
Action = dict[str, Any]
View = dict[str, Any]
SYSTEM: Seat = -1


class IllegalAction(Exception):
    """An action the rules refuse; ``message`` says why (a ``lanplay.messages`` message,
    rendered on the offender's laptop in its language), ``reason`` is its English.

    The reason must never mention hidden information of another seat (a card in
    someone else's hand, the next card of the deck): it is sent to the offender.
    """

    def __init__(self, reason: Msg | str) -> None:
        self.message = as_msg(reason)
        super().__init__(self.message)

    @property
    def reason(self) -> str:
        """The English (rendered when asked: a bot's or a test's refusals are many)."""
        return self.message.english()

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class LogLine:
    """A public log entry, kept in the state and shown through ``view``: a message
    (``lanplay.messages``) each laptop renders in its language with the names it
    shows, and the seats it is about (the table marks them; the first is the actor).

    ``seats`` left empty is every seat the message names, in the order of its
    arguments."""

    message: Msg
    seats: tuple[Seat, ...] = ()

    def __post_init__(self) -> None:
        if not self.seats:
            object.__setattr__(self, "seats", self.message.seats())
        # Built once: every view of every viewer after every action holds the whole log.
        object.__setattr__(self, "_view", {**self.message.to_wire(), "seats": list(self.seats)})

    def to_view(self) -> dict[str, Any]:
        """The line as views show it: made once, then the very same map every time
        (a log is in every viewer's view after every action; views are never changed
        in place, and the host's diff skips a part whose items are the same objects)."""
        view: dict[str, Any] = self.__dict__["_view"]
        return view

    @property
    def text(self) -> str:
        """The English with ``{0}``, ``{1}`` ... for the names of ``seats``: how a line
        read before texts travelled as keys (the tests' shorthand)."""
        if not self.seats:
            return self.message.english()
        names = [f"seat {s + 1}" for s in range(max(self.seats) + 1)]
        for index, seat in reversed(list(enumerate(self.seats))):
            names[seat] = f"{{{index}}}"
        return self.message.english(names)


T = TypeVar("T")


def per_state(state: Any, name: str, make: Callable[[], T]) -> T:
    """``make()`` once per state object, kept in the state's own ``__dict__``: a frozen
    dataclass's fields, its equality, ``replace`` and the saves never see it. A state
    is never changed once made, so what follows from it stays true. The host builds a
    view of every state for every viewer; parts they share (the log) are then built
    once and are the same objects in each view, which its diff skips by identity.
    Views are never changed in place, so sharing is safe."""
    memo = getattr(state, "__dict__", None)
    if memo is None:
        return make()
    found = memo.get(name, _MISSING)
    if found is _MISSING:
        found = memo[name] = make()
    return found  # type: ignore[no-any-return]


_MISSING = object()


def log_view(state: Any) -> list[dict[str, Any]]:
    """``state.log`` (LogLines) as a view's ``log``, built once per state."""
    return per_state(state, "_log_view", lambda: [line.to_view() for line in state.log])


def format_log(entry: Mapping[str, Any], names: Sequence[str]) -> str:
    """A log entry in this laptop's language with its names (``lanplay.messages.render``;
    kept for callers of the old name)."""
    return render(entry, names)


@dataclass(frozen=True)
class Mode:
    """A way to play a game, with its own seat range (S-tier has three)."""

    id: str
    name: str
    min_players: int
    max_players: int
    description: str = ""


@dataclass(frozen=True)
class Option:
    """A host option with a default; a window renders ``choices`` as a list."""

    key: str
    label: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""
    modes: tuple[str, ...] = ()
    """The modes the option applies to (empty: every mode). The host dialog shows
    only those; elsewhere it keeps its default (G2 in docs/GAME-SURFACE.md)."""

    def parse(self, text: str) -> Any:
        """Turn a command-line string into a value of the default's type."""
        value: Any
        if isinstance(self.default, bool):
            if text.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise Problem(msg("Option {option} takes yes or no, not {value}.",
                                  option=self.key, value=repr(text)))
            value = text.lower() in ("1", "true", "yes", "on")
        elif isinstance(self.default, int):
            value = int(text)
        elif isinstance(self.default, float):
            value = float(text)
        else:
            value = text
        if self.choices and value not in self.choices:
            raise Problem(msg("Option {option} must be one of {choices}, not {value}.",
                              option=self.key, choices=items([str(c) for c in self.choices]),
                              value=repr(text)))
        return value


@dataclass(frozen=True)
class Timer:
    """A deadline the state declares; the host applies ``action`` as SYSTEM.

    ``key`` identifies the waiting period: while the key stays the same the
    host keeps the running timer, a new key restarts it. Tests apply the
    action directly instead of waiting.
    """

    key: str
    seconds: float
    action: Action


@dataclass(frozen=True)
class Result:
    """The end of a game: winning seats (ties share) and a score per seat."""

    winners: tuple[Seat, ...]
    scores: tuple[float, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_wire(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores),
                "detail": dict(self.detail)}


@runtime_checkable
class Game(Protocol):
    """One game's rules. Implementations are stateless module-level objects."""

    id: str
    name: str
    summary: str
    modes: tuple[Mode, ...]
    options: tuple[Option, ...]
    rules_help: str

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int) -> Any:
        """Deal with a generator seeded by ``seed`` whose state lives in the result."""
        ...

    def actors(self, state: Any) -> frozenset[Seat]:
        """Seats that may act now (several in simultaneous phases)."""
        ...

    def legal(self, state: Any, seat: Seat) -> list[Action]:
        """Every legal action of ``seat``; a representative sample where continuous."""
        ...

    def check(self, state: Any, seat: Seat, action: Action) -> None:
        """Raise IllegalAction with a player-readable reason, or return."""
        ...

    def apply(self, state: Any, seat: Seat, action: Action) -> Any:
        """Return the next state; the input state is never mutated."""
        ...

    def view(self, state: Any, viewer: Viewer) -> View:
        """What ``viewer`` may see, as plain msgpack-able data."""
        ...

    def result(self, state: Any) -> Result | None:
        """None while running."""
        ...

    def timer(self, state: Any, options: Mapping[str, Any]) -> Timer | None:
        """The deadline the host must schedule now, if any."""
        ...

    def order_independent(self, state: Any, seat: Seat, action: Action) -> bool:
        """True if ``action`` stays valid even when made against an older state_id.

        Called before ``check`` on whatever arrived from the wire, so it must
        cope with junk (return False rather than raise).
        """
        ...

    def hidden_variant(self, state: Any, viewer: Viewer, rng: random.Random) -> Any:
        """A state that differs only in what ``viewer`` cannot see (for tests)."""
        ...

    def bot(self, view: View, seat: Seat, rng: random.Random) -> Action | None:
        """A sensible legal action chosen from ``view`` alone, or None to wait."""
        ...


class Secrets(Protocol):
    """What a game with a secret a player keeps on their own laptop (the S-tier
    leader's note) gives that laptop: pure functions of the seat's view and the
    kept secret (a plain map). ``lanplay.peer.keeper`` runs them on a peer; the host's
    stand-in asks ``standin``. A game without such a secret has ``secrets = None``."""

    def seal(self, view: View, seat: Seat, action: Mapping[str, Any],
             salt: bytes) -> tuple[Action, dict[str, Any]] | None:
        """The action to send for ``action`` and the secret to keep, or None to send it
        as it is; IllegalAction (before anything is sent) if the rules would refuse it."""
        ...

    def key(self, view: View, seat: Seat | None) -> str | None:
        """The id (a commitment) of the secret the view says ``seat`` keeps now."""
        ...

    def answer(self, view: View, seat: Seat, secret: dict[str, Any] | None) -> Action | None:
        """What the laptop sends by itself now, from its secret (or without one)."""
        ...

    def fill(self, view: View, seat: Seat | None, secret: dict[str, Any] | None) -> View:
        """The view as the seat's own table shows it, its secret included."""
        ...

    def standin(self, view: View, seat: Seat) -> Action | None:
        """What the host submits as SYSTEM for a stood-in seat that would need its secret."""
        ...

    def revealed(self, action: Mapping[str, Any]) -> dict[str, Any] | None:
        """The secret an action of the log reveals (as ``fill`` takes it), or None: a
        replay of the finished game shows the seat's table as its laptop showed it."""
        ...


def secrets_of(game: Any) -> Secrets | None:
    """The game's ``secrets`` (None for the games whose every secret the host may hold)."""
    found: Secrets | None = getattr(game, "secrets", None)
    return found


def mode_of(game: Game, mode_id: str | None) -> Mode:
    """The named mode, or the first one; raises ValueError with the choices."""
    if mode_id is None:
        return game.modes[0]
    for mode in game.modes:
        if mode.id == mode_id:
            return mode
    raise Problem(msg("{game} has no mode {mode}; choose one of {modes}.", game=game_word(game),
                      mode=repr(mode_id)[:60], modes=items([m.id for m in game.modes])))


def resolve_options(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``; unknown keys and bad values raise ValueError."""
    known = {o.key: o for o in game.options}
    out = {o.key: o.default for o in game.options}
    for key, value in given.items():
        if key not in known:
            raise Problem(msg("{game} has no option {option} (options: {options}).",
                              game=game_word(game), option=repr(key)[:60],
                              options=items(list(known)) if known else msg("none")))
        opt = known[key]
        if isinstance(value, str) and not isinstance(opt.default, str):
            value = opt.parse(value)
        if opt.choices and value not in opt.choices:
            raise Problem(msg("Option {option} must be one of {choices}.", option=key,
                              choices=items([str(c) for c in opt.choices])))
        out[key] = value
    return out


def player_range(game: Game) -> tuple[int, int]:
    return (min(m.min_players for m in game.modes), max(m.max_players for m in game.modes))


def game_word(game: Game) -> Content:
    """A game's name as a message argument (each laptop says it in its language)."""
    return content("game", game.id, game.name)


def mode_word(game: Game, mode: Mode) -> Content:
    return content("mode", f"{game.id}:{mode.id}", mode.name)


def seats_problem(game: Game, mode_id: str | None, players: int) -> Msg | None:
    """Why ``players`` cannot start (a message; its str is the English), or None."""
    mode = mode_of(game, mode_id)
    if mode.min_players <= players <= mode.max_players:
        return None
    if len(game.modes) == 1:
        return msg_n("{game} needs {low}-{high} players; there is {n}.",
                     "{game} needs {low}-{high} players; there are {n}.", players,
                     game=game_word(game), low=mode.min_players, high=mode.max_players)
    return msg_n("{game} ({mode}) needs {low}-{high} players; there is {n}.",
                 "{game} ({mode}) needs {low}-{high} players; there are {n}.", players,
                 game=game_word(game), mode=mode_word(game, mode), low=mode.min_players,
                 high=mode.max_players)


__all__ = [
    "SYSTEM", "Action", "Game", "IllegalAction", "LogLine", "Mode", "Option", "Result", "Seat",
    "Secrets", "Timer", "View", "Viewer", "format_log", "game_word", "log_view", "mode_of",
    "mode_word", "per_state", "player_range", "resolve_options", "seats_problem", "secrets_of",
]
