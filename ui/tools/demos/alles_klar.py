"""Real Alles klar? views for screenshots and tests: a seeded Session played by bots.

``demo_scene`` gives (previous view, view, seats) at a named moment of a real
game; ``render_table`` draws one to PNG offscreen; ``render_all`` writes the
whole set we check by eye (two window sizes, 2 and 5 players, early, mid-game
and a trick being won, from a seat and as a spectator). Run it as
``python -m ui.tools.demos.alles_klar DIR``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lanplay import games
from lanplay.session import Session
from ui.tools.demos import kit

GAME = games.load("alles-klar")

NAMES = ("Mia", "Ben", "Ada", "Jonas", "Lea")
COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7")
MOMENTS = ("early", "mid", "trick")
SIZES = ((1280, 800), (1920, 1080))


def demo_seats(players: int, bots: int = 0) -> list[dict[str, Any]]:
    """Lobby seat maps as the window passes them: name, colour, bot, connected."""
    return kit.seat_maps(NAMES, COLOURS, players, bots)


def _advance_until(session: Session, rng: random.Random,
                   done: Callable[[Session], bool]) -> None:
    while session.result is None and not done(session):
        kit.bot_step(session, rng)


def demo_scene(players: int, moment: str, seed: int = 7
               ) -> tuple[Session, dict[Any, dict[str, Any]], dict[Any, dict[str, Any]]]:
    """The session at ``moment``, and every viewer's view just before and at it.

    "early": two plays into the first trick; "mid": about half the pile drawn
    with a trick of several cards on the table; "trick": the play that wins a
    trick in mid-game (so the table animates it going to the winner).
    """
    if moment not in MOMENTS:
        raise ValueError(f"moment must be one of {MOMENTS}")
    session = Session(GAME, players, seed=seed)
    rng = random.Random(seed)
    half = session.view(None)["pile"] // 2

    def cards_on_table(s: Session) -> int:
        return sum(len(row) for row in s.view(None)["table"])

    if moment == "early":
        for _ in range(2):
            kit.bot_step(session, rng)
    else:
        _advance_until(session, rng, lambda s: s.view(None)["pile"] <= half)
        if moment == "mid":
            _advance_until(session, rng, lambda s: cards_on_table(s) >= max(4, players + 1)
                           and any(not c["up"] for row in s.view(None)["table"] for c in row))
        else:
            _advance_until(session, rng, lambda s: cards_on_table(s) >= 3)

    viewers: list[int | None] = [*range(players), None]
    if moment == "trick":
        while True:
            before = {v: session.view(v) for v in viewers}
            kit.bot_step(session, rng)
            last = session.view(None)["last"]
            if last["result"] == "won" or session.result is not None:
                break
    else:
        before = {v: session.view(v) for v in viewers}
        kit.bot_step(session, rng)
    after = {v: session.view(v) for v in viewers}
    return session, before, after


CHOICES = ("won", "row")


def choice_scene(players: int, moment: str, seed: int = 7
                 ) -> tuple[Session, dict[Any, dict[str, Any]], dict[Any, dict[str, Any]]]:
    """Like ``demo_scene``, at the first turn whose player holds a card that asks which
    ranking card turns down (two of its numerals up), with "won": a trick just decided
    (its winner leads, the last play's line is the trick's, in two lines), or "row":
    that player's own cards of this trick in front of them."""
    if moment not in CHOICES:
        raise ValueError(f"moment must be one of {CHOICES}")
    from ui.tables.alles_klar.table import play_for

    session = Session(GAME, players, seed=seed)
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(players), None]

    def asks(s: Session) -> bool:
        view = s.view(None)
        turn = view["turn"]
        if turn is None:
            return False
        mine = s.view(turn)
        if not any(play_for(c, list(mine["ranking"]))[0] is None for c in mine["hand"]):
            return False
        if moment == "won":
            return (view.get("last") or {}).get("result") == "won"
        return bool(view["table"][turn])

    before = {v: session.view(v) for v in viewers}
    while session.result is None and not asks(session):
        before = {v: session.view(v) for v in viewers}
        kit.bot_step(session, rng)
    return session, before, {v: session.view(v) for v in viewers}


def open_choice(table: Any) -> None:
    """Click the first card of the hand that asks which ranking card turns down, as a
    player would, so the choice shows."""
    for item in table.hand_items:
        if item.lit:
            table._clicked(item)
            if table.chooser.isVisible():
                return


def render_table(path: Path, previous: dict[str, Any] | None, view: dict[str, Any],
                 seats: list[dict[str, Any]], you: int | None, size: tuple[int, int],
                 progress: float | None = None) -> None:
    """Draw the table at ``size`` to a PNG; ``progress`` (0..1) freezes the animation there."""
    from ui.tables.alles_klar import AllesKlarTable
    kit.render_table(AllesKlarTable, path, previous, view, seats, you, size, progress)


def render_all(out: Path, sizes: tuple[tuple[int, int], ...] = SIZES) -> list[Path]:
    """Every screenshot we look at before calling the table done."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for players in (2, 5):
        seats = demo_seats(players, bots=players - 2)
        for moment in MOMENTS:
            _, before, after = demo_scene(players, moment)
            # From the seat to play next (a lit hand), and as a spectator.
            turn = after[None]["turn"]
            seat = turn if turn is not None else 0
            if moment == "trick":
                seat = after[None]["last"]["winner"]
            for you, who, (w, h) in kit.shots(seat, sizes):
                path = out / f"alles-klar-{players}p-{moment}-{who}-{w}x{h}.png"
                render_table(path, before[you], after[you], seats, you, (w, h))
                written.append(path)
                if moment == "trick" and you is not None:
                    mid = out / f"alles-klar-{players}p-{moment}-{who}-{w}x{h}-flight.png"
                    render_table(mid, before[you], after[you], seats, you, (w, h), 0.75)
                    written.append(mid)

    return written


if __name__ == "__main__":
    sys.exit(kit.main(sys.argv, render_all))

