"""``lanplay screenshots DIR``: the window's screens rendered offscreen to PNG.

Nothing is faked where it can be real: the hosts in the Home list are real
zeroconf announcements on the loopback interface (one a real host with a bot
in it), the room is a real in-process host with bots and a second player, and
the table is a real game, played by this window's own seat through the
table's intent signal while bots play the others. The "host gone" screen is
a real host closing its room.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

LOOPBACK = ["127.0.0.1"]
DEFAULT_SIZE = (1280, 800)
WIDE = (1920, 1080)
"""The second size some screens are also shown at (with the default size only)."""
SIZES: tuple[tuple[int, int], ...] = (DEFAULT_SIZE, WIDE)


def parse_size(text: str) -> tuple[int, int]:
    """"1280x800" -> (1280, 800); ValueError with a reason otherwise."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"a size is WIDTHxHEIGHT, like 1280x800, not {text!r}")
    size = (int(width), int(height))
    if not (320 <= size[0] <= 8000 and 240 <= size[1] <= 8000):
        raise ValueError(f"{text} is not a window size lanplay can draw")
    return size


def render(out: Path, size: tuple[int, int] = DEFAULT_SIZE) -> int:
    """Write the PNGs and ``fit.json`` into ``out``; print each path. Returns a
    process exit code (0 even when fit.json lists problems: it is a report)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")  # offscreen chatter
    import qasync
    from PyQt6.QtWidgets import QApplication

    from ui import pictures
    from ui.fit import FitCheck

    global SIZES
    SIZES = (size, WIDE) if size == DEFAULT_SIZE else (size,)
    app = QApplication.instance() or QApplication(["lanplay"])
    assert isinstance(app, QApplication)
    pictures.set_synchronous(True)  # grabs follow shows at once; nothing to wait for
    from ui.fonts import ensure_fonts

    ensure_fonts(app)
    app.setQuitOnLastWindowClosed(False)
    out.mkdir(parents=True, exist_ok=True)
    with FitCheck(size) as fit:
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        try:
            written = loop.run_until_complete(asyncio.wait_for(_render_all(out), 180))
        finally:
            loop.close()
            asyncio.set_event_loop(None)
        written += _game_tables(out)
        fit.write(out / "fit.json")
    for path in written:
        print(path)
    print(f"{out / 'fit.json'}: {fit.problems} texts that do not fit, on "
          f"{sum(1 for f in fit.screens.values() if f)} of {len(fit.screens)} screens")
    return 0


def _check(name: str, widget: Any) -> None:
    """Add the screen to the run's fit check."""
    from ui.fit import current

    fit = current()
    if fit is not None:
        fit.screen(name, widget)


def _game_tables(out: Path) -> list[Path]:
    """Ranking and S-tier tables at real moments of seeded games played by their
    rules' bots (the same views a peer would be sent), from an acting seat."""
    from ui.tables.ranagedon import demo as ranagedon_demo
    from ui.tables.ranking import demo as ranking_demo
    from ui.tables.ranking_top import demo as ranking_top_demo
    from ui.tables.s_tier import demo as s_tier_demo

    written: list[Path] = []
    before, at = ranking_demo.real_views(4)["roof"]  # a stone on the roof points down
    seat = at[None]["actors"][0]
    path = out / "ranking.png"
    ranking_demo.render_table(path, before[seat], at[seat], ranking_demo.demo_seats(4, 3),
                              seat, SIZES[0])
    written.append(path)
    for moment, name in (("coop-guess", "s-tier-cooperative.png"),
                         ("comp-place", "s-tier-competitive.png"),
                         ("team-take", "s-tier-team.png")):
        _mode, players, build = s_tier_demo.MOMENTS[moment]
        game = build()
        you = s_tier_demo.viewers(game.views()[None], players)[0]
        path = out / name
        s_tier_demo.render_view(path, game.trail(you), s_tier_demo.demo_seats(players), you,
                                SIZES[0])
        written.append(path)
    before, at = ranking_top_demo.real_views(4)["window"]
    seat = at[None]["actors"][0]
    path = out / "ranking-top.png"
    ranking_top_demo.render_table(path, before[seat], at[seat],
                                  ranking_top_demo.demo_seats(4, 3), seat, SIZES[0])
    written.append(path)
    _, before, at = ranagedon_demo.demo_scene(2, "mid")
    seat = at[None]["turn"]
    aim = ranagedon_demo._aim_for(at[seat])
    path = out / "ranagedon.png"
    ranagedon_demo.render_table(path, before[seat], at[seat], ranagedon_demo.demo_seats(2, 1),
                                seat, SIZES[0], aim=aim)
    written.append(path)
    return written


