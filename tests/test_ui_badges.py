"""Every table, the log, the room and the end screen draw the seats' badges.

Each game at its most seats, with names whose initials all collide ("Bot 1",
"Bot 2", ..., "Ben"): every seat disc any table paints (plates, stones, the
turn line, the log, Ranagedon's frogs) must carry one of the seats' badges
from ``lanplay.badges`` ("B1", "Be"), never the bare initial "B" that would
make them alike, and the tables that list every seat show every badge.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from PyQt6.QtWidgets import QApplication

from lanplay import games
from lanplay.badges import badges
from lanplay.game import mode_of
from lanplay.peer.keeper import Laptops
from lanplay.session import Session
from protocol.messages import Lobby
from ui.look import icons
from ui.pages.game.end_screen import EndScreen
from ui.pages.room import RoomPage
from ui.tables import look, table_for

CASES = [("alles-klar", None), ("ranking", None), ("ranking-top", None), ("ranagedon", None),
         ("s-tier", "cooperative"), ("s-tier", "competitive"), ("s-tier", "team")]
LISTS_EVERY_SEAT = {"alles-klar", "ranking", "ranking-top", "s-tier"}
TOKENS = {"s-tier": {"G", "R"}}
"""Discs that are no seat's: S-tier's green and red track tokens."""
COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
           "#FFFFFF")


def crowd(players: int) -> list[dict[str, Any]]:
    names = [f"Bot {i + 1}" for i in range(players - 1)] + ["Ben"]
    return [{"name": n, "colour": COLOURS[i % len(COLOURS)], "bot": n != "Ben",
             "connected": True, "ready": True, "owner": i == 0} for i, n in enumerate(names)]


@pytest.fixture
def discs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The letters of every seat disc drawn (tables, log, room, end screen)."""
    drawn: list[str] = []
    draw_disc = look.draw_disc
    badge_pixmap = icons.badge_pixmap

    def record_disc(painter: Any, centre: Any, radius: float, colour: Any,
                    letter: str, **kw: Any) -> None:
        drawn.append(letter)
        draw_disc(painter, centre, radius, colour, letter, **kw)

    def record_badge(name: str, colour: str, size: int, **kw: Any) -> Any:
        drawn.append(kw.get("text") or icons.initials(name))
        return badge_pixmap(name, colour, size, **kw)

    monkeypatch.setattr(look, "draw_disc", record_disc)
    monkeypatch.setattr(icons, "badge_pixmap", record_badge)
    yield drawn


def played(game_id: str, mode: str | None, players: int,
           steps: int) -> tuple[Session, Laptops]:
    """A seeded game some moves in, each seat's secrets on its own laptop."""
    game = games.load(game_id)
    session = Session(game, players, mode, seed=11)
    laptops = Laptops(game, random.Random(11))
    rng = random.Random(11)
    for _ in range(steps):
        if session.result is not None or not session.actors():
            break
        owed = laptops.due(session.state)
        if owed is not None:
            session.submit(*owed)
            continue
        seat = min(session.actors())
        action = game.bot(laptops.shown(session.state, seat), seat, rng)
        if action is None:
            break
        session.submit(seat, laptops.send(session.state, seat, action))
    return session, laptops


@pytest.mark.parametrize(("game_id", "mode"), CASES, ids=lambda c: str(c))
def test_every_table_draws_each_seats_badge_at_its_most_seats(
        qapp: QApplication, discs: list[str], game_id: str, mode: str | None) -> None:
    game = games.load(game_id)
    players = mode_of(game, mode).max_players
    seats = crowd(players)
    expected = {b.text for b in badges(seats)}
    assert len(expected) == players and "B" not in expected
    session, laptops = played(game_id, mode, players, steps=3 * players)
    table: Any = table_for(game_id)()
    table.resize(1280, 760)
    table.show()
    try:
        you = players - 1  # Ben
        table.set_view(laptops.shown(session.state, you), seats, you, False)
        qapp.processEvents()
        table.grab()
        shown = set(discs) - TOKENS.get(game_id, set())
        assert shown, "the table drew no seat disc at all"
        assert shown <= expected, f"discs not from the seats' badges: {shown - expected}"
        if game_id in LISTS_EVERY_SEAT:
            assert shown == expected, f"seats without their badge: {expected - shown}"
    finally:
        table.close()
        table.deleteLater()


def test_the_room_and_the_end_screen_show_the_same_badges(qapp: QApplication,
                                                          discs: list[str]) -> None:
    seats = crowd(5)
    expected = [b.text for b in badges(seats)]
    room = RoomPage()
    room.show_lobby(Lobby("Ben", "alles-klar", "standard", {}, seats, "lobby"), 4, False)
    assert [row["badge"].mark for row in room.seat_rows] == expected  # type: ignore[attr-defined]
    end = EndScreen()
    discs.clear()
    end.show_result({"winners": [4], "scores": [3, 1, 4, 1, 5]}, seats, 4)
    assert sorted(discs) == sorted(expected)
    room.deleteLater()
    end.deleteLater()
