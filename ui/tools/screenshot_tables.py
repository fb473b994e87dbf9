"""The game tables for ``lanplay screenshots``: every game and mode, in the real window.

Each screen is a real moment of a seeded game played by the rules' own bots
(the views a peer would be sent, from the games' ``demo`` modules), shown the
way a player sees it: in the window's game page, with its bar, the chat
drawer open where the screen says so, and the end screen laid over the table
where there is a result. Crowded states use each game's most seats (S-tier
competitive 11, team 16), light ones the fewest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QEvent
from PyQt6.QtWidgets import QApplication

from lanplay.fair.audit import Verdict
from protocol.messages import Lobby
from ui.pages.game.end_screen import verdict_text
from ui.tools.fit import FitCheck

CHAT = (("Jonas", "#009E73", "Hi all! Bots, go easy on us."),
        ("Mia", "#E69F00", "Ready when you are."),
        ("Ada", "#56B4E9", "That one was close!"))


@dataclass
class TableScreen:
    """One table to render: whose view, at which moment, framed how."""

    name: str
    game: str
    seats: list[dict[str, Any]]
    you: int | None
    views: list[dict[str, Any]]
    """The views as they arrived, oldest first; the last one is shown."""
    at_ms: int | None = None
    """Freeze the last view's animation this far in (None: no animation)."""
    prepare: Callable[[Any], None] | None = None
    """Clicks a player makes first (a chooser opened, an aim pulled)."""
    chat: bool = False
    result: dict[str, Any] | None = None
    """The host's result: the end screen lies over the table."""
    clock: float | None = None
    """Seconds left on the host's deadline (the bar's countdown)."""
    hold: bool = False
    """Show the last view as the window's pacer does (animated) and grab it while the
    table still holds its key moment (S-tier's reveal on the board)."""
    mode: str = ""
    watchers: tuple[str, ...] = ()
    """Who watches (the bar counts them); a spectator's screen has some anyway."""
    verdict: tuple[int, ...] | None = None
    """With a result: this laptop's check of the game, the host having drawn for these
    seats (the end screen's fair-play line)."""
    zoom: int = 0
    """Ctrl+plus pressed this many times first (the window's text larger)."""


