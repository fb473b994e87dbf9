"""The fit check: every text on a screen is whole, inside its box and alone.

``lanplay screenshots DIR`` writes ``DIR/fit.json`` from this. Nothing here is a
hand list of texts to look for: while the screens are built and painted, a
``TextProbe`` records every text the real paint code draws (``QPainter.drawText``
as called from Python: every table item) and every text shortened with "…"
(``QFontMetrics.elidedText``); ``inspect`` then reads the real widgets after
layout (labels, buttons, combo boxes, lists, graphics views and their text
items) and reports each text that is

- **elided**: shown shortened with "…" (the full text is in the finding);
- **clipped**: larger than the box it was drawn into or the widget that holds
  it, outside its graphics view's viewport, or partly covered by another widget;
- **overlapping** another text.

A text wholly covered by another widget (a table under the end screen) is not
visible and is not reported. The probe patches two Qt methods on the Python
side only while it is installed; it is a checking tool, never on in play.
"""

from __future__ import annotations

import contextvars
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QPoint, QPointF, QRect, QRectF, QSize, Qt
from PyQt6.QtGui import QFontMetrics, QFontMetricsF, QPainter, QTextDocument
from PyQt6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
    QGraphicsItem,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QLabel,
    QListWidget,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionViewItem,
    QTabBar,
    QTableWidget,
    QTreeWidget,
    QWidget,
)

from lanplay.locale import language

SLACK = 1.5
"""Pixels a text may exceed its box by (anti-aliasing and rounding), and the
least overlap in both directions that counts as two texts overlapping."""
ELLIPSIS = "\u2026"


@dataclass(frozen=True)
class Problem:
    """One text that does not fit, in window coordinates."""

    kind: str
    """"elided", "clipped" or "overlap"."""
    text: str
    where: str
    """The widget (class and object name) or graphics item that shows it."""
    rect: tuple[int, int, int, int]
    """x, y, width, height in the window."""
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "where": self.where,
                "rect": list(self.rect), "detail": self.detail}


@dataclass
class _Drawn:
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
    drawn: list[_Drawn] = field(default_factory=list)
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
                with _quiet():
                    probe._record(painter, args, _caller(sys._getframe(1)))
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
                ink = _ink(metrics, lines, text)
            else:
                lines = metrics.boundingRect(box, flags, text)
                wrapped = bool(flags & int(Qt.TextFlag.TextWordWrap.value)) \
                    and lines.height() > metrics.height() * 1.5
                ink = lines if wrapped else _ink(metrics, lines, text)
                if not box.adjusted(-SLACK, -SLACK, SLACK, SLACK).contains(ink):
                    short = (f"needs {ink.width():.0f}x{ink.height():.0f} in a box of "
                             f"{box.width():.0f}x{box.height():.0f}")
        elif isinstance(first, QPointF | QPoint):
            ink = _ink(metrics, metrics.boundingRect(text).translated(QPointF(first)), text)
        elif len(args) >= 3 and isinstance(first, int | float) and isinstance(args[1], int | float):
            line = metrics.boundingRect(text).translated(float(first), float(args[1]))
            ink = _ink(metrics, line, text)
        else:
            return
        rect = painter.deviceTransform().mapRect(ink)
        ratio = device.devicePixelRatioF() or 1.0
        rect = QRectF(rect.x() / ratio, rect.y() / ratio, rect.width() / ratio,
                      rect.height() / ratio)
        owner = type(caller).__name__ if caller is not None else type(device).__name__
        item = caller if isinstance(caller, QGraphicsItem) else None
        self.drawn.append(_Drawn(text, device, rect, owner, short, item))


def _caller(frame: Any) -> Any:
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


def _ink(metrics: QFontMetricsF, lines: QRectF, text: str) -> QRectF:
    """Where ``text`` is, laid out as the line box ``lines``: across, its advance;
    up and down, its glyphs' own ink (a big numeral's ink is well inside its line
    height, and Qt cuts what leaves the box, descenders included)."""
    if "\n" in text:
        return lines
    tight = metrics.tightBoundingRect(text)
    baseline = lines.top() + metrics.ascent()
    return QRectF(lines.left(), baseline + tight.top(), lines.width(), tight.height())


