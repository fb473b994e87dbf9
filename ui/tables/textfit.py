"""Text that fits: the largest type at which a text fills a box in a few lines.

A table never cuts an instruction, a name or a card's words off with "…" while
there is a smaller size or a second line to use (UX: "Text that fits"). ``fit``
finds, from a wanted pixel size down to the platform's default, the first size
at which the words wrap into at most ``lines`` lines of ``width`` (and, given a
height, stack inside it). Only when even the default size cannot hold them is
the last line elided, which the fit check then reports.

A word longer than its line is broken where a hyphenation dictionary of its
language allows (pyphen, with LibreOffice's dictionaries): "Schild-kröte",
"Mu-ñeca", "Se-ver-lá". Breaking only ever adds a hyphen; no letter is dropped.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import pyphen
from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QColor, QFont, QFontMetricsF, QPainter
from PyQt6.QtWidgets import QGraphicsScene, QGraphicsSimpleTextItem

from lanplay.locale import language
from ui.tables import look

STEP = 0.94
"""Each smaller size tried is this share of the one before."""
LEADING = 1.15
"""A line's height as a share of the font's height, for stacked lines."""


@dataclass(frozen=True)
class Fitted:
    font: QFont
    lines: list[str]
    fits: bool
    """False only when the text had to be elided at the smallest size."""

    @property
    def px(self) -> int:
        return self.font.pixelSize()

    def line_height(self) -> float:
        return QFontMetricsF(self.font).height() * LEADING

    def height(self) -> float:
        return self.line_height() * len(self.lines)

    def width(self) -> float:
        metrics = QFontMetricsF(self.font)
        return max((metrics.horizontalAdvance(line) for line in self.lines), default=0.0)


def hyphenator(lang: str | None = None) -> pyphen.Pyphen:
    """The hyphenation dictionary (LibreOffice's, shipped with pyphen) of ``lang`` (by
    default the window's language); English where pyphen has none."""
    code = (lang or language()).split("_")[0].lower()
    return _dictionary(code if code in HYPHEN_LANGS else "en")


HYPHEN_LANGS = ("de", "en", "es")


@functools.cache
def _dictionary(code: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=code)


def wrap_words(text: str, metrics: QFontMetricsF, width: float,
               hyphenate: bool = True, lang: str | None = None) -> list[str]:
    """Words filled greedily into lines of ``width``; a word longer than a line is
    broken at its own hyphen, or else where ``lang``'s hyphenation dictionary allows
    ("Schild-kröte", "Mu-ñeca"), unless ``hyphenate`` is off (then it stays whole and
    too wide). Only a hyphen is ever added: the lines hold every letter in order."""
    return [line for line, _ in _wrap(text, metrics, width, hyphenate, lang)]


def _wrap(text: str, metrics: QFontMetricsF, width: float, hyphenate: bool,
          lang: str | None) -> list[tuple[str, bool]]:
    """The lines, each with whether it ends inside a word (a hyphen that was added)."""
    out: list[tuple[str, bool]] = []
    for paragraph in text.split("\n"):
        current, joined = "", False
        for whole in paragraph.split():
            pieces = _pieces(whole, metrics, width, lang) if hyphenate else [(whole, False)]
            for word, inside in pieces:
                glue = joined or current.endswith("-")
                trial = current + word if glue or not current else f"{current} {word}"
                if current and metrics.horizontalAdvance(trial) > width:
                    out.append((current + ("-" if joined else ""), joined))
                    current = word
                else:
                    current = trial
                joined = inside
        out.append((current, False))
    return out


def _pieces(word: str, metrics: QFontMetricsF, width: float,
            lang: str | None) -> list[tuple[str, bool]]:
    """``word`` as it may be broken over lines: whole when it fits; else at its own
    hyphens; else at the dictionary's places, as few pieces as fit a line with the
    added hyphen. Each piece says whether the word goes on after it without a hyphen
    of its own (one is added where the line breaks)."""
    if metrics.horizontalAdvance(word) <= width:
        return [(word, False)]
    if "-" in word.strip("-"):
        head, _, tail = word.partition("-")
        return [(f"{head}-", False), *_pieces(tail, metrics, width, lang)]
    places = [at for at in hyphenator(lang).positions(word) if 0 < at < len(word)]
    out: list[tuple[str, bool]] = []
    start = 0
    while metrics.horizontalAdvance(word[start:]) > width:
        last = None  # the furthest place whose piece fits (a longer piece is wider)
        for at in places:
            if at <= start:
                continue
            if metrics.horizontalAdvance(word[start:at] + "-") > width:
                break
            last = at
        if last is None:
            break  # no place the dictionary knows: the rest stays whole (and too wide)
        out.append((word[start:last], True))
        start = last
    return [*out, (word[start:], False)]


def _rest(lines: list[tuple[str, bool]]) -> str:
    """The text of ``lines`` put back together (the added hyphens taken out)."""
    out, glue = "", True
    for line, inside in lines:
        piece = line[:-1] if inside else line
        out = out + piece if glue or out.endswith("-") else f"{out} {piece}"
        glue = inside
    return out


def without_asides(text: str) -> str:
    """``text`` without what it says in parentheses: a shorter wording where the whole
    does not fit ("Lea wins the trick with the 10: 10 cards."), the whole kept for the
    log and the tooltip."""
    return re.sub(r"\s*\([^()]*\)", "", text)


def fit(text: str, width: float, px: float, lines: int = 1, *, bold: bool = False,
        height: float | None = None, min_px: float | None = None,
        hyphenate: bool = True, lang: str | None = None) -> Fitted:
    """The largest font from ``px`` down to ``min_px`` (the platform default) at which
    ``text`` wraps into at most ``lines`` lines no wider than ``width`` (and no taller
    than ``height``), words broken by ``lang``'s dictionary (the window's language by
    default: pass the text's own where it has one, as Ranking Top's Spanish song
    titles); at the smallest size the last line is elided with "…" if it must be."""
    floor = float(look.default_px() if min_px is None else max(min_px, look.default_px()))
    most = shown_at_most(width, lines)
    if len(text) > most:  # more than any line can show: what fitting it would cost is not
        return _cut(text[:most], width, floor, lines, bold, height)  # bounded by a frame
    for broken in ((False, True) if hyphenate else (False,)):
        size = max(float(px), floor)  # a whole word a size smaller before a broken one
        while True:
            fnt = look.font(size, bold=bold)
            metrics = QFontMetricsF(fnt)
            out = _wrap(text, metrics, width, broken, lang)
            tall = height is not None and metrics.height() * LEADING * len(out) > height + 0.5
            wide = any(metrics.horizontalAdvance(line) > width + 0.5 for line, _ in out)
            if len(out) <= lines and not wide and not tall:
                return Fitted(fnt, [line for line, _ in out], True)
            if size <= floor:
                break
            size = max(floor, size * STEP)
    keep = max(1, min(lines, len(out)))
    if height is not None:
        keep = max(1, min(keep, int((height + 0.5) // (metrics.height() * LEADING))))
    shown = [line for line, _ in out[:keep - 1]] + [_rest(out[keep - 1:])]
    shown = [metrics.elidedText(line, Qt.TextElideMode.ElideRight, int(width))
             if metrics.horizontalAdvance(line) > width + 0.5 else line
             for line in shown]  # the rest of the text on the last line, marked "…"
    return Fitted(fnt, shown, False)


MIN_ADVANCE = 2.0
"""Pixels a letter takes at the least (a narrow one at the smallest size): a box shows at
most its width over this, per line."""


def shown_at_most(width: float, lines: int) -> int:
    """The most characters ``lines`` lines of ``width`` could ever show."""
    return max(1, lines) * (int(max(0.0, width) / MIN_ADVANCE) + 1)


def _cut(text: str, width: float, floor: float, lines: int, bold: bool,
         height: float | None) -> Fitted:
    """A text longer than a box can ever show (a name from a hostile file), cut to what
    could show, at the smallest size: its lines filled in one pass, the last one marked
    "…". Its cost depends on the box, not on the text's length."""
    fnt = look.font(floor, bold=bold)
    metrics = QFontMetricsF(fnt)
    keep = max(1, lines)
    if height is not None:
        keep = max(1, min(keep, int((height + 0.5) // (metrics.height() * LEADING))))
    out = [line for line, _ in _wrap(text, metrics, width, False, None)][:keep] or [""]
    last = out[-1] + "…"
    out[-1] = metrics.elidedText(last, Qt.TextElideMode.ElideRight, int(width)) \
        if metrics.horizontalAdvance(last) > width + 0.5 else last
    return Fitted(fnt, out, False)


def draw(painter: QPainter, fitted: Fitted, box: QRectF,
         align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter) -> None:
    """Paint the fitted lines in ``box``: stacked (from the top with AlignTop, else
    centred up and down), each line left, centred or right as ``align`` says."""
    painter.setFont(fitted.font)
    line_h = fitted.line_height()
    top = box.top() if align & Qt.AlignmentFlag.AlignTop \
        else box.top() + (box.height() - line_h * len(fitted.lines)) / 2
    across = align & (Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignRight
                      | Qt.AlignmentFlag.AlignHCenter)
    if not across:
        across = Qt.AlignmentFlag.AlignHCenter
    for i, line in enumerate(fitted.lines):
        painter.drawText(QRectF(box.left(), top + i * line_h, box.width(), line_h),
                         across | Qt.AlignmentFlag.AlignVCenter, line)


def add_lines(scene: QGraphicsScene, fitted: Fitted, box: QRectF, colour: QColor,
              centre: bool = True, tooltip: str = "") -> list[QGraphicsSimpleTextItem]:
    """The fitted lines as text items in ``box`` (stacked from its top), each centred
    across it or from its left."""
    metrics = QFontMetricsF(fitted.font)
    items = []
    for i, line in enumerate(fitted.lines):
        item = QGraphicsSimpleTextItem(line)
        item.setFont(fitted.font)
        item.setBrush(colour)
        width = metrics.horizontalAdvance(line)
        x = box.center().x() - width / 2 if centre else box.left()
        item.setPos(x, box.top() + i * fitted.line_height())
        if tooltip:
            item.setToolTip(tooltip)
        scene.addItem(item)
        items.append(item)
    return items


__all__ = ["Fitted", "add_lines", "draw", "fit", "wrap_words"]
