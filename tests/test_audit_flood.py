"""Issue 23, finding 5: audit parts grew a peer without a byte limit (1,500 parts of
about 1 MiB each took a peer to 1.4 GB; the only cap was 200,000 entries) and gathered
parts stayed after the connection dropped. A peer now gathers at most
``MAX_AUDIT_BYTES`` of log, fails the audit past it, and forgets the parts when the
connection drops. Real TCP on 127.0.0.1 against a small hostile host."""

from __future__ import annotations

import asyncio
import tracemalloc

import hostile

from lanplay.fair.audit import MAX_AUDIT_BYTES, Gathered
from lanplay.peer.peer import Peer
from protocol.messages import Audit, Ping

ENTRIES = 120
PARTS = 40  # 40 x about 600 KB: 24 MB, three times the cap


def part(at: int) -> Audit:
    log = [[0, {"type": f"{at + i:06d}" + "m" * 5000}] for i in range(ENTRIES)]
    return Audit(1, "alles-klar", "standard", {}, "00" * 32, ["00" * 32], [0], log, at,
                 200_000)


def test_a_flood_of_audit_parts_stops_at_the_byte_cap_and_fails_the_audit() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.welcome())
        for i in range(PARTS):
            writer.write(hostile.msg(part(i * ENTRIES)))
            await writer.drain()
        writer.write(hostile.msg(Ping(7)))
        await writer.drain()
        await reader.read()

    async def main() -> tuple[Peer, int]:
        async with hostile.hostile_host(script) as port:
            peer = Peer("Ann", reconnect_for=0, dead_after=30)
            await peer.connect("127.0.0.1", port, timeout=5)
            tracemalloc.start()
            task = asyncio.create_task(peer.run())
            try:
                await peer.wait_until(lambda p: p.verdict is not None, 30)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
                await peer.close()
                await asyncio.wait_for(task, 10)
            return peer, peak

    peer, peak = asyncio.run(asyncio.wait_for(main(), 60))
    assert peer.verdict is not None and not peer.verdict.ok
    assert "larger than" in peer.verdict.summary() or "larger than" in str(peer.verdict)
    assert peak < 3 * MAX_AUDIT_BYTES, f"{peak} bytes held for the flood"


def test_parts_gathered_are_dropped_and_a_cap_resets_the_gathering() -> None:
    gathered = Gathered()
    assert gathered.add(part(0)) is None and gathered.size > 0
    gathered.drop()
    assert gathered.first is None and gathered.log == [] and gathered.size == 0
