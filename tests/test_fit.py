"""The fit check finds what a player would see cut off, and nothing else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QFont, QFontMetrics, QFontMetricsF, QImage, QPainter, QPainterPath
from PyQt6.QtWidgets import (
    QApplication,
    QFrame,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QStyleOptionGraphicsItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.tools.fit import Problem, inspect
from ui.tools.fit_probe import TextProbe


@pytest.fixture
def probe(qapp: object) -> Iterator[TextProbe]:
    with TextProbe() as installed:
        yield installed


class Boxed(QGraphicsRectItem):
    """A scene item that draws its text into a box of its own, as table items do."""

    def __init__(self, text: str, width: float, elide: bool = False, height: float = 24,
                 wrap: bool = False) -> None:
        super().__init__(0, 0, width, height)
        self.text = text
        self.elide = elide
        self.wrap = wrap

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        assert painter is not None
        box = self.rect()
        text = self.text
        if self.elide:
            text = QFontMetrics(painter.font()).elidedText(text, Qt.TextElideMode.ElideRight,
                                                           int(box.width()))
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if self.wrap:  # from the top down, as a card's caption under its numeral
            flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop) \
                | int(Qt.TextFlag.TextWordWrap.value)
        painter.drawText(box, flags, text)


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


def test_a_wrapped_text_taller_than_its_box_is_clipped(qtbot: object,
                                                       probe: TextProbe) -> None:
    """Wrapped from the top into three lines in a box one line high: the lines below
    the first are cut, though the first alone fits."""
    text = "fourth highest face-up card"
    top = window_with(scene_view((Boxed(text, 70, height=24, wrap=True), 10, 10)))
    assert kinds(inspect(top, probe)) == [("clipped", text)]
    roomy = window_with(scene_view((Boxed(text, 70, height=90, wrap=True), 10, 10)))
    assert inspect(roomy, probe) == []


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


def test_a_button_squashed_below_its_line_is_clipped(qtbot: object, probe: TextProbe) -> None:
    """Ranagedon's cluster buttons, squashed to 15 px by a column too short for them,
    showed half their words and passed: only a button's width was read."""
    squashed, padded = QPushButton("Block (1)"), QPushButton("TOP!")
    squashed.setFixedSize(200, 12)
    padded.setStyleSheet("QPushButton { padding: 12px; border: 2px solid black; }")
    padded.setFixedSize(200, padded.fontMetrics().height() + 6)  # its padding gave way
    found = inspect(window_with(squashed, padded), probe)
    assert kinds(found) == [("clipped", "Block (1)")]
    assert "high for its line" in found[0].detail


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


def test_a_text_partly_under_a_cover_is_clipped_not_overlapping(qtbot: object,
                                                                probe: TextProbe) -> None:
    """A table's text half under the end screen's card is reported once, as covered;
    the card's own words over it are not an overlap (they are on top, readable)."""
    view = scene_view((Boxed("Pictures over all rounds", 220), 10, 10))
    top = window_with(view)
    under = inspect(top, probe)
    assert under == []
    drawn = probe.drawn[0].rect  # where the table's text is, in the window
    cover = QLabel("Play again", top)
    cover.setStyleSheet("background: black; color: white")
    cover.setGeometry(int(drawn.left()) + 60, int(drawn.center().y()) - 30, 200, 60)
    cover.show()
    found = inspect(top, probe)
    assert [(p.kind, p.text) for p in found] == [("clipped", "Pictures over all rounds")]
    assert "covered" in found[0].detail


def test_texts_beyond_the_window_edge_are_cut_not_overlapping(qtbot: object,
                                                              probe: TextProbe) -> None:
    """Two labels pushed past the window's bottom are each cut off; nobody sees them
    lie over each other, so that is no overlap."""
    top = QWidget()
    top.resize(300, 100)
    first = QLabel("Last round: Green 2, Red 0 right.", top)
    first.setGeometry(10, 120, 280, 30)
    second = QLabel("Pictures over all rounds", top)
    second.setGeometry(20, 124, 260, 30)
    top.show()
    found = sorted((p.kind, p.text) for p in inspect(top, probe))
    assert found == [("clipped", "Last round: Green 2, Red 0 right."),
                     ("clipped", "Pictures over all rounds")]


class Disc(QGraphicsRectItem):
    """A piece with a letter on it that says where it is opaque (as a frog does)."""

    def __init__(self, letter: str, opaque: bool) -> None:
        super().__init__(0, 0, 40, 40)
        self.letter = letter
        self.opaque = opaque

    def opaqueArea(self) -> QPainterPath:
        path = QPainterPath()
        if self.opaque:
            path.addRect(self.rect())
        return path

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        assert painter is not None
        painter.fillRect(self.rect(), Qt.GlobalColor.darkRed)
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter), self.letter)