def _alles_klar() -> Iterator[TableScreen]:
    from ui.tables.alles_klar.table import FLY_MS
    from ui.tables.motion import HOLD_MS
    from ui.tools.demos import alles_klar as demo

    _, before, at = demo.demo_scene(5, "mid")
    seats = demo.demo_seats(5, bots=3)
    seat = at[None]["turn"]
    yield TableScreen("alles-klar-5p", "alles-klar", seats, seat, [before[seat], at[seat]])
    yield TableScreen("alles-klar-5p-chat", "alles-klar", seats, seat,
                      [before[seat], at[seat]], chat=True)
    yield TableScreen("alles-klar-5p-spectator", "alles-klar", seats, None,
                      [before[None], at[None]])
    _, before, at = demo.demo_scene(5, "trick")
    seat = at[None]["last"]["winner"]
    yield TableScreen("alles-klar-5p-trick", "alles-klar", seats, seat,
                      [before[seat], at[seat]], at_ms=FLY_MS + HOLD_MS // 2)
    # issue 31: the choice of the ranking card that turns down, asked by the winner of a
    # trick just decided (the last play's line in two lines) and by a player whose own
    # cards of the trick lie in front of them
    for moment, name in (("won", "alles-klar-5p-choice"), ("row", "alles-klar-5p-choice-row")):
        _, before, at = demo.choice_scene(5, moment)
        seat = at[None]["turn"]
        yield TableScreen(name, "alles-klar", seats, seat, [before[seat], at[seat]],
                          prepare=demo.open_choice)
    _, before, at = demo.demo_scene(2, "early")
    seat = at[None]["turn"]
    yield TableScreen("alles-klar-2p", "alles-klar", demo.demo_seats(2), seat,
                      [before[seat], at[seat]])
    _, before, at = demo.demo_scene(5, "mid")
    seat = at[None]["turn"]
    yield TableScreen("alles-klar-zoom2", "alles-klar", seats, seat, [before[seat], at[seat]],
                      zoom=2)


def _ranking() -> Iterator[TableScreen]:
    from ui.tools.demos import ranking as demo

    views = demo.real_views(4)
    before, at = views["roof"]  # a stone on the roof points down
    seat = at[None]["actors"][0]
    yield TableScreen("ranking", "ranking", demo.demo_seats(4, 3), seat,
                      [before[seat], at[seat]])
    # issue 31: the first round's comparison with its choice open ("Bell up (1)"), seven
    # tiles on floor 3 (the choice ran off the table's edge, the banner was elided)
    first = demo.real_views(3, seed=11)
    before, at = first["first-compare"]
    seat = at[None]["actors"][0]
    yield TableScreen("ranking-choice", "ranking", demo.demo_seats(3, 1), seat,
                      [before[seat], at[seat]], prepare=demo.pick_pair)
    crowd = demo.real_views(5)
    seats = demo.demo_seats(5, 4)
    before, at = crowd["compare"]
    seat = at[None]["actors"][0]
    yield TableScreen("ranking-5p-chat", "ranking", seats, seat, [before[seat], at[seat]],
                      chat=True)
    before, at = crowd["guess"]
    seat = next(s for s in at[None]["actors"] if s != at[None].get("guess_for"))
    yield TableScreen("ranking-5p-guess", "ranking", seats, seat, [before[seat], at[seat]])
    yield TableScreen("ranking-5p-bots", "ranking", _bots(seats), seat,
                      [before[seat], at[seat]])
    before, at = crowd["stones"]  # guess stones on the tower, each with its guesser
    seat = at[None]["current"]
    yield TableScreen("ranking-guess", "ranking", seats, seat, [before[seat], at[seat]])
    before, at = crowd["reveal"]
    yield TableScreen("ranking-5p-spectator", "ranking", seats, None,
                      [before[None], at[None]])
    yield TableScreen("ranking-5p-bots-reveal", "ranking", _bots(seats), 0,
                      [before[0], at[0]])
    light = demo.real_views(3)
    before, at = light["place"]
    yield TableScreen("ranking-3p", "ranking", demo.demo_seats(3, 2), 0,
                      [before[0], at[0]])
    before, at = demo.first_guess(5, seed=11)  # five tiles on floor 3, Ben's among them
    yield TableScreen("ranking-5p-first-guess", "ranking", seats, 1, [before[1], at[1]])


def _bots(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same seats with bots as a room names them (Bot 1, Bot 2...): their initials
    collide, so their badges are B1, B2... (pills where a disc is small)."""
    return [dict(seat, name=f"Bot {i}", bot=True) if i else dict(seat)
            for i, seat in enumerate(seats)]


def _s_tier() -> Iterator[TableScreen]:
    from ui.tools.demos import s_tier as demo

    def screen(name: str, moment: str, who: str = "acting", chat: bool = False,
               prepare: Callable[[Any], None] | None = None, hold: bool = False,
               watchers: tuple[str, ...] = ()) -> TableScreen:
        _mode, players, build = demo.MOMENTS[moment]
        game = build()
        watching = demo.viewers(game.views()[None], players)
        seated = [v for v in watching if v is not None]
        you = (None if who == "spectator" else seated[-1] if who == "waiting"
               else seated[0])
        return TableScreen(name, "s-tier", demo.demo_seats(players), you, game.trail(you),
                           chat=chat, prepare=prepare, hold=hold, mode=_mode,
                           watchers=watchers)

    yield screen("s-tier-cooperative", "coop-guess")
    yield screen("s-tier-cooperative-note", "coop-note", prepare=_place_two)
    yield screen("s-tier-cooperative-effects", "coop-effects-guess", chat=True)
    yield screen("s-tier-competitive", "comp-place")
    yield screen("s-tier-competitive-11p", "comp-crowd", chat=True)
    yield screen("s-tier-competitive-reveal", "comp-note", who="spectator")
    yield screen("s-tier-competitive-reveal-held", "comp-note", hold=True)
    yield screen("s-tier-competitive-revealing", "comp-reveal", who="waiting")
    yield screen("s-tier-cooperative-count", "coop-count", who="waiting")
    yield screen("s-tier-cooperative-reveal", "coop-reveal", hold=True)
    yield screen("s-tier-team", "team-take")
    yield screen("s-tier-team-start", "team-start")
    yield screen("s-tier-team-note", "team-notes", prepare=_place_two)
    yield screen("s-tier-team-wrong", "team-wrong")
    yield screen("s-tier-team-16p", "team-crowd", chat=True, watchers=("Zoe", "Kai"))
    yield screen("s-tier-team-16p-spectator", "team-crowd", who="spectator")
    yield from _s_tier_ends()


def _s_tier_ends() -> Iterator[TableScreen]:
    """Every kind of end screen, each a real seeded game played to its end: a team's
    win from a losing seat, a winning seat and a watcher's; a shared win among 11; a
    cooperative defeat (the group lost, and why); a 4-way tie at 0 (a draw, never "You
    win!"), from a seat and a watcher's."""
    from ui.tools.demos import s_tier as demo

    ends = (("s-tier-team-16p-over", "team", 16, 7, 1), ("spectator-over", "team", 16, 7, None),
            ("s-tier-team-5p-won", "team", 5, 7, 0),
            ("s-tier-competitive-11p-over", "competitive", 11, 7, 1),
            ("s-tier-cooperative-lost", "cooperative", 4, 7, 1),
            ("s-tier-competitive-draw", "competitive", 4, 12, 1),
            ("s-tier-competitive-draw-spectator", "competitive", 4, 12, None))
    for name, mode, players, seed, you in ends:
        game = demo.Game(mode, players, seed=seed)
        game.until(lambda s: False)
        result = game.mod.result(game.state)
        yield TableScreen(name, "s-tier", demo.demo_seats(players), you, game.trail(you),
                          result=result.to_wire() if result is not None else None, mode=mode,
                          verdict=(2, 5) if players == 11 else None if you is None else (),
                          watchers=("Zoe", "Kai") if you is None else ())


def _place_two(table: Any) -> None:
    """Place the first two pictures of a note being written, as a leader would."""
    board = table.board
    for tier in (0, 2):
        movable = [t for t in board.model.pool if t.movable]
        if not movable:
            return
        board.moved.emit(movable[0].id, (0, tier))


def _ranking_top() -> Iterator[TableScreen]:
    from ui.tools.demos import ranking_top as demo

    views = demo.real_views(4)
    before, at = views["window"]
    seat = at[None]["actors"][0]
    seats = demo.demo_seats(4, 3)
    yield TableScreen("ranking-top", "ranking-top", seats, seat, [before[seat], at[seat]],
                      clock=3.0, watchers=("Zoe",))
    crowd = demo.real_views(5)
    seats = demo.demo_seats(5, 4)
    before, at = crowd["window"]
    seat = at[None]["actors"][0]
    yield TableScreen("ranking-top-5p-chat", "ranking-top", seats, seat,
                      [before[seat], at[seat]], chat=True, clock=3.0)
    before, at = crowd["turn"]
    yield TableScreen("ranking-top-5p-spectator", "ranking-top", seats, None,
                      [before[None], at[None]])
    light = demo.real_views(3)
    before, at = light["turn"]
    seat = at[None]["current"]
    yield TableScreen("ranking-top-3p", "ranking-top", demo.demo_seats(3, 2), seat,
                      [before[seat], at[seat]])
    # issue 31: a top window of five, its countdown running, two passed and two
    # deciding, play going counter-clockwise: from a seat that passed, one deciding
    # and a watcher (whose game bar, with the clock running, has the most to say)
    before, at = demo.passed_views(5)
    window = at[None]
    passed = [s for s, p in enumerate(window["passed"]) if p]
    for name, you in (("ranking-top-5p-passed", passed[0]),
                      ("ranking-top-5p-deciding", window["actors"][0]),
                      ("ranking-top-5p-window-spectator", None)):
        yield TableScreen(name, "ranking-top", seats, you, [before[you], at[you]], clock=3.0)
    before, at = views["keep"]  # "keep this card?" open over the table
    seat = at[None]["actors"][0]
    yield TableScreen("ranking-top-choice", "ranking-top", demo.demo_seats(4, 3), seat,
                      [before[seat], at[seat]], prepare=demo.click_first_card)
    before, at = views["chain"]  # a window reopened by a top: its countdown and the chain
    seat = next(s for s in at[None]["actors"] if s != at[None]["chain"][-1]["seat"])
    yield TableScreen("ranking-top-chain", "ranking-top", demo.demo_seats(4, 3), seat,
                      [before[seat], at[seat]], clock=2.5)


def _ranagedon() -> Iterator[TableScreen]:
    from ui.tools.demos import ranagedon as demo

    _, before, at = demo.demo_scene(2, "mid")
    seat = at[None]["turn"]
    aim = demo._aim_for(at[seat])

    def aim_now(table: Any) -> None:
        if aim is not None:
            from PyQt6.QtCore import QPointF

            press, pull = table.aim_points(*aim)
            table._press(table.graphics.mapToScene(press))
            table._move(QPointF(table.graphics.mapToScene(pull)))

    yield TableScreen("ranagedon", "ranagedon", demo.demo_seats(2, 1), seat,
                      [before[seat], at[seat]])
    yield TableScreen("ranagedon-aim", "ranagedon", demo.demo_seats(2, 1), seat,
                      [before[seat], at[seat]], prepare=aim_now)
    _, before, at = demo.demo_scene(4, "mid")
    seat = at[None]["turn"]
    seats = demo.demo_seats(4, 3)
    yield TableScreen("ranagedon-4p-chat", "ranagedon", seats, seat, [before[seat], at[seat]],
                      chat=True)
    _, before, at = demo.demo_scene(4, "deploy")
    yield TableScreen("ranagedon-4p-spectator", "ranagedon", seats, None,
                      [before[None], at[None]])
    seat = min(at[None]["actors"])  # the formation chosen before the first flick
    yield TableScreen("ranagedon-4p-deploy", "ranagedon", seats, seat, [before[seat], at[seat]])
    _, before, at = demo.demo_scene(2, "deploy")
    seat = min(at[None]["actors"])
    yield TableScreen("ranagedon-deploy", "ranagedon", demo.demo_seats(2, 1), seat,
                      [before[seat], at[seat]])


def _teach(game: str, step: int = 0) -> Callable[[Any], None]:
    """The first-turn walkthrough over a table, at its ``step``-th step."""
    def prepare(table: Any) -> None:
        from ui.tables.teach import Walkthrough

        walk = Walkthrough(table)
        walk.start(table, game, lambda: None)
        for _ in range(step):
            walk.next()
        table._teach_for_shot = walk  # kept alive until the next screen
    return prepare


def _teaching() -> Iterator[TableScreen]:
    from ui.tools.demos import alles_klar, ranagedon, ranking, ranking_top, s_tier

    _, before, at = alles_klar.demo_scene(5, "mid")
    seat = at[None]["turn"]
    yield TableScreen("alles-klar-teach", "alles-klar", alles_klar.demo_seats(5, bots=3),
                      seat, [before[seat], at[seat]], prepare=_teach("alles-klar", 1))
    before, at = ranking.real_views(3)["place"]
    yield TableScreen("ranking-teach", "ranking", ranking.demo_seats(3, 2), 0,
                      [before[0], at[0]], prepare=_teach("ranking", 1))
    before, at = ranking_top.real_views(3)["turn"]
    seat = at[None]["current"]
    yield TableScreen("ranking-top-teach", "ranking-top", ranking_top.demo_seats(3, 2), seat,
                      [before[seat], at[seat]], prepare=_teach("ranking-top", 1))
    for name, moment in (("s-tier-teach", "coop-guess"), ("s-tier-competitive-teach",
                                                         "comp-place"),
                         ("s-tier-team-teach", "team-take")):
        mode, players, build = s_tier.MOMENTS[moment]
        game = build()
        you = next(v for v in s_tier.viewers(game.views()[None], players) if v is not None)
        yield TableScreen(name, "s-tier", s_tier.demo_seats(players), you, game.trail(you),
                          prepare=_teach(f"s-tier/{mode}", 1), mode=mode)
    _, before, at = ranagedon.demo_scene(2, "mid")
    seat = at[None]["turn"]
    yield TableScreen("ranagedon-teach", "ranagedon", ranagedon.demo_seats(2, 1), seat,
                      [before[seat], at[seat]], prepare=_teach("ranagedon", 1))


def screens() -> list[TableScreen]:
    """Every table screen, built once (the same views at every size)."""
    out: list[TableScreen] = []
    for make in (_alles_klar, _ranking, _s_tier, _ranking_top, _ranagedon, _teaching):
        out.extend(make())
    return out


def render(window: Any, todo: list[TableScreen], out: Path, fit: FitCheck | None) -> list[Path]:
    """Draw every screen of ``todo`` in ``window``'s game page at its current size."""
    page = window.game
    window.stack.setCurrentWidget(page)
    if not page.chat.history.toPlainText():
        for sender, colour, text in CHAT:
            page.chat.add(sender, colour, text, sender[0])  # the sender's badge
    written: list[Path] = []
    for screen in todo:
        page.game_id = ""  # a fresh table for every screen
        page.set_game(screen.game, "Mia")
        page.set_seats(screen.seats, screen.you, screen.you == 0)
        watchers = list(screen.watchers or (("Zoe", "Kai") if screen.you is None else ()))
        page.set_watching(screen.you is None, Lobby(
            "Mia", screen.game, screen.mode, {}, screen.seats,
            "lobby" if screen.result is not None else "playing",
            spectators=len(watchers), watchers=watchers))
        page.clear_result()
        for _ in range(screen.zoom):
            window.zoom(1.1)
        page._chat_chosen = screen.chat
        page._show_chat(screen.chat)
        page.set_clock(screen.clock)
        for _ in range(3):  # the new table takes its size (a resize ends an animation)
            QApplication.processEvents()
        table = page.table
        for view in screen.views[:-1]:
            page.set_view(view, animate=False)
        page.set_view(screen.views[-1], animate=screen.at_ms is not None or screen.hold)
        page.set_clock(screen.clock)  # as the window does: once the view is on show
        anim = getattr(table, "_anim", None)
        if screen.at_ms is not None and anim is not None:
            anim.pause()
            anim.setCurrentTime(min(screen.at_ms, anim.totalDuration()))
        board = getattr(table, "board", None)
        if board is not None and hasattr(board, "finish"):
            board.finish()
        if screen.prepare is not None:
            screen.prepare(table)
            if board is not None and hasattr(board, "finish"):
                board.finish()
        if screen.result is not None:
            page.show_result(screen.result)
            if screen.verdict is not None:
                names = [str(seat.get("name", "")) for seat in screen.seats]
                verdict = Verdict(ok=True, drawn=screen.verdict)
                page.end.show_verdict(verdict_text(verdict, names), verdict.ok)
        QApplication.processEvents()
        path = out / f"{screen.name}.png"
        window.grab().save(str(path))
        if fit is not None:
            fit.screen(screen.name, window)
        finish = getattr(table, "_finish_animation", None)
        if finish is not None:
            finish()
        if screen.zoom:
            window.zoom(0)
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        written.append(path)
    page.set_clock(None)
    page.clear_result()
    return written


__all__ = ["TableScreen", "render", "screens"]
