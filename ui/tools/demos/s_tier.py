"""Real S-tier views for screenshots and tests: the pure rules played by a seeded chooser.

``scene_views(mode, moment)`` gives (seats, views by viewer) at a named
moment of a real game; ``render_view`` draws one to PNG offscreen;
``render_all`` writes the set we check by eye (every mode and phase, a seat
that acts, one that waits, a spectator, two window sizes). Run it as
``python -m ui.tools.demos.s_tier DIR``.
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from PyQt6.QtWidgets import QApplication

import lanplay.content as content
from lanplay.games.s_tier import GAME
from lanplay.peer.keeper import Laptops

NAMES = ("Mia", "Ben", "Ada", "Jonas", "Lea", "Omar", "Ida", "Tom", "Zoe", "Max", "Eva",
         "Noah", "Sara", "Finn", "Lina", "Paul")
COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
SIZES = ((1280, 800), (1600, 900))
MODULES = {"cooperative": "coop", "competitive": "competitive", "team": "team"}


def demo_seats(players: int) -> list[dict[str, Any]]:
    return [{"name": NAMES[i % len(NAMES)], "colour": COLOURS[i % len(COLOURS)],
             "bot": False, "connected": True, "ready": True, "owner": i == 0}
            for i in range(players)]


def rules(mode: str) -> ModuleType:
    return importlib.import_module(f"lanplay.games.s_tier.{MODULES[mode]}")


def choose(mode: str, state: Any, seat: int, rng: random.Random,
           laptops: Laptops) -> dict[str, Any]:
    """A legal action that moves the game on (a shared board fills, then locks); a note
    is written as a bot would, on the leader's laptop, which commits to it."""
    mod = rules(mode)
    legal = mod.legal(state, seat)
    if any(a["type"] == "commit" for a in legal) or (mode == "team" and state.phase == "wrong"):
        written = GAME.bot(laptops.shown(state, seat), seat, rng)
        if written is not None:
            return written
    if mode == "cooperative" and state.phase == "guess":
        locks = [a for a in legal if a["type"] == "lock"]
        if locks:
            return dict(locks[0])
        board = list(state.board)
        fill = [a for a in legal if a["type"] == "move" and a.get("tier") is not None
                and a["picture"] not in board and board[a["tier"]] is None]
        if fill:
            return dict(rng.choice(fill))
    return dict(rng.choice(legal))


class Game:
    """A pure-rules game driven by ``choose`` on every seat; the leaders' notes stay on
    their ``laptops``, which answer the rules by themselves."""

    def __init__(self, mode: str, players: int, seed: int = 7,
                 options: dict[str, Any] | None = None) -> None:
        self.mode = mode
        self.mod = rules(mode)
        self.rng = random.Random(seed)
        self.state = self.mod.setup(players, options or {}, seed, content.default_library())
        self.players = players
        self.states = [self.state]
        self.laptops = Laptops(GAME, random.Random(seed))

    def step(self) -> None:
        owed = self.laptops.due(self.state)
        if owed is not None:
            self.state = self.mod.apply(self.state, *owed)
            self.states.append(self.state)
            return
        actors = sorted(self.mod.actors(self.state))
        unlocked = [a for a in actors if a not in getattr(self.state, "locked", ())]
        seat = (unlocked or actors)[0]
        action = choose(self.mode, self.state, seat, self.rng, self.laptops)
        self.state = self.mod.apply(self.state, seat, self.laptops.send(self.state, seat, action))
        self.states.append(self.state)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        """What the viewer's table shows: its own note from its laptop when it leads."""
        return self.mod.view(state, None) if viewer is None else self.laptops.shown(state, viewer)

    def trail(self, viewer: int | None, count: int = 40) -> list[dict[str, Any]]:
        """The viewer's last views, as a client saw them arrive (reveals need the past)."""
        return [self.view(s, viewer) for s in self.states[-count:]]

    def until(self, done: Callable[[Any], bool], limit: int = 4000) -> None:
        for _ in range(limit):
            if done(self.state) or self.state.phase == "over":
                return
            self.step()

    def views(self) -> dict[int | None, dict[str, Any]]:
        return {v: self.view(self.state, v) for v in [*range(self.players), None]}


def coop_effects(players: int = 3) -> Game:
    """A cooperative game on the text side with every effect active (forced, for a look)."""
    game = Game("cooperative", players, options={"text_side": True})
    state = replace(game.state, effects=("choose-side", "place-one", "no-second", "take-four"),
                    green=2, red=2, round=0, log=())
    game.state = game.mod.start_round(state, state.leader)
    game.states = [game.state]
    return game


MOMENTS: dict[str, tuple[str, int, Callable[[], Game]]] = {}


def _moment(name: str, mode: str, players: int) -> Callable[[Callable[[Game], None]], None]:
    def register(play: Callable[[Game], None]) -> None:
        def build() -> Game:
            game = (coop_effects(players) if name.startswith("coop-effects")
                    else Game(mode, players))
            play(game)
            return game
        MOMENTS[name] = (mode, players, build)
    return register


@_moment("coop-note", "cooperative", 4)
def _coop_note(game: Game) -> None:
    game.until(lambda s: s.round == 2)


