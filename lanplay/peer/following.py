"""Following the room when another laptop comes to referee it (docs/PROTOCOL.md
"Hand-over and deputy").

A room keeps its id across a hand-over and raises its term; a peer follows only a
higher term, so a host the room has moved on from can never pull it back. This part
knows where the room is (``home``), who stands by (``deputy``), where to look for it
after a drop (``_targets``: the LAN's list, then home, then the deputy), says the one
line everyone is told when another laptop referees, and passes the host's offers and
room parts on to a ``lanplay.peer.successor`` only when this laptop may referee.
"""

from __future__ import annotations

import asyncio

from lanplay import messages, names
from lanplay.peer.core import CHAT_KEPT, MAX_CHAT, Moving, PeerCore, keep
from protocol.messages import Chat, Deputy, Journal, Moved, Offer, RoomPart, Stand


class Following(PeerCore):
    """Where the room is refereed, at which term, and who stands by."""

    def _refereed(self, name: str) -> None:
        """Another laptop referees the room now: the one line everyone is told."""
        said = messages.msg("{name} referees the game now: the room moved to {name}'s "
                            "laptop.", name=names.clean(name, 60) or "?")
        line = self._say(said)
        self.referee_line = line
        chat = Chat(line[:MAX_CHAT], "lanplay", None)
        keep(self.chat, chat, CHAT_KEPT)
        self._notify("chat", chat)
        self._notify("referee", line)

    def _follow(self, moved: Moved, at_least: bool = False) -> bool:
        """Take ``moved`` as where the room is now if it is this room at a higher term
        (``at_least``: or the same, a deputy sending an early comer back to the host)."""
        if not self.room and at_least and self.link is None:
            pass  # a peer new to the room: a deputy standing by says where it is
        elif not self.room or moved.room != self.room or moved.term < self.term \
                or (moved.term == self.term and not at_least):
            return False
        self.address = self.home = (moved.address, moved.port)
        return True

    def _on_room(self, msg: Moved | Deputy | Offer | RoomPart | Journal) -> None:
        """The host's word on the room itself (checked already): it moves, who stands
        by, an offer to referee it, and the parts of its copy for a successor."""
        if isinstance(msg, Moved):
            if self._follow(msg):
                self._notify("moving", msg)
                raise Moving
        elif isinstance(msg, Deputy):
            if msg.room == self.room and msg.term == self.term:
                self.deputy = msg if msg.name and msg.port else None
                self._notify("deputy", msg)
        elif isinstance(msg, Offer):
            if msg.room == self.room and msg.term == self.term:
                if self.may_referee:
                    self._notify("offer", msg)
                else:
                    self.send(Stand(msg.role, False))
        elif self.may_referee and msg.room == self.room and msg.term == self.term:
            self._notify("room_part" if isinstance(msg, RoomPart) else "journal", msg)

    async def _targets(self) -> list[tuple[str, int]]:
        """Where to look for the room, in turn."""
        found: list[tuple[str, int]] = []
        if self.finder is not None and self.room:
            try:
                rooms = await asyncio.wait_for(self.finder(self.room), 1.0)
            except Exception:  # the LAN's list is a hint; trying the known places goes on
                rooms = []
            found = [(a, p) for a, p, term in sorted(rooms, key=lambda r: -r[2])
                     if term >= self.term]
        ours = [t for t in (self.home, self._deputy_address()) if t is not None]
        return list(dict.fromkeys([*found, *ours]))

    def _deputy_address(self) -> tuple[str, int] | None:
        deputy = self.deputy
        return (deputy.address, deputy.port) if deputy is not None and deputy.port else None
