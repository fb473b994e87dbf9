"""The window in German, and the language choice of Settings.

A real window speaks German (``lanplay --lang de`` sets the language before the
window is built): Home, the Host dialog, the room with a host's problem line, an
Alles klar? table with its banner and log rendered from the host's message keys,
F1's rules help and Qt's own dialog buttons (the qtbase translations PyQt6 ships).
The language chosen in Settings is written to the settings file and chosen again
at the next start, unless ``--lang`` or ``LANPLAY_LANG`` say otherwise; with no
choice the system's locale decides.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox
from ui_harness import Runner, aloop, click, close, until, window  # noqa: F401

from lanplay import locale
from ui.dialogs.host_dialog import HostDialog
from ui.dialogs.rules_help import RulesDialog
from ui.services.settings import Settings
from ui.words import i18n


@pytest.fixture
def german(qapp: QApplication) -> Iterator[None]:
    """This process speaks German, Qt's own words too; English again after."""
    locale.set_language("de")
    assert i18n.install_qt(qapp), "PyQt6 ships qtbase_de.qm"
    try:
        yield
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en
        i18n.install_qt(qapp)


def plain(text: str) -> str:
    return text.replace("&", "")


def test_qt_dialog_buttons_speak_german(german: None) -> None:
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                           | QDialogButtonBox.StandardButton.Cancel
                           | QDialogButtonBox.StandardButton.Close)
    cancel = box.button(QDialogButtonBox.StandardButton.Cancel)
    shut = box.button(QDialogButtonBox.StandardButton.Close)
    assert cancel is not None and plain(cancel.text()) == "Abbrechen"
    assert shut is not None and plain(shut.text()) == "Schließen"
    message = QMessageBox(QMessageBox.Icon.Question, "?", "?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    yes = message.button(QMessageBox.StandardButton.Yes)
    assert yes is not None and plain(yes.text()) == "Ja"


@pytest.mark.timeout(60)
def test_the_window_speaks_german_from_home_to_a_table(german: None, aloop: Runner,  # noqa: F811
                                                       tmp_path: Path) -> None:
    async def scenario() -> None:
        mia = window(tmp_path, "Mia", "#E69F00")
        try:
            await mia.start()
            assert mia.home.host.text() == "Spiel hosten\u2026"
            click(mia.home.host)
            dialog = mia.dialog
            assert isinstance(dialog, HostDialog) and dialog.windowTitle() == "Spiel hosten"
            dialog.select_game("alles-klar")
            assert dialog.host.text() == "Hosten"
            click(dialog.host)
            await until(lambda: mia.lobby is not None, 15, mia)

            # The room: its own words, and the host's problem rendered from its key.
            room = mia.room
            assert room.ready_button.text() == "Ich bin bereit"
            assert room.seats_heading.text().startswith("Plätze (1 von 5)")
            assert room.leave_button.text() == "Raum schließen"
            assert "Spieler" in room.problem.text() and "players" not in room.problem.text()
            click(room.add_bot_button)
            await until(lambda: mia.lobby is not None and len(mia.lobby.seats) == 2, 10, mia)
            assert room.problem.text() == "Wir warten auf dich: Drück \u201eIch bin bereit\u201c."

            # F1: the rules in German.
            mia.activateWindow()
            await until(lambda: mia.isActiveWindow(), 5, mia)
            QTest.keyClick(room, Qt.Key.Key_F1)
            rules = mia.rules_dialog
            assert isinstance(rules, RulesDialog)
            text = rules.text.toPlainText()
            assert "Ziel:" in text and "Tasten" in text and "Goal" not in text
            rules.close()
            await until(lambda: mia.rules_dialog is None, 5, mia)

            # A table: the banner, the bar and the log, all German.
            click(room.ready_button)
            await until(lambda: mia.lobby is not None and mia.lobby.problem is None, 10, mia)
            click(room.start_button)
            await until(lambda: mia.stack.currentWidget() is mia.game
                        and bool(mia.game.table.log_panel.lines()), 15, mia)
            table = mia.game.table
            assert table.banner.info.text().startswith("Stich ")
            assert table.banner.toggle.text() == "Protokoll ausblenden"
            assert table.log_panel.title.text() == "Protokoll"
            log = "\n".join(table.log_panel.lines())
            assert "Bot 1" in log or "Mia" in log
            english = ("leads", "plays", "turns", "wins")
            assert not any(f" {word} " in log for word in english), log
        finally:
            await close(mia)

    aloop(scenario(), 50)


def test_the_language_chosen_in_settings_is_remembered_and_chosen_again(
        qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.window.window import MainWindow

    path = tmp_path / "settings.json"
    monkeypatch.delenv("LANPLAY_LANG", raising=False)
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LC_MESSAGES", "")
    monkeypatch.setenv("LANG", "en_GB.UTF-8")  # the system speaks English
    locale.set_language(None)
    try:
        first = Settings(name="Mia", colour="#E69F00", path=path)
        assert i18n.start(first) == "en"
        win = MainWindow(first)
        try:
            assert set(win.language_actions) == {"", "en", "de", "es"}
            assert win.language_actions[""].isChecked()  # the system's, until chosen
            win.language_actions["es"].trigger()
            assert json.loads(path.read_text(encoding="utf-8"))["language"] == "es"
            assert win.language_actions["es"].isChecked()
            note = win.language_note  # said in the language chosen, for the next start
            assert "Español" in note.text() and "próximo" in note.text()
            note.close()
        finally:
            win.close()
            win.deleteLater()

        again = Settings.load(tmp_path)
        assert again.language == "es"
        assert i18n.start(again) == "es" and i18n._("Language") == "Idioma"
        locale.set_language(None)
        monkeypatch.setenv("LANPLAY_LANG", "de")  # the variable wins over the choice
        assert i18n.start(again) == "de"
        locale.set_language("en")  # and so does --lang
        assert i18n.start(again) == "en"
    finally:
        locale.set_language(None)


def test_with_no_choice_the_system_locale_decides(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    monkeypatch.delenv("LANPLAY_LANG", raising=False)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.setenv(var, "")
    monkeypatch.setenv("LANG", "de_AT.UTF-8")
    locale.set_language(None)
    try:
        assert i18n.start(Settings()) == "de"
        monkeypatch.setenv("LANG", "fr_FR.UTF-8")  # one lanplay does not speak: English
        assert i18n.start(Settings()) == "en"
        (tmp_path / "settings.json").write_text('{"language": "fr"}', encoding="utf-8")
        assert Settings.load(tmp_path).language == ""  # a choice lanplay cannot speak
    finally:
        locale.set_language(None)


def test_a_replays_result_and_the_fair_play_verdict_speak_german(german: None) -> None:
    from lanplay.fair.audit import Verdict
    from ui.pages.game.end_screen import verdict_text
    from ui.words.result_words import result_words

    names = ["Mia", "Jonas", "Bot 1"]
    result = {"winners": [0], "scores": [38, 0, 32]}
    assert result_words(result, names) == "Mia hat gewonnen (Mia 38, Jonas 0, Bot 1 32)"
    assert result_words({"winners": [0, 2], "scores": [2, 1, 2],
                         "detail": {"teams": [[0, 2], [1]]}}, names, False) == \
        "Grünes Team (Mia und Bot 1) hat gewonnen"
    assert result_words(None, names) == ""
    said = verdict_text(Verdict(ok=True, drawn=(1,)), names)
    assert said.startswith("Auf diesem Laptop geprüft") and "außer Jonas" in said
