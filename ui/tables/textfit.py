"""Text that fits: the largest type at which a text fills a box in a few lines.

A table never cuts an instruction, a name or a card's words off with "…" while
there is a smaller size or a second line to use (UX: "Text that fits"). ``fit``
finds, from a wanted pixel size down to the platform's default, the first size
at which the words wrap into at most ``lines`` lines of ``width`` (and, given a
height, stack inside it). Only when even the default size cannot hold them is
the last line elided, which the fit check then reports.
"""

from __future__ import annotations

from dataclasses import dataclass

from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QColor, QFont, QFontMetricsF, QPainter
from PyQt6.QtWidgets import QGraphicsScene, QGraphicsSimpleTextItem

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


def wrap_words(text: str, metrics: QFontMetricsF, width: float,
               hyphenate: bool = True) -> list[str]:
    """Words filled greedily into lines of ``width``; a word longer than a line is
    broken at its hyphen, or else hyphenated where the line ends ("Hippopo-tamus"),
    unless ``hyphenate`` is off (then it stays whole and too wide)."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for whole in paragraph.split():
            for word in (_pieces(whole, metrics, width) if hyphenate else [whole]):
                trial = f"{current} {word}" if current and not current.endswith("-") \
                    else current + word
                if current and metrics.horizontalAdvance(trial) > width:
                    out.append(current)
                    current = word
                else:
                    current = trial
        out.append(current)
    return out


def _pieces(word: str, metrics: QFontMetricsF, width: float) -> list[str]:
    """``word`` as it may be broken over lines: whole when it fits, else at its own
    hyphens, else in runs of letters that fit with a hyphen after each."""
    if metrics.horizontalAdvance(word) <= width:
        return [word]
    if "-" in word.strip("-"):
        head, _, tail = word.partition("-")
        return [f"{head}-", *_pieces(tail, metrics, width)]
    out: list[str] = []
    rest = word
    while rest and metrics.horizontalAdvance(rest) > width:
        cut = len(rest) - 3  # at least three letters after the hyphen
        while cut > 2 and metrics.horizontalAdvance(rest[:cut] + "-") > width:
            cut -= 1
        if cut <= 2:  # no sensible place: keep it whole
            break
        cut = _syllable_cut(rest, cut)
        out.append(rest[:cut] + "-")
        rest = rest[cut:]
    return [*out, rest]


VOWELS = frozenset("aeiouyäöüáéíóúàèìòùâêîôûAEIOUYÄÖÜÁÉÍÓÚ")
KEEP_TOGETHER = frozenset({"ch", "ck", "sc", "ph", "th", "qu", "ll", "rr"})
"""Letters a break never parts ("Bü-cher", not "Büc-her"; Spanish "ll", "rr")."""


def _syllable_cut(word: str, cut: int) -> int:
    """``cut`` moved back (at most three letters) to just before a consonant that opens
    a syllable, as German and Spanish break a word: "Achter-bahn", not "Achterb-ahn";
    "Dino-saurio", not "Dinosa-urio". Where no such place is near, ``cut`` itself, or
    just before the letters it would part."""
    for at in range(cut, max(2, cut - 3), -1):
        if at + 1 >= len(word):
            continue
        opens = word[at] not in VOWELS and word[at].isalpha() and word[at + 1] in VOWELS
        if opens and (word[at - 1] + word[at]).lower() not in KEEP_TOGETHER:
            if (word[at] in "rl" and word[at - 1] in "bcdfgkpt" and at - 1 >= 3
                    and (word[at - 2] + word[at - 1]).lower() not in KEEP_TOGETHER):
                return at - 1  # "kr", "pl" open the syllable together: "Schild-kröte"
            return at
    while cut > 3 and (word[cut - 1] + word[cut]).lower() in KEEP_TOGETHER:
        cut -= 1  # at least not inside "sch", "ck": "Babyfla-sche", not "Babyflas-che"
    return cut


def fit(text: str, width: float, px: float, lines: int = 1, *, bold: bool = False,
        height: float | None = None, min_px: float | None = None,
        hyphenate: bool = True) -> Fitted:
    """The largest font from ``px`` down to ``min_px`` (the platform default) at which
    ``text`` wraps into at most ``lines`` lines no wider than ``width`` (and no taller
    than ``height``); at the smallest size the last line is elided if it must be."""
    floor = float(look.default_px() if min_px is None else max(min_px, look.default_px()))
    for broken in ((False, True) if hyphenate else (False,)):
        size = max(float(px), floor)  # a whole word a size smaller before a broken one
        while True:
            fnt = look.font(size, bold=bold)
            metrics = QFontMetricsF(fnt)
            out = wrap_words(text, metrics, width, broken)
            tall = height is not None and metrics.height() * LEADING * len(out) > height + 0.5
            wide = any(metrics.horizontalAdvance(line) > width + 0.5 for line in out)
            if len(out) <= lines and not wide and not tall:
                return Fitted(fnt, out, True)
            if size <= floor:
                break
            size = max(floor, size * STEP)
    keep = max(1, min(lines, len(out)))
    if height is not None:
        keep = max(1, min(keep, int((height + 0.5) // (metrics.height() * LEADING))))
    shown = out[:keep]
    rest = " ".join(out[keep - 1:])
    shown[-1] = metrics.elidedText(rest, Qt.TextElideMode.ElideRight, int(width))
    shown = [metrics.elidedText(line, Qt.TextElideMode.ElideRight, int(width))
             for line in shown]
    return Fitted(fnt, shown, False)


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
