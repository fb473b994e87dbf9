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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ui.tools.fit import FitCheck

LOOPBACK = ["127.0.0.1"]


def taught() -> list[str]:
    """Every tour, seen: the screens show the tables as a player who knows them sees
    them (the first-turn walkthrough has screens of its own, ``*-teach``)."""
    from ui.tables.teach import STEPS

    return list(STEPS)


DEFAULT_SIZE = (1280, 800)
WIDE = (1920, 1080)
"""The second size some screens are also shown at (with the default size only)."""


def parse_size(text: str) -> tuple[int, int]:
    """"1280x800" -> (1280, 800); ValueError with a reason otherwise."""
    width, sep, height = text.lower().strip().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"a size is WIDTHxHEIGHT, like 1280x800, not {text!r}")
    size = (int(width), int(height))
    if not (320 <= size[0] <= 8000 and 240 <= size[1] <= 8000):
        raise ValueError(f"{text} is not a window size lanplay can draw")
    return size


def as_on_screen(window: Any, size: tuple[int, int]) -> None:
    """Give the main ``window`` ``size`` as a screen that leaves it that much room does:
    its least size there (``smallest_in``) first. A plain resize kept SMALLEST's 600
    lines (the offscreen screen is 800x800), so every check of a 1024x640 screen's
    1000x592 window drew its tables 8 px taller than that screen shows them under X."""
    from PyQt6.QtCore import QSize

    from ui.window.window import smallest_in

    window.setMinimumSize(smallest_in(QSize(*size)))
    window.resize(*size)
    got = (window.width(), window.height())
    if got != size:
        raise RuntimeError(f"the window is {got[0]}x{got[1]}, not the {size[0]}x{size[1]} "
                           "asked for: its screens would not show that size")


@dataclass
class Target:
    """One window size of a run: where its PNGs go and its fit check."""

    size: tuple[int, int]
    out: Path
    fit: FitCheck


def render(out: Path, sizes: Sequence[tuple[int, int]] = (DEFAULT_SIZE,)) -> int:
    """Write the PNGs and ``fit.json`` into ``out`` (one folder ``WxH`` per size when
    there are several); print each path. Returns a process exit code (0 even when
    fit.json lists problems: it is a report)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")  # offscreen chatter
    import qasync
    from PyQt6.QtWidgets import QApplication

    from ui.look import pictures
    from ui.tools.fit import FitCheck
    from ui.tools.fit_probe import TextProbe

    sizes = list(dict.fromkeys(sizes)) or [DEFAULT_SIZE]
    app = QApplication.instance() or QApplication(["lanplay"])
    assert isinstance(app, QApplication)
    pictures.set_synchronous(True)  # grabs follow shows at once; nothing to wait for
    from ui.look.fonts import ensure_fonts

    ensure_fonts(app)
    from ui.words.i18n import install_qt

    install_qt(app)  # the language of --lang / LANPLAY_LANG (never a remembered one)
    app.setQuitOnLastWindowClosed(False)
    probe = TextProbe()
    targets = []
    for each in sizes:
        folder = out if len(sizes) == 1 else out / f"{each[0]}x{each[1]}"
        folder.mkdir(parents=True, exist_ok=True)
        targets.append(Target(each, folder, FitCheck(each, probe)))
    wide = sizes == [DEFAULT_SIZE]
    written: list[Path] = []
    with probe:
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        try:
            written = loop.run_until_complete(asyncio.wait_for(
                _render_all(_Camera(targets, wide)), 180))
        finally:
            loop.close()
            asyncio.set_event_loop(None)
        written += _game_tables(targets)
    for target in targets:
        target.fit.write(target.out / "fit.json")
    for path in written:
        print(path)
    for target in targets:
        fit = target.fit
        print(f"{target.out / 'fit.json'}: {fit.problems} texts that do not fit, on "
              f"{sum(1 for f in fit.screens.values() if f)} of {len(fit.screens)} screens")
    return 0


def _game_tables(targets: list[Target]) -> list[Path]:
    """Every game's table at real moments of seeded games played by their rules' bots
    (the same views a peer would be sent), in a window's game page, at every size."""
    from PyQt6.QtWidgets import QApplication

    from ui.services.connection import NetConfig
    from ui.services.settings import Settings
    from ui.tools import screenshot_tables
    from ui.window.window import MainWindow

    todo = screenshot_tables.screens()
    window = MainWindow(Settings(name="Mia", colour="#E69F00", taught=taught()),
                        NetConfig(interfaces=LOOPBACK, bind="127.0.0.1", port=0, save=False,
                                  demo=True))
    window.show()
    written: list[Path] = []
    try:
        for target in targets:
            as_on_screen(window, target.size)
            QApplication.processEvents()
            written += screenshot_tables.render(window, todo, target.out, target.fit)
            written += _crowded_room(window, target)
            written += _team_room(window, target)
    finally:
        window.close()
        window.deleteLater()
        QApplication.processEvents()
    return written


