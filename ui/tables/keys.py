"""The pieces a person can act on, for the keyboard and for assistive technology.

A table says what can be acted on now as a list of ``Target``s (a card of my
hand, a tile of the tower, a cell of the tier list, a frog): its name in words,
its key ("3") and what taking it does. ``PieceKeys`` keeps one ``PieceButton``
per target over the piece, a real (transparent) widget: Tab and the arrows
move between them, Enter or Space takes the one with the focus, its key takes
it from anywhere on the table, and a screen reader reads its name and role
("push button") as the focus lands on it.

Why widgets: a ``QGraphicsItem`` has no accessible interface of its own, and
PyQt6 (6.11) wraps none of ``QAccessible``, ``QAccessibleInterface`` or
``installFactory``, so a scene's pieces cannot be exposed from Python. Widgets
are exposed by Qt itself (on Linux over AT-SPI): one stand-in per piece, kept
in step with the scene, gives each piece a name, a role, a state (enabled or
not, focused) and a place on the screen. The buttons are transparent to the
mouse: clicks and drags still reach the pieces under them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from PyQt6.QtCore import QRect, QRectF, Qt, QTimer
from PyQt6.QtGui import QColor, QKeyEvent, QPainter, QPaintEvent, QPen
from PyQt6.QtWidgets import QAbstractButton, QApplication, QWidget

from ui.words.i18n import _

ARROWS_BACK = (Qt.Key.Key_Left, Qt.Key.Key_Up)
ARROWS_ON = (Qt.Key.Key_Right, Qt.Key.Key_Down)
ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
HELD = (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        | Qt.KeyboardModifier.MetaModifier)
"""Keys held with these are the window's shortcuts (Ctrl+0), never a piece's."""


@dataclass
class Target:
    """One thing a person can act on now (or read: ``enabled=False``)."""

    ident: Hashable
    """Stable across redraws (a card's id): the focus stays on it when the table redraws."""
    name: str
    """What a screen reader says: "Your hand: 7 (III), playable"."""
    act: Callable[[], None]
    """What its key, Enter, Space or a click on it does."""
    rect: QRectF
    """Where the piece lies, in the coordinates of the widget the buttons sit on."""
    key: str = ""
    """Its key ("3", "S"): one letter or digit, drawn on the piece by the table."""
    description: str = ""
    enabled: bool = True
    """False: a piece to read (a card that cannot be played now), skipped by Tab."""


def key_name(event: QKeyEvent) -> str:
    """"3", "S": the letter or digit of a key press, whatever the layout's shifted
    character; "" for any other key or a key held with Ctrl, Alt or Meta."""
    if event.modifiers() & HELD:
        return ""
    key = event.key()
    if Qt.Key.Key_0 <= key <= Qt.Key.Key_9 or Qt.Key.Key_A <= key <= Qt.Key.Key_Z:
        return chr(key)
    return ""


CHOICE = "lanplay_choice"
"""The property of a table's open-choice box ("Bell up (1)", "Turn down II (1)")."""


def choice_keys(table: QWidget, event: QKeyEvent) -> bool:
    """An open choice on ``table`` takes its keys (1, 2, ..., Esc) wherever on the table
    the focus is (a piece, the tour's bubble, the table itself): True if one took it."""
    for box in table.findChildren(QWidget):
        if box.property(CHOICE) and box.isVisible():
            take = getattr(box, "take_key", None)
            if callable(take) and take(event):
                return True
    return False


def is_enter(event: QKeyEvent) -> bool:
    return event.key() in ENTER and not event.modifiers() & HELD


def spoken(target: Target) -> str:
    """The button's accessible name: the target's name and its key."""
    if not target.key:
        return target.name
    # translators: after a piece's name for a screen reader, e.g. "7 (III), playable, key 3"
    return _("{name}, key {key}").format(name=target.name, key=target.key)


class PieceButton(QAbstractButton):
    """A transparent stand-in over one piece: focus, Enter and Space, a name and a role.

    It draws only a focus ring (white over black, so it reads on felt and on an
    ivory card alike, and is never told by colour alone)."""

    def __init__(self, keys: PieceKeys, host: QWidget) -> None:
        super().__init__(host)
        self.keys = keys
        self.target: Target | None = None
        self.setObjectName("pieceButton")
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.clicked.connect(self._take)

    def show_target(self, target: Target, rect: QRect) -> None:
        self.target = target
        name = spoken(target)
        if self.accessibleName() != name:
            self.setAccessibleName(name)  # no text: it draws none (the piece under it does)
        if self.accessibleDescription() != target.description:
            self.setAccessibleDescription(target.description)
        self.setEnabled(target.enabled)
        if self.geometry() != rect:
            self.setGeometry(rect)
        if self.isHidden():
            self.show()

    def _take(self) -> None:
        if self.target is not None and self.target.enabled:
            self.keys.take(self.target)

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        if event is None:
            return
        if self.keys.claimed(event):
            return
        key = event.key()
        if (is_enter(event) or key == Qt.Key.Key_Space) and not event.modifiers() & HELD:
            self.click()
            return
        if key in ARROWS_BACK or key in ARROWS_ON:
            self.keys.step(self, -1 if key in ARROWS_BACK else 1)
            return
        event.ignore()  # on to the table (a piece's key, Esc): Qt hands it up

    def keyReleaseEvent(self, event: QKeyEvent | None) -> None:
        if event is not None:
            event.ignore()  # Space was taken on the press: no second click on release

    def paintEvent(self, event: QPaintEvent | None) -> None:
        if not self.hasFocus():
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        box = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor("#101010"), 5.0))
        painter.drawRoundedRect(box, 8, 8)
        painter.setPen(QPen(QColor("#FFFFFF"), 2.5, Qt.PenStyle.DashLine))
        painter.drawRoundedRect(box, 8, 8)
        painter.end()


