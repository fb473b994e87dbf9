"""A table whose layout changes keeps showing its pictures: a picture asked at a new
size is the nearest size already drawn, scaled, until the new one is drawn (after a
Ranking placement the pictures showed only their names for 5 s or more)."""

from __future__ import annotations

from PyQt6.QtWidgets import QApplication

from ui.look import picture_render, pictures


def test_a_new_size_shows_the_picture_drawn_at_another_meanwhile(qapp: QApplication) -> None:
    pictures.forget_cache()
    pictures.set_synchronous(False)
    first = pictures.tile("camel", 64, "Camel")
    assert first.toImage() == pictures._name_tile("Camel", 64).toImage()  # not drawn yet
    assert picture_render.shared().wait(10)
    drawn = pictures.tile("camel", 64, "Camel")
    assert drawn.toImage() != first.toImage()
    resized = pictures.tile("camel", 72, "Camel")  # the layout changed: not drawn at 72
    assert resized.width() == 72
    assert resized.toImage() != pictures._name_tile("Camel", 72).toImage()
    assert picture_render.shared().wait(10)
    pictures.forget_cache()
