"""Small widgets every screen uses: a card frame, a player badge, the chat."""

from __future__ import annotations

import atexit
import html
import re
from collections.abc import Callable

from PyQt6 import sip
from PyQt6.QtCore import QEvent, QObject, QSize, Qt, pyqtSignal
from PyQt6.QtGui import QKeyEvent, QPixmap
from PyQt6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from lanplay.peer.peer import CHAT_KEPT
from ui.look import icons, theme
from ui.words.i18n import _

_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")


def label(text: str = "", look: str | None = None, *, wrap: bool = False) -> QLabel:
    out = QLabel(text)
    if look:
        theme.role(out, look)
    out.setWordWrap(wrap)
    return out


def button(text: str, look: str | None = None) -> QPushButton:
    out = QPushButton(text)
    if look:
        theme.role(out, look)
    return out


def dialog_buttons(ok_text: str, on_ok: Callable[[], None],
                   on_cancel: Callable[[], None] | None,
                   lead: QWidget | None = None) -> tuple[QHBoxLayout, QPushButton]:
    """A dialog's bottom row: ``lead`` (or space) on the left, then Cancel (when
    ``on_cancel`` is given) and the default, primary button. Returns the row and
    that button, so every dialog ends the same way."""
    row = QHBoxLayout()
    if lead is not None:
        row.addWidget(lead, 1)
    else:
        row.addStretch(1)
    if on_cancel is not None:
        cancel = button(_("Cancel"))
        cancel.clicked.connect(on_cancel)
        row.addWidget(cancel)
    ok = button(ok_text, "primary")
    ok.setDefault(True)
    ok.clicked.connect(on_ok)
    row.addWidget(ok)
    return row, ok


def fit_dialog(dialog: QWidget, over: QWidget, margin: int = 16) -> None:
    """Size ``dialog`` before it opens: as large as it asks (or was resized to), never
    larger than the window it opens over, and tall enough for its wrapped text at
    the width it gets (a top-level window does not grow for that by itself)."""
    dialog.ensurePolished()  # the stylesheet's fonts, before anything is measured
    layout = dialog.layout()
    if layout is not None:
        layout.activate()
    hint = dialog.sizeHint()
    asked = dialog.size() if dialog.testAttribute(Qt.WidgetAttribute.WA_Resized) else hint
    room_w = max(200, over.width() - margin)
    room_h = max(150, over.height() - margin)
    width = min(max(asked.width(), hint.width(), dialog.minimumWidth()), room_w)
    need = hint.height()
    if layout is not None and layout.hasHeightForWidth():
        need = max(need, layout.totalHeightForWidth(width))
    height = min(max(asked.height(), need), room_h)
    dialog.resize(width, height)
    if dialog.findChild(_Regrow) is None:
        dialog.installEventFilter(_Regrow(dialog, over, margin))


class _Regrow(QObject):
    """Grows a dialog when its words grow (an error under a field wraps into two lines):
    a top-level window does not take the height wrapped text needs by itself."""

    def __init__(self, dialog: QWidget, over: QWidget, margin: int) -> None:
        super().__init__(dialog)
        self.dialog, self.over, self.margin = dialog, over, margin

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        if watched is self.dialog and event is not None \
                and event.type() == QEvent.Type.LayoutRequest:
            layout = self.dialog.layout()
            if layout is not None and layout.hasHeightForWidth():
                need = layout.totalHeightForWidth(self.dialog.width())
                room = max(150, self.over.height() - self.margin)
                if need > self.dialog.height():
                    self.dialog.resize(self.dialog.width(), min(need, room))
        return False


class Card(QFrame):
    """A rounded panel that groups one thing on a screen."""

    def __init__(self, parent: QWidget | None = None, margin: int = 18) -> None:
        super().__init__(parent)
        theme.role(self, "card")
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(margin, margin, margin, margin)
        self.body.setSpacing(10)


class Badge(QLabel):
    """A player's colour disc with their initial (colour is never the only cue)."""

    def __init__(self, name: str = "", colour: str = "", size: int = 28,
                 parent: QWidget | None = None, *, text: str | None = None) -> None:
        super().__init__(parent)
        self._size = size
        self.setFixedSize(QSize(size, size))
        self.set(name, colour, text=text)

    def set(self, name: str, colour: str, *, bot: bool = False, faded: bool = False,
            text: str | None = None) -> None:
        """``text`` is the seat's badge (``lanplay.badges``); without it, the initials."""
        self.mark = text or icons.initials(name)
        self.setPixmap(icons.badge_pixmap(name, colour, self._size, bot=bot, faded=faded,
                                          text=text))
        self.setToolTip(name)
        self.setAccessibleName(_("{name} ({badge})").format(name=name, badge=self.mark)
                               if name else self.mark)


