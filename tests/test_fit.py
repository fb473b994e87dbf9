"""The fit check finds what a player would see cut off, and nothing else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QFont, QFontMetrics, QFontMetricsF, QImage, QPainter
from PyQt6.QtWidgets import (
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyleOptionGraphicsItem,
    QVBoxLayout,
    QWidget,
)

from ui.fit import Problem, TextProbe, inspect


@pytest.fixture
def probe(qapp: object) -> Iterator[TextProbe]:
    with TextProbe() as installed:
        yield installed


class Boxed(QGraphicsRectItem):
    """A scene item that draws its text into a box of its own, as table items do."""

    def __init__(self, text: str, width: float, elide: bool = False) -> None:
        super().__init__(0, 0, width, 24)
        self.text = text
        self.elide = elide

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        assert painter is not None
        box = self.rect()
        text = self.text
        if self.elide:
            text = QFontMetrics(painter.font()).elidedText(text, Qt.TextElideMode.ElideRight,
                                                           int(box.width()))
        painter.drawText(box, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         text)


def window_with(*widgets: QWidget, width: int = 400, height: int = 300) -> QWidget:
    top = QWidget()
    column = QVBoxLayout(top)
    for widget in widgets:
        column.addWidget(widget)
    top.resize(width, height)
    top.show()
    return top


def kinds(problems: list[Problem]) -> list[tuple[str, str]]:
    return sorted((p.kind, p.text) for p in problems)


def scene_view(*items: tuple[QGraphicsRectItem | QGraphicsSimpleTextItem, float, float],
               ) -> QGraphicsView:
    scene = QGraphicsScene(0, 0, 360, 200)
    for item, x, y in items:
        item.setPos(x, y)
        scene.addItem(item)
    view = QGraphicsView(scene)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return view


def test_texts_that_fit_are_not_reported(qtbot: object, probe: TextProbe) -> None:
    button = QPushButton("Start")
    view = scene_view((Boxed("Ann", 120), 10, 10), (Boxed("Ben", 120), 10, 60),
                      (QGraphicsSimpleTextItem("Round 2"), 10, 120))
    top = window_with(QLabel("Your move: play a card"), button, view)
    assert inspect(top, probe) == []


def test_an_elided_table_text_is_reported_with_its_whole_text(qtbot: object,
                                                               probe: TextProbe) -> None:
    whole = "Your move: click a picture in your hand to play it"
    top = window_with(scene_view((Boxed(whole, 120, elide=True), 10, 10)))
    found = inspect(top, probe)
    assert [p.kind for p in found] == ["elided"]
    assert whole in found[0].detail and found[0].text.endswith("\u2026")


def test_a_text_larger_than_its_box_is_clipped(qtbot: object, probe: TextProbe) -> None:
    top = window_with(scene_view((Boxed("Policarpo and his band", 40), 10, 10)))
    assert kinds(inspect(top, probe)) == [("clipped", "Policarpo and his band")]


def test_a_table_text_beyond_the_view_is_clipped(qtbot: object, probe: TextProbe) -> None:
    view = scene_view((QGraphicsSimpleTextItem("draw pile"), 330, 10))
    view.setFixedWidth(200)
    view.setSceneRect(0, 0, 200, 200)
    found = inspect(window_with(view), probe)
    assert ("clipped", "draw pile") in kinds(found)


def test_two_texts_on_one_spot_overlap(qtbot: object, probe: TextProbe) -> None:
    top = window_with(scene_view((Boxed("Ann wins the trick", 200), 10, 10),
                                 (Boxed("Ben plays 7", 200), 30, 14)))
    found = kinds(inspect(top, probe))
    assert found == [("overlap", "Ann wins the trick")]


def test_a_squeezed_label_and_button_are_clipped(qtbot: object, probe: TextProbe) -> None:
    label = QLabel("Waiting for Bot 1, Bot 2 and Bot 3 to be ready")
    label.setMinimumWidth(0)
    button = QPushButton("Close the room for everyone")
    row = QWidget()
    line = QHBoxLayout(row)
    line.addWidget(label)
    line.addWidget(button)
    label.setFixedWidth(80)
    button.setFixedWidth(60)
    found = kinds(inspect(window_with(row), probe))
    assert found == [("clipped", "Close the room for everyone"),
                     ("clipped", "Waiting for Bot 1, Bot 2 and Bot 3 to be ready")]


def test_a_wrapped_label_with_room_fits_and_without_is_clipped(qtbot: object,
                                                                probe: TextProbe) -> None:
    text = "Guess which tile is Bot 1's: click a tile, or Pass to keep your stone"
    roomy = QLabel(text)
    roomy.setWordWrap(True)
    assert inspect(window_with(roomy, width=200), probe) == []
    tight = QLabel(text)
    tight.setWordWrap(True)
    tight.setFixedHeight(12)
    assert kinds(inspect(window_with(tight, width=200), probe)) == [("clipped", text)]


def test_a_wrapping_list_fits_a_long_line_on_several_and_a_single_line_list_does_not(
        qtbot: object, probe: TextProbe) -> None:
    text = "33. Bot 1 played 2 (IV): ranking card IV turned down. Bot 2 wins the trick"
    wrapping = QListWidget()
    wrapping.setWordWrap(True)
    wrapping.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    wrapping.addItem(QListWidgetItem(text))
    assert inspect(window_with(wrapping, width=220), probe) == []
    single = QListWidget()
    single.addItem(QListWidgetItem(text))
    assert kinds(inspect(window_with(single, width=220), probe)) == [("clipped", text)]


def test_a_text_wholly_under_another_widget_is_not_visible(qtbot: object,
                                                           probe: TextProbe) -> None:
    view = scene_view((Boxed("hidden under the end screen", 220), 10, 10))
    top = window_with(view)
    cover = QLabel("Game over", top)
    cover.setStyleSheet("background: black; color: white")
    cover.setGeometry(view.geometry())
    cover.setAlignment(Qt.AlignmentFlag.AlignCenter)
    cover.show()
    assert inspect(top, probe) == []


def test_the_probe_leaves_qt_as_it_was(qapp: object) -> None:
    before = (QPainter.__dict__["drawText"], QFontMetrics.__dict__["elidedText"],
              QFontMetricsF.__dict__["elidedText"])
    with TextProbe():
        assert QPainter.__dict__["drawText"] is not before[0]
    after = (QPainter.__dict__["drawText"], QFontMetrics.__dict__["elidedText"],
             QFontMetricsF.__dict__["elidedText"])
    assert after == before
    shown = QFontMetricsF(QFont()).elidedText("a long text to shorten",
                                              Qt.TextElideMode.ElideRight, 30)
    assert shown.endswith("\u2026")
    image = QImage(40, 20, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.drawText(QRectF(0, 0, 40, 20), 0, "ok")
    painter.end()
