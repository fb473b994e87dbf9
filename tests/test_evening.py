"""An evening in one window: seven tables in a row, as a first-time group plays them.

Three real windows, each with a fresh data folder and settings (so every table's
tour shows as for a first-time player), in German, one of them at 1000x592 (the
window a 1024x640 screen gives): Ann hosts, Ben and Cem join from their lists, bots
fill the other seats. Alles klar? is played to its end by keys, then once more with
"Play again"; "Change game…" takes the room to S-tier cooperative, competitive and
team, each played to its end; then Ann closes the room and opens a new one for each
of Ranking, Ranking Top and Ranagedon, which the guests join from their lists and
play from the tour to their first moves.

Every key goes to the widget that has the focus (``QApplication.focusWidget()``), of
the window that is active, as a person's would; the game's own bot chooses the move
(``test_keyboard_play``'s players carry it by keys). At every step: every window is
alive and caught nothing (its ``SlipGuard`` would have saved it: a slip fails the
test), shows the right table, its tour ended by Enter or Esc with the keys back on
the table, and the keys play.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PyQt6 import sip
from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QApplication
from test_keyboard_play import PLAYERS, focus, my_turn, on_table, press, until_focus
from ui_harness import LOOPBACK, Runner, aloop, click, close, unique, until  # noqa: F401

from lanplay import locale
from ui.dialogs.confirm import Confirm
from ui.dialogs.host_dialog import HostDialog
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.tables.teach import STEPS, tour_key
from ui.tools.screenshots import as_on_screen
from ui.window.window import MainWindow

TABLES = {"alles-klar": "AllesKlarTable", "ranking": "RankingTable",
          "ranking-top": "RankingTopTable", "ranagedon": "RanagedonTable",
          "s-tier": "STierTable"}
"""The class of each game's table, by name (the right table is shown)."""


@pytest.fixture
def german() -> Iterator[None]:
    locale.set_language("de")
    try:
        yield
    finally:
        locale.set_language(None)


def fresh(tmp: Path, name: str, colour: str, size: tuple[int, int]) -> MainWindow:
    """A window as on a laptop that has never played: no game taught, its own folder."""
    folder = tmp / name
    settings = Settings(name=name, colour=colour, path=folder / "settings.json",
                        host_hint_seen=True)
    net = NetConfig(interfaces=LOOPBACK, bind="127.0.0.1", port=0, bot_delay=0.0, seed=7,
                    save=True, pace=0.0, data_dir=str(folder / "data"))
    win = MainWindow(settings, net)
    win.guard_slips()  # as ui.app.run does: a slip is caught, and fails this test below
    as_on_screen(win, size)  # 1000x592 as a 1024x640 screen gives it (not 1000x600)
    win.show()
    return win