class _quiet:
    """Never let the probe's own bookkeeping break a paint."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> bool:
        return kind is not None and issubclass(kind, Exception)


# --- inspecting a window -------------------------------------------------------------


def inspect(window: QWidget, probe: TextProbe) -> list[Problem]:
    """Every text of ``window`` (as laid out now) that does not fit.

    Paints the window once with the probe recording, so the texts the tables
    draw are seen as they are on screen, then reads the widgets themselves.
    """
    probe.drawn.clear()
    probe.recording = True
    try:
        window.grab()
    finally:
        probe.recording = False
    found: list[tuple[str, QRectF, str]] = []
    """Every visible text: (text, window rect, where) for the overlap check."""
    problems: list[Problem] = []
    for drawn in probe.drawn:
        where = f"{drawn.owner} in {_name(drawn.widget)}"
        seen, cut = _visibility(window, drawn.widget, drawn.rect)
        if seen == "hidden":
            continue
        under = _under_pieces(window, drawn)
        if under == "hidden":
            continue
        if under == "partly" and seen == "shown":
            seen = "under a piece"  # on the table by design: not cut, no overlap
        problems.extend(_text_problems(probe, drawn.text, where, drawn.rect))
        if drawn.box_short:
            problems.append(_problem("clipped", drawn.text, where, drawn.rect,
                                     drawn.box_short))
        problems.extend(_cut(drawn.text, where, drawn.rect, seen, cut))
        if seen == "shown":  # one partly under another widget is reported as such
            found.append((drawn.text, drawn.rect, where))
    for widget in _visible_widgets(window):
        for text, rect, short in _widget_texts(window, widget):
            where = _name(widget)
            placed = QRectF(_window_rect(window, widget)) if rect is None else rect
            seen, cut = _visibility(window, widget, placed)
            if seen == "hidden":
                continue
            problems.extend(_text_problems(probe, text, where, placed))
            if short:
                problems.append(_problem("clipped", text, where, placed, short))
            else:
                problems.extend(_cut(text, where, placed, seen, cut))
            if not isinstance(widget, QAbstractItemView) and seen == "shown":
                # (item rows lay themselves out); in a scroll area only what is in view
                found.append((text, _in_view(window, widget, placed), where))
        if isinstance(widget, QGraphicsView):
            viewport = widget.viewport()
            if viewport is None:
                continue
            for text, rect, where in _scene_texts(window, widget):
                seen, cut = _visibility(window, viewport, rect)
                if seen == "hidden":
                    continue
                problems.extend(_text_problems(probe, text, where, rect))
                problems.extend(_cut(text, where, rect, seen, cut))
                if seen == "shown":
                    found.append((text, rect, where))
    problems.extend(_overlaps(found))
    return _unique(problems)


def _under_pieces(window: QWidget, drawn: _Drawn) -> str:
    """Whether pieces stacked above the item that drew a text hide it: "hidden",
    "partly" or "" (none). A piece hides only where it says it is opaque
    (``QGraphicsItem.opaqueArea``: a frog's disc, the aim's power label), so by
    default nothing counts as covering."""
    item = drawn.item
    view = drawn.widget.parentWidget()
    if item is None or not isinstance(view, QGraphicsView) or item.scene() is None:
        return ""
    scene = item.scene()
    assert scene is not None
    rect = drawn.rect
    inner = rect.adjusted(1, 1, -1, -1) if rect.width() > 2 and rect.height() > 2 else rect
    points = [inner.center(), inner.topLeft(), inner.topRight(), inner.bottomLeft(),
              inner.bottomRight()]
    covered = 0
    for point in points:
        at = view.mapToScene(drawn.widget.mapFrom(window, point.toPoint()))
        for other in scene.items(at, Qt.ItemSelectionMode.IntersectsItemShape,
                                 Qt.SortOrder.DescendingOrder):
            if other is item or other.isAncestorOf(item) or item.isAncestorOf(other):
                break  # reached the text's own item: nothing above covers this point
            if other.isVisible() and other.opaqueArea().contains(other.mapFromScene(at)):
                covered += 1
                break
    if covered == len(points):
        return "hidden"
    return "partly" if covered else ""


def _cut(text: str, where: str, rect: QRectF, seen: str, cut: str) -> list[Problem]:
    if cut:
        return [_problem("clipped", text, where, rect, f"cut off by {cut}")]
    if seen == "covered":
        return [_problem("clipped", text, where, rect, "partly covered by another widget")]
    return []


def _text_problems(probe: TextProbe, text: str, where: str, rect: QRectF) -> list[Problem]:
    out = []
    for line in text.splitlines() or [text]:
        full = probe.elided.get(line)
        if full is not None:
            out.append(_problem("elided", line, where, rect, f"the whole text is {full!r}"))
    return out


def _widget_texts(window: QWidget, widget: QWidget) -> Iterator[tuple[str, QRectF | None, str]]:
    """(text, rect in the window or None for the widget's own, why it is short)."""
    if isinstance(widget, QLabel):
        text = widget.text()
        if not text or (widget.pixmap() is not None and not widget.pixmap().isNull()):
            return
        yield _label_text(widget), _label_ink(window, widget), _label_short(widget)
    elif isinstance(widget, QPushButton | QCheckBox | QRadioButton):
        text = widget.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        if text.strip():
            hint = widget.sizeHint()
            short = f"needs {hint.width()} px wide, has {widget.width()}" \
                if widget.width() + SLACK < hint.width() else ""
            yield text, None, short
    elif isinstance(widget, QAbstractButton):
        if widget.text().strip():
            yield widget.text(), None, ""
    elif isinstance(widget, QComboBox):
        text = widget.currentText()
        if text.strip():
            need = widget.fontMetrics().horizontalAdvance(text) + 40
            short = f"needs about {need} px, has {widget.width()}" \
                if widget.width() + SLACK < need else ""
            yield text, None, short
    elif isinstance(widget, QTabBar):
        for i in range(widget.count()):
            tab = widget.tabRect(i)
            need = widget.fontMetrics().horizontalAdvance(widget.tabText(i)) + 16
            short = f"needs {need} px, has {tab.width()}" if tab.width() + SLACK < need else ""
            yield widget.tabText(i), QRectF(_map_rect(widget, tab, window)), short
    elif isinstance(widget, QTreeWidget | QListWidget | QTableWidget):
        yield from _item_view_texts(window, widget)


def _label_text(label: QLabel) -> str:
    if label.textFormat() == Qt.TextFormat.PlainText or "<" not in label.text():
        return label.text()
    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText()


def _label_short(label: QLabel) -> str:
    """Why a label's text does not fit the label ("" when it does), by Qt's own hints."""
    if label.wordWrap():
        need = label.heightForWidth(label.width())
        if need > label.height() + SLACK:
            return f"needs {need} px high at this width, has {label.height()}"
        return ""
    hint = label.minimumSizeHint()
    if hint.width() > label.width() + SLACK:
        return f"needs {hint.width()} px wide, has {label.width()}"
    if hint.height() > label.height() + SLACK:
        return f"needs {hint.height()} px high, has {label.height()}"
    return ""


def _label_ink(window: QWidget, label: QLabel) -> QRectF:
    """Where a label's text sits in the window (its box may be much larger)."""
    box = label.contentsRect().adjusted(label.margin(), label.margin(), -label.margin(),
                                        -label.margin())
    if label.wordWrap():
        size = QSize(box.width(), min(box.height(), label.heightForWidth(label.width())))
    else:
        hint = label.minimumSizeHint()
        size = QSize(min(box.width(), hint.width()), min(box.height(), hint.height()))
    placed = QStyle.alignedRect(label.layoutDirection(), label.alignment(), size, box)
    return QRectF(_map_rect(label, placed, window))


def _item_view_texts(window: QWidget, view: QAbstractItemView) -> Iterator[tuple[str, QRectF, str]]:
    model = view.model()
    port = view.viewport()
    if model is None or port is None:
        return
    visible = port.rect()
    columns = 1 if isinstance(view, QListWidget) else model.columnCount()
    metrics = view.fontMetrics()
    for row in range(min(model.rowCount(), 500)):
        for column in range(columns):
            index = model.index(row, column)
            text = str(index.data() or "")
            if not text.strip():
                continue
            cell = view.visualRect(index)
            if cell.isEmpty() or not cell.intersects(visible):
                continue
            short = _cell_short(view, index, cell, text, metrics)
            # A row half past the top or bottom of a list scrolls into view; across,
            # the whole cell must be there.
            top, bottom = max(cell.top(), visible.top()), min(cell.bottom(), visible.bottom())
            shown = QRect(cell.left(), top, cell.width(), bottom - top + 1)
            yield text, QRectF(_map_rect(port, shown, window)), short


def _cell_short(view: QAbstractItemView, index: Any, cell: QRect, text: str,
                metrics: QFontMetrics) -> str:
    """Why a cell's text does not fit its cell ("" when it does), as the view's own
    delegate measures it: its icon, the style's padding, and wrapped lines where the
    view wraps (the delegate elides in C++, out of the probe's sight)."""
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = QRect(cell)
    option.index = index
    wraps = bool(getattr(view, "wordWrap", lambda: False)())
    if wraps:
        option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
    delegate = view.itemDelegateForIndex(index)
    if delegate is None:
        return ""
    need = delegate.sizeHint(option, index)
    if wraps:
        words = max((metrics.horizontalAdvance(w) for w in text.split()), default=0)
        single = QStyleOptionViewItem(option)
        single.features &= ~QStyleOptionViewItem.ViewItemFeature.WrapText
        pad = delegate.sizeHint(single, index).width() - metrics.horizontalAdvance(text)
        if words + pad > cell.width() + SLACK:
            return f"a word needs {words + pad} px, has {cell.width()}"
        if need.height() > cell.height() + SLACK:
            return f"needs {need.height()} px high at this width, has {cell.height()}"
        return ""
    if need.width() > cell.width():  # the delegate elides to the exact pixel
        return f"needs {need.width()} px, has {cell.width()}"
    return ""


def _scene_texts(window: QWidget, view: QGraphicsView) -> Iterator[tuple[str, QRectF, str]]:
    scene = view.scene()
    port = view.viewport()
    if scene is None or port is None:
        return
    for item in scene.items():
        if not item.isVisible() or item.opacity() <= 0.01:
            continue
        if isinstance(item, QGraphicsSimpleTextItem):
            text = item.text()
        elif isinstance(item, QGraphicsTextItem):
            text = item.toPlainText()
        else:
            continue
        if not text.strip():
            continue
        polygon = view.mapFromScene(item.sceneBoundingRect())
        rect = QRectF(_map_rect(port, polygon.boundingRect(), window))
        yield text, rect, f"{type(item).__name__} in {_name(view)}"


def _overlaps(found: list[tuple[str, QRectF, str]]) -> list[Problem]:
    out = []
    for i, (text, rect, where) in enumerate(found):
        for other, other_rect, _other_where in found[i + 1:]:
            both = rect.intersected(other_rect)
            if both.width() <= SLACK * 2 or both.height() <= SLACK * 2:
                continue
            if other == text and abs(rect.x() - other_rect.x()) < 3 \
                    and abs(rect.y() - other_rect.y()) < 3:
                continue  # the same text twice on the spot: a shadow
            out.append(_problem("overlap", text, where, rect,
                                f"overlaps {other!r} at {_fmt(other_rect)}"))
    return out


# --- where things are ---------------------------------------------------------------


def _visible_widgets(window: QWidget) -> Iterator[QWidget]:
    stack = [window]
    while stack:
        widget = stack.pop()
        if not widget.isVisible():
            continue
        yield widget
        stack.extend(w for w in widget.findChildren(QWidget,
                                                    options=Qt.FindChildOption.FindDirectChildrenOnly)
                     if not w.isWindow())


def _window_rect(window: QWidget, widget: QWidget | None) -> QRectF:
    if widget is None:
        return QRectF()
    return QRectF(_map_rect(widget, widget.rect(), window))


def _map_rect(widget: QWidget, rect: QRect | QRectF, window: QWidget | None = None) -> QRect:
    top = window if window is not None else widget.window()
    box = rect.toRect() if isinstance(rect, QRectF) else rect
    origin = widget.mapTo(top, box.topLeft()) if top is not widget else box.topLeft()
    return QRect(origin, box.size())


def _visibility(window: QWidget, widget: QWidget, rect: QRectF) -> tuple[str, str]:
    """(seen, cut) of a text at ``rect`` shown by ``widget``.

    ``cut`` names the widget that cuts the text off: the widget itself when the
    text spills out of it (a table's text beyond its view, wholly or partly), or
    an ancestor too small for it; "" when none does. The edge of a scroll area
    (a list, a form that scrolls) cuts nothing: what is beyond it can be
    scrolled to. ``seen`` is "shown", "covered" (partly under another widget)
    or "hidden" (wholly under one, or scrolled out of sight)."""
    part = QRectF(rect)
    cut = ""
    node: QWidget | None = widget
    while node is not None:
        box = _window_rect(window, node)
        if _scrolls(node) and node is not widget:
            if not cut and not _across(node) and (part.left() < box.left() - SLACK
                                                  or part.right() > box.right() + SLACK):
                cut = _name(node.parentWidget())  # no scroll bar across: it is cut
            part = part.intersected(box)
            if part.isEmpty():
                break
        elif not cut and not _inside(part, box):
            cut = _name(node)
        if node is window:
            break
        node = node.parentWidget()
    if part.isEmpty():  # out of sight: scrolled away, or cut off where it cannot be
        return ("covered", cut) if cut else ("hidden", "")
    inner = part.adjusted(2, 2, -2, -2) if part.width() > 4 and part.height() > 4 else part
    points = [inner.center(), inner.topLeft(), inner.topRight(), inner.bottomLeft(),
              inner.bottomRight()]
    # Beyond the window's edge nothing is seen: such a point counts as neither shown nor
    # covered (the cut is reported above).
    points = [p for p in points if QRectF(window.rect()).contains(p)]
    if not points:
        return ("covered" if cut else "hidden"), cut
    shown = 0
    for point in points:
        at = window.childAt(point.toPoint()) or window
        # The widget itself, one of its children, or (outside its rect) an ancestor.
        if _is_inside(at, widget) or _is_inside(widget, at):
            shown += 1
    if shown == 0:
        return ("hidden" if not cut else "covered"), cut
    return ("shown" if shown == len(points) else "covered"), cut


def _in_view(window: QWidget, widget: QWidget, rect: QRectF) -> QRectF:
    """The part of ``rect`` inside the scroll areas that hold ``widget`` (the rest is
    scrolled out of sight, under nothing)."""
    part = QRectF(rect)
    node = widget.parentWidget()
    while node is not None and node is not window:
        if _scrolls(node):
            part = part.intersected(_window_rect(window, node))
        node = node.parentWidget()
    return part


def _scrolls(widget: QWidget) -> bool:
    """Whether ``widget`` is the viewport of a scroll area whose content may lie
    beyond it (a table's graphics view never scrolls: its edge cuts)."""
    area = widget.parentWidget()
    return (isinstance(area, QAbstractScrollArea) and not isinstance(area, QGraphicsView)
            and area.viewport() is widget)


def _across(viewport: QWidget) -> bool:
    """Whether the scroll area of ``viewport`` can scroll sideways."""
    area = viewport.parentWidget()
    return not (isinstance(area, QAbstractScrollArea)
                and area.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


def _is_inside(child: QWidget, parent: QWidget) -> bool:
    """Whether ``child`` is ``parent`` or one of its descendants."""
    node: QWidget | None = child
    while node is not None:
        if node is parent:
            return True
        node = node.parentWidget()
    return False


def _inside(rect: QRectF, box: QRectF) -> bool:
    return box.adjusted(-SLACK, -SLACK, SLACK, SLACK).contains(rect)


def _name(widget: QWidget | None) -> str:
    if widget is None:
        return "?"
    name = widget.objectName()
    return f"{type(widget).__name__}({name})" if name else type(widget).__name__


def _fmt(rect: QRectF) -> str:
    return f"{rect.x():.0f},{rect.y():.0f} {rect.width():.0f}x{rect.height():.0f}"


def _problem(kind: str, text: str, where: str, rect: QRectF, detail: str) -> Problem:
    return Problem(kind, text, where, (round(rect.x()), round(rect.y()), round(rect.width()),
                                       round(rect.height())), detail)


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[str, str, str, tuple[int, int, int, int]]] = set()
    out = []
    for problem in problems:
        key = (problem.kind, problem.text, problem.where, problem.rect)
        if key not in seen:
            seen.add(key)
            out.append(problem)
    return out




# --- a run of screens --------------------------------------------------------------


class FitCheck:
    """The fit check of one window size of a ``lanplay screenshots`` run: a probe
    installed for the whole run (elisions happen while tables lay out, long before a
    paint; several sizes may share one) and the problems of every screen by name,
    written as ``fit.json``."""

    def __init__(self, size: tuple[int, int], probe: TextProbe | None = None) -> None:
        self.size = size
        self.probe = probe if probe is not None else TextProbe()
        self.screens: dict[str, list[Problem]] = {}
        self._token: contextvars.Token[FitCheck | None] | None = None

    def __enter__(self) -> FitCheck:
        self.probe.install()
        self._token = _CURRENT.set(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _CURRENT.reset(self._token)
            self._token = None
        self.probe.uninstall()

    def screen(self, name: str, window: QWidget, over: QWidget | None = None) -> list[Problem]:
        """Check ``window`` as it is now, under the screen's ``name``; a dialog opened
        ``over`` a window must also fit inside it (or the window's screen cuts it)."""
        found = inspect(window, self.probe)
        if over is not None:
            found = outside(window, over) + found
        self.screens[name] = found
        return found

    def write(self, path: Path) -> None:
        data = {"size": f"{self.size[0]}x{self.size[1]}", "lang": language(),  # whose words
                "screens": {name: [p.to_json() for p in found]
                            for name, found in sorted(self.screens.items())}}
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")

    @property
    def problems(self) -> int:
        return sum(len(found) for found in self.screens.values())


def outside(dialog: QWidget, window: QWidget) -> list[Problem]:
    """A dialog larger than the window it opens over: on a screen the window's size
    part of it is off the screen (a 960x720 dialog over a 1024x640 window)."""
    size, room = dialog.size(), window.size()
    if size.width() <= room.width() and size.height() <= room.height():
        return []
    title = dialog.windowTitle() or _name(dialog)
    return [Problem("clipped", title, _name(dialog), (0, 0, size.width(), size.height()),
                    f"the dialog is {size.width()}x{size.height()}, larger than the "
                    f"{room.width()}x{room.height()} window it opens over")]


_CURRENT: contextvars.ContextVar[FitCheck | None] = contextvars.ContextVar(
    "lanplay_fit_check", default=None)


def current() -> FitCheck | None:
    """The fit check of the screenshots run in progress, if any (demo renderers
    report the tables they draw to it)."""
    return _CURRENT.get()


__all__ = ["FitCheck", "Problem", "TextProbe", "current", "inspect", "outside"]
