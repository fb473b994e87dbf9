"""The Ranagedon table: presses, pulls and releases become intents; views become a table.

Real widgets offscreen, real mouse events through the view's viewport, and
views from the real rules (a seeded Session played by the game's bot).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PyQt6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot
from ui_harness import settle

from lanplay.games.ranagedon import GAME
from lanplay.session import Session
from ui.tables import table_for
from ui.tables.ranagedon import RanagedonTable
from ui.tables.ranagedon.aim import strength
from ui.tools.demos.ranagedon import demo_scene, demo_seats, step

SEATS2 = demo_seats(2)


@pytest.fixture
def table(qtbot: QtBot) -> RanagedonTable:
    widget = RanagedonTable()
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _record(table: RanagedonTable) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    table.intent.connect(sent.append)
    return sent


def _session_at(phase: str, seed: int = 5, players: int = 2, limit: int = 600) -> Session:
    """A bot-played game stopped at the first view in ``phase``."""
    session = Session(GAME, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        view = session.view(None)
        if view["phase"] == phase or (phase == "over" and view["over"]):
            return session
        step(session, rng)
    raise AssertionError(f"no {phase} phase within {limit} moves")


def _viewport(table: RanagedonTable) -> Any:
    return table.graphics.viewport()


def _gesture(qtbot: QtBot, table: RanagedonTable, press: QPoint, release: QPoint) -> None:
    viewport = _viewport(table)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=press)
    middle = QPoint((press.x() + release.x()) // 2, (press.y() + release.y()) // 2)
    qtbot.mouseMove(viewport, pos=middle)
    qtbot.mouseMove(viewport, pos=release)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=release)


def _frog_point(table: RanagedonTable, fid: int, theta: float, r: float) -> QPoint:
    """A viewport point r mm from a frog's centre at model angle theta."""
    board = table.board
    assert board is not None
    frog = next(f for f in (table.view or {})["frogs"] if f["id"] == fid)
    scene = board.to_scene(frog["x"] + r * math.cos(theta), frog["y"] + r * math.sin(theta))
    return table.graphics.mapFromScene(scene)


def test_table_for_names_the_ranagedon_table() -> None:
    assert table_for("ranagedon") is RanagedonTable


@pytest.mark.parametrize("phase", ["deploy", "jump", "again", "over"])
@pytest.mark.parametrize("spectator", [False, True])
def test_every_phase_renders_for_a_player_and_a_spectator(table: RanagedonTable, phase: str,
                                                          spectator: bool) -> None:
    session = _session_at(phase)
    public = session.view(None)
    seat = None if spectator else (min(public["actors"]) if public["actors"] else 0)
    table.set_view(session.view(seat), SEATS2, seat, animate=False)
    assert len(table.frogs) == 18
    assert len(table.plates) == 2
    assert table.legend is not None and table.legend.texts()
    text = table.banner.text
    if phase == "over":
        assert text.startswith("Game over")
    elif spectator:
        assert "Waiting for" in text or "Everyone deploys" in text
        assert table.aimable() == []
        assert table.hint.text() == "You are watching."
        assert not table.confirm_button.isVisible() and not table.stop_button.isVisible()
    elif phase == "deploy":
        assert text.startswith("Deploy your frogs")
        assert table.confirm_button.isVisible() and len(table.cluster_buttons) == 3
    elif phase == "again":
        assert table.stop_button.isVisible() and table.again_button.isVisible()
        assert table.aimable() == [public["again"]["frog"]]
    else:
        assert text.startswith("Your turn")
        mine = {f["id"] for f in public["frogs"]
                if f["side"] == public["side_of"][seat] and f["free"]}
        assert set(table.aimable()) == mine
        assert all(table.frogs[f].lit for f in mine)


def test_the_legend_names_the_printed_two_player_abilities(table: RanagedonTable) -> None:
    session = _session_at("jump")
    table.set_view(session.view(0), SEATS2, 0, animate=False)
    assert table.legend is not None
    assert table.legend.texts() == ["Magenta border: double jump",
                                    "Blue border: diving (slides first)",
                                    "Yellow border: poisonous"]


