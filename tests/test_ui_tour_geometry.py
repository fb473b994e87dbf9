"""Every step of every tour, at the smallest window and a large one, in English and
German: the bubble lies inside the table, its words are whole, and it never lies
over a control a person may use now that it does not point at (the pieces that can
be taken, the table's buttons and lists, Ranking Top's countdown and TOP!/Pass).

Each game is played on by the rules' own bots while the tour is up (a step goes on
only every few views), so the tour meets the moments a first game brings: other
players' moves, a top window opening mid-tour, a choice. The window is a real
``MainWindow`` at that size, its game page fed the views as a party feeds them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PyQt6.QtCore import QPoint, QRect
from PyQt6.QtWidgets import QAbstractButton, QAbstractItemView, QApplication, QWidget
from ui_harness import keep_look  # noqa: F401

from lanplay import games, locale
from lanplay.session import Session
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.tables.teach import STEPS, Walkthrough, tour_key
from ui.tools.demos import kit
from ui.tools.screenshots import as_on_screen
from ui.window.window import MainWindow

SIZES = ((1000, 592), (1920, 1080))
CASES = (("alles-klar", "", 4), ("ranking", "", 5), ("ranking-top", "", 4),
         ("ranagedon", "", 4), ("s-tier", "cooperative", 4), ("s-tier", "competitive", 5),
         ("s-tier", "team", 6))
ME = 1
"""The seat the window sits in (not the first to move: the tour meets others' moves)."""


class Play:
    """A seeded game played by bots, seen from one seat."""

    def __init__(self, game: str, mode: str, players: int, seed: int = 11) -> None:
        self.rng = random.Random(seed)
        if game == "s-tier":
            from ui.tools.demos.s_tier import Game as STierGame

            self.stier: Any = STierGame(mode, players, seed=seed)
            self.session: Session | None = None
        else:
            self.stier = None
            self.session = Session(games.load(game), players, seed=seed)

    def view(self, seat: int) -> dict[str, Any]:
        if self.session is not None:
            return self.session.view(seat)
        return dict(self.stier.view(self.stier.state, seat))

    def over(self) -> bool:
        if self.session is not None:
            return self.session.result is not None
        return bool(self.stier.state.phase == "over")

    def step(self) -> None:
        if self.session is not None:
            kit.bot_step(self.session, self.rng)
        else:
            self.stier.step()


@pytest.fixture(params=["en", "de"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    locale.set_language(request.param)
    try:
        yield request.param
    finally:
        locale.set_language(None)


def live_controls(table: QWidget, walk: Walkthrough) -> list[tuple[str, QRect]]:
    """What a person may use on ``table`` now, found anew here: every visible, enabled
    button (the pieces' stand-ins among them) and list, and what the table names."""
    out: list[tuple[str, QRect]] = []
    for widget in table.findChildren(QWidget):
        if walk is widget or walk.isAncestorOf(widget) or widget is walk.frame:
            continue
        if not widget.isVisible() or not widget.isEnabled():
            continue
        if isinstance(widget, QAbstractButton | QAbstractItemView) \
                or widget.property("teach_live"):
            name = widget.accessibleName() or widget.objectName() or type(widget).__name__
            out.append((name, QRect(widget.mapTo(table, QPoint(0, 0)), widget.size())))
    avoid = getattr(table, "teach_avoid", None)
    for rect in (avoid() if callable(avoid) else []):
        out.append(("named by the table", rect))
    return out


def check(table: QWidget, walk: Walkthrough, where: str) -> None:
    bubble = walk.geometry()
    assert table.rect().contains(bubble), f"{where}: the bubble {bubble} leaves the table"
    for name, rect in live_controls(table, walk):
        assert not rect.intersects(bubble), \
            f"{where}: the bubble {bubble} lies over {name!r} at {rect}"
    text = walk.text
    assert text.height() >= text.heightForWidth(text.width()), f"{where}: the words are cut"
    for button in (walk.ok, walk.skip):
        assert button.width() >= button.sizeHint().width() - 2, f"{where}: {button.text()}"


def run_tour(game: str, mode: str, players: int, size: tuple[int, int],
             seen: Callable[[MainWindow, int], None] | None = None) -> list[int]:
    """Play until the tour of ``game`` is done, checking every step at every view;
    the steps checked (each at least once)."""
    settings = Settings(name="Mia", taught=[], path=None)
    win = MainWindow(settings, NetConfig(interfaces=["127.0.0.1"], port=0, save=False))
    try:
        as_on_screen(win, size)  # 1000x592 as a 1024x640 screen gives it (not 1000x600)
        win.show()
        page = win.game
        win.show_page(page)
        seats = kit.seat_maps(["Ann", "Mia", "Ben", "Lea", "Tom", "Eva"],
                              ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7",
                               "#D55E00"], players, players - 1)
        seats[ME]["bot"] = False
        page.set_game(game)
        page.set_seats(seats, ME, False)
        taught: list[str] = []
        page.set_teaching([], taught.append)
        play = Play(game, mode, players)
        checked: set[int] = set()
        views = 0
        while not taught and not play.over() and views < 400:
            page.set_view(play.view(ME), animate=False)
            for _turn in range(3):  # the table lays itself out, the tour follows
                QApplication.processEvents()
            walk = page.walkthrough
            if walk is not None and walk.active:
                where = f"{game} {mode} {size} step {walk.step + 1}"
                check(page.table, walk, where)
                checked.add(walk.step)
                if seen is not None:
                    seen(win, walk.step)
                if views % 3 == 2:  # read: on to the next step now and then
                    walk.ok.click()
            views += 1
            play.step()
        assert taught == [tour_key(game, mode)], f"{game} {mode}: no end in {views} views"
        return sorted(checked)
    finally:
        win.close()
        win.deleteLater()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}".rstrip("-"))
def test_every_step_of_every_tour_keeps_off_the_live_controls(
        qapp: QApplication, keep_look: None, language: str,  # noqa: F811
        case: tuple[str, str, int],
        size: tuple[int, int]) -> None:
    game, mode, players = case
    steps = run_tour(game, mode, players, size)
    assert steps == list(range(len(STEPS[tour_key(game, mode)])))


def test_a_top_window_mid_tour_finds_its_controls_free(
        qapp: QApplication, keep_look: None) -> None:  # noqa: F811
    """Ranking Top: another player plays while my tour is up; the window opens at once
    (the bubble moves, it does not wait) and TOP!/Pass and the countdown stay free."""
    met: list[str] = []

    def seen(win: MainWindow, step: int) -> None:
        table: Any = win.game.table
        if table.top_button.isVisible():
            met.append("top")
            assert not table.top_button.geometry().isNull()

    run_tour("ranking-top", "", 4, (1000, 592), seen)
    assert met, "no top window opened while the tour was up"

