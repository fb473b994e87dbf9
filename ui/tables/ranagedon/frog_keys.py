"""Ranagedon by keys: 1-9 choose a lit frog and aim it (``keyaim``), the arrows turn
and set it, Enter jumps, Esc lets go; while deploying 1-9 show a cluster and Enter
confirms; D turns Dive on or off, S stops after a double jump.

It reads and moves the table's own state (its aim, its buttons): the keys do what
the mouse does there, through the same intents. What it needs of the table is
``KeyedTable``, so this module does not import the table that imports it.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Protocol

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QKeyEvent
from PyQt6.QtWidgets import QLabel, QPushButton

from ui.tables.keys import HELD, Target, is_enter, key_name
from ui.tables.ranagedon.aim import Aim
from ui.tables.ranagedon.board import Board
from ui.tables.ranagedon.items import FrogItem
from ui.tables.ranagedon.keyaim import KeyAim
from ui.tables.ranagedon.reading import Reading, frog_xy
from ui.words.i18n import N_, _

KEYS = (("1-9", N_("while you deploy: show that suggested cluster; while you jump: "
                   "choose the lit frog with that key (it shows by the frog) and aim it "
                   "at the lily pad")),
        (N_("Left, Right"), N_("turn the aim (with Shift: by one degree)")),
        (N_("Up, Down"), N_("a stronger or weaker jump (with Shift: finer); Page Up and "
                            "Page Down in big steps")),
        (N_("Enter"), N_("jump as aimed; while you deploy: Confirm")),
        (N_("Esc"), N_("let go of an aim without jumping")),
        ("D", N_("Dive on or off (a diving frog slides first)")),
        ("S", N_("Stop after a double jump")))
"""The keys F1 lists for Ranagedon (English, marked)."""


class KeyedTable(Protocol):
    """What the keys read and move on the table (``RanagedonTable`` is one)."""

    aim: Aim | None
    key_aim: KeyAim | None
    keys_shown: bool
    _pointer: QPointF | None

    @property
    def read(self) -> Reading: ...

    @property
    def view(self) -> dict[str, Any] | None: ...

    @property
    def board(self) -> Board | None: ...

    @property
    def frogs(self) -> dict[int, FrogItem]: ...

    @property
    def dive_mode(self) -> bool: ...

    @property
    def hint(self) -> QLabel: ...

    @property
    def dive_button(self) -> QPushButton: ...

    @property
    def cluster_buttons(self) -> list[QPushButton]: ...

    def _phase(self) -> str: ...

    def _item_rect(self, item: Any, pad: float = 0.0) -> QRectF: ...

    def _rebuild(self) -> None: ...

    def _show_aim(self) -> None: ...

    def _send(self, action: dict[str, Any]) -> None: ...

    def cancel_aim(self) -> None: ...

    def choose_cluster(self, k: int) -> None: ...

    def _confirm(self) -> None: ...

    def _stop(self) -> None: ...


class FrogKeys:
    def __init__(self, table: KeyedTable) -> None:
        self.table = table

    def keys(self) -> dict[int, str]:
        """Frog id -> its key, in the order of the frogs I may aim."""
        return {fid: str(i + 1) for i, fid in enumerate(self.table.read.aimable()) if i < 9}

    def targets(self) -> list[Target]:
        """My lit frogs while I may jump; nothing while I deploy (the cluster buttons
        and Confirm are real buttons, and 1-9 choose)."""
        t = self.table
        read = t.read
        if not read.can_jump() or t.board is None:
            return []
        keys = self.keys()
        out: list[Target] = []
        for fid in read.aimable():
            item = t.frogs.get(fid)
            frog = read.frog(fid)
            if item is None or frog is None:
                continue
            name = read.frog_tip(frog).split("\n")[0]
            if t.key_aim is not None and t.key_aim.frog == fid:
                name = _("{frog}, aiming: towards {degrees}\u00b0, strength {percent}%"
                         ).format(frog=name, degrees=t.key_aim.heading(t.board),
                                  percent=round(t.key_aim.s * 100))
            out.append(Target(("frog", fid), name, partial(self.aim, fid),
                              t._item_rect(item), keys.get(fid, ""), read.frog_tip(frog)))
        return out

    def show(self) -> None:
        """The keys are in use: draw them on the frogs from now on."""
        t = self.table
        if not t.keys_shown:
            t.keys_shown = True
            if t.view is not None:
                t._rebuild()

    def aim(self, fid: int) -> None:
        """Frog ``fid`` chosen by its key: an aim at the lily pad, turned and set by keys."""
        t = self.table
        read = t.read
        frog = read.frog(fid)
        if not read.can_jump() or frog is None or fid not in read.aimable() \
                or t.board is None:
            return
        t.cancel_aim()
        diving = t.dive_mode and frog.get("ability") == "dive" and t._phase() == "jump"
        t.key_aim = KeyAim.towards_pad(fid, "dive" if diving else "jump", frog_xy(frog))
        item = t.frogs.get(fid)
        if item is not None:
            item.selected = True
            item.update()
            t._pointer = item.pos()
        self._show_aim()

    def _show_aim(self) -> None:
        t = self.table
        key_aim, board = t.key_aim, t.board
        frog = t.read.frog(key_aim.frog) if key_aim is not None else None
        if key_aim is None or board is None or frog is None:
            return
        t.aim = key_aim.aim(board, frog_xy(frog))
        t._show_aim()
        t.hint.setText(_("Left and Right turn the aim, Up and Down set the strength "
                         "(Shift: finer), Enter jumps, Esc lets go."))
        t.hint.show()

    def claim(self, event: QKeyEvent) -> bool:
        """The table's keys, before the frogs' own (see the module's docstring)."""
        t = self.table
        read = t.read
        key = event.key()
        fine = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        self.show()
        if key == Qt.Key.Key_Escape and t.aim is not None:
            t.cancel_aim()
            t._rebuild()
            return True
        if read.can_deploy():
            index = key - Qt.Key.Key_1
            if key_name(event) and 0 <= index < len(t.cluster_buttons):
                t.choose_cluster(index)
                return True
            if is_enter(event):
                t._confirm()
                return True
            return False
        if t.key_aim is not None and not event.modifiers() & HELD:
            if t.key_aim.key(key, fine):
                self._show_aim()
                return True
            if is_enter(event):
                aim, t.key_aim, t.aim = t.aim, None, None
                t._show_aim()
                if aim is not None and read.can_jump():
                    t._send(aim.action())
                return True
        letter = key_name(event)
        if letter == "D" and read.divers():
            t.dive_button.toggle()
            return True
        if letter == "S" and read.can_jump() and t._phase() == "again":
            t._stop()
            return True
        return False


__all__ = ["KEYS", "FrogKeys", "KeyedTable"]