def _my_turn(table: RanagedonTable) -> tuple[Session, int, dict[str, Any]]:
    session = _session_at("jump")
    seat = session.view(None)["turn"]
    table.set_view(session.view(seat), SEATS2, seat, animate=False)
    view = session.view(seat)
    frog = next(f for f in view["frogs"] if f["side"] == view["your_side"] and f["free"]
                and f["ability"] != "dive")
    return session, seat, frog


@pytest.mark.parametrize(("theta", "pull_px"), [(0.4, 60), (2.5, 140), (-1.9, 25)])
def test_press_on_the_ring_and_pull_sends_a_jump(qtbot: QtBot, table: RanagedonTable,
                                                 theta: float, pull_px: int) -> None:
    session, seat, frog = _my_turn(table)
    sent = _record(table)
    press = _frog_point(table, frog["id"], theta, 13.5)
    screen = table.board.angle_to_scene(theta) if table.board else theta
    release = QPoint(press.x() + round(pull_px * math.cos(screen)),
                     press.y() + round(pull_px * math.sin(screen)))
    _gesture(qtbot, table, press, release)
    assert len(sent) == 1
    action = sent[0]
    assert action["type"] == "jump" and action["frog"] == frog["id"]
    assert abs(math.remainder(action["theta"] - theta, 2 * math.pi)) < 0.12
    assert 11 <= action["r"] <= 16
    drag = math.dist((press.x(), press.y()), (release.x(), release.y()))
    assert table.board is not None
    assert action["s"] == pytest.approx(strength(drag, table.board), abs=0.01)
    assert 0 < action["s"] <= 1
    GAME.check(session.state, seat, action)


def test_a_longer_pull_is_a_stronger_jump(qtbot: QtBot, table: RanagedonTable) -> None:
    _, _, frog = _my_turn(table)
    sent = _record(table)
    strengths = []
    for s in (0.2, 0.9):
        press, release = table.aim_points(frog["id"], 1.0, s)
        _gesture(qtbot, table, press, release)
        strengths.append(sent[-1]["s"])
        table._clear_pending()
    assert strengths[0] == pytest.approx(0.2, abs=0.03)
    assert strengths[1] == pytest.approx(0.9, abs=0.03)


def test_the_aim_shows_press_point_arrow_power_and_where_it_lands(
        qtbot: QtBot, table: RanagedonTable) -> None:
    """First jumps went backwards off the table: while aiming, before letting go, the
    table shows the jump's direction and about where it lands (without the scatter)."""
    from lanplay.games.ranagedon.model import reach

    _, _, frog = _my_turn(table)
    press, release = table.aim_points(frog["id"], 0.0, 0.5)
    viewport = _viewport(table)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=press)
    qtbot.mouseMove(viewport, pos=release)
    assert table.aim is not None and table.aim_item is not None
    picture = table.aim_item.picture
    assert picture is not None and picture.armed
    assert picture.s == pytest.approx(0.5, abs=0.03)
    # The arrow points away from the pressed point (theta 0 pressed: it leaves towards pi).
    assert table.board is not None
    expected = table.board.angle_to_scene(0.0) + math.pi
    assert abs(math.remainder(picture.angle - expected, 2 * math.pi)) < 0.05
    assert picture.landing is not None
    far = table.board.mm(reach(picture.s))
    assert math.hypot(picture.landing.x() - picture.centre.x(),
                      picture.landing.y() - picture.centre.y()) == pytest.approx(far, rel=0.01)
    heading = math.atan2(picture.landing.y() - picture.centre.y(),
                         picture.landing.x() - picture.centre.x())
    assert abs(math.remainder(heading - expected, 2 * math.pi)) < 0.05
    assert "dashed ring" in table.controls.hint.text()
    qtbot.keyClick(table, Qt.Key.Key_Escape)
    assert table.aim is None


