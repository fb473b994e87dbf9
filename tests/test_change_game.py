"""Changing the game inside an open room: the seats stay where the new range allows.

The room's rule (bots leave first, then people from the last seat, never the
owner) without sockets, and over real TCP: a person with no seat in the new
game watches on, and may take a seat again when one frees up.
"""

from __future__ import annotations

from nethelpers import LOCAL, Tasks, hosting, run, seat

from lanplay.peer.peer import Peer
from lanplay.room import Room


def test_bots_leave_first_then_people_from_the_last_seat_never_the_owner() -> None:
    room = Room("alles-klar")
    for name, bot in (("Ann", False), ("Bot 1", True), ("Ben", False), ("Bot 2", True),
                      ("Cy", False)):
        room.add(name, bot=bot, owner=name == "Ann")
    gone = room.set_game("ranagedon", None, {})  # 2-4 players
    assert [s.name for s in gone] == ["Bot 2"]
    assert [s.name for s in room.seats] == ["Ann", "Bot 1", "Ben", "Cy"]
    room.move(0, 3)  # the owner sits last now
    gone = room.set_game("s-tier", "competitive", {})  # 4-11: everyone fits
    assert gone == [] and room.mode == "competitive"
    room.add("Dee")
    room.add("Eve")
    gone = room.set_game("ranagedon", None, {})
    assert [s.name for s in gone] == ["Bot 1", "Eve"]
    assert [s.name for s in room.seats] == ["Ben", "Cy", "Ann", "Dee"]
    last = Room("alles-klar")
    for name in ("Ben", "Cy", "Dee", "Eve"):
        last.add(name)
    last.add("Ann", owner=True)  # the owner sits last: the person before goes
    assert [s.name for s in last.set_game("ranagedon", None, {})] == ["Eve"]
    room.phase = "over"
    gone = room.set_game("alles-klar", None, {})
    assert gone == [] and room.phase == "lobby", "between games: back to the room"


def test_over_tcp_a_person_without_a_seat_in_the_new_game_watches_on() -> None:
    async def scenario() -> None:
        tasks = Tasks()
        async with hosting("change", bot_delay=0.0) as host:
            ann = await seat(host, "Ann", tasks, token=host.owner_token)
            for _ in range(2):
                host.add_bot()
            await ann.wait_until(lambda p: p.lobby is not None and len(p.lobby.seats) == 3, 10)
            ben = await seat(host, "Ben", tasks)
            cy = await seat(host, "Cy", tasks)
            await cy.wait_until(lambda p: p.lobby is not None and len(p.lobby.seats) == 5, 10)
            ann.control("set_game", game="ranagedon", options={})  # 2-4: one too many
            await ann.wait_until(lambda p: p.lobby is not None and p.lobby.game == "ranagedon"
                                 and len(p.lobby.seats) == 4, 10)
            assert ann.lobby is not None
            assert [s["name"] for s in ann.lobby.seats] == ["Ann", "Bot 1", "Ben", "Cy"]
            ann.control("remove_seat", seat=1)
            await ann.wait_until(lambda p: p.lobby is not None and len(p.lobby.seats) == 3, 10)
            ann.control("set_game", game="alles-klar", options={})
            await ann.wait_until(lambda p: p.lobby is not None
                                 and p.lobby.game == "alles-klar", 10)
            # Five people in Alles klar?; Ranagedon seats four: the last person watches on.
            dee = await seat(host, "Dee", tasks)
            eve = await seat(host, "Eve", tasks)
            await eve.wait_until(lambda p: p.lobby is not None and len(p.lobby.seats) == 5, 10)
            ann.control("set_game", game="ranagedon", options={})
            await eve.wait_until(lambda p: p.seat is None, 10)
            assert eve.spectate and eve.token is None
            await ann.wait_until(lambda p: p.lobby is not None
                                 and p.lobby.watchers == ["Eve"], 10)
            assert [s["name"] for s in ann.lobby.seats] == ["Ann", "Ben", "Cy", "Dee"]
            assert ben.seat == 1 and cy.seat == 2 and dee.seat == 3
            assert any("no seat for you" in c.text for c in eve.chat)
            ann.control("remove_seat", seat=3)
            await eve.wait_until(lambda p: p.lobby is not None and len(p.lobby.seats) == 3, 10)
            eve.control("sit")
            await eve.wait_until(lambda p: p.seat == 3 and bool(p.token), 10)
            assert isinstance(eve, Peer)
        await tasks.join()

    assert LOCAL
    run(scenario())
