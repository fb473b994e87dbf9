"""The fit check's recorder: every text the real paint code draws, and every text
shortened with "…", while a screen is built and painted.

``TextProbe`` patches ``QPainter.drawText`` and ``QFontMetrics.elidedText`` on the
Python side only while it is installed (a checking tool, never on in play) and
keeps what each drew, where, and from which item.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from PyQt6.QtCore import QPoint, QPointF, QRect, QRectF, Qt
from PyQt6.QtGui import QFontMetrics, QFontMetricsF, QPainter
from PyQt6.QtWidgets import (
    QGraphicsItem,
    QWidget,
)

SLACK = 1.5
"""Pixels a text may exceed its box by (anti-aliasing and rounding), and the
least overlap in both directions that counts as two texts overlapping."""


ELLIPSIS = "\u2026"


@dataclass
class Drawn:
    """A text as the paint code drew it."""

    text: str
    widget: QWidget
    rect: QRectF
    """Its ink in window coordinates."""
    owner: str
    box_short: str = ""
    """Why the box it was given is too small (empty when it fits)."""
    item: QGraphicsItem | None = None
    """The scene item whose paint drew it (pieces above it may hide it)."""


@dataclass
class TextProbe:
    """Records texts drawn and elided while installed (a context manager)."""

    elided: dict[str, str] = field(default_factory=dict)
    """Shown text -> the full text it shortens."""
    drawn: list[Drawn] = field(default_factory=list)
    recording: bool = False
    """Whether drawn texts are kept (elisions are always kept while installed)."""
    _saved: list[tuple[type, str, Any]] = field(default_factory=list)

    def __enter__(self) -> TextProbe:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def install(self) -> None:
        if self._saved:
            return
        probe = self
        draw_text = QPainter.drawText

        def drawText(painter: QPainter, *args: Any) -> Any:
            if probe.recording:
                with quiet():
                    probe._record(painter, args, caller_of(sys._getframe(1)))
            return draw_text(painter, *args)

        for cls in (QFontMetrics, QFontMetricsF):
            elide = cls.elidedText

            def elidedText(metrics: Any, text: str, *args: Any,
                           _elide: Any = elide) -> str:
                shown: str = _elide(metrics, text, *args)
                if shown != text:
                    probe.elided[shown] = text
                return shown

            self._saved.append((cls, "elidedText", cls.__dict__["elidedText"]))
            cls.elidedText = elidedText  # type: ignore[method-assign,assignment]
        self._saved.append((QPainter, "drawText", QPainter.__dict__["drawText"]))
        QPainter.drawText = drawText  # type: ignore[method-assign,assignment]

    def uninstall(self) -> None:
        for cls, name, original in reversed(self._saved):
            setattr(cls, name, original)
        self._saved.clear()

    def _record(self, painter: QPainter, args: tuple[Any, ...], caller: Any) -> None:
        device = painter.device()
        if not isinstance(device, QWidget):
            return
        text = next((a for a in args if isinstance(a, str)), None)
        if not text or not text.strip():
            return
        metrics = QFontMetricsF(painter.font())
        first = args[0]
        short = ""
        if isinstance(first, QRectF | QRect) and len(args) >= 3:
            box = QRectF(first)
            flags = int(args[1].value if hasattr(args[1], "value") else args[1])
            if box.width() <= 0 or box.height() <= 0:  # a point, really
                lines = metrics.boundingRect(QRectF(box.topLeft(), box.topLeft()),
                                             flags | int(Qt.TextFlag.TextDontClip.value), text)
                ink = ink_rect(metrics, lines, text)
            else:
                lines = metrics.boundingRect(box, flags, text)
                wraps = bool(flags & int(Qt.TextFlag.TextWordWrap.value))
                wrapped = wraps and lines.height() > metrics.height() * 1.5
                ink = lines if wrapped else ink_rect(metrics, lines, text)
                word = max(text.replace("\u200b", " ").split(), key=metrics.horizontalAdvance,
                           default="")
                if wraps and metrics.horizontalAdvance(word) > box.width() + SLACK:
                    short = (f"narrower than its longest word {word!r}: needs "
                             f"{metrics.horizontalAdvance(word):.0f} px, has "
                             f"{box.width():.0f}")
                elif not box.adjusted(-SLACK, -SLACK, SLACK, SLACK).contains(ink):
                    short = (f"needs {ink.width():.0f}x{ink.height():.0f} in a box of "
                             f"{box.width():.0f}x{box.height():.0f}")
        elif isinstance(first, QPointF | QPoint):
            ink = ink_rect(metrics, metrics.boundingRect(text).translated(QPointF(first)), text)
        elif len(args) >= 3 and isinstance(first, int | float) and isinstance(args[1], int | float):
            line = metrics.boundingRect(text).translated(float(first), float(args[1]))
            ink = ink_rect(metrics, line, text)
        else:
            return
        rect = painter.deviceTransform().mapRect(ink)
        ratio = device.devicePixelRatioF() or 1.0
        rect = QRectF(rect.x() / ratio, rect.y() / ratio, rect.width() / ratio,
                      rect.height() / ratio)
        owner = type(caller).__name__ if caller is not None else type(device).__name__
        item = caller if isinstance(caller, QGraphicsItem) else None
        self.drawn.append(Drawn(text, device, rect, owner, short, item))


def caller_of(frame: Any) -> Any:
    """The ``self`` of the code that called drawText (or of a helper's caller, for a
    piece painted through a shared function such as a seat's disc)."""
    first = frame.f_locals.get("self")
    node = frame
    for _ in range(3):
        here = node.f_locals.get("self")
        if isinstance(here, QGraphicsItem):
            return here
        node = node.f_back
        if node is None:
            break
    return first


def ink_rect(metrics: QFontMetricsF, lines: QRectF, text: str) -> QRectF:
    """Where ``text`` is, laid out as the line box ``lines``: across, its advance;
    up and down, its glyphs' own ink (a big numeral's ink is well inside its line
    height, and Qt cuts what leaves the box, descenders included)."""
    if "\n" in text:
        return lines
    tight = metrics.tightBoundingRect(text)
    baseline = lines.top() + metrics.ascent()
    return QRectF(lines.left(), baseline + tight.top(), lines.width(), tight.height())


class quiet:
    """Never let the probe's own bookkeeping break a paint."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> bool:
        return kind is not None and issubclass(kind, Exception)
