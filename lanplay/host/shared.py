"""The two small records some parts share, as plain data and nothing else.

``Status`` is where the host listens and whether it is going down; ``Tokens``
are the keys: to seats the host hands out before their peer arrives, and the
room key that checks the password's answers. Each part
is handed only the records it reads, so what it depends on shows in its
constructor.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from lanplay.admission import RoomKey


@dataclass
class Status:
    port: int = 0
    """The port actually bound (0 until ``Host.start``)."""
    web_port: int = 0
    """The page's port actually bound (0: no web server)."""
    stopping: bool = False
    """``stop`` or ``kill`` began: admit no one, start no stand-in, skip lobby news."""
    dead: bool = False
    """``kill`` struck: nothing more is saved, sent or scheduled."""


@dataclass
class Tokens:
    owner: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    """The room owner's seat token (the window that opened the room holds it)."""
    bots: set[str] = field(default_factory=set)
    """Tokens of the host's own bots that have not yet taken their seat."""
    room_key: RoomKey | None = None
    """The room's password as the host keeps it: salt and derived key (None: no password)."""
