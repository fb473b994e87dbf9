"""What every part of a peer shares: its state, and how it tells whoever follows it.

``PeerCore`` holds everything a peer knows (its seat, the room and term, its view,
chat, clock, witness, counters) and the few steps every other part takes: sending,
saying a sentence in this laptop's language, telling the listeners, finishing.
The parts that act on it (``following``, ``joining``, ``fairness``, ``receiving``,
then ``peer``'s read loop) build on it one job each, so none of them reaches into
another's module for a shared field.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from lanplay import admission, messages
from lanplay.content.transfer import PictureReceiver
from lanplay.fair.seed import SECRET_BYTES, seeded_bytes
from lanplay.fair.witness import Witness
from lanplay.net.link import Link
from protocol import delta
from protocol.messages import Chat, Clock, Deputy, Lobby, Message, Rejected

Listener = Callable[[str, Any], None]
"""Called with (event, payload). Events: welcome, lobby, view, accepted,
rejected, chat, game_over, clock (payload: the Clock, or None when no deadline
runs), reconnecting, reconnected, refused, closed, pack (a custom pack's
pictures are all here; payload: pack id), pack_error (payload: the reason), audit
(this laptop's check of the game just ended; payload: the ``fair.audit.Verdict``),
deputy (who stands by; payload: the Deputy), moving (the host said where the room
goes; payload: the Moved), referee (a laptop referees the room at a higher term
than before; payload: the line that says so), and for a laptop that may referee
(``lanplay.peer.successor``): offer, room_part, journal (payload: the message)."""

Finder = Callable[[str], Awaitable[list[tuple[str, int, int]]]]
"""Rooms of an id on the LAN, as (address, port, term) (``lanplay.net.discovery``)."""

RECONNECT_FOR = 600.0
"""Seconds a peer keeps trying to get back to its seat: long enough for a host to be
restarted with --resume. Time asleep does not count (the loop's clock is monotonic)."""
MAX_CHAT = 500
"""Characters of one chat message kept (the host trims to this too)."""
CHAT_KEPT = 200
"""Chat messages kept; older ones are dropped (a window shows its own copy)."""
REJECTIONS_KEPT = 1000
MAX_REASON = 500
"""Characters kept of a host's reason: its reasons are one sentence."""


class PeerCore:
    """A peer's state and its shared steps; ``lanplay.peer.peer.Peer`` is the whole."""

    def __init__(self, name: str, colour: str = "", *, token: str | None = None,
                 spectate: bool = False, bot: bool = False,
                 recorder: Callable[[bytes], None] | None = None,
                 reconnect_for: float = RECONNECT_FOR, dead_after: float = 10.0,
                 password: str | admission.RoomKey | None = None,
                 contribution_seed: int | None = None, lang: str | None = None) -> None:
        self.name = name
        self.lang = lang
        """The language this laptop says its own reasons in (None: ``lanplay.locale``'s);
        what the host says comes as messages, rendered by whoever shows them."""
        self.password = password
        self.colour = colour
        self.token = token
        self.spectate = spectate
        self.bot = bot
        self.recorder = recorder
        self.reconnect_for = reconnect_for
        self.dead_after = dead_after
        self.address: tuple[str, int] | None = None
        self.link: Link | None = None
        self.seat: int | None = None
        self.owner = False
        self.host_name = ""
        self.game_id = ""
        self.lobby: Lobby | None = None
        self._view: delta.BoundedView | None = None
        self.state_id = -1
        self.result: dict[str, Any] | None = None
        self.chat: list[Chat] = []
        self.rejections: list[Rejected] = []
        self.clock: Clock | None = None
        """The host's running deadline (a guess or reaction window), or None."""
        self.clock_deadline = 0.0
        """When ``clock`` runs out, on this event loop's clock (``loop.time()``)."""
        self.pictures = PictureReceiver()
        """Custom packs the host shares, their pictures cached by content hash."""
        self.contribution_seed = contribution_seed
        """Makes this peer's contributions to each shuffle reproducible (tests,
        selfplay); None: random bytes, as in every real game."""
        self.witness = Witness(self._contribution)
        """What this laptop notes of each game's fairness, and its verdict at the end."""
        self.closed_reason: str | None = None
        self.paused: str | None = None
        """Why we wait to come back (the host paused the game), while we do."""
        self.listeners: list[Listener] = []
        self.room = ""
        self.term = 0
        """The room's id and term as the host's welcome said (a hand-over keeps the id
        and raises the term; a peer follows only a higher one)."""
        self.home: tuple[str, int] | None = None
        """Where the room is refereed, as far as this peer knows."""
        self.deputy: Deputy | None = None
        """Who stands by to referee if the host goes silent (None: nobody)."""
        self.referee_line: str | None = None
        """The line said when another laptop began to referee the room."""
        self.finder: Finder | None = None
        """Finds the room by its id on the LAN (a window's zeroconf list), if given."""
        self.may_referee = False
        """A ``lanplay.peer.successor`` answers offers; else this peer declines them."""
        self.heard_at = 0.0
        """When the host was last heard from (``time.monotonic``)."""
        self.frames_in = 0
        self.bytes_in = 0
        self.largest_frame = 0
        self.resyncs = 0
        self.changed = asyncio.Event()
        self._ids = itertools.count(1)
        self._closing = False
        self._awaiting_snapshot = False
        self._checking: asyncio.Task[None] | None = None
        """The last game's audit being checked, a slice per loop turn (``run`` waits)."""

    @property
    def view(self) -> dict[str, Any] | None:
        """The view as the host last described it (None before a snapshot)."""
        return None if self._view is None else self._view.value

    def send(self, msg: Message) -> None:
        if self.link is not None:
            self.link.send(msg)

    def _contribution(self, game: int) -> bytes:
        """This laptop's bytes for a game's shuffle (the witness sends them)."""
        seed = self.contribution_seed
        if seed is None:
            return secrets.token_bytes(SECRET_BYTES)
        return seeded_bytes(seed, "contribution", game)

    def _count(self, link: Link) -> None:
        """Add a finished link's counters to the peer's (``stats`` adds the live one's)."""
        self.frames_in += link.frames_in
        self.bytes_in += link.bytes_in
        self.largest_frame = max(self.largest_frame, link.largest_in)

    def _say(self, message: messages.Msg) -> str:
        return messages.render(message, (), self.lang)

    def heard(self, message: dict[str, Any] | None, reason: str) -> str:
        """What the host said, in this laptop's language (its English when it sent no
        message), cut to a sentence's length."""
        text = messages.render(message, self._seat_names(), self.lang) if message else reason
        return text[:MAX_REASON]

    def _seat_names(self) -> list[str]:
        seats = self.lobby.seats if self.lobby is not None else []
        return [str(s.get("name", "?")) if isinstance(s, dict) else "?" for s in seats]

    def _notify(self, event: str, payload: Any) -> None:
        self.changed.set()
        for listener in list(self.listeners):
            listener(event, payload)

    def _finish(self, reason: str) -> None:
        self.closed_reason = reason
        self._notify("closed", reason)


class Done(Exception):
    """The host ended the conversation cleanly."""


class Paused(Exception):
    """The host paused the game (saved, to be resumed): come back to the seat later."""


class Moving(Exception):
    """The host said the room moves to another laptop: go there now."""


class HostBroke(Exception):
    """The host sent what no reconnect would mend; ``reason`` is for the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def keep(kept: list[Any], item: Any, most: int) -> None:
    """Append, dropping the oldest beyond ``most`` (a list: callers slice it)."""
    kept.append(item)
    if len(kept) > most:
        del kept[:len(kept) - most]
