"""Finding games on the LAN with mDNS/DNS-SD (python-zeroconf's async API).

A host announces ``_lanplay._tcp.local.`` with TXT keys that let a window
list it before anyone connects: protocol version ``v``, ``game``, ``host``
(the host's name), ``seats`` ("taken/total"), ``state`` (lobby, playing or
over) and ``pw`` ("1" when a password is needed). The Browser reports hosts
appearing, changing and leaving.

Note (PLATFORM-NOTES): register/update/unregister return an awaitable that
must itself be awaited, or the goodbye packets are never sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from protocol.messages import PROTOCOL_VERSION

SERVICE = "_lanplay._tcp.local."
DEMO_SERVICE = "_lanplay-demo._tcp.local."
"""Where ``lanplay screenshots`` announces its demo rooms ("Ben's laptop", "Lea", ...):
a service of its own, which a real window's Browser never follows, so a window on
the same laptop never lists them."""


@dataclass(frozen=True)
class Announcement:
    """What a host tells the LAN about itself."""

    host_name: str
    game: str
    port: int
    seats_taken: int
    seats_total: int
    state: str = "lobby"
    password: bool = False
    version: int = PROTOCOL_VERSION
    web_port: int = 0
    """The browser page's port (0: the host serves no page)."""
    room: str = ""
    term: int = 0
    """The room's id and term: a peer that lost its host finds the room by its id, and
    follows only the highest term announced (two hosts of one room: the newer wins)."""

    def txt(self) -> dict[str, str]:
        txt = {"v": str(self.version), "game": self.game, "host": self.host_name,
               "seats": f"{self.seats_taken}/{self.seats_total}", "state": self.state,
               "pw": "1" if self.password else "0"}
        if self.web_port:
            txt["web"] = str(self.web_port)
        if self.room:
            txt["room"], txt["term"] = self.room, str(self.term)
        return txt


@dataclass(frozen=True)
class FoundHost:
    """A host seen on the LAN, as a window lists it."""

    service: str
    host_name: str
    game: str
    addresses: tuple[str, ...]
    port: int
    version: int
    seats_taken: int
    seats_total: int
    state: str
    password: bool
    room: str = ""
    term: int = 0
    web_port: int = 0

    @property
    def compatible(self) -> bool:
        """False when this lanplay cannot join it (another protocol version)."""
        return self.version == PROTOCOL_VERSION

    @property
    def address(self) -> str:
        return self.addresses[0] if self.addresses else ""

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host_name, "game": self.game, "address": self.address,
                "addresses": list(self.addresses), "port": self.port,
                "version": self.version, "compatible": self.compatible,
                "seats": f"{self.seats_taken}/{self.seats_total}", "state": self.state,
                "password": self.password}


