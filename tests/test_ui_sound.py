"""Sound: our own WAVs, the cues a view calls for, one click to mute (remembered),
and silence without an error where there is no audio (CI, offscreen, no Qt Multimedia)."""

from __future__ import annotations

import configparser
import importlib
import sys
import wave
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from ui.pages.game.page import GamePage
from ui.services import cues as cue_rules
from ui.services.settings import Settings
from ui.services.sound import CUES, FOLDER, Sound
from ui.sounds import make_sounds

ROOT = Path(__file__).resolve().parents[1]


def test_the_sounds_are_ours_short_and_gentle_and_made_again_byte_for_byte(
        tmp_path: Path) -> None:
    assert set(make_sounds.SOUNDS) == set(CUES)
    for name in CUES:
        made = make_sounds.write(name, tmp_path)
        kept = FOLDER / f"{name}.wav"
        assert made.read_bytes() == kept.read_bytes(), f"{name}.wav is not what the script makes"
        with wave.open(str(kept)) as wav:
            assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
            seconds = wav.getnframes() / wav.getframerate()
            frames = wav.readframes(wav.getnframes())
        assert 0.03 < seconds < 1.0, f"{name} lasts {seconds:.2f} s"
        peak = max(abs(int.from_bytes(frames[i:i + 2], "little", signed=True))
                   for i in range(0, len(frames), 2))
        assert peak < 0.8 * 32767, f"{name} is loud ({peak})"
    assert "CC0" in (FOLDER / "__init__.py").read_text() + Path(make_sounds.__file__).read_text()


def test_the_package_ships_the_wavs_and_ci_installs_libpulse() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    assert "*.wav" in cfg["options.package_data"]["*"]
    assert (FOLDER / "__init__.py").is_file(), "ui.sounds is a package: find: picks it up"
    assert "libpulse0" in (ROOT / ".ci" / "run").read_text()


def test_no_audio_device_is_no_error_and_muted_is_silent(qtbot: QtBot) -> None:
    sound = Sound(enabled=True)
    for cue in CUES:
        sound.play(cue)  # offscreen, no sound server: silent, never an exception
    assert sound.played == list(CUES)
    sound.enabled = False
    sound.play("turn")
    assert sound.played == list(CUES), "muted: nothing plays"
    sound.enabled = True
    sound.play("no-such-cue")
    assert sound.played == list(CUES)
    assert sound.available, "Qt Multimedia loads here (libpulse0 is installed)"
    forced = Sound(enabled=True)
    forced._device = True  # as if a device were there: QSoundEffect loads and fails quietly
    for cue in CUES:
        forced.play(cue)
    assert set(forced._effects) == set(CUES)
    assert all(e.source().toLocalFile().endswith(f"{c}.wav") for c, e in forced._effects.items())


def test_without_qt_multimedia_the_window_is_silent(monkeypatch: pytest.MonkeyPatch,
                                                     qtbot: QtBot) -> None:
    monkeypatch.setitem(sys.modules, "PyQt6.QtMultimedia", None)  # the import fails
    import ui.services.sound

    try:
        silent = importlib.reload(ui.services.sound)
        assert not silent.Sound().available
        quiet = silent.Sound(enabled=True)
        quiet.play("turn")
        assert quiet.played == ["turn"]
    finally:
        monkeypatch.undo()
        importlib.reload(ui.services.sound)


def test_the_mute_choice_is_one_click_and_remembered(qtbot: QtBot, tmp_path: Path) -> None:
    page = GamePage()
    qtbot.addWidget(page)
    page.show()
    settings = Settings(name="Ann", path=tmp_path / "settings.json")
    chosen: list[bool] = []
    page.sound_toggled.connect(chosen.append)
    page.set_sound(settings.sound)
    assert page.sound_button.text() == "Sound on"
    page.sound_button.click()
    assert chosen == [False] and page.sound_button.text() == "Sound off"
    settings.sound = chosen[-1]
    settings.save()
    assert Settings.load(tmp_path).sound is False
    assert Settings.load(tmp_path / "nowhere").sound is True, "sound is on the first time"


def _views(**changes: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    before: dict[str, Any] = {"game": "alles-klar", "turn": 1, "log": [{"text": "a"}],
                              "last": None}
    return before, {**before, **changes}


def test_a_view_calls_for_what_happened_then_my_turn() -> None:
    before, won = _views(last={"result": "won", "winner": 0}, turn=0,
                         log=[{"text": "a"}, {"text": "b"}])
    assert cue_rules.cues(before, won, 0) == ["trick", "turn"]
    assert cue_rules.cues(before, won, 2) == ["trick"]
    _, played = _views(last={"result": "open"}, log=[{"text": "a"}, {"text": "c"}])
    assert cue_rules.cues(before, played, 2) == ["play"]
    _, topped = _views(game="alles-klar", last={"kind": "top"})
    assert cue_rules.cues(before, topped, None) == ["top"]
    assert cue_rules.cues(None, won, 0) == []
    assert cue_rules.cues(before, {**won, "game": "ranking"}, 0) == [], "a new table"