def pixmap_label(pm: QPixmap) -> QLabel:
    out = QLabel()
    out.setPixmap(pm)
    return out


class ChatLine(QLineEdit):
    """The line where Enter sends; Esc leaves it (``left``: the page takes the focus back)."""

    left = pyqtSignal()

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        if event is not None and event.key() == Qt.Key.Key_Escape:
            self.left.emit()
            return
        super().keyPressEvent(event)


class ChatPanel(QWidget):
    """The chat: what was said, and a line where Enter sends (Esc leaves it)."""

    send = pyqtSignal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(label(_("Chat"), "heading"))
        self.history = QTextBrowser()
        self.history.setOpenLinks(False)
        document = self.history.document()
        if document is not None:  # a host sending chat without end cannot fill the memory
            document.setMaximumBlockCount(CHAT_KEPT)
        self.history.setPlaceholderText(_("Nothing said yet."))
        layout.addWidget(self.history, 1)
        row = QHBoxLayout()
        self.line = ChatLine()
        self.line.setAccessibleName(_("Chat"))
        self.history.setAccessibleName(_("What was said"))
        self.line.setPlaceholderText(_("Say something\u2026"))
        self.line.setToolTip(_("Enter sends it to everyone at the table."))
        self.line.setMaxLength(500)
        self.line.returnPressed.connect(self._send)
        row.addWidget(self.line, 1)
        layout.addLayout(row)

    def _send(self) -> None:
        text = self.line.text().strip()
        if text:
            self.send.emit(text)
            self.line.clear()

    def add(self, sender: str, colour: str, text: str, badge: str = "") -> None:
        """A line of chat after the sender's badge (its colour and text, as on the
        table), or a plain dot for someone without a seat."""
        who = html.escape(sender or _("Someone"))

        paint = colour if _COLOUR.fullmatch(colour) else theme.MUTED  # it goes into HTML
        if badge:
            ink = theme.ink_for(paint).name()
            mark = (f'<span style="background-color:{paint}; color:{ink}; font-weight:bold">'
                    f'&nbsp;{html.escape(badge)}&nbsp;</span>')
        else:
            mark = f'<span style="color:{paint}">\u25cf</span>'
        self.history.append(f'{mark} <b>{who}</b>: {html.escape(text)}')

    def note(self, text: str) -> None:
        self.history.append(f'<i style="color:{theme.MUTED}">{html.escape(text)}</i>')

    def clear(self) -> None:
        self.history.clear()


class EnterPresses(QObject):
    """Enter (or the keypad's) presses the push button that has the focus, as Space
    does, on every page and table and in every dialog: a button reached by Tab answers
    the key a person presses to say yes. Check boxes and radio buttons keep Qt's
    meaning of Enter (the dialog's default button)."""

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        if (event is not None and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent)
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
                and not event.isAutoRepeat()):
            focus = QApplication.focusWidget()
            if (watched is focus and isinstance(focus, QPushButton | QToolButton)
                    and focus.isEnabled() and focus.isVisible()):
                focus.click()
                return True
        return False


def press_on_enter(app: QApplication) -> None:
    """Install ``EnterPresses`` on the application, once."""
    if app.findChild(EnterPresses, "enterPresses") is None:
        presses = EnterPresses(app)
        presses.setObjectName("enterPresses")
        app.installEventFilter(presses)
        # Taken off before the interpreter tears its objects down: an application-wide
        # filter written in Python, still called while QApplication's destructor sends
        # its last events, ended the process with a segmentation fault.
        # (At exit, not on aboutToQuit: tests and a window that runs again after a quit
        # keep the application, and Enter must still press buttons there.)
        atexit.register(_take_off, app, presses)


def _take_off(app: QApplication, presses: EnterPresses) -> None:
    if not sip.isdeleted(app) and not sip.isdeleted(presses):
        app.removeEventFilter(presses)
        presses.setObjectName("")  # (so a later press_on_enter installs one again)


def hline() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setStyleSheet(f"color: {theme.BORDER};")
    return line


__all__ = ["Badge", "Card", "ChatPanel", "button", "fit_dialog", "hline", "label",
           "pixmap_label"]


class Banner(QWidget):
    """A line across the top of the window for what concerns every page (reconnecting,
    a host that cannot save); hidden while it has nothing to say."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 0)
        self.frame = Card(margin=10)
        theme.role(self.frame, "banner")
        self.text = label("", wrap=True)  # a paused host's banner is two sentences
        self.frame.body.addWidget(self.text)
        layout.addWidget(self.frame)
        self.hide()

    def say(self, text: str) -> None:
        self.text.setText(text)
        self.setVisible(bool(text))
