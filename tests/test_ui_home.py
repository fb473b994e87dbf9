"""Home: the first-run question, the live list with its marks, passwords, text size.

The hosts in the list are real zeroconf announcements on the loopback
interface: one from another lanplay version (marked, and not joinable), one
real host with a password (a lock; joining asks for it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtGui import QKeySequence
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from ui_harness import (  # noqa: F401
    LOOPBACK,
    Runner,
    aloop,
    click,
    close,
    double_click,
    keep_look,
    type_and_enter,
    unique,
    until,
    window,
)

from lanplay.host import Host, HostConfig
from lanplay.net.discovery import Announcement, Announcer
from protocol.messages import PROTOCOL_VERSION
from ui.dialogs.identity import IdentityDialog
from ui.dialogs.join_dialog import PasswordDialog
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.window.window import MainWindow


@pytest.mark.timeout(30)
def test_first_run_asks_name_and_colour_once_and_text_scales(aloop: Runner,  # noqa: F811
                                                             tmp_path: Path) -> None:
    async def scenario() -> None:
        folder = tmp_path / "config"
        win = MainWindow(Settings.load(folder), NetConfig(interfaces=LOOPBACK))
        win.show()
        try:
            await win.start()
            dialog = win.dialog
            assert isinstance(dialog, IdentityDialog) and dialog.isVisible()
            dialog.name.clear()
            assert not dialog.ok.isEnabled()  # a name is needed
            QTest.keyClicks(dialog.name, "Mia")
            purple = next(b for b in dialog.colours.buttons()
                          if b.property("colour") == "#CC79A7")
            click(purple)
            click(dialog.ok)
            assert win.home.you.text() == "Mia"
            saved = json.loads((folder / "settings.json").read_text())
            assert saved["name"] == "Mia" and saved["colour"] == "#CC79A7"
            assert not Settings.load(folder).first_run

            # Ctrl+plus makes all text bigger, Ctrl+0 goes back; the choice is kept.
            win.activateWindow()
            await until(lambda: win.isActiveWindow(), 5, win)
            before = QApplication.font().pointSizeF()
            QTest.keySequence(win, QKeySequence(QKeySequence.StandardKey.ZoomIn))
            assert QApplication.font().pointSizeF() > before
            assert json.loads((folder / "settings.json").read_text())["scale"] > 1
            QTest.keyClick(win, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
            assert QApplication.font().pointSizeF() == pytest.approx(before)

            # Help: no game, no rules yet; the pictures are always there.
            assert not win.rules_action.isEnabled()
            win.pictures_action.trigger()
            assert win.pictures is not None and win.pictures.isVisible()
            win.pictures.close()
        finally:
            await close(win)

        again = MainWindow(Settings.load(folder), NetConfig(interfaces=LOOPBACK))
        try:
            await again.start()
            assert again.dialog is None  # asked once only
            assert again.home.you.text() == "Mia"
        finally:
            await close(again)

    aloop(scenario(), 25)


@pytest.mark.timeout(60)
def test_list_marks_other_versions_and_asks_for_passwords(aloop: Runner,  # noqa: F811
                                                         tmp_path: Path) -> None:
    async def scenario() -> None:
        old_name, locked_name = unique("Old laptop"), unique("Locked")
        old = Announcer(Announcement(old_name, "alles-klar", 7598, 1, 5, "lobby",
                                     version=PROTOCOL_VERSION + 1), LOOPBACK)
        host = Host("alles-klar", config=HostConfig(
            host_name=locked_name, bind="127.0.0.1", port=0, announce=True,
            interfaces=LOOPBACK, password="sesame", save=False))
        win = window(tmp_path, "Ben")
        try:
            await win.start()
            # Nothing of ours announced yet (other tests may announce theirs).
            ours = {old_name, locked_name}

            def shown() -> dict[str, str]:
                return {h.host_name: h.service for h in win.home._found.values()
                        if h.host_name in ours}
            assert not shown()
            await old.start()
            await host.start()
            await until(lambda: len(shown()) == 2, 20, win)
            assert win.home.stack.currentWidget() is win.home.hosts

            # Another version: marked in words and with a drawn sign, greyed, not joinable.
            item = win.home.item_for(shown()[old_name])
            assert item is not None
            assert item.text(4) == "Other version"
            assert not item.icon(4).isNull()
            tree = win.home.hosts
            double_click(tree.viewport(), tree.visualItemRect(item).center())
            assert not win.home.join.isEnabled()
            assert "use the same lanplay version" in win.home.message.text()
            assert win.conn is None and win.home._busy is False

            # A password: a lock; joining asks, a wrong one is refused, the right one works.
            item = win.home.item_for(shown()[locked_name])
            assert item is not None and item.text(4) == "Password"
            assert not item.icon(4).isNull()
            double_click(tree.viewport(), tree.visualItemRect(item).center())
            dialog = win.dialog
            assert isinstance(dialog, PasswordDialog)
            type_and_enter(dialog.password, "guess")
            await until(lambda: isinstance(win.dialog, PasswordDialog)
                        and win.dialog is not dialog, 10, win)
            retry = win.dialog
            assert isinstance(retry, PasswordDialog)
            assert "Wrong password" in retry.error.text()
            type_and_enter(retry.password, "sesame")
            await until(lambda: win.lobby is not None, 10, win)
            assert win.stack.currentWidget() is win.room
            assert [s.name for s in host.room.seats] == ["Ben"]

            # Hosts that leave leave the list; with none left, the empty state says what to do.
            await host.stop()
            await old.stop()
            await until(lambda: not shown(), 20, win)
        finally:
            await close(win)
            await host.stop()
            await old.stop()

    aloop(scenario(), 55)


@pytest.mark.usefixtures("keep_look")
def test_empty_home_says_what_to_do(qtbot: QtBot, tmp_path: Path) -> None:
    win = window(tmp_path, "Ben")  # before discovery starts, nothing is listed
    qtbot.addWidget(win)
    assert win.home.stack.currentWidget() is win.home.empty
    assert win.home.empty.isVisible()
    text = win.home.empty_text.text()
    assert "Host a game" in text and "Join by address" in text
    assert win.home.addresses.text()  # this laptop's addresses, to tell others
    assert win.home.host.isEnabled() and win.home.join_address.isEnabled()
    assert not win.home.join.isEnabled()  # nothing selected to join


def _found(service: str, name: str, address: str, taken: int = 1,
           state: str = "lobby") -> object:
    from lanplay.net.discovery import FoundHost

    return FoundHost(service, name, "alles-klar", (address,), 7531, PROTOCOL_VERSION, taken,
                     5, state, False)


def test_rows_never_move_and_two_rooms_of_one_name_show_their_address(qtbot: QtBot) -> None:
    """The list re-sorted as seats filled, while the pointer was on it: a double-click
    joined the room that slid under it. And two rooms named "Mia" looked the same."""
    from ui.pages.home import HomePage

    home = HomePage()
    qtbot.addWidget(home)
    home.on_host("added", _found("b", "Ben", "192.168.1.21"))
    home.on_host("added", _found("m1", "Mia", "192.168.1.20"))
    home.on_host("added", _found("a", "Ada", "192.168.1.22"))

    def rows() -> list[str]:
        return [home.hosts.topLevelItem(i).text(0)  # type: ignore[union-attr]
                for i in range(home.hosts.topLevelItemCount())]

    assert rows() == ["Ada", "Ben", "Mia"]  # by name as they come
    home.on_host("updated", _found("b", "Ben", "192.168.1.21", taken=5, state="playing"))
    home.on_host("updated", _found("a", "Zoe's room", "192.168.1.22", taken=3))
    assert rows() == ["Zoe's room", "Ben", "Mia"]  # updated in place: nothing moved
    home.on_host("added", _found("m2", "Mia", "192.168.1.30"))
    assert rows()[2:] == ["Mia\n192.168.1.20", "Mia\n192.168.1.30"]
    home.on_host("removed", _found("m1", "Mia", "192.168.1.20"))
    assert rows()[-1] == "Mia"


def test_two_rooms_of_one_name_keep_their_address_whole_on_a_small_screen(
        qtbot: QtBot) -> None:
    """At a 1024x640 screen's window in German, with password and version marks widening
    the last column, "Lea \u00b7 192.168.1.21" was cut to "Lea \u00b7 \u2026" in the Host
    column: the address, the one thing that tells the two apart, was what went."""
    from dataclasses import replace

    from lanplay import locale
    from ui.pages.home import HomePage
    from ui.tools.fit import FitCheck

    locale.set_language("de")  # "Zusehen \u00b7 Passwort" widens the last column
    try:
        home = HomePage()
        qtbot.addWidget(home)
        home.resize(1000, 569)  # the home page of a 1000x592 window
        home.show()
        qtbot.waitExposed(home)
        home.on_host("added", _found("b", "Ben's laptop", "192.168.1.20"))
        for i, address in enumerate(("192.168.1.21", "192.168.1.22")):
            lea = _found(f"l{i}", "Lea", address, state="playing")
            home.on_host("added", replace(lea, password=True))  # type: ignore[type-var]
        for i in range(2):  # one laptop, two rooms: told apart by the port
            old = _found(f"o{i}", "Old laptop", "192.168.1.23")
            home.on_host("added", replace(old, port=7531 + i,  # type: ignore[type-var]
                                          version=1))
        fit = FitCheck((1000, 592))
        fit.screen("home", home)
        assert not [p for found in fit.screens.values() for p in found], fit.screens
        texts = [home.hosts.topLevelItem(i).text(0)  # type: ignore[union-attr]
                 for i in range(home.hosts.topLevelItemCount())]
        # the name on one line, what tells them apart whole on the next
        assert "Lea\n192.168.1.21" in texts and "Old laptop\n:7532" in texts, texts
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en


def test_the_button_says_watch_for_a_running_game_without_a_click(qtbot: QtBot) -> None:
    """The button read "Join" for a running game until it was selected."""
    from ui.pages.home import HomePage

    home = HomePage()
    qtbot.addWidget(home)
    home.on_host("added", _found("b", "Ben", "192.168.1.21", taken=3, state="playing"))
    assert home.selected() is not None and home.join.text() == "Watch"


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("name", ["Mia", "Maximiliane Mustermann", "Annemarie Schwarzenegger",
                                  "W" * 24])
def test_the_top_row_stays_whole_in_a_small_window(qtbot: QtBot, keep_look: None,  # noqa: F811
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   lang: str, name: str) -> None:
    """Home's top line in a 1024x640 screen's window (the page 1000x569): the title and
    its line, this laptop's addresses, your badge, your name and "Change name or
    colour…". With a long name (a name may have 24 letters) the row was wider than the
    window and Qt squeezed it: "Tabletop games with the people in this room" cut in
    English at 22 letters, the name and the line at 24 ("Annemarie Schwarzenegger") in
    every language; "Name oder Farbe ändern…" was seen cut (German, under X). The line
    under the title and the name wrap where they must; the button keeps its width."""
    from lanplay import locale
    from ui.look import theme
    from ui.pages import home as home_page
    from ui.tools.fit import FitCheck

    theme.apply(1.0)  # the window's look and text size
    monkeypatch.setattr(home_page, "local_addresses", lambda: ["192.168.178.23", "10.8.0.2"])
    locale.set_language(lang)
    try:
        home = home_page.HomePage()
        qtbot.addWidget(home)
        # the home page of a 1000x592 window, held there as the window holds it (alone, a
        # page grows to the width its row asks for and hides the fault)
        home.setFixedSize(1000, 569)
        home.set_identity(name, "#E69F00")
        home.show()
        qtbot.waitExposed(home)
        fit = FitCheck((1000, 592))
        with fit:
            found = fit.screen("home", home)
        assert not found, found
        change = home.change
        assert change.width() >= change.sizeHint().width(), (change.width(), change.sizeHint())
        assert change.geometry().right() < home.width() - 20  # inside the page's margin
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en
