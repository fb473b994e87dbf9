"""Finding a host on the LAN: real zeroconf, restricted to the loopback interface."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from lanplay.host import Host, HostConfig
from lanplay.net.discovery import SERVICE, Announcement, Announcer, Browser, FoundHost
from lanplay.peer.peer import Peer
from protocol.messages import PROTOCOL_VERSION

LOOPBACK = ["127.0.0.1"]
TXT_KEYS = {"v", "game", "host", "seats", "state", "pw", "room", "term"}
"""(``web`` too, for a host that serves its page: not these.) ``room`` and ``term``: a
peer that lost its host finds the room by its id (issue 34)."""


def mine(name: str, port: int) -> Any:
    """A predicate on Browser.hosts: the host with this name and port (others may be
    announcing on this machine too)."""
    def find(hosts: dict[str, FoundHost]) -> FoundHost | None:
        return next((h for h in hosts.values() if h.host_name == name and h.port == port),
                    None)
    return find


async def txt_of(service: str) -> dict[str, str]:
    """The TXT record as announced, read with a zeroconf of our own."""
    azc = AsyncZeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
    try:
        info = AsyncServiceInfo(SERVICE, service)
        assert await info.async_request(azc.zeroconf, 3000), "the service did not resolve"
        return {k.decode(): (v or b"").decode() for k, v in (info.properties or {}).items()}
    finally:
        await azc.async_close()


@pytest.mark.timeout(60)
def test_a_headless_host_is_found_followed_and_seen_leaving() -> None:
    async def main() -> None:
        name = f"discovery test {os.getpid()}"
        host = Host("alles-klar", config=HostConfig(
            host_name=name, bind="127.0.0.1", port=0, seed=1, autostart=2, announce=True,
            interfaces=LOOPBACK))
        browser = Browser(interfaces=LOOPBACK)
        events: list[tuple[str, FoundHost]] = []
        browser.add_listener(lambda kind, found: events.append((kind, found)))
        await browser.start()
        peers: list[Peer] = []
        runs: list[asyncio.Task[None]] = []
        stopped = False
        try:
            port = await host.start()
            find = mine(name, port)
            assert await browser.wait_for(lambda hs: find(hs) is not None, 15)
            found = find(browser.hosts)
            assert found.game == "alles-klar" and found.version == PROTOCOL_VERSION
            assert (found.seats_taken, found.seats_total) == (0, 5)
            assert found.state == "lobby" and not found.password and found.compatible
            assert "127.0.0.1" in found.addresses
            assert found.to_json()["seats"] == "0/5"
            txt = await txt_of(found.service)
            assert set(txt) == TXT_KEYS
            assert txt == {"v": str(PROTOCOL_VERSION), "game": "alles-klar", "host": name,
                           "seats": "0/5", "state": "lobby", "pw": "0",
                           "room": host.room.id, "term": "1"}
            assert (found.room, found.term) == (host.room.id, 1)

            # a seat is taken: the entry follows
            peer = Peer("Ann", bot=True)
            await peer.connect(found.address, found.port)
            peers.append(peer)
            runs.append(asyncio.create_task(peer.run()))
            assert await browser.wait_for(
                lambda hs: (f := find(hs)) is not None and f.seats_taken == 1, 15)
            assert find(browser.hosts).state == "lobby"

            # the second seat starts the game: "playing"
            peer = Peer("Ben", bot=True)
            await peer.connect(found.address, found.port)
            peers.append(peer)
            runs.append(asyncio.create_task(peer.run()))
            assert await browser.wait_for(
                lambda hs: (f := find(hs)) is not None and f.state == "playing", 15)
            assert find(browser.hosts).seats_taken == 2
            assert host.room.phase == "playing"
            assert any(kind == "updated" for kind, f in events if f.service == found.service)

            # the host stops: its announcement is withdrawn
            await host.stop("test over")
            stopped = True
            assert await browser.wait_for(lambda hs: find(hs) is None, 15)
            assert ("removed", found.service) in [(k, f.service) for k, f in events]
        finally:
            if not stopped:
                await host.stop("test over")
            await asyncio.gather(*runs, return_exceptions=True)
            await browser.stop()
        assert all(p.closed_reason == "test over" for p in peers)

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_a_host_speaking_another_protocol_version_is_listed_as_incompatible() -> None:
    async def main() -> None:
        name = f"future host {os.getpid()}"
        announcer = Announcer(Announcement(host_name=name, game="alles-klar", port=45999,
                                           seats_taken=1, seats_total=5,
                                           version=PROTOCOL_VERSION + 1), LOOPBACK)
        browser = Browser(interfaces=LOOPBACK)
        await browser.start()
        await announcer.start()
        try:
            find = mine(name, 45999)
            assert await browser.wait_for(lambda hs: find(hs) is not None, 15)
            found = find(browser.hosts)
            assert found.version == PROTOCOL_VERSION + 1
            assert not found.compatible and found.to_json()["compatible"] is False
        finally:
            await announcer.stop()
            await browser.stop()

    asyncio.run(main())


def test_found_host_compatibility_follows_the_protocol_version() -> None:
    base = FoundHost("x._lanplay._tcp.local.", "x", "alles-klar", ("127.0.0.1",), 7531,
                     PROTOCOL_VERSION, 0, 5, "lobby", False)
    assert base.compatible and base.address == "127.0.0.1"
    for other in (PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1, 0):
        older = FoundHost(**{**base.__dict__, "version": other})
        assert not older.compatible
        assert older.to_json()["compatible"] is False
    assert FoundHost(**{**base.__dict__, "addresses": ()}).address == ""


@pytest.mark.timeout(60)
def test_demo_rooms_are_listed_only_by_a_demo_browser_never_by_a_real_window() -> None:
    """``lanplay screenshots`` announces "Ben's laptop", "Lea", ... on the loopback: a
    real window on the same laptop must not list them while it runs."""
    from lanplay.net.discovery import DEMO_SERVICE

    async def main() -> None:
        tag = os.getpid()
        demo = Host("alles-klar", config=HostConfig(
            host_name=f"demo room {tag}", bind="127.0.0.1", port=0, announce=True,
            demo=True, interfaces=LOOPBACK))
        lea = Announcer(Announcement(f"demo Lea {tag}", "alles-klar", 7599, 3, 5, "playing"),
                        LOOPBACK, service=DEMO_SERVICE)
        real = Host("alles-klar", config=HostConfig(
            host_name=f"real room {tag}", bind="127.0.0.1", port=0, announce=True,
            interfaces=LOOPBACK))
        window_browser = Browser(interfaces=LOOPBACK)  # what a real window follows
        demo_browser = Browser(interfaces=LOOPBACK, service=DEMO_SERVICE)
        await window_browser.start()
        await demo_browser.start()
        try:
            await demo.start()
            await lea.start()
            await real.start()  # announced last: once it is listed, the others had time

            def names(browser: Browser) -> set[str]:
                return {h.host_name for h in browser.hosts.values()}

            assert await demo_browser.wait_for(
                lambda hs: {f"demo room {tag}", f"demo Lea {tag}"} <= names(demo_browser), 15)
            assert await window_browser.wait_for(
                lambda hs: f"real room {tag}" in names(window_browser), 15)
            assert f"real room {tag}" not in names(demo_browser)
            assert not {f"demo room {tag}", f"demo Lea {tag}"} & names(window_browser)
        finally:
            await real.stop()
            await lea.stop()
            await demo.stop()
            await demo_browser.stop()
            await window_browser.stop()

    asyncio.run(main())
