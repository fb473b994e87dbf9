"""The Ranagedon table: the playing area with its frogs, aiming by mouse, flights.

Everything drawn comes from the view the host sent and the lobby's seat
maps; nothing here decides where a frog lands. To jump, press on the
coloured border of one of your lit frogs and pull back (``aim``):
the press point, an arrow the other way and a power bar show the aim, never
a landing. A diver slides instead while "Dive" is on. While deploying, pick
one of the suggested clusters or drag your frogs, then Confirm.

The table is turned by quarter turns so my own side sits at the bottom; the
host's millimetres and angles are unchanged by that (``Board``). A new
``last`` flies the frog along the host's trajectory (``flight``), then every
frog snaps exactly to the sent positions; ``animate=False`` jumps there.

This module is the widget: it keeps the view and the input state, lays out
the table and turns presses into intents. What the view says is read in
``reading``, the scene is drawn in ``scene``, the buttons beside the board are
``actions``, and the playback of a jump is ``flight``.
"""

from __future__ import annotations

import math
from typing import Any

from PyQt6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFocusEvent, QKeyEvent, QMouseEvent
from PyQt6.QtWidgets import QPushButton, QWidget

from lanplay.games.ranagedon.model import reach
from lanplay.messages import render
from ui.tables import look
from ui.tables.keys import Target
from ui.tables.ranagedon import flight
from ui.tables.ranagedon.actions import ActionPanel
from ui.tables.ranagedon.aim import (
    SLOP_PX,
    Aim,
    classify,
    press_point,
    pull_point,
)
from ui.tables.ranagedon.board import FROG_MM, Board
from ui.tables.ranagedon.deploy import problem
from ui.tables.ranagedon.deploying import Deploying
from ui.tables.ranagedon.frog_keys import KEYS as FROG_KEYS
from ui.tables.ranagedon.frog_keys import FrogKeys
from ui.tables.ranagedon.items import (
    AimItem,
    AimPicture,
    FrogItem,
    LegendItem,
    PlateItem,
    TableItem,
)
from ui.tables.ranagedon.keyaim import KeyAim
from ui.tables.ranagedon.reading import Reading, frog_xy
from ui.tables.ranagedon.scene import SceneTable
from ui.words.i18n import _


