"""A peer's long work (the audit's replay) waits its turn behind the loop's other work."""

from __future__ import annotations

import asyncio


def test_a_peer_lets_other_work_run_before_it_replays_an_audit() -> None:
    """Two peers in one loop each get a delta then an audit in one read: both apply
    their delta before either replays its audit (the replay takes milliseconds; a
    window's redraw, another connection, must not wait behind it)."""
    import hostile

    from lanplay.net.link import Link
    from lanplay.peer.peer import Peer
    from protocol.codec import encode
    from protocol.messages import Audit, Bye, Delta, Snapshot

    events: list[str] = []
    frames = b"".join(encode(m) for m in (
        Snapshot(0, hostile.game_view()), Delta(0, 1, [[0, ["turn"], 1]]),
        Audit(1, "alles-klar", "standard", {}, "00" * 32, [], [], [], 0, 0), Bye("done")))

    async def main() -> None:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(frames)
            await writer.drain()
            await reader.read()  # until the peer closes

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        peers = []
        readers = []
        for name in ("A", "B"):
            peer = Peer(name, reconnect_for=0)
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            peer.link = Link(reader, writer)
            peer.listeners.append(lambda event, _, name=name: events.append(f"{name} {event}")
                                  if event in ("view", "audit") else None)
            peers.append(peer)
            readers.append(reader)

        async def arrived() -> None:  # both sockets hold every frame before the peers read
            while any(len(r._buffer) < len(frames) for r in readers):
                await asyncio.sleep(0.001)

        await asyncio.wait_for(arrived(), 10)
        await asyncio.wait_for(asyncio.gather(*(p.run() for p in peers)), 5)
        server.close()
        await server.wait_closed()

    asyncio.run(main())
    assert sorted(events[:4]) == ["A view", "A view", "B view", "B view"], events
    assert sorted(events[4:]) == ["A audit", "B audit"], events
