"""Saving: every accepted action is on disk before any peer hears of it.

The ``Saver`` keeps the file of the game being played and hands each change
to the ``Outbox`` in two halves: the write (a journal line, or now and then
the full save, by ``durable.Writer``: a full save in a worker thread, a journal
line inline on the loop while the disk is quick) and what to publish once it
is durable. Game news that writes nothing (a snapshot for a peer who
joins) is posted behind whatever is still waiting, so the order holds.

When a write fails (a full disk), what it was for is not published: the
outbox holds it and everything after it, and ``held`` (the game's flow) is
told why, in words, with the refusals to send; the flow undoes those moves,
pauses, and asks again with ``commit(..., full=True)`` until a save succeeds.
"""

from __future__ import annotations

import errno
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from lanplay.host.config import HostConfig
from lanplay.host.shared import Status, Tokens
from lanplay.room import Room
from lanplay.session import Session
from lanplay.store import durable, folders, saves
from lanplay.store.outbox import Job, Outbox

log = logging.getLogger("lanplay.host")


SMALL_WRITE = 4096
"""Journal lines up to this many bytes may be written inline (``Outbox``: on the loop,
when the disk is quick); anything larger, and every full save, in the worker thread."""

Held = Callable[[str, list[Job]], None]
"""(why the save failed, in words; the held items' refusals to send)."""


class Mirror(Protocol):
    """The deputy's copy (``lanplay.host.deputy``): each change goes to it as it is
    saved, and what peers are told of it waits until the deputy has it."""

    def move(self, session: Session, games_played: int, publish: Job,
             lines: list[str] | None = None) -> Job: ...

    def after(self, publish: Job) -> Job: ...

    def rewound(self, state_id: int) -> None: ...


