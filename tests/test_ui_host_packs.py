"""The host dialog offers the packs in the packs folder, and says why a broken one is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from content_samples import VALID_TOML, write_pack
from PyQt6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from ui.dialogs.host_dialog import HostDialog


@pytest.fixture
def packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LANPLAY_DATA_DIR", str(tmp_path))
    write_pack(tmp_path / "packs" / "office")
    write_pack(tmp_path / "packs" / "broken", VALID_TOML.replace('file = "mug.png"',
                                                                 'file = "cup.png"'))
    return tmp_path / "packs"


def _texts(dialog: HostDialog) -> list[str]:
    # A path may carry zero-width spaces where it can break across lines.
    return [w.text().replace("\u200b", "") for w in dialog.findChildren(QLabel)
            if w.isVisibleTo(dialog)]


def test_a_game_with_pictures_offers_the_packs_found_and_names_the_broken_one(
        qtbot: QtBot, packs: Path) -> None:
    dialog = HostDialog(game_id="ranking")
    qtbot.addWidget(dialog)
    combo = dialog._pack_combo
    assert [combo.itemData(i) for i in range(combo.count())] == ["", "office"]
    assert "Office party" in combo.itemText(1) and "3 pictures" in combo.itemText(1)
    problem = next(t for t in _texts(dialog) if t.startswith("Not usable"))
    assert "broken/pack.toml" in problem or "broken" in problem
    assert "cup.png" in problem
    choice = dialog.choice()
    assert choice is not None and choice.options["pack"] == ""  # built-in by default
    dialog.set_option("pack", "office")
    choice = dialog.choice()
    assert choice is not None and choice.game == "ranking" and choice.options["pack"] == "office"


def test_with_no_packs_the_dialog_says_where_to_put_one(qtbot: QtBot, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANPLAY_DATA_DIR", str(tmp_path))
    dialog = HostDialog(game_id="ranking")
    qtbot.addWidget(dialog)
    assert any(t.startswith("No custom packs yet") and str(tmp_path / "packs") in t
               for t in _texts(dialog))


def test_a_game_without_pictures_has_no_pack_choice(qtbot: QtBot, packs: Path) -> None:
    dialog = HostDialog(game_id="alles-klar")
    qtbot.addWidget(dialog)
    assert "pack" not in dialog._inputs
