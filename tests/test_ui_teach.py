"""The table teaches: the first time a person plays a game, its table walks them
through a first turn in three short steps pointing at the real pieces, each gone by a
click or by doing it; remembered per game, so the next game of it stays quiet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.pages.game.page import GamePage
from ui.services.settings import Settings
from ui.tables.teach import STEPS, tour_key
from ui.tools.demos.ranking_top import demo_seats, real_views


def test_every_game_has_a_first_turn_walk_through() -> None:
    from lanplay import games

    keys = sorted(tour_key(game.id, mode.id) for game in games.available()
                  for mode in game.modes)
    assert sorted(set(keys)) == sorted(STEPS)  # every tour is some game's (or mode's)
    assert "s-tier/competitive" in keys and "s-tier/team" in keys  # a tour each mode
    for key in keys:
        assert 3 <= len(STEPS[key]) <= 5


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


def _ranking_top_page(qtbot: QtBot, taught: list[str]) -> tuple[GamePage, int]:
    page = GamePage()
    qtbot.addWidget(page)
    page.resize(1280, 760)
    page.show()
    qtbot.waitExposed(page)
    page.activateWindow()
    before, at = real_views(3)["turn"]
    seat = at[None]["current"]
    page.set_game("ranking-top")
    page.set_seats(demo_seats(3, 2), seat, False)
    page.set_teaching(taught, taught.append)
    page.set_view(before[seat], animate=False)
    page.set_view(at[seat], animate=False)
    QApplication.processEvents()
    return page, seat


def _on_table(page: GamePage) -> bool:
    focus = QApplication.focusWidget()
    return focus is page.table or (focus is not None and page.table.isAncestorOf(focus))


def test_a_tour_takes_enter_and_esc_and_leaves_the_keys_to_the_table(qtbot: QtBot) -> None:
    """Enter goes on, Esc closes; the bubble's buttons never take the focus, so after
    the tour (read, skipped or closed) the table's keys play at once."""
    from PyQt6.QtCore import Qt
    from PyQt6.QtTest import QTest

    taught: list[str] = []
    page, _seat = _ranking_top_page(qtbot, taught)
    walk = page.walkthrough
    assert walk is not None and walk.active and _on_table(page)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert walk.step == 1 and not page.panel.isVisible()  # Enter was the tour's, not chat's
    QTest.mouseClick(walk.ok, Qt.MouseButton.LeftButton)  # a click on the bubble ...
    assert walk.step == 2 and _on_table(page)  # ... leaves the keys on the table
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    assert not walk.active and walk.isHidden() and taught == ["ranking-top"]
    assert _on_table(page)
    sent: list[dict[str, object]] = []
    page.intent.connect(sent.append)
    table = page.table
    key = next(t.key for t in table.keys.targets() if t.enabled and t.key)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key(ord(key)))  # a card's key ...
    chooser = table.chooser
    assert chooser.isVisible()  # ... opens its choice, taken by its own keys
    number = next(i for i, b in enumerate(chooser.buttons[:-1]) if b.isEnabled()) + 1
    QTest.keyClick(QApplication.focusWidget(), Qt.Key(ord(str(number))))
    assert sent and not chooser.isVisible()


def test_a_key_pressed_after_a_click_on_the_bar_still_plays(qtbot: QtBot) -> None:
    from PyQt6.QtCore import Qt
    from PyQt6.QtTest import QTest

    page, _seat = _ranking_top_page(qtbot, ["ranking-top"])
    page.sound_button.setFocus()  # as a click on "Sound on" leaves it
    assert QApplication.focusWidget() is page.sound_button
    table = page.table
    key = next(t.key for t in table.keys.targets() if t.enabled and t.key)
    QTest.keyClick(page.sound_button, Qt.Key(ord(key)))
    assert table.chooser.isVisible()


def test_a_choice_takes_its_keys_wherever_the_focus_is_on_the_table(qtbot: QtBot) -> None:
    """Ranking's "Bell up (1)": the choice's keys work with the focus on a piece or on
    the table itself, not only on the choice's own buttons."""
    from PyQt6.QtCore import Qt
    from PyQt6.QtTest import QTest

    from ui.tools.demos import ranking

    page = GamePage()
    qtbot.addWidget(page)
    page.resize(1280, 760)
    page.show()
    qtbot.waitExposed(page)
    page.activateWindow()
    _before, at = ranking.real_views(4)["compare"]
    seat = at[None]["current"]
    page.set_game("ranking")
    page.set_seats(ranking.demo_seats(4), seat, False)
    page.set_teaching(["ranking"], lambda game: None)
    page.set_view(at[seat], animate=False)
    QApplication.processEvents()
    table: Any = page.table
    sent: list[dict[str, object]] = []
    page.intent.connect(sent.append)
    first = next(t for t in table.tiles.values() if t.lit)
    table._tile_clicked(first)
    second = next(t for t in table.tiles.values() if t.lit)
    table._tile_clicked(second)
    assert table.chooser.isVisible()
    page.table.setFocus()  # the focus left the choice (a click on the felt, a tour)
    QApplication.processEvents()
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_1)
    assert sent and sent[-1]["type"] == "compare"


def test_while_a_tour_is_up_enter_is_the_tours_not_the_tables(qtbot: QtBot) -> None:
    """Ranagedon's deploy takes Enter as "Confirm": a person reading the tour with
    Enter must not deploy by it (the evening test did, then Enter opened the chat)."""
    from PyQt6.QtCore import Qt
    from PyQt6.QtTest import QTest

    from lanplay.session import Session
    from ui.tools.demos import ranagedon

    page = GamePage()
    qtbot.addWidget(page)
    page.resize(1280, 760)
    page.show()
    qtbot.waitExposed(page)
    page.activateWindow()
    session = Session(ranagedon.game(), 2, seed=5)
    page.set_game("ranagedon")
    page.set_seats(ranagedon.demo_seats(2), 0, False)
    taught: list[str] = []
    page.set_teaching(taught, taught.append)
    page.set_view(session.view(0), animate=False)
    QApplication.processEvents()
    sent: list[dict[str, object]] = []
    page.intent.connect(sent.append)
    walk = page.walkthrough
    assert walk is not None and walk.active
    for _step in walk.steps:
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert not walk.active and taught == ["ranagedon"] and sent == []
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)  # now: Confirm
    assert sent == [{"type": "deploy", "cluster": 0}] and not page.panel.isVisible()