def test_pressing_the_centre_or_another_frog_sends_nothing(qtbot: QtBot,
                                                           table: RanagedonTable) -> None:
    _, _, frog = _my_turn(table)
    sent = _record(table)
    centre = _frog_point(table, frog["id"], 0.0, 2.0)
    _gesture(qtbot, table, centre, QPoint(centre.x() + 80, centre.y()))
    assert sent == [] and table.toast.isVisible()
    assert "border" in table.toast.text()
    view = table.view or {}
    other = next(f for f in view["frogs"] if f["side"] != view["your_side"])
    press = _frog_point(table, other["id"], 1.0, 13.5)
    _gesture(qtbot, table, press, QPoint(press.x() + 80, press.y() + 30))
    assert sent == []
    assert "not yours" in table.toast.text()


def test_a_release_without_a_pull_cancels(qtbot: QtBot, table: RanagedonTable) -> None:
    _, _, frog = _my_turn(table)
    sent = _record(table)
    press = _frog_point(table, frog["id"], 0.5, 13.5)
    _gesture(qtbot, table, press, QPoint(press.x() + 2, press.y()))
    assert sent == [] and table.aim is None


def test_a_diver_slides_when_dive_is_on(qtbot: QtBot, table: RanagedonTable) -> None:
    session = _session_at("jump")
    seat = session.view(None)["turn"]
    view = session.view(seat)
    table.set_view(view, SEATS2, seat, animate=False)
    divers = [f for f in view["frogs"] if f["side"] == view["your_side"] and f["free"]
              and f["ability"] == "dive"]
    assert divers and table.dive_button.isVisible()
    sent = _record(table)
    qtbot.mouseClick(table.dive_button, Qt.MouseButton.LeftButton)
    assert table.dive_mode and "Dive" in table.banner.text
    diver = divers[0]["id"]
    press, release = table.aim_points(diver, 2.0, 0.6, r=4.0)
    _gesture(qtbot, table, press, release)
    assert len(sent) == 1 and sent[0]["type"] == "dive" and sent[0]["frog"] == diver
    assert abs(math.remainder(sent[0]["theta"] - 2.0, 2 * math.pi)) < 0.05
    GAME.check(session.state, seat, sent[0])


def test_deploy_sends_the_chosen_cluster(qtbot: QtBot, table: RanagedonTable) -> None:
    session = Session(GAME, 2, seed=3)
    table.set_view(session.view(0), SEATS2, 0, animate=False)
    sent = _record(table)
    qtbot.mouseClick(table.cluster_buttons[1], Qt.MouseButton.LeftButton)
    assert table.cluster == 1 and table.cluster_buttons[1].isChecked()
    qtbot.mouseClick(table.confirm_button, Qt.MouseButton.LeftButton)
    assert sent == [{"type": "deploy", "cluster": 1}]
    GAME.check(session.state, 0, sent[0])


def test_a_dragged_frog_is_deployed_where_it_was_dropped(qtbot: QtBot,
                                                         table: RanagedonTable) -> None:
    session = Session(GAME, 2, seed=3)
    table.set_view(session.view(0), SEATS2, 0, animate=False)
    assert table.placement is not None and table.board is not None
    mine = table._my_frog_ids()
    x, y = table.placement[-1]
    start = table.graphics.mapFromScene(table.board.to_scene(x, y))
    end = table.graphics.mapFromScene(table.board.to_scene(x + 12, y + 10))
    _gesture(qtbot, table, start, end)
    assert table.cluster is None
    moved = table.placement[-1]
    assert math.dist(moved, (x + 12, y + 10)) < 2.0
    sent = _record(table)
    qtbot.mouseClick(table.confirm_button, Qt.MouseButton.LeftButton)
    assert len(sent) == 1 and len(sent[0]["frogs"]) == len(mine)
    GAME.check(session.state, 0, sent[0])


