"""Spectators over real TCP: the room names who watches; a watcher takes a free seat
between games (the ``sit`` room command) and is then a player with a token."""

from __future__ import annotations

import asyncio

from nethelpers import LOCAL, Tasks, hosting, run, seat

from lanplay.peer.peer import Peer


def test_the_lobby_names_the_watchers_and_a_watcher_sits_between_games() -> None:
    async def scenario() -> None:
        tasks = Tasks()
        async with hosting("watchers", bot_delay=0.0) as host:
            ann = await seat(host, "Ann", tasks, token=host.owner_token)
            eve = Peer("Eve", "#CC79A7", spectate=True)
            await eve.connect(LOCAL, host.port)
            tasks.add(eve.run())
            await ann.wait_until(lambda p: p.lobby is not None
                                 and p.lobby.watchers == ["Eve"], 10)
            assert ann.lobby is not None and ann.lobby.spectators == 1
            assert eve.seat is None and not eve.token

            eve.control("sit")
            await eve.wait_until(lambda p: p.seat == 1 and p.lobby is not None
                                 and len(p.lobby.seats) == 2, 10)
            assert eve.token and not eve.spectate, "a seat's token, to come back to it"
            assert eve.lobby is not None and eve.lobby.watchers == []
            assert eve.lobby.seats[1]["name"] == "Eve"
            assert eve.lobby.seats[1]["colour"] == "#CC79A7"

            eve.control("sit")  # already seated
            await eve.wait_until(lambda p: any(r.code == "seated" for r in p.rejections), 10)

            for peer in (ann, eve):
                peer.control("ready", ready=True)
            await ann.wait_until(lambda p: p.lobby is not None and p.lobby.problem is None, 10)
            ann.control("start")
            await ann.wait_until(lambda p: p.view is not None, 10)
            ivy = Peer("Ivy", spectate=True)
            await ivy.connect(LOCAL, host.port)
            tasks.add(ivy.run())
            await ivy.wait_until(lambda p: p.view is not None, 10)
            assert ivy.view is not None and ivy.view.get("hand") in (None, [])
            ivy.control("sit")  # a game is being played: not now
            await ivy.wait_until(lambda p: any(r.code == "started" for r in p.rejections), 10)
            await ann.wait_until(lambda p: p.lobby is not None
                                 and p.lobby.watchers == ["Ivy"], 10)
            await asyncio.wait_for(ivy.close(), 5)
            await ann.wait_until(lambda p: p.lobby is not None and p.lobby.watchers == [], 10)
        await tasks.join()

    run(scenario())
