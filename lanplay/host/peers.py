"""Who is connected now, and the ways to tell them something.

A ``Conn`` is one live peer (its link, its seat or None for a spectator, its
rate limit); ``Peers`` is the set of them with the one broadcast every part
uses, so a message to everyone is encoded once however many are listening.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from lanplay.admission import RateLimit
from lanplay.game import Viewer
from lanplay.net.carrier import Carrier
from lanplay.room import Room, Seat
from protocol.codec import pack
from protocol.messages import Message, to_wire


@dataclass(eq=False)
class Conn:
    """A connected peer: its link, and its seat (None for a spectator)."""

    link: Carrier
    seat: Seat | None
    last_seen: float = field(default_factory=time.monotonic)
    limit: RateLimit = field(default_factory=RateLimit)
    name: str = ""
    colour: str = ""
    """As the hello gave them: a spectator who takes a seat sits with them."""
    client: str = "lanplay"
    """The hello's client ("lanplay", "lanplay-web"): only lanplay can referee a room."""
    address: str = ""
    """The peer's address as this host sees it (where a laptop it hands the room to is)."""


class Peers:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.conns: set[Conn] = set()

    def viewer(self, conn: Conn) -> Viewer:
        """Whose view the conn is sent: its seat's index, or None for a spectator."""
        return self.room.index(conn.seat) if conn.seat is not None else None

    def broadcast(self, msg: Message) -> None:
        body = pack(to_wire(msg))
        for conn in self.conns:
            conn.link.send_body(body)

    def watch(self, conn: Conn) -> None:
        """``conn`` watches (it has no seat): the room counts and names it."""
        self.room.spectators += 1
        self.room.watchers.append(conn.name)

    def unwatch(self, conn: Conn) -> None:
        """``conn`` watches no more (gone, or seated)."""
        self.room.spectators -= 1
        if conn.name in self.room.watchers:
            self.room.watchers.remove(conn.name)

    def tell_seats(self) -> None:
        """Seat numbers shift when a seat moves or leaves: a new Welcome tells each
        seated peer its number now, before the lobby that shows the new order."""
        room = self.room
        for conn in self.conns:
            if conn.seat is not None and any(s is conn.seat for s in room.seats):
                conn.link.send(room.welcome(conn.seat))
