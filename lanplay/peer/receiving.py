"""What the host sends, once connected: checked, then applied to what the peer holds.

Nothing is read before it passed its check (``lanplay.peer.inbound``). Deltas are
applied to the view, and a gap in ``state_id`` (or a delta that does not fit) asks
for a snapshot at once, so the peer never sits on a stale view. Chat, rejections and
the host's reasons are kept only so long and so many; the shuffle's and the audit's
messages go to the witness (``fairness``), the room's own news to ``following``. A
goodbye, a pause, a move or a host that broke the protocol ends the read as an
exception the read loop (``peer``) acts on.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

from lanplay import messages, names
from lanplay.content import in_play
from lanplay.content.transfer import TransferError
from lanplay.peer import inbound
from lanplay.peer.core import (
    CHAT_KEPT,
    MAX_CHAT,
    MAX_REASON,
    REJECTIONS_KEPT,
    Done,
    HostBroke,
    Paused,
    keep,
)
from lanplay.peer.fairness import FairPlay
from lanplay.peer.following import Following
from protocol import delta
from protocol.messages import (
    Accepted,
    Audit,
    Bye,
    Chat,
    Clock,
    Contributions,
    Delta,
    Deputy,
    GameOver,
    Journal,
    Lobby,
    Message,
    Moved,
    Offer,
    PackOffer,
    PictureChunk,
    Ping,
    Pong,
    ProtocolError,
    Refused,
    Rejected,
    Resync,
    RoomPart,
    SeedCommit,
    Snapshot,
    Welcome,
)


class Receiving(FairPlay, Following):
    """``_handle``: one message of the host's, from the read loop (tools call it too)."""

    def _handle(self, msg: Message) -> None:
        self.heard_at = time.monotonic()
        # Nothing below reads what the host sent before it passed its check.
        try:
            msg = inbound.check(msg, self.lobby, self._delta_base(msg))
        except inbound.Fault as fault:
            if not fault.fatal:  # a pack's pictures: their names are shown instead
                self._notify("pack_error", fault.why)
                return
            raise HostBroke(self._say(fault.sentence)) from None
        if isinstance(msg, Delta):
            self._on_delta(msg)
        elif isinstance(msg, Snapshot):
            try:
                self._view = delta.BoundedView(msg.view)
            except delta.ViewTooBig as exc:
                raise HostBroke(self._say(messages.msg(
                    "The host sent {what}, far more than any game needs; left the room so "
                    "this laptop stays usable.", what=exc.reason))) from None
            self.state_id = msg.state_id
            self._awaiting_snapshot = False
            self.result = None if msg.state_id == 0 else self.result
            self.witness.on_view(msg.state_id, msg.view, self.seat, None, self._view.work)
            self._notify("view", None)
        elif isinstance(msg, Lobby):
            if msg.phase == "playing" and (self.lobby is None or self.lobby.phase != "playing"):
                self.result = None
            self.lobby = msg
            self._notify("lobby", msg)
        elif isinstance(msg, Welcome):  # our seat changed (a seat moved or left, or we sat)
            self.seat, self.owner = msg.seat, msg.owner
            if msg.token:  # a spectator who took a seat: its token brings it back to it
                self.token, self.spectate = msg.token, False
            elif msg.seat is None:  # our seat is gone (the game changed): we watch now
                self.token, self.spectate = None, True
            self._notify("welcome", msg)
        elif isinstance(msg, Ping):
            self.send(Pong(msg.nonce))
            if (msg.state_id > self.state_id and self.view is not None
                    and not self._awaiting_snapshot):
                self._ask_snapshot(f"heartbeat at {msg.state_id} while at {self.state_id}")
        elif isinstance(msg, Accepted):
            self._notify("accepted", msg)
        elif isinstance(msg, Rejected):
            msg = Rejected(msg.id, msg.code[:40], msg.reason[:MAX_REASON], msg.message)
            keep(self.rejections, msg, REJECTIONS_KEPT)
            self._notify("rejected", msg)
        elif isinstance(msg, Chat):
            # An honest host sends at most MAX_CHAT characters and a clean name;
            # whatever this one sent, only that much is kept, and only so many.
            # A line from the host itself (no seat) comes as a message too: shown in
            # this laptop's language.
            said = self.heard(msg.message, msg.text) if msg.message and msg.seat is None \
                else msg.text
            msg = Chat(said[:MAX_CHAT], names.clean(msg.sender) or "?", msg.seat)
            keep(self.chat, msg, CHAT_KEPT)
            self._notify("chat", msg)
        elif isinstance(msg, GameOver):
            self.result = msg.result
            self.witness.on_game_over(msg)
            self._notify("game_over", msg)
        elif isinstance(msg, SeedCommit):
            # a new game is being shuffled: the last one's view is no table to act on
            self._view, self.state_id, self._awaiting_snapshot = None, -1, False
            reply = self.witness.on_commit(msg, self.seat)
            if reply is not None:
                self.send(reply)
        elif isinstance(msg, Contributions):
            self.witness.on_contributions(msg)
        elif isinstance(msg, Audit):
            job = self.witness.take_audit(msg)
            if job is not None:
                self._check(job)
        elif isinstance(msg, Clock):
            self.clock = msg if msg.key else None
            left = msg.remaining if math.isfinite(msg.remaining) else 0.0
            self.clock_deadline = asyncio.get_running_loop().time() + min(max(left, 0.0), 3600)
            self._notify("clock", self.clock)
        elif isinstance(msg, PackOffer | PictureChunk):
            self._on_pictures(msg)
        elif isinstance(msg, Bye):
            self.closed_reason = (self.heard(msg.message, msg.reason)
                                  or self._say(messages.msg("The host said goodbye.")))
            self._notify("bye", msg)
            if msg.resume is True:
                self.paused = self.closed_reason
                raise Paused
            raise Done
        elif isinstance(msg, Refused):
            self.closed_reason = self.heard(msg.message, msg.reason)
            self._notify("refused", msg)
            raise Done
        elif isinstance(msg, Moved | Deputy | Offer | RoomPart | Journal):
            self._on_room(msg)

    def _delta_base(self, msg: Message) -> dict[str, Any] | None:
        """The view a delta's ops are checked against: the one they apply to (None when
        they will not be applied: a snapshot is awaited or asked for)."""
        if (type(msg) is not Delta or self._view is None or self._awaiting_snapshot
                or msg.base != self.state_id):
            return None
        held: dict[str, Any] = self._view.value
        return held

    def _on_delta(self, msg: Delta) -> None:
        if self._awaiting_snapshot:
            return
        if self._view is None or msg.base != self.state_id:
            self._ask_snapshot(f"delta from {msg.base} while at {self.state_id}")
            return
        try:
            self._view.apply(msg.ops)  # within delta.VIEW_LIMITS, or not at all
        except ProtocolError as exc:
            self._ask_snapshot(f"a delta did not fit: {exc.reason}")
            return
        self.state_id = msg.state_id
        self.witness.on_view(msg.state_id, self._view.value, self.seat, msg.ops,
                             self._view.work)
        self._notify("view", None)

    def _on_pictures(self, msg: PackOffer | PictureChunk) -> None:
        """Ask for the pictures the cache lacks; a bad transfer costs the pack, not the game."""
        try:
            if isinstance(msg, PackOffer):
                progress = self.pictures.on_offer(msg)
            else:
                progress = self.pictures.on_chunk(msg)
        except TransferError as exc:
            self._notify("pack_error", exc.reason)
            return
        if progress.request is not None:
            self.send(progress.request)
        for pack_id in progress.completed:
            in_play.register(self.pictures.packs[pack_id])
            self._notify("pack", pack_id)

    def _ask_snapshot(self, reason: str) -> None:
        self.resyncs += 1
        self._awaiting_snapshot = True
        self.send(Resync(reason))
