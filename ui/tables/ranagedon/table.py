"""The Ranagedon table: the playing area with its frogs, aiming by mouse, flights.

Everything drawn comes from the view the host sent and the lobby's seat
maps; nothing here decides where a frog lands. To jump, press on the
coloured border of one of your lit frogs and pull back (``aim``):
the press point, an arrow the other way and a power bar show the aim, never
a landing. A diver slides instead while "Dive" is on. While deploying, pick
one of the suggested clusters or drag your frogs, then Confirm.

The table is turned by quarter turns so my own side sits at the bottom; the
host's millimetres and angles are unchanged by that (``Board``). A new
``last`` flies the frog along the host's trajectory (its height grows the
frog and its shadow; a slide plays at the host's 30 Hz), then every frog
snaps exactly to the sent positions; ``animate=False`` jumps there.
"""

from __future__ import annotations

import math
from typing import Any

from PyQt6.QtCore import (
    QEasingCurve,
    QEvent,
    QObject,
    QPoint,
    QPointF,
    QRectF,
    Qt,
    QVariantAnimation,
)
from PyQt6.QtGui import QColor, QFontMetrics, QKeyEvent, QMouseEvent, QPainterPath
from PyQt6.QtWidgets import QGraphicsSimpleTextItem, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.tables import look
from ui.tables.felt import WaitingTable, names_list
from ui.tables.ranagedon.aim import (
    SLOP_PX,
    Aim,
    classify,
    press_point,
    pull_point,
)
from ui.tables.ranagedon.board import FROG_MM, Board
from ui.tables.ranagedon.deploy import problem
from ui.tables.ranagedon.items import (
    AimItem,
    AimPicture,
    FrogItem,
    LegendItem,
    LegendRow,
    PlateInfo,
    PlateItem,
    StackChip,
    TableItem,
)
from ui.tables.widgets import BUTTON_STYLE

DEPLOY_MS = 320
HOP_MM_PER_LEVEL = 12.0
"""A flight's height in mm that draws the frog one stack level nearer."""
OUTCOME_WORDS = {
    "flipped": "Flipped over: back to its start",
    "poisoned": "Poisonous frog below: back to its start",
    "off_table": "Off the table: put back a finger inside",
    "dive_touched": "Touched another frog: the turn ends",
    "dive_clear": "Slid clear: it may jump now",
}
ABILITY_WORDS = {"double": "double jump", "dive": "diving (slides first)",
                 "poison": "poisonous"}


def _xy(frog: dict[str, Any]) -> tuple[float, float]:
    return float(frog.get("x", 0.0)), float(frog.get("y", 0.0))