class Saver:
    def __init__(self, room: Room, config: HostConfig, status: Status, tokens: Tokens,
                 held: Held) -> None:
        self.room = room
        self.config = config
        self.status = status
        self.tokens = tokens
        self.path: Path | None = None
        """Where the game being played is saved (None before a game or when not saving)."""
        self.error: OSError | None = None
        """Why the last write failed (None when it did not)."""
        self.failed_writes = 0
        self._game_path: Path | None = None
        self._game_id = ""
        self._started = 0.0
        self._log_cache: list[str] = []
        self._writer: durable.Writer | None = None
        self._held = held
        self._outbox = Outbox(on_hold=self._on_hold)
        self.mirror: Mirror | None = None
        """The deputy's copy, while the room has a deputy (None: no one stands by)."""

    @property
    def game_id(self) -> str:
        """The id of the game being saved ("" before the first)."""
        return self._game_id

    def resumed(self, game_id: str, started: float, path: Path | None) -> None:
        """Go on writing the saved game ``game_id`` (to ``path``; None: not saving)."""
        self._game_id, self._started, self.path = game_id, started, path
        self._game_path = path

    def new_save(self, session: Session, games_played: int) -> None:
        """A new game: a new id and a new file (named from its first save)."""
        self._game_id = secrets.token_hex(6)
        self._started = time.time()
        self.path = None
        self._log_cache = []
        self._writer = None
        if self.config.save:
            self.path = (folders.saves_dir(self.config.data_dir)
                         / saves.file_name(self.save_of(session, games_played)))
        self._game_path = self.path

    def rewound(self, state_id: int) -> None:
        """The game went back to ``state_id`` (what is on disk): write it afresh, to
        the game's own file even if the undone move had finished it."""
        del self._log_cache[state_id:]
        self.path = self._game_path
        self._writer = None
        if self.mirror is not None:
            self.mirror.rewound(state_id)

    def why(self) -> str:
        """Why saving fails, in words for the players."""
        exc = self.error
        if exc is None:
            return "it could not write the save"
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return "its disk is full"
        return f"{(exc.strerror or type(exc).__name__).lower()} where it saves"

    def _on_hold(self, dropped: list[Job]) -> None:
        self._held(self.why(), dropped)

    def save_of(self, session: Session, games_played: int) -> saves.Save:
        room = self.room
        result = session.result
        return saves.Save(
            game_id=self._game_id, game=room.game.id, mode=session.mode,
            options=dict(session.options), seed=session.seed,
            seats=[saves.SavedSeat(s.name, s.colour, s.token, s.bot, s.owner, s.hosted)
                   for s in room.seats],
            log=list(session.log), state_id=session.state_id,
            phase="over" if result is not None else "playing", port=self.status.port,
            host_name=room.host_name, owner_token=self.tokens.owner,
            banned=sorted(room.banned), room_key=self.tokens.room_key,
            base_seed=self.config.seed, games_played=games_played,
            result=result.to_wire() if result is not None else None,
            fair=session.fair.to_save() if session.fair is not None else None,
            started=self._started, updated=time.time(),
            state=saves.plain(session.state), room=room.id, term=room.term,
            deputy=dict(room.deputy) if room.deputy is not None else None)

    def _saved_room(self, games_played: int) -> tuple[Any, ...]:
        """What a save holds besides the log and the state: when it changes, the
        next commit writes the full save (the journal holds actions only)."""
        room = self.room
        return (tuple((s.name, s.colour, s.token, s.bot, s.owner, s.hosted)
                      for s in room.seats),
                tuple(sorted(room.banned)), self.status.port, room.host_name,
                self.tokens.owner, self.tokens.room_key, self.config.seed, games_played,
                room.id, room.term, tuple(sorted((room.deputy or {}).items())))

    def commit(self, session: Session | None, games_played: int,
               publish: Callable[[], None], dropped: Job | None = None,
               full: bool = False) -> None:
        """Make the game as it is now durable (off the event loop), then ``publish``;
        if it cannot be saved, ``dropped`` instead (and ``held`` is told).

        The full save when the game starts, when the room's saved data changed and
        when asked (``full``); otherwise the new actions, appended to the journal
        (one fdatasync), and after those are told, at the game's end (the history)
        and every ``saves.COMPACT_EVERY`` actions, the full save in the thread."""
        path = self.path
        if path is None or session is None or self.status.dead:
            if self.mirror is not None and session is not None and not self.status.dead:
                publish = self.mirror.move(session, games_played, publish)
            self._outbox.post(publish)
            return
        writer = self._writer
        if writer is None or writer.path != path:
            writer = self._writer = durable.Writer(path)
        room = self._saved_room(games_played)
        finished = session.result is not None
        state_id = session.state_id

        def saved() -> bool:
            return writer.durable >= state_id

        small = False  # a full save goes to the worker thread; a journal line may not
        # The game's end and each compaction are full saves too, but nothing new needs
        # them to be durable: the journal line is. So that line is written (inline, on
        # a quick disk) and told first, and the full save follows in the worker thread.
        must_full = full or writer.needs_full or room != writer.room
        follow = finished or session.state_id - writer.full_at >= saves.COMPACT_EVERY
        cache = self._log_cache
        start = len(cache)
        lines: list[str] = []
        if not must_full:
            cache.extend(saves.entry_json(e) for e in session.log[start:])
            lines = cache[start:]
            if lines and finished:
                assert session.result is not None
                lines[-1] = saves.last_entry_json(session.log[-1], session.result.to_wire())
        if must_full or not lines:
            if must_full or follow:
                del cache[start:]
                save = self.save_of(session, games_played)
                writer.full(saves.encode(save, cache), save.state_id, room, finished)
                if finished:
                    self.path = None  # a finished game lives on in the history only
                follow = False
            else:  # nothing new to make durable
                if self.mirror is not None:
                    publish = self.mirror.move(session, games_played, publish, cache)
                self._outbox.post(publish, saved=saved, dropped=dropped)
                return
        else:
            writer.lines(lines, state_id)
            small = sum(len(line) for line in lines) <= SMALL_WRITE

        def write() -> None:
            try:
                writer.flush()
            except OSError as exc:
                self.error = exc
                self.failed_writes += 1
                if self.failed_writes == 1 or self.failed_writes % 60 == 0:
                    log.warning("Could not save the game to %s (%s); play is held until "
                                "it can be saved: free some disk space.", path,
                                exc.strerror or exc)
            else:
                if writer.durable >= state_id:
                    self.error = None

        if self.mirror is not None:  # the deputy gets the very lines the journal got
            publish = self.mirror.move(session, games_played, publish, cache)
        self._outbox.post(publish, write=write, key=path, saved=saved, dropped=dropped,
                          small=small)
        if follow:
            save = self.save_of(session, games_played)
            writer.full(saves.encode(save, cache), save.state_id, room, finished)
            if finished:
                self.path = None

            def follow_write() -> None:
                try:
                    writer.flush()
                except OSError as exc:  # the move is durable in its line; nothing is held
                    self.error = exc
                    log.warning("Could not write the full save %s (%s); %s", path,
                                exc.strerror or exc,
                                "the game's end is saved in its journal, and the next host "
                                "started on this laptop files it in the history" if finished
                                else "the next move writes it in full")

            self._outbox.post(_nothing, write=follow_write, key=path)


    def after_pending(self, publish: Callable[[], None]) -> None:
        """``publish`` once everything posted before it is saved and published."""
        if self.mirror is not None:
            publish = self.mirror.after(publish)
        self._outbox.post(publish)

    async def drain(self, timeout: float) -> None:
        await self._outbox.drain(timeout)

    async def close(self) -> None:
        await self._outbox.close()

    def abandon(self) -> None:
        self._outbox.abandon()

    def forget(self) -> None:
        """The room moved to another laptop: its game lives on there, so this laptop's
        unfinished save of it goes (resuming it here would fork the game)."""
        path, self.path, self._game_path = self.path, None, None
        self._writer = None
        if path is not None:
            for each in (path, durable.journal_path(path)):
                try:
                    each.unlink(missing_ok=True)
                except OSError as exc:
                    log.warning("Could not remove %s (%s).", each, exc.strerror or exc)


def _nothing() -> None:
    """What a save that follows a told move publishes: nothing (it was told)."""
