"""One finished game replayed with this laptop's rules: every state, every seat's view.

``Replay`` deals again from the seed, applies the log move by move (checking
each was legal, as the audit's check does, so a damaged file is refused
rather than shown wrong) and keeps every state. For any step (0 is the deal,
``n`` the state after move ``n``, which is the state_id the host gave it) it
gives what each seat was sent (``view``), what its table showed (``shown``:
with the secret its own laptop kept, which a reveal later in the log made
public, e.g. the S-tier leader's note), the spectator's view, the log up to
there in words, and, since after the game every hand may be shown, what each
seat's view held that the spectator's did not (``hidden``). That last is
game-neutral: the difference of two views the game already gives, so it
works for every game without code of its own.

Pure: no files, no clock, no Qt (``files`` reads the files).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lanplay import games
from lanplay.game import (
    SYSTEM,
    Game,
    IllegalAction,
    Result,
    View,
    Viewer,
    format_log,
    mode_of,
    resolve_options,
    seats_problem,
    secrets_of,
)
from lanplay.verdict import summary

OWN_KEYS = frozenset({"you", "may"})
"""View keys that say who the viewer is or what it may do now, not what it holds;
``your_*`` keys are the same kind (Ranagedon's ``your_side``)."""
VIEWS_KEPT = 256
"""Views computed and kept for stepping back and forth (a view is made on demand)."""


class ReplayError(Exception):
    """A file that cannot be replayed; ``reason`` says why, in a sentence for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Player:
    name: str
    colour: str = ""
    bot: bool = False


@dataclass(frozen=True)
class Finished:
    """All a replay needs of one finished game, and what a list says about it."""

    rules: str
    """The game's id (``lanplay.games``)."""
    mode: str
    options: Mapping[str, Any]
    seed: int
    players: tuple[Player, ...]
    log: tuple[tuple[int, dict[str, Any]], ...]
    """(seat, action) of every move in order; move ``n`` made state ``n``."""
    result: Mapping[str, Any] | None = None
    """The result as the host announced it (the replay must give the same)."""
    played: float = 0.0
    """When the game began (seconds since the epoch; 0: not known)."""
    you: int | None = None
    """The seat of the laptop that kept the file (None: it watched, or it is not known)."""
    host: str = ""
    """The host's name, as the room showed it."""
    verdict: str = ""
    """What this laptop's check of the game found at its end ("verified" or why not;
    empty for the host's own save, which needs no check)."""
    secret: str = ""
    """The host's secret (hex): the same game in a history save and in an audit."""
    kind: str = ""
    """"history" (the host's save) or "audit" (what a peer received)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """What the file adds that a replay does not need."""

    @property
    def names(self) -> list[str]:
        return [p.name or f"Seat {i + 1}" for i, p in enumerate(self.players)]


class Replay:
    """The states of a finished game and what each viewer saw of them."""

    def __init__(self, finished: Finished, where: str = "This game") -> None:
        self.finished = finished
        self.where = where
        self.names = finished.names
        self.game = self._rules()
        self.states: list[Any] = self._play()
        final = self.game.result(self.states[-1])
        if final is None:
            raise ReplayError(f"{where} is not a finished game: its {self.moves} moves stop "
                              f"before the game ends. Only a finished game can be replayed.")
        self.result: Result = final
        if finished.result is not None and not _same(final.to_wire(), finished.result):
            raise ReplayError(f"{where} is damaged: the result it records is not the one "
                              f"its moves give (the file was edited, or this lanplay's "
                              f"rules differ from the host's).")
        self.kept = self._revealed()
        """Every seat's kept secret that a move of the log revealed, by its key."""
        self._views: OrderedDict[tuple[int, Viewer, bool], View] = OrderedDict()
        self._names: OrderedDict[int, dict[str, str]] = OrderedDict()

    # --- building ----------------------------------------------------------------------

    def _rules(self) -> Game:
        f = self.finished
        try:
            game = games.load(f.rules)
        except KeyError:
            raise ReplayError(f"{self.where} is a game of {f.rules[:40]!r}, which this "
                              f"lanplay does not have.") from None
        try:
            mode = mode_of(game, f.mode).id
            resolve_options(game, f.options)
        except ValueError as exc:
            raise ReplayError(f"{self.where} has game settings this lanplay does not "
                              f"know ({exc}).") from None
        problem = seats_problem(game, mode, len(f.players))
        if problem:
            raise ReplayError(f"{self.where} is damaged: {problem}")
        return game

    def _play(self) -> list[Any]:
        f, game = self.finished, self.game
        options = resolve_options(game, f.options)
        try:
            state = game.setup(len(f.players), mode_of(game, f.mode).id, options, f.seed)
        except Exception as exc:  # a picture pack this laptop lacks, settings it cannot deal
            detail = str(exc.args[0]) if exc.args else type(exc).__name__
            raise ReplayError(f"{self.where} cannot be dealt again here ({detail[:120]}).") \
                from None
        states = [state]
        for number, (seat, action) in enumerate(f.log, start=1):
            if not (isinstance(seat, int) and not isinstance(seat, bool)
                    and isinstance(action, dict) and isinstance(action.get("type"), str)):
                raise ReplayError(f"{self.where} is damaged: move {number} is not a seat "
                                  f"and an action.")
            who = self.who(seat)
            if game.result(state) is not None:
                raise ReplayError(f"{self.where} is damaged: move {number} comes after the "
                                  f"game had ended.")
            if seat == SYSTEM:
                if game.timer(state, options) is None:
                    raise ReplayError(f"{self.where} is damaged: move {number} is the host's "
                                      f"timer's, but no timer was running then.")
            elif not 0 <= seat < len(f.players) or seat not in game.actors(state):
                raise ReplayError(f"{self.where} is damaged: move {number}, by {who}, was "
                                  f"made when it was not their turn.")
            try:
                game.check(state, seat, action)
                state = game.apply(state, seat, action)
            except IllegalAction as exc:
                raise ReplayError(f"{self.where} is damaged: move {number}, by {who}, does "
                                  f"not follow the rules ({exc.reason.rstrip('.')}).") from None
            except Exception as exc:
                raise ReplayError(f"{self.where} is damaged: move {number}, by {who}, cannot "
                                  f"be replayed ({type(exc).__name__}).") from None
            states.append(state)
        return states

    def _revealed(self) -> dict[str, dict[str, Any]]:
        secrets = secrets_of(self.game)
        if secrets is None:
            return {}
        kept: dict[str, dict[str, Any]] = {}
        for _, action in self.finished.log:
            secret = secrets.revealed(action)
            if secret is not None and isinstance(secret.get("commitment"), str):
                kept[secret["commitment"]] = secret
        return kept

    # --- what there is to see -------------------------------------------------------------

    @property
    def moves(self) -> int:
        return len(self.finished.log)

    @property
    def steps(self) -> int:
        """States from the deal to the end: ``moves + 1``."""
        return len(self.states)

    @property
    def players(self) -> int:
        return len(self.finished.players)

    def seats(self) -> list[dict[str, Any]]:
        """The seats as a table takes them (the lobby's seat maps)."""
        return [{"name": name, "colour": p.colour, "bot": p.bot, "connected": True,
                 "ready": True}
                for name, p in zip(self.names, self.finished.players, strict=True)]

    def who(self, seat: int | None) -> str:
        if seat == SYSTEM:
            return "the host's timer"
        if seat is None:
            return "a spectator"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat + 1}"

    def mover(self, step: int) -> int | None:
        """Who made the move that led to ``step`` (None at the deal; SYSTEM: a timer)."""
        return self.finished.log[step - 1][0] if step > 0 else None

    def action(self, step: int) -> dict[str, Any] | None:
        return self.finished.log[step - 1][1] if step > 0 else None

    def doing(self, step: int) -> str:
        """The move's kind in a word (its action's type: "pass"), for a move that added
        nothing to the log; "deal" at the deal."""
        action = self.action(step)
        return "deal" if action is None else label(str(action.get("type", "move")))

    def view(self, step: int, viewer: Viewer) -> View:
        """What ``viewer`` (a seat, None for a spectator) was sent at state_id ``step``."""
        return self._view(step, viewer, False)

    def shown(self, step: int, viewer: Viewer) -> View:
        """What ``viewer``'s table showed at ``step``: the view with the secret its own
        laptop kept (known now from the reveal later in the log)."""
        return self._view(step, viewer, True)

    def _view(self, step: int, viewer: Viewer, filled: bool) -> View:
        if not 0 <= step < self.steps:
            raise IndexError(f"step {step} of a game with {self.steps} states")
        key = (step, viewer, filled)
        found = self._views.get(key)
        if found is not None:
            self._views.move_to_end(key)
            return found
        view = self.game.view(self.states[step], viewer)
        secrets = secrets_of(self.game)
        if filled and secrets is not None and viewer is not None:
            kept = secrets.key(view, viewer)
            view = secrets.fill(view, viewer, self.kept.get(kept) if kept else None)
        self._views[key] = view
        if len(self._views) > VIEWS_KEPT:
            self._views.popitem(last=False)
        return view

    def log(self, step: int, viewer: Viewer = None) -> list[str]:
        """The log up to ``step`` in words, with the names, as ``viewer`` saw it."""
        return [format_log(e, self.names) for e in _entries(self.view(step, viewer))]

    def added(self, step: int, viewer: Viewer = None) -> list[str]:
        """The log lines move ``step`` added (at the deal: the deal's own lines)."""
        now = _entries(self.view(step, viewer))
        before = _entries(self.view(step - 1, viewer)) if step > 0 else []
        new = now[len(before):] if now[:len(before)] == before else now
        return [format_log(e, self.names) for e in new]

    def hidden(self, step: int, seat: int) -> dict[str, Any]:
        """What ``seat``'s table showed at ``step`` that the spectator's view did not
        (its hand, its secret tile, its placed picture, its note): each such top-level
        key of the view with the seat's value, leaving out empty ones."""
        mine, public = self.shown(step, seat), self.view(step, None)
        return {k: v for k, v in mine.items()
                if k not in OWN_KEYS and not k.startswith("your")
                and not _empty(v) and (k not in public or not _same(v, public[k]))}

    def everything(self, step: int) -> list[tuple[int, dict[str, Any]]]:
        """(seat, ``hidden``) for every seat: the whole table open."""
        return [(seat, self.hidden(step, seat)) for seat in range(self.players)]

    def describe(self, value: Any, step: int | None = None) -> str:
        """A value of a view in words: named things by their names, lists joined."""
        names = self._known_names(self.steps - 1 if step is None else step)
        return describe(value, names)

    def _known_names(self, step: int) -> dict[str, str]:
        """Ids the views name (a picture's id -> its name), to say a bare id in words."""
        found = self._names.get(step)
        if found is None:
            found = {}
            for viewer in (None, *range(self.players)):
                _collect_names(self.view(step, viewer), found)
            self._names[step] = found
            if len(self._names) > 16:
                self._names.popitem(last=False)
        return found

    def result_text(self) -> str:
        return result_text(self.result.to_wire(), self.names)


