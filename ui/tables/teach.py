"""The table teaches: a first turn walked through in a few short steps, once per game.

The first time a person plays a game on this laptop (the window remembers which
games it has taught), the table shows three or four steps in the window's
language, each pointing at the real pieces it names ("This is your hand"), with
a frame round them. A step goes by a click on "Got it" or by doing it: any move
the player sends ends the step it asked for. F1 still has the whole rules.

Game-neutral: a table names where its pieces lie (``teach_spot(key)``, a rect
in the table's own coordinates, or None where it has none just now); the steps
say which key each points at. Drawing and words only: it sends nothing.

The bubble never lies over a control that can be used now and that it does not
point at (``live_rects``: the table's enabled buttons and pieces, its lists, and
what the table names with ``teach_avoid()``, such as a top window's countdown): it
goes beside the pieces it names, else to the nearest free place, and moves again
whenever the table changes, so a real-time moment finds its controls free at once.
Its buttons never take the focus: the table keeps the keys, Enter goes on and Esc
closes the tour (``GamePage`` hands them over).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PyQt6.QtCore import QEvent, QObject, QPoint, QRect, Qt, QTimer
from PyQt6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QBoxLayout,
    QComboBox,
    QFrame,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from lanplay.messages import render
from lanplay.teaching import STEPS, Step, tour_key
from ui.tables import look
from ui.tables.widgets import BUTTON_STYLE
from ui.words.i18n import _

LIVE = (QAbstractButton, QAbstractItemView, QAbstractSlider, QComboBox, QLineEdit)
"""Widgets a person uses: a bubble over one would be in the way."""
MARGIN = 8
"""Room kept between the bubble and the table's edge, the pieces and the controls."""


