"""One badge per seat, the same on every laptop; a person's colour wins over a bot's.

The badges are a pure function of the lobby's seat list (``lanplay.badges``);
the colour rule is the room's (``lanplay.room``), checked here without sockets
and once over real TCP with a host bot that took the colour first.
"""

from __future__ import annotations

import asyncio

import pytest
from nethelpers import LOCAL, Tasks, hosting, run, seat

from lanplay import games
from lanplay.badges import FALLBACK, badge, badges, initial
from lanplay.game import player_range
from lanplay.room import PALETTE, Room

ORANGE, SKY = PALETTE[0], PALETTE[1]


def seats_of(names: list[str], colours: list[str] | None = None) -> list[dict[str, object]]:
    colours = colours or [PALETTE[i % len(PALETTE)] for i in range(len(names))]
    return [{"name": n, "colour": c} for n, c in zip(names, colours, strict=True)]


def test_initials_that_collide_take_a_number_or_a_second_letter() -> None:
    shown = [b.text for b in badges(seats_of(["Bot 1", "Bot 2", "Bot 3", "Ben", "Ann"]))]
    assert shown == ["B1", "B2", "B3", "Be", "A"]
    assert [b.text for b in badges(seats_of(["Mia", "Ben"]))] == ["M", "B"]
    assert [b.text for b in badges(seats_of(["Ben", "Ben 2"]))] == ["Be", "B2"]


def test_names_that_stay_alike_fall_back_to_their_place_among_the_initial() -> None:
    assert [b.text for b in badges(seats_of(["Anna", "Anne", "Bo"]))] == ["A1", "A2", "B"]
    assert [b.text for b in badges(seats_of(["Ann", "ann", "Ann"]))] == ["A1", "A2", "A3"]
    assert initial("  \u00e9mile") == "\u00c9" and initial("...") == "?"


def test_a_seat_without_a_usable_colour_gets_one_by_its_number() -> None:
    marks = badges([{"name": "Ada", "colour": ""}, {"name": "Bo", "colour": "red; x"},
                    {"name": "Cy", "colour": "#56b4e9"}])
    assert [m.colour for m in marks] == [FALLBACK[0], FALLBACK[1], SKY]
    assert badge([], 3).text == "4"


@pytest.mark.parametrize("entry", games.CATALOGUE, ids=lambda e: e.id)
def test_badges_are_unique_per_table_for_every_game_at_its_most_seats(entry: object) -> None:
    game = games.load(entry.id)  # type: ignore[attr-defined]
    most = player_range(game)[1]
    crowds = [
        [f"Bot {i + 1}" for i in range(most - 1)] + ["Ben"],
        ["Ben", "Bea", "Bob", "Bo", "Ben 2", "Bert"] * 3,
        ["Sam"] * most,
        [f"Player {i + 1}" for i in range(most)],
    ]
    for names in crowds:
        names = names[:most]
        marks = badges(seats_of(names))
        texts = [m.text for m in marks]
        assert len(set(texts)) == len(texts) == len(names), (entry, names, texts)
        assert all(1 <= len(t) <= 3 for t in texts), texts
        assert badges(seats_of(names)) == marks, "the same seats give the same badges"


# --- colours ------------------------------------------------------------------------------


def test_a_persons_chosen_colour_wins_over_a_bots() -> None:
    room = Room("alles-klar")
    owner = room.add("Ann", SKY, owner=True)
    bot = room.add("Bot 1", bot=True)
    assert bot.colour == ORANGE, "a bot takes the first colour nobody uses"
    mia = room.add("Mia", ORANGE)
    assert mia.colour == ORANGE, "the person who chose orange gets it"
    assert bot.colour not in (ORANGE, SKY) and bot.colour in PALETTE
    assert len({s.colour for s in room.seats}) == 3
    ben = room.add("Ben", SKY)
    assert owner.colour == SKY and ben.colour not in (SKY, ORANGE, bot.colour), \
        "a person's colour is not taken from another person"


def test_a_colour_outside_the_palette_is_not_kept() -> None:
    room = Room("alles-klar")
    seat_ = room.add("Eve", '#000"><b>')
    assert seat_.colour == ORANGE


def test_the_colour_choice_over_real_tcp() -> None:
    """A host bot takes orange first; a joiner who chose orange gets it, the bot moves,
    and every peer's lobby says so."""
    async def scenario() -> None:
        tasks = Tasks()
        async with hosting("colours", bot_delay=0.0) as host:
            ann = await seat(host, "Ann", tasks, colour=SKY)
            host.add_bot()
            await ann.wait_until(lambda p: p.lobby is not None and len(p.lobby.seats) == 2
                                 and p.lobby.seats[1]["bot"], 10)
            assert ann.lobby is not None and ann.lobby.seats[1]["colour"] == ORANGE
            mia = await seat(host, "Mia", tasks, colour=ORANGE)
            for peer in (ann, mia):
                await peer.wait_until(lambda p: p.lobby is not None
                                      and len(p.lobby.seats) == 3, 10)
            assert mia.lobby is not None
            colours = [s["colour"] for s in mia.lobby.seats]
            assert colours[2] == ORANGE, "Mia chose orange and got it"
            assert colours[1] not in (ORANGE, SKY), "the bot moved to a free colour"
            assert ann.lobby is not None and [s["colour"] for s in ann.lobby.seats] == colours
            await asyncio.wait_for(mia.close(), 5)
        await tasks.join()

    assert LOCAL
    run(scenario())