# --- words ----------------------------------------------------------------------------


def _entries(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    log = view.get("log")
    return [e for e in log if isinstance(e, Mapping)] if isinstance(log, list) else []


def _empty(value: Any) -> bool:
    return value is None or value is False or (isinstance(value, list | tuple | dict | str)
                                               and not value)


def _same(a: Any, b: Any) -> bool:
    return bool(_canonical(a) == _canonical(b))


def _canonical(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def _collect_names(value: Any, found: dict[str, str], depth: int = 0) -> None:
    if depth > 8 or len(found) > 5000:
        return
    if isinstance(value, Mapping):
        ident, name = value.get("id"), value.get("name") or value.get("title")
        if isinstance(ident, str) and isinstance(name, str) and name:
            found.setdefault(ident, name)
        for item in value.values():
            _collect_names(item, found, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            _collect_names(item, found, depth + 1)


MAX_WORDS = 400
"""Characters of one described value (a long hand is cut with an ellipsis)."""


def describe(value: Any, names: Mapping[str, str] | None = None) -> str:
    """A view's value in words: a card by its name or title (and number), a bare id by
    the name the views give it, lists joined with commas, nothing as "nothing"."""
    text = _words(value, names or {}, 0)
    return text if len(text) <= MAX_WORDS else text[:MAX_WORDS - 1] + "\u2026"


def _words(value: Any, names: Mapping[str, str], depth: int) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, int):
        return str(value)
    if depth > 4:
        return "\u2026"
    if isinstance(value, list | tuple):
        return ", ".join(_words(v, names, depth + 1) for v in value) if value else "none"
    if isinstance(value, Mapping):
        name = value.get("name") or value.get("title") or value.get("label") \
            or value.get("text")
        if isinstance(name, str) and name:
            number = value.get("number")
            return f"{name} {number}" if isinstance(number, int) else name
        if "value" in value:  # a card by its value, with what else it shows
            rest = [_roman(v) if k == "numerals" and _roman(v) else
                    f"{label(str(k))} {_words(v, names, depth + 1)}"
                    for k, v in value.items() if k not in ("id", "value") and not _empty(v)]
            head = _words(value["value"], names, depth + 1)
            return f"{head} ({'; '.join(rest)})" if rest else head
        parts = [f"{str(k).replace('_', ' ')} {_words(v, names, depth + 1)}"
                 for k, v in value.items() if k != "id"]
        return "; ".join(parts) if parts else "nothing"
    return str(value)


def _roman(value: Any) -> str:
    """Alles klar?'s numerals as the cards print them ("II, IV"), "" for anything else
    (a card once read "3 (numerals 2)")."""
    if not isinstance(value, list) or not value or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 5 for n in value):
        return ""
    return ", ".join(("I", "II", "III", "IV", "V")[n - 1] for n in value)


def label(key: str) -> str:
    """A view's key as a word: ``hand_counts`` -> "hand counts"."""
    return key.replace("_", " ")


def result_text(result: Mapping[str, Any], names: Sequence[str], scores: bool = True) -> str:
    """The result in one line, in English (``lanplay.verdict.summary``)."""
    line = summary(result, scores)
    return "" if line is None else line.english(names)


__all__ = ["Finished", "Player", "Replay", "ReplayError", "describe", "label",
           "result_text"]