class RanagedonTable(Deploying, SceneTable):
    """The table widget the window embeds for a game of Ranagedon."""

    KEYS = FROG_KEYS  # F1 lists them

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("ranagedonTable", parent)
        self.board: Board | None = None
        self.frogs: dict[int, FrogItem] = {}
        self.plates: list[PlateItem] = []
        self.legend: LegendItem | None = None
        self.aim: Aim | None = None
        self.key_aim: KeyAim | None = None
        self.keys_shown = False
        """The frogs' keys are drawn once the keys are in use here (a frog is small: its
        cap would hide it from a player who only uses the mouse)."""
        self.frog_keys = FrogKeys(self)
        """An aim made with the keys (``keyaim``); ``aim`` is then its picture."""
        self.aim_item: AimItem | None = None
        self.dive_mode = False
        self.text_px = float(look.default_px())
        self.placement: list[tuple[float, float]] | None = None
        """My side's deployment being arranged (frog id order), before Confirm."""
        self.cluster: int | None = 0
        """The suggested cluster ``placement`` still equals, if any."""
        self._drag: tuple[int, QPointF] | None = None
        self._captions: list[Any] = []
        self._viewport().installEventFilter(self)

        self.controls = ActionPanel(self._viewport())
        self.controls.chose_cluster.connect(self.choose_cluster)
        self.hint = self.controls.hint
        self.confirm_button = self.controls.confirm_button
        self.confirm_button.clicked.connect(self._confirm)
        self.dive_button = self.controls.dive_button
        self.dive_button.toggled.connect(self._toggle_dive)
        self.again_button = self.controls.again_button
        self.again_button.clicked.connect(self._jump_again)
        self.stop_button = self.controls.stop_button
        self.stop_button.clicked.connect(self._stop)

    @property
    def cluster_buttons(self) -> list[QPushButton]:
        """One per suggested cluster while I deploy (the panel makes them afresh)."""
        return self.controls.cluster_buttons

    # --- the contract --------------------------------------------------------

    def set_view(self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
                 animate: bool = True) -> None:
        """Show ``view``; fly its new ``last`` unless this is a resync (animate=False)."""
        self._finish_animation()
        previous = self.view
        self._adopt(view, seats, you, int(view.get("players", len(seats))))
        self._stop_waiting()
        self.aim = None
        self.key_aim = None
        self._drag = None
        if view.get("phase") != "deploy" or not self.read.can_deploy():
            self.placement = None
        elif self.placement is None or previous is None or previous.get("phase") != "deploy":
            self._start_placement()
        if not self.read.divers():
            self.dive_mode = False
        self._rebuild()
        self._show_log(view)
        last = view.get("last")
        old = (previous or {}).get("last")
        if (animate and previous is not None and isinstance(last, dict)
                and (not isinstance(old, dict) or old.get("n") != last.get("n"))
                and previous.get("game") == view.get("game")):
            self._animate(last, previous)

    # --- reading the view ---------------------------------------------------------

    @property
    def read(self) -> Reading:
        """The view as it stands for me now: made afresh on every use, so it always
        sees the latest view and whether an intent of mine still waits."""
        return Reading(self.view or {}, self._names(), self.you, self._pending,
                       tuple(self.seats))

    def aimable(self) -> list[int]:
        """Ids of the frogs I may aim now: my side's free frogs (in ``again`` only that one)."""
        return self.read.aimable()

    def _my_frog_ids(self) -> list[int]:
        return self.read.my_frog_ids()

    def turn_text(self) -> str:
        """The banner's line: whose move it is, or what I can do now."""
        return self.read.turn_text(self.dive_mode)

    def _banner_seat(self) -> tuple[QColor | None, str]:
        turn = (self.view or {}).get("turn")
        if self._phase() in ("jump", "again") and isinstance(turn, int):
            return look.seat_colour(self.seats, turn), look.seat_letter(self.seats, turn)
        return None, ""

    # --- drawing ------------------------------------------------------------------

    def _rebuild(self) -> None:
        self._finish_animation()
        self.scene.clear()
        self.frogs, self.plates, self.legend, self.aim_item = {}, [], None, None
        size = self._viewport().size()
        width, height = max(480, size.width()), max(360, size.height())
        self.scene.setSceneRect(0, 0, width, height)
        view = self.view
        if view is None:
            self.controls.hide()
            return
        self.text_px = max(look.default_px() * 1.1, min(width, height) * 0.02)
        margin = max(10.0, min(width, height) * 0.015)
        side_w = min(440.0, max(250.0, width * 0.27))
        board_size = max(200.0, min(height - 2 * margin, width - side_w - 3 * margin))
        top = (height - board_size) / 2
        # The board as large as the height allows; a wide window centres board and
        # column together (the board sat small at the left beside an empty column).
        side_w = min(max(side_w, width * 0.24), width - board_size - 3 * margin)
        left = margin + max(0.0, (width - board_size - side_w - 3 * margin) / 2)
        self.board = Board(left, top, board_size, self._turns())
        column = QRectF(left + board_size + margin, margin, side_w, height - 2 * margin)
        read = self.read
        self.banner.show_state(read.turn_text(self.dive_mode), *self._banner_seat(),
                               read.info_text(), accent=read.can_jump() or read.can_deploy())
        table = TableItem(self.board)
        table.setZValue(0)
        table.wedge = self._wedge()
        self.scene.addItem(table)
        self._captions = []
        self._draw_frogs(view)
        bottom = self._draw_side(view, column)
        self._place_actions(column, bottom)
        self._outcome_caption(view.get("last") or {})
        self.aim_item = AimItem(QRectF(0, 0, width, height))
        self.scene.addItem(self.aim_item)
        self._show_aim()

    def _place_actions(self, column: QRectF, top: float) -> None:
        """The hint and the buttons for what I can do now, under the legend."""
        read = self.read
        phase = read.phase()
        clusters: list[str] = []
        shown: list[QPushButton] = []
        hint = short = ""
        if read.can_deploy():
            clusters = [render({"key": str(cluster.get("name"))}) if cluster.get("name")
                        else _("Cluster {n}").format(n=k + 1)
                        for k, cluster in enumerate(read.my_clusters())]
            clusters = [_("{choice} ({key})").format(choice=name, key=k + 1) if k < 9
                        else name for k, name in enumerate(clusters)]
            shown.append(self.confirm_button)
            trouble = problem(self.placement or [], read.my_sector(), self.view or {})
            hint = trouble or _("Suggested clusters, or drag your lit frogs (at most one "
                                "disc apart), then Confirm.")
            short = "" if trouble else _("Keep your frogs at most one disc apart.")
        elif read.can_jump():
            if phase == "again":
                shown += [self.again_button, self.stop_button]
                hint = _("The lit frog may jump once more: aim it, or Stop.")
            else:
                hint = _("Press on the coloured border of a lit frog and pull: it jumps "
                         "away from where you pressed, along the arrow, to about the dashed "
                         "ring. The longer the pull, the further. Let go to jump.")
                short = _("It jumps away from where you pressed, to about the dashed ring; "
                          "the longer the pull, the further. Let go to jump.")
                if read.divers():
                    shown.append(self.dive_button)
                    if self.dive_mode:
                        hint = _("Dive: press anywhere on a lit diving frog and pull back; "
                                 "it slides the other way.")
                        short = ""
        elif self.you is None:
            hint = _("You are watching.")
        if self.controls.offer(self.text_px, hint, clusters, self.cluster, shown,
                               self.dive_mode, short):
            left = self.graphics.mapFromScene(QPointF(column.left(), top))
            self.controls.place(left, column.width(), column.bottom() - top)

    # --- aiming -------------------------------------------------------------------

    def _frog_at(self, point: QPointF, ids: list[int]) -> int | None:
        """The frog among ``ids`` under ``point`` (with the ring's slop), nearest first."""
        board = self.board
        if board is None:
            return None
        best: tuple[float, int] | None = None
        reach = board.mm(FROG_MM) + SLOP_PX
        for fid in ids:
            item = self.frogs.get(fid)
            if item is None:
                continue
            d = math.hypot(item.pos().x() - point.x(), item.pos().y() - point.y())
            if d <= reach * item.scale() and (best is None or d < best[0]):
                best = (d, fid)
        return best[1] if best else None

    def _press(self, point: QPointF) -> bool:
        """A left press on the table: start an aim or a deploy drag; True if taken.

        A flight still running ends at once: input never waits for an animation.
        """
        self._pointer = point
        self._finish_animation()
        if self.key_aim is not None:  # the mouse takes over from the keys
            self.cancel_aim()
        read = self.read
        if read.can_deploy() and self.placement is not None:
            mine = read.my_frog_ids()
            fid = self._frog_at(point, mine)
            if fid is not None:
                self._drag = (mine.index(fid), point)
                return True
            return False
        if not read.can_jump() or self.board is None:
            return False
        fid = self._frog_at(point, read.aimable())
        if fid is None:
            other = self._frog_at(point, list(self.frogs))
            if other is not None:
                self._toast(read.why_not(other))
                return True
            return False
        frog = read.frog(fid) or {}
        item = self.frogs[fid]
        diving = self.dive_mode and frog.get("ability") == "dive" and self._phase() == "jump"
        press = classify(self.board, frog_xy(frog), point)
        if diving:
            if press.where == "outside":
                return False
        elif press.where == "centre":
            self._toast(_("Press on the coloured border, not on the frog itself."))
            return True
        self.aim = Aim(fid, "dive" if diving else "jump", QPointF(item.pos()), point,
                       QPointF(point), press.theta, press.r, self.board)
        item.selected = True
        item.update()
        self._show_aim()
        return True

    def _move(self, point: QPointF) -> None:
        self._pointer = point
        if self.aim is not None and self.key_aim is None:
            self.aim.pointer = point
            self._show_aim()
            return
        if self._drag is not None:
            index, _ = self._drag
            fid = self._my_frog_ids()[index]
            item = self.frogs.get(fid)
            if item is not None:
                item.setPos(point)
                item.setZValue(400)
            return
        hot = self._frog_at(point, self.aimable()) if self.read.can_jump() else None
        for fid, item in self.frogs.items():
            if item.lit and item.hot != (fid == hot):
                item.hot = fid == hot
                item.update()

    def _release(self, point: QPointF) -> None:
        self._pointer = point
        if self._drag is not None:
            index, start = self._drag
            self._drag = None
            if (point - start).manhattanLength() < 3:
                self._rebuild()
                return
            self._drop(index, point)
            return
        aim, self.aim = self.aim, None
        if aim is None:
            return
        aim.pointer = point
        item = self.frogs.get(aim.frog)
        if item is not None:
            item.selected = False
            item.update()
        self._show_aim()
        if not aim.armed:
            self._toast(_("Pull back from the pressed point to set the strength, then let go."))
            return
        self._send(aim.action())

    def cancel_aim(self) -> None:
        self.key_aim = None
        if self.aim is not None:
            item = self.frogs.get(self.aim.frog)
            if item is not None:
                item.selected = False
                item.update()
        self.aim = None
        self._show_aim()

    def _show_aim(self) -> None:
        if self.aim_item is None:
            return
        aim, board = self.aim, self.board
        if aim is None or board is None:
            self.aim_item.show_aim(None)
            return
        angle = board.angle_to_scene(aim.theta) + math.pi
        landing = None
        if aim.kind == "jump" and aim.armed:
            far = board.mm(reach(aim.s))
            landing = QPointF(aim.centre.x() + far * math.cos(angle),
                              aim.centre.y() + far * math.sin(angle))
        self.aim_item.show_aim(AimPicture(aim.centre, aim.press, aim.pointer, angle, aim.s,
                                          board.mm(FROG_MM), aim.kind, aim.armed, landing))

    def teach_spot(self, key: str) -> Any:
        """The board; the plates with the abilities legend under them (the list the
        tour's last step names)."""
        board = self.board
        if board is None:
            return None
        if key == "plates":
            parts = [p.sceneBoundingRect() for p in self.plates]
            if self.legend is not None and self.legend.scene() is self.scene:
                parts.append(self.legend.sceneBoundingRect())
            return self._spot(parts)
        if key != "board":
            return None
        return self._spot([QRectF(board.left, board.top, board.size, board.size)])

    def aim_points(self, frog_id: int, theta: float, s: float,
                   r: float = 13.5) -> tuple[QPoint, QPoint]:
        """Viewport points to press and let go at to send (theta, s) for a frog: the
        table's own aiming geometry, for tests and for the keyboard-less demo."""
        board = self.board
        frog = self.read.frog(frog_id)
        assert board is not None and frog is not None
        press = press_point(board, frog_xy(frog), theta, r)
        pull = pull_point(board, frog_xy(frog), theta, s, r)
        return self.graphics.mapFromScene(press), self.graphics.mapFromScene(pull)

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        """Mouse on the table's viewport: presses aim or drag; the rest is Qt's."""
        if event is None or watched is not self._viewport():
            return False
        kind = event.type()
        if kind not in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove,
                        QEvent.Type.MouseButtonRelease, QEvent.Type.Leave):
            return False
        if kind == QEvent.Type.Leave:
            return False
        assert isinstance(event, QMouseEvent)
        exact = event.position()
        # Keep the sub-pixel part: on a laptop the ring is a few pixels wide.
        point = self.graphics.mapToScene(exact.toPoint()) + (exact - QPointF(exact.toPoint()))
        if kind == QEvent.Type.MouseButtonPress:
            if event.button() == Qt.MouseButton.RightButton and self.aim is not None:
                self.cancel_aim()
                return True
            if event.button() == Qt.MouseButton.LeftButton:
                return self._press(point)
            return False
        if kind == QEvent.Type.MouseMove:
            self._move(point)
            return self.aim is not None or self._drag is not None
        if event.button() == Qt.MouseButton.LeftButton and (self.aim or self._drag):
            self._release(point)
            return True
        return False

    # --- buttons ------------------------------------------------------------------

    def _toggle_dive(self, on: bool) -> None:
        self.dive_mode = on and bool(self.read.divers())
        self.cancel_aim()
        self._rebuild()

    def _jump_again(self) -> None:
        """Nothing to send yet: point at the frog that may jump."""
        again = (self.view or {}).get("again") or {}
        item = self.frogs.get(int(again.get("frog", -1)))
        if item is not None:
            self._pointer = item.pos()
            self._toast(_("Press its coloured border and pull back."))

    def _stop(self) -> None:
        if self.read.can_jump() and self._phase() == "again":
            self._send({"type": "stop"})

    # --- keys (``frog_keys``) ------------------------------------------------------------

    def key_targets(self) -> list[Target]:
        return self.frog_keys.targets()

    def _claim_key(self, event: QKeyEvent) -> bool:
        return self.frog_keys.claim(event)

    def aim_by_keys(self, fid: int) -> None:
        self.frog_keys.aim(fid)

    def key_controls(self) -> list[QWidget]:
        return [*self.cluster_buttons, self.confirm_button, self.dive_button,
                self.again_button, self.stop_button]

    def focusOutEvent(self, event: QFocusEvent | None) -> None:
        """Tab onto the frogs: their keys show from now on."""
        super().focusOutEvent(event)
        if event is not None and event.reason() in (Qt.FocusReason.TabFocusReason,
                                                     Qt.FocusReason.BacktabFocusReason):
            self.frog_keys.show()

    # --- motion ---------------------------------------------------------------------

    def _settle(self) -> None:
        """The flight ended (or was cut short): every frog at the sent position."""
        if self.board is not None:
            flight.snap(self.board, self.frogs)
        for caption in self._captions:
            caption.setVisible(True)

    def _animate(self, last: dict[str, Any], previous: dict[str, Any]) -> None:
        board = self.board
        if board is None:
            return
        trajectory = last.get("trajectory") or {}
        kind = trajectory.get("kind")
        if kind == "arc":
            item = self.frogs.get(int(last.get("frog", -1)))
            anim = flight.flight(board, item, last.get("start"), trajectory, self)
        elif kind == "slide":
            anim = flight.slide(board, self.frogs, trajectory, self)
        else:
            anim = flight.glide(board, self.frogs, previous, self)
        if anim is None:
            return
        for caption in self._captions:
            caption.setVisible(False)
        self._start_animation(anim)