def _crowded_room(window: Any, target: Target) -> list[Path]:
    """The room of S-tier team with all 16 seats taken (and two watching), seen by its
    owner."""
    from PyQt6.QtWidgets import QApplication

    from protocol.messages import Lobby
    from ui.tools.demos.s_tier import demo_seats

    seats = demo_seats(16)
    for i, seat in enumerate(seats):
        seat["bot"] = i >= 3
        seat["ready"] = i != 2
        if seat["bot"]:
            seat["name"] = f"Bot {i - 2}"
    lobby = Lobby("Mia's laptop", "s-tier", "team", {"team_track": 5}, seats, "lobby",
                  problem="Waiting for Ada to be ready.", spectators=2,
                  watchers=["Zoe", "Kai"])
    from ui.words.i18n import _

    window.room.set_address(_("Others can join from their list, or by address at "
                              "{addresses}").format(addresses="192.168.1.20:7531"))
    window.room.show_lobby(lobby, 0, True)
    window.stack.setCurrentWidget(window.room)
    QApplication.processEvents()
    path = target.out / "room-16p.png"
    window.grab().save(str(path))
    target.fit.screen(path.stem, window)
    from ui.dialogs import network_help

    # a notice with every seat filled: it floats over the chat, nothing moves
    window.room.notice.say("first-host", network_help.first_host_title(),
                           network_help.first_host_text(7531))
    for _step in range(3):
        QApplication.processEvents()
    notice = target.out / "room-notice.png"
    window.grab().save(str(notice))
    target.fit.screen(notice.stem, window)
    window.room.notice.clear()
    return [path, notice]


def _team_room(window: Any, target: Target) -> list[Path]:
    """A room of four in teams seen by its owner, not ready yet, with Jonas gone and a
    bot playing for him: each seat's row with its most marks ('Grünes Team  Host  Nicht
    bereit' made the German row wider than the seats' box, Remove cut at its edge)."""
    from PyQt6.QtWidgets import QApplication

    from protocol.messages import Lobby
    from ui.tools.demos.s_tier import demo_seats

    seats = demo_seats(4)
    for i, seat in enumerate(seats):
        seat.update(bot=i > 1, ready=i > 1, owner=i == 0, connected=i != 1,
                    standin=i == 1, name=seat["name"] if i < 2 else f"Bot {i - 1}")
    lobby = Lobby("Mia", "ranagedon", "standard", {}, seats, "lobby",
                  problem=f"Waiting for {seats[0]['name']} and {seats[1]['name']} to be "
                  "ready.")
    window.room.show_lobby(lobby, 0, True)
    window.stack.setCurrentWidget(window.room)
    for _step in range(5):  # the seats' box counts its rows once they are laid out
        QApplication.processEvents()
    path = target.out / "room-teams.png"
    window.grab().save(str(path))
    target.fit.screen(path.stem, window)
    return [path]


async def _settle(seconds: float = 0.15) -> None:
    """Let layouts, paints and short animations run before a grab."""
    await asyncio.sleep(seconds)