def test_a_frog_dropped_far_from_the_others_snaps_back(qtbot: QtBot,
                                                       table: RanagedonTable) -> None:
    session = Session(GAME, 2, seed=3)
    table.set_view(session.view(0), SEATS2, 0, animate=False)
    assert table.placement is not None and table.board is not None
    before = list(table.placement)
    x, y = before[0]
    start = table.graphics.mapFromScene(table.board.to_scene(x, y))
    end = table.graphics.mapFromScene(table.board.to_scene(400, 60))
    _gesture(qtbot, table, start, end)
    assert table.placement == before
    assert table.toast.isVisible()


def test_again_offers_stop(qtbot: QtBot, table: RanagedonTable) -> None:
    session = _session_at("again")
    seat = session.view(None)["turn"]
    table.set_view(session.view(seat), SEATS2, seat, animate=False)
    sent = _record(table)
    assert "again" in table.banner.text.lower() or "slid clear" in table.banner.text
    qtbot.mouseClick(table.stop_button, Qt.MouseButton.LeftButton)
    assert sent == [{"type": "stop"}]
    GAME.check(session.state, seat, sent[0])


def test_a_spectator_has_no_actions(qtbot: QtBot, table: RanagedonTable) -> None:
    session = _session_at("jump")
    table.set_view(session.view(None), SEATS2, None, animate=False)
    sent = _record(table)
    turn = session.view(None)["turn"]
    side = session.view(None)["side_of"][turn]
    frog = next(f for f in session.view(None)["frogs"] if f["side"] == side and f["free"])
    press = _frog_point(table, frog["id"], 0.3, 13.5)
    _gesture(qtbot, table, press, QPoint(press.x() + 90, press.y()))
    assert sent == [] and table.aim is None
    assert not any(item.lit for item in table.frogs.values())