def _interfaces(interfaces: Sequence[str] | None) -> Any:
    return InterfaceChoice.All if interfaces is None else list(interfaces)


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses others could type (loopback excluded)."""
    import ifaddr

    out = {ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
           if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback}
    return sorted(out) or ["127.0.0.1"]


class Announcer:
    """Announces one host; ``update`` when seats or state change; ``stop`` withdraws."""

    def __init__(self, announcement: Announcement,
                 interfaces: Sequence[str] | None = None,
                 addresses: Sequence[str] | None = None, service: str = SERVICE) -> None:
        self.announcement = announcement
        self.service = service
        self._interfaces = interfaces
        self._addresses = list(addresses) if addresses else (
            list(interfaces) if interfaces else local_addresses())
        self._azc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        safe = "".join(c if c.isalnum() or c in " -_" else "-" for c in announcement.host_name)
        self._instance = f"{safe[:40] or 'lanplay'} {secrets.token_hex(3)}"

    def _build(self) -> AsyncServiceInfo:
        a = self.announcement
        label = "".join(c if c.isalnum() else "-" for c in self._instance)
        return AsyncServiceInfo(
            self.service, f"{self._instance}.{self.service}",
            addresses=[socket.inet_aton(x) for x in self._addresses],
            port=a.port, properties=a.txt(), server=f"lanplay-{label}.local.")

    async def start(self) -> None:
        self._azc = AsyncZeroconf(interfaces=_interfaces(self._interfaces),
                                  ip_version=IPVersion.V4Only)
        self._info = self._build()
        await (await self._azc.async_register_service(self._info, allow_name_change=True))

    async def update(self, **changes: Any) -> None:
        new = replace(self.announcement, **changes)
        if new == self.announcement or self._azc is None or self._info is None:
            self.announcement = new
            return
        self.announcement = new
        name = self._info.name
        self._info = self._build()
        self._info._name = name  # keep a name changed by allow_name_change
        await (await self._azc.async_update_service(self._info))

    async def stop(self) -> None:
        if self._azc is None:
            return
        azc, self._azc = self._azc, None
        try:
            if self._info is not None:
                await (await azc.async_unregister_service(self._info))
        finally:
            await azc.async_close()


Listener = Callable[[str, FoundHost], None]
"""Called with ("added" | "updated" | "removed", host)."""


class Browser:
    """Follows ``_lanplay._tcp`` services; ``hosts`` is the live list."""

    def __init__(self, listener: Listener | None = None,
                 interfaces: Sequence[str] | None = None, service: str = SERVICE) -> None:
        self.service = service
        """What it follows: ``SERVICE``, or ``DEMO_SERVICE`` in the screenshots' window."""
        self.hosts: dict[str, FoundHost] = {}
        self._listeners: list[Listener] = [listener] if listener else []
        self._interfaces = interfaces
        self._azc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.changed = asyncio.Event()

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def start(self) -> None:
        self._azc = AsyncZeroconf(interfaces=_interfaces(self._interfaces),
                                  ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(self._azc.zeroconf, self.service,
                                            handlers=[self._on_change])

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._azc is not None:
            await self._azc.async_close()
            self._azc = None

    async def wait_for(self, predicate: Callable[[dict[str, FoundHost]], bool],
                       timeout: float) -> bool:
        """Wait until ``predicate(hosts)`` holds; False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate(self.hosts):
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)
        return True

    def _on_change(self, zeroconf: Any, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            gone = self.hosts.pop(name, None)
            if gone is not None:
                self._emit("removed", gone)
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        if self._azc is None:
            return
        info = AsyncServiceInfo(self.service, name)
        if not await info.async_request(self._azc.zeroconf, 3000):
            return
        found = _parse(name, info)
        if found is None:
            return
        kind = "updated" if name in self.hosts else "added"
        if self.hosts.get(name) == found:
            return
        self.hosts[name] = found
        self._emit(kind, found)

    def _emit(self, kind: str, host: FoundHost) -> None:
        self.changed.set()
        for listener in self._listeners:
            listener(kind, host)


def room_finder(browser: Browser) -> Callable[[str], Awaitable[list[tuple[str, int, int]]]]:
    """Where the LAN says the room ``room`` is refereed: (address, port, term) of each
    announcement of it (a peer that lost its host follows the highest term)."""
    async def find(room: str) -> list[tuple[str, int, int]]:
        return [(h.address, h.port, h.term) for h in list(browser.hosts.values())
                if room and h.room == room and h.address and h.compatible]
    return find


def _parse(name: str, info: AsyncServiceInfo) -> FoundHost | None:
    """A FoundHost from a resolved service; None if it is not one of ours."""
    props = {(k.decode(errors="replace") if isinstance(k, bytes) else str(k)):
             (v.decode(errors="replace") if isinstance(v, bytes) else "")
             for k, v in (info.properties or {}).items()}
    try:
        version = int(props.get("v", "0"))
        taken, _, total = props.get("seats", "0/0").partition("/")
        seats_taken, seats_total = int(taken), int(total or 0)
        term = int(props.get("term", "0"))
        web = int(props.get("web", "0"))
    except ValueError:
        return None
    if info.port is None:
        return None
    return FoundHost(
        service=name, host_name=props.get("host", name.split(".")[0]),
        game=props.get("game", "?"), addresses=tuple(info.parsed_addresses(IPVersion.V4Only)),
        port=info.port, version=version, seats_taken=seats_taken, seats_total=seats_total,
        state=props.get("state", "?"), password=props.get("pw") == "1",
        room=props.get("room", "")[:64], term=max(0, min(term, 2 ** 31)),
        web_port=web if 0 < web < 65536 else 0)