class Evening:
    """The three windows and what the test checks of them at every step."""

    def __init__(self, host: MainWindow, guests: list[MainWindow]) -> None:
        self.host = host
        self.guests = guests
        self.all = [host, *guests]
        self.rng = random.Random(31)
        self.sent: dict[MainWindow, list[dict[str, Any]]] = {w: [] for w in self.all}
        for win in self.all:
            win.game.intent.connect(self.sent[win].append)

    def alive(self) -> None:
        for win in self.all:
            assert not sip.isdeleted(win) and win.isVisible(), f"{win.settings.name} died"
            assert not win.slips, f"{win.settings.name} slipped: {win.slips}"

    def table_is(self, win: MainWindow, game: str) -> None:
        assert type(win.game.table).__name__ == TABLES[game], \
            f"{win.settings.name} shows {type(win.game.table).__name__} for {game}"

    async def active(self, win: MainWindow) -> None:
        """``win`` takes the keys, as a click on its title bar gives them."""
        win.activateWindow()
        await until_focus(lambda: win.isActiveWindow() and QApplication.focusWidget()
                          is not None and win.isAncestorOf(QApplication.focusWidget()), 5)

    async def tour(self, win: MainWindow, game: str, close_it: bool) -> None:
        """The tour on ``win``'s table, read with Enter to its end or closed with Esc;
        then the keys are the table's and the game is remembered as taught."""
        await self.active(win)
        walk = win.game.walkthrough
        assert walk is not None and walk.active and walk.isVisible()
        assert on_table(win), f"{win.settings.name}: the tour took the focus: {focus()!r}"
        if close_it:
            press(Qt.Key.Key_Escape)
        else:
            for _step in walk.steps:
                press(Qt.Key.Key_Return)
        assert not walk.active and walk.isHidden()
        assert on_table(win), f"{win.settings.name}: after the tour the focus is {focus()!r}"
        view = win.game.view or {}
        key = tour_key(game, view.get("mode"))
        assert walk.steps == STEPS[key]
        assert key in Settings.load(win.settings.path.parent).taught  # type: ignore[union-attr]

    async def play(self, game: str, until_end: bool, moves: int = 2,
                   tours: bool = True) -> None:
        """Each person's tour (``tours``: a game this laptop has played shows none),
        then their moves by keys: to the end, or until each has made ``moves`` after
        their tour (a person whose tour waits for their own turn plays meanwhile)."""
        toured: set[MainWindow] = set()
        made = {w: 0 for w in self.all}
        rounds = 0

        def done() -> bool:
            if until_end:
                return all(w.game.end.isVisible() for w in self.all)
            return all(made[w] >= moves and (w in toured or not tours) for w in self.all)

        def waiting() -> bool:  # a person who has made their moves plays on for the others
            return done() or any(self._tour_up(w) or my_turn(w) for w in self.all)

        while not done():
            rounds += 1
            assert rounds < 2000, f"{game}: the evening does not get on"
            try:
                await until(waiting, 40, *self.all)
            except TimeoutError:
                raise AssertionError(f"{game}: nobody can act: {self.state()}") from None
            self.alive()
            for win in self.all:
                self.table_is(win, game)
                if self._tour_up(win):
                    assert tours, f"{win.settings.name}: {game}'s tour shown twice"
                    await self.tour(win, game, close_it=win is self.guests[0])
                    toured.add(win)
                    made[win] = 0  # the first moves are those after the tour
                    break
                if my_turn(win):
                    await self.move(win, game)
                    made[win] += 1
                    break
        self.alive()
        assert toured == (set(self.all) if tours else set()), \
            f"{game}: no tour for {[w.settings.name for w in self.all if w not in toured]}"

    def state(self) -> str:
        """Where each window and the host are (for a failure's message)."""
        said = []
        for win in self.all:
            view = win.conn.peer.view if win.conn is not None else None
            said.append(f"{win.settings.name}: seat {win.conn and win.conn.peer.seat} "
                        f"phase {view and view.get('phase')} actors "
                        f"{view and view.get('actors')} page "
                        f"{type(win.stack.currentWidget()).__name__}")
        host = self.host.conn.host if self.host.conn is not None else None
        session = host.session if host is not None else None
        if session is not None:
            said.append(f"host: actors {sorted(session.actors())} "
                        f"state {session.state_id} result {session.result}")
        return "; ".join(said)

    def _tour_up(self, win: MainWindow) -> bool:
        walk = win.game.walkthrough
        return walk is not None and walk.active and walk.isVisible() \
            and win.stack.currentWidget() is win.game

    async def move(self, win: MainWindow, game: str) -> None:
        """One decision of ``win``'s player, by keys, and its answer from the host."""
        await self.active(win)
        conn = win.conn
        assert conn is not None and conn.peer.view is not None and conn.peer.seat is not None
        table: Any = win.game.table
        if hasattr(table, "_finish_animation"):
            table._finish_animation()
        else:
            table.board.finish()
        assert on_table(win), f"{win.settings.name} at {game}: the focus left the table: " \
            f"{focus()!r}"
        view, before, said = conn.peer.view, conn.peer.state_id, len(self.sent[win])
        PLAYERS[game](table, view, conn.peer.seat, self.rng)
        if len(self.sent[win]) == said:  # keys that only build (a note, a reveal read)
            await asyncio.sleep(0)
            return
        await until(lambda: conn.peer.state_id > before or len(conn.peer.rejections) > 0
                    or win.game.end.isVisible(), 15, *self.all)
        conn.peer.rejections.clear()

    async def ready_and_start(self, game: str, mode: str) -> None:
        """Everyone says they are ready in the room; Ann starts; every table appears."""
        await until(lambda: all(w.lobby is not None and w.lobby.game == game
                                and w.lobby.mode == mode and w.stack.currentWidget()
                                is w.room for w in self.all), 20, *self.all)
        for win in self.all:
            if not win.room.ready_button.isChecked():
                click(win.room.ready_button)
        host = self.host
        await until(lambda: host.lobby is not None and host.lobby.problem is None
                    and host.room.start_button.isEnabled(), 20, *self.all)
        click(host.room.start_button)
        await until(lambda: all(w.stack.currentWidget() is w.game and w.conn is not None
                                and w.conn.peer.view is not None for w in self.all),
                    20, *self.all)

    async def open_room(self, game: str, mode: str, options: dict[str, Any],
                        seats: int) -> None:
        """Ann opens a room from Home; the guests join it from their lists."""
        host = self.host
        click(host.home.host)
        dialog = host.dialog
        assert isinstance(dialog, HostDialog)
        dialog.select_game(game)
        dialog.mode.setCurrentIndex(dialog.mode.findData(mode))
        for key, value in options.items():
            dialog.set_option(key, value)
        click(dialog.host)
        await until(lambda: host.lobby is not None and host.lobby.game == game, 20, host)
        assert host.conn is not None and host.conn.host is not None
        port = host.conn.host.port
        for guest in self.guests:
            def found(g: MainWindow = guest) -> Any:
                return next((h for h in g.home._found.values()
                             if h.host_name == host.settings.name and h.port == port), None)
            await until(lambda f=found: f() is not None, 20, guest)  # type: ignore[misc]
            await self.active(guest)
            tree = guest.home.hosts
            item = guest.home.item_for(found().service)
            assert item is not None
            tree.setFocus()
            tree.setCurrentItem(item)
            press(Qt.Key.Key_Return)
            await until(lambda g=guest: g.lobby is not None, 20, guest)  # type: ignore[misc]
        while host.lobby is not None and len(host.lobby.seats) < seats:
            count = len(host.lobby.seats)
            click(host.room.add_bot_button)
            await until(lambda c=count: host.lobby is not None  # type: ignore[misc]
                        and len(host.lobby.seats) > c, 15, host)
        await self.ready_and_start(game, mode)

    async def change_game(self, game: str, mode: str, options: dict[str, Any]) -> None:
        """Ann, at the end screen: "Change game…"; the room stays, so do the seats."""
        host = self.host
        assert host.game.end.change_button.isVisible()
        click(host.game.end.change_button)
        change = host.dialog
        assert isinstance(change, HostDialog) and change.for_room
        change.select_game(game)
        change.mode.setCurrentIndex(change.mode.findData(mode))
        for key, value in options.items():
            change.set_option(key, value)
        click(change.host)
        await self.ready_and_start(game, mode)

    async def play_again(self) -> None:
        """Everyone presses "Play again" (Enter on the end screen); the next game starts
        at the same table, its tour not shown twice."""
        for win in self.all:
            await self.active(win)
            await until_focus(lambda w=win: w.game.end.isAncestorOf(  # type: ignore[misc]
                QApplication.focusWidget()), 5)
            assert focus() is win.game.end.again_button
            press(Qt.Key.Key_Return)
        await until(lambda: all(not w.game.end.isVisible() and w.conn is not None
                                and w.conn.peer.view is not None
                                and not w.conn.peer.view.get("over") for w in self.all),
                    20, *self.all)

    async def close_room(self) -> None:
        """Ann closes the room (after its question). Between games the guests read why
        and go Home; mid-game the game is paused (Ann's laptop saved it), the guests'
        windows say so and keep their seats, and they leave for Home themselves."""
        host = self.host
        button = host.game.end.leave_button if host.game.end.isVisible() \
            else host.game.leave_button
        click(button)
        question = host.dialog
        assert isinstance(question, Confirm), "closing a room with others in it asks first"
        click(question.yes_button)

        def told(g: MainWindow) -> bool:
            paused = g.conn is not None and bool(g.conn.peer.paused)
            return g.stack.currentWidget() is g.gone or (paused and bool(g.banner.text.text()))

        await until(lambda: host.party is None and host.stack.currentWidget() is host.home
                    and all(told(g) for g in self.guests), 20, *self.all)
        for guest in self.guests:
            if guest.stack.currentWidget() is guest.gone:
                click(guest.gone.home)
                continue
            click(guest.game.leave_button)  # a paused game: Leave goes Home
            question = guest.dialog
            if isinstance(question, Confirm):
                click(question.yes_button)
        await until(lambda: all(g.stack.currentWidget() is g.home and g.party is None
                                for g in self.guests), 10, *self.all)
        self.alive()