class Walkthrough(QFrame):
    """The steps over a table: a frame round the pieces and a bubble with the words."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("teachBubble")
        self.setProperty("lanplay_overlay", True)  # laid over the table on purpose
        self.setStyleSheet(
            "#teachBubble { background: #FFF6D6; border: 2px solid #8A6D2F;"
            " border-radius: 10px; }"
            "#teachBubble QLabel { color: #1A1408; }" + BUTTON_STYLE)
        self.frame = QFrame(parent)
        self.frame.setObjectName("teachFrame")
        self.frame.setStyleSheet("#teachFrame { border: 3px dashed #FFD866;"
                                 " border-radius: 8px; background: transparent; }")
        self.frame.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.frame.hide()
        self.count = QLabel(self)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.ok = QPushButton(_("Got it"), self)
        self.ok.clicked.connect(self.next)
        self.skip = QPushButton(_("Skip the tour"), self)
        self.skip.clicked.connect(self.finish)
        for button in (self.ok, self.skip):
            # A click on the bubble leaves the keys with the table (its pieces' keys
            # play at once); Enter and Esc reach the bubble through the game page.
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        row = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        row.addStretch(1)
        row.addWidget(self.skip)
        row.addWidget(self.ok)
        self.buttons_row = row
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 8, 12, 10)
        column.setSpacing(4)
        column.addWidget(self.count)
        column.addWidget(self.text)
        column.addLayout(row)
        self.steps: tuple[Step, ...] = ()
        self.step = 0
        self.table: Any = None
        self.done: Callable[[], None] | None = None
        self._again = QTimer(self)
        """Once more when the table has laid itself out (its pieces move after a resize)."""
        self._again.setSingleShot(True)
        self._again.setInterval(0)
        self._again.timeout.connect(self._settled)
        self.hide()

    @property
    def active(self) -> bool:
        return bool(self.steps) and self.step < len(self.steps)

    def start(self, table: Any, key: str, done: Callable[[], None]) -> bool:
        """Walk through the steps of tour ``key`` (``tour_key``) over ``table``; ``done``
        once they are over (read, done or skipped). False when there are none."""
        self.steps = STEPS.get(key, ())
        if not self.steps:
            return False
        self.table, self.done, self.step = table, done, 0
        intent = getattr(table, "intent", None)
        if intent is not None:
            intent.connect(self._acted)
        # The table, and what its pieces lie on (the felt's viewport, S-tier's board):
        # when one changes size or place, the pieces have moved.
        for widget in (table, getattr(getattr(table, "keys", None), "host", None)):
            if isinstance(widget, QWidget):
                widget.installEventFilter(self)
        self._show_step()
        return True

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        if event is not None and self.active and event.type() in (QEvent.Type.Resize,
                                                                  QEvent.Type.Move):
            self._again.start()  # after the table has laid its pieces out anew
        return False

    def _acted(self, _action: object) -> None:
        """The player did something on the table: the step that asked for it is done."""
        if self.active:
            self.next()

    def next(self) -> None:
        self.step += 1
        if self.step >= len(self.steps):
            self.finish()
        else:
            self._show_step()

    def finish(self) -> None:
        """Over (read, done or skipped): hidden, and remembered by whoever started it."""
        self.step = len(self.steps)
        self.hide()
        self.frame.hide()
        if self.done is not None:
            done, self.done = self.done, None
            done()

    def abandon(self) -> None:
        """Its table goes (another game): hidden, and not remembered as read."""
        self.done = None
        self.step = len(self.steps)
        self.hide()
        self.frame.hide()

    def place(self) -> None:
        """The table changed size or its pieces moved: point at them again (now, and
        once more when whatever the change set off has been laid out)."""
        if self.active:
            self._show_step()
            self._again.start()

    def _settled(self) -> None:
        if self.active:
            self._show_step()

    def _show_step(self) -> None:
        key, words = self.steps[self.step]
        parent = self.parentWidget()
        if parent is None:
            return
        t = look.default_px()
        self.count.setFont(look.font(t * 0.95))
        self.text.setFont(look.font(t * 1.1, bold=True))
        self.ok.setFont(look.font(t, bold=True))
        self.skip.setFont(look.font(t * 0.95))
        self.count.setText(_("Step {n} of {total}").format(n=self.step + 1,
                                                            total=len(self.steps)))
        self.text.setText(render({"key": words}))  # the lanplay catalogue's, as the page's
        spot_of = getattr(self.table, "teach_spot", None)
        spot = spot_of(key) if callable(spot_of) else None
        bounds = parent.rect()
        if isinstance(spot, QRect) and spot.isValid():
            spot = spot.intersected(bounds.adjusted(4, 4, -4, -4))
            self.frame.setGeometry(spot.adjusted(-6, -6, 6, 6))
            self.frame.show()
            self.frame.raise_()
        else:
            spot = None
            self.frame.hide()
        avoid = live_rects(parent, (self, self.frame))
        best: tuple[int, int, QPoint] | None = None
        for width in self._widths(bounds):  # the widest that finds a free place
            self._fit_size(width)
            point, covered = place_bubble(self.size(), spot, bounds, avoid)
            if best is None or covered < best[1]:
                best = (width, covered, point)
            if not covered:
                break
        assert best is not None
        if best[0] != self.width():
            self._fit_size(best[0])
        self.move(best[2])
        self.show()
        self.raise_()

    def _marked(self, button: QPushButton, text: str, key: str) -> int:
        """``button`` with ``text`` and its key's mark ("Got it (Enter)"): its width."""
        # translators: a tour's buttons with their keys, "Got it (Enter)", "Skip the tour (Esc)"
        button.setText(_("{choice} ({key})").format(choice=text, key=key))
        return button.sizeHint().width()

    def _widths(self, bounds: QRect) -> list[int]:
        """The bubble's widths to try, widest first: as wide as its buttons in a row (a
        third of the table at most, beyond that), then narrower, down to a column."""
        for widget in (self, self.count, self.text, self.ok, self.skip):
            widget.ensurePolished()  # the style sheet's padding counts
        buttons = self._marked(self.ok, _("Got it"), _("Enter")) + 6 + 24 + 4 \
            + self._marked(self.skip, _("Skip the tour"), _("Esc"))
        most = bounds.width() - 2 * MARGIN
        first = min(max(300, buttons, round(bounds.width() * 0.3)), most)
        return [first] + [w for w in (380, 320, 270, 230) if w < first]

    def _fit_size(self, width: int) -> None:
        """``width`` wide, as tall as its words then wrap; its buttons one under the
        other where a row of them is wider, and without their keys' marks where even
        one is (Enter and Esc still work)."""
        row = self.buttons_row
        marked = width >= max(self._marked(self.ok, _("Got it"), _("Enter")),
                              self._marked(self.skip, _("Skip the tour"), _("Esc"))) + 28
        if not marked:
            self.ok.setText(_("Got it"))
            self.skip.setText(_("Skip the tour"))
        buttons = self.skip.sizeHint().width() + self.ok.sizeHint().width() + 6 + 24 + 4
        row.setDirection(QBoxLayout.Direction.LeftToRight if buttons <= width
                         else QBoxLayout.Direction.TopToBottom)
        self.setFixedWidth(width)
        layout = self.layout()
        assert layout is not None
        layout.activate()
        self.setFixedHeight(max(layout.totalHeightForWidth(width),
                                layout.totalMinimumSize().height()) + 4)


