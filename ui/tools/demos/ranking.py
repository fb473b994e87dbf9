"""Ranking views for screenshots and tests, and a renderer that draws them to PNG.

``sample_view`` builds a view in the shape of the view contract for a named
moment, without the rules (so the table can be looked at and tested on its
own); ``real_views`` plays a seeded game with the real rules and bots and
returns the views at each phase, once the rules exist. ``render_all`` writes
every screenshot we check by eye. Run it as ``python -m ui.tools.demos.ranking DIR``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui.tools.demos import kit

NAMES = ("Mia", "Ben", "Ada", "Jonas", "Lea")
COLOURS = ("#0072B2", "#F0E442", "#009E73", "#D55E00", "#CC79A7")
SIZES = ((1280, 800), (1600, 900))
PICTURES = (("watch", "Wristwatch"), ("octopus", "Octopus"), ("old_key", "Old key"),
            ("salad", "Salad"), ("parachute", "Parachute"), ("boxing_glove", "Boxing glove"),
            ("popcorn", "Popcorn"), ("fondue", "Fondue"), ("museum", "Museum"),
            ("credit_card", "Credit card"), ("drum", "Drum"), ("suitcase", "Suitcase"))
MOMENTS = ("place", "placed", "compare", "picked", "guess", "reveal", "over")


def demo_seats(players: int, bots: int = 0) -> list[dict[str, Any]]:
    """Lobby seat maps as the window passes them: name, colour, bot, connected."""
    return kit.seat_maps(NAMES, COLOURS, players, bots)


def _row(floors: list[int], stones: dict[int, list[int]] | None = None,
         owners: dict[int, int] | None = None) -> list[dict[str, Any]]:
    stones = stones or {}
    owners = owners or {}
    return [{"slot": i, "picture": PICTURES[i][0], "name": PICTURES[i][1], "floor": f,
             "stones": list(stones.get(i, [])), "owner": owners.get(i)}
            for i, f in enumerate(floors)]


def sample_view(moment: str, you: int | None = 0, players: int = 4) -> dict[str, Any]:
    """A contract-shaped view at ``moment`` (see MOMENTS) seen by ``you``."""
    if moment not in MOMENTS:
        raise ValueError(f"moment must be one of {MOMENTS}")
    start = 2 if players == 3 else 1
    left = [[0 if c == s else start for c in range(players)] for s in range(players)]
    hand = [{"id": p, "name": n} for p, n in PICTURES[6:12]]
    view: dict[str, Any] = {
        "game": "ranking", "you": you, "players": players, "round": 2, "phase": "compare",
        "actors": [1], "starter": 1, "current": 1,
        "question": {"id": "red-01", "text": "What is more valuable?", "side": "red",
                     "weights": [["value", 1.0]]},
        "row": _row([3, 3, 3, 3, 3, 3, 3]), "previous_row": [], "mine": 2 if you == 0 else None,
        "hand": hand[:5] if you is not None else [], "hand_counts": [5] * players,
        "placed": None, "answered": [False] * players, "guess": None, "guess_for": None,
        "stones_left": left, "scores": [3, 6, 0, 9, 2][:players], "supply": 80,
        "log": [{"text": "Round 2: What is more valuable?", "seats": []},
                {"text": "{0} compared Octopus (up) with Salad (down).", "seats": [1]}],
        "last": None, "over": False, "winners": None, "final": None, "step": 3,
        "compares": 1,
    }
    if moment in ("place", "placed", "reveal"):
        view.update(phase="place", actors=list(range(players)), row=[], mine=None,
                    hand=hand if you is not None else [], hand_counts=[6] * players,
                    question={"id": "red-07", "text": "What would you rather take on a "
                              "desert island?", "side": "red", "weights": [["use", 1.0]]})
        if moment == "placed" and you is not None:
            view.update(placed=hand[0]["id"], hand=hand[1:],
                        answered=[s == you or s == 2 for s in range(players)],
                        actors=[s for s in range(players) if s != 2])
        if moment in ("placed", "reveal"):
            view["previous_row"] = _row([6, 4, 3, 3, 2, 3, 0], {0: [1, 1, 2], 1: [3], 4: [0]},
                                        {0: 1, 1: 0, 2: 2, 4: 3} if players >= 4 else
                                        {0: 1, 1: 0, 2: 2})
            view["last"] = {"kind": "score", "round": 1,
                            "gains": [4, 4, 3, 2, 0][:players],
                            "owners": [1, 0, 2, None, 3, None, None][:7]}
    elif moment in ("compare", "picked"):
        view.update(actors=[you if you is not None else 0], current=you if you is not None
                    else 0, row=_row([4, 2, 3, 3, 3, 4, 2], {0: [1], 5: [3]}),
                    last={"kind": "compare", "seat": 1, "up": 5, "down": 6})
    elif moment == "guess":
        view.update(phase="guess", actors=[s for s in range(players) if s != 1], current=1,
                    guess_for=1, row=_row([5, 1, 3, 3, 2, 4, 3], {0: [1, 3]}),
                    last={"kind": "compare", "seat": 1, "up": 0, "down": 1})
    elif moment == "over":
        view.update(phase="over", actors=[], over=True, winners=[3],
                    scores=[12, 13, 7, 16, 9][:players], final=[12, 13, 7, 16, 9][:players],
                    row=_row([6, 4, 3, 2, 3, 3, 0], {0: [1, 2]}, {0: 3, 1: 0, 2: 1, 4: 2}))
        view["previous_row"] = view["row"]
    return view


def real_views(players: int = 4, seed: int = 5) -> dict[str, tuple[dict[Any, Any],
                                                                   dict[Any, Any]]]:
    """Views (before, at) for each viewer at the first place/compare/guess/reveal/over
    moments of a real seeded game played by the rules' own bots, and the first compare
    moment with a stone on the roof (if the game has one)."""
    from lanplay import games

    wanted: dict[str, Callable[[dict[str, Any]], bool]] = {
        "place": lambda v: v["phase"] == "place" and v["round"] == 1,
        "compare": lambda v: v["phase"] == "compare" and v.get("compares", 0) >= 3,
        # the first comparison of the game: the whole row still on floor 3
        "first-compare": lambda v: v["phase"] == "compare" and v.get("compares", 0) == 0,
        # A later round with a scoring stone on the roof (7), turned to point down.
        "roof": lambda v: (v["phase"] == "compare" and v.get("compares", 0) >= 3
                           and 7 in v["scores"]),
        "guess": lambda v: v["phase"] == "guess" and v.get("compares", 0) >= 4,
        "reveal": lambda v: v["phase"] == "place" and v["round"] == 2,
        "over": lambda v: v["phase"] == "over",
        # a compare with guess stones of several guessers on the tower
        "stones": lambda v: (v["phase"] == "compare" and
                             sum(len(t.get("by") or []) for t in v["row"]) >= 5),
    }
    return kit.real_views(games.load("ranking"), players, seed, wanted, 5000)


def first_guess(players: int = 5, seed: int = 11) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Views (before, at) for each viewer at the first guess of a seeded game played by
    the rules' own bots (seed 11, five players: five tiles share floor 3, "Küchenmesser"
    and "Schwamm" among them)."""
    from lanplay import games

    found = kit.real_views(games.load("ranking"), players, seed,
                           {"guess": lambda v: v["phase"] == "guess"}, 5000)
    return found["guess"]