@pytest.mark.timeout(400)
def test_an_evening_of_seven_tables_in_three_windows(aloop: Runner, tmp_path: Path,  # noqa: F811
                                                     german: None) -> None:
    async def scenario() -> None:
        ann = fresh(tmp_path, unique("Ann"), "#E69F00", (1280, 800))
        ben = fresh(tmp_path, unique("Ben"), "#56B4E9", (1000, 592))
        cem = fresh(tmp_path, unique("Cem"), "#009E73", (1024, 640))
        evening = Evening(ann, [ben, cem])
        try:
            for win in evening.all:
                await win.start()
            await evening.open_room("alles-klar", "standard", {"hand_size": 5}, 4)
            await evening.play("alles-klar", until_end=True)
            await evening.play_again()
            await evening.play("alles-klar", until_end=True, tours=False)
            for mode, options in (("cooperative", {"coop_track": 3}), ("competitive", {}),
                                  ("team", {"team_track": 3})):
                await evening.change_game("s-tier", mode, options)
                await evening.play("s-tier", until_end=True)
            for game in ("ranking", "ranking-top", "ranagedon"):
                await evening.close_room()
                await evening.open_room(game, "standard", {}, 4)
                await evening.play(game, until_end=False)
            evening.alive()
        finally:
            for win in evening.all:
                if win.guard is not None:
                    win.guard.uninstall()
            await close(*evening.all)

    aloop(scenario(), 380)
