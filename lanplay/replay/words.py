"""``lanplay replay FILE``: a finished game printed step by step, in words.

Each step is the deal or one move: who made it, then the log lines it added as
the chosen seat saw them (the names filled in). ``--seat N`` also says what
that seat held whenever it changed (its hand, its note); without it the game
is seen as a spectator saw it. ``--open`` shows, at every step, what each seat
held that a spectator could not see: after the game every hand may be shown.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from lanplay.game import mode_of
from lanplay.names import printable
from lanplay.replay.files import open_replay
from lanplay.replay.model import Replay, ReplayError, label

EXIT_OK = 0
EXIT_BAD = 2


def run_replay(path: Path, seat: int | None = None,
               everything: bool = False) -> tuple[int, list[str]]:
    """The exit status and the lines to print (on a bad file: one sentence)."""
    try:
        replay = open_replay(path)
    except ReplayError as exc:
        return EXIT_BAD, [printable(exc.reason)]
    if seat is not None and not 1 <= seat <= replay.players:
        return EXIT_BAD, [f"This game had {replay.players} seats: --seat takes a number "
                          f"from 1 to {replay.players}."]
    viewer = None if seat is None else seat - 1
    return EXIT_OK, [_safe(line) for line in lines(replay, viewer, everything)]


def _safe(line: str) -> str:
    """The line with nothing a file could smuggle onto a terminal (its indent kept)."""
    text = line.lstrip(" ")
    return " " * (len(line) - len(text)) + printable(text)


def lines(replay: Replay, viewer: int | None, everything: bool) -> Iterator[str]:
    """The whole game, step by step, as ``viewer`` (None: a spectator) saw it."""
    f = replay.finished
    mode = mode_of(replay.game, f.mode)
    title = replay.game.name if len(replay.game.modes) == 1 \
        else f"{replay.game.name} ({mode.name})"
    yield f"{title}, {replay.players} players: " + ", ".join(
        f"{name} (seat {i + 1}{', bot' if p.bot else ''})"
        for i, (name, p) in enumerate(zip(replay.names, f.players, strict=True)))
    where = [f"hosted by {f.host}" if f.host else "",
             f"played {time.strftime('%Y-%m-%d %H:%M', time.localtime(f.played))}"
             if f.played else "",
             f"{replay.moves} moves"]
    said = "; ".join(w for w in where if w)
    yield said[:1].upper() + said[1:] + "."
    if f.verdict and f.verdict != "verified":
        yield f"This laptop's check of the game at its end: {f.verdict}"
    seen = "as a spectator saw it" if viewer is None \
        else f"from {replay.who(viewer)}'s seat (seat {viewer + 1})"
    yield f"Seen {seen}" + ("; everything open: what every seat held, at every step."
                            if everything else ".")
    yield f"Result: {replay.result_text()}."
    held = ""
    for step in range(replay.steps):
        yield ""
        if step == 0:
            yield "The deal (state 0)"
        else:
            yield f"Move {step} (state {step}), by {replay.who(replay.mover(step))}"
        added = replay.added(step, viewer)
        for line in added:
            yield f"  {line}"
        if not added:
            yield f"  (nothing new in the log; the move: {replay.doing(step)})"
        if everything:
            for seat, hidden in replay.everything(step):
                yield f"  {replay.who(seat)} held: {holding(replay, hidden, step)}"
        elif viewer is not None:
            now = holding(replay, replay.hidden(step, viewer), step)
            if now != held:
                yield f"  {replay.who(viewer)} held: {now}"
                held = now
    yield ""
    yield f"The end. {replay.result_text()}."


def holding(replay: Replay, hidden: dict[str, object], step: int) -> str:
    """What a seat held that a spectator did not see, in words."""
    if not hidden:
        return "nothing hidden"
    return "; ".join(f"{label(k)} {replay.describe(v, step)}" for k, v in hidden.items())
