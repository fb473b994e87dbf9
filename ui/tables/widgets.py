"""Plain widgets around a table: the felt view, the turn banner, the log, the
numeral choice and the rejection toast. Game-neutral, so other tables reuse them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PyQt6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, QTimer, QUrl, pyqtSignal
from PyQt6.QtGui import (
    QColor,
    QFontMetrics,
    QFontMetricsF,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QRadialGradient,
    QResizeEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextImageFormat,
)
from PyQt6.QtWidgets import (
    QApplication,
    QFrame,
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ui.tables import look, textfit
from ui.tables.keys import CHOICE, HELD
from ui.words.i18n import _

BUTTON_STYLE = (
    "QPushButton { background: #F3E6C2; color: #151515; border: 2px solid #8A6D2F;"
    " border-radius: 6px; padding: 6px 14px; font-weight: bold; }"
    "QPushButton:hover, QPushButton:focus { background: #FFD866; }"
    "QPushButton:focus { border: 3px solid #101010; padding: 5px 13px; }"
)


class CachedScene(QGraphicsScene):
    """A scene whose pieces keep a picture of themselves (``DeviceCoordinateCache``).

    An animation frame repaints the felt under every moving piece; without a cache
    every piece there is drawn again from its paths, dashes and text (a Ranking Top
    slot's dashed outline alone was 0.17 ms). With it a piece that only moves is one
    pixmap blit, and it is drawn again only when it calls ``update()`` (every piece
    does when it changes: the view would not repaint it otherwise) or is scaled.
    ``lanplay bench``, part 6: frame p50 8-10 ms to under 1 ms on every felt table."""

    def addItem(self, item: QGraphicsItem | None) -> None:
        if item is not None and item.cacheMode() == QGraphicsItem.CacheMode.NoCache:
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        super().addItem(item)


class FeltView(QGraphicsView):
    """A graphics view that never scrolls: the scene is resized to fit it."""

    resized = pyqtSignal()
    unclaimed = pyqtSignal(QPointF)
    """A left press no piece took (scene position): the table may say why not."""

    def __init__(self, scene: QGraphicsScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.TextAntialiasing)
        self.setMouseTracking(True)
        self.setMinimumSize(480, 360)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        # The felt's gradient is drawn once per size, not under every moving piece.
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        scene.sceneRectChanged.connect(self._felt_changed)

    def _felt_changed(self) -> None:
        """The gradient follows the scene's rect: draw the cached felt again."""
        self.resetCachedContent()

    def drawBackground(self, painter: QPainter | None, rect: QRectF) -> None:
        if painter is None:
            return
        area = QRectF(self.sceneRect())
        gradient = QRadialGradient(area.center(), max(area.width(), area.height()) * 0.7)
        gradient.setColorAt(0.0, look.FELT)
        gradient.setColorAt(1.0, look.FELT_EDGE)
        painter.fillRect(rect, gradient)

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        self.resized.emit()

    def mousePressEvent(self, event: QMouseEvent | None) -> None:
        super().mousePressEvent(event)
        if (event is not None and event.button() == Qt.MouseButton.LeftButton
                and not event.isAccepted()):
            self.unclaimed.emit(self.mapToScene(event.position().toPoint()))


def disc_image(colour: QColor, letter: str, px: int) -> QImage:
    """A seat's disc as an image, drawn at ``px`` so it stays sharp when shown smaller."""
    image = QImage(px, px, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    look.draw_disc(painter, QPointF(px / 2, px / 2), px / 2 - 1, colour, letter)
    painter.end()
    return image


class TurnLine(QWidget):
    """Whose turn it is, in words, after the seat's colour disc and initial."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = ""
        self.short = ""
        """A shorter wording of ``text``, shown where ``text`` does not fit."""
        self.accent = False
        self.colour: QColor | None = None
        self.letter = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def _font_px(self) -> float:
        return max(look.default_px() * 1.6, min(40.0, self.height() * 0.46))

    def sizeHint(self) -> QSize:
        return QSize(400, round(look.default_px() * 3.2))

    def paintEvent(self, event: QPaintEvent | None) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        h = self.height()
        x = h * 0.25
        if self.colour is not None:
            r = h * 0.3
            look.draw_disc(painter, QPointF(x + r, h / 2), r, self.colour, self.letter)
            x += 2 * r + h * 0.25
        painter.setPen(look.LIT if self.accent else look.INK_ON_FELT)
        box = QRectF(x, 0, self.width() - x - 8, h)
        textfit.draw(painter, self.fitted(box.width()), box,
                     Qt.AlignmentFlag.AlignLeft)
        painter.end()

    def fitted(self, width: float) -> textfit.Fitted:
        """The instruction on one line if it fits (a little smaller at most), else on
        two smaller lines, else its shorter wording (``short``) the same way: never cut
        off while the platform's size still holds it."""
        first = self._fit(self.text, width)
        if first.fits or not self.short:
            return first
        return self._fit(self.short, width)

    def _fit(self, text: str, width: float) -> textfit.Fitted:
        px = self._font_px()
        one = textfit.fit(text, width, px, 1, bold=True, min_px=px * 0.85)
        if one.fits:
            return one
        return textfit.fit(text, width, min(px, self.height() / (2 * 1.25)), 2,
                           bold=True, height=self.height() - 2)


class Banner(QFrame):
    """The strip above the table: the turn in words, the trick number, the log toggle."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tableBanner")
        self.setStyleSheet(
            "#tableBanner { background: #142920; border-bottom: 1px solid #0B1712; }"
            "#tableBanner QLabel { color: #D9E3DC; }" + BUTTON_STYLE)
        self.turn = TurnLine(self)
        self.turn.setProperty("teach_live", True)  # what to do now: a tour never hides it
        self.info = QLabel(self)
        info_font = look.font(look.default_px() * 1.2)
        self.info.setFont(info_font)
        self.toggle = QPushButton(_("Hide log"), self)
        self.toggle.setFont(look.font(look.default_px()))
        self.toggle.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 4, 12, 4)
        row.setSpacing(16)
        row.addWidget(self.turn, 1)
        row.addWidget(self.info)
        row.addWidget(self.toggle)
        self.fit(800)

    def fit(self, table_height: int) -> None:
        """Grow with the window: the turn must read from a metre away."""
        px = max(float(look.default_px()), table_height * 0.016)
        self.setFixedHeight(round(max(look.default_px() * 3.6, table_height * 0.06)))
        self.info.setFont(look.font(px * 1.2))
        self.toggle.setFont(look.font(px))

    @property
    def text(self) -> str:
        return self.turn.text

    def announce(self, text: str) -> None:
        """The turn line for assistive technology: a new accessible name is an event
        Qt sends on by itself (on Linux AT-SPI's accessible-name change, which a screen
        reader reads out); the table says it as its description too, so whoever has
        the focus on the table hears what it waits for."""
        if self.turn.accessibleName() == text:
            return
        self.turn.setAccessibleName(text)
        table = self.parentWidget()
        if table is not None:
            table.setAccessibleDescription(text)

    def show_state(self, text: str, colour: QColor | None, letter: str, info: str,
                   accent: bool = False, short: str = "") -> None:
        """The turn line (``short``: its shorter wording, where ``text`` does not fit)."""
        self.turn.text, self.turn.colour, self.turn.letter = text, colour, letter
        self.turn.short = short
        self.turn.accent = accent
        self.turn.setToolTip(text)
        self.announce(text)
        self.turn.update()
        self._info = info
        self._stack_info()

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        self._stack_info()

    def _stack_info(self) -> None:
        """The info beside the turn in one line, or its parts stacked ("Deck 22" over
        "clockwise") where the turn's words would not fit their two lines beside it."""
        info = getattr(self, "_info", "")
        metrics = QFontMetricsF(self.info.font())
        one = metrics.horizontalAdvance(info)
        parts = info.split(" · ")
        stacked = max((metrics.horizontalAdvance(p) for p in parts), default=0.0)
        row = self.layout()
        assert row is not None
        margins = row.contentsMargins()
        h = self.turn.height()
        turn = (self.width() - margins.left() - margins.right() - 2 * row.spacing()
                - self.toggle.sizeHint().width() - one
                - h * (1.1 if self.turn.colour else 0.25) - 8)
        fits = self.turn.fitted(turn).fits if self.turn.text else True
        text = info if fits or len(parts) < 2 or stacked >= one else "\n".join(parts)
        if self.info.text() != text:
            self.info.setText(text)


class LogPanel(QFrame):
    """The game's log in words, newest at the bottom; the banner's button hides it.

    A text browser rather than a list: it wraps long lines exactly, with each
    line's seat disc (colour and initial) hanging to its left.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tableLog")
        self.setStyleSheet(
            "#tableLog { background: #1B2A24; border-left: 1px solid #0B1712; }"
            "#tableLog QLabel { color: #F3F1E7; }"
            "#tableLog QTextBrowser { background: #1B2A24; color: #E8EDE9; border: none; }"
            "#tableLog QScrollBar:vertical { background: #1B2A24; width: 10px; margin: 0; }"
            "#tableLog QScrollBar::handle:vertical { background: #4A5E55; border-radius: 4px;"
            " min-height: 24px; }"
            "#tableLog QScrollBar::add-line, #tableLog QScrollBar::sub-line { height: 0; }"
            "#tableLog QScrollBar::add-page, #tableLog QScrollBar::sub-page"
            " { background: none; }")
        self.title = QLabel(_("Log"), self)
        self.text = QTextBrowser(self)
        self.text.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.text.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.text.setOpenLinks(False)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 10, 6, 10)
        column.setSpacing(8)
        column.addWidget(self.title)
        column.addWidget(self.text, 1)
        self._shown: list[tuple[str, int | None]] = []
        self._seats: list[dict[str, Any]] = []
        self._px = look.default_px()
        self.fit(1280, 800)

    def fit(self, width: int, height: int) -> None:
        """A fifth of the window or so, with text that grows with it."""
        self.setFixedWidth(max(240, min(420, round(width * 0.22))))
        px = round(max(look.default_px() * 1.1, height * 0.016))
        self.title.setFont(look.font(px * 1.2, bold=True))
        if px != self._px or self.text.font().pixelSize() != px:
            self._px = px
            self.text.setFont(look.font(px))
            self._render()

    def lines(self) -> list[str]:
        return [text for text, _ in self._shown]

    def show_entries(self, entries: Sequence[Any], words: Callable[[Any], str],
                     seats: list[dict[str, Any]]) -> None:
        """The view's log entries, each in the words it had when it first came (a line
        is not renamed later: a stand-in's name is for the moves it made)."""
        kept: list[tuple[Any, tuple[str, int | None]]] = getattr(self, "_kept", [])
        lines = []
        for i, entry in enumerate(entries):
            if i < len(kept) and kept[i][0] == entry:
                lines.append(kept[i][1])
                continue
            seats_of = entry.get("seats") if isinstance(entry, dict) else None
            first = seats_of[0] if isinstance(seats_of, list) and seats_of \
                and isinstance(seats_of[0], int) else None
            lines.append((words(entry), first))
        self._kept = list(zip(entries, lines, strict=True))
        self.show_log(lines, seats)

    def show_log(self, lines: Sequence[tuple[str, int | None]],
                 seats: list[dict[str, Any]]) -> None:
        """Show (text, seat) lines, newest at the bottom; only new lines are added."""
        lines = list(lines)
        old = self._shown
        seats = [dict(s) for s in seats]
        if lines == old and seats == self._seats:
            return
        grew = seats == self._seats and lines[:len(old)] == old
        self._shown, self._seats = lines, seats
        if grew:
            self._append(lines[len(old):], first=not old)
        else:
            self._render()

    def _render(self) -> None:
        self.text.clear()
        self._append(self._shown, first=True)

    def _append(self, lines: Sequence[tuple[str, int | None]], first: bool) -> None:
        """One paragraph per line, the seat's disc hanging left of wrapped text."""
        document = self.text.document()
        bar = self.text.verticalScrollBar()
        assert document is not None and bar is not None
        # Follow new lines, unless the player scrolled up to read.
        following = bar.value() >= bar.maximum() - 4
        kept = bar.value()
        disc = round(self._px * 1.4)
        hang = disc + round(self._px * 0.5)
        cursor = QTextCursor(document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.beginEditBlock()
        for text, seat in lines:
            block = QTextBlockFormat()
            block.setLeftMargin(hang)
            block.setTextIndent(-hang)
            block.setBottomMargin(round(self._px * 0.45))
            if first:
                cursor.setBlockFormat(block)
                first = False
            else:
                cursor.insertBlock(block)
            image = QTextImageFormat()
            image.setName(self._disc(document, seat, disc))
            image.setWidth(disc)
            image.setHeight(disc)
            image.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignTop)
            cursor.insertImage(image)
            cursor.insertText(" " + text, QTextCharFormat())
        cursor.endEditBlock()
        bar.setValue(bar.maximum() if following else kept)

    def _disc(self, document: QTextDocument, seat: int | None, px: int) -> str:
        """The resource name of a seat's disc (a blank for lines about no one)."""
        name = f"seat:{seat}:{px}" if seat is not None else f"blank:{px}"
        url = QUrl(name)
        if document.resource(QTextDocument.ResourceType.ImageResource.value, url) is None:
            if seat is None:
                image = QImage(px * 2, px * 2, QImage.Format.Format_ARGB32_Premultiplied)
                image.fill(Qt.GlobalColor.transparent)
            else:
                image = disc_image(look.seat_colour(self._seats, seat),
                                   look.seat_letter(self._seats, seat), px * 2)
            document.addResource(QTextDocument.ResourceType.ImageResource.value, url, image)
        return name


class NumeralChooser(QFrame):
    """'Turn down II' / 'Turn down V': asked before a two-numeral card is sent."""

    chosen = pyqtSignal(int)
    cancelled = pyqtSignal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("numeralChooser")
        self.setStyleSheet(
            "#numeralChooser { background: #142920; border: 2px solid #FFD866;"
            " border-radius: 10px; }"
            "#numeralChooser QLabel { color: #F3F1E7; }" + BUTTON_STYLE)
        self.setProperty(CHOICE, True)
        self.item: object = None
        self.buttons: list[QPushButton] = []
        self.label = QLabel(_("Which ranking card turns down?"), self)
        self.label.setFont(look.font(look.default_px() * 1.2, bold=True))
        self.row = QHBoxLayout()
        self.row.setSpacing(8)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 10, 12, 12)
        column.setSpacing(8)
        column.addWidget(self.label)
        column.addLayout(self.row)
        self.hide()

    def ask(self, item: object, choices: list[tuple[int, str]], left: QPoint,
            right: QPoint) -> None:
        """Offer one button per (value, label) above the card spanning ``left``..``right``."""
        for button in self.buttons:
            self.row.removeWidget(button)
            button.hide()  # gone now, not only once the event loop deletes it
            button.deleteLater()
        self.buttons = []
        self.item = item
        for i, (n, label) in enumerate(choices):
            # translators: a choice's button with the key that takes it, "Turn down II (1)"
            button = QPushButton(_("{choice} ({key})").format(choice=label, key=i + 1), self)
            button.setAccessibleName(label)
            button.setFont(look.font(look.default_px() * 1.25, bold=True))
            button.clicked.connect(lambda _=False, n=n: self.chosen.emit(n))
            self.row.addWidget(button)
            self.buttons.append(button)
        cancel = QPushButton(_("{choice} ({key})").format(choice=_("Cancel"), key=_("Esc")),
                             self)
        cancel.setAccessibleName(_("Cancel"))
        cancel.setFont(look.font(look.default_px() * 1.1))
        cancel.clicked.connect(self.cancelled.emit)
        self.row.addWidget(cancel)
        self.buttons.append(cancel)
        self.adjustSize()
        parent = self.parentWidget()
        bounds = parent.rect() if parent else self.rect()
        if self.width() > bounds.width() - 8:  # long names: the keys' marks go first
            cancel.setText(_("Cancel"))
            self.adjustSize()
        if self.width() > bounds.width() - 8:
            for button in self.buttons[:-1]:
                button.setText(button.accessibleName())
            self.adjustSize()
        x = (left.x() + right.x()) // 2 - self.width() // 2
        y = left.y() - self.height() - 10
        x = max(4, min(x, bounds.width() - self.width() - 4))
        y = max(4, min(y, bounds.height() - self.height() - 4))
        self.move(x, y)
        self.show()
        self.raise_()
        self.buttons[0].setFocus()

    def take_key(self, event: QKeyEvent) -> bool:
        """1, 2 take a choice, Esc cancels: True if ``event`` was one of them (the table
        hands them over wherever on it the focus is: ``keys.choice_keys``)."""
        index = event.key() - Qt.Key.Key_1
        if 0 <= index < len(self.buttons) - 1 and not event.modifiers() & HELD:
            self.buttons[index].click()
            return True
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            return True
        return False

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """1, 2 take a choice; the arrows go from button to button; Esc cancels (Enter
        and Space press the button with the focus)."""
        if event is None or self.take_key(event):
            return
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Up: -1, Qt.Key.Key_Right: 1,
                Qt.Key.Key_Down: 1}.get(Qt.Key(event.key()))
        focus = QApplication.focusWidget()
        if step is not None and focus in self.buttons:
            at = self.buttons.index(focus)
            self.buttons[(at + step) % len(self.buttons)].setFocus(
                Qt.FocusReason.TabFocusReason)
            return
        super().keyPressEvent(event)

    def setVisible(self, visible: bool) -> None:
        """Closing with the focus inside gives it back to the table, not to whatever
        control comes next in the window."""
        focus = QApplication.focusWidget()
        inside = not visible and focus is not None and self.isAncestorOf(focus)
        super().setVisible(visible)
        if inside:
            table = self.parentWidget()
            while table is not None and not table.property("table"):
                table = table.parentWidget()
            if table is not None:
                table.setFocus(Qt.FocusReason.OtherFocusReason)


class Toast(QLabel):
    """A short message near where the player looked; it goes away by itself."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("tableToast")
        self.setStyleSheet(
            "#tableToast { background: #2A1A12; color: #FFFFFF; border: 2px solid #D55E00;"
            " border-radius: 8px; padding: 8px 12px; }")
        self.setFont(look.font(look.default_px() * 1.2, bold=True))
        self.setWordWrap(True)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.hide)
        self.hide()

    def show_text(self, text: str, at: QPoint, ms: int = 4000) -> None:
        self.setText(text)
        self.setFixedWidth(min(460, max(200, QFontMetrics(self.font()).horizontalAdvance(text)
                                        + 32)))
        self.adjustSize()
        parent = self.parentWidget()
        bounds = parent.rect() if parent else self.rect()
        x = at.x() - self.width() // 2
        y = at.y() - self.height() - 24
        x = max(4, min(x, bounds.width() - self.width() - 4))
        y = max(4, min(y, bounds.height() - self.height() - 4))
        self.move(x, y)
        self.show()
        self.raise_()
        self.timer.start(ms)