def render_table(path: Path, previous: dict[str, Any] | None, view: dict[str, Any],
                 seats: list[dict[str, Any]], you: int | None, size: tuple[int, int],
                 prepare: Callable[[Any], None] | None = None) -> None:
    """Draw the table at ``size`` to a PNG; ``prepare`` may click things first."""
    from ui.tables.ranking import RankingTable
    kit.render_table(RankingTable, path, previous, view, seats, you, size, prepare=prepare)


def pick_pair(table: Any) -> None:
    """Click two tiles on floor 3, as a player would, so the chooser shows: the two
    with the longest names (the choice's buttons say them)."""
    on_three = sorted((t for t in table.tiles.values() if t.floor == 3 and t.on_click),
                      key=lambda t: -len(t.name))
    table._tile_clicked(on_three[0])
    table._tile_clicked(on_three[1])


def render_all(out: Path, sizes: tuple[tuple[int, int], ...] = SIZES) -> list[Path]:
    """Real games (3 and 5 players) at each phase, plus the made-up moments a real
    game does not stop at (two tiles picked, the chooser open)."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for players in (3, 5):
        seats = demo_seats(players, bots=players - 1)
        for moment, (before, at) in real_views(players).items():
            viewer = at[None]
            acting = viewer["actors"] or [0]
            seat = acting[0] if moment != "guess" else next(
                (s for s in acting if s != viewer.get("guess_for")), acting[0])
            for you, who, (w, h) in kit.shots(seat, sizes):
                path = out / f"ranking-real-{players}p-{moment}-{who}-{w}x{h}.png"
                render_table(path, before[you], at[you], seats, you, (w, h))
                written.append(path)

    for players in (4, 5, 3):
        seats = demo_seats(players, bots=players - 2)
        for moment in MOMENTS:
            if players != 4 and moment not in ("guess", "placed"):
                continue
            for you in (0, None) if moment in ("compare", "guess") else (0,):
                view = sample_view("compare" if moment == "picked" else moment, you, players)
                who = "spectator" if you is None else "seat0"
                for w, h in sizes:
                    path = out / f"ranking-{players}p-{moment}-{who}-{w}x{h}.png"
                    prepare = pick_pair if moment == "picked" else None
                    render_table(path, None, view, seats, you, (w, h), prepare)
                    written.append(path)
    return written


if __name__ == "__main__":
    sys.exit(kit.main(sys.argv, render_all))

