"""Peer events as Qt signals, so screens connect slots instead of polling.

The Peer calls its listeners on the event loop's thread, which under qasync
is the Qt thread: the signals are delivered directly, in order, with no
locks. The bridge also sorts the host's rejections: a refused room command
belongs next to the room's buttons, a refused move next to the table.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from PyQt6.QtCore import QObject, pyqtSignal

from lanplay.peer.peer import Peer
from protocol.messages import Chat, GameOver, Lobby, Rejected, Welcome


class PeerBridge(QObject):
    welcome = pyqtSignal(object)
    """Welcome: my seat (number) or ownership changed."""
    lobby = pyqtSignal(object)
    """Lobby: the room as it is now."""
    view = pyqtSignal(bool)
    """The view changed; True when it moved one step (animate), False for a jump."""
    move_rejected = pyqtSignal(str)
    control_rejected = pyqtSignal(str)
    chat = pyqtSignal(object)
    game_over = pyqtSignal(object)
    reconnecting = pyqtSignal()
    reconnected = pyqtSignal()
    clock = pyqtSignal(object)
    """The host's running deadline changed (payload: Clock or None)."""
    pack = pyqtSignal(str)
    """A custom pack's pictures have all arrived (payload: pack id)."""
    pack_error = pyqtSignal(str)
    """The host's pack could not be received (payload: the reason)."""
    audit = pyqtSignal(object)
    """This laptop checked the game just ended (payload: lanplay.fair.audit.Verdict)."""

    def __init__(self, peer: Peer, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.peer = peer
        self.controls: set[int] = set()
        self._shown_state = -1
        peer.listeners.append(self._on_event)

    def control(self, command: str, **args: Any) -> int:
        """Send a room command and remember it, so its rejection lands in the room."""
        ident = self.peer.control(command, **args)
        self.controls.add(ident)
        return ident

    def detach(self) -> None:
        if self._on_event in self.peer.listeners:
            self.peer.listeners.remove(self._on_event)

    def _on_event(self, event: str, payload: Any) -> None:
        if event == "welcome" and isinstance(payload, Welcome):
            self.welcome.emit(payload)
        elif event == "lobby" and isinstance(payload, Lobby):
            self.lobby.emit(payload)
        elif event == "view":
            state = self.peer.state_id
            step = self._shown_state >= 0 and state == self._shown_state + 1
            self._shown_state = state
            self.view.emit(step)
        elif event == "rejected" and isinstance(payload, Rejected):
            if payload.id in self.controls:
                self.controls.discard(payload.id)
                self.control_rejected.emit(self.peer.heard(payload.message, payload.reason))
            else:
                self.move_rejected.emit(self.peer.heard(payload.message, payload.reason))
        elif event == "chat" and isinstance(payload, Chat):
            if payload.message:  # the host's own words: in this laptop's language
                payload = dataclasses.replace(
                    payload, text=self.peer.heard(payload.message, payload.text))
            self.chat.emit(payload)
        elif event == "game_over" and isinstance(payload, GameOver):
            self.game_over.emit(payload)
        elif event == "clock":
            self.clock.emit(payload)
        elif event == "pack" and isinstance(payload, str):
            self.pack.emit(payload)
        elif event == "pack_error" and isinstance(payload, str):
            self.pack_error.emit(payload)
        elif event == "audit":
            self.audit.emit(payload)
        elif event == "reconnecting":
            self.reconnecting.emit()
        elif event == "reconnected":
            self._shown_state = -1  # the snapshot that follows jumps
            self.reconnected.emit()
