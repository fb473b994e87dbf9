"""What every table's demo module shares: seat maps, bot games, PNG rendering, the CLI.

A game's ``demo`` module keeps its own moments and file names; the ways to get
there are the same: seeded games played by the rules' own bots (so the views
are the ones a peer would be sent), a table drawn offscreen at a window size,
and ``python -m ui.tables.<game>.demo DIR`` to write the set we check by eye.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from PyQt6.QtWidgets import QApplication

from lanplay.game import Game
from lanplay.session import Session
from ui.tools.fit import current

Views = dict[Any, dict[str, Any]]
"""Every viewer's view (seats and None, the spectator)."""


def seat_maps(names: Sequence[str], colours: Sequence[str], players: int,
              bots: int = 0) -> list[dict[str, Any]]:
    """Lobby seat maps as the window passes them: name, colour, bot, connected."""
    return [{"name": names[i], "colour": colours[i], "bot": i >= players - bots,
             "connected": True, "ready": True, "owner": i == 0} for i in range(players)]


def bot_step(session: Session, rng: random.Random, seat: int | None = None) -> None:
    """One bot move by ``seat`` (default: the lowest actor)."""
    acting = min(session.actors()) if seat is None else seat
    action = session.game.bot(session.view(acting), acting, rng)
    assert action is not None, "the bot must move when it is an actor"
    session.submit(acting, action)


def real_views(game: Game, players: int, seed: int,
               wanted: dict[str, Callable[[dict[str, Any]], bool]],
               limit: int) -> dict[str, tuple[Views, Views]]:
    """Views (before, at) for each viewer at the first state where each ``wanted`` test
    holds for the spectator's view, in a seeded game played by the rules' own bots."""
    session = Session(game, players, seed=seed)
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(players), None]
    found: dict[str, tuple[Views, Views]] = {}
    before = {v: session.view(v) for v in viewers}
    for _ in range(limit):
        now = {v: session.view(v) for v in viewers}
        for name, test in wanted.items():
            if name not in found and test(now[None]):
                found[name] = (before, now)
        if session.result is not None or len(found) == len(wanted):
            break
        before = now
        bot_step(session, rng)
    return found


def render_table(make: Callable[[], Any], path: Path, previous: dict[str, Any] | None,
                 view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
                 size: tuple[int, int], progress: float | None = None,
                 prepare: Callable[[Any], None] | None = None) -> None:
    """Draw a new table from ``make`` at ``size`` to a PNG: ``previous`` first, without
    motion; ``progress`` (0..1) freezes the animation to ``view`` there; ``prepare`` may
    click things first."""
    table = make()
    table.resize(*size)
    table.show()
    QApplication.processEvents()
    if previous is not None:
        table.set_view(previous, seats, you, animate=False)
    table.set_view(view, seats, you, animate=progress is not None)
    anim = table._anim
    if progress is not None and anim is not None:
        anim.pause()
        anim.setCurrentTime(int(anim.totalDuration() * progress))
    if prepare is not None:
        prepare(table)
    QApplication.processEvents()
    table.grab().save(str(path))
    fit = current()
    if fit is not None:
        fit.screen(path.stem, table)
    table._finish_animation()
    table.close()
    table.deleteLater()


def shots(seat: int | None, sizes: Sequence[tuple[int, int]]
          ) -> Iterator[tuple[int | None, str, tuple[int, int]]]:
    """(you, who, size): the table from ``seat`` and as a spectator, at every size;
    ``who`` names the viewer in file names ("seat2", "spectator")."""
    for you in (seat, None):
        who = "spectator" if you is None else f"seat{you}"
        for size in sizes:
            yield you, who, size


def main(argv
: list[str], render_all: Callable[[Path], list[Path]]) -> int:
    """``python -m ui.tables.<game>_demo [DIR]``: write the screenshots, list them."""
    app = QApplication.instance() or QApplication(argv[:1])
    out = Path(argv[1] if len(argv) > 1 else "screenshots")
    for path in render_all(out):
        print(path)
    del app
    return 0
