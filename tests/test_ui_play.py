"""Two windows play Alles klar? to the end, through their own controls.

Window A hosts from the Host dialog and adds two bots; window B finds A in
its live list (real zeroconf on loopback) and joins with a double click;
both press ready, A starts, and every move of both people is a click on a
card of the table widget (and on the numeral chooser when a card asks).
The end screens show the scores the host computed; "Play again" starts the
next game with the same seats.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from ui_harness import Runner, aloop, click, close, double_click, unique, until, window  # noqa: F401

from ui.dialogs.host_dialog import HostDialog
from ui.window.window import MainWindow


def lit_cards(win: MainWindow) -> list[Any]:
    """The cards of ``win``'s hand the table lights as playable now."""
    table: Any = win.game.table
    if win.stack.currentWidget() is not win.game or win.game.end.isVisible():
        return []
    if table.chooser.isVisible():
        return []
    return [item for item in getattr(table, "hand_items", []) if item.lit]


def play_one(win: MainWindow, rng: random.Random, sent: list[dict[str, Any]]) -> bool:
    """Click a playable card of ``win`` (and a numeral if asked); False if none is lit.

    ``sent`` collects what the window's game page emitted: a click must send a move.
    """
    table: Any = win.game.table
    cards = lit_cards(win)
    if not cards:
        return False
    item = rng.choice(cards)
    before = len(sent)
    click(table.graphics.viewport(),
          table.graphics.mapFromScene(item.sceneBoundingRect().center()))
    if table.chooser.isVisible():  # a two-numeral card: choose which ranking card turns
        click(rng.choice(table.chooser.buttons[:-1]))  # the last button is Cancel
    assert len(sent) == before + 1, f"clicking {item.card} sent nothing"
    assert sent[-1]["card"] == item.card["id"]
    return True


@pytest.mark.timeout(90)
def test_two_windows_host_join_and_play_to_the_end(aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"), "#E69F00")
        ben = window(tmp_path, unique("Ben"), "#56B4E9")
        try:
            await ann.start()
            await ben.start()

            # Small windows and the largest hand keep the test short: painting the
            # table's animations is most of its time.
            for win in (ann, ben):
                win.resize(960, 640)
            # Ann hosts from the dialog.
            click(ann.home.host)
            dialog = ann.dialog
            assert isinstance(dialog, HostDialog) and dialog.isVisible()
            dialog.select_game("alles-klar")
            assert dialog.game_id() == "alles-klar" and dialog.host.isEnabled()
            dialog.set_option("hand_size", 5)
            click(dialog.host)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 1, 15, ann)
            assert ann.stack.currentWidget() is ann.room
            assert ann.conn is not None and ann.conn.host is not None
            host = ann.conn.host
            assert host.room.options["hand_size"] == 5
            assert ann.room.start_button.isVisible() and not ann.room.start_button.isEnabled()
            assert "needs 2-5 players" in ann.room.problem.text()
            click(ann.room.add_bot_button)
            click(ann.room.add_bot_button)
            await until(lambda: ann.lobby is not None and len(ann.lobby.seats) == 3, 15, ann)

            # Ben sees Ann's room appear in his list and double-clicks it.
            def found() -> Any:
                return next((h for h in ben.home._found.values()
                             if h.host_name == ann.settings.name and h.port == host.port),
                            None)
            await until(lambda: (f := found()) is not None and f.seats_taken == 3, 20, ben)
            item = ben.home.item_for(found().service)
            assert item is not None and item.text(2) == "3/5"
            tree = ben.home.hosts
            tree.scrollToItem(item)
            double_click(tree.viewport(), tree.visualItemRect(item).center())
            await until(lambda: ben.lobby is not None and len(ben.lobby.seats) == 4, 15,
                        ann, ben)
            assert ben.stack.currentWidget() is ben.room
            assert not ben.room.start_button.isVisible()  # only the owner starts

            # Both press ready; Ann starts.
            click(ann.room.ready_button)
            click(ben.room.ready_button)
            await until(lambda: ann.lobby is not None and ann.lobby.problem is None, 15,
                        ann, ben)
            assert ann.room.start_button.isEnabled()
            click(ann.room.start_button)
            await until(lambda: ann.stack.currentWidget() is ann.game
                        and ben.stack.currentWidget() is ben.game, 15, ann, ben)

            # Every move of Ann and Ben is a click on one of their cards.
            rng = random.Random(3)
            clicks = 0
            sent: dict[MainWindow, list[dict[str, Any]]] = {ann: [], ben: []}
            for win in (ann, ben):
                win.game.intent.connect(sent[win].append)

            def over() -> bool:
                return ann.game.end.isVisible() and ben.game.end.isVisible()

            while not over():
                for win in (ann, ben):
                    assert win.conn is not None
                    before = win.conn.peer.state_id
                    if play_one(win, rng, sent[win]):
                        clicks += 1
                        await until(lambda w=win, b=before: w.conn is not None  # type: ignore[misc]
                                    and w.conn.peer.state_id > b, 10, win)
                await until(lambda: bool(lit_cards(ann) or lit_cards(ben)) or over(), 20,
                            ann, ben)
            assert clicks >= 10

            # The end screens show what the host computed.
            result = host.results[-1]
            expected = [f"{s:g}" for s in result.scores]
            assert ann.game.end.scores == expected
            assert ben.game.end.scores == expected
            names = [s.name for s in host.room.seats]
            for w in result.winners:
                assert names[w] in ann.game.end.headline.text() \
                    or ann.game.end.headline.text().startswith("You")
            # Each laptop checked the host's audit itself and says so under the scores.
            verified = ("Checked on this laptop: the shuffle came from everyone, every move "
                        "followed the rules")
            await until(lambda: ann.game.end.verdict.text() == verified
                        and ben.game.end.verdict.text() == verified, 10, ann, ben)
            assert ann.game.end.verdict.isVisible() and ben.game.end.verdict.isVisible()
            # The table's own summary agrees with the host.
            assert ann.conn.peer.view is not None
            assert ann.conn.peer.view["scores"] == list(result.scores)

            # Play again: same seats, a fresh game for everyone.
            click(ben.game.end.again_button)
            click(ann.game.end.again_button)
            await until(lambda: host.games_played == 2 and not ann.game.end.isVisible()
                        and not ben.game.end.isVisible(), 15, ann, ben)
            assert [s.name for s in host.room.seats] == names
            await until(lambda: ben.conn is not None and ben.conn.peer.view is not None
                        and not ben.conn.peer.view["over"], 10, ben)
        finally:
            await close(ben, ann)

    aloop(scenario(), 80)
