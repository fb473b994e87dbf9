"""The host's web server: the page's files, the WebSocket through the TCP link's
admission, and hostile HTTP clients each refused with the host unaffected.

Real sockets on 127.0.0.0/8 (a second loopback address stands for another laptop),
a real websockets client for the WebSocket seat."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from webhelpers import (
    LOCAL,
    check_frames,
    fill,
    http_get,
    raw_request,
    until,
    web_host,
    ws_connect,
)
from websockets.exceptions import ConnectionClosed, InvalidStatus

from lanplay.net.discovery import Announcement
from lanplay.web import budget as web_budget
from protocol.codec import decode_body, pack
from protocol.messages import (
    PROTOCOL_VERSION,
    Accepted,
    Chat,
    Contribution,
    Control,
    GameOver,
    Hello,
    Ping,
    Pong,
    Refused,
    SeedCommit,
    Welcome,
    to_wire,
)

OTHER = "127.0.0.2"
"""Another laptop: a second loopback address."""


def run(coro: object) -> object:
    return asyncio.run(coro)  # type: ignore[arg-type]


def hello(name: str, **fields: object) -> bytes:
    return pack(to_wire(Hello(PROTOCOL_VERSION, name, **fields)))  # type: ignore[arg-type]


async def first(ws: object, kind: type, timeout: float = 5) -> object:
    async with asyncio.timeout(timeout):
        while True:
            msg = decode_body(await ws.recv())  # type: ignore[attr-defined]
            if isinstance(msg, kind):
                return msg


@pytest.mark.timeout(30)
def test_the_page_and_only_the_page_is_served() -> None:
    async def main() -> None:
        async with web_host() as host:
            port = host.web_port
            status, head, body = await http_get(port, "/")
            assert status == 200 and head["content-type"].startswith("text/html")
            assert b"lanplay" in body and "script-src 'self'" in head["content-security-policy"]
            assert (await http_get(port, "/watch"))[0] == 200
            status, head, body = await http_get(port, "/pictures/dog")
            assert status == 200 and head["content-type"] == "image/svg+xml"
            assert body.startswith(b"<svg") or b"<svg" in body[:200]
            status, _, body = await http_get(port, "/locale/de.json")
            assert status == 200
            de = json.loads(body)
            assert de["domains"]["lanplay"]["Slow down: too many moves at once."] and \
                de["domains"]["lanplay-content"]["picture:dog\x04Dog"] == "Hund"
            status, _, body = await http_get(port, "/qr.svg")
            assert status == 200 and b"<svg" in body
            for bad in ("/nothing", "/../setup.cfg", "/%2e%2e/setup.cfg", "/..%2fsetup.cfg",
                        "//etc/passwd", "/page/index.html", "/assets.py", "/../assets.py",
                        "/pictures/../../setup.cfg", "/pictures/%2e%2e", "/locale/../x.json",
                        "/locale/xx.json", "/pictures/nope", "/index.html/", "/C:/x"):
                assert (await http_get(port, bad))[0] == 404, bad
            # the ETag spares a phone the second download
            etag = (await http_get(port, "/"))[1]["etag"]
            assert (await http_get(port, "/", {"If-None-Match": etag}))[0] == 304

    run(main())


@pytest.mark.timeout(30)
def test_a_page_under_another_name_is_refused() -> None:
    """A DNS trick pointing evil.example at this address gets neither page nor socket."""
    async def main() -> None:
        async with web_host() as host:
            port = host.web_port
            assert (await http_get(port, "/", {"Host": f"evil.example:{port}"}))[0] == 421
            assert (await http_get(port, "/", {"Host": f"localhost:{port}"}))[0] == 200
            assert (await http_get(port, "/", {"Host": f"party.local:{port}"}))[0] == 200

    run(main())


@pytest.mark.timeout(40)
def test_hostile_http_clients_are_refused_and_the_host_plays_on() -> None:
    async def main() -> None:
        async with web_host(handshake_timeout=0.5) as host:
            port = host.web_port
            # a huge header
            status, _, _ = await http_get(port, "/", {"X-Junk": "a" * 100_000})
            assert status == 431
            # a request line far too long
            assert (await http_get(port, "/" + "a" * 20_000))[0] == 414
            # not a GET
            status, _, _ = await raw_request(
                port, b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc")
            assert status == 0  # closed without an answer
            # a slow client: half a request, then nothing; dropped after the deadline
            reader, writer = await asyncio.open_connection(LOCAL, port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127")
            began = time.monotonic()
            await asyncio.wait_for(reader.read(), 5)  # the server closes it
            assert time.monotonic() - began < 3
            writer.close()
            # a flood of idle connections from one address: its share is capped ...
            idle = [await asyncio.open_connection(LOCAL, port, local_addr=(LOCAL, 0))
                    for _ in range(web_budget.PER_ADDRESS + 8)]
            await until(lambda: host.web.refused >= 8)
            # ... and another laptop is served meanwhile
            assert (await http_get(port, "/", source=OTHER))[0] == 200
            for _, w in idle:
                w.close()
            await until(lambda: host.web.connections == 0)
            # a foreign origin, or none, gets no WebSocket
            for origin in (f"http://evil.example:{port}", "null", None,
                           f"http://{LOCAL}:{port + 1}"):
                with pytest.raises(InvalidStatus) as refused:
                    await ws_connect(port, origin)
                assert refused.value.response.status_code == 403
            # the host is unaffected: a WebSocket seat of the page's own origin gets in
            ws = await ws_connect(port)
            await ws.send(hello("Ann"))
            welcome = await first(ws, Welcome)
            assert welcome.seat == 0  # type: ignore[attr-defined]
            await ws.close()

    run(main())


@pytest.mark.timeout(30)
def test_the_websocket_keeps_the_tcp_links_limits() -> None:
    async def main() -> None:
        async with web_host(handshake_timeout=1.0) as host:
            port = host.web_port
            # text instead of msgpack
            ws = await ws_connect(port)
            await ws.send('{"type": "hello"}')
            refused = await first(ws, Refused)
            assert refused.code == "malformed" and "binary" in refused.reason  # type: ignore
            # a hello over the 4 KiB handshake limit
            ws = await ws_connect(port)
            await ws.send(hello("Ann", client="x" * 5000))
            refused = await first(ws, Refused)
            assert refused.code == "malformed" and "4096" in refused.reason  # type: ignore
            # no hello in time
            ws = await ws_connect(port)
            refused = await first(ws, Refused, 3)
            assert refused.code == "timeout"  # type: ignore[attr-defined]
            # another version
            ws = await ws_connect(port)
            await ws.send(pack({**to_wire(Hello(PROTOCOL_VERSION, "Ann")), "version": 2}))
            assert (await first(ws, Refused)).code == "version"  # type: ignore[attr-defined]
            # a welcomed seat that floods is rate-limited like a TCP one
            ws = await ws_connect(port)
            await ws.send(hello("Bea"))
            await first(ws, Welcome)
            for _ in range(60):
                await ws.send(pack(to_wire(Chat("hi"))))
            seen = []
            with pytest.raises((TimeoutError, ConnectionClosed)):
                async with asyncio.timeout(2):
                    while True:
                        seen.append(decode_body(await ws.recv()))
            assert any(getattr(m, "code", "") == "rate" for m in seen)

    run(main())


@pytest.mark.timeout(30)
def test_a_password_room_challenges_the_websocket_too() -> None:
    from lanplay.admission import RoomKey
    from protocol.messages import Answer, Challenge

    async def main() -> None:
        async with web_host(password="swordfish") as host:
            port = host.web_port
            ws = await ws_connect(port)
            await ws.send(hello("Ann"))
            challenge = await first(ws, Challenge)
            await ws.send(pack(to_wire(Answer("0" * 64))))
            assert (await first(ws, Refused)).code == "password"  # type: ignore[attr-defined]
            ws = await ws_connect(port)
            await ws.send(hello("Ann"))
            challenge = await first(ws, Challenge)
            key = RoomKey.derive("swordfish", challenge.salt)  # type: ignore[attr-defined]
            await ws.send(pack(to_wire(Answer(key.answer(challenge.nonce)))))  # type: ignore
            assert (await first(ws, Welcome)).seat == 0  # type: ignore[attr-defined]

    run(main())


@pytest.mark.timeout(60)
def test_a_websocket_seat_plays_to_the_end_beside_a_lanplay_peer_and_sees_only_its_own() -> None:
    """A thin client choosing from ``may`` over the WebSocket, a bot over TCP; the
    WebSocket seat's frames are its own view of the true state, nothing more."""
    from nethelpers import Tasks, seat

    async def main() -> None:
        async with web_host(autostart=2, seed=11) as host:
            ws = await ws_connect(host.web_port)
            await ws.send(hello("Ann"))
            tasks = Tasks()
            await seat(host, "Bot", tasks, bot_seed=3)
            bodies: list[bytes] = []
            rng = random.Random(4)
            me: int | None = None
            view: dict | None = None
            from protocol import delta as deltas
            from protocol.messages import Delta, Intent, Snapshot
            sent = -1
            async with asyncio.timeout(40):
                while True:
                    body = await ws.recv()
                    assert isinstance(body, bytes)
                    msg = decode_body(body)
                    bodies.append(body)
                    if isinstance(msg, Welcome):
                        me = msg.seat
                        await ws.send(pack(to_wire(Control("ready", {"ready": True}, 1))))
                    elif isinstance(msg, SeedCommit):
                        await ws.send(pack(to_wire(Contribution(msg.game, "ab" * 32))))
                    elif isinstance(msg, Ping):
                        await ws.send(pack(to_wire(Pong(msg.nonce))))
                    elif isinstance(msg, Snapshot):
                        view, at = msg.view, msg.state_id
                    elif isinstance(msg, Delta):
                        assert view is not None
                        view, at = deltas.apply(view, msg.ops), msg.state_id
                    elif isinstance(msg, GameOver):
                        break
                    elif isinstance(msg, Accepted):
                        pass
                    if isinstance(msg, (Snapshot, Delta)) and view and view["may"] \
                            and at != sent:
                        action = fill(rng.choice(view["may"]), rng)
                        assert action is not None
                        sent = at
                        await ws.send(pack(to_wire(Intent(at + 1, at, action))))
            assert me == 0
            assert host.session is not None and host.session.result is not None
            assert check_frames(host.session, me, bodies) > 5
            # the check would see a frame carrying one thing more than the seat's view
            snap = next(decode_body(b) for b in bodies if isinstance(decode_body(b), Snapshot))
            leak = pack(to_wire(Snapshot(snap.state_id, {**snap.view, "peek": [1]})))
            with pytest.raises(AssertionError):
                check_frames(host.session, me, [*bodies, leak])
            await ws.close()
        await tasks.join()

    run(main())


