"""The seats this window holds at other laptops' tables, kept on disk so that a window
restarted mid-game (closed, crashed, its laptop out of power) takes its seat back.

The host keeps a seat whose person is gone for as long as the game runs (a stand-in
plays it) and gives it to whoever shows its token, as on a reconnect. A restarted
window has nothing in memory, so the token of each seat held is written to
``seats.json`` beside the settings (their folder follows ``--data-dir``) as soon
as the welcome brings it, and forgotten when that game ends, the room closes for
good, the host no longer knows it, or the person leaves with Leave. A window
closed by its close box keeps it: that seat is still theirs. Home marks a found
room where a seat is kept ("Your seat: Jonas"), and joining it (from the list or by
address) presents the token instead of watching.

The file is untrusted input when read back (damaged, edited, hostile): it is read
only when small, each seat is checked by type and range (``lanplay.store.schema``)
and a bad one is dropped, never the window. A host that never came back leaves
nothing behind for long: a kept seat lasts ``KEEP_FOR``, and only the newest
``MOST`` are kept.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from lanplay.net.discovery import FoundHost
from lanplay.peer.peer import Peer
from lanplay.store import durable, schema

FILE = "seats.json"
FORMAT = 1
MAX_BYTES = 64 * 1024
"""A kept-seats file larger than this is not read (sixteen seats take about 5 KiB)."""
MOST = 16
"""Seats kept at most, the newest (one window holds one seat at a time)."""
READ_AT_MOST = 256
"""Entries of a file looked at, however long its list."""
KEEP_FOR = 7 * 24 * 3600.0
"""Seconds a kept seat lasts when its game never said it ended (a host that never came
back); a game paused and resumed within a week still finds it."""

_TOKEN = r"[!-~]{1,256}"
"""Printable ASCII without spaces, as long as a host's token may be (``inbound``)."""
_ADDRESS = r"[0-9A-Za-z.:%_\[\]-]{1,253}"
ENTRY = schema.record({
    "room": schema.text(0, 255),
    "host_name": schema.text(0, 60),
    "addresses": schema.array(schema.text(1, 253, _ADDRESS, "an address"), 16, 1),
    "port": schema.integer(1, 65535),
    "seat": schema.integer(0, 255),
    "name": schema.text(0, 60),
    "token": schema.text(1, 256, _TOKEN, "a seat's token"),
    "game": schema.text(0, 64),
    "kept_at": schema.number(0, 1e11),
}, required={"addresses", "port", "seat", "token", "kept_at"})


@dataclass(frozen=True)
class KeptSeat:
    """One seat held at another laptop's table."""

    room: str
    """The room's name in discovery (``FoundHost.service``); "" when joined by address."""
    host_name: str
    addresses: tuple[str, ...]
    port: int
    seat: int
    name: str
    token: str
    game: str
    kept_at: float
    """When it was kept (wall clock: it must mean the same after a restart)."""

    def at(self, addresses: Iterable[str], port: int, room: str = "") -> bool:
        """Whether a room at ``addresses``/``port`` (named ``room``) is this seat's."""
        if port != self.port:
            return False
        return bool(room and room == self.room) or not set(addresses).isdisjoint(
            self.addresses)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "addresses": list(self.addresses)}

    @classmethod
    def from_json(cls, data: Any) -> KeptSeat:
        """A kept seat from the file; ``schema.Invalid`` if any field is not one."""
        ENTRY(data, "")
        return cls(room=data.get("room", ""), host_name=data.get("host_name", ""),
                   addresses=tuple(data["addresses"]), port=data["port"],
                   seat=data["seat"], name=data.get("name", ""), token=data["token"],
                   game=data.get("game", ""), kept_at=float(data["kept_at"]))


def read(path: Path, now: float | None = None) -> list[KeptSeat]:
    """The seats kept in ``path``, newest first: the valid and unexpired ones of a
    file that is small enough and JSON; nothing (never an error) otherwise."""
    now = time.time() if now is None else now
    try:
        raw, _ = durable.read_capped(path, "kept-seats file", MAX_BYTES)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, durable.SaveError, ValueError, RecursionError):
        return []
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("seats"), list):
        return []
    kept: list[KeptSeat] = []
    for entry in data["seats"][:READ_AT_MOST]:
        try:
            seat = KeptSeat.from_json(entry)
        except schema.Invalid:
            continue
        if now - KEEP_FOR <= seat.kept_at <= now + KEEP_FOR \
                and all(seat.token != k.token for k in kept):
            kept.append(seat)
    kept.sort(key=lambda s: s.kept_at, reverse=True)
    return kept[:MOST]