class _Camera:
    """Grabs the window into every size's folder, alone or with a dialog over it."""

    def __init__(self, targets: list[Target], wide: bool) -> None:
        self.targets = targets
        self.wide = wide
        """Also write ``NAME-1920x1080.png`` where a shot asks for it (the docs' set)."""
        self.written: list[Path] = []

    @property
    def first(self) -> tuple[int, int]:
        return self.targets[0].size

    def _sizes(self, wide: bool) -> list[tuple[Target, tuple[int, int], str]]:
        out = [(t, t.size, "") for t in self.targets]
        if wide and self.wide:
            out.append((self.targets[0], WIDE, f"-{WIDE[0]}x{WIDE[1]}"))
        return out

    def save(self, target: Target, widget: Any, name: str, check: Any = None) -> None:
        """Grab ``widget`` now into ``target``'s folder and fit check."""
        path = target.out / name
        widget.grab().save(str(path))
        target.fit.screen(path.stem, check if check is not None else widget)
        self.written.append(path)

    async def shot(self, window: Any, name: str, settle: float = 0.12,
                   wide: bool = False) -> None:
        """``window`` at every size (and 1920x1080 when ``wide``), then back at the first."""
        stem = name.removesuffix(".png")
        for target, size, suffix in self._sizes(wide):
            as_on_screen(window, size)
            await _settle(settle)
            self.save(target, window, f"{stem}{suffix}.png")
        as_on_screen(window, self.first)

    async def dialog(self, window: Any, open_dialog: Callable[[], Any], name: str) -> Any:
        """A dialog opened over the window at every size, drawn over it dimmed; the
        last one opened (at the first size) stays open and is returned."""
        from PyQt6.QtGui import QColor, QPainter

        for target in [*self.targets[1:], self.targets[0]]:
            as_on_screen(window, target.size)
            await _settle(0.08)
            dialog = open_dialog()
            await _settle(0.08)
            shot = window.grab()
            painter = QPainter(shot)
            painter.fillRect(shot.rect(), QColor(0, 0, 0, 110))
            front = dialog.grab()
            painter.drawPixmap((shot.width() - front.width()) // 2,
                               (shot.height() - front.height()) // 2, front)
            painter.end()
            path = target.out / name
            shot.save(str(path))
            target.fit.screen(path.stem, dialog, over=window)
            self.written.append(path)
            if target is not self.targets[0]:
                dialog.reject()
        return dialog


async def _render_all(camera: _Camera) -> list[Path]:
    from lanplay.host import Host, HostConfig
    from lanplay.net.discovery import DEMO_SERVICE, Announcement, Announcer
    from lanplay.peer.bots import drive
    from lanplay.peer.peer import Peer
    from protocol.messages import PROTOCOL_VERSION
    from ui.services.connection import NetConfig
    from ui.services.settings import Settings
    from ui.window.window import MainWindow

    data = tempfile.TemporaryDirectory(prefix="lanplay-shots-")  # the replay's audit goes here
    net = NetConfig(interfaces=LOOPBACK, bind="127.0.0.1", port=0, bot_delay=0.0, seed=7,
                    save=False, pace=0.0, data_dir=data.name, demo=True)
    other = Host("alles-klar", config=HostConfig(
        host_name="Ben's laptop", bind="127.0.0.1", port=0, announce=True, demo=True,
        interfaces=LOOPBACK, seed=3, save=False))
    extra = [
        Announcer(Announcement("Lea", "alles-klar", 7599, 3, 5, "playing", password=True),
                  LOOPBACK, service=DEMO_SERVICE),
        Announcer(Announcement("Old laptop", "alles-klar", 7598, 1, 5, "lobby",
                               version=PROTOCOL_VERSION + 1), LOOPBACK, service=DEMO_SERVICE),
    ]
    window = MainWindow(Settings(name="Mia", colour="#E69F00", taught=taught()), net)
    as_on_screen(window, camera.first)
    window.show()
    guest = Peer("Jonas", "#009E73", contribution_seed=5)
    guest_task: asyncio.Task[None] | None = None
    watcher = Peer("Zoe", "#CC79A7", spectate=True)
    watcher_task: asyncio.Task[None] | None = None
    try:
        await _home_quiet(camera, net)
        await _home_long_name(camera, net)
        await _home_resume(camera, net)
        await window.start()
        await other.start()
        other.add_bot()
        for announcer in extra:
            await announcer.start()
        await _home(window, camera, other.port)
        port = await _room(window, camera)
        await guest.connect("127.0.0.1", port)
        guest_task = asyncio.get_running_loop().create_task(drive(guest, seed=5))
        await watcher.connect("127.0.0.1", port)  # the room and the bar say who watches
        watcher_task = asyncio.get_running_loop().create_task(watcher.run())
        await _room_full(window, camera, guest)
        await _table(window, camera)
        await _replay(window, camera)
        await _gone(window, camera, other)
    finally:
        if watcher_task is not None:
            await watcher.close("done")
            watcher_task.cancel()
            await asyncio.gather(watcher_task, return_exceptions=True)
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
    from ui.services.settings import Settings
    from ui.window.window import MainWindow

    window = MainWindow(Settings(name="Mia", colour="#E69F00", taught=taught()), net)
    as_on_screen(window, camera.first)
    window.show()
    try:
        window.home._still_quiet()
        await camera.shot(window, "home-nothing-found.png")
    finally:
        await window.shutdown()
        window.close()
        window.deleteLater()


async def _home_long_name(camera: _Camera, net: Any) -> None:
    """Home of someone with a long name (24 letters, the most a name may have): the top
    row was wider than a 1024x640 screen's window, its words squeezed and cut."""
    from ui.services.settings import Settings
    from ui.window.window import MainWindow

    window = MainWindow(Settings(name="Annemarie Schwarzenegger", colour="#E69F00",
                                 taught=taught()), net)
    as_on_screen(window, camera.first)
    window.home.addresses.setText("192.168.178.23 \u00b7 10.8.0.2")  # Wi-Fi and a VPN
    window.show()
    try:
        await camera.shot(window, "home-long-name.png")
    finally:
        await window.shutdown()
        window.close()
        window.deleteLater()


async def _home_resume(camera: _Camera, net: Any) -> None:
    """Home with "Resume a game…": this laptop's data folder holds a real game hosted
    here that did not finish (a seeded Alles klar? a few moves in, saved as a host
    saves it)."""
    import dataclasses
    import time

    from lanplay import games
    from lanplay.session import Session
    from lanplay.store import folders, saves
    from ui.services.settings import Settings
    from ui.window.window import MainWindow

    with tempfile.TemporaryDirectory(prefix="lanplay-shots-resume-") as data:
        session = Session(games.load("alles-klar"), 3, seed=4)
        while session.state_id < 5 and session.actors():
            for seat in session.actors():
                session.submit(seat, session.game.legal(session.state, seat)[0])
        save = saves.Save(
            game_id="shots1", game="alles-klar", mode=session.mode, options=session.options,
            seed=4, seats=[saves.SavedSeat(name, colour, f"tok{i}") for i, (name, colour)
                           in enumerate((("Mia", "#E69F00"), ("Jonas", "#009E73"),
                                         ("Ada", "#56B4E9")))],
            log=list(session.log), state_id=session.state_id, phase="playing", port=7531,
            started=time.time() - 600, updated=time.time() - 60,
            state=saves.plain(session.state))
        folder = folders.saves_dir(data)
        folder.mkdir(parents=True, exist_ok=True)
        saves.write(save, folder / saves.file_name(save))
        window = MainWindow(Settings(name="Mia", colour="#E69F00", taught=taught()),
                            dataclasses.replace(net, data_dir=data))
        as_on_screen(window, camera.first)
        window.show()
        try:
            window.home.refresh_saves(data)
            assert window.home.unfinished, "the save was not found"
            await camera.shot(window, "home-resume.png")
        finally:
            await window.shutdown()
            window.close()
            window.deleteLater()


async def _home(window: Any, camera: _Camera, ben_port: int = 0) -> None:
    from ui.dialogs.host_dialog import HostDialog
    from ui.dialogs.join_dialog import JoinAddressDialog

    names = {"Ben's laptop", "Lea", "Old laptop"}
    found = window.home._found.values
    await window.wait_until(lambda: {h.host_name for h in found()} >= names
                            and any(h.seats_taken == 1 for h in found()), 20)
    # Only this run's hosts: others on the loopback (tests running beside us) would
    # make the pictures and the fit check differ from run to run.
    ports = {"Ben's laptop": ben_port, "Lea": 7599, "Old laptop": 7598}

    def ours(seen: Any) -> bool:  # a screenshots run beside us announces the same names
        return seen.host_name in names and ports.get(seen.host_name, seen.port) in (
            seen.port, 0)

    window.browser.remove_listener(window._on_found)
    window.browser.add_listener(lambda kind, seen: window._on_found(kind, seen)
                                if ours(seen) else None)
    for stranger in [h for h in found() if not ours(h)]:
        window.home.on_host("removed", stranger)
    first = window.home.hosts.topLevelItem(0)
    if first is not None:
        window.home.hosts.setCurrentItem(first)
    await camera.shot(window, "home.png", wide=True)
    await _home_two_rooms(window, camera, names)

    def identity() -> Any:
        window.ask_identity(first=True)
        return window.dialog

    (await camera.dialog(window, identity, "first-run.png")).reject()

    def join() -> Any:
        window.open_join_dialog()
        dialog = window.dialog
        assert isinstance(dialog, JoinAddressDialog)
        dialog.address.setText("192.168.1.20:77777")
        dialog.ok.click()
        return dialog

    (await camera.dialog(window, join, "join-by-address.png")).reject()

    def host(game: str = "", mode: str = "", bottom: bool = False) -> Callable[[], Any]:
        def open_it() -> Any:
            window.open_host_dialog()
            dialog = window.dialog
            assert isinstance(dialog, HostDialog)
            if game:
                dialog.select_game(game)
            if mode:
                dialog.mode.setCurrentIndex(dialog.mode.findData(mode))
            if bottom:
                dialog.scroll_to_end()
            return dialog
        return open_it

    (await camera.dialog(window, host(bottom=True), "host-dialog-bottom.png")).reject()
    (await camera.dialog(window, host("s-tier", "cooperative"),
                         "host-dialog-s-tier.png")).reject()
    (await camera.dialog(window, host("alles-klar"), "host-dialog-alles-klar.png")).reject()
    await camera.dialog(window, host(), "host-dialog.png")


async def _home_two_rooms(window: Any, camera: _Camera, names: set[str]) -> None:
    """Two rooms of one name ("Mia" and "Mia"): each shows its address."""
    from lanplay.net.discovery import DEMO_SERVICE, Announcement, Announcer

    twins = [Announcer(Announcement("Mia", "ranking", port, 2, 5, "lobby"), LOOPBACK,
                       service=DEMO_SERVICE) for port in (7597, 7596)]
    names.add("Mia")
    try:
        for twin in twins:
            await twin.start()
        found = window.home._found.values
        ports = {7597, 7596}
        await window.wait_until(lambda: {h.port for h in found() if h.host_name == "Mia"}
                                >= ports, 30)
        for stranger in [h for h in found() if h.host_name == "Mia" and h.port not in ports]:
            window.home.on_host("removed", stranger)  # another Mia on this loopback
        await camera.shot(window, "home-two-rooms.png")
    finally:
        for twin in twins:
            await twin.stop()
        names.discard("Mia")  # their goodbyes no longer reach the list: take them off
        for gone in [h for h in window.home._found.values() if h.host_name == "Mia"]:
            window.home.on_host("removed", gone)


async def _room(window: Any, camera: _Camera) -> int:
    window.dialog.select_game("alles-klar")
    window.dialog.host.click()
    await window.wait_until(lambda: window.lobby is not None, 15)
    await camera.shot(window, "room-first-host.png")  # the firewall notice of a first room
    window.party.still_alone()  # as if a minute had passed with nobody joining
    await camera.shot(window, "room-nobody-joined.png")
    window.room.notice.clear()
    await camera.shot(window, "room-alone.png")
    for _ in range(2):
        window.room.add_bot_button.click()
    conn = window.conn
    assert conn is not None and conn.host is not None
    port: int = conn.host.port
    return port


async def _room_full(window: Any, camera: _Camera, guest: Any) -> None:
    await window.wait_until(lambda: window.lobby is not None and
                            len(window.lobby.seats) == 4
                            and window.lobby.watchers == ["Zoe"], 15)
    guest.say("Hi all! Bots, go easy on us.")
    history = window.room.chat.history
    await window.wait_until(lambda: "go easy" in history.toPlainText(), 5)
    window.room.chat.line.setText("Ready when you are.")
    window.room.chat.line.returnPressed.emit()
    await window.wait_until(lambda: "when you are" in history.toPlainText(), 5)
    await camera.shot(window, "room.png", wide=True)


async def _table(window: Any, camera: _Camera) -> None:
    from lanplay.games import load
    from ui.dialogs.rules_help import RulesDialog

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
    await _settle(0.3)
    await camera.shot(window, "table.png", 0.3, wide=True)
    window.game.chat_button.click()  # the chat drawer open: the table must stay whole
    await camera.shot(window, "table-chat.png", 0.3)
    window.game.chat_button.click()
    await _settle(0.2)

    def rules() -> Any:
        window.show_rules()
        dialog = window.rules_dialog
        assert isinstance(dialog, RulesDialog)
        return dialog

    (await camera.dialog(window, rules, "rules.png")).close()

    # A lost connection, at each size: the grab happens the moment the window shows it.
    session = conn.host.session
    for target in camera.targets:
        as_on_screen(window, target.size)
        await _settle()
        grabbed: list[bool] = []

        def grab_reconnecting(target: Target = target, grabbed: list[bool] = grabbed) -> None:
            camera.save(target, window, "reconnecting.png")
            grabbed.append(True)

        conn.bridge.reconnecting.connect(grab_reconnecting)
        conn.peer.drop()
        await window.wait_until(lambda g=grabbed: bool(g) and not window.banner.isVisible()
                                and conn.peer.state_id == session.state_id, 15)
        conn.bridge.reconnecting.disconnect(grab_reconnecting)
    as_on_screen(window, camera.first)

    await play_until(lambda view, plays: False)
    await window.wait_until(lambda: window.game.end.isVisible()
                            and window.game.end.replay_button.isVisible(), 30)  # audit in
    finish = getattr(window.game.table, "_finish_animation", None)
    if callable(finish):
        finish()  # the last trick lands with its winner: the same picture on any machine
    await _settle()
    await camera.shot(window, "game-over.png")


async def _replay(window: Any, camera: _Camera) -> None:
    """The game just played, replayed from the end screen: from the window's seat in the
    middle of the game, then with everything open; then Help -> Replays."""
    for target in camera.targets:  # opened over the window at each size, as it opens
        as_on_screen(window, target.size)
        await _settle(0.1)
        window.game.end.replay_button.click()
        replay = window.replay_windows[-1]
        replay.go(replay.replay.moves // 2, animate=False)
        await _settle(0.4)
        camera.save(target, replay, "replay.png")
        replay.set_open(True)
        await _settle(0.2)
        camera.save(target, replay, "replay-open.png")
        replay.close()
        await _settle(0.05)
    as_on_screen(window, camera.first)
    await window.wait_until(lambda: window.last_game.path is not None, 10)

    def open_replays() -> Any:
        window.replays_action.trigger()
        return window.dialog

    dialog = await camera.dialog(window, open_replays, "replays.png")
    dialog.reject()


async def _gone(window: Any, camera: _Camera, other: Any) -> None:
    from lanplay.host.server import CLOSED

    window.leave()
    await window.wait_until(lambda: window.conn is None
                            and window.stack.currentWidget() is window.home, 15)
    target = next(h for h in window.home._found.values() if h.host_name == "Ben's laptop")
    window.home.join_requested.emit(target)
    await window.wait_until(lambda: window.lobby is not None, 15)
    await other.stop(CLOSED)  # what a window says when its host closes the room
    await window.wait_until(lambda: window.stack.currentWidget() is window.gone, 15)
    await camera.shot(window, "host-gone.png")


__all__ = ["render"]