def test_the_announcement_names_the_page_port() -> None:
    ann = Announcement("h", "alles-klar", 7531, 1, 5, web_port=7532)
    assert ann.txt()["web"] == "7532"
    assert "web" not in Announcement("h", "alles-klar", 7531, 1, 5).txt()


@pytest.mark.timeout(30)
def test_the_page_is_served_on_the_pairs_second_port() -> None:
    """A second room on one laptop takes the next pair: its page is on that pair's web
    port, and the announcement names it."""
    from test_host_ports import free_block

    from lanplay.host import Host, HostConfig

    async def main() -> None:
        with free_block() as block:
            b = block.base
            first = Host("alles-klar", config=HostConfig(bind=LOCAL, port=None, first_port=b,
                                                         web=True, save=False))
            second = Host("alles-klar", config=HostConfig(bind=LOCAL, port=None,
                                                          first_port=b, web=True, save=False))
            try:
                assert await first.start() == b and first.web_port == b + 1
                assert await second.start() == b + 2 and second.web_port == b + 3
                assert second.announcing.announcement().web_port == b + 3
                status, _, body = await http_get(b + 3, "/")
                assert status == 200 and b"lanplay" in body
            finally:
                await second.stop()
                await first.stop()

    run(main())


@pytest.mark.timeout(30)
def test_the_websocket_is_as_protocol_md_says() -> None:
    """docs/PROTOCOL.md "The WebSocket", as a third-party client meets it (issue 33,
    point 9): the Origin rule, no subprotocol, fragments, 1009 over 64 KiB, and the
    WebSocket's own pings are no signs of life."""
    from websockets.asyncio.client import connect

    async def main() -> None:
        async with web_host(heartbeat=0.2, dead_after=1.0) as host:
            port = host.web_port
            url = f"ws://{LOCAL}:{port}/ws"
            # the Origin: http:// and the Host header, case aside; nothing else
            for origin in (f"http://{LOCAL}:{port}/", f"http://localhost:{port}",
                           f"https://{LOCAL}:{port}"):
                with pytest.raises(InvalidStatus) as refused:
                    await ws_connect(port, origin)
                assert refused.value.response.status_code == 403, origin
            ws = await ws_connect(port, f"HTTP://{LOCAL}:{port}")
            await ws.close()
            # no subprotocol, even to a client that asks for one
            ws = await connect(url, origin=f"http://{LOCAL}:{port}",  # type: ignore[arg-type]
                               subprotocols=["lanplay"], compression=None)  # type: ignore
            assert ws.subprotocol is None
            await ws.close()
            # a fragmented hello is one message
            ws = await ws_connect(port)
            body = hello("Ann")
            await ws.send([body[:5], body[5:]])
            await first(ws, Welcome)
            # over 64 KiB: the WebSocket layer closes with 1009, no refused before it
            await ws.send(b"\x80" * (64 * 1024 + 1))
            with pytest.raises(ConnectionClosed) as closed:
                await first(ws, Refused)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            # only WebSocket pings: dropped after the silence rule, without a close frame
            ws = await connect(url, origin=f"http://{LOCAL}:{port}",  # type: ignore[arg-type]
                               compression=None, ping_interval=0.2)
            await ws.send(hello("Pinger"))
            await first(ws, Welcome)
            began = time.monotonic()
            with pytest.raises(ConnectionClosed) as closed:
                async with asyncio.timeout(10):
                    while True:
                        await ws.recv()  # the host's pings, never answered with a pong
            assert closed.value.rcvd is None and time.monotonic() - began < 5

    run(main())