def test_a_jump_flies_then_snaps_and_a_resync_jumps(qtbot: QtBot,
                                                    table: RanagedonTable) -> None:
    _, before, after = demo_scene(2, "landing")
    table.set_view(before[None], SEATS2, None, animate=False)
    table.set_view(after[None], SEATS2, None, animate=True)
    assert table.animating
    last = after[None]["last"]
    item = table.frogs[last["frog"]]
    assert table._anim is not None
    table._anim.pause()
    table._anim.setCurrentTime(table._anim.totalDuration() // 2)
    assert item.lift > 0.5
    table._anim.resume()
    qtbot.waitUntil(lambda: not table.animating, timeout=3000)
    assert table.board is not None
    final = next(p for p in last["positions"] if p["id"] == last["frog"])
    assert item.pos() == table.board.to_scene(final["x"], final["y"])
    table.set_view(before[None], SEATS2, None, animate=False)
    table.set_view(after[None], SEATS2, None, animate=False)
    assert not table.animating
    assert table.frogs[last["frog"]].pos() == table.board.to_scene(final["x"], final["y"])


def test_the_table_flies_the_hosts_arc_from_its_parameters() -> None:
    """The view sends the arc's parameters (hundredths of a mm); the points the table
    flies through are the host's model's, within 0.02 mm, however the jump ended."""
    from lanplay.games.ranagedon import model
    from ui.tables.ranagedon.flight import ARC_SAMPLES, arc_points

    assert model.ARC_POINTS == ARC_SAMPLES
    frogs = GAME.setup(2, "standard", {}, 1).frogs
    me = frogs[0]
    flips = model.jump(frogs, 0, 0.3, 0.8, model.Draws(0.0, 0.5, 0.5, 0.5))
    far = model.jump(frogs, 0, 0.3, 0.9, model.CALM)
    for done in (flips, far):
        arc = model.arc_view(done.arc, model.FLIP_POINTS if done.outcome == "flipped"
                             else model.ARC_POINTS)
        points = arc_points([me.x, me.y], arc)
        if done.outcome == "flipped":  # the same hop, sampled as the table likes
            hop = [model.FLIP_HOP * math.sin(math.pi * i / (ARC_SAMPLES - 1))
                   for i in range(ARC_SAMPLES)]
            assert [p[2] for p in points] == pytest.approx(hop, abs=0.02)
            assert {(p[0], p[1]) for p in points} == {(me.x, me.y)}
            continue
        assert len(points) == len(done.arc)
        assert max(abs(a - b) for p, q in zip(points, done.arc, strict=True)
                   for a, b in zip(p, q, strict=True)) <= 0.02
    assert flips.outcome == "flipped" and far.outcome != "flipped"


def test_show_rejection_shows_the_reason_and_unlocks(qtbot: QtBot,
                                                     table: RanagedonTable) -> None:
    _, _, frog = _my_turn(table)
    sent = _record(table)
    press, release = table.aim_points(frog["id"], 0.7, 0.4)
    _gesture(qtbot, table, press, release)
    assert len(sent) == 1 and table.aimable() == []
    table.show_rejection("Press on the coloured border.")
    assert table.toast.isVisible() and table.toast.text() == "Press on the coloured border."
    assert frog["id"] in table.aimable()


def test_the_log_uses_names(table: RanagedonTable) -> None:
    session = _session_at("jump")
    table.set_view(session.view(None), SEATS2, None, animate=False)
    lines = table.log_panel.lines()
    assert any("Mia" in line for line in lines) and not any("{0}" in line for line in lines)


def _bot_through_table(qtbot: QtBot, table: RanagedonTable, session: Session, seat: int,
                       rng: random.Random) -> dict[str, Any]:
    """Seat's move made by mouse: the bot picks (frog, theta, s); the table's own aiming
    geometry turns it into a press and a release; the intent is what the table sends."""
    view = session.view(seat)
    choice = GAME.bot(view, seat, rng)
    assert choice is not None
    sent = _record(table)
    if choice["type"] == "deploy":
        qtbot.mouseClick(table.cluster_buttons[choice["cluster"]], Qt.MouseButton.LeftButton)
        qtbot.mouseClick(table.confirm_button, Qt.MouseButton.LeftButton)
    elif choice["type"] == "stop":
        qtbot.mouseClick(table.stop_button, Qt.MouseButton.LeftButton)
    else:
        if (choice["type"] == "dive") != table.dive_mode:
            qtbot.mouseClick(table.dive_button, Qt.MouseButton.LeftButton)
        s = max(0.02, float(choice["s"]))
        press, release = table.aim_points(choice["frog"], float(choice["theta"]), s)
        _gesture(qtbot, table, press, release)
    table.intent.disconnect()
    assert len(sent) == 1, f"the table sent {sent} for {choice}"
    action = sent[0]
    assert action["type"] == choice["type"]
    if action["type"] in ("jump", "dive"):
        assert action["frog"] == choice["frog"]
        assert abs(math.remainder(action["theta"] - choice["theta"], 2 * math.pi)) < 0.12
        assert action["s"] == pytest.approx(s, abs=0.03)
    return action


def test_a_whole_two_player_game_through_the_table(qtbot: QtBot,
                                                   table: RanagedonTable) -> None:
    session = Session(GAME, 2, seed=11)
    rng = random.Random(11)
    seats = demo_seats(2, bots=1)
    me = 0
    moves = 0
    mine: list[str] = []
    table.set_view(session.view(me), seats, me, animate=False)
    while session.result is None:
        moves += 1
        assert moves < 400, "the game should end"
        actors = session.actors()
        if me in actors:
            action = _bot_through_table(qtbot, table, session, me, rng)
            session.submit(me, action)
            mine.append(action["type"])
        else:
            step(session, rng, seat=min(actors))
        table.set_view(session.view(me), seats, me, animate=True)
    assert mine[0] == "deploy" and mine.count("jump") >= 3
    assert table.banner.text.startswith("Game over")
    assert table.aimable() == [] and not table.confirm_button.isVisible()
    assert len(table.frogs) == 18
    view = session.view(me)
    board = table.board
    assert board is not None
    table._finish_animation()
    for frog in view["frogs"]:
        assert table.frogs[frog["id"]].pos() == board.to_scene(frog["x"], frog["y"])


def test_the_dive_toggle_never_stands_where_stop_stood(qtbot: QtBot) -> None:
    """The Dive toggle sat where the double jump's Stop appears: a Stop clicked as the
    view changed switched Dive on. It stands at the foot of the panel now."""
    from PyQt6.QtWidgets import QWidget

    from ui.tables.ranagedon.actions import ActionPanel

    host = QWidget()
    qtbot.addWidget(host)
    panel = ActionPanel(host)
    host.resize(400, 500)
    host.show()
    panel.offer(16.0, "The lit frog may jump once more: aim it, or Stop.", [], None,
                [panel.again_button, panel.stop_button], False)
    panel.place(QPoint(0, 0), 300, 400)
    stop = panel.stop_button.geometry()
    panel.offer(16.0, "Press on the coloured border of a lit frog and pull.", [], None,
                [panel.dive_button], False)
    panel.place(QPoint(0, 0), 300, 400)
    assert not panel.dive_button.geometry().intersects(stop)
    assert panel.dive_button.geometry().bottom() >= panel.height() - 10  # at the foot


@contextmanager
def small_table(qtbot: QtBot, lang: str, height: int = 522) -> Iterator[RanagedonTable]:
    """The table of a 1024x640 screen's window (1000x522, the log open; under X 8 px
    less) in ``lang``, at the fit check's text size."""
    from PyQt6.QtWidgets import QApplication

    from lanplay import locale

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)  # the window's text in the fit check's screenshots
    app.setFont(bigger)
    locale.set_language(lang)
    try:
        widget = RanagedonTable()
        qtbot.addWidget(widget)
        widget.resize(1000, height)
        widget.show()
        qtbot.waitExposed(widget)
        yield widget
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en
        app.setFont(was)


