"""A seat's secrets kept on its own laptop (the S-tier leader's note), never on the host.

A game with such a secret names its pure ``Secrets`` (``lanplay.game``); this
module runs them:

* ``Keeper`` sits beside one ``Peer`` (a person's window, a bot): every intent
  goes through it, so a plain note leaves as its commitment while the note
  and its salt stay here; when the host asks this seat's laptop for
  something (the count, the reveal) it answers by itself; ``shown`` is the
  view with the seat's own note in it, for its table or its bot.
  It answers only what the rules allow at that moment, whatever view the host
  shows it: the count once per note and attempt (asked again for the same
  board it says the same; for another board, nothing: that would be a guessing
  oracle), the note once the view shows the round's end, and never before a
  timer it saw start has run its length on this laptop's own clock. An ask that
  comes too soon is refused on the table and named in this laptop's audit
  verdict (``Witness.doubt``).
* ``NoteFiles`` keeps each secret in a small file of the peer's data
  directory, named by its commitment (which the view names and which is
  unique to one round of one game), written durably before the commitment
  is sent: a laptop that crashed or a window restarted can still reveal.
* ``Laptops`` is every seat's laptop at once for pure-rules play (tests,
  demos, tools), seeded so a game replays exactly.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lanplay import games
from lanplay.game import SYSTEM, Action, Game, IllegalAction, Seat, Secrets, View, secrets_of
from lanplay.messages import Msg, msg
from protocol.messages import Accepted, Rejected

if TYPE_CHECKING:
    from lanplay.peer.peer import Peer

log = logging.getLogger("lanplay.peer.keeper")

Secret = dict[str, Any]
SALT_BYTES = 16
KEEP_DAYS = 30
"""A kept note nobody asked for this long (a game never resumed) is deleted."""
FORMAT = 1
CLOCK_SLACK = 1.0
"""Seconds a host's timer may end before this laptop's clock says it should (the
view that started it reached this laptop a little after the host started it)."""
TIMERS_KEPT = 64


def _is_key(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


class NoteFiles:
    """Secrets on disk, one JSON file each, named ``<commitment>.json``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, key: str) -> Path | None:
        return self.folder / f"{key}.json" if _is_key(key) else None

    def save(self, key: str, secret: Secret) -> None:
        """Write durably (a temporary file, fsync, rename): the commitment goes out after."""
        path = self.path(key)
        if path is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(".tmp")
        body = json.dumps({"format": FORMAT, "saved": time.time(), "secret": secret},
                          indent=1).encode("utf-8")
        with open(temp, "wb") as out:
            out.write(body)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
        with contextlib.suppress(OSError):
            fd = os.open(self.folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def load(self, key: str) -> Secret | None:
        path = self.path(key)
        if path is None:
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        secret = data.get("secret") if isinstance(data, dict) else None
        if not isinstance(secret, dict) or secret.get("commitment") != key:
            return None
        return secret

    def delete(self, key: str) -> None:
        path = self.path(key)
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()

    def prune(self, days: float = KEEP_DAYS, now: float | None = None) -> None:
        """Delete the notes of games nobody came back to."""
        limit = (time.time() if now is None else now) - days * 86400
        for path in self._files():
            with contextlib.suppress(OSError):
                if path.stat().st_mtime < limit:
                    path.unlink()

    def _files(self) -> Iterator[Path]:
        with contextlib.suppress(OSError):
            yield from self.folder.glob("*.json")


class Keeper:
    """One seat's laptop: seals what it sends, answers what the host asks of its secret."""

    def __init__(self, folder: Path | None = None) -> None:
        self.files = NoteFiles(folder) if folder is not None else None
        if self.files is not None:
            self.files.prune()
        self.kept: dict[str, Secret] = {}
        self.peer: Peer | None = None
        self._ids = itertools.count(-1, -1)  # local refusals: never a peer's own ids
        self._answering: int | None = None
        """The id of the answer sent and not yet accepted or rejected."""
        self._answered_at = -1
        self._current: str | None = None
        """The key the last view named for this seat (its file goes when that changes)."""
        self._timers: dict[str, tuple[float, float]] = {}
        """A timer's key -> (when this laptop first saw it run, its seconds)."""
        self._wake: asyncio.TimerHandle | None = None

    # --- wiring ------------------------------------------------------------------------

    def attach(self, peer: Peer) -> None:
        self.peer = peer
        peer.listeners.append(self._on_event)

    def detach(self) -> None:
        if self.peer is not None and self._on_event in self.peer.listeners:
            self.peer.listeners.remove(self._on_event)
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None

    def _secrets(self) -> Secrets | None:
        peer = self.peer
        if peer is None or peer.view is None:
            return None
        game_id = peer.view.get("game")
        if not isinstance(game_id, str):
            return None
        try:
            return secrets_of(games.load(game_id))
        except (KeyError, ValueError, ImportError):
            return None

    # --- what the seat sends and sees --------------------------------------------------

    def intent(self, action: Action) -> int:
        """Send ``action`` as this laptop must: a note as its commitment (kept here first)."""
        peer = self.peer
        assert peer is not None, "attach the keeper to its peer first"
        secrets = self._secrets()
        view = self.shown()  # with the seat's own note: a team leader's "Wrong" is checked
        if secrets is not None and view is not None and peer.seat is not None:
            try:
                sealed = secrets.seal(view, peer.seat, action, os.urandom(SALT_BYTES))
            except IllegalAction as exc:
                return self._refuse(exc.message)
            if sealed is not None:
                action, secret = sealed
                self._keep(secret)
        return peer.intent(action)

    def shown(self) -> View | None:
        """The peer's view with this seat's own secret in it (what its table shows)."""
        peer = self.peer
        if peer is None or peer.view is None:
            return None
        secrets = self._secrets()
        if secrets is None:
            return peer.view
        return secrets.fill(peer.view, peer.seat, self._find(secrets.key(peer.view, peer.seat)))

    def _refuse(self, reason: Msg) -> int:
        """Refuse here what must not leave the laptop, as the host would refuse a move
        (its message too, so the table says it in the laptop's language)."""
        peer = self.peer
        assert peer is not None
        ident = next(self._ids)
        refusal = Rejected(ident, "illegal", reason.english(), reason.to_wire())
        peer.rejections.append(refusal)
        peer.changed.set()
        for listener in list(peer.listeners):
            listener("rejected", refusal)
        return ident

    # --- keeping -----------------------------------------------------------------------

    def _keep(self, secret: Secret) -> None:
        self.kept[str(secret["commitment"])] = secret
        self._save(secret)

    def _save(self, secret: Secret) -> None:
        """Write the secret (and what this laptop told of it) to its file, if it keeps one."""
        key = str(secret["commitment"])
        if self.files is not None:
            try:
                self.files.save(key, secret)
            except OSError as exc:  # the note is in memory: play on, a crash would lose it
                log.warning("Could not keep the note on disk (%s); if this window closes "
                            "before the reveal, the round will be void.", exc.strerror or exc)

    def _find(self, key: str | None) -> Secret | None:
        if key is None:
            return None
        found = self.kept.get(key)
        if found is None and self.files is not None:
            found = self.files.load(key)
            if found is not None:
                self.kept[key] = found
        return found

    def _forget(self, key: str) -> None:
        self.kept.pop(key, None)
        if self.files is not None:
            self.files.delete(key)

    # --- answering ---------------------------------------------------------------------

    def _on_event(self, event: str, payload: Any) -> None:
        if event == "accepted" and isinstance(payload, Accepted) \
                and payload.id == self._answering:
            self._answering = None
        elif event == "rejected" and isinstance(payload, Rejected) \
                and payload.id == self._answering:
            self._answering = None
            if payload.code == "rate":  # throttled: ask again in a moment
                self._answered_at = -1
                with contextlib.suppress(RuntimeError):
                    asyncio.get_running_loop().call_later(0.3, self._pump)
                return
        elif event == "reconnected":
            self._answering, self._answered_at = None, -1  # it may have been lost
        if event in ("view", "welcome", "lobby", "accepted", "rejected", "reconnected"):
            self._pump()

    def _pump(self) -> None:
        """Answer the host if it asks this seat's laptop for something now."""
        peer = self.peer
        if peer is None or peer.view is None or peer.seat is None or peer.link is None:
            return
        secrets = self._secrets()
        if secrets is None:
            return
        view, seat = peer.view, peer.seat
        key = secrets.key(view, seat)
        if key != self._current:
            if self._current is not None:
                self._forget(self._current)  # its round is over: the note is public or void
            self._current = key
        if view.get("over"):
            if key is not None:
                self._forget(key)
            return
        self._note_timer(view)
        if self._answering is not None or self._answered_at == peer.state_id:
            return
        secret = self._find(key)
        try:
            action = self.answer(secrets, view, seat, secret)
            if action is not None and secret is not None:
                action = self._once(secrets, view, secret, action)
        except IllegalAction as exc:  # asked too soon: nothing leaves, and it is said
            self._answered_at = peer.state_id
            self._asked_early(exc.message)
            return
        if action is None:
            return
        self._answered_at = peer.state_id
        self._answering = peer.intent(action)

    def _note_timer(self, view: View) -> None:
        """Remember when this laptop first saw each timer of the view run."""
        timer = view.get("timer")
        if not isinstance(timer, dict):
            return
        name, seconds = timer.get("key"), timer.get("seconds")
        if isinstance(name, str) and isinstance(seconds, int | float) \
                and not isinstance(seconds, bool) and name not in self._timers:
            if len(self._timers) >= TIMERS_KEPT:
                self._timers.pop(next(iter(self._timers)))
            self._timers[name] = (time.monotonic(), float(seconds))

    def _once(self, secrets: Secrets, view: View, secret: Secret, action: Action
              ) -> Action | None:
        """``action`` as this laptop may send it now, from what it already told of this
        note: None to wait (a timer the host says is over runs on here), IllegalAction
        for what must not leave (a second board to count, a reveal with no count)."""
        kind = action.get("type")
        if kind not in ("count", "reveal"):
            return action
        ended = getattr(secrets, "timed_out", None)
        timer = ended(view) if callable(ended) else None
        if timer in self._timers:
            started, seconds = self._timers[timer]
            left = started + seconds - CLOCK_SLACK - time.monotonic()
            if left > 0:  # the host says the time is up; this laptop's clock says not yet
                self._wake_in(left)
                return None
        told = secret.get("told")
        if kind == "count":
            board = view.get("board")
            attempt = view.get("attempt")
            if isinstance(told, dict):
                if told.get("board") == board and told.get("attempt") == attempt:
                    return {"type": "count", "correct": told.get("correct")}
                raise IllegalAction(msg("this laptop has already counted another board "
                                        "for this note"))
            secret["told"] = {"attempt": attempt, "board": board,
                              "correct": action.get("correct")}
            self._save(secret)
            return action
        effects = view.get("effects") or []
        if view.get("mode") == "cooperative" and view.get("attempt") == 1 \
                and "no-second" not in effects \
                and not (isinstance(told, dict) and told.get("correct") == 5):
            raise IllegalAction(msg("the second attempt has not been made yet"))
        if not secret.get("revealed"):
            secret["revealed"] = True  # once out, the same note again tells nothing new
            self._save(secret)
        return action

    def _wake_in(self, seconds: float) -> None:
        if self._wake is not None:
            self._wake.cancel()
        with contextlib.suppress(RuntimeError):
            self._wake = asyncio.get_running_loop().call_later(seconds, self._pump)

    def _asked_early(self, why: Msg) -> None:
        """The host asked for the note (or its count) before the rules allow: refuse
        it on the table and note it for this laptop's verdict of the game."""
        peer = self.peer
        assert peer is not None
        log.warning("The host asked about the note when the rules do not allow it (%s); "
                    "nothing was sent.",
                    why.english())
        peer.witness.doubt(peer.state_id, f"the host asked this laptop about the leader's "
                                          f"note when the rules did not allow it "
                                          f"({why.english()}); this laptop sent nothing.")
        self._refuse(msg("The host asked this laptop about your note when the rules do not "
                         "allow it ({why}); nothing was sent.", why=why))

    def answer(self, secrets: Secrets, view: View, seat: Seat,
               secret: Secret | None) -> Action | None:
        """What this laptop tells the host now (a test's dishonest laptop overrides it)."""
        return secrets.answer(view, seat, secret)


class Laptops:
    """Every seat's laptop for pure-rules play: what a Keeper does, on states directly.

    ``send`` is what seat's laptop sends for an intent (a note becomes its
    commitment); ``due`` is an answer some laptop owes the rules now (its count,
    its reveal). Salts come from ``rng``, so a seeded game is the same game twice.
    """

    def __init__(self, game: Game, rng: random.Random | None = None) -> None:
        self.game = game
        self.secrets = secrets_of(game)
        self.rng = rng if rng is not None else random.Random(0)
        self.kept: dict[str, Secret] = {}

    def _view(self, state: Any, seat: Seat) -> View:
        return self.game.view(state, seat)

    def send(self, state: Any, seat: Seat, action: Action) -> Action:
        """The action seat's laptop sends for ``action``; IllegalAction for a bad note."""
        if self.secrets is None or seat == SYSTEM:
            return action
        sealed = self.secrets.seal(self.shown(state, seat), seat, action,
                                   self.rng.randbytes(SALT_BYTES))
        if sealed is None:
            return action
        commit, secret = sealed
        self.kept[str(secret["commitment"])] = secret
        return commit

    def shown(self, state: Any, seat: Seat) -> View:
        """Seat's view with its own secret in it, as its table or bot sees it."""
        view = self._view(state, seat)
        if self.secrets is None:
            return view
        return self.secrets.fill(view, seat, self.kept.get(self.secrets.key(view, seat) or ""))

    def due(self, state: Any) -> tuple[Seat, Action] | None:
        """The first answer a laptop owes now, as (seat, action)."""
        if self.secrets is None:
            return None
        for seat in sorted(self.game.actors(state)):
            view = self._view(state, seat)
            action = self.secrets.answer(view, seat,
                                         self.kept.get(self.secrets.key(view, seat) or ""))
            if action is not None:
                return seat, action
        return None

    def apply(self, state: Any, seat: Seat, action: Action) -> Any:
        """Send ``action`` through seat's laptop, apply it, then every answer owed."""
        state = self.game.apply(state, seat, self.send(state, seat, action))
        return self.settle(state)

    def settle(self, state: Any) -> Any:
        """Apply the answers the laptops owe until none is (they never wait for a person)."""
        while self.game.result(state) is None:
            owed = self.due(state)
            if owed is None:
                break
            state = self.game.apply(state, *owed)
        return state


__all__ = ["Keeper", "Laptops", "NoteFiles"]
