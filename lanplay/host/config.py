"""What a host is told to be: its settings and the limits it keeps.

Plain data, read by every part at the moment it needs a value (the command
line changes ``autostart`` after the Host is built, and that must count).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from lanplay.admission import PasswordThrottle, RoomKey
from protocol.codec import MAX_FRAME

DEFAULT_PORT = 7531

MAX_PENDING = 16
"""Handshakes in progress allowed beyond max_peers (a reconnecting seat must get in)."""
PENDING_PER_ADDRESS = 8
"""Handshakes in progress one address may have; more are "over" (see ``over_hello``)."""
OVER_LIMIT = 512
"""Connections over the caps at once; beyond this even they are refused unheard
(each lives ``over_hello`` seconds at most, so only a flood of connects gets here)."""


@dataclass
class HostConfig:
    host_name: str = "lanplay host"
    bind: str = "0.0.0.0"
    port: int | None = None
    """The port to listen on as it is (0: any free one); None: the first free of the
    usual pairs from ``first_port`` (7531, else 7533, ... 7539: ``lanplay.host.ports``)."""
    first_port: int = DEFAULT_PORT
    """Where the usual pairs begin (tests move them to ports they found free)."""
    web: bool = False
    """Serve the browser page and its WebSocket (``lanplay.web``) on the pair's web port,
    the one after the game's (``lanplay.host.ports``); ``lanplay host`` and the window do
    unless told ``--no-web``."""
    page_autoplay: bool = False
    """For a test host only (``lanplay.tools.webbench``): the page it serves plays its
    seat by itself with random moves from ``may``. Never an address's to ask: a link of
    another site must not make a guest's page play (issue 33)."""
    web_port: int | None = None
    """The page's port as it is (0: any free one), instead of the pair's; serves the
    page even without ``web``."""
    seed: int | None = None
    autostart: int | None = None
    """Start by itself once this many seats are taken, ready and connected."""
    heartbeat: float = 2.0
    dead_after: float = 10.0
    handshake_timeout: float = 5.0
    max_frame: int = MAX_FRAME
    bot_delay: float = 0.0
    announce: bool = False
    interfaces: Sequence[str] | None = None
    """Interfaces for the zeroconf announcement (None: all)."""
    demo: bool = False
    """Announced as a demo room (``lanplay screenshots``'), which no real window lists."""
    password: str | None = None
    """Room password, checked by challenge and response (None or "": no password)."""
    room_key: RoomKey | None = None
    """The key derived from the password (a resumed room's comes from its save);
    None: derived from ``password`` when the host is built. The host keeps only this."""
    over_hello: float = 1.0
    """Seconds a connection over the handshake caps has to say hello with a seat's token."""
    throttle: PasswordThrottle = field(default_factory=PasswordThrottle)
    """How wrong passwords per address are slowed (lanplay.admission); each host
    counts with a fresh copy of it."""
    max_peers: int = 64
    """Connections at once, spectators included; more are refused "full"."""
    rate: float = 20.0
    burst: float = 40.0
    """Per-peer token bucket on intents, room commands, chat, resyncs and pings."""
    flood_after: int = 200
    flood_window: float = 10.0
    """More refusals than this within the window close the connection ("flood")."""
    contribution_wait: float = 5.0
    """Seconds the shuffle waits for the seats' contributions; the host draws for the
    seats that sent none (and says so). The deal follows as soon as all are in."""
    standin_after: float | None = 30.0
    """Seconds a seat may be away in a game before a stand-in bot plays it (None: never)."""
    save: bool = True
    """Write the game after every accepted action (see lanplay.store.saves)."""
    save_retry: float = 1.0
    """Seconds between tries to save again while play is held because a save failed."""
    data_dir: str | os.PathLike[str] | None = None
    """Where saves go (default: $LANPLAY_DATA_DIR, else the user's data directory)."""
    takeover_after: float = 15.0
    """Seconds this host may be silent before its deputy takes the room over (the
    deputy is told, ``lanplay.host.handover``)."""
    deputy_wait: float = 1.0
    """Seconds a move waits for the deputy to have it; a deputy that takes longer is
    dropped and the game goes on without one (``lanplay.host.deputy``)."""
    deputies: bool = False
    """A laptop may offer itself as deputy when the room has none (``lanplay join
    --deputy``; ``lanplay host --allow-deputy``): a deputy holds what the host holds,
    every hand, so only where the host's person trusts whoever joins. The owner may
    always name one."""