def write(path: Path, seats: Sequence[KeptSeat]) -> None:
    """Replace ``path`` atomically (a crash leaves the old file or the new), readable by
    this user only (the tokens are the seats' keys)."""
    data = json.dumps({"format": FORMAT, "seats": [s.to_json() for s in seats]}, indent=1)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".seats-")  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class KeptSeats:
    """The seats this window holds, in memory and (with a ``path``) on disk."""

    def __init__(self, path: Path | None = None, seats: Sequence[KeptSeat] = ()) -> None:
        self.path = path
        self.seats: list[KeptSeat] = list(seats)
        self.changed: list[Callable[[], None]] = []
        """Called after each change (Home marks its rows again)."""

    @classmethod
    def load(cls, folder: Path | None) -> KeptSeats:
        """The seats kept in ``folder`` (None: kept in memory only, as in tests)."""
        path = folder / FILE if folder is not None else None
        return cls(path, read(path) if path is not None else ())

    def for_room(self, host: FoundHost) -> KeptSeat | None:
        """The seat kept at a room found on the network, if any."""
        return self.at(host.addresses, host.port, host.service)

    def at(self, addresses: Iterable[str], port: int, room: str = "") -> KeptSeat | None:
        addresses = tuple(addresses)
        return next((s for s in self.seats if s.at(addresses, port, room)), None)

    def keep(self, seat: KeptSeat) -> None:
        """Keep ``seat`` (in place of any kept at the same room, or with its token)."""
        others = [s for s in self.seats if s.token != seat.token
                  and not s.at(seat.addresses, seat.port, seat.room)]
        self._set([seat, *others][:MOST])

    def forget(self, token: str | None) -> None:
        if token and any(s.token == token for s in self.seats):
            self._set([s for s in self.seats if s.token != token])

    def _set(self, seats: list[KeptSeat]) -> None:
        self.seats = seats
        if self.path is not None:
            with contextlib.suppress(OSError):  # a read-only home: costs it after a crash
                write(self.path, seats)
        for listener in list(self.changed):
            listener()


GONE = frozenset({"removed", "bad_token"})
"""Refusals that end a seat: the person was removed, or the host knows no such seat (the
game ended, or a new room opened where the paused one was)."""


class SeatWatch:
    """Follows one joined connection's peer: keeps its seat while it holds one in a
    game that has not ended, forgets it when that changes."""

    def __init__(self, seats: KeptSeats, peer: Peer, room: str = "",
                 addresses: Sequence[str] = ()) -> None:
        self.seats = seats
        self.peer = peer
        self.room = room
        self.addresses = tuple(dict.fromkeys(
            [*(addresses or ()), *([peer.address[0]] if peer.address else [])]))
        self.kept: KeptSeat | None = None
        self.lost = False
        """The peer gave up getting back (the host may come back later, resumed)."""
        self.refused: str | None = None
        """The code the host sent us away with, if it did."""
        peer.listeners.append(self._on_event)
        self.update()  # the welcome came before we listened

    def _on_event(self, event: str, payload: Any) -> None:
        if event in ("welcome", "lobby"):
            self.update()
        elif event == "game_over":
            self._forget()
        elif event == "closed":
            self.lost = True
        elif event == "refused":
            self.refused = str(getattr(payload, "code", ""))

    def update(self) -> None:
        """Keep the seat now held (its number and name as the room says), or forget it
        when there is none or its game has ended."""
        peer, lobby = self.peer, self.peer.lobby
        if peer.seat is None or not peer.token or peer.address is None \
                or (lobby is not None and lobby.phase == "over"):
            self._forget()
            return
        name = peer.name
        if lobby is not None and 0 <= peer.seat < len(lobby.seats):
            name = str(lobby.seats[peer.seat].get("name", name))
        seat = KeptSeat(self.room, peer.host_name, self.addresses, peer.address[1],
                        peer.seat, name[:60], peer.token, peer.game_id[:64], time.time())
        if self.kept is not None and replace(self.kept, kept_at=seat.kept_at) == seat:
            return
        try:
            KeptSeat.from_json(seat.to_json())  # only what a restart could read back
        except schema.Invalid:
            return
        self.kept = seat
        self.seats.keep(seat)

    def _forget(self) -> None:
        if self.kept is not None:
            self.seats.forget(self.kept.token)
            self.kept = None

    def ended(self, on_purpose: bool) -> None:
        """The connection ended: left with Leave (``on_purpose``), or by itself. A seat
        the host still keeps stays kept: the game paused to be resumed, or the host
        lost (it may be resumed), or a refusal that leaves the seat in place (a flood, a
        fault); one the host ended (the room closed for good, the person removed) is
        forgotten. Closing the window is neither: see ``closing``."""
        self.detach()
        if self.refused in GONE:  # the host says so: no such seat (any more)
            self._forget()
            return
        kept_by_host = bool(self.peer.paused) or self.lost or self.refused is not None
        if on_purpose or not kept_by_host:
            self._forget()

    def closing(self) -> None:
        """The window closes (its goodbye tells the host): a seat in a running game stays
        the person's, and stays kept; in the room before a game the goodbye frees it."""
        self.detach()
        lobby = self.peer.lobby
        if lobby is None or lobby.phase != "playing":
            self._forget()

    def detach(self) -> None:
        """Stop following the peer."""
        if self._on_event in self.peer.listeners:
            self.peer.listeners.remove(self._on_event)


__all__ = ["KeptSeat", "KeptSeats", "SeatWatch", "read", "write"]
