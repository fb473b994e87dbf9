"""How many connections the page's server holds, and which one goes when a new one
needs room.

Pure and clock-free (time is a parameter), as ``lanplay.admission`` is. Each
connection is counted from its first byte: ``total`` for the room, ``per_address``
from one address. When the room is full a newcomer is not refused at once: a
connection that is not *trusted* (a WebSocket whose peer was welcomed, or that
showed a seat's token, is) makes room for it, the oldest of the address holding
the most when that address holds more than the newcomer's, else the oldest that
has had ``grace`` seconds. A browser sends its request within milliseconds of
connecting, so what lingers without earning trust is a half-open request or an
idle socket, and the addresses that hold the most of them pay first: half-open
requests from a few addresses, however fast they are opened again, cannot keep
out a page from another, and a seated page coming back with its token always
finds its way in. At its own full address a newcomer only replaces one that had
its ``grace``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

TOTAL = 256
PER_ADDRESS = 32
"""A phone loading the page opens a handful at once; a flood from one address
cannot take the others' share."""
GRACE = 2.0
"""Seconds a connection is safe from being closed for a newcomer."""


@dataclass
class _Entry:
    address: str
    since: float
    trusted: bool = False


@dataclass
class Budget:
    total: int = TOTAL
    per_address: int = PER_ADDRESS
    grace: float = GRACE
    _open: dict[object, _Entry] = field(default_factory=dict, init=False)
    """Insertion order is age order: the first evictable entry is the oldest."""
    _count: Counter[str] = field(default_factory=Counter, init=False)

    def open(self, key: object, address: str, now: float) -> tuple[bool, list[object]]:
        """Connection ``key`` from ``address`` at ``now``: (admitted, the connections
        closed to make room for it, which the caller must abort)."""
        evicted: list[object] = []
        if self._count[address] >= self.per_address:
            victim = self._oldest(now, address)
            if victim is None:
                return False, evicted
            self.close(victim)
            evicted.append(victim)
        if len(self._open) >= self.total:
            victim = self._most_crowded(address)
            if victim is None:
                victim = self._oldest(now)
            if victim is None:
                return False, evicted
            self.close(victim)
            evicted.append(victim)
        self._open[key] = _Entry(address, now)
        self._count[address] += 1
        return True, evicted

    def _most_crowded(self, address: str) -> object | None:
        """The oldest untrusted connection of the address holding the most, if it holds
        more than ``address`` would with one more."""
        best: object | None = None
        most = self._count[address] + 1
        for key, entry in self._open.items():
            held = self._count[entry.address]
            if not entry.trusted and held > most:
                best, most = key, held
        return best

    def _oldest(self, now: float, address: str | None = None) -> object | None:
        for key, entry in self._open.items():
            if now - entry.since < self.grace:
                return None  # the rest are younger still
            if not entry.trusted and (address is None or entry.address == address):
                return key
        return None

    def trust(self, key: object) -> None:
        """``key`` proved to be a person's seat (or a welcomed spectator): it stays."""
        entry = self._open.get(key)
        if entry is not None:
            entry.trusted = True

    def close(self, key: object) -> None:
        """``key`` is gone (closing one twice is harmless)."""
        entry = self._open.pop(key, None)
        if entry is None:
            return
        self._count[entry.address] -= 1
        if self._count[entry.address] <= 0:
            del self._count[entry.address]

    def count(self, address: str | None = None) -> int:
        return self._count[address] if address is not None else len(self._open)

    def holds(self, key: object) -> bool:
        return key in self._open
