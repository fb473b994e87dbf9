"""Choosing the language of the commands: ``LANPLAY_LANG`` and ``--lang`` (before or after
the command), with the names and descriptions of ``lanplay games`` from the content
catalogue and the core's own sentences from its catalogue."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from test_cli import LANPLAY

from lanplay import games
from lanplay.locale import CONTENT_DOMAIN, translation


def lanplay(*args: str, lang: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("LANPLAY_LANG", None)
    env["LANG"] = "C.UTF-8"  # the system says English; only the choice under test differs
    if lang is not None:
        env["LANPLAY_LANG"] = lang
    return subprocess.run([LANPLAY, *args], capture_output=True, text=True, env=env,
                          timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.timeout(60)
def test_lanplay_lang_de_gives_german_names_and_descriptions() -> None:
    done = lanplay("games", "--json", lang="de")
    assert done.returncode == 0, done.stderr
    rows = {r["id"]: r for r in json.loads(done.stdout)}
    de = translation(CONTENT_DOMAIN, ["de"])
    for game in games.available():
        row = rows[game.id]
        assert row["lang"] == "de"
        assert row["name"] == de.pgettext(f"game:{game.id}", game.name)
        assert row["summary"] == de.pgettext(f"game-summary:{game.id}", game.summary)
        assert row["summary"] != game.summary
        for mode in game.modes:
            assert row["mode_names"][mode.id] == de.pgettext(f"mode:{game.id}:{mode.id}",
                                                             mode.name)
        for option, shown in zip(game.options, row["options"], strict=True):
            assert shown["key"] == option.key and shown["label"] != option.label
    assert rows["s-tier"]["mode_names"]["cooperative"] != "Cooperative"
    assert rows["alles-klar"]["options"][1]["choice_labels"]["finish-trick"] != "finish-trick"
    english = {r["id"]: r for r in json.loads(lanplay("games", "--json").stdout)}
    assert english["ranking"]["summary"] == games.load("ranking").summary


@pytest.mark.timeout(60)
def test_lang_goes_before_or_after_the_command_and_beats_the_variable() -> None:
    before = lanplay("--lang", "es", "games", lang="de")
    assert before.returncode == 0, before.stderr
    assert "3-5 jugadores" in before.stdout and "disponible" in before.stdout
    after = lanplay("games", "--lang", "de")
    assert after.returncode == 0 and "3-5 Spieler" in after.stdout, after.stderr
    assert "verfügbar" in after.stdout and "alles-klar" in after.stdout
    wrong = lanplay("--lang", "fr", "games")
    assert wrong.returncode == 2 and "en, de, es" in wrong.stderr and not wrong.stdout
    assert "--lang" in lanplay("--help").stdout


@pytest.mark.timeout(60)
def test_a_refused_request_is_said_in_the_chosen_language() -> None:
    done = lanplay("selfplay", "alles-klar", "--players", "9", lang="es")
    assert done.returncode == 2
    assert done.stderr == "lanplay: Alles klar? necesita 2-5 jugadores; hay 9.\n"
    done = lanplay("--lang", "de", "selfplay", "alles-klar", "--players", "1")
    assert done.stderr == "lanplay: Alles klar? braucht 2-5 Spieler; bisher ist 1 da.\n"  # singular
