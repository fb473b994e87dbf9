"""Every game and mode played to its end screen by keys alone, from the real window.

One window hosts (the Host dialog, as the other window tests do) with bots in the
other seats; from the moment the table appears every decision is a key press sent
to whatever widget has the focus (``QApplication.focusWidget()``), never to a table
or an item directly. What to press is read off the table as a person reads the
screen: the keys drawn on the pieces (the stand-ins' keys), the choice that opens.
The game's own bot chooses which legal move (so the games end); the keys carry it.
The focus starts on the table, comes back after the chat and the rules, and the
end screen offers "Play again" to Enter.
"""

from __future__ import annotations

import asyncio
import math
import random
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication, QWidget
from test_ui_games_window import _my_turn
from ui_harness import Runner, aloop, click, close, unique, until, window  # noqa: F401

from lanplay.games import load
from ui.dialogs.host_dialog import HostDialog
from ui.tables.keys import PieceButton
from ui.window.window import MainWindow

NONE = Qt.KeyboardModifier.NoModifier


async def until_focus(predicate: Any, timeout: float) -> None:
    """Wait until ``predicate()`` holds, looking again whenever the focus moves."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    moved = asyncio.Event()

    def changed(*_: Any) -> None:
        moved.set()

    app.focusChanged.connect(changed)
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                moved.clear()
                await moved.wait()
    finally:
        app.focusChanged.disconnect(changed)


def focus() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keyboard focus"
    return widget


def press(key: str | Qt.Key, modifier: Qt.KeyboardModifier = NONE) -> None:
    """One key, to the widget that has the focus ("3", "S" or a ``Qt.Key``)."""
    code = Qt.Key(ord(key.upper())) if isinstance(key, str) else key
    QTest.keyClick(focus(), code, modifier)


def my_turn(win: MainWindow) -> bool:
    """Whether this window's player may act now (Alles klar?'s view names a turn)."""
    conn = win.conn
    view = conn.peer.view if conn is not None else None
    if view is not None and "actors" not in view and not view.get("over") \
            and win.stack.currentWidget() is win.game:
        return view.get("turn") == conn.peer.seat  # type: ignore[union-attr]
    return _my_turn(win)


def on_table(win: MainWindow) -> bool:
    widget = QApplication.focusWidget()
    table = win.game.table
    return widget is not None and (widget is table or table.isAncestorOf(widget))


def keys_now(table: Any) -> dict[Any, str]:
    """The key drawn on each piece that can be taken now (ident -> key)."""
    return {t.ident: t.key for t in table.keys.targets() if t.enabled and t.key}


def tab_to(widget: QWidget) -> None:
    """Tab until ``widget`` has the focus, as a person would (a bounded number of
    presses: a control Tab never reaches is a failure)."""
    for _ in range(80):
        if QApplication.focusWidget() is widget:
            return
        press(Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reaches {widget.accessibleName() or widget!r}")


# --- each game's player: the bot's choice, carried by keys --------------------------------


def alles_klar(table: Any, view: dict[str, Any], seat: int, rng: random.Random) -> None:
    keys = keys_now(table)
    assert keys, "my turn, and no card shows a key"
    press(rng.choice(sorted(keys.values())))
    if table.chooser.isVisible():  # a two-numeral card: which ranking card turns down
        assert focus() in table.chooser.buttons
        press(rng.choice(["1", "2"]))


def ranking(table: Any, view: dict[str, Any], seat: int, rng: random.Random) -> None:
    action = load("ranking").bot(view, seat, rng)
    assert action is not None
    kind = action["type"]
    if kind == "place":
        picture = action["tile"]
        press(keys_now(table)[("hand", picture)])
    elif kind == "compare":
        keys = keys_now(table)
        press(keys[("tower", action["up"])])
        press(keys_now(table)[("tower", action["down"])])
        assert table.chooser.isVisible() and focus() in table.chooser.buttons
        press("1" if table._pair[0].slot == action["up"] else "2")
    elif kind == "guess":
        press(keys_now(table)[("tower", action["slot"])])
    else:
        press("P")


def s_tier(table: Any, view: dict[str, Any], seat: int, rng: random.Random) -> None:
    """As the mouse player of the S-tier table test, by keys: a picture's digit, then a
    tier's letter; the buttons' letters (N, L, W, Q); a star by Tab and Space."""
    mode, phase = view["mode"], view["phase"]
    board = table.board
    if table.revealing:  # the reveal lies on the board: Enter goes on
        press(Qt.Key.Key_Return)
        assert not table.revealing
        return
    tiers = "SABCD"
    if phase in ("note", "notes"):
        pool = [t.id for t in board.model.pool]
        if pool:
            draft = table.panel().draft
            used = set(draft.at.values())
            if mode == "competitive":
                counts = [sum(1 for t in draft.at.values() if t == k) for k in range(5)]
                tier = min(range(5), key=lambda k: (counts[k], k))
            else:
                tier = next(k for k in range(5) if k not in used)
            press(keys_now(table)[("tile", pool[0])])
            press(tiers[tier])
            return
        hints = [b for n, b in table.buttons.items() if n.startswith("hint") and b.isEnabled()]
        if hints and not table.buttons["submit"].isEnabled():
            tab_to(hints[0])
            press(Qt.Key.Key_Space)
        press("N")
    elif mode == "cooperative":
        pool = [t.id for t in board.model.pool]
        if pool:
            free = [t for t, p in enumerate(view["board"]) if p is None and
                    (view["hint"] or {}).get("tier") != t]
            press(keys_now(table)[("tile", pool[0])])
            press(tiers[free[0]])
        else:
            press("L")
    elif mode == "competitive":
        press("D")  # my one picture: its tier's letter puts it there
    elif phase == "take":
        movable = board.model.movable()
        press(keys_now(table)[("tile", movable[0].id)])
        press("S")
    elif phase == "wrong":
        press("W" if table.buttons["wrong"].isEnabled() else "Q")
    elif phase == "fix":
        tile = board.model.movable()[0]
        now = next(p["tier"] for p in view["pictures"] if p["id"] == tile.id)
        press(keys_now(table)[("tile", tile.id)])
        press(tiers[(now + 2) % 5])


def ranking_top(table: Any, view: dict[str, Any], seat: int, rng: random.Random) -> None:
    action = load("ranking-top").bot(view, seat, rng)
    assert action is not None
    kind = action["type"]
    keys = keys_now(table)
    if kind == "pass":
        press("P")
    elif kind == "top":
        if len(view.get("can_top") or []) == 1:
            press(Qt.Key.Key_Space)  # TOP!: my only card that can
        else:
            press(keys[("hand", action["card"])])
    else:
        press(keys[("hand", action["card"])])
        assert table.chooser.isVisible() and focus() in table.chooser.buttons
        press("1" if kind == "keep" or action["to"] == "top" else "2")


def ranagedon(table: Any, view: dict[str, Any], seat: int, rng: random.Random) -> None:
    """The bot's frog, angle and strength, set with the arrows (to the nearest degree
    and hundredth), Enter jumps; a cluster's digit and Enter deploy."""
    action = load("ranagedon").bot(view, seat, rng)
    assert action is not None
    kind = action["type"]
    if kind == "deploy":
        press(str(action["cluster"] + 1))
        press(Qt.Key.Key_Return)
        return
    if kind == "stop":
        press("S")
        return
    if (kind == "dive") != table.dive_mode:
        press("D")
    press(keys_now(table)[("frog", action["frog"])])
    aim = table.key_aim
    assert aim is not None and aim.frog == action["frog"] and table.aim is not None
    turn = math.degrees(math.remainder(float(action["theta"]) - aim.theta, 2 * math.pi))
    coarse, fine = divmod(round(abs(turn)), 5)
    arrow = Qt.Key.Key_Right if turn > 0 else Qt.Key.Key_Left
    for _ in range(coarse):
        press(arrow)
    for _ in range(fine):
        press(arrow, Qt.KeyboardModifier.ShiftModifier)
    steps = round((max(0.02, float(action["s"])) - aim.s) * 100)
    arrow = Qt.Key.Key_Up if steps > 0 else Qt.Key.Key_Down
    for _ in range(abs(steps)):
        press(arrow, Qt.KeyboardModifier.ShiftModifier)
    assert abs(math.remainder(aim.theta - float(action["theta"]), 2 * math.pi)) < 0.01
    press(Qt.Key.Key_Return)


