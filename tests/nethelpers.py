"""Shared pieces of the tests that play over real TCP on 127.0.0.1: a host, peers seated
at it, their tasks (which must stop with the host), and the checks a finished game ends
with. Kept in one place so every such test waits and checks the same way."""

from __future__ import annotations

import asyncio
import contextlib
import random
import zlib
from collections.abc import AsyncIterator, Callable, Collection
from typing import Any

from lanplay import games
from lanplay.host import Host, HostConfig
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from protocol.messages import Rejected

LOCAL = "127.0.0.1"


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def join_tasks(tasks: Collection[asyncio.Task[Any]]) -> None:
    """Await peers' tasks after their host stopped; one still running fails the test."""
    _, pending = await asyncio.wait(tasks, timeout=10) if tasks else ((), ())
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert not pending, "a peer did not stop when the host said goodbye"


class Tasks:
    """Peers' tasks, awaited at the end (a peer that outlives its host fails the test)."""

    def __init__(self) -> None:
        self.tasks: list[asyncio.Task[Any]] = []

    def add(self, coro: Any) -> None:
        self.tasks.append(asyncio.create_task(coro))

    async def join(self) -> None:
        await join_tasks(self.tasks)


@contextlib.asynccontextmanager
async def hosting(host_name: str = "session test", **config: Any) -> AsyncIterator[Host]:
    """An Alles klar? host listening on 127.0.0.1 (seed 5 unless told), stopped after."""
    config.setdefault("seed", 5)
    host = Host("alles-klar", config=HostConfig(host_name=host_name, bind=LOCAL, port=0,
                                                **config))
    await host.start()
    try:
        yield host
    finally:
        await host.stop("test over")


async def seat(host: Host, name: str, tasks: Tasks, *, bot_seed: int | None = None,
               **kwargs: Any) -> Peer:
    """Connect a peer; a bot_seed makes it a bot played by lanplay.peer.bots.drive. Its
    contributions to the shuffle are seeded too (by bot_seed, else by its name), so a
    seeded host plays the same game again."""
    kwargs.setdefault("contribution_seed",
                      bot_seed if bot_seed is not None else zlib.crc32(name.encode()))
    peer = Peer(name, bot=bot_seed is not None, **kwargs)
    await peer.connect(LOCAL, host.port)
    tasks.add(drive(peer, bot_seed) if bot_seed is not None else peer.run())
    return peer


async def host_until(host: Host, done: Callable[[Host], bool], timeout: float = 20) -> None:
    """Wait until ``done(host)`` holds after some event of the host (or already does)."""
    reached = asyncio.Event()

    def on_event(what: str) -> None:
        if done(host):
            reached.set()

    host.listeners.append(on_event)
    try:
        if not done(host):
            await asyncio.wait_for(reached.wait(), timeout)
    finally:
        host.listeners.remove(on_event)


async def play_out(peer: Peer, rng: random.Random,
                   until: Callable[[Peer], bool] | None = None) -> None:
    """Play ``peer``'s seat with the game's own bot until the game is over (or
    ``until(peer)`` holds on its turn)."""
    game = games.load(peer.game_id)
    acted = -1

    def my_move(p: Peer) -> bool:
        return p.result is not None or (
            p.view is not None and p.view["turn"] == p.seat and p.state_id != acted)

    while True:
        await peer.wait_until(my_move, 20)
        if peer.result is not None or (until is not None and until(peer)):
            return
        assert peer.view is not None and peer.seat is not None
        action = game.bot(peer.view, peer.seat, rng)
        assert action is not None
        acted = peer.state_id
        peer.intent(action)


async def all_agree(host: Host, peers: list[Peer]) -> dict[str, Any]:
    """The game ends; every peer holds the host's result, which is returned."""
    await asyncio.wait_for(host.finished.wait(), 30)
    assert host.session is not None and host.session.result is not None
    result = host.session.result.to_wire()
    for peer in peers:
        await peer.wait_until(lambda p: p.result is not None, 10)
        assert peer.result == result, peer.name
    return result


async def rejected(peer: Peer, send: Callable[[], int]) -> Rejected:
    """Send something with ``send`` (returns its id) and wait for its rejection."""
    before = len(peer.rejections)
    ident = send()
    await peer.wait_until(lambda p: len(p.rejections) > before, 5)
    answer = peer.rejections[-1]
    assert answer.id == ident
    return answer
