"""The frame every felt table shares: banner, felt scene and view, log panel, toast.

A table subclasses ``FeltTable``, draws its scene in ``_rebuild`` and keeps
its own look; the frame does what is the same on every table: the banner
over a never-scrolling felt view, the log panel beside it (collapsible), a
toast near where the player looked, and a refit and redraw when the window
or the application font (Ctrl+plus / Ctrl+minus) changes size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PyQt6.QtCore import QEvent, QPointF, QRect, QRectF, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QKeyEvent, QResizeEvent
from PyQt6.QtWidgets import QGraphicsScene, QHBoxLayout, QVBoxLayout, QWidget

from lanplay.messages import render
from ui.look import pictures
from ui.tables import look
from ui.tables.keys import PieceKeys, Target, choice_keys
from ui.tables.motion import Motion
from ui.tables.widgets import Banner, CachedScene, FeltView, LogPanel, Toast
from ui.words.i18n import _, and_list

LogFormat = Callable[[Mapping[str, Any], Sequence[str]], str]
PENDING_MS = 5000
"""How long an intent may wait for the host before the table is playable again."""


def names_list(names: list[str]) -> str:
    """'Ben', 'Ben and Ada', 'Ben, Ada and Lea' (in the window's language)."""
    return and_list(names)


class FeltTable(Motion, QWidget):
    """A game table drawn on a QGraphicsView of felt, with the banner and the log."""

    intent = pyqtSignal(dict)

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setProperty("table", True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.view: dict[str, Any] | None = None
        self.seats: list[dict[str, Any]] = []
        self.you: int | None = None
        self._pointer: QPointF | None = None
        self.scene: QGraphicsScene = CachedScene(self)
        self._init_motion()
        self.graphics = FeltView(self.scene, self)
        self.graphics.resized.connect(self._rebuild)
        self.graphics.unclaimed.connect(self._unclaimed)
        self.banner = Banner(self)
        self.log_panel = LogPanel(self)
        self.banner.toggle.clicked.connect(self.toggle_log)
        self.toast = Toast(self._viewport())
        # Keys and assistive technology: the table takes the focus (a click on the felt
        # gives it to the table, not to the view), and each piece that can be taken
        # has a stand-in widget over it (``ui.tables.keys``).
        self.graphics.setFocusProxy(self)
        self.keys = PieceKeys(self, self._viewport(), self.key_targets, self._claim_key,
                              self.key_controls)
        self.scene.changed.connect(self.keys.refresh)
        # Pictures drawn since a piece painted its name: the pieces paint again (their
        # caches keep what they drew); a signal, so a table gone is never reached.
        pictures.arrivals().arrived.connect(self._pictures_arrived)

        left = QVBoxLayout()
        left.setContentsMargins(0, 0, 0, 0)
        left.setSpacing(0)
        left.addWidget(self.banner)
        left.addWidget(self.graphics, 1)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addLayout(left, 1)
        row.addWidget(self.log_panel)

    def _pictures_arrived(self) -> None:
        """The pieces that show a picture (a tile: its ``picture``) paint it now; the rest
        keep their caches (a piece mid-animation, scaled to nothing, once crashed Qt when
        its cache was drawn again)."""
        for item in self.scene.items():
            if getattr(item, "picture", None):
                item.update()

    def _viewport(self) -> QWidget:
        viewport = self.graphics.viewport()
        assert viewport is not None
        return viewport

    def _rebuild(self) -> None:
        """Draw the scene afresh from ``self.view`` at the viewport's size."""
        raise NotImplementedError

    # --- taking a view -------------------------------------------------------------

    def _adopt(self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
               players: int) -> None:
        """Keep ``view`` and the seats; ``you`` only when it names one of the players."""
        self.view = view
        self.seats = look.with_badges(seats)
        self.you = you if you is not None and 0 <= you < players else None

    def _show_log(self, view: dict[str, Any], fmt: LogFormat = render) -> None:
        """Each line in the words it had when it came: a stand-in's moves say so ("Lea's
        stand-in"), the moves Lea made herself before she left do not change."""
        names = look.log_names(self.seats, len(self._names()))
        self.log_panel.show_entries(list(view.get("log", [])), lambda e: fmt(e, names),
                                    self.seats)

    def _spot(self, rects: Sequence[QRectF]) -> QRect | None:
        """Scene rects as one rect in this table's coordinates (for the walkthrough's
        frame round the pieces it names); None when there are none."""
        rects = [r for r in rects if not r.isNull()]
        if not rects:
            return None
        whole = QRectF(rects[0])
        for rect in rects[1:]:
            whole = whole.united(rect)
        view = self.graphics.mapFromScene(whole).boundingRect()
        return QRect(self.graphics.mapTo(self, view.topLeft()), view.size())

    def teach_spot(self, key: str) -> QRect | None:
        """Where the pieces a walkthrough step names lie ("hand", "board", ...): each
        table says; None where it has none just now."""
        return None

    def _names(self) -> list[str]:
        players = int(self.view.get("players", 0)) if self.view else len(self.seats)
        return [look.seat_name(self.seats, s) for s in range(players)]

    def _name(self, seat: Any) -> str:
        names = self._names()
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else \
            _("someone")

    def _phase(self) -> str:
        view = self.view or {}
        return "over" if view.get("over") else str(view.get("phase", ""))

    # --- keys --------------------------------------------------------------------------

    def key_targets(self) -> list[Target]:
        """What can be taken now, by key or by a screen reader (none by default)."""
        return []

    def key_controls(self) -> list[QWidget]:
        """The table's own buttons (Pass, Confirm): after its pieces in the Tab order."""
        return []

    def _claim_key(self, event: QKeyEvent) -> bool:
        """A key the table uses before the pieces' keys (an open choice's Esc)."""
        return False

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """The table's own keys, then the pieces' keys and arrows; anything else goes on
        to the page (Enter there opens the chat)."""
        if event is None:
            return
        if self._claim_key(event) or choice_keys(self, event) or self.keys.press(event):
            return
        event.ignore()

    def _item_rect(self, item: Any, pad: float = 0.0) -> QRectF:
        """Where a piece lies on the viewport (for its stand-in button)."""
        rect = self.graphics.mapFromScene(item.sceneBoundingRect()).boundingRect()
        return QRectF(rect).adjusted(-pad, -pad, pad, pad)

    # --- the frame -------------------------------------------------------------------

    def toggle_log(self) -> None:
        self.log_panel.setVisible(self.log_panel.isHidden())
        self.banner.toggle.setText(_("Show log") if self.log_panel.isHidden() else
                                   _("Hide log"))

    def _toast_home(self) -> QPointF | None:
        """Where a message goes when the player has not pointed anywhere yet."""
        return None

    def _toast(self, text: str) -> None:
        """``text`` near where the player looked, for a few seconds."""
        where = self._pointer if self._pointer is not None else self._toast_home()
        if where is None:
            where = QPointF(self.graphics.width() / 2, self.graphics.height() / 2)
        self.toast.show_text(text, self.graphics.mapFromScene(where))

    # --- a click that does nothing says why -----------------------------------------------

    def _hint_pieces(self) -> list[Any]:
        """Pieces a player may try to click when they cannot: my hand, by default."""
        return list(getattr(self, "hand_items", []))

    def _why_not(self) -> str:
        """Why a piece cannot be played now, in one sentence."""
        if self.you is None:
            return _("You are watching: spectators cannot move.")
        if self._phase() == "over":
            return _("The game is over.")
        text = self.banner.text.strip()
        # translators: how every "Waiting for ..." instruction line of the tables begins
        if text.startswith(_("Waiting for")):
            return _("It is not your turn: {waiting}.").format(waiting=text[:1].lower()
                                                               + text[1:])
        return _("Not that one now. {instruction}.").format(instruction=text) if text else ""

    def _unclaimed(self, at: QPointF) -> None:
        """A press on a piece that takes no click now: say why, near the pointer."""
        if self.view is None or not any(item.isVisible() and item.sceneBoundingRect()
                                        .contains(at) for item in self._hint_pieces()):
            return
        text = self._why_not()
        if text:
            self._pointer = at
            self._toast(text)

    def _refit(self) -> None:
        self.log_panel.fit(self.width(), self.height())
        self.banner.fit(self.height())

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        self._refit()

    def changeEvent(self, event: QEvent | None) -> None:
        """Ctrl+plus / Ctrl+minus change the application font: redraw at the new size."""
        super().changeEvent(event)
        if event is not None and event.type() in (QEvent.Type.FontChange,
                                                  QEvent.Type.ApplicationFontChange):
            self._refit()
            self._rebuild()


class WaitingTable(FeltTable):
    """A felt table that sends one intent at a time and waits for the host's answer.

    While an intent is out the table stays quiet (no second click can race it);
    a new view, a refusal or PENDING_MS without an answer make it playable again.
    """

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(name, parent)
        self._pending = False
        self._pending_timer = QTimer(self)
        self._pending_timer.setSingleShot(True)
        self._pending_timer.setInterval(PENDING_MS)
        self._pending_timer.timeout.connect(self._clear_pending)

    def _stop_waiting(self) -> None:
        """A view came: whatever was sent has had its answer."""
        self._pending = False
        self._pending_timer.stop()

    def _send(self, action: dict[str, Any]) -> None:
        self._pending = True
        self._pending_timer.start()
        self.intent.emit(action)

    def show_rejection(self, reason: str) -> None:
        """The host's reason, near where the player looked, for a few seconds."""
        self._clear_pending()
        self._toast(reason)

    def _clear_pending(self) -> None:
        """No answer (or a refusal): make the table playable again."""

        self._stop_waiting()
        if self.view is not None:
            self._rebuild()
