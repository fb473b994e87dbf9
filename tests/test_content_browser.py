"""Help -> Pictures: every picture, question and topic, the pack each comes from, and
the packs that could not be loaded with their reasons."""

from __future__ import annotations

from pathlib import Path

import pytest
from content_samples import png_bytes, write_pack

from lanplay import content
from lanplay.content.packs import discover
from ui.dialogs.content_browser import ContentBrowser
from ui.look import picture_render
from ui.look.tiles import picture_image


@pytest.fixture
def browser(tmp_path: Path, qtbot: object) -> ContentBrowser:
    write_pack(tmp_path / "packs" / "office")
    write_pack(tmp_path / "packs" / "broken", files={"stapler.svg": b"not a picture",
                                                     "mug.png": png_bytes(),
                                                     "printer.png": png_bytes()})
    dialog = ContentBrowser(found=discover(tmp_path / "packs"))
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    dialog.resize(1280, 800)
    dialog.show()
    return dialog


def visible_pictures(dialog: ContentBrowser) -> list[str]:
    items = (dialog.pictures.item(i) for i in range(dialog.pictures.count()))
    return [item.text() for item in items if item is not None and not item.isHidden()]


@pytest.mark.timeout(60)
def test_every_picture_question_and_topic_is_listed_with_its_pack(
        browser: ContentBrowser) -> None:
    builtin = content.builtin()
    assert browser.pictures.count() == len(builtin.pictures) + 3
    assert browser.questions.rowCount() == len(builtin.questions) + 2
    assert browser.topics.rowCount() == len(builtin.topics) + 2
    assert browser.tabs.tabText(0) == f"Pictures ({len(builtin.pictures) + 3})"
    first = browser.pictures.item(0)
    assert first is not None and first.text() == "Dog" and not first.icon().isNull()
    assert "Pack: built-in" in first.toolTip()
    assert "Red stapler\n(Office party)" in visible_pictures(browser)
    pack_cells = {browser.questions.item(r, 3).text()  # type: ignore[union-attr]
                  for r in range(browser.questions.rowCount())}
    assert pack_cells == {"built-in", "Office party"}


def test_the_pack_filter_and_the_search_narrow_every_tab(browser: ContentBrowser) -> None:
    browser.pack_filter.setCurrentIndex(browser.pack_filter.findData("office"))
    assert sorted(visible_pictures(browser)) == ["Coffee mug\n(Office party)",
                                                 "Printer\n(Office party)",
                                                 "Red stapler\n(Office party)"]
    assert browser.tabs.tabText(1) == "Questions (2)"
    browser.pack_filter.setCurrentIndex(0)
    browser.search.setText("BEAR")
    assert sorted(visible_pictures(browser)) == ["Bear", "Polar bear", "Teddy bear"]
    assert browser.tabs.tabText(2) == "Topics (0)"


def test_a_broken_pack_is_shown_with_its_file_and_reason(browser: ContentBrowser,
                                                          tmp_path: Path) -> None:
    assert browser.problems.isVisible()
    text = browser.problems.text()
    assert "1 pack could not be loaded" in text
    assert str(tmp_path / "packs" / "broken" / "stapler.svg") in text
    assert "is not an image" in text
    assert "Twemoji" in browser.credits.text()


def test_the_dialog_renders_offscreen_with_pictures_drawn(browser: ContentBrowser,
                                                          tmp_path: Path) -> None:
    assert picture_render.shared().wait(20)  # drawn off the GUI thread
    shot = browser.grab()
    assert not shot.isNull() and shot.width() == 1280
    shot.save(str(tmp_path / "browser.png"))
    image = shot.toImage()
    # the first tile (the dog) is drawn: many distinct colours, not one flat panel
    colours = {image.pixel(x, y) for x in range(20, 140) for y in range(90, 190)}
    assert len(colours) > 50
    ant = picture_image(content.default_library().picture("ant"), 32)
    assert sum(ant.pixelColor(x, y).alpha() > 0 for x in range(32) for y in range(32)) > 100
