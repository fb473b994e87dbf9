"""Ranagedon's motion: the host's trajectories played back on the table's frogs.

A jump flies along the host's arc, drawn from its parameters (its height grows
the frog and its shadow), a slide replays the host's 30 Hz samples, and frogs
that moved without a trajectory (a deployment) glide from where they were. Each function returns
the animation for the table to run, or None when there is nothing to show;
when it ends (or is cut short) ``snap`` puts every frog exactly where the
view says, so what is drawn never drifts from what the host sent.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PyQt6.QtCore import QEasingCurve, QObject, QVariantAnimation

from ui.tables.motion import Tween
from ui.tables.ranagedon.board import Board
from ui.tables.ranagedon.items import FrogItem
from ui.tables.ranagedon.reading import frog_xy

DEPLOY_MS = 320
HOP_MM_PER_LEVEL = 12.0
"""A flight's height in mm that draws the frog one stack level nearer."""
ARC_SAMPLES = 12
"""Points the flight follows along the arc, as many as the host's model samples (any
number draws the same curve)."""


def number(value: object) -> float:
    """A number from the view, 0 for anything else (a view is plain data)."""
    return float(value) if isinstance(value, int | float) else 0.0


def snap(board: Board, frogs: dict[int, FrogItem]) -> None:
    """Every frog exactly where the view puts it."""
    for item in frogs.values():
        frog = item.frog
        item.setPos(board.to_scene(*frog_xy(frog)))
        item.set_lift(number(frog.get("level", 0)))
        item.setZValue(10 + 10 * item.level)


def arc_points(start: object, trajectory: dict[str, Any]) -> list[tuple[float, float, float]]:
    """The host's arc as [x, y, height] mm points: ``ARC_SAMPLES`` along the curve from
    ``start`` to ``to`` (height ``height`` sin(pi t) + z t over the line between them),
    then the straight moves of ``then`` (docs/GAMES.md, Ranagedon's ``last``). The
    view's numbers are hundredths of a mm."""
    to = _cmm3(trajectory.get("to"))
    if to is None or not isinstance(start, list | tuple) or len(start) < 2:
        return []
    x0, y0 = number(start[0]), number(start[1])
    height = number(trajectory.get("height")) / 100
    out = []
    for i in range(ARC_SAMPLES):
        t = i / (ARC_SAMPLES - 1)
        out.append((x0 + t * (to[0] - x0), y0 + t * (to[1] - y0),
                    height * math.sin(math.pi * t) + to[2] * t))
    then = trajectory.get("then")
    for p in then if isinstance(then, list) else []:
        point = _cmm3(p)
        if point is not None:
            out.append(point)
    return out


def _cmm3(value: object) -> tuple[float, float, float] | None:
    if not isinstance(value, list | tuple) or len(value) < 3:
        return None
    return number(value[0]) / 100, number(value[1]) / 100, number(value[2]) / 100


def flight(board: Board, item: FrogItem | None, start: object, trajectory: dict[str, Any],
           parent: QObject) -> QVariantAnimation | None:
    """The jumper along the host's arc: higher means larger, with a longer shadow."""
    points = arc_points(start, trajectory)
    if item is None or len(points) < 2:
        return None
    length = sum(math.dist(points[i][:2], points[i + 1][:2])
                 for i in range(len(points) - 1))
    ms = round(min(900.0, max(320.0, 300 + length * 1.3)))
    base = number(item.frog.get("level", 0))

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

    return _run(parent, ms, at, QEasingCurve.Type.Linear)


def slide(board: Board, frogs: dict[int, FrogItem], trajectory: dict[str, Any],
          parent: QObject) -> QVariantAnimation | None:
    """Every sliding frog at the host's 30 Hz samples."""
    hz = float(trajectory.get("hz", 30) or 30)
    tracks = []
    for disc in trajectory.get("discs") or []:
        item = frogs.get(int(disc.get("frog", -1)))
        points = [(float(p[0]), float(p[1])) for p in disc.get("points") or []]
        if item is not None and points:
            tracks.append((item, points))
    if not tracks:
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

    return _run(parent, ms, at, QEasingCurve.Type.Linear)


def glide(board: Board, frogs: dict[int, FrogItem], previous: dict[str, Any],
          parent: QObject) -> QVariantAnimation | None:
    """Frogs that moved without a trajectory (a deployment) glide from where they were."""
    before = {int(f["id"]): frog_xy(f) for f in previous.get("frogs") or []}
    moves = []
    for fid, item in frogs.items():
        old = before.get(fid)
        if old is not None and math.dist(old, frog_xy(item.frog)) > 0.5:
            moves.append((item, old, frog_xy(item.frog)))
    if not moves:
        return None

    def at(t: float) -> None:
        for item, a, b in moves:
            item.setPos(board.to_scene(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))

    return _run(parent, DEPLOY_MS, at, QEasingCurve.Type.OutCubic)


def _run(parent: QObject, ms: int, at: Callable[[float], None],
         curve: QEasingCurve.Type) -> QVariantAnimation:
    anim = Tween(at, parent)
    anim.setDuration(ms)
    anim.setStartValue(0.0)
    anim.setEndValue(1.0)
    anim.setEasingCurve(curve)
    at(0.0)
    return anim