PLAYERS = {"alles-klar": alles_klar, "ranking": ranking, "s-tier": s_tier,
           "ranking-top": ranking_top, "ranagedon": ranagedon}


async def chat_and_rules_give_the_focus_back(win: MainWindow) -> None:
    """Enter opens the chat, Esc closes it; F1's rules close with Esc: the table has
    the keys again each time."""
    press(Qt.Key.Key_Return)
    assert focus() is win.game.chat.line and win.game.panel.isVisible()
    QTest.keyClicks(focus(), "hi")
    press(Qt.Key.Key_Return)
    press(Qt.Key.Key_Escape)
    assert on_table(win) and not win.game.panel.isVisible()
    press(Qt.Key.Key_F1)
    rules = win.rules_dialog
    assert rules is not None and rules.isVisible()
    rules.activateWindow()  # a window manager's part: a new window takes the keys
    await until_focus(lambda: rules.isAncestorOf(QApplication.focusWidget()), 5)
    press(Qt.Key.Key_Escape)
    assert not rules.isVisible()
    win.activateWindow()  # the window manager's part (offscreen has none)
    await until_focus(lambda: on_table(win), 5)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("game", "mode", "options", "players"), [
    ("alles-klar", "standard", {"hand_size": 5}, 3),
    ("ranking", "standard", {}, 3),
    ("s-tier", "cooperative", {"coop_track": 3}, 3),
    ("s-tier", "competitive", {}, 4),
    ("s-tier", "team", {"team_track": 3}, 4),
    ("ranking-top", "standard", {}, 3),
    ("ranagedon", "standard", {}, 2),
])
def test_a_whole_game_by_keys_alone(aloop: Runner, tmp_path: Path, game: str,  # noqa: F811
                                    mode: str, options: dict[str, Any], players: int) -> None:
    async def scenario() -> None:
        win = window(tmp_path, unique("Kim"), "#E69F00")
        win.resize(1024, 640)
        try:
            await win.start()
            click(win.home.host)
            dialog = win.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game(game)
            dialog.mode.setCurrentIndex(dialog.mode.findData(mode))
            for key, value in options.items():
                dialog.set_option(key, value)
            click(dialog.host)
            await until(lambda: win.lobby is not None and len(win.lobby.seats) == 1, 15, win)
            for _ in range(players - 1):
                click(win.room.add_bot_button)
            await until(lambda: win.lobby is not None
                        and len(win.lobby.seats) == players, 15, win)
            click(win.room.ready_button)
            await until(lambda: win.lobby is not None and win.lobby.problem is None, 15, win)
            click(win.room.start_button)
            await until(lambda: win.stack.currentWidget() is win.game
                        and win.conn is not None and win.conn.peer.view is not None, 15, win)
            # From here on: keys only. The table has the focus as soon as it appears.
            win.activateWindow()  # a window manager's part: the Host dialog has gone
            await until_focus(lambda: on_table(win), 5)
            if game == "alles-klar":
                await chat_and_rules_give_the_focus_back(win)

            rng = random.Random(4)
            sent: list[dict[str, Any]] = []
            win.game.intent.connect(sent.append)
            table: Any = win.game.table
            player = PLAYERS[game]
            moves = silent = 0
            while not win.game.end.isVisible():
                await until(lambda: my_turn(win) or win.game.end.isVisible(), 30, win)
                if win.game.end.isVisible():
                    break
                conn = win.conn
                assert conn is not None and conn.peer.view is not None
                assert conn.peer.seat is not None
                if hasattr(table, "_finish_animation"):
                    table._finish_animation()
                else:
                    table.board.finish()
                assert on_table(win), f"the focus left the table: {focus()!r}"
                view, before, said = conn.peer.view, conn.peer.state_id, len(sent)
                player(table, view, conn.peer.seat, rng)
                moves += 1
                if len(sent) == said:  # keys that only build (a note, a reveal read)
                    silent += 1
                    assert silent < 12, f"keys in phase {view.get('phase')} send nothing"
                    await asyncio.sleep(0)  # a person's next key comes after Qt has drawn
                    await until(lambda c=conn, b=before: c.peer.state_id > b  # type: ignore[misc]
                                or my_turn(win) or win.game.end.isVisible(), 15, win)
                    continue
                silent = 0
                await until(lambda c=conn, b=before: c.peer.state_id > b  # type: ignore[misc]
                            or len(c.peer.rejections) > 0 or win.game.end.isVisible(),
                            15, win)
                conn.peer.rejections.clear()
            assert moves >= 3 and sent
            assert win.conn is not None and win.conn.host is not None
            result = win.conn.host.results[-1]
            assert win.game.end.scores == [f"{s:g}" for s in result.scores]
            # The end screen takes the keys: Enter plays again.
            await until_focus(lambda: win.game.end.isAncestorOf(QApplication.focusWidget()), 5)
            assert focus() is win.game.end.again_button
            assert not isinstance(focus(), PieceButton)
        finally:
            await close(win)

    aloop(scenario(), 110)