class RanagedonTable(WaitingTable):
    """The table widget the window embeds for a game of Ranagedon."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("ranagedonTable", parent)
        self.board: Board | None = None
        self.frogs: dict[int, FrogItem] = {}
        self.plates: list[PlateItem] = []
        self.legend: LegendItem | None = None
        self.aim: Aim | None = None
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

        self.controls = QWidget(self._viewport())
        self.controls.setObjectName("ranagedonActions")
        self.controls.setStyleSheet(
            "#ranagedonActions QLabel { color: #F3F1E7; }"
            "QPushButton:checked { background: #FFD866; border-color: #FFFFFF; }"
            + BUTTON_STYLE)
        self.hint = QLabel(self.controls)
        self.hint.setWordWrap(True)
        self.cluster_buttons: list[QPushButton] = []
        self.confirm_button = QPushButton("Confirm", self.controls)
        self.confirm_button.clicked.connect(self._confirm)
        self.dive_button = QPushButton("Dive: slide first", self.controls)
        self.dive_button.setCheckable(True)
        self.dive_button.toggled.connect(self._toggle_dive)
        self.again_button = QPushButton("Jump again", self.controls)
        self.again_button.clicked.connect(self._jump_again)
        self.stop_button = QPushButton("Stop", self.controls)
        self.stop_button.clicked.connect(self._stop)
        self.action_column = QVBoxLayout(self.controls)
        self.action_column.setContentsMargins(0, 0, 0, 0)
        self.action_column.setSpacing(8)
        self.action_column.addWidget(self.hint)
        self.cluster_row = QVBoxLayout()
        self.cluster_row.setSpacing(6)
        self.action_column.addLayout(self.cluster_row)
        for button in (self.confirm_button, self.dive_button, self.again_button,
                       self.stop_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            self.action_column.addWidget(button)
        self.action_column.addStretch(1)

    # --- the contract --------------------------------------------------------

    def set_view(self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
                 animate: bool = True) -> None:
        """Show ``view``; fly its new ``last`` unless this is a resync (animate=False)."""
        self._finish_animation()
        previous = self.view
        self._adopt(view, seats, you, int(view.get("players", len(seats))))
        self._stop_waiting()
        self.aim = None
        self._drag = None
        if view.get("phase") != "deploy" or not self._can_deploy():
            self.placement = None
        elif self.placement is None or previous is None or previous.get("phase") != "deploy":
            self._start_placement()
        if not self._divers():
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

    def _my_side(self) -> int | None:
        view = self.view or {}
        side = view.get("your_side")
        if isinstance(side, int) and self.you is not None:
            return side
        side_of = view.get("side_of") or []
        if self.you is not None and self.you < len(side_of):
            return int(side_of[self.you])
        return None

    def _acting(self) -> bool:
        view = self.view or {}
        return (self.you is not None and not view.get("over") and not self._pending
                and self.you in (view.get("actors") or []))

    def _can_deploy(self) -> bool:
        view = self.view or {}
        side = self._my_side()
        deployed = view.get("deployed") or []
        return (self._acting() and view.get("phase") == "deploy" and side is not None
                and not (side < len(deployed) and deployed[side]))

    def _can_jump(self) -> bool:
        return self._acting() and self._phase() in ("jump", "again")

    def aimable(self) -> list[int]:
        """Ids of the frogs I may aim now: my side's free frogs (in ``again`` only that one)."""
        view = self.view or {}
        if not self._can_jump():
            return []
        side = self._my_side()
        again = view.get("again") or {}
        out = []
        for frog in view.get("frogs") or []:
            if frog.get("side") != side or not frog.get("free"):
                continue
            if self._phase() == "again" and frog.get("id") != again.get("frog"):
                continue
            out.append(int(frog["id"]))
        return out

    def _frog(self, frog_id: int) -> dict[str, Any] | None:
        for frog in (self.view or {}).get("frogs") or []:
            if frog.get("id") == frog_id:
                return dict(frog)
        return None

    def _divers(self) -> list[int]:
        if self._phase() != "jump":
            return []
        return [f for f in self.aimable() if (self._frog(f) or {}).get("ability") == "dive"]

    def _side_seats(self, side: int) -> list[int]:
        sides = (self.view or {}).get("sides") or []
        if 0 <= side < len(sides):
            return [int(s) for s in sides[side]]
        return [side]

    def _side_letter(self, side: int) -> str:
        seats = self._side_seats(side)
        if len(seats) == 1:
            return look.initial(self._name(seats[0]))
        frogs = [f for f in (self.view or {}).get("frogs") or [] if f.get("side") == side]
        colour = str(frogs[0].get("colour", "?")) if frogs else "?"
        return colour[:1].upper()

    def _side_look(self, side: int) -> tuple[str, str, str]:
        """(frog colour, border, words) that the side's frogs share."""
        frogs = [f for f in (self.view or {}).get("frogs") or [] if f.get("side") == side]
        colours = {str(f.get("colour")) for f in frogs}
        borders = {str(f.get("border")) for f in frogs}
        if len(colours) == 1:
            colour = colours.pop()
            return colour, "none", f"{colour} frogs"
        if len(borders) == 1:
            border = borders.pop()
            return "none", border, f"{border} border"
        return "none", "none", "frogs"

    def _waiting(self) -> list[str]:
        view = self.view or {}
        return [self._name(s) for s in view.get("actors") or [] if s != self.you]

    def turn_text(self) -> str:
        """The banner's line: whose move it is, or what I can do now."""
        view = self.view or {}
        phase = self._phase()
        if phase == "over":
            return self._over_text()
        if phase == "deploy":
            waiting = self._waiting()
            wait = f"waiting for {names_list(waiting)}" if waiting else "waiting for the host"
            if self._can_deploy():
                return "Deploy your frogs: pick a cluster or drag them, then Confirm"
            if self.you is not None:
                return f"Deployed: {wait}"
            return f"Everyone deploys their frogs: {wait}"
        turn = view.get("turn")
        if phase == "again":
            kind = (view.get("again") or {}).get("kind")
            if turn == self.you and self._can_jump():
                if kind == "dive":
                    return "Your frog slid clear: jump it now, or Stop"
                return "Double jump: jump the same frog again, or Stop"
            return f"Waiting for {self._name(turn)}: jump again or stop"
        if phase == "jump":
            if turn == self.you and self._can_jump():
                if self.dive_mode:
                    return "Dive: press anywhere on the lit frog and pull back to slide it"
                return "Your turn: press a lit frog's coloured border and pull"
            return f"Waiting for {self._name(turn)} to jump a frog"
        return "Waiting for the game to start"

    def _over_text(self) -> str:
        view = self.view or {}
        winners = [int(s) for s in view.get("winners") or []]
        final = view.get("final") or view.get("scores") or []
        best = max(final) if final else 0
        points = "point" if best == 1 else "points"
        teams = view.get("teams")
        if teams:
            for team in teams:
                if sorted(team) == sorted(winners):
                    together = names_list([self._name(s) for s in team])
                    return f"Game over: {together} win with {best} {points}"
        names = [self._name(s) for s in winners]
        if len(names) == 1:
            return f"Game over: {names[0]} wins with {best} {points}"
        if names:
            return f"Game over: {names_list(names)} share the win with {best} {points}"
        return "Game over"

    def _banner_seat(self) -> tuple[QColor | None, str]:
        turn = (self.view or {}).get("turn")
        if self._phase() in ("jump", "again") and isinstance(turn, int):
            return look.seat_colour(self.seats, turn), look.initial(self._name(turn))
        return None, ""

    def _info_text(self) -> str:
        view = self.view or {}
        if self._phase() == "deploy":
            return "Deploying"
        turns = int(view.get("turns", 0) or 0)
        return f"Turn {turns + (0 if self._phase() == 'over' else 1)}"

    # --- drawing ------------------------------------------------------------------

    def _turns(self) -> int:
        """Quarter turns that bring my side's sector to the bottom of the screen."""
        view = self.view or {}
        side = self._my_side()
        sectors = view.get("sectors") or []
        if side is None or not 0 <= side < len(sectors):
            return 0
        start, end = float(sectors[side][0]), float(sectors[side][1])
        middle = (start + end) / 2
        return round((math.pi / 2 - middle) / (math.pi / 2)) % 4

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
        self.board = Board(margin, top, board_size, self._turns())
        side_w = width - board_size - 3 * margin
        column = QRectF(board_size + 2 * margin, margin, side_w, height - 2 * margin)
        self.banner.show_state(self.turn_text(), *self._banner_seat(), self._info_text(),
                               accent=self._can_jump() or self._can_deploy())
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

    def _wedge(self) -> QPainterPath | None:
        """Where my frogs may go while I deploy: my sector, off the pad's palm, on the table."""
        view = self.view or {}
        board, sector = self.board, self._my_sector()
        if board is None or sector is None or not self._can_deploy():
            return None
        sizes = view.get("sizes") or {}
        inner = float(sizes.get("deploy_min", 156))
        r = float(sizes.get("R", 16))
        start, end = sector
        steps = 48
        wedge = QPainterPath()
        wedge.moveTo(board.to_scene(400, 400))
        for i in range(steps + 1):
            a = start + (end - start) * i / steps
            wedge.lineTo(board.to_scene(400 + 1200 * math.cos(a), 400 + 1200 * math.sin(a)))
        wedge.closeSubpath()
        area = QPainterPath()
        corner = board.to_scene(r, r)
        far = board.to_scene(800 - r, 800 - r)
        area.addRect(QRectF(corner, far).normalized())
        hole = QPainterPath()
        centre = board.to_scene(400, 400)
        hole.addEllipse(centre, board.mm(inner), board.mm(inner))
        return wedge.intersected(area).subtracted(hole)

    def _draw_frogs(self, view: dict[str, Any]) -> None:
        board = self.board
        assert board is not None
        radius = board.mm(FROG_MM)
        lit = set(self.aimable())
        my_side = self._my_side()
        last = view.get("last") or {}
        for frog in view.get("frogs") or []:
            frog = dict(frog)
            fid = int(frog["id"])
            side = int(frog.get("side", 0))
            if self.placement is not None and side == my_side:
                mine = [int(f["id"]) for f in view.get("frogs") or [] if f.get("side") == side]
                x, y = self.placement[mine.index(fid)]
                frog["x"], frog["y"] = x, y
            item = FrogItem(frog, radius, self._side_letter(side))
            item.setPos(board.to_scene(*_xy(frog)))
            item.lit = fid in lit or (self.placement is not None and side == my_side)
            item.last = fid == last.get("frog") and self._phase() != "deploy"
            item.setToolTip(self._frog_tip(frog))
            if frog.get("pad") == "inside":
                item.badge = "+2"
            elif frog.get("pad") == "partly" and not frog.get("covered"):
                item.badge = "+1"
            self.scene.addItem(item)
            self.frogs[fid] = item
        self._draw_stacks(view)

    def _draw_stacks(self, view: dict[str, Any]) -> None:
        """A chip beside each stack's top frog naming what it steps on."""
        board = self.board
        assert board is not None
        frogs = {int(f["id"]): f for f in view.get("frogs") or []}
        radius = board.mm(FROG_MM)
        for fid, frog in frogs.items():
            if int(frog.get("level", 0) or 0) == 0 or frog.get("covered"):
                continue
            below: set[int] = set()
            todo = [int(s) for s in frog.get("supports") or []]
            while todo:
                under = todo.pop()
                if under in frogs and under not in below:
                    below.add(under)
                    todo.extend(int(s) for s in frogs[under].get("supports") or [])
            order = sorted(below, key=lambda b: -int(frogs[b].get("level", 0) or 0))
            chip = StackChip([(str(frogs[b].get("colour")), str(frogs[b].get("border")))
                              for b in order], radius)
            item = self.frogs[fid]
            grow = item.scale()
            chip.setPos(item.pos().x() + radius * grow * 0.7, item.pos().y() + radius * grow * 0.6)
            chip.setToolTip(f"Steps on {len(order)} frog{'s' if len(order) != 1 else ''}")
            self.scene.addItem(chip)
            self._captions.append(chip)

    def _frog_tip(self, frog: dict[str, Any]) -> str:
        view = self.view or {}
        side = int(frog.get("side", 0))
        owner = names_list([self._name(s) for s in self._side_seats(side)])
        if side == self._my_side():
            owner = "Your"
        else:
            owner += "'s"
        lines = [f"{owner} {frog.get('colour')} frog, {frog.get('border')} border"]
        ability = frog.get("ability")
        lines.append(f"Ability: {ABILITY_WORDS.get(str(ability), 'none')}"
                     if ability else "No ability in this game")
        level = int(frog.get("level", 0) or 0)
        if level:
            lines.append(f"On a stack, level {level}")
        if frog.get("covered"):
            lines.append("Stepped on: it cannot jump")
        elif frog.get("free"):
            lines.append("Free: it can jump")
        pad = frog.get("pad")
        if pad == "inside":
            lines.append("Completely inside the lily pad: +2")
        elif pad == "partly":
            lines.append("Partly on the lily pad: +1 while not stepped on")
        del view
        return "\n".join(lines)

    def _draw_side(self, view: dict[str, Any], column: QRectF) -> float:
        """Plates per side and the abilities legend; returns where the actions go."""
        t = self.text_px
        sides = view.get("sides") or []
        scores = view.get("scores") or []
        free = view.get("free") or []
        turn = view.get("turn")
        my_side = self._my_side()
        deployed = view.get("deployed") or []
        plate_h = t * 3.0
        y = column.top()
        for side, seats in enumerate(sides):
            seats = [int(s) for s in seats]
            colour, border, words = self._side_look(side)
            names = [self._name(s) for s in seats]
            if side == my_side and len(seats) == 1:
                names = ["You"]
            title = names_list(names)
            lead = seats[0] if seats else 0
            note = ""
            if self._phase() == "deploy":
                note = "deployed" if side < len(deployed) and deployed[side] else "deploying"
            elif self._phase() == "over":
                note = "wins" if set(seats) & set(view.get("winners") or []) else ""
            elif isinstance(turn, int) and turn in seats and len(seats) > 1:
                note = f"{self._name(turn)} to play"
            info = PlateInfo(
                title=title,
                names=[(look.seat_colour(self.seats, s), self._name(s)) for s in seats],
                colour=colour, border=border, letter=self._side_letter(side),
                score=int(scores[lead]) if lead < len(scores) else 0,
                free=(-1 if self._phase() == "deploy" else
                      int(free[lead]) if lead < len(free) else 0),
                turn=isinstance(turn, int) and turn in seats and self._phase() != "over",
                mine=side == my_side, note=note, words=words)
            plate = PlateItem(info, QRectF(column.left(), y, column.width(), plate_h), t)
            self.scene.addItem(plate)
            self.plates.append(plate)
            y += plate_h + t * 0.5
        rows = self._legend_rows(view)
        line_h = QFontMetrics(look.font(t * 0.9)).height() * 1.35
        legend_h = 12 + line_h * (len(rows) + 1)
        self.legend = LegendItem("Abilities", rows,
                                 QRectF(column.left(), y, column.width(), legend_h), t)
        self.scene.addItem(self.legend)
        return y + legend_h + t * 0.7

    def _legend_rows(self, view: dict[str, Any]) -> list[LegendRow]:
        """One row per look that carries an ability, read off the frogs themselves."""
        frogs = view.get("frogs") or []
        by_border: dict[str, set[Any]] = {}
        by_colour: dict[str, set[Any]] = {}
        for frog in frogs:
            by_border.setdefault(str(frog.get("border")), set()).add(frog.get("ability"))
            by_colour.setdefault(str(frog.get("colour")), set()).add(frog.get("ability"))
        rows = []
        if all(len(a) == 1 for a in by_border.values()) and any(
                None not in a for a in by_border.values()):
            for border in ("magenta", "blue", "yellow"):
                ability = next(iter(by_border.get(border, {None})))
                if ability:
                    rows.append(LegendRow("none", border,
                                          f"{border.capitalize()} border: "
                                          f"{ABILITY_WORDS.get(str(ability), ability)}"))
        elif all(len(a) == 1 for a in by_colour.values()) and any(
                None not in a for a in by_colour.values()):
            for colour in ("red", "green"):
                ability = next(iter(by_colour.get(colour, {None})))
                if ability:
                    rows.append(LegendRow(colour, "none",
                                          f"{colour.capitalize()} frogs: "
                                          f"{ABILITY_WORDS.get(str(ability), ability)}"))
        if not rows:
            rows.append(LegendRow("none", "none", "No abilities in this game"))
        return rows

    def _place_actions(self, column: QRectF, top: float) -> None:
        """The hint and the buttons for what I can do now, under the legend."""
        phase = self._phase()
        t = self.text_px
        for button in self.cluster_buttons:
            self.cluster_row.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.cluster_buttons = []
        self.hint.setFont(look.font(t * 0.95))
        for button in (self.confirm_button, self.dive_button, self.again_button,
                       self.stop_button):
            button.setFont(look.font(t, bold=True))
            button.hide()
        hint = ""
        if self._can_deploy():
            view = self.view or {}
            side = self._my_side()
            clusters = (view.get("clusters") or [])
            mine = clusters[side] if side is not None and side < len(clusters) else []
            for k, cluster in enumerate(mine):
                button = QPushButton(str(cluster.get("name") or f"Cluster {k + 1}"),
                                     self.controls)
                button.setCheckable(True)
                button.setChecked(self.cluster == k)
                button.setFont(look.font(t * 0.95, bold=True))
                button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
                button.clicked.connect(lambda _=False, k=k: self.choose_cluster(k))
                self.cluster_row.addWidget(button)
                self.cluster_buttons.append(button)
            self.confirm_button.show()
            trouble = problem(self.placement or [], self._my_sector(), view)
            hint = trouble or ("Suggested clusters, or drag your lit frogs "
                               "(at most one disc apart), then Confirm.")
        elif self._can_jump():
            if phase == "again":
                self.again_button.show()
                self.stop_button.show()
                hint = "The lit frog may jump once more: aim it, or Stop."
            else:
                hint = ("Press on the coloured border of a lit frog and drag away: "
                        "the longer the pull, the stronger the jump. Let go to jump.")
                if self._divers():
                    self.dive_button.show()
                    self.dive_button.blockSignals(True)
                    self.dive_button.setChecked(self.dive_mode)
                    self.dive_button.blockSignals(False)
                    if self.dive_mode:
                        hint = ("Dive: press anywhere on a lit diving frog and pull back; "
                                "it slides the other way.")
        elif self.you is None:
            hint = "You are watching."
        self.hint.setText(hint)
        self.hint.setVisible(bool(hint))
        visible = bool(hint) or bool(self.cluster_buttons)
        self.controls.setVisible(visible)
        if visible:
            left = self.graphics.mapFromScene(QPointF(column.left(), top))
            self.controls.setFixedSize(round(column.width()),
                                      max(40, round(column.bottom() - top)))
            self.action_column.activate()
            self.controls.move(left)
            self.controls.raise_()

    def _my_sector(self) -> list[float] | None:
        view = self.view or {}
        side = self._my_side()
        sectors = view.get("sectors") or []
        if side is not None and 0 <= side < len(sectors):
            return [float(a) for a in sectors[side]]
        return None

    # --- deploying ------------------------------------------------------------------

    def _my_frog_ids(self) -> list[int]:
        side = self._my_side()
        return sorted(int(f["id"]) for f in (self.view or {}).get("frogs") or []
                      if f.get("side") == side)

    def _start_placement(self) -> None:
        view = self.view or {}
        side = self._my_side()
        clusters = view.get("clusters") or []
        mine = clusters[side] if side is not None and side < len(clusters) else []
        if mine:
            self.placement = [(float(x), float(y)) for x, y in mine[0]["frogs"]]
            self.cluster = 0
        else:
            self.placement = [_xy(f) for f in sorted(view.get("frogs") or [],
                                                     key=lambda f: int(f["id"]))
                              if f.get("side") == side]
            self.cluster = None

    def choose_cluster(self, k: int) -> None:
        """Show suggested cluster ``k`` on the table (Confirm sends it)."""
        view = self.view or {}
        side = self._my_side()
        clusters = view.get("clusters") or []
        mine = clusters[side] if side is not None and side < len(clusters) else []
        if not self._can_deploy() or not 0 <= k < len(mine):
            return
        self.placement = [(float(x), float(y)) for x, y in mine[k]["frogs"]]
        self.cluster = k
        self._rebuild()

    def _confirm(self) -> None:
        if not self._can_deploy() or self.placement is None:
            return
        if self.cluster is not None:
            self._send({"type": "deploy", "cluster": self.cluster})
        else:
            self._send({"type": "deploy",
                        "frogs": [[round(x, 2), round(y, 2)] for x, y in self.placement]})

    def _drop(self, index: int, at: QPointF) -> None:
        """A frog dragged while deploying: keep it there if the group still holds."""
        board = self.board
        if board is None or self.placement is None:
            return
        x, y = board.to_model(at)
        moved = list(self.placement)
        moved[index] = (round(x, 2), round(y, 2))
        trouble = problem(moved, self._my_sector(), self.view or {})
        if trouble:
            self._pointer = at
            self._rebuild()
            self._toast(trouble)
            return
        self.placement = moved
        self.cluster = None
        self._rebuild()

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
        if self._can_deploy() and self.placement is not None:
            mine = self._my_frog_ids()
            fid = self._frog_at(point, mine)
            if fid is not None:
                self._drag = (mine.index(fid), point)
                return True
            return False
        if not self._can_jump() or self.board is None:
            return False
        fid = self._frog_at(point, self.aimable())
        if fid is None:
            other = self._frog_at(point, list(self.frogs))
            if other is not None:
                self._toast(self._why_not(other))
                return True
            return False
        frog = self._frog(fid) or {}
        item = self.frogs[fid]
        diving = self.dive_mode and frog.get("ability") == "dive" and self._phase() == "jump"
        press = classify(self.board, _xy(frog), point)
        if diving:
            if press.where == "outside":
                return False
        elif press.where == "centre":
            self._toast("Press on the coloured border, not on the frog itself.")
            return True
        self.aim = Aim(fid, "dive" if diving else "jump", QPointF(item.pos()), point,
                       QPointF(point), press.theta, press.r, self.board)
        item.selected = True
        item.update()
        self._show_aim()
        return True

    def _why_not(self, fid: int) -> str:
        frog = self._frog(fid) or {}
        if frog.get("side") != self._my_side():
            return "That frog is not yours: jump one of your lit frogs."
        if self._phase() == "again":
            return "Only the frog that just jumped may jump again."
        if frog.get("covered"):
            return "That frog is stepped on: it cannot jump."
        return "That frog is on a stack: only free frogs can jump."

    def _move(self, point: QPointF) -> None:
        self._pointer = point
        if self.aim is not None:
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
        hot = self._frog_at(point, self.aimable()) if self._can_jump() else None
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
            self._toast("Pull back from the pressed point to set the strength, then let go.")
            return
        self._send(aim.action())

    def cancel_aim(self) -> None:
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
        self.aim_item.show_aim(AimPicture(aim.centre, aim.press, aim.pointer, angle, aim.s,
                                          board.mm(FROG_MM), aim.kind, aim.armed))

    def aim_points(self, frog_id: int, theta: float, s: float,
                   r: float = 13.5) -> tuple[QPoint, QPoint]:
        """Viewport points to press and let go at to send (theta, s) for a frog: the
        table's own aiming geometry, for tests and for the keyboard-less demo."""
        board = self.board
        frog = self._frog(frog_id)
        assert board is not None and frog is not None
        press = press_point(board, _xy(frog), theta, r)
        pull = pull_point(board, _xy(frog), theta, s, r)
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
        self.dive_mode = on and bool(self._divers())
        self.cancel_aim()
        self._rebuild()

    def _jump_again(self) -> None:
        """Nothing to send yet: point at the frog that may jump."""
        again = (self.view or {}).get("again") or {}
        item = self.frogs.get(int(again.get("frog", -1)))
        if item is not None:
            self._pointer = item.pos()
            self._toast("Press its coloured border and pull back.")

    def _stop(self) -> None:
        if self._can_jump() and self._phase() == "again":
            self._send({"type": "stop"})

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """Esc drops an aim in progress."""
        if event is None:
            return
        if event.key() == Qt.Key.Key_Escape and self.aim is not None:
            self.cancel_aim()
            return
        super().keyPressEvent(event)

    # --- motion ---------------------------------------------------------------------

    def _settle(self) -> None:
        """The flight ended (or was cut short): every frog at the sent position."""
        self._snap()
        for caption in self._captions:
            caption.setVisible(True)

    def _snap(self) -> None:
        """Every frog exactly where the view puts it."""
        board = self.board
        if board is None:
            return
        for item in self.frogs.values():
            frog = item.frog
            item.setPos(board.to_scene(*_xy(frog)))
            item.set_lift(_number(frog.get("level", 0)))
            item.setZValue(10 + 10 * item.level)

    def _animate(self, last: dict[str, Any], previous: dict[str, Any]) -> None:
        board = self.board
        if board is None:
            return
        trajectory = last.get("trajectory") or {}
        kind = trajectory.get("kind")
        if kind == "arc":
            anim = self._flight(last, trajectory)
        elif kind == "slide":
            anim = self._slide(trajectory)
        else:
            anim = self._glide(previous)
        if anim is None:
            return
        for caption in self._captions:
            caption.setVisible(False)
        self._start_animation(anim)

    def _flight(self, last: dict[str, Any], trajectory: dict[str, Any]
                ) -> QVariantAnimation | None:
        """The jumper along the host's arc: higher means larger, with a longer shadow."""
        board = self.board
        item = self.frogs.get(int(last.get("frog", -1)))
        points = [(float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 else 0.0)
                  for p in trajectory.get("points") or []]
        if board is None or item is None or len(points) < 2:
            return None
        length = sum(math.dist(points[i][:2], points[i + 1][:2])
                     for i in range(len(points) - 1))
        ms = round(min(900.0, max(320.0, 300 + length * 1.3)))
        base = _number(item.frog.get("level", 0))

        def at(t: float) -> None:
            f = t * (len(points) - 1)
            i = min(len(points) - 2, int(f))
            u = f - i
            a, b = points[i], points[i + 1]
            x, y, z = (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u,
                       a[2] + (b[2] - a[2]) * u)
            item.setPos(board.to_scene(x, y))
            lift = z / HOP_MM_PER_LEVEL
            item.set_lift(lift if t < 1.0 else base)
            item.setZValue(300)

        return self._run(ms, at, QEasingCurve.Type.Linear)

    def _slide(self, trajectory: dict[str, Any]) -> QVariantAnimation | None:
        """Every sliding frog at the host's 30 Hz samples."""
        board = self.board
        hz = float(trajectory.get("hz", 30) or 30)
        tracks = []
        for disc in trajectory.get("discs") or []:
            item = self.frogs.get(int(disc.get("frog", -1)))
            points = [(float(p[0]), float(p[1])) for p in disc.get("points") or []]
            if item is not None and points:
                tracks.append((item, points))
        if board is None or not tracks:
            return None
        frames = max(len(points) for _, points in tracks)
        ms = round(min(3000.0, max(250.0, 1000.0 * frames / hz)))

        def at(t: float) -> None:
            f = t * (frames - 1)
            for item, points in tracks:
                i = min(len(points) - 1, int(f))
                j = min(len(points) - 1, i + 1)
                u = f - int(f)
                x = points[i][0] + (points[j][0] - points[i][0]) * u
                y = points[i][1] + (points[j][1] - points[i][1]) * u
                item.setPos(board.to_scene(x, y))
                item.setZValue(200 + 10 * item.level)

        return self._run(ms, at, QEasingCurve.Type.Linear)

    def _glide(self, previous: dict[str, Any]) -> QVariantAnimation | None:
        """Frogs that moved without a trajectory (a deployment) glide from where they were."""
        board = self.board
        before = {int(f["id"]): _xy(f) for f in previous.get("frogs") or []}
        moves = []
        for fid, item in self.frogs.items():
            old = before.get(fid)
            if old is not None and math.dist(old, _xy(item.frog)) > 0.5:
                moves.append((item, old, _xy(item.frog)))
        if board is None or not moves:
            return None

        def at(t: float) -> None:
            for item, a, b in moves:
                item.setPos(board.to_scene(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))

        return self._run(DEPLOY_MS, at, QEasingCurve.Type.OutCubic)

    def _run(self, ms: int, at: Any, curve: QEasingCurve.Type) -> QVariantAnimation:
        anim = QVariantAnimation(self)
        anim.setDuration(ms)
        anim.setStartValue(0.0)
        anim.setEndValue(1.0)
        anim.setEasingCurve(curve)
        anim.valueChanged.connect(lambda value: at(float(value)))
        at(0.0)
        return anim

    def _outcome_caption(self, last: dict[str, Any]) -> None:
        """A few words next to the frog when the jump did not simply land (shown
        until the next move, hidden while it flies)."""
        words = OUTCOME_WORDS.get(str(last.get("outcome")))
        item = self.frogs.get(int(last.get("frog", -1) if last.get("frog") is not None else -1))
        board = self.board
        if not words or item is None or board is None:
            return
        frog = item.frog
        centre = board.to_scene(*_xy(frog))
        text = QGraphicsSimpleTextItem(words)
        text.setFont(look.font(self.text_px * 0.9, bold=True))
        text.setBrush(QColor("#FFFFFF"))
        w = QFontMetrics(text.font()).horizontalAdvance(words)
        h = QFontMetrics(text.font()).height()
        x = min(max(board.left + 4, centre.x() - w / 2), board.left + board.size - w - 4)
        y = centre.y() - board.mm(FROG_MM) * 1.6 - h
        if y < board.top + 4:
            y = centre.y() + board.mm(FROG_MM) * 1.6
        back = self.scene.addRect(QRectF(x - 6, y - 3, w + 12, h + 6), QColor("#101010"),
                                  QColor(20, 20, 20, 200))
        assert back is not None
        back.setZValue(600)
        text.setPos(x, y)
        text.setZValue(601)
        self.scene.addItem(text)
        self._captions.extend([back, text])


def _number(value: object) -> float:
    """A number from the view, 0 for anything else (a view is plain data)."""
    return float(value) if isinstance(value, int | float) else 0.0
