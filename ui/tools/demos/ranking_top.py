"""Ranking Top views for screenshots and tests, and a renderer that draws them to PNG.

``sample_view`` builds a view in the shape of the view contract for a named
moment without the rules (so the table can be looked at and tested on its
own); ``real_views`` plays a seeded game with the real rules and bots and
returns the views at each phase. ``render_all`` writes every screenshot we
check by eye. Run it as ``python -m ui.tools.demos.ranking_top DIR``.
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
MOMENTS = ("turn", "window", "keep", "again", "over")
TITLES = (("Mi muñeca me hablo", "Flor Bovina"),
          ("Severlá", "Otto y los sarcófagos del ritmo"),
          ("La señora interesante", "Cucky"),
          ("Objeción Denegada", "Juan Pablo Sopa"),
          ("El Dinosaurio Anacleto", "Dinosaurio Roberto"),
          ("Diente blanco, no te vayas", "John Quijada"),
          ("Mi mamá me lo teje todo", "Lana y Lino"),
          ("Arwrarwrirwrarwro", "Bombi"))


def demo_seats(players: int, bots: int = 0) -> list[dict[str, Any]]:
    """Lobby seat maps as the window passes them: name, colour, bot, connected."""
    return kit.seat_maps(NAMES, COLOURS, players, bots)


def card(card_id: int) -> dict[str, Any]:
    """A card map as the contract describes it (ids 0..79 songs, 80..88 Top, 89..93 rule)."""
    if card_id < 80:
        song = card_id // 10
        title, artist = TITLES[song]
        return {"id": card_id, "song": song, "number": (card_id % 10) // 2 + 1,
                "kind": "song", "title": title, "artist": artist, "effect": ""}
    if card_id < 89:
        return {"id": card_id, "song": None, "number": None, "kind": "top", "title": "Top",
                "artist": "Policarpo Avendaño", "effect": ""}
    return {"id": card_id, "song": None, "number": None, "kind": "primordial",
            "title": "Primordial Rule", "artist": "Retrete Navarrete y los bulliciosos",
            "effect": ""}


def song_card(song: int, number: int, copy: int = 0) -> int:
    return song * 10 + (number - 1) * 2 + copy


def _ranked(ids: list[int]) -> list[dict[str, Any]]:
    out = []
    for i, card_id in enumerate(ids):
        out.append({**card(card_id), "stands": 5 - i})
    return out


def sample_view(moment: str, you: int | None = 0, players: int = 4) -> dict[str, Any]:
    """A contract-shaped view at ``moment`` (see MOMENTS) seen by ``you``."""
    if moment not in MOMENTS:
        raise ValueError(f"moment must be one of {MOMENTS}")
    rankings = [_ranked([song_card(1, 5), song_card(4, 4)]),
                _ranked([song_card(0, 5), 89, song_card(6, 3)]),
                _ranked([song_card(7, 5)]), [], []][:players]
    needed = [5 - len(r) for r in rankings]
    hand_ids = [song_card(2, 3), song_card(5, 3, 1), 80, song_card(3, 1), 90]
    hand = [card(i) for i in hand_ids] if you is not None else []
    view: dict[str, Any] = {
        "game": "ranking-top", "you": you, "players": players, "phase": "turn",
        "actors": [0], "current": 0, "direction": 1, "hand_size": {3: 5, 4: 4, 5: 3}[players],
        "needed": needed, "hand": hand, "hand_counts": [5, 4, 6, 3, 4][:players],
        "deck": 37,
        "discard": [card(i) for i in (song_card(6, 2), 81, song_card(0, 1), song_card(1, 4))],
        "ranking": rankings, "chain": [], "window": 6, "passed": [False] * players,
        "standing": None, "again": None,
        "can_top": [], "can_rank": [c for c in hand_ids if c in (song_card(2, 3),
                                                                song_card(5, 3, 1), 90)]
        if you == 0 else [],
        "reshuffles": 0,
        "log": [{"text": "{0} played 4 · Severlá to the discard pile: play goes "
                         "counter-clockwise, {0} draws 1.", "seats": [1]},
                {"text": "{0} played 3 · Mi mamá me lo teje todo to the Ranking Top.",
                 "seats": [1]},
                {"text": "Nobody topped it: it stands.", "seats": []}],
        "last": {"kind": "close", "window": 6, "timeout": False, "seat": 1,
                 "card": card(song_card(6, 3)), "to": "top", "tops": 0, "stands": True,
                 "discarded": []},
        "over": False, "winners": None, "scores": None,
    }
    if moment == "window":
        chain = [{"card": card(song_card(3, 3)), "seat": 1, "to": "top", "stands": 3},
                 {"card": card(song_card(2, 3, 1)), "seat": 2, "to": None, "stands": 3}]
        view.update(phase="window", current=1, window=7, chain=chain,
                    actors=[s for s in range(players) if s not in (2, 3)],
                    passed=[s == 3 for s in range(players)], standing=False,
                    can_top=[c for c in hand_ids if c in (80, song_card(2, 3))]
                    if you is not None and you not in (2, 3) else [], can_rank=[],
                    last={"kind": "top", "seat": 2, "card": chain[1]["card"], "window": 7})
        view["log"] = [*view["log"], {"text": "{0} plays 3 · Objeción Denegada to the "
                                              "Ranking Top.", "seats": [1]},
                       {"text": "{0} says TOP! with 3 · La señora interesante.",
                        "seats": [2]}]
    elif moment == "keep":
        view.update(phase="keep", can_rank=[],
                    last={"kind": "effect", "seat": 0, "song": 4,
                          "text": "El Dinosaurio Anacleto"})
    elif moment == "again":
        view.update(phase="again", again="objecion")
    elif moment == "over":
        rankings = [_ranked([song_card(1, 5), song_card(4, 4), song_card(0, 3), 91,
                             song_card(5, 1)]), *rankings[1:]]
        view.update(phase="over", actors=[], over=True, winners=[0], ranking=rankings,
                    needed=[0, *needed[1:]], scores=[len(r) for r in rankings], can_rank=[],
                    last={"kind": "win", "seat": 0})
    if you != 0:
        view["can_rank"] = []
    return view


def load_game() -> Any:
    """The rules (from the catalogue once registered there, else from their package)."""
    from lanplay import games
    try:
        return games.load("ranking-top")
    except KeyError:
        from lanplay.games.ranking_top import GAME
        return GAME


def real_views(players: int = 3, seed: int = 7) -> dict[str, tuple[dict[Any, Any],
                                                                   dict[Any, Any]]]:
    """Views (before, at) for each viewer at the first turn / window / keep / again /
    over moments of a real seeded game played by the rules' own bots."""
    wanted: dict[str, Callable[[dict[str, Any]], bool]] = {
        "turn": lambda v: v["phase"] == "turn" and v["window"] >= 3,
        "window": lambda v: v["phase"] == "window" and len(v["chain"]) >= 2,
        "chain": lambda v: v["phase"] == "window" and len(v["chain"]) >= 3,
        "keep": lambda v: v["phase"] == "keep",
        "again": lambda v: v["phase"] == "again",
        "over": lambda v: v["phase"] == "over",
    }
    return kit.real_views(load_game(), players, seed, wanted, 20000)


