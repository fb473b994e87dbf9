"""A local look at a deployment before it is sent: why a dropped frog cannot stay.

The host decides (it refuses a bad deployment with its own reason); this is
only so a frog dragged somewhere impossible snaps back at once with a reason
next to the pointer, instead of after a round trip. The limits are the
view's ``sizes`` and ``sectors``, so nothing here restates a rule's numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ui.words.i18n import _

Point = tuple[float, float]


def in_sector(x: float, y: float, sector: Sequence[float], r: float = 16.0,
              cx: float = 400.0, cy: float = 400.0) -> bool:
    """Whether the whole disc at (x, y) lies in the wedge [from, to] (radians) around the pad."""
    start, end = float(sector[0]), float(sector[1])
    d = math.hypot(x - cx, y - cy)
    if d < 1e-9:
        return False
    half = (end - start) / 2
    off = abs(math.remainder(math.atan2(y - cy, x - cx) - (start + half), 2 * math.pi))
    if off > half:
        return False
    room = half - off
    return room >= math.pi / 2 or d * math.sin(room) >= r - 1e-6


def problem(frogs: Sequence[Point], sector: Sequence[float] | None,
            view: dict[str, Any]) -> str | None:
    """The first reason this arrangement would be refused, or None."""
    sizes = view.get("sizes") or {}
    table = view.get("table") or {}
    pad = view.get("pad") or {}
    r = float(sizes.get("R", 16))
    width, height = float(table.get("width", 800)), float(table.get("height", 800))
    cx, cy = float(pad.get("x", 400)), float(pad.get("y", 400))
    least = float(sizes.get("deploy_min", 156))
    link = float(sizes.get("link", 64))
    for x, y in frogs:
        if not (r <= x <= width - r and r <= y <= height - r):
            return _("Keep every frog on the table.")
        if math.hypot(x - cx, y - cy) < least - 1e-6:
            return _("Deploy a palm's distance away from the lily pad.")
        if sector is not None and not in_sector(x, y, sector, r, cx, cy):
            return _("Keep your frogs in your own part of the table.")
    for i, (x, y) in enumerate(frogs):
        for x2, y2 in frogs[i + 1:]:
            if math.hypot(x - x2, y - y2) < 2 * r - 1e-6:
                return _("Frogs may not overlap each other.")
    if frogs:
        reached = {0}
        todo = [0]
        while todo:
            i = todo.pop()
            for j, (x, y) in enumerate(frogs):
                if j not in reached and math.hypot(x - frogs[i][0], y - frogs[i][1]) <= link:
                    reached.add(j)
                    todo.append(j)
        if len(reached) < len(frogs):
            return _("Keep your frogs together: at most one disc's gap between neighbours.")
    return None