class PieceKeys:
    """The stand-ins of one table's targets, kept in step with what it draws.

    ``targets`` gives the list afresh; ``refresh`` (the scene changed) brings the
    buttons in line at the next turn of the event loop, and every key press does
    it at once, so a key always acts on what lies on the table now. ``claim`` is
    the table's first look at a key (an open choice, an aim in progress);
    ``controls`` are the table's own buttons, which follow its pieces in the Tab
    order."""

    def __init__(self, table: QWidget, host: QWidget,
                 targets: Callable[[], Sequence[Target]],
                 claim: Callable[[QKeyEvent], bool] | None = None,
                 controls: Callable[[], Sequence[QWidget]] | None = None) -> None:
        self.table = table
        self.host = host
        self._targets = targets
        self._claim = claim
        self._controls = controls
        self.buttons: list[PieceButton] = []
        self._by_ident: dict[Hashable, PieceButton] = {}
        self._timer = QTimer(table)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.sync)

    def refresh(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def targets(self) -> list[Target]:
        return list(self._targets())

    def sync(self) -> list[PieceButton]:
        """One button per target, in the targets' order (the Tab order too)."""
        self._timer.stop()
        targets = self.targets()
        focused = QApplication.focusWidget()
        had = focused if isinstance(focused, PieceButton) and focused in self.buttons else None
        had_index = self.buttons.index(had) if had is not None else -1
        kept: dict[Hashable, PieceButton] = {}
        buttons: list[PieceButton] = []
        for target in targets:
            button = self._by_ident.pop(target.ident, None)
            if button is None:
                button = PieceButton(self, self.host)
            button.show_target(target, target.rect.toAlignedRect())
            kept[target.ident] = button
            buttons.append(button)
        gone = list(self._by_ident.values())
        self._by_ident, self.buttons = kept, buttons
        previous: QWidget = self.table
        controls = [w for w in self._controls() if not w.isHidden()] if self._controls else []
        for widget in [*buttons, *controls]:  # the table's own buttons follow its pieces
            QWidget.setTabOrder(previous, widget)
            previous = widget
        if had is not None and had in gone:
            self._refocus(had_index)
        for button in gone:
            button.hide()
            button.target = None
            button.deleteLater()
        return buttons

    def _refocus(self, index: int) -> None:
        """The piece with the focus went (played): the focus goes to the one that took
        its place, else to the table, never to a control outside it."""
        live = [b for b in self.buttons if b.isEnabled()]
        if live:
            live[min(max(index, 0), len(live) - 1)].setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def take(self, target: Target) -> None:
        target.act()
        self.refresh()

    def claimed(self, event: QKeyEvent) -> bool:
        """The table's own use of a key comes first (Esc closing a choice, an aim)."""
        return self._claim is not None and self._claim(event)

    def step(self, button: QWidget | None, by: int) -> None:
        """The focus to the next (``by`` 1) or previous piece that can be taken."""
        live = [b for b in self.sync() if b.isEnabled()]
        if not live:
            return
        at = live.index(button) if button in live else (-1 if by > 0 else 0)
        live[(at + by) % len(live)].setFocus(Qt.FocusReason.TabFocusReason)

    def press(self, event: QKeyEvent) -> bool:
        """A key pressed on the table itself: a piece's key takes it; an arrow moves the
        focus onto the pieces. False: not a key of the pieces (Enter opens the chat)."""
        key = key_name(event)
        if key:
            self.sync()
            for target in self.targets():
                if target.enabled and target.key.upper() == key:
                    self.take(target)
                    return True
            return False
        arrow = event.key() in ARROWS_BACK or event.key() in ARROWS_ON
        if arrow and not event.modifiers() & HELD:
            self.step(None, -1 if event.key() in ARROWS_BACK else 1)
            return bool(self.buttons)
        return False

    def focused(self) -> Target | None:
        focus = QApplication.focusWidget()
        if isinstance(focus, PieceButton) and focus in self.buttons:
            return focus.target
        return None


__all__ = ["CHOICE", "PieceButton", "PieceKeys", "Target", "choice_keys", "is_enter", "key_name",
           "spoken"]
