"""Reading a laid-out window as a person sees it, for the fit check: every text its
widgets show (labels, buttons, combo boxes, lists, tables, graphics views and
their items) with the box it has, and how much of a box is visible (inside its
scroll area and viewport, not covered by another widget).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from PyQt6.QtCore import QRect, QRectF, QSize, Qt
from PyQt6.QtGui import QFontMetrics, QTextDocument
from PyQt6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
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

from ui.tools.fit_probe import SLACK

FRAME = 2
"""A button's frame (the style's border), above and below its line of text."""


def widget_texts(window: QWidget, widget: QWidget) -> Iterator[tuple[str, QRectF | None, str]]:
    """(text, rect in the window or None for the widget's own, why it is short)."""
    if isinstance(widget, QLabel):
        text = widget.text()
        if not text or (widget.pixmap() is not None and not widget.pixmap().isNull()):
            return
        yield label_text(widget), label_ink(window, widget), label_short(widget)
    elif isinstance(widget, QPushButton | QCheckBox | QRadioButton):
        text = widget.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        if text.strip():
            hint = widget.sizeHint()
            short = f"needs {hint.width()} px wide, has {widget.width()}" \
                if widget.width() + SLACK < hint.width() else ""
            line = widget.fontMetrics().height() + 2 * FRAME
            if not short and widget.height() + SLACK < line:
                # squashed by a column too short for it (padding may give way, the line not)
                short = f"needs {line} px high for its line, has {widget.height()}"
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
            yield widget.tabText(i), QRectF(map_rect(widget, tab, window)), short
    elif isinstance(widget, QTreeWidget | QListWidget | QTableWidget):
        yield from item_view_texts(window, widget)


def label_text(label: QLabel) -> str:
    if label.textFormat() == Qt.TextFormat.PlainText or "<" not in label.text():
        return label.text()
    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText()


def label_short(label: QLabel) -> str:
    """Why a label's text does not fit the label ("" when it does), by Qt's own hints;
    a wrapping label narrower than its longest word shows the word cut or one word a
    line in a column (Ranking Top's choice box once did, 100 px wide)."""
    if label.wordWrap():
        word, need_w = longest_word(label_text(label), label.fontMetrics())
        room = label.contentsRect().width() - 2 * label.margin() - 2 * label.indent() \
            if label.indent() > 0 else label.contentsRect().width() - 2 * label.margin()
        if need_w > room + SLACK:
            return f"narrower than its longest word {word!r}: needs {need_w} px, has {room}"
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


def longest_word(text: str, metrics: QFontMetrics) -> tuple[str, int]:
    """The widest word of ``text`` and its width."""
    best, width = "", 0
    for word in text.replace("\u200b", " ").split():  # a zero-width space breaks a line too
        w = metrics.horizontalAdvance(word)
        if w > width:
            best, width = word, w
    return best, width


def label_ink(window: QWidget, label: QLabel) -> QRectF:
    """Where a label's text sits in the window (its box may be much larger)."""
    box = label.contentsRect().adjusted(label.margin(), label.margin(), -label.margin(),
                                        -label.margin())
    if label.wordWrap():
        size = QSize(box.width(), min(box.height(), label.heightForWidth(label.width())))
    else:
        hint = label.minimumSizeHint()
        size = QSize(min(box.width(), hint.width()), min(box.height(), hint.height()))
    placed = QStyle.alignedRect(label.layoutDirection(), label.alignment(), size, box)
    return QRectF(map_rect(label, placed, window))


def item_view_texts(window: QWidget, view: QAbstractItemView) -> Iterator[tuple[str, QRectF, str]]:
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
            short = cell_short(view, index, cell, text, metrics)
            # A row half past the top or bottom of a list scrolls into view; across,
            # the whole cell must be there.
            top, bottom = max(cell.top(), visible.top()), min(cell.bottom(), visible.bottom())
            shown = QRect(cell.left(), top, cell.width(), bottom - top + 1)
            yield text, QRectF(map_rect(port, shown, window)), short


def cell_short(view: QAbstractItemView, index: Any, cell: QRect, text: str,
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


def scene_texts(window: QWidget, view: QGraphicsView) -> Iterator[tuple[str, QRectF, str]]:
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
        rect = QRectF(map_rect(port, polygon.boundingRect(), window))
        yield text, rect, f"{type(item).__name__} in {widget_name(view)}"


def visible_widgets(window: QWidget) -> Iterator[QWidget]:
    stack = [window]
    while stack:
        widget = stack.pop()
        if not widget.isVisible():
            continue
        yield widget
        stack.extend(w for w in widget.findChildren(QWidget,
                                                    options=Qt.FindChildOption.FindDirectChildrenOnly)
                     if not w.isWindow())


def window_rect(window: QWidget, widget: QWidget | None) -> QRectF:
    if widget is None:
        return QRectF()
    return QRectF(map_rect(widget, widget.rect(), window))


def map_rect(widget: QWidget, rect: QRect | QRectF, window: QWidget | None = None) -> QRect:
    top = window if window is not None else widget.window()
    box = rect.toRect() if isinstance(rect, QRectF) else rect
    origin = widget.mapTo(top, box.topLeft()) if top is not widget else box.topLeft()
    return QRect(origin, box.size())


def visibility_of(window: QWidget, widget: QWidget, rect: QRectF) -> tuple[str, str]:
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
        box = window_rect(window, node)
        if scrolls(node) and node is not widget:
            if not cut and not across(node) and (part.left() < box.left() - SLACK
                                                  or part.right() > box.right() + SLACK):
                cut = widget_name(node.parentWidget())  # no scroll bar across: it is cut
            part = part.intersected(box)
            if part.isEmpty():
                break
        elif not cut and not rect_inside(part, box):
            cut = widget_name(node)
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
    # A note laid over the table on purpose (the first-turn walkthrough's bubble, which
    # the player dismisses) hides what is under it; it does not cut it.
    clear = [p for p in points if not _under_overlay(window, widget, p)]
    if len(clear) < len(points):
        return ("hidden" if not clear else "under a note"), cut
    for point in points:
        at = window.childAt(point.toPoint()) or window
        # The widget itself, one of its children, or (outside its rect) an ancestor.
        if child_inside(at, widget) or child_inside(widget, at):
            shown += 1
    if shown == 0:
        return ("hidden" if not cut else "covered"), cut
    return ("shown" if shown == len(points) else "covered"), cut


def _under_overlay(window: QWidget, widget: QWidget, point: Any) -> bool:
    at = window.childAt(point.toPoint())
    node = at
    while node is not None and node is not window:
        if node.property("lanplay_overlay") and not child_inside(widget, node):
            return True
        node = node.parentWidget()
    return False


def in_view(window: QWidget, widget: QWidget, rect: QRectF) -> QRectF:
    """The part of ``rect`` inside the scroll areas that hold ``widget`` (the rest is
    scrolled out of sight, under nothing)."""
    part = QRectF(rect)
    node = widget.parentWidget()
    while node is not None and node is not window:
        if scrolls(node):
            part = part.intersected(window_rect(window, node))
        node = node.parentWidget()
    return part


def scrolls(widget: QWidget) -> bool:
    """Whether ``widget`` is the viewport of a scroll area whose content may lie
    beyond it (a table's graphics view never scrolls: its edge cuts)."""
    area = widget.parentWidget()
    return (isinstance(area, QAbstractScrollArea) and not isinstance(area, QGraphicsView)
            and area.viewport() is widget)


def across(viewport: QWidget) -> bool:
    """Whether the scroll area of ``viewport`` can scroll sideways."""
    area = viewport.parentWidget()
    return not (isinstance(area, QAbstractScrollArea)
                and area.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


def child_inside(child: QWidget, parent: QWidget) -> bool:
    """Whether ``child`` is ``parent`` or one of its descendants."""
    node: QWidget | None = child
    while node is not None:
        if node is parent:
            return True
        node = node.parentWidget()
    return False


def rect_inside(rect: QRectF, box: QRectF) -> bool:
    return box.adjusted(-SLACK, -SLACK, SLACK, SLACK).contains(rect)


def widget_name(widget: QWidget | None) -> str:
    if widget is None:
        return "?"
    name = widget.objectName()
    return f"{type(widget).__name__}({name})" if name else type(widget).__name__


def fmt_rect(rect: QRectF) -> str:
    return f"{rect.x():.0f},{rect.y():.0f} {rect.width():.0f}x{rect.height():.0f}"