async def _settle(seconds: float = 0.15) -> None:
    """Let layouts, paints and short animations run before a grab."""
    await asyncio.sleep(seconds)


class _Camera:
    """Grabs widgets into ``out``, alone or as a dialog over its dimmed window."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.written: list[Path] = []

    def shot(self, widget: Any, name: str) -> None:
        path = self.out / name
        widget.grab().save(str(path))
        _check(path.stem, widget)
        self.written.append(path)

    def dialog(self, window: Any, dialog: Any, name: str) -> None:
        from PyQt6.QtGui import QColor, QPainter

        shot = window.grab()
        painter = QPainter(shot)
        painter.fillRect(shot.rect(), QColor(0, 0, 0, 110))
        front = dialog.grab()
        painter.drawPixmap((shot.width() - front.width()) // 2,
                           (shot.height() - front.height()) // 2, front)
        painter.end()
        path = self.out / name
        shot.save(str(path))
        _check(path.stem, dialog)
        self.written.append(path)


async def _wide(window: Any, camera: _Camera, name: str, settle: float = 0.15) -> None:
    """The screen again at 1920x1080 (with the default size only), then back."""
    if len(SIZES) < 2:
        return
    window.resize(*SIZES[1])
    await _settle(settle)
    camera.shot(window, f"{name}-{SIZES[1][0]}x{SIZES[1][1]}.png")
    window.resize(*SIZES[0])


async def _render_all(out: Path) -> list[Path]:
    from lanplay.bots import drive
    from lanplay.discovery import Announcement, Announcer
    from lanplay.host import Host, HostConfig
    from lanplay.peer import Peer
    from protocol.messages import PROTOCOL_VERSION
    from ui.connection import NetConfig
    from ui.settings import Settings
    from ui.window import MainWindow

    camera = _Camera(out)
    data = tempfile.TemporaryDirectory(prefix="lanplay-shots-")  # the replay's audit goes here
    net = NetConfig(interfaces=LOOPBACK, bind="127.0.0.1", port=0, bot_delay=0.0, seed=7,
                    save=False, pace=0.0, data_dir=data.name)
    other = Host("alles-klar", config=HostConfig(
        host_name="Ben's laptop", bind="127.0.0.1", port=0, announce=True,
        interfaces=LOOPBACK, seed=3, save=False))
    extra = [
        Announcer(Announcement("Lea", "alles-klar", 7599, 3, 5, "playing", password=True),
                  LOOPBACK),
        Announcer(Announcement("Old laptop", "alles-klar", 7598, 1, 5, "lobby",
                               version=PROTOCOL_VERSION + 1), LOOPBACK),
    ]
    window = MainWindow(Settings(name="Mia", colour="#E69F00"), net)
    window.resize(*SIZES[0])
    window.show()
    guest = Peer("Jonas", "#009E73", contribution_seed=5)
    guest_task: asyncio.Task[None] | None = None
    try:
        await _home_quiet(camera, net)
        await window.start()
        await other.start()
        other.add_bot()
        for announcer in extra:
            await announcer.start()
        await _home(window, camera)
        port = await _room(window, camera)
        await guest.connect("127.0.0.1", port)
        guest_task = asyncio.get_running_loop().create_task(drive(guest, seed=5))
        await _room_full(window, camera, guest)
        await _table(window, camera)
        await _replay(window, camera)
        await _gone(window, camera, other)
    finally:
        if guest_task is not None:
            await guest.close("done")
            guest_task.cancel()
            await asyncio.gather(guest_task, return_exceptions=True)
        await window.shutdown()
        window.close()
        await other.stop()
        for announcer in extra:
            await announcer.stop()
        data.cleanup()
    return camera.written


async def _home_quiet(camera: _Camera, net: Any) -> None:
    """Home when discovery has found nothing for a while (a network that hides rooms)."""
    from ui.settings import Settings
    from ui.window import MainWindow

    window = MainWindow(Settings(name="Mia", colour="#E69F00"), net)
    window.resize(*SIZES[0])
    window.show()
    try:
        window.home._still_quiet()
        await _settle()
        camera.shot(window, "home-nothing-found.png")
    finally:
        await window.shutdown()
        window.close()
        window.deleteLater()


async def _home(window: Any, camera: _Camera) -> None:
    from ui.host_dialog import HostDialog
    from ui.join_dialog import JoinAddressDialog

    names = {"Ben's laptop", "Lea", "Old laptop"}
    found = window.home._found.values
    await window.wait_until(lambda: {h.host_name for h in found()} >= names
                            and any(h.seats_taken == 1 for h in found()), 20)
    first = window.home.hosts.topLevelItem(0)
    if first is not None:
        window.home.hosts.setCurrentItem(first)
    await _settle()
    camera.shot(window, "home.png")
    await _wide(window, camera, "home")

    window.ask_identity(first=True)
    await _settle()
    camera.dialog(window, window.dialog, "first-run.png")
    window.dialog.reject()

    window.open_join_dialog()
    dialog = window.dialog
    assert isinstance(dialog, JoinAddressDialog)
    dialog.address.setText("192.168.1.20:77777")
    dialog.ok.click()
    await _settle()
    camera.dialog(window, dialog, "join-by-address.png")
    dialog.reject()

    window.open_host_dialog()
    dialog = window.dialog
    assert isinstance(dialog, HostDialog)
    await _settle()
    camera.dialog(window, dialog, "host-dialog.png")


async def _room(window: Any, camera: _Camera) -> int:
    window.dialog.select_game("alles-klar")
    window.dialog.host.click()
    await window.wait_until(lambda: window.lobby is not None, 15)
    await _settle()
    camera.shot(window, "room-first-host.png")  # the firewall notice of a first room
    window._still_alone()  # as if a minute had passed with nobody joining
    await _settle()
    camera.shot(window, "room-nobody-joined.png")
    window.room.notice.clear()
    await _settle()
    camera.shot(window, "room-alone.png")
    for _ in range(2):
        window.room.add_bot_button.click()
    conn = window.conn
    assert conn is not None and conn.host is not None
    port: int = conn.host.port
    return port


async def _room_full(window: Any, camera: _Camera, guest: Any) -> None:
    await window.wait_until(lambda: window.lobby is not None and
                            len(window.lobby.seats) == 4, 15)
    guest.say("Hi all! Bots, go easy on us.")
    history = window.room.chat.history
    await window.wait_until(lambda: "go easy" in history.toPlainText(), 5)
    window.room.chat.line.setText("Ready when you are.")
    window.room.chat.line.returnPressed.emit()
    await window.wait_until(lambda: "when you are" in history.toPlainText(), 5)
    await _settle()
    camera.shot(window, "room.png")
    await _wide(window, camera, "room")


async def _table(window: Any, camera: _Camera) -> None:
    from lanplay.games import load
    from ui.rules_help import RulesDialog

    window.room.ready_button.click()
    await window.wait_until(lambda: window.lobby is not None and
                            window.lobby.problem is None, 15)
    window.room.start_button.click()
    conn = window.conn
    await window.wait_until(lambda: conn.peer.view is not None, 15)
    game = load("alles-klar")
    rng = random.Random(11)
    table: Any = window.game.table

    async def play_until(stop: Callable[[dict[str, Any], int], bool]) -> None:
        plays = 0
        while True:
            await window.wait_until(lambda: conn.peer.view is not None and (
                conn.peer.view.get("turn") == conn.peer.seat
                or bool(conn.peer.view.get("over"))), 30)
            view = conn.peer.view
            if view.get("over") or stop(view, plays):
                return
            action = game.bot(view, conn.peer.seat or 0, rng)
            assert action is not None
            before, refused = conn.peer.state_id, len(conn.peer.rejections)
            table.intent.emit(action)
            plays += 1
            await window.wait_until(lambda b=before, r=refused: conn.peer.state_id > b
                                    or len(conn.peer.rejections) > r, 10)

    def mid_game(view: dict[str, Any], plays: int) -> bool:
        return plays >= 10 and sum(1 for row in view["table"] for c in row if c["up"]) >= 3

    await play_until(mid_game)
    for _ in range(100):  # a play animates for about 0.3 s
        if not getattr(table, "animating", False):
            break
        await _settle(0.05)
    await _settle(0.5)
    camera.shot(window, "table.png")
    await _wide(window, camera, "table", 0.5)
    await _settle(0.3)

    window.show_rules()
    rules = window.rules_dialog
    assert isinstance(rules, RulesDialog)
    await _settle()
    camera.dialog(window, rules, "rules.png")
    rules.close()

    # A lost connection: the grab happens the moment the window shows it.
    grabbed: list[bool] = []

    def grab_reconnecting() -> None:
        camera.shot(window, "reconnecting.png")
        grabbed.append(True)

    conn.bridge.reconnecting.connect(grab_reconnecting)
    conn.peer.drop()
    session = conn.host.session
    await window.wait_until(lambda: bool(grabbed) and not window.banner.isVisible()
                            and conn.peer.state_id == session.state_id, 15)
    conn.bridge.reconnecting.disconnect(grab_reconnecting)

    await play_until(lambda view, plays: False)
    await window.wait_until(lambda: window.game.end.isVisible()
                            and window.game.end.replay_button.isVisible(), 30)  # audit in
    await _settle(1.5)  # the last trick flies to its winner first
    camera.shot(window, "game-over.png")


async def _replay(window: Any, camera: _Camera) -> None:
    """The game just played, replayed from the end screen: from the window's seat in the
    middle of the game, then with everything open; then Help -> Replays."""
    window.game.end.replay_button.click()
    replay = window.replay_windows[-1]
    replay.resize(*SIZES[0])
    replay.go(replay.replay.moves // 2, animate=False)
    await _settle(0.4)
    camera.shot(replay, "replay.png")
    replay.set_open(True)
    await _settle(0.2)
    camera.shot(replay, "replay-open.png")
    replay.close()
    await window.wait_until(lambda: window.last_game.path is not None, 10)
    window.replays_action.trigger()
    await _settle()
    camera.dialog(window, window.dialog, "replays.png")
    window.dialog.reject()


async def _gone(window: Any, camera: _Camera, other: Any) -> None:
    window.leave()
    await window.wait_until(lambda: window.conn is None
                            and window.stack.currentWidget() is window.home, 15)
    target = next(h for h in window.home._found.values() if h.host_name == "Ben's laptop")
    window.home.join_requested.emit(target)
    await window.wait_until(lambda: window.lobby is not None, 15)
    await other.stop("Ben closed the room.")
    await window.wait_until(lambda: window.stack.currentWidget() is window.gone, 15)
    await _settle()
    camera.shot(window, "host-gone.png")


__all__ = ["render"]
