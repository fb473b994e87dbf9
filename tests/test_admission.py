"""Admission: a room password checked by challenge and response, a limit on
connections, a handshake timeout, the frame limit and a per-peer rate limit. Each
hostile or mistaken peer is refused with a reason; everyone else plays on."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import os
import struct
from pathlib import Path

import pytest
from nethelpers import run
from resilience import GAME, LOCAL, Table, config

from lanplay.admission import RateLimit, RoomKey, new_nonce, proof
from lanplay.host import Host
from lanplay.net.discovery import Browser, FoundHost
from lanplay.peer.peer import JoinError, Peer
from protocol.codec import HANDSHAKE_FRAME, MAX_FRAME, FrameReader, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    Answer,
    Challenge,
    Chat,
    Hello,
    Intent,
    Message,
    Refused,
    Rejected,
    Welcome,
)

PASSWORD = "grüne Bohnen"


def readable(reason: str) -> None:
    assert 10 <= len(reason) <= 200 and " " in reason and reason[0].isalpha(), reason
    assert "Error" not in reason and "Traceback" not in reason, reason


# --- the pieces, without sockets --------------------------------------------------------


def test_the_answer_is_hmac_sha256_of_the_nonce_under_the_key_derived_from_the_password(
) -> None:
    nonce = new_nonce()
    assert len(nonce) == 64 and nonce != new_nonce()
    room = RoomKey.derive(PASSWORD)
    assert len(room.salt) == 32 and room.salt != RoomKey.derive(PASSWORD).salt
    key = hashlib.pbkdf2_hmac("sha256", PASSWORD.encode(), room.salt.encode(), 200_000, 32)
    assert room.key == key  # PROTOCOL.md spells it out: PBKDF2-HMAC-SHA256, 200,000 rounds
    expected = hmac.new(key, nonce.encode(), hashlib.sha256).hexdigest()
    assert proof(PASSWORD, nonce, room.salt) == expected == proof(room, nonce, room.salt)
    assert room.verify(nonce, expected)
    # one spelling only, as the document says: 64 lower-case hex digits
    for spelling in (expected.upper(), f" {expected}", expected + "\n", expected[:-1]):
        assert not room.verify(nonce, spelling)
    assert not room.verify(nonce, proof("grüne bohnen", nonce, room.salt))
    assert not room.verify(nonce, proof(PASSWORD, nonce, "another salt"))
    assert not room.verify(new_nonce(), expected)  # a recorded answer is worthless
    assert not room.verify(nonce, "") and not room.verify(nonce, "zß" * 40)


def test_the_bucket_allows_a_burst_then_the_rate_and_a_flood_is_seen() -> None:
    limit = RateLimit(rate=20, burst=40, flood_after=200, flood_window=10)
    assert all(limit.allow(0.0) for _ in range(40))
    assert not limit.allow(0.0)
    assert [limit.allow(0.05 * i) for i in range(1, 5)] == [True] * 4  # 20 a second
    limit.refund()
    assert limit.allow(0.2) and not limit.allow(0.2)
    assert not limit.flooding()
    for _ in range(198):
        limit.allow(0.2)
    assert not limit.flooding()  # 200 refusals so far; the next one makes a flood
    limit.allow(0.2)
    assert limit.flooding()


def test_refusals_spread_over_more_than_the_window_are_not_a_flood() -> None:
    limit = RateLimit(rate=0.0, burst=0.0, flood_after=5, flood_window=10)
    for second in range(0, 60, 2):
        assert not limit.allow(float(second))
        assert not limit.flooding()  # never more than 5 refusals within 10 seconds


# --- a raw client that says exactly the bytes a test wants --------------------------------


class Raw:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer, self.frames = reader, writer, FrameReader()
        self.inbox: list[Message] = []

    @classmethod
    async def open(cls, port: int) -> Raw:
        return cls(*await asyncio.open_connection(LOCAL, port))

    def send(self, *msgs: Message) -> None:
        self.writer.write(b"".join(encode(m) for m in msgs))

    async def recv(self, timeout: float = 5.0) -> Message | None:
        """The next message, or None once the host has closed the connection."""
        while not self.inbox:
            try:
                data = await asyncio.wait_for(self.reader.read(65536), timeout)
            except ConnectionResetError:
                return None
            if not data:
                return None
            self.inbox.extend(self.frames.feed(data))
        return self.inbox.pop(0)

    async def until_closed(self, timeout: float = 10.0) -> list[Message]:
        got: list[Message] = []
        async with asyncio.timeout(timeout):
            while (msg := await self.recv(timeout)) is not None:
                got.append(msg)
        return got

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


async def rejection(raw: Raw) -> Rejected:
    """The next ``rejected`` (lobbies and the like pass by)."""
    while True:
        msg = await raw.recv()
        assert msg is not None, "the host closed the connection"
        if isinstance(msg, Rejected):
            return msg


def last_refusal(got: list[Message]) -> Refused:
    assert got and isinstance(got[-1], Refused), got[-3:]
    readable(got[-1].reason)
    return got[-1]


async def untouched(table: Table) -> None:
    """Nobody else noticed: every peer still connected, and the game ends for all."""
    for peer in table.peers:
        assert peer.link is not None and not peer.link.closed, peer.name
        assert peer.closed_reason is None, (peer.name, peer.closed_reason)
    await table.finish()


# --- the password --------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_a_password_room_admits_who_knows_it_refuses_the_rest_and_says_so_on_the_lan(
        data_dir: Path) -> None:
    async def main() -> None:
        name = f"password test {os.getpid()}"
        cfg = config(data_dir, autostart=3, password=PASSWORD, announce=True,
                     interfaces=[LOCAL])
        cfg.host_name = name
        table = Table(Host(GAME, config=cfg))
        browser = Browser(interfaces=[LOCAL])
        await browser.start()
        try:
            port = await table.host.start()

            def found(hosts: dict[str, FoundHost]) -> bool:
                return any(h.host_name == name and h.port == port and h.password
                           for h in hosts.values())

            assert await browser.wait_for(found, 15)  # TXT pw=1: a window asks first
            for given in (None, "grüne bohnen", ""):
                with pytest.raises(JoinError) as refused:
                    await Peer("Guess", password=given).connect(LOCAL, port)
                assert refused.value.code == "password"
                readable(refused.value.reason)
            raw = await Raw.open(port)  # an answer that is not an answer
            raw.send(Hello(PROTOCOL_VERSION, "Raw"))
            assert isinstance(await raw.recv(), Challenge)
            raw.send(Chat("let me in"))
            assert last_refusal(await raw.until_closed()).code == "password"
            await raw.close()
            assert table.host.room.seats == []  # no failed guess took a seat

            table.host.add_bot()  # the host's own bot knows the password too
            ada = await table.seat("Ada", "drive", seed=1, password=PASSWORD)
            await table.seat("Bea", "drive", seed=2, password=PASSWORD)
            await ada.wait_until(lambda p: p.view is not None and p.state_id >= 3, 20)
            back = asyncio.Event()
            ada.listeners.append(lambda event, _: back.set() if event == "reconnected"
                                 else None)
            ada.drop()  # back by herself: the password is remembered, like the token
            await asyncio.wait_for(back.wait(), 10)
            await untouched(table)
            assert len(table.host.room.seats) == 3
        finally:
            await browser.stop()
            await table.close()

    run(main())


def test_the_password_never_crosses_the_network(data_dir: Path) -> None:
    async def main() -> None:
        table = Table(Host(GAME, config=config(data_dir, password=PASSWORD)))
        port = await table.host.start()
        try:
            raw = await Raw.open(port)
            raw.send(Hello(PROTOCOL_VERSION, "Raw"))
            challenge = await raw.recv()
            assert isinstance(challenge, Challenge)
            sent = encode(Answer(proof(PASSWORD, challenge.nonce, challenge.salt)))
            assert PASSWORD.encode() not in sent
            raw.writer.write(sent)
            assert isinstance(await raw.recv(), Welcome)
            await raw.close()
        finally:
            await table.close()

    run(main())


# --- limits --------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_too_many_connections_are_refused_full_but_a_returning_seat_gets_in(
        data_dir: Path) -> None:
    async def main() -> None:
        table = Table(Host(GAME, config=config(data_dir, autostart=3, max_peers=4)))
        port = await table.host.start()
        try:
            players = [await table.seat(f"Bot {i}", "drive", seed=i) for i in range(3)]
            await table.seat("Watcher", "none", spectate=True)
            with pytest.raises(JoinError) as refused:
                await Peer("One too many", spectate=True).connect(LOCAL, port)
            assert refused.value.code == "full"
            readable(refused.value.reason)
            # Bot 0's laptop moved to another network before the host noticed the old
            # connection was gone: its token still gets the seat back, full or not.
            old = players[0]
            moved = Peer(old.name, bot=True, token=old.token)
            await moved.connect(LOCAL, port)
            assert moved.seat == old.seat
            await old.wait_until(lambda p: p.closed_reason is not None, 5)
            table.peers.remove(old)
            table.seat_peer(moved, seed=7)
            await table.finish()
        finally:
            await table.close()

    run(main())


@pytest.mark.timeout(40)
def test_slow_handshakes_and_oversized_frames_are_refused_and_nobody_else_notices(
        data_dir: Path) -> None:
    async def main() -> None:
        cfg = config(data_dir, autostart=3, handshake_timeout=0.3, password=PASSWORD)
        table = Table(Host(GAME, config=cfg))
        port = await table.host.start()
        try:
            for i in range(3):
                await table.seat(f"Bot {i}", "drive", seed=i, password=PASSWORD)
            silent = await Raw.open(port)  # never says hello
            assert last_refusal(await silent.until_closed()).code == "timeout"
            mute = await Raw.open(port)  # says hello, never answers the challenge
            mute.send(Hello(PROTOCOL_VERSION, "Mute"))
            got = await mute.until_closed()
            assert isinstance(got[0], Challenge) and last_refusal(got).code == "timeout"
            huge = await Raw.open(port)  # a length prefix past the limit, before any hello
            huge.writer.write(struct.pack(">I", MAX_FRAME + 1))
            refusal = last_refusal(await huge.until_closed())
            assert refusal.code == "malformed" and str(HANDSHAKE_FRAME) in refusal.reason
            for raw in (silent, mute, huge):
                await raw.close()
            await untouched(table)
        finally:
            await table.close()

    run(main())


# --- the rate limit ------------------------------------------------------------------------


@pytest.mark.timeout(40)
def test_a_flood_is_throttled_then_cut_off_and_the_game_goes_on(data_dir: Path) -> None:
    async def main() -> None:
        table = Table(Host(GAME, config=config(data_dir, autostart=3, bot_delay=0.005)))
        port = await table.host.start()
        try:
            for i in range(3):
                await table.seat(f"Bot {i}", "drive", seed=i)
            await table.peers[0].wait_until(lambda p: p.view is not None, 10)
            flood = await Raw.open(port)
            flood.send(Hello(PROTOCOL_VERSION, "Flood", spectate=True))
            assert isinstance(await flood.recv(), Welcome)
            flood.send(*[Chat(f"spam {n}") if n % 2 else Intent(n, 0, {"type": "play"})
                         for n in range(1000)])
            got = await flood.until_closed()
            rate = [m for m in got if isinstance(m, Rejected) and m.code == "rate"]
            assert rate and rate[0].reason == "Slow down: too many moves at once."
            assert len(rate) == 200  # the 201st refusal within 10 s ends it
            assert last_refusal(got).code == "flood"
            await flood.close()
            spam = [c for c in table.peers[0].chat if c.text.startswith("spam")]
            assert 0 < len(spam) <= 40  # only what the bucket let through was shown
            await untouched(table)
        finally:
            await table.close()

    run(main())


@pytest.mark.timeout(40)
def test_a_short_burst_is_slowed_down_not_cut_off(data_dir: Path) -> None:
    async def main() -> None:
        # A slow refill: the 60 frames are handled long before one token is back.
        table = Table(Host(GAME, config=config(data_dir, rate=2.0, burst=25.0)))
        port = await table.host.start()
        try:
            raw = await Raw.open(port)
            raw.send(Hello(PROTOCOL_VERSION, "Eager", spectate=True))
            assert isinstance(await raw.recv(), Welcome)
            raw.send(*[Intent(n, 0, {"type": "play"}) for n in range(60)])
            answers = [await rejection(raw) for _ in range(60)]
            assert [m.code for m in answers] == ["no_game"] * 25 + ["rate"] * 35
            await asyncio.sleep(0.6)  # the bucket refills at 2 a second
            raw.send(Intent(99, 0, {"type": "play"}))
            again = await rejection(raw)
            assert (again.id, again.code) == (99, "no_game")
            assert raw.writer.transport is not None and not raw.writer.is_closing()
            await raw.close()
        finally:
            await table.close()

    run(main())


@pytest.mark.timeout(30)
def test_honest_fast_bots_are_never_slowed_down(data_dir: Path) -> None:
    """Moves the game accepts give their token back: bots playing a whole game at full
    speed, far more moves than a small bucket holds, are never throttled."""
    async def main() -> None:
        table = Table(Host(GAME, config=config(data_dir, autostart=2, rate=1.0, burst=5.0)))
        await table.host.start()
        try:
            for i in range(2):
                await table.seat(f"Bot {i}", "drive", seed=i)
            await table.finish()
            session = table.host.session
            assert session is not None
            assert min(sum(e.seat == s for e in session.log) for s in (0, 1)) > 20
            assert all(r.code != "rate" for p in table.peers for r in p.rejections)
        finally:
            await table.close()

    run(main())