@pytest.mark.timeout(60)
def test_the_list_and_the_room_by_keys(aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    """Ben joins Ann's room from his list with Enter, says he is ready with Tab and
    Enter, and Enter (where no button takes it) takes him to the room's chat line; Esc
    there comes back to "I'm ready"."""
    async def scenario() -> None:
        ann = window(tmp_path, unique("Ann"), "#E69F00")
        ben = window(tmp_path, unique("Ben"), "#56B4E9")
        try:
            await ann.start()
            await ben.start()
            click(ann.home.host)
            dialog = ann.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("alles-klar")
            click(dialog.host)
            await until(lambda: ann.lobby is not None, 15, ann)
            assert ann.conn is not None and ann.conn.host is not None
            port = ann.conn.host.port

            def found() -> Any:
                return next((h for h in ben.home._found.values()
                             if h.host_name == ann.settings.name and h.port == port), None)
            await until(lambda: found() is not None, 20, ben)
            ben.activateWindow()
            await until_focus(lambda: ben.isActiveWindow() and focus() is not None, 5)
            tab_to(ben.home.hosts)
            item = ben.home.item_for(found().service)
            # The arrows pick the row, from the top: other lanplay hosts on this network
            # (another test's rooms) may list above or below it. (An unbounded "Down
            # until it is current" spun for ever once the row lay above the current one.)
            press(Qt.Key.Key_Home)
            for _ in range(ben.home.hosts.topLevelItemCount()):
                if ben.home.hosts.currentItem() is item:
                    break
                press(Qt.Key.Key_Down)
            assert ben.home.hosts.currentItem() is item, "the arrows never reached Ann's row"
            press(Qt.Key.Key_Return)
            await until(lambda: ben.lobby is not None and len(ben.lobby.seats) == 2, 15,
                        ann, ben)
            assert ben.stack.currentWidget() is ben.room
            tab_to(ben.room.ready_button)
            press(Qt.Key.Key_Return)
            await until(lambda: ben.lobby is not None and ben.lobby.seats[1].get("ready"),
                        15, ann, ben)
            tab_to(ben.room.chat.history)  # what was said: Enter there goes to the line
            press(Qt.Key.Key_Return)
            assert focus() is ben.room.chat.line
            press(Qt.Key.Key_Escape)
            assert focus() is ben.room.ready_button
        finally:
            await close(ben, ann)

    aloop(scenario(), 50)


def test_tab_goes_from_the_games_to_their_first_option(qtbot: Any) -> None:
    """In the Host dialog under Xvfb, in German at 1024x640, by keys alone: Tab from the
    list of games gave the focus to the options' scrolling area, which showed nothing of
    it, and Down then scrolled the options instead of choosing S-tier's mode."""
    dialog = HostDialog(None)
    qtbot.addWidget(dialog)
    dialog.resize(1000, 560)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.select_game("s-tier")
    qtbot.waitUntil(dialog.mode.isVisible)  # a field added to a shown form shows queued
    dialog.list.setFocus()
    QTest.keyClick(dialog.list, Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.mode
    before = dialog.mode.currentIndex()
    QTest.keyClick(dialog.mode, Qt.Key.Key_Down)
    assert dialog.mode.currentIndex() == before + 1  # the mode, by a key
    # then down the options, and to the buttons last
    seen = []
    for _ in range(12):
        widget = dialog.focusWidget()
        assert widget is not None
        QTest.keyClick(widget, Qt.Key.Key_Tab)
        seen.append(dialog.focusWidget())
        if seen[-1] is dialog.host:
            break
    assert seen[-1] is dialog.host, seen
    options = seen[:-2]  # what came before Cancel and Host
    assert options and all(dialog.scroller.isAncestorOf(w) for w in options), seen
