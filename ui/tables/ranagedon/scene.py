"""The Ranagedon table as drawn: my side's wedge while I deploy, the frogs with their
stacks' chips, each side's plate and the abilities legend, and a few words by a frog
that did not simply land.

Split from ``table.py`` by job: the table reads the view, animates and takes clicks;
this draws the scene from what the table read. Nothing here decides a rule.
"""

from __future__ import annotations

import math
from typing import Any

from PyQt6.QtCore import QRectF
from PyQt6.QtGui import QColor, QFontMetrics, QPainterPath
from PyQt6.QtWidgets import QGraphicsSimpleTextItem

from ui.tables import look
from ui.tables.felt import WaitingTable, names_list
from ui.tables.ranagedon.board import FROG_MM, Board
from ui.tables.ranagedon.frog_keys import FrogKeys
from ui.tables.ranagedon.items import FrogItem, LegendItem, PlateInfo, PlateItem, StackChip
from ui.tables.ranagedon.reading import Reading, frog_xy, outcome_words
from ui.words.i18n import _, ngettext
from ui.words.result_words import view_verdict


class SceneTable(WaitingTable):
    """The table's drawing; ``RanagedonTable`` holds the state it reads and the input."""

    board: Board | None
    frogs: dict[int, FrogItem]
    plates: list[PlateItem]
    legend: LegendItem | None
    frog_keys: FrogKeys
    keys_shown: bool
    text_px: float
    placement: list[tuple[float, float]] | None
    _captions: list[Any]

    @property
    def read(self) -> Reading:
        raise NotImplementedError

    def _turns(self) -> int:
        """Quarter turns that bring my side's sector to the bottom of the screen."""
        view = self.view or {}
        side = self.read.my_side()
        sectors = view.get("sectors") or []
        if side is None or not 0 <= side < len(sectors):
            return 0
        start, end = float(sectors[side][0]), float(sectors[side][1])
        middle = (start + end) / 2
        return round((math.pi / 2 - middle) / (math.pi / 2)) % 4

    def _wedge(self) -> QPainterPath | None:
        """Where my frogs may go while I deploy: my sector, off the pad's palm, on the table."""
        view = self.view or {}
        board, sector = self.board, self.read.my_sector()
        if board is None or sector is None or not self.read.can_deploy():
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
        read = self.read
        lit = set(read.aimable())
        keys = self.frog_keys.keys()
        my_side = read.my_side()
        last = view.get("last") or {}
        for frog in view.get("frogs") or []:
            frog = dict(frog)
            fid = int(frog["id"])
            side = int(frog.get("side", 0))
            if self.placement is not None and side == my_side:
                mine = [int(f["id"]) for f in view.get("frogs") or [] if f.get("side") == side]
                x, y = self.placement[mine.index(fid)]
                frog["x"], frog["y"] = x, y
            item = FrogItem(frog, radius, read.side_letter(side), read.side_badge(side))
            item.setPos(board.to_scene(*frog_xy(frog)))
            item.lit = fid in lit or (self.placement is not None and side == my_side)
            if self.keys_shown:  # keys 1-9 choose a frog to aim (F1 says so)
                item.key = keys.get(fid, "")
            item.last = fid == last.get("frog") and self._phase() != "deploy"
            item.setToolTip(read.frog_tip(frog))
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
            chip.setToolTip(ngettext("Steps on {n} frog", "Steps on {n} frogs",
                                     len(order)).format(n=len(order)))
            self.scene.addItem(chip)
            self._captions.append(chip)

    def _draw_side(self, view: dict[str, Any], column: QRectF) -> float:
        """Plates per side and the abilities legend; returns where the actions go."""
        t = self.text_px
        sides = view.get("sides") or []
        scores = view.get("scores") or []
        free = view.get("free") or []
        turn = view.get("turn")
        read = self.read
        my_side = read.my_side()
        deployed = view.get("deployed") or []
        plate_h = t * 3.0
        y = column.top()
        for side, seats in enumerate(sides):
            seats = [int(s) for s in seats]
            colour, border, words = read.side_look(side)
            if read.side_badge(side) is not None:
                words = ""  # one player, one colour: the badge, not "green frogs" too
            names = [self._name(s) for s in seats]
            if side == my_side and len(seats) == 1:
                names = [_("You")]
            title = names_list(names)
            lead = seats[0] if seats else 0
            note = ""
            if self._phase() == "deploy":
                note = _("deployed") if side < len(deployed) and deployed[side] else \
                    _("deploying")
            elif self._phase() == "over":
                note = _("wins") if set(seats) & set(view_verdict(view).marked) else ""
            elif isinstance(turn, int) and turn in seats and len(seats) > 1:
                note = _("{name} to play").format(name=self._name(turn))
            info = PlateInfo(
                title=title,
                names=[(look.seat_colour(self.seats, s), self._name(s)) for s in seats],
                colour=colour, border=border, letter=read.side_letter(side),
                mark=read.side_badge(side),
                score=int(scores[lead]) if lead < len(scores) else 0,
                free=(-1 if self._phase() == "deploy" else
                      int(free[lead]) if lead < len(free) else 0),
                turn=isinstance(turn, int) and turn in seats and self._phase() != "over",
                mine=side == my_side, note=note, words=words)
            tall = max(plate_h, PlateItem.height_for(info, column.width(), t))
            plate = PlateItem(info, QRectF(column.left(), y, column.width(), tall), t)
            self.scene.addItem(plate)
            self.plates.append(plate)
            y += tall + t * 0.5
        rows = read.legend_rows()
        legend_h = LegendItem.height_for(rows, column.width(), t)
        self.legend = LegendItem(_("Abilities"), rows,
                                 QRectF(column.left(), y, column.width(), legend_h), t)
        self.scene.addItem(self.legend)
        return y + legend_h + t * 0.7

    def _outcome_caption(self, last: dict[str, Any]) -> None:
        """A few words next to the frog when the jump did not simply land (shown
        until the next move, hidden while it flies)."""
        words = outcome_words(str(last.get("outcome")))
        item = self.frogs.get(int(last.get("frog", -1) if last.get("frog") is not None else -1))
        board = self.board
        if not words or item is None or board is None:
            return
        frog = item.frog
        centre = board.to_scene(*frog_xy(frog))
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

__all__ = ["SceneTable"]