def test_a_letter_under_an_opaque_piece_is_hidden_not_overlapping(qtbot: object,
                                                                   probe: TextProbe) -> None:
    """A frog stacked on a frog hides the letter under it: no overlap. A piece that does
    not say it is opaque hides nothing, so the two letters overlap."""
    for opaque, expected in ((True, []), (False, [("overlap", "A")])):
        lower, upper = Disc("A", opaque), Disc("B", opaque)
        upper.setZValue(1)
        top = window_with(scene_view((lower, 10, 10), (upper, 13, 12)))
        assert kinds(inspect(top, probe)) == expected, opaque


def test_a_label_scrolled_under_a_heading_does_not_overlap_it(qtbot: object,
                                                               probe: TextProbe) -> None:
    """A form scrolled part way: the line half scrolled up out of the area lies, as a
    rectangle, under the heading above it, but nobody sees that half there."""
    top = QWidget()
    column = QVBoxLayout(top)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(0)
    heading = QLabel("Everyone slips a picture into the row")
    heading.setFixedHeight(30)
    heading.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
    area = QScrollArea()
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidgetResizable(True)
    inner = QWidget()
    lines = QVBoxLayout(inner)
    lines.setSpacing(0)
    for i in range(12):
        lines.addWidget(QLabel(f"Option help line number {i}"))
    area.setWidget(inner)
    area.setFixedHeight(80)
    column.addWidget(heading)
    column.addWidget(area)
    column.addStretch(1)
    top.resize(400, 200)
    top.show()
    QApplication.processEvents()
    bar = area.verticalScrollBar()
    assert bar is not None
    half = inner.findChildren(QLabel)[3]
    bar.setValue(half.y() + half.height() // 2)  # this one half out of view, at the top
    QApplication.processEvents()
    assert [p for p in inspect(top, probe) if p.kind == "overlap"] == []


def test_a_list_cell_is_measured_by_its_delegate(qtbot: object, probe: TextProbe) -> None:
    """Home's note column: the view's own delegate says what a cell needs (icon, the
    style's padding, wrapped lines). A tree set to wrap does not grow its rows, so a
    note too wide for its column is cut there too; a wide enough column is fine."""
    for width, expected in ((110, [("clipped", "Version 2: cannot join")]), (260, [])):
        tree = QTreeWidget()
        tree.setColumnCount(1)
        tree.setWordWrap(True)
        tree.setUniformRowHeights(False)
        tree.setRootIsDecorated(False)
        tree.setStyleSheet("QTreeWidget::item { padding: 20px 2px; }")
        tree.addTopLevelItem(QTreeWidgetItem(["Version 2: cannot join"]))
        tree.setColumnWidth(0, width)
        header = tree.header()
        assert header is not None
        header.setStretchLastSection(False)
        top = window_with(tree, width=300)
        assert kinds(inspect(top, probe)) == expected, width


def test_a_row_wider_than_a_scroll_area_that_cannot_scroll_sideways_is_cut(
        qtbot: object, probe: TextProbe) -> None:
    """The room's seats scroll up and down only: a button pushed past the right edge
    is cut off there, as it is not when the area can scroll sideways."""
    for policy, cut in ((Qt.ScrollBarPolicy.ScrollBarAlwaysOff, True),
                        (Qt.ScrollBarPolicy.ScrollBarAsNeeded, False)):
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setHorizontalScrollBarPolicy(policy)
        row = QWidget()
        line = QHBoxLayout(row)
        name = QLabel("1. Mia (you)")
        name.setMinimumWidth(260)
        line.addWidget(name)
        line.addWidget(QPushButton("Remove"))
        area.setWidget(row)
        found = kinds(inspect(window_with(area, width=260, height=160), probe))
        assert (("clipped", "Remove") in found) == cut, policy


def test_a_list_row_half_past_the_bottom_scrolls_into_view(qtbot: object,
                                                          probe: TextProbe) -> None:
    from PyQt6.QtWidgets import QListWidget

    moves = QListWidget()
    moves.addItems([f"{n}. Ann played {n}" for n in range(1, 40)])
    moves.setFixedHeight(95)
    assert inspect(window_with(moves), probe) == []


def test_a_wrapping_label_narrower_than_its_longest_word_is_reported(
        qtbot: object, probe: TextProbe) -> None:
    """Ranking Top's "keep this card?" box once collapsed to a 100 px column, one word
    a line: each line fit, but a word wider than the label is cut."""
    label = QLabel("Die anderen Karten kommen auf den Ablagestapel")
    label.setWordWrap(True)
    label.setFixedWidth(QFontMetrics(label.font()).horizontalAdvance("Ablagestapel") - 12)
    label.setFixedHeight(400)
    top = window_with(label, height=450)
    found = inspect(top, probe)
    assert [(p.kind, "longest word 'Ablagestapel'" in p.detail) for p in found] \
        == [("clipped", True)]
    label.setFixedWidth(QFontMetrics(label.font()).horizontalAdvance("Ablagestapel") + 4)
    assert inspect(top, probe) == []


def test_a_text_a_cached_piece_draws_is_read(qtbot: object, probe: TextProbe) -> None:
    """The felt's pieces keep a picture of themselves (DeviceCoordinateCache): their
    words are drawn into a pixmap, which the probe once never saw."""
    whole = "Your move: click a picture in your hand to play it"
    item = Boxed(whole, 120, elide=True)
    item.setCacheMode(Boxed.CacheMode.DeviceCoordinateCache)
    top = window_with(scene_view((item, 10, 10)))
    top.grab()  # the piece's picture is made before the check
    assert [p.kind for p in inspect(top, probe)] == ["elided"]
    assert item.cacheMode() == Boxed.CacheMode.DeviceCoordinateCache  # and kept


def test_a_message_box_over_the_window_is_read(qtbot: object, probe: TextProbe) -> None:
    from PyQt6.QtWidgets import QMessageBox

    from ui.tools.fit import FitCheck

    top = window_with(QLabel("Home"))
    box = QMessageBox(top)
    box.setText("Leave the game?")
    squeezed = QPushButton("Leave and let a bot play for me", box)
    box.addButton(squeezed, QMessageBox.ButtonRole.AcceptRole)
    box.show()
    squeezed.setFixedWidth(60)
    check = FitCheck((400, 300), probe)
    found = check.screen("leave", top)
    assert ("clipped", "Leave and let a bot play for me") in kinds(found)
    box.close()
    assert check.screen("leave", top) == []


class Bar(QWidget):
    """A countdown's bar laid on the felt, as Ranking Top's is: a widget on the view's
    viewport, transparent for the mouse, that draws no text where it covers one."""

    def paintEvent(self, event: object) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), Qt.GlobalColor.darkYellow)
        painter.end()