def live_rects(table: QWidget, own: Sequence[QWidget] = ()) -> list[QRect]:
    """Where, in ``table``'s coordinates, lie the controls a person may use now: its
    enabled buttons (the pieces' stand-ins among them), lists and fields, and what the
    table itself names (``teach_avoid()``: a countdown, a legend drawn on the felt)."""
    keys = getattr(table, "keys", None)
    sync = getattr(keys, "sync", None)
    if callable(sync):
        sync()  # the pieces' stand-ins as the table lies now, not at the next turn
    rects: list[QRect] = []
    for widget in table.findChildren(QWidget):
        if any(w is widget or w.isAncestorOf(widget) for w in own):
            continue
        if not widget.isVisible() or not widget.isEnabled():
            continue
        if isinstance(widget, LIVE) or widget.property("teach_live"):
            rects.append(QRect(widget.mapTo(table, QPoint(0, 0)), widget.size()))
    avoid = getattr(table, "teach_avoid", None)
    extra = avoid() if callable(avoid) else []
    rects += [r for r in extra if isinstance(r, QRect) and r.isValid()]
    return [r for r in rects if r.width() > 0 and r.height() > 0]


def place_bubble(size: Any, spot: QRect | None, bounds: QRect,
                 avoid: Iterable[QRect]) -> tuple[QPoint, int]:
    """Where the bubble goes: beside the spot it points at (above, below, then the
    sides), else the free place nearest to it, never over a control in ``avoid`` nor
    over the spot (unless the spot is most of the table, as "the board" is); inside
    ``bounds``. Where no place is free, the one that covers the least. Returns the
    place and how much it covers (0: nothing)."""
    w, h = size.width(), size.height()
    inner = bounds.adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
    blocked = [r.adjusted(-4, -4, 4, 4) for r in avoid]
    big = spot is not None and spot.width() * spot.height() > 0.4 * bounds.width() * \
        bounds.height()
    if spot is not None and not big:
        blocked.append(spot.adjusted(-6, -6, 6, 6))
    target = spot.center() if spot is not None else bounds.center()

    def clamp(x: int, y: int) -> QRect:
        x = max(inner.left(), min(x, inner.right() - w + 1))
        y = max(inner.top(), min(y, inner.bottom() - h + 1))
        return QRect(x, y, w, h)

    def covered(rect: QRect) -> int:
        return sum(r.intersected(rect).width() * r.intersected(rect).height()
                   for r in blocked if r.intersects(rect))

    beside: list[QRect] = []
    if spot is not None:
        gap = 14
        cx, cy = spot.center().x() - w // 2, spot.center().y() - h // 2
        for x in (cx, spot.left(), spot.right() - w):
            beside.append(clamp(x, spot.top() - h - gap))
            beside.append(clamp(x, spot.bottom() + gap))
        beside.append(clamp(spot.left() - w - gap, cy))
        beside.append(clamp(spot.right() + gap, cy))
    else:
        beside.append(clamp(target.x() - w // 2, target.y() - h // 2))
    for rect in beside:
        if not covered(rect):
            return rect.topLeft(), 0
    step = 12
    grid = [clamp(x, y) for y in range(inner.top(), inner.bottom() - h + 2, step)
            for x in range(inner.left(), inner.right() - w + 2, step)]
    grid += [clamp(inner.right(), y) for y in range(inner.top(), inner.bottom(), step)]
    grid += [clamp(x, inner.bottom()) for x in range(inner.left(), inner.right(), step)]

    def distance(rect: QRect) -> int:
        return (rect.center() - target).manhattanLength()

    free = [r for r in grid if not covered(r)]
    if free:
        return min(free, key=distance).topLeft(), 0
    least = min([*beside, *grid], key=lambda r: (covered(r), distance(r)))
    return least.topLeft(), covered(least)


__all__ = ["STEPS", "Walkthrough", "live_rects", "place_bubble", "tour_key"]