def _whole(table: RanagedonTable, buttons: list[Any]) -> None:
    """Every button has its width and at least its line of text, inside the panel and
    clear of the others and of the hint; the hint has the height its words need."""
    assert table.log_panel.isVisible()
    assert all(b.isVisible() for b in buttons)
    panel = table.controls.rect()
    hint = table.hint
    for button in buttons:
        box = button.geometry()
        assert box.height() >= button.fontMetrics().height() + 4, button.text()
        assert box.width() >= button.sizeHint().width(), button.text()
        assert panel.contains(box), button.text()
        assert not box.intersects(hint.geometry()), button.text()
        for other in buttons:
            assert other is button or not box.intersects(other.geometry())
    assert hint.isVisible() and hint.text()
    assert hint.heightForWidth(hint.width()) <= hint.height() + 1, hint.text()


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_deploy_buttons_and_hint_are_whole_on_a_small_window(qtbot: QtBot, lang: str,
                                                                  players: int) -> None:
    """A 1024x640 screen's window in German: the three clusters' buttons stood squashed
    to 15-19 px under a hint cut after its third line. Every button now has at least its
    line of text and its width, and the hint (or its shorter wording) fits above them."""
    _, before, at = demo_scene(players, "deploy")
    seat = min(at[None]["actors"])
    seats = demo_seats(players, players - 1)
    with small_table(qtbot, lang) as table:
        table.set_view(before[seat], seats, seat, animate=False)
        table.set_view(at[seat], seats, seat, animate=False)
        settle()  # the events a window runs before anyone reads it
        assert len(table.cluster_buttons) == 3
        _whole(table, [*table.cluster_buttons, table.confirm_button])


def test_the_aiming_hint_fits_above_dive_in_a_window_under_x(qtbot: QtBot) -> None:
    """Under X the table has 8 px less: German's aiming hint needed 144 px where 138
    were left above "Dive"; it then says it in fewer words."""
    _, before, at = demo_scene(2, "mid")
    seat = at[None]["turn"]
    with small_table(qtbot, "de", height=514) as table:
        table.set_view(before[seat], demo_seats(2, 1), seat, animate=False)
        table.set_view(at[seat], demo_seats(2, 1), seat, animate=False)
        settle()
        _whole(table, [table.dive_button])
