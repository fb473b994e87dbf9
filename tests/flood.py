"""A handshake flood from many loopback addresses (issue 23, finding 9), for the tests
and for measuring: every address keeps some connections idle in the handshake and
others guessing the password as fast as the host answers, each one reopened the
moment the host closes it. Bounded: it runs until ``stop`` is set, from at most
``addresses`` addresses of 127.0.0.0/8 (never 127.0.0.1, which the real player uses).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from resilience import LOCAL

from lanplay.peer.peer import JoinError, Peer
from protocol.codec import FrameReader, encode
from protocol.messages import PROTOCOL_VERSION, Answer, Challenge, Hello, Message, Refused


def address(i: int) -> str:
    """The ``i``-th attacker's address: 127.0.0.2, 127.0.0.3, ..."""
    return f"127.0.{(i + 2) // 256}.{(i + 2) % 256}"


@dataclass
class Tally:
    connects: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    """What the host answered the guessers with: "password" is one answer checked."""


async def _recv(reader: asyncio.StreamReader, frames: FrameReader,
                inbox: list[Message]) -> Message | None:
    while not inbox:
        data = await reader.read(65536)
        if not data:
            return None
        inbox.extend(frames.feed(data))
    return inbox.pop(0)


async def _one(port: int, source: str, guess: bool, tally: Tally) -> None:
    """One attacker connection, again and again: idle after its hello (``guess`` False)
    or a wrong answer to every challenge, as fast as the verdicts come."""
    n = 0
    while True:
        try:
            reader, writer = await asyncio.open_connection(LOCAL, port, local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(0.01)
            continue
        tally.connects += 1
        frames, inbox = FrameReader(), []
        try:
            writer.write(encode(Hello(PROTOCOL_VERSION, "Flood")))
            got = await _recv(reader, frames, inbox)
            if guess and isinstance(got, Challenge):
                n += 1
                writer.write(encode(Answer(f"{n:064x}")))
                got = await _recv(reader, frames, inbox)
            if isinstance(got, Refused):
                tally.verdicts[got.code] += 1
            while got is not None:  # idle: wait for the host to let go
                got = await _recv(reader, frames, inbox)
        except (OSError, ValueError):
            pass
        finally:
            writer.close()


@contextlib.asynccontextmanager
async def flooding(port: int, addresses: int = 40, idle: int = 4, guessing: int = 4
                   ) -> AsyncIterator[Tally]:
    """The flood runs inside the block; its tally is yielded (and final after it)."""
    tally = Tally()
    tasks = [asyncio.create_task(_one(port, address(i), kind, tally))
             for i in range(addresses) for kind in [False] * idle + [True] * guessing]
    try:
        yield tally
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def admissions(port: int, password: str, tries: int, timeout: float = 5.0
                     ) -> list[str]:
    """A new player with the right password joins ``tries`` times from 127.0.0.1:
    "in" for each welcome, the refusal's code (or "timeout") otherwise."""
    out: list[str] = []
    for _ in range(tries):
        peer = Peer("Newcomer", password=password, spectate=True, reconnect_for=0)
        try:
            await asyncio.wait_for(peer.connect(LOCAL, port, timeout=timeout), timeout + 1)
        except JoinError as exc:
            out.append(exc.code)
            continue
        except (TimeoutError, OSError):
            out.append("timeout")
            continue
        out.append("in")
        await peer.close()
    return out