@_moment("coop-guess", "cooperative", 4)
def _coop_guess(game: Game) -> None:
    game.step()
    for _ in range(3):
        game.step()


@_moment("coop-attempt2", "cooperative", 4)
def _coop_attempt2(game: Game) -> None:
    game.until(lambda s: s.phase == "guess" and s.attempt == 2 and s.round >= 1)


@_moment("coop-count", "cooperative", 4)
def _coop_count(game: Game) -> None:
    """The board is in; the leader's laptop (away, say) has not counted yet."""
    game.until(lambda s: s.phase == "count")


@_moment("coop-reveal", "cooperative", 4)
def _coop_reveal(game: Game) -> None:
    """The first reveal: the leader's note beside where the group put each picture."""
    game.until(lambda s: s.last is not None and s.last.get("kind") == "reveal")


@_moment("coop-effects", "cooperative", 3)
def _coop_effects(game: Game) -> None:
    pass


@_moment("coop-effects-guess", "cooperative", 3)
def _coop_effects_guess(game: Game) -> None:
    game.step()
    game.step()


@_moment("coop-over", "cooperative", 3)
def _coop_over(game: Game) -> None:
    game.until(lambda s: False)


@_moment("comp-note", "competitive", 6)
def _comp_note(game: Game) -> None:
    game.until(lambda s: s.round == 2)


@_moment("comp-place", "competitive", 6)
def _comp_place(game: Game) -> None:
    game.until(lambda s: s.round == 2 and s.phase == "place")
    game.step()
    game.step()


@_moment("comp-crowd", "competitive", 11)
def _comp_crowd(game: Game) -> None:
    game.until(lambda s: s.phase == "place")
    for _ in range(4):
        game.step()


@_moment("comp-reveal", "competitive", 6)
def _comp_reveal(game: Game) -> None:
    game.until(lambda s: s.phase == "reveal")


@_moment("comp-over", "competitive", 5)
def _comp_over(game: Game) -> None:
    game.until(lambda s: False)


@_moment("team-notes", "team", 6)
def _team_notes(game: Game) -> None:
    game.until(lambda s: s.round == 2)
    game.step()


@_moment("team-start", "team", 4)
def _team_start(game: Game) -> None:
    """A round's first take: all ten pictures in the pool, each with its leader's disc."""
    game.until(lambda s: s.phase == "take")


@_moment("team-take", "team", 6)
def _team_take(game: Game) -> None:
    game.until(lambda s: s.phase == "take" and sum(1 for t in s.takers if t is not None) >= 4)


@_moment("team-wrong", "team", 6)
def _team_wrong(game: Game) -> None:
    game.until(lambda s: s.phase == "wrong")


@_moment("team-fix", "team", 6)
def _team_fix(game: Game) -> None:
    game.until(lambda s: s.phase == "fix")


@_moment("team-reveal", "team", 6)
def _team_reveal(game: Game) -> None:
    game.until(lambda s: s.phase == "reveal")


@_moment("team-crowd", "team", 16)
def _team_crowd(game: Game) -> None:
    game.until(lambda s: s.phase == "take" and sum(1 for t in s.takers if t is not None) >= 6)


@_moment("team-over", "team", 5)
def _team_over(game: Game) -> None:
    game.until(lambda s: False)


def render_view(path: Path, views: list[dict[str, Any]], seats: list[dict[str, Any]],
                you: int | None, size: tuple[int, int]) -> None:
    """Draw the last of ``views`` (the earlier ones first, as a client would) to a PNG."""
    from ui.tables.s_tier import STierTable
    table = STierTable()
    table.resize(*size)
    table.show()
    QApplication.processEvents()
    for view in views:
        table.set_view(view, seats, you, animate=False)
    QApplication.processEvents()
    table.board.finish()
    table.grab().save(str(path))
    table.close()
    table.deleteLater()


def viewers(view: dict[str, Any], players: int) -> list[int | None]:
    """An acting seat, a waiting seat and a spectator."""
    actors = list(view.get("actors") or [])
    acting = actors[0] if actors else 0
    waiting = next((s for s in range(players) if s not in actors), None)
    out: list[int | None] = [acting]
    if waiting is not None and waiting != acting:
        out.append(waiting)
    out.append(None)
    return out


def render_all(out: Path, sizes: tuple[tuple[int, int], ...] = SIZES,
               only: str = "") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, (_mode, players, build) in MOMENTS.items():
        if only and not name.startswith(only):
            continue
        try:
            game = build()
        except ModuleNotFoundError:
            continue
        seats = demo_seats(players)
        views = game.views()
        for you in viewers(views[None], players):
            who = "spectator" if you is None else f"seat{you}"
            for w, h in sizes:
                path = out / f"stier-{name}-{who}-{w}x{h}.png"
                render_view(path, game.trail(you), seats, you, (w, h))
                written.append(path)
    return written


def main(argv: list[str]) -> int:
    app = QApplication.instance() or QApplication(argv[:1])
    out = Path(argv[1] if len(argv) > 1 else "screenshots")
    for path in render_all(out, only=argv[2] if len(argv) > 2 else ""):
        print(path)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