def passed_views(players: int = 5, seed: int = 7) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Views (before, at) of the first top window of a real seeded game in which play
    goes counter-clockwise, at least two have passed and two still decide (five
    players: the chain's owner, two passed, two deciding), its chain short."""
    found = kit.real_views(load_game(), players, seed, {"passed": lambda v: (
        v["phase"] == "window" and v["direction"] != 1 and sum(v["passed"]) >= 2
        and len(v["actors"]) >= 2 and len(v["chain"]) <= 3)}, 20000)
    return found["passed"]


def render_table(path: Path, previous: dict[str, Any] | None, view: dict[str, Any],
                 seats: list[dict[str, Any]], you: int | None, size: tuple[int, int],
                 prepare: Callable[[Any], None] | None = None) -> None:
    """Draw the table at ``size`` to a PNG; ``prepare`` may click things first."""
    from ui.tables.ranking_top import RankingTopTable
    kit.render_table(RankingTopTable, path, previous, view, seats, you, size,
                      prepare=prepare)


def click_first_card(table: Any) -> None:
    """Click the first lit card of the hand, as a player would, so the choice shows."""
    for item in table.hand_items:
        if item.lit:
            table._clicked(item)
            return


def _click_blocked_card(table: Any) -> None:
    """Click a card that cannot go in the Ranking Top: the choice explains why."""
    can = set((table.view or {}).get("can_rank") or [])
    for item in table.hand_items:
        if item.lit and item.card_id not in can:
            table._clicked(item)
            return
    click_first_card(table)


def _press_top(table: Any) -> None:
    table.press_top()


def render_all(out: Path, sizes: tuple[tuple[int, int], ...] = SIZES,
               prefix: str = "rtop") -> list[Path]:
    """Real games (3 and 5 players) at each phase for an acting seat and a spectator,
    plus made-up moments a real game does not stop at (a card's choice open)."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for players in (3, 5):
        seats = demo_seats(players, bots=players - 1)
        for moment, (before, at) in real_views(players).items():
            viewer = at[None]
            acting = viewer["actors"] or [viewer["current"]]
            for you, who, (w, h) in kit.shots(acting[0], sizes):
                path = out / f"{prefix}-real-{players}p-{moment}-{who}-{w}x{h}.png"
                render_table(path, before[you], at[you], seats, you, (w, h))
                written.append(path)

    seats = demo_seats(4, bots=2)
    extra: list[tuple[str, str, int | None, Callable[[Any], None] | None]] = [
        ("turn", "choice", 0, _click_blocked_card), ("window", "top-chooser", 0, _press_top),
        ("keep", "keep-choice", 0, click_first_card), ("window", "owner", 1, None),
        ("window", "spectator", None, None), ("over", "seat0", 0, None)]
    for moment, name, you, prepare in extra:
        view = sample_view(moment, you, 4)
        for w, h in sizes:
            path = out / f"{prefix}-4p-{moment}-{name}-{w}x{h}.png"
            render_table(path, None, view, seats, you, (w, h), prepare)
            written.append(path)
    return written


if __name__ == "__main__":
    sys.exit(kit.main(sys.argv, render_all))