def test_a_control_on_the_felt_over_a_table_text_overlaps_it(qtbot: object,
                                                            probe: TextProbe) -> None:
    """A countdown's bar over "Passed: Mia" (issue 31) and a choice over the last play
    are drawn over the felt's words: each is an overlap, though neither draws a letter
    on them and the countdown is transparent for the mouse (``childAt`` skips it).
    Beside the text, or hidden, they are nothing, and so is a see-through stand-in
    that draws nothing there (the keyboard's over every piece); a walkthrough's note
    laid over the table on purpose hides what is under it."""
    view = scene_view((Boxed("Passed: Mia and Ben", 200), 10, 10),
                      (QGraphicsSimpleTextItem("Ada wins the trick"), 10, 120))
    top = window_with(view)
    port = view.viewport()
    assert port is not None
    stand_in = QWidget(port)
    stand_in.setGeometry(port.rect())
    stand_in.show()
    assert inspect(top, probe) == []
    drawn = probe.drawn[0].rect
    bar = Bar(port)
    bar.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    at = port.mapFrom(top, drawn.center().toPoint())
    bar.setGeometry(at.x() - 20, at.y() - 4, 120, 8)
    bar.show()
    choice = QFrame(port)  # a choice's frame: its own words lie below the table's
    choice.setStyleSheet("background: #142920")
    line = view.mapFromScene(QRectF(10, 120, 60, 10)).boundingRect()
    choice.setGeometry(line.left() + 20, line.top() + 8, 200, 60)
    choice.show()
    found = inspect(top, probe)
    assert kinds(found) == [("overlap", "Ada wins the trick"), ("overlap", "Passed: Mia and Ben")]
    assert all("under" in p.detail for p in found)
    bar.move(at.x() - 20, at.y() + 30)  # beside it now
    choice.hide()
    assert inspect(top, probe) == []
    bar.move(at.x() - 20, at.y() - 4)
    bar.setProperty("lanplay_overlay", True)
    assert [p.kind for p in inspect(top, probe)] == []
