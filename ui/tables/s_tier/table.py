"""The S-tier table: the topic, the tier list, the mode's buttons, players and log.

A view becomes a ``Scene`` through the panel of its mode (cooperative,
competitive, team); the table lays the scene out and routes the board's
gestures and the buttons back to the panel, which emits intents. Nothing
here decides a rule: the host checks every intent and a refusal comes back
through ``show_rejection``.
"""

from __future__ import annotations

from typing import Any, Protocol

from PyQt6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QKeyEvent, QResizeEvent
from PyQt6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from lanplay.messages import render
from ui.tables import look
from ui.tables.keys import PieceKeys, Target, is_enter, key_name
from ui.tables.s_tier.board import TierBoard
from ui.tables.s_tier.board_keys import BUTTON_KEYS, targets
from ui.tables.s_tier.common import Button, Context, Scene
from ui.tables.s_tier.competitive import CompetitivePanel
from ui.tables.s_tier.coop import CoopPanel
from ui.tables.s_tier.side import SidePanel
from ui.tables.s_tier.team import TeamPanel
from ui.tables.widgets import BUTTON_STYLE, Banner, LogPanel, Toast
from ui.words.i18n import N_, _, content

CHECKED_STYLE = (
    "QPushButton:checked { background: #0B3D91; color: #FFFFFF; border-color: #FFD866; }"
    "QPushButton:disabled { background: #4A5752; color: #A9B5AF; border-color: #3A4641; }"
)


LOG_MIN = 120
"""The least height the log is shown at under the side panel (else it folds away)."""

REVEAL_MS = 2500
"""A reveal stays on the board this long (a click on the board, or a person's next move
through the window's pacer, ends it sooner): it has more to read than a trick."""
MOVE_MS = 260


class Panel(Protocol):
    def scene(self, ctx: Context) -> Scene: ...
    def reveal_scene(self, ctx: Context) -> Scene | None: ...
    def on_move(self, ctx: Context, picture: str, target: tuple[int, int] | None) -> None: ...
    def on_flip(self, ctx: Context, picture: str) -> None: ...


PANELS: dict[str, type[Any]] = {
    "cooperative": CoopPanel,
    "competitive": CompetitivePanel,
    "team": TeamPanel,
}


