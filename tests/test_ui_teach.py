"""The table teaches: the first time a person plays a game, its table walks them
through a first turn in three short steps pointing at the real pieces, each gone by a
click or by doing it; remembered per game, so the next game of it stays quiet."""

from __future__ import annotations

from pathlib import Path

from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.pages.game.page import GamePage
from ui.services.settings import Settings
from ui.tables.teach import STEPS
from ui.tools.demos.ranking_top import demo_seats, real_views


def test_every_game_has_a_first_turn_walk_through() -> None:
    from lanplay import games

    ids = [game.id for game in games.available()]
    assert sorted(ids) == sorted(STEPS)
    for game in ids:
        assert 3 <= len(STEPS[game]) <= 5


def test_the_first_game_is_walked_through_once_and_remembered(qtbot: QtBot,
                                                              tmp_path: Path) -> None:
    settings = Settings(name="Mia", path=tmp_path / "settings.json")
    page = GamePage()
    qtbot.addWidget(page)
    page.resize(1024, 600)
    page.show()
    seats = demo_seats(3, 2)
    before, at = real_views(3)["turn"]
    seat = at[None]["current"]

    def remember(game: str) -> None:
        settings.taught.append(game)
        settings.save()

    page.set_game("ranking-top")
    page.set_seats(seats, seat, False)
    page.set_teaching(settings.taught, remember)
    page.set_view(before[seat], animate=False)
    page.set_view(at[seat], animate=False)
    walk = page.walkthrough
    assert walk is not None and not walk.isHidden() and walk.step == 0
    hand = page.table.teach_spot("hand")
    assert hand is not None and walk.frame.geometry().contains(hand.center())
    assert "hand" in walk.text.text()
    walk.ok.click()  # dismissed by a click
    assert walk.step == 1 and not walk.frame.isHidden()
    chart = page.table.teach_spot("chart")
    assert chart is not None and walk.frame.geometry().contains(chart.center())
    page.table.intent.emit({"type": "pass"})  # ... or by doing something
    assert walk.step == 2
    walk.ok.click()
    assert walk.isHidden() and settings.taught == ["ranking-top"]
    assert Settings.load(tmp_path).taught == ["ranking-top"]
    page.game_id = ""  # the next game of it: quiet
    page.set_game("ranking-top")
    page.set_teaching(Settings.load(tmp_path).taught, remember)
    page.set_view(at[seat], animate=False)
    QApplication.processEvents()
    walk = getattr(page, "walkthrough", None)
    assert walk is None or walk.parentWidget() is not page.table or walk.isHidden()


def test_a_spectator_is_not_walked_through(qtbot: QtBot) -> None:
    page = GamePage()
    qtbot.addWidget(page)
    page.show()
    _before, at = real_views(3)["turn"]
    page.set_game("ranking-top")
    page.set_seats(demo_seats(3, 2), None, False)
    page.set_teaching([], lambda game: None)
    page.set_view(at[None], animate=False)
    assert getattr(page, "walkthrough", None) is None


def test_a_tour_goes_with_its_table_when_the_game_changes(qtbot: QtBot) -> None:
    """The room's owner changes the game while the first game's tour is up: the old
    table (and the tour over it) is deleted, and the next view builds the new game's
    tour, instead of reaching the deleted one (the window died at the second game)."""
    from PyQt6.QtCore import QCoreApplication, QEvent

    from ui.tools.demos import ranking

    page = GamePage()
    qtbot.addWidget(page)
    page.resize(1024, 600)
    page.show()
    taught: list[str] = []
    before, at = real_views(3)["turn"]
    seat = at[None]["current"]
    page.set_game("ranking-top")
    page.set_seats(demo_seats(3, 2), seat, False)
    page.set_teaching(taught, taught.append)
    page.set_view(before[seat], animate=False)
    page.set_view(at[seat], animate=False)
    assert page.walkthrough is not None and page.walkthrough.active

    page.set_game("ranking")  # the owner's "Change game…"
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    _before, views = ranking.real_views(4)["place"]
    page.set_seats(ranking.demo_seats(4), 0, False)
    page.set_view(views[0], animate=False)  # raised RuntimeError: Walkthrough deleted
    walk = page.walkthrough
    assert walk is not None and walk.active and walk.parentWidget() is page.table
    assert "tower" in " ".join(w for _key, w in walk.steps)
    assert taught == []  # the first tour was cut short, not finished: it is not remembered
