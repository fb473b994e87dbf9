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
visible and is not reported; a control laid on a table's felt over its text (a
choice, a countdown, TOP! and Pass: widgets on the graphics view's viewport) is
drawn over it, and that is an overlap, however much it hides. The probe patches
two Qt methods on the Python side only while it is installed; it is a checking
tool, never on in play.
"""

from __future__ import annotations

import contextvars
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QPoint, QRect, QRectF, Qt
from PyQt6.QtGui import QImage, QRegion
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QGraphicsItem,
    QGraphicsView,
    QWidget,
)

from lanplay.locale import language
from ui.tools.fit_probe import SLACK, Drawn, TextProbe
from ui.tools.fit_reading import (
    fmt_rect,
    in_view,
    scene_texts,
    visibility_of,
    visible_widgets,
    widget_name,
    widget_texts,
    window_rect,
)


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


# --- inspecting a window -------------------------------------------------------------


def inspect(window: QWidget, probe: TextProbe) -> list[Problem]:
    """Every text of ``window`` (as laid out now) that does not fit.

    Paints the window once with the probe recording, so the texts the tables
    draw are seen as they are on screen, then reads the widgets themselves.
    """
    probe.drawn.clear()
    cached = _uncache(window)
    probe.recording = True
    try:
        window.grab()
    finally:
        probe.recording = False
        for item, mode in cached:
            item.setCacheMode(mode)
    found: list[tuple[str, QRectF, str]] = []
    """Every visible text: (text, window rect, where) for the overlap check."""
    problems: list[Problem] = []
    inks: dict[int, QImage] = {}
    """The pictures of the controls laid on a felt (``_floating``)."""
    for drawn in probe.drawn:
        where = f"{drawn.owner} in {widget_name(drawn.widget)}"
        seen, cut = visibility_of(window, drawn.widget, drawn.rect)
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
        problems.extend(_floating(window, drawn.widget, drawn.text, where, drawn.rect, inks))
        if seen == "shown":  # one partly under another widget is reported as such
            found.append((drawn.text, drawn.rect, where))
    for widget in visible_widgets(window):
        for text, rect, short in widget_texts(window, widget):
            where = widget_name(widget)
            placed = QRectF(window_rect(window, widget)) if rect is None else rect
            seen, cut = visibility_of(window, widget, placed)
            if seen == "hidden":
                continue
            problems.extend(_text_problems(probe, text, where, placed))
            if short:
                problems.append(_problem("clipped", text, where, placed, short))
            else:
                problems.extend(_cut(text, where, placed, seen, cut))
            if not isinstance(widget, QAbstractItemView) and seen == "shown":
                # (item rows lay themselves out); in a scroll area only what is in view
                found.append((text, in_view(window, widget, placed), where))
        if isinstance(widget, QGraphicsView):
            viewport = widget.viewport()
            if viewport is None:
                continue
            for text, rect, where in scene_texts(window, widget):
                seen, cut = visibility_of(window, viewport, rect)
                if seen == "hidden":
                    continue
                problems.extend(_text_problems(probe, text, where, rect))
                problems.extend(_cut(text, where, rect, seen, cut))
                problems.extend(_floating(window, viewport, text, where, rect, inks))
                if seen == "shown":
                    found.append((text, rect, where))
    problems.extend(_overlaps(found))
    return _unique(problems)


def _uncache(window: QWidget) -> list[tuple[QGraphicsItem, QGraphicsItem.CacheMode]]:
    """Turn off the pictures the felt's pieces keep of themselves (``CachedScene``) for
    the probe's paint: a cached piece draws its words into its own pixmap, where the
    probe cannot place them, and was not checked at all. Returns what to restore."""
    out: list[tuple[QGraphicsItem, QGraphicsItem.CacheMode]] = []
    for view in window.findChildren(QGraphicsView):
        scene = view.scene()
        if scene is None:
            continue
        for item in scene.items():
            mode = item.cacheMode()
            if mode != QGraphicsItem.CacheMode.NoCache:
                item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
                out.append((item, mode))
    return out


def _under_pieces(window: QWidget, drawn: Drawn) -> str:
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


def _floating(window: QWidget, widget: QWidget, text: str, where: str, rect: QRectF,
              inks: dict[int, QImage]) -> list[Problem]:
    """A control laid on the felt over a table's text: a widget on the graphics view's
    viewport (a choice, a countdown, TOP! and Pass) that draws over the text ``widget``
    shows at ``rect``. ``visibility_of`` takes such a child for the viewport itself
    (and ``childAt`` never finds one transparent for the mouse, as the countdown is),
    so without this a countdown's bar over "Passed: ..." read as nothing. Only where
    the control leaves ink counts: the keyboard's see-through stand-ins over every
    piece draw nothing but a focus ring. A note laid over the table on purpose (the
    walkthrough's bubble) hides what is under it instead. ``inks``: each control's
    picture, drawn once per screen."""
    view = widget.parentWidget()
    if not isinstance(view, QGraphicsView) or view.viewport() is not widget:
        return []
    out = []
    for child in widget.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if not child.isVisible() or child.isWindow() or child.property("lanplay_overlay"):
            continue
        box = window_rect(window, child)
        both = rect.intersected(box)
        if both.width() <= SLACK * 2 or both.height() <= SLACK * 2:
            continue
        if id(child) not in inks:
            inks[id(child)] = _ink(child)
        at = both.translated(-box.topLeft()).toAlignedRect()
        if _inked(inks[id(child)], at):
            out.append(_problem("overlap", text, where, rect,
                                f"under {widget_name(child)} at {fmt_rect(box)}"))
    return out


def _ink(widget: QWidget) -> QImage:
    """What ``widget`` and its children draw, on nothing (transparent where they do not)."""
    image = QImage(widget.size(), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    widget.render(image, QPoint(), QRegion(), QWidget.RenderFlag.DrawChildren)
    return image


def _inked(image: QImage, rect: QRect) -> bool:
    """Whether ``image`` has ink (a few pixels not transparent) inside ``rect``."""
    part = image.copy(rect.intersected(image.rect()))
    if part.isNull():
        return False
    part = part.convertToFormat(QImage.Format.Format_Alpha8)
    bits = part.constBits()
    if bits is None:
        return False
    data = bits.asstring(part.sizeInBytes())
    row, width = part.bytesPerLine(), part.width()
    return sum(1 for y in range(part.height())
               for a in data[y * row:y * row + width] if a > 24) >= 4


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
                                f"overlaps {other!r} at {fmt_rect(other_rect)}"))
    return out


# --- where things are ---------------------------------------------------------------


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
        for dialog in dialogs_over(window, over):
            found += [Problem(p.kind, p.text, f"{p.where} in {widget_name(dialog)}", p.rect,
                              p.detail) for p in outside(dialog, window)
                      + inspect(dialog, self.probe)]
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
    title = dialog.windowTitle() or widget_name(dialog)
    return [Problem("clipped", title, widget_name(dialog), (0, 0, size.width(), size.height()),
                    f"the dialog is {size.width()}x{size.height()}, larger than the "
                    f"{room.width()}x{room.height()} window it opens over")]


def dialogs_over(window: QWidget, skip: QWidget | None = None) -> list[QWidget]:
    """The dialogs and message boxes open over ``window`` (its own windows: a
    ``QMessageBox`` a table or page opened, a choice asked in a dialog), which a
    person reads with the window and a grab of the window alone never shows."""
    out: list[QWidget] = []
    for widget in QApplication.topLevelWidgets():
        if widget is window or widget is skip or not widget.isVisible():
            continue
        if not isinstance(widget, QDialog):  # a QMessageBox is one too
            continue
        node = widget.parentWidget()
        while node is not None and node is not window:
            node = node.parentWidget()
        if node is window:
            out.append(widget)
    return out


_CURRENT: contextvars.ContextVar[FitCheck | None] = contextvars.ContextVar(
    "lanplay_fit_check", default=None)


def current() -> FitCheck | None:
    """The fit check of the screenshots run in progress, if any (demo renderers
    report the tables they draw to it)."""
    return _CURRENT.get()


__all__ = ["FitCheck", "Problem", "current", "inspect", "outside"]
