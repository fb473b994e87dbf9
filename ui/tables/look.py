"""The table's palette and type: one place, so every table looks calm and alike.

Colours are chosen for contrast over an hour of play: a deep green felt,
ivory cards with near-black numerals, and player colours that always come
with the seat's badge or a name (``lanplay.badges``: one mark per seat, the same
on every laptop).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFont, QFontInfo, QFontMetricsF, QPainter, QPen
from PyQt6.QtWidgets import QApplication

from lanplay.badges import badge, badges
from lanplay.badges import initial as initial
from ui.words.i18n import _

FELT = QColor("#1E4A38")
FELT_EDGE = QColor("#153628")
INK_ON_FELT = QColor("#F3F1E7")
MUTED_ON_FELT = QColor("#B9C8BE")
CARD_FACE = QColor("#FBF8F0")
CARD_EDGE = QColor("#2F2F2F")
CARD_INK = QColor("#151515")
NUMERAL_INK = QColor("#1F3A7A")
DOWN_FACE = QColor("#8E9A96")
DOWN_INK = QColor("#2E3633")
BACK = QColor("#2B4C6F")
BACK_LINE = QColor("#4D7096")
RANK_FACE = QColor("#F3E6C2")
RANK_EDGE = QColor("#8A6D2F")
RANK_DOWN = QColor("#2C3A35")
RANK_DOWN_INK = QColor("#8FA69C")
LIT = QColor("#FFD866")
PLATE = QColor(0, 0, 0, 70)
PANEL = QColor("#1B2A24")


def default_px() -> int:
    """The platform's default text height in pixels: no text is drawn smaller."""
    app = QApplication.instance()
    font = app.font() if isinstance(app, QApplication) else QFont()
    return max(10, QFontInfo(font).pixelSize())


def font(px: float, bold: bool = False) -> QFont:
    f = QFont(QApplication.font())
    f.setPixelSize(max(default_px(), round(px)))
    f.setBold(bold)
    return f


def ink_for(colour: QColor) -> QColor:
    """Black or white, whichever reads better on ``colour`` (yellow needs black)."""
    r, g, b = colour.redF(), colour.greenF(), colour.blueF()
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return QColor("#111111") if luminance > 0.45 else QColor("#FFFFFF")


def seat_colour(seats: Sequence[Mapping[str, object]], seat: int) -> QColor:
    """The seat's badge colour (``lanplay.badges``: the same on every laptop)."""
    return QColor(badge(seats, seat).colour)


def seat_letter(seats: Sequence[Mapping[str, object]], seat: int) -> str:
    """The seat's badge text: "A", or "B2" / "Be" where initials collide."""
    return badge(seats, seat).text


def with_badges(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Copies of the lobby's seat maps, each with its ``badge`` text and badge colour,
    for pieces that are handed one seat's map and draw its mark."""
    marks = badges(seats)
    return [{**s, "badge": m.text, "colour": m.colour} for s, m in zip(seats, marks,
                                                                       strict=True)]


def letter_of(seat_map: Mapping[str, Any]) -> str:
    """The badge text in a seat map from ``with_badges`` (the initial if it has none)."""
    return str(seat_map.get("badge") or initial(str(seat_map.get("name") or "")))


def seat_name(seats: Sequence[Mapping[str, object]], seat: int) -> str:
    raw = seats[seat].get("name") if 0 <= seat < len(seats) else None
    return str(raw) if raw else _("Seat {n}").format(n=seat + 1)


def log_names(seats: Sequence[Mapping[str, object]], players: int) -> list[str]:
    """The names a new log line uses: a seat a stand-in bot plays for now is "Lea's
    stand-in" (its moves were logged under Lea's name alone)."""
    out = []
    for seat in range(players):
        name = seat_name(seats, seat)
        standin = 0 <= seat < len(seats) and bool(seats[seat].get("standin"))
        # translators: the name of a bot playing for an absent player, in the log
        out.append(_("{name}'s stand-in").format(name=name) if standin else name)
    return out


def _disc_font(radius: float, letter: str) -> QFont:
    scale = (1.15, 1.15, 0.85, 0.66)[min(3, len(letter))]  # "A", "B2", "P12" all fit
    return font(radius * scale, bold=True)


def disc_text_width(radius: float, letter: str) -> float:
    """How wide ``draw_disc`` writes ``letter`` in a disc of ``radius``."""
    return QFontMetricsF(_disc_font(radius, letter)).horizontalAdvance(letter)


def disc_half_width(radius: float, letter: str) -> float:
    """Half the width ``draw_disc`` paints: the radius, or more where the disc becomes a
    pill to hold its letters (text beside a mark starts after this)."""
    wide = disc_text_width(radius, letter)
    return wide / 2 + radius * 0.35 if wide > radius * 1.7 else radius


def draw_disc(painter: QPainter, centre: QPointF, radius: float, colour: QColor,
              letter: str, *, bot: bool = False) -> None:
    """A seat's colour always with its initial, so colour is never the only cue; a
    bot's is square-ish, as its badge elsewhere in the window."""
    fnt = _disc_font(radius, letter)
    box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
    painter.setPen(QPen(QColor("#101010"), max(1.0, radius * 0.08)))
    painter.setBrush(colour)
    half = disc_half_width(radius, letter)
    if bot:
        box = QRectF(centre.x() - max(half, radius), centre.y() - radius,
                     2 * max(half, radius), 2 * radius)
        painter.drawRoundedRect(box, radius * 0.44, radius * 0.44)
    elif half > radius:  # a small disc (never smaller text): a pill that holds it
        box = QRectF(centre.x() - half, centre.y() - radius, 2 * half, 2 * radius)
        painter.drawRoundedRect(box, radius, radius)
    else:
        painter.drawEllipse(centre, radius, radius)
    painter.setPen(ink_for(colour))
    painter.setFont(fnt)
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, letter)