class STierTable(QWidget):
    """The table widget the window embeds for a game of S-tier."""

    intent = pyqtSignal(dict)
    KEYS = (("1-9", N_("choose a picture you may move (the key shows on it)")),
            ("S, A, B, C, D", N_("put the chosen picture in that tier (your only picture "
                                 "needs no choosing)")),
            ("0", N_("put the chosen picture back under the tiers")),
            ("F", N_("show the chosen card's other face (Choose the side)")),
            ("N", N_("submit your note")),
            ("L", N_("lock in, or unlock")),
            ("W, Q", N_("say Wrong!, or stay silent")),
            (N_("Esc"), N_("let go of the chosen picture")),
            (N_("Enter, Space or Esc"), N_("after a reveal: on to the next round")))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sTierTable")
        self.setProperty("table", True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.view: dict[str, Any] | None = None
        self.seats: list[dict[str, Any]] = []
        self.you: int | None = None
        self.ctx: Context | None = None
        self.scene_: Scene | None = None
        self.panels: dict[str, Panel] = {}
        self.buttons: dict[str, QPushButton] = {}
        self._pointer: QPointF | None = None
        self.revealing = False
        """The board shows the reveal that just happened, not yet the next round."""
        self._reveal_topic = ""
        self._reveal_timer = QTimer(self)
        self._reveal_timer.setSingleShot(True)
        self._reveal_timer.timeout.connect(self.end_reveal)
        self._hold_ms = 0

        self.banner = Banner(self)
        self.banner.toggle.clicked.connect(self.toggle_log)
        self.centre = QFrame(self)
        self.centre.setObjectName("stierCentre")
        self.centre.setStyleSheet("#stierCentre { background: qradialgradient(cx:0.5, cy:0.45,"
                                  " radius:0.9, stop:0 #1E4A38, stop:1 #153628); }"
                                  + BUTTON_STYLE + CHECKED_STYLE)
        self.topic = QLabel(self.centre)
        self.topic.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.topic.setWordWrap(True)
        self.board = TierBoard(self.centre)
        self.board.installEventFilter(self)
        self.board.moved.connect(self._moved)
        self.board.flipped.connect(self._flipped)
        self.message = QLabel(self.centre)
        self.message.setWordWrap(True)
        self.message.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.button_row = QHBoxLayout()
        self.button_row.setSpacing(8)
        bar = QHBoxLayout()
        bar.setSpacing(12)
        bar.addWidget(self.message, 1)
        bar.addLayout(self.button_row)
        column = QVBoxLayout(self.centre)
        column.setContentsMargins(16, 8, 16, 10)
        column.setSpacing(6)
        column.addWidget(self.topic)
        column.addWidget(self.board, 1)
        column.addLayout(bar)

        self.side = SidePanel(self)
        self.log_panel = LogPanel(self)
        self.log_panel.setMinimumHeight(LOG_MIN)
        self._log_wanted = True
        right = QVBoxLayout()
        right.setContentsMargins(0, 0, 0, 0)
        right.setSpacing(0)
        right.addWidget(self.side)
        right.addWidget(self.log_panel, 1)
        self.side_rest = QFrame(self)  # under the side panel when the log is folded away
        self.side_rest.setObjectName("stierRest")
        self.side_rest.setStyleSheet("#stierRest { background: #1B2A24;"
                                     " border-left: 1px solid #0B1712; }")
        right.addWidget(self.side_rest, 0)
        self.right = right
        left = QVBoxLayout()
        left.setContentsMargins(0, 0, 0, 0)
        left.setSpacing(0)
        left.addWidget(self.banner)
        left.addWidget(self.centre, 1)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addLayout(left, 1)
        row.addLayout(right)
        self.toast = Toast(self.centre)
        self.keys = PieceKeys(self, self.board, self.key_targets, self._claim_key,
                              lambda: list(self.buttons.values()))
        self._fit()

    # --- the contract --------------------------------------------------------

    def set_view(self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
                 animate: bool = True) -> None:
        """Show ``view``; tiles glide to new places unless this is a resync."""
        players = int(view.get("players", len(seats)))
        previous, self.view = self.view, view
        self.seats = look.with_badges(seats)
        self.you = you if you is not None and 0 <= you < players else None
        last = view.get("last") or {}
        fresh = (animate and previous is not None and last.get("kind") == "reveal"
                 and last != previous.get("last"))
        self._hold_ms = 0
        if fresh:
            assert previous is not None
            topic = previous.get("topic")
            self._reveal_topic = content("topic", str(topic.get("id", "")),
                                         str(topic.get("text", ""))) \
                if isinstance(topic, dict) else ""
            self.revealing = True
            self._hold_ms = REVEAL_MS
            self._reveal_timer.start(REVEAL_MS)
        elif self.revealing and last.get("kind") != "reveal":
            self._stop_reveal()
        self._render(animate)

    def teach_spot(self, key: str) -> QRect | None:
        """Where a walkthrough step points: the tier list, or the pictures to place."""
        board = self.board
        if not board.isVisible():
            return None
        if key == "pool" and board.geo is not None and not board.geo.pool.isNull():
            pool = board.geo.pool.toRect()
            return QRect(board.mapTo(self, pool.topLeft()), pool.size())
        return QRect(board.mapTo(self, QPoint(0, 0)), board.size())

    def teach_avoid(self) -> list[QRect]:
        """The cells a picture may be dropped in now: a tour's bubble keeps off them."""
        board = self.board
        if board.geo is None or not board.isVisible():
            return []
        out: list[QRect] = []
        for lane, tier in board.model.targets:
            rect = board.cell_rect(lane, tier)
            if rect is not None:
                cell = rect.toAlignedRect()
                out.append(QRect(board.mapTo(self, cell.topLeft()), cell.size()))
        return out

    def pace(self) -> tuple[int, int]:
        """(animation ms, hold ms) for the window's pacer: a reveal holds."""
        return MOVE_MS, self._hold_ms

    def end_reveal(self) -> None:
        """The reveal has been read: the board goes on to the next round."""
        if self.revealing:
            self._stop_reveal()
            self._render(animate=True)

    def _stop_reveal(self) -> None:
        self.revealing = False
        self._hold_ms = 0
        self._reveal_timer.stop()

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        """A click on the board while it shows a reveal ends the reveal (and no more);
        the pieces' stand-ins follow what the board paints."""
        if watched is self.board and event is not None \
                and event.type() == QEvent.Type.Paint:
            self.keys.refresh()
        if (watched is self.board and self.revealing and event is not None
                and event.type() == QEvent.Type.MouseButtonPress):
            self.end_reveal()
            return True
        return super().eventFilter(watched, event)

    def show_rejection(self, reason: str) -> None:
        """The host's reason, near where the player looked, for a few seconds."""
        if self._pointer is not None:
            at = self.board.mapTo(self.centre, self._pointer.toPoint())
        else:
            at = self.board.geometry().center()
        self.toast.show_text(reason, QPoint(at))
        self._render(animate=True)

    # --- rendering -------------------------------------------------------------

    def panel(self) -> Panel | None:
        mode = str((self.view or {}).get("mode", ""))
        if mode not in PANELS:
            return None
        if mode not in self.panels:
            self.panels[mode] = PANELS[mode](self._send, self._refresh)
        return self.panels[mode]

    def _refresh(self) -> None:
        self._render(animate=True)

    def _render(self, animate: bool) -> None:
        view = self.view
        panel = self.panel()
        if view is None or panel is None:
            return
        ctx = Context(view, self.seats, self.you)
        self.ctx = ctx
        scene = panel.scene(ctx)
        reveal = panel.reveal_scene(ctx) if self.revealing else None
        if reveal is not None:
            reveal.players, reveal.track, reveal.info = scene.players, scene.track, scene.info
            reveal.players_title, reveal.facts = scene.players_title, scene.facts
            if self._reveal_topic:
                reveal.topic = self._reveal_topic
            scene = reveal
        self.scene_ = scene
        seat = scene.banner_seat
        colour = look.seat_colour(self.seats, seat) if seat is not None else None
        letter = look.seat_letter(self.seats, seat) if seat is not None else ""
        self.banner.show_state(scene.banner, colour, letter, scene.info, accent=scene.accent)
        self._show_topic(scene.topic, bool(view.get("topic"))
                         or (reveal is not None and bool(self._reveal_topic)))
        self.board.set_model(scene.board, animate=animate)
        self.message.setText(scene.message)
        self.message.setStyleSheet(f"color: {'#FFD866' if scene.message_warn else '#D9E3DC'};")
        self._show_buttons(scene.buttons if self.you is not None and reveal is None else [])
        self.side.title.setText(_(scene.players_title))
        self.side.players.show_rows(scene.players, self.seats, self.you, self.side.px)
        self.side.track_title.setVisible(scene.track is not None)
        self.side.track.show_track(scene.track, self.side.px)
        timer = view.get("timer")
        if isinstance(timer, dict) and timer.get("seconds") and not ctx.over:
            scene.facts.append(_("Time limit: {seconds} s, then the host goes on with what "
                                 "lies there.").format(seconds=int(timer["seconds"])))
        self.side.facts.setText("\n".join(scene.facts))
        self._settle_side()
        names = look.log_names(self.seats, len(ctx.names))  # a stand-in says so
        self.log_panel.show_entries(list(view.get("log") or []),
                                    lambda entry: render(entry, names), self.seats)
        self.keys.refresh()

    def _settle_side(self) -> None:
        """The side column: players, track and facts whole; the log under them gets
        what is left, and folds away (Show log brings it back) when that is too little."""
        self.side.settle(self.height() - (LOG_MIN if self._log_wanted else 0))
        room = self.height() - self.side.height()
        fits = room >= LOG_MIN
        if self._log_wanted and self.log_panel.isHidden() == fits:
            self.log_panel.setVisible(fits)
            self.banner.toggle.setText(_("Hide log") if fits else _("Show log"))
        if not fits and self._log_wanted:
            self.side.settle(self.height())
        self.side_rest.setVisible(self.log_panel.isHidden())
        folded = not fits and self._log_wanted
        self.banner.toggle.setEnabled(not folded)
        self.banner.toggle.setToolTip(_("The log needs a taller window: the players come "
                                        "first") if folded else "")

    def _show_topic(self, text: str, known: bool) -> None:
        px = max(look.default_px() * 1.6, self.height() * 0.04)
        if known:
            self.topic.setFont(look.font(px, bold=True))
            self.topic.setStyleSheet("color: #FFFFFF;")
            self.topic.setText(f"\u201c{text}\u201d")
        else:
            self.topic.setFont(look.font(px * 0.6))
            self.topic.setStyleSheet("color: #B9C8BE;")
            self.topic.setText(text)

    def _show_buttons(self, buttons: list[Button]) -> None:
        names = [b.name for b in buttons]
        if names != list(self.buttons):
            for widget in self.buttons.values():
                self.button_row.removeWidget(widget)
                widget.hide()
                widget.deleteLater()
            self.buttons = {}
            for b in buttons:
                widget = QPushButton(b.label, self.centre)
                widget.setObjectName(f"stier-{b.name}")
                widget.clicked.connect(lambda _=False, name=b.name: self._pressed(name))
                self.button_row.addWidget(widget)
                self.buttons[b.name] = widget
        px = max(look.default_px() * 1.15, self.height() * 0.019)
        for b in buttons:
            widget = self.buttons[b.name]
            key = BUTTON_KEYS.get(b.name)
            widget.setText(_("{choice} ({key})").format(choice=b.label, key=key) if key
                           else b.label)
            widget.setAccessibleName(b.label)
            widget.setFont(look.font(px, bold=True))
            widget.setEnabled(b.enabled)
            widget.setCheckable(b.checked is not None)
            if b.checked is not None:
                widget.setChecked(b.checked)
            widget.setToolTip(b.tip)

    def _pressed(self, name: str) -> None:
        scene = self.scene_
        if scene is None or self.you is None:
            return
        for b in scene.buttons:
            if b.name == name and b.enabled:
                widget = self.buttons.get(name)
                if widget is not None:
                    self._pointer = QPointF(self.board.mapFrom(self.centre, widget.pos()))
                b.run()
                return

    # --- gestures -----------------------------------------------------------------

    def _send(self, action: dict[str, Any]) -> None:
        if self.you is not None:
            self.intent.emit(action)

    def _moved(self, picture: str, target: object) -> None:
        panel, ctx = self.panel(), self.ctx
        if panel is None or ctx is None or self.you is None:
            return
        cell = target if isinstance(target, tuple) else None
        if cell is not None:
            rect = self.board.cell_rect(*cell)
            self._pointer = rect.center() if rect is not None else None
        panel.on_move(ctx, picture, cell)

    def _flipped(self, picture: str) -> None:
        panel, ctx = self.panel(), self.ctx
        if panel is not None and ctx is not None and self.you is not None:
            panel.on_flip(ctx, picture)

    # --- keys -------------------------------------------------------------------------

    def key_targets(self) -> list[Target]:
        """The pictures I may move (1-9 choose one), then the tiers it may go to (their
        letters, S to D) and back under the tiers (0)."""
        return targets(self.board, self.you is not None and not self.revealing,
                       self._key_move)

    def _key_move(self, picture: str, cell: tuple[int, int] | None) -> None:
        self.board.selected = None
        self.board.update()
        self._moved(picture, cell)

    def _claim_key(self, event: QKeyEvent) -> bool:
        """A reveal on the board: Enter, Space or Esc goes on. A button's letter presses
        it; Esc lets go of a chosen picture, F shows its other face (choose the side)."""
        key = event.key()
        if self.revealing and (is_enter(event) or key in (Qt.Key.Key_Space,
                                                           Qt.Key.Key_Escape)):
            self.end_reveal()
            return True
        if key == Qt.Key.Key_Escape and self.board.selected is not None:
            self.board.selected = None
            self.board.update()
            self.keys.refresh()
            return True
        letter = key_name(event)
        for name, widget in self.buttons.items():
            if letter and BUTTON_KEYS.get(name) == letter and widget.isEnabled() \
                    and widget.isVisible():
                widget.click()
                return True
        chosen = self.board.selected or self.board._active()
        if letter == "F" and chosen is not None and any(
                t.id == chosen and t.flip for t in self.board.model.tiles()):
            self._flipped(chosen)
            return True
        return False

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        if event is None:
            return
        if self._claim_key(event) or self.keys.press(event):
            return
        event.ignore()  # on to the page: Enter opens the chat

    def chat_place(self) -> QRect:
        """Where the window's chat may lie: over the whole side column (players,
        track, facts and log), which it covers while it is open."""
        return QRect(self.side.x(), 0, self.side.width(), self.height())

    def toggle_log(self) -> None:
        self._log_wanted = self.log_panel.isHidden()
        self.log_panel.setVisible(self._log_wanted)
        self.side_rest.setVisible(not self._log_wanted)
        self.banner.toggle.setText(_("Show log") if self.log_panel.isHidden() else
                                   _("Hide log"))

    def _fit(self) -> None:
        self.log_panel.fit(self.width(), self.height())
        self.side.fit(self.width(), self.height())
        self.log_panel.setFixedWidth(self.side.width())  # one column
        self.banner.fit(self.height())
        self.message.setFont(look.font(max(look.default_px() * 1.1, self.height() * 0.018)))

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        self._fit()
        if self.view is not None:
            self._render(animate=False)

    def changeEvent(self, event: QEvent | None) -> None:
        """Ctrl+plus / Ctrl+minus change the application font: redraw at the new size."""
        super().changeEvent(event)
        if event is not None and event.type() in (QEvent.Type.FontChange,
                                                  QEvent.Type.ApplicationFontChange):
            self._fit()
            if self.view is not None:
                self._render(animate=False)


__all__ = ["STierTable"]
