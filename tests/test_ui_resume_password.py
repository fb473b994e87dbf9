"""A window resumes a password room whose save holds only the room's key (issue 12,
finding 9): its own seat answers the challenge with that key, nobody types the
password again, and the room still refuses who does not know it."""

from __future__ import annotations

from pathlib import Path

import pytest
from resilience import GAME, LOCAL, Table, config
from ui_harness import Runner, aloop  # noqa: F401

from lanplay.host import Host
from lanplay.peer.peer import JoinError, Peer
from ui.services.connection import Connection, NetConfig

PASSWORD = "Apfelstrudel"


@pytest.mark.timeout(60)
def test_a_window_resumes_its_password_room_from_a_save_without_the_password(
        aloop: Runner, data_dir: Path) -> None:  # noqa: F811
    async def scenario() -> None:
        table = Table(Host(GAME, config=config(data_dir, password=PASSWORD, autostart=3)))
        host = table.host
        await host.start()
        conn: Connection | None = None
        try:
            await table.seat("Owner", "steady", seed=1, password=PASSWORD,
                             token=host.owner_token)
            for i in range(2):
                await table.seat(f"Bot {i}", "steady", seed=2 + i, password=PASSWORD)
            await table.kill_at(5)
            path = host.save_path
            assert path is not None and PASSWORD.encode() not in path.read_bytes()
            for peer in table.peers:
                peer.reconnect_for = 0
            net = NetConfig(interfaces=[LOCAL], bind=LOCAL, port=0, data_dir=data_dir)
            conn = await Connection.resume_game("Owner", "#E69F00", net, path)
            assert conn.host is not None and conn.peer.owner and conn.peer.seat == 0
            with pytest.raises(JoinError) as refused:
                await Peer("Guess", password="apfelstrudel").connect(LOCAL, conn.host.port)
            assert refused.value.code == "password"
        finally:
            if conn is not None:
                await conn.leave()
            await table.close()

    aloop(scenario(), 50)
