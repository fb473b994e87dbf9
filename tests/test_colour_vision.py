"""Seat colours stay apart for colour-blind players, on the palette and on the tables.

Protanopia, deuteranopia and tritanopia are simulated (``lanplay.colour_vision``)
on the room's palette (every colour a seat can get, against the felt), on the
colours the rulebooks name (Ranagedon's red and green frogs and their borders,
S-tier's right and wrong marks), and on rendered tables: each seat's colour is
found in the picture where the table paints it solid (its disc, its plate), and
what those pixels look like to each kind of colour vision stays apart from every
other seat's and from the felt. A lit piece is not told by colour alone either:
in grey it still differs from the same piece unlit.
"""

from __future__ import annotations

from typing import Any

import pytest
from PyQt6.QtCore import QPointF
from PyQt6.QtGui import QColor, QImage, QPainter
from pytestqt.qtbot import QtBot

from lanplay.colour_vision import (
    DISTINCT,
    KINDS,
    confusions,
    difference,
    hex_colours,
    linear,
    mean,
    simulate,
)
from lanplay.room import PALETTE
from ui.tables import look, make_table
from ui.tools.screenshot_tables import TableScreen, screens

FELT = {"the felt": linear(look.FELT.name()), "the felt's edge": linear(look.FELT_EDGE.name())}


def test_the_simulation_knows_the_classic_confusions() -> None:
    """Red and green fall together without the red or green cones, blue and green
    without the blue ones; nothing changes much for a grey."""
    red, green = linear("#CC3333"), linear("#669933")
    assert difference(red, green) > 40
    assert difference(red, green, "deuteranopia") < difference(red, green) / 2
    assert difference(red, green, "protanopia") < difference(red, green) / 2
    blue, teal = linear("#3366CC"), linear("#339999")
    assert difference(blue, teal, "tritanopia") < difference(blue, teal)
    grey = linear("#808080")
    for kind in KINDS:
        assert difference(grey, simulate(grey, kind)) < 3


def test_every_seat_colour_stays_apart_from_the_others_and_the_felt() -> None:
    problems = confusions(hex_colours(PALETTE), FELT)
    assert not problems, problems


@pytest.mark.parametrize("colours", [
    ("#D8413A", "#2E9E57"),  # Ranagedon's red and green frogs (the rulebook's names)
    ("#D0399E", "#2F7FE0", "#F2D21B"),  # their borders: magenta, blue, yellow
    ("#009E73", "#D55E00"),  # S-tier's right and wrong (a tick and a cross as well)
])
def test_the_colours_a_rulebook_names_stay_apart(colours: tuple[str, ...]) -> None:
    problems = confusions(hex_colours(colours))
    assert not problems, problems


# --- on the rendered tables -------------------------------------------------------------


def _render(qtbot: QtBot, screen: TableScreen) -> QImage:
    table: Any = make_table(screen.game)
    qtbot.addWidget(table)
    table.resize(1024, 640)
    table.show()
    for view in screen.views:
        table.set_view(view, screen.seats, screen.you, False)
    board = getattr(table, "board", None)
    if board is not None and hasattr(board, "finish"):
        board.finish()
    return table.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def _patches(image: QImage, colours: list[str], step: int = 2) -> dict[str, list[Any]]:
    """The pixels painted (nearly) exactly in each colour: where the table lays it solid."""
    wanted = {c: QColor(c) for c in colours}
    cells: dict[tuple[int, int, int], str] = {}
    for name, c in wanted.items():
        r, g, b = c.red() >> 2, c.green() >> 2, c.blue() >> 2
        for dr in (-1, 0, 1):
            for dg in (-1, 0, 1):
                for db in (-1, 0, 1):
                    cells[(r + dr, g + dg, b + db)] = name
    found: dict[str, list[Any]] = {c: [] for c in colours}
    width, height = image.width(), image.height()
    data = bytes(image.constBits().asstring(image.sizeInBytes()))  # type: ignore[union-attr]
    stride = image.bytesPerLine()
    for y in range(0, height, step):
        row = y * stride
        for x in range(0, width * 4, 4 * step):
            b, g, r = data[row + x], data[row + x + 1], data[row + x + 2]
            name = cells.get((r >> 2, g >> 2, b >> 2))
            if name is not None:
                found[name].append(linear(f"#{r:02x}{g:02x}{b:02x}"))
    return found


def _seat_screens() -> list[TableScreen]:
    """One screen per game and mode, the most seats the palette covers (up to 8),
    from a player's seat."""
    chosen: dict[tuple[str, str], TableScreen] = {}
    for screen in screens():
        colours = {str(s.get("colour")) for s in screen.seats}
        if screen.you is None or screen.result is not None or len(colours) < len(screen.seats) \
                or len(screen.seats) > len(PALETTE):
            continue
        key = (screen.game, screen.mode)
        if key not in chosen or len(screen.seats) > len(chosen[key].seats):
            chosen[key] = screen
    return list(chosen.values())


@pytest.mark.parametrize("screen", _seat_screens(), ids=lambda s: s.name)
def test_the_seats_on_a_rendered_table_stay_apart(qtbot: QtBot, screen: TableScreen) -> None:
    image = _render(qtbot, screen)
    colours = [str(s["colour"]).upper() for s in screen.seats]
    patches = _patches(image, colours)
    shown = {c: mean(p) for c, p in patches.items() if len(p) >= 12}
    assert len(shown) == len(colours), \
        f"seats not painted solid anywhere: {sorted(set(colours) - set(shown))}"
    problems = confusions(shown, FELT, DISTINCT)
    assert not problems, problems


# --- lit is more than a colour ------------------------------------------------------------


def _grey(paint: Any, size: int = 160) -> QImage:
    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(look.FELT)
    painter = QPainter(image)
    paint(painter)
    painter.end()
    return image.convertToFormat(QImage.Format.Format_Grayscale8)


def _differ(a: QImage, b: QImage) -> int:
    """How many pixels differ clearly in grey between two pictures."""
    n = 0
    for y in range(a.height()):
        for x in range(a.width()):
            if abs(QColor(a.pixel(x, y)).value() - QColor(b.pixel(x, y)).value()) > 40:
                n += 1
    return n


def test_a_lit_card_differs_from_an_unlit_one_in_grey(qtbot: QtBot) -> None:
    from ui.tables.alles_klar.items import CardItem

    def card(lit: bool) -> Any:
        item = CardItem({"id": 1, "value": 7, "numerals": [3]}, 90, 130)
        item.make_playable(lit, lambda _item: None, None)

        def paint(painter: QPainter) -> None:
            painter.translate(QPointF(30, 15))
            item.paint(painter, None)
        return paint

    assert _differ(_grey(card(True)), _grey(card(False))) > 300  # the ring and the veil
