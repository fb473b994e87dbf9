"""Issue 23, finding 10: ``lanplay join --bot --record`` kept every frame received in
memory until the game ended, so a host sending frames without end grew the bot
without a limit. The recorder now writes each frame as it comes: while the host is
still sending, what was received is already on disk, and the bot holds none of it."""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path

import hostile

from lanplay.peer.peer import Peer
from lanplay.peer.recording import FrameRecorder
from protocol.messages import Bye

CHUNK = "z" * 30_000


def test_frames_are_on_disk_while_the_host_still_sends(tmp_path: Path) -> None:
    sent_half = asyncio.Event()
    go_on = asyncio.Event()

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.welcome())
        for i in range(200):
            writer.write(hostile.raw({"type": "chat", "text": f"{i} {CHUNK}",
                                      "sender": "Mallory", "seat": 1}))
            await writer.drain()
            if i == 99:
                sent_half.set()
                await go_on.wait()
        writer.write(hostile.msg(Bye("done")))
        await writer.drain()
        await reader.read()

    recording = FrameRecorder(tmp_path)

    async def main() -> tuple[int, int]:
        async with hostile.hostile_host(script) as port:
            peer = Peer("Ann", reconnect_for=0, dead_after=30, recorder=recording.write)
            await peer.connect("127.0.0.1", port, timeout=5)
            task = asyncio.create_task(peer.run())
            await asyncio.wait_for(sent_half.wait(), 20)
            await peer.wait_until(lambda p: any(c.text.startswith("99 ") for c in p.chat), 20)
            on_disk_midway = recording.part.stat().st_size
            go_on.set()
            await asyncio.wait_for(task, 20)
            return on_disk_midway, recording.count

    midway, count = asyncio.run(asyncio.wait_for(main(), 40))
    assert midway >= 100 * len(CHUNK)  # the first hundred frames, written as they came
    path = recording.finish(0)
    assert path.name == "peer-0.frames" and not recording.part.exists()
    data = path.read_bytes()
    bodies, at = 0, 0
    while at < len(data):
        (size,) = struct.unpack(">I", data[at:at + 4])
        at += 4 + size
        bodies += 1
    assert at == len(data) and bodies == count >= 202  # welcome, 200 chats, bye
