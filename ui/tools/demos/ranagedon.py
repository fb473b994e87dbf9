"""Real Ranagedon views for screenshots and tests: a seeded Session played by bots.

``demo_scene`` gives (session, views before, views at) a named moment of a
real game; ``render_table`` draws one to PNG offscreen (optionally frozen
mid-flight, or with an aim in progress); ``render_all`` writes the set we
check by eye. Run it as ``python -m ui.tools.demos.ranagedon DIR``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QPointF

from lanplay.game import Game
from lanplay.session import Session
from ui.tools.demos import kit
from ui.tools.demos.kit import bot_step as step

NAMES = ("Mia", "Ben", "Ada", "Jonas")
COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7")
MOMENTS = ("deploy", "mid", "landing", "over")
SIZES = ((1280, 800), (1600, 900))


def game() -> Game:
    from lanplay.games import load
    return load("ranagedon")


def demo_seats(players: int, bots: int = 0) -> list[dict[str, Any]]:
    """Lobby seat maps as the window passes them: name, colour, bot, connected."""
    return kit.seat_maps(NAMES, COLOURS, players, bots)


def _until(session: Session, rng: random.Random, done: Callable[[Session], bool],
           limit: int = 2000) -> None:
    for _ in range(limit):
        if session.result is not None or done(session):
            return
        step(session, rng)


def _stacked(session: Session) -> bool:
    view = session.view(None)
    return view["phase"] == "jump" and any(f["level"] > 0 for f in view["frogs"])


def demo_scene(players: int, moment: str, seed: int = 5
               ) -> tuple[Session, dict[Any, dict[str, Any]], dict[Any, dict[str, Any]]]:
    """The session at ``moment`` and every viewer's view just before and at it.

    "deploy": one side has deployed, the others still arrange theirs; "mid":
    a stack stands and a seat is about to jump; "landing": the move that
    just put a frog onto another (the table flies it); "over": the end.
    """
    if moment not in MOMENTS:
        raise ValueError(f"moment must be one of {MOMENTS}")
    session = Session(game(), players, seed=seed)
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(players), None]
    if moment == "deploy":
        before = {v: session.view(v) for v in viewers}
        step(session, rng, seat=max(session.actors()))
    elif moment == "mid":
        _until(session, rng, lambda s: s.view(None)["turns"] >= 8 and _stacked(s))
        before = {v: session.view(v) for v in viewers}
    elif moment == "landing":
        _until(session, rng, lambda s: s.view(None)["turns"] >= 6)
        while True:
            before = {v: session.view(v) for v in viewers}
            step(session, rng)
            last = session.view(None)["last"] or {}
            if last.get("outcome") == "stacked" or session.result is not None:
                break
    else:
        _until(session, rng, lambda s: False, limit=5000)
        before = {v: session.view(v) for v in viewers}
    after = {v: session.view(v) for v in viewers}
    return session, before, after


def render_table(path: Path, previous: dict[str, Any] | None, view: dict[str, Any],
                 seats: list[dict[str, Any]], you: int | None, size: tuple[int, int],
                 progress: float | None = None,
                 aim: tuple[int, float, float] | None = None) -> None:
    """Draw the table at ``size`` to a PNG; ``progress`` (0..1) freezes the flight there;
    ``aim`` = (frog, theta, s) shows an aim in progress made through the table's own mouse
    handling."""
    from ui.tables.ranagedon import RanagedonTable

    def aim_now(table: RanagedonTable) -> None:
        assert aim is not None
        press, pull = table.aim_points(*aim)
        table._press(table.graphics.mapToScene(press))
        table._move(QPointF(table.graphics.mapToScene(pull)))

    kit.render_table(RanagedonTable, path, previous, view, seats, you, size, progress,
                      aim_now if aim is not None else None)


def _aim_for(view: dict[str, Any]) -> tuple[int, float, float] | None:
    """A plausible aim for the seat to move: its free frog nearest the pad, pad-wards."""
    import math
    side = view.get("your_side")
    frogs = [f for f in view["frogs"] if f["side"] == side and f["free"]]
    if not frogs:
        return None
    frog = min(frogs, key=lambda f: math.hypot(f["x"] - 400, f["y"] - 400))
    towards = math.atan2(400 - frog["y"], 400 - frog["x"])
    return int(frog["id"]), towards + math.pi, 0.55


def render_all(out: Path, sizes: tuple[tuple[int, int], ...] = SIZES) -> list[Path]:
    """Every screenshot we look at before calling the table done."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for players in (2, 4):
        seats = demo_seats(players, bots=players - 1)
        for moment in MOMENTS:
            _, before, after = demo_scene(players, moment)
            public = after[None]
            if moment == "deploy":
                seat = min(public["actors"])
            elif moment == "landing":
                seat = public["last"]["seat"]
            elif public.get("turn") is not None:
                seat = public["turn"]
            else:
                seat = 0
            for you, who, (w, h) in kit.shots(seat, sizes):
                stem = f"frog-{players}p-{moment}-{who}-{w}x{h}"
                path = out / f"{stem}.png"
                render_table(path, before[you], after[you], seats, you, (w, h))
                written.append(path)
                if moment == "landing":
                    mid = out / f"{stem}-flight.png"
                    render_table(mid, before[you], after[you], seats, you, (w, h), 0.5)
                    written.append(mid)
                if moment == "mid" and you is not None:
                    aim = _aim_for(after[you])
                    if aim is not None:
                        aimed = out / f"frog-{players}p-aim-{who}-{w}x{h}.png"
                        render_table(aimed, before[you], after[you], seats, you, (w, h),
                                     aim=aim)
                        written.append(aimed)

    return written


if __name__ == "__main__":
    sys.exit(kit.main(sys.argv, render_all))

