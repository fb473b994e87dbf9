"""The main window: Home, the room, the game, and the way between them.

It owns the Browser (the live list of hosts), at most one Connection (our
seat at a table, and the Host when we host), and every task it starts; the
pages only render and emit what the player asked for. Nothing here blocks:
connecting, hosting and leaving are asyncio tasks on the Qt thread (qasync).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from PyQt6.QtCore import QByteArray, QEvent, QPoint, QRect, QSettings, QSize, Qt, QTimer
from PyQt6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QGuiApplication,
    QKeySequence,
    QResizeEvent,
    QShortcut,
)
from PyQt6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from lanplay import locale
from lanplay.badges import badges
from lanplay.discovery import Browser, FoundHost, local_addresses
from lanplay.messages import is_message, render
from lanplay.peer import JoinError
from lanplay.replay import files
from lanplay.replay.model import ReplayError
from protocol.messages import Chat, GameOver, Lobby, Welcome
from ui import network_help, pictures, theme
from ui.confirm import ask, close_question, leave_question, remove_question
from ui.connection import Connection, NetConfig
from ui.cues import cues
from ui.end_screen import verdict_text
from ui.game_page import GamePage
from ui.home import HomePage, watch_only
from ui.host_dialog import HostChoice, HostDialog
from ui.i18n import NAMES, _, in_language
from ui.identity import IdentityDialog
from ui.join_dialog import JoinAddressDialog, PasswordDialog
from ui.pacing import Pacer, actor, by_person
from ui.replays import LastGame, ReplaysDialog, open_file, open_replay
from ui.resume_dialog import ResumeDialog
from ui.room import RoomPage, problem_text
from ui.rules_help import RulesDialog
from ui.settings import MAX_SCALE, MIN_SCALE, Settings
from ui.sound import Sound
from ui.widgets import Card, button, fit_dialog, label

log = logging.getLogger(__name__)

DEFAULT_SIZE = QSize(1280, 800)
SMALLEST = QSize(960, 600)
"""The least the window shrinks to where the screen allows (every table works there)."""
FRAME = QSize(24, 48)
"""A window manager's border and title bar, which a window's size does not include."""
LONELY_AFTER = 60.0
"""Seconds a hosted room may stay without another person before the window says
why the others may not find it."""


class GonePage(QWidget):
    """The table is gone (host closed, we were removed, the network is down)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        card = Card(margin=30)
        card.setMinimumWidth(520)
        card.body.addWidget(label(_("The game has ended"), "title"))
        self.reason = label("", "big", wrap=True)
        card.body.addWidget(self.reason)
        self.home = button(_("Back to Home"), "primary")
        self.home.setMinimumHeight(42)
        card.body.addWidget(self.home, 0, Qt.AlignmentFlag.AlignRight)
        row.addWidget(card)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)


class Banner(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 0)
        self.frame = Card(margin=10)
        theme.role(self.frame, "banner")
        self.text = label("", wrap=True)  # a paused host's banner is two sentences
        self.frame.body.addWidget(self.text)
        layout.addWidget(self.frame)
        self.hide()

    def say(self, text: str) -> None:
        self.text.setText(text)
        self.setVisible(bool(text))


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None, net: NetConfig | None = None) -> None:
        super().__init__()
        self.settings = settings if settings is not None else Settings.load()
        self.net = net or NetConfig()
        self._applied_scale = self.settings.scale
        theme.apply(self.settings.scale)  # before any widget exists, so all take it
        self.setWindowTitle("lanplay")
        self.place_on_screen()
        self.conn: Connection | None = None
        self.lobby: Lobby | None = None
        self.browser = Browser(interfaces=self.net.interfaces)
        self.dialog: Any = None
        self.rules_dialog: RulesDialog | None = None
        self.changed: asyncio.Event | None = None
        self.done: asyncio.Event | None = None
        """Set once the window has said its goodbyes and closed."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.lonely_after = LONELY_AFTER
        self._lonely = QTimer(self)
        self._lonely.setSingleShot(True)
        self._lonely.timeout.connect(self._still_alone)
        self._want_restart = False
        self._closed = False
        self._shut = False

        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        self.banner = Banner()
        column.addWidget(self.banner)
        self.stack = QStackedWidget()
        column.addWidget(self.stack, 1)
        self.setCentralWidget(body)
        self.home = HomePage()
        self.room = RoomPage()
        self.game = GamePage()
        self.gone = GonePage()
        for page in (self.home, self.room, self.game, self.gone):
            self.stack.addWidget(page)
        self.browser.add_listener(self._on_found)
        self.pacer = Pacer(self._show_view, self._table_pace, self.net.pace, self)
        self.pacer.idle.connect(self._touch)
        self.sound = Sound(self.settings.sound, self)
        self.game.set_sound(self.settings.sound)
        self.game.sound_toggled.connect(self._set_sound)
        self.game.tick.connect(lambda: self.sound.play("tick"))
        self._game_number = 0
        """Games begun at this table (an end screen shows only over its own game)."""
        self._received: dict[str, Any] | None = None
        """The newest view from the host (the table may still show an older one)."""

        self.home.set_identity(self.settings.name, self.settings.colour)
        self.home.host_clicked.connect(self.open_host_dialog)
        self.home.join_address_clicked.connect(self.open_join_dialog)
        self.home.join_requested.connect(self._join_found)
        self.home.resume_clicked.connect(self.open_resume_dialog)
        self.home.refresh_saves(self.net.data_dir)
        self.home.identity_clicked.connect(lambda: self.ask_identity(first=False))
        self.room.ready.connect(lambda ready: self._control("ready", ready=ready))
        self.room.start.connect(lambda: self._control("start"))
        self.room.add_bot.connect(lambda: self._control("add_bot"))
        self.room.remove.connect(self.ask_remove)
        self.room.move_seat.connect(lambda seat, to: self._control("move_seat", seat=seat, to=to))
        self.room.leave.connect(self.ask_leave)
        self.room.rules.connect(self.show_rules)
        self.room.sit.connect(lambda: self._control("sit"))
        self.room.change_game.connect(self.open_change_dialog)
        self.game.change_game.connect(self.open_change_dialog)
        self.game.sit.connect(lambda: self._control("sit"))
        self.room.chat.send.connect(self._say)
        self.game.intent.connect(self._intent)
        self.game.leave.connect(self.ask_leave)
        self.game.rules.connect(self.show_rules)
        self.game.again.connect(self._play_again)
        self.game.chat.send.connect(self._say)
        self.game.end.replay.connect(self.replay_last_game)
        self.last_game = LastGame()
        self.gone.home.clicked.connect(self.go_home)

        menu = self.menuBar()
        assert menu is not None
        self._settings_menu(menu)
        help_menu = menu.addMenu(_("&Help"))
        assert help_menu is not None
        rules = help_menu.addAction(_("Rules of this game") + "\tF1")
        pictures = help_menu.addAction(_("Pictures, questions and topics\u2026"))
        assert rules is not None and pictures is not None
        self.rules_action: QAction = rules
        self.rules_action.triggered.connect(self.show_rules)
        self.rules_action.setEnabled(False)  # until there is a game to explain
        self.pictures_action: QAction = pictures
        self.pictures_action.triggered.connect(self.show_pictures)
        self.pictures: QDialog | None = None
        replays = help_menu.addAction(_("Replays of finished games\u2026"))
        assert replays is not None
        self.replays_action: QAction = replays
        self.replays_action.triggered.connect(self.open_replays)
        self.replay_windows: list[QWidget] = []

        shortcuts: list[tuple[QKeySequence | str, Callable[[], None]]] = [
            (QKeySequence(Qt.Key.Key_F1), self.show_rules),
            (QKeySequence(QKeySequence.StandardKey.ZoomIn), lambda: self.zoom(1.1)),
            ("Ctrl+=", lambda: self.zoom(1.1)),
            (QKeySequence(QKeySequence.StandardKey.ZoomOut), lambda: self.zoom(1 / 1.1)),
            ("Ctrl+0", lambda: self.zoom(0)),
        ]
        for keys, slot in shortcuts:
            shortcut = QShortcut(QKeySequence(keys), self)  # this window's, not the app's
            shortcut.activated.connect(slot)

    # --- settings: who you are and the language -------------------------------------------

    def _settings_menu(self, bar: Any) -> None:
        """Settings: your name and colour, and the language (the system's unless chosen)."""
        menu = bar.addMenu(_("&Settings"))
        identity = menu.addAction(_("Name and colour\u2026"))
        identity.triggered.connect(lambda: self.ask_identity(first=False))
        languages = menu.addMenu(_("Language"))
        self.language_actions: dict[str, QAction] = {}
        group = QActionGroup(self)
        group.setExclusive(True)
        system = locale.system_language()
        choices = [("", _("As the system ({language})").format(
            language=NAMES.get(system, system)))]
        choices += [(lang, NAMES.get(lang, lang)) for lang in locale.LANGUAGES]
        for lang, text in choices:
            action = languages.addAction(text)
            action.setCheckable(True)
            action.setChecked(lang == self.settings.language)
            action.triggered.connect(lambda _checked=False, lang=lang: self.choose_language(lang))
            group.addAction(action)
            self.language_actions[lang] = action

    def choose_language(self, lang: str) -> None:
        """Remember the language chosen; it is spoken from the next start, and the
        window says so in that language (a window half in one language and half in
        another, with the tables' words made long ago, would read worse)."""
        self.settings.language = lang
        self.settings.save()
        if lang in self.language_actions:
            self.language_actions[lang].setChecked(True)
        speak = locale.normalise(lang) or locale.system_language()
        forced = locale.requested() is not None
        if speak == locale.language() and not forced:
            return
        text = in_language(speak, "lanplay speaks {language} from its next start: close it "
                                  "and open it again.").format(language=NAMES.get(speak, speak))
        if forced:
            text += " " + in_language(speak, "This run was started with --lang or "
                                             "LANPLAY_LANG, which choose its language "
                                             "whenever they are given.")
        box = QMessageBox(QMessageBox.Icon.Information, in_language(speak, "Language"), text,
                          QMessageBox.StandardButton.Ok, self)
        self.language_note = box
        self._open(box)

    # --- where the window opens -------------------------------------------------------

    def _geometry_store(self) -> QSettings | None:
        """Where the window's size and place are remembered: beside the settings file
        (none for a window without one, as in tests and screenshots)."""
        if self.settings.path is None:
            return None
        return QSettings(str(self.settings.path.parent / "window.ini"),
                         QSettings.Format.IniFormat)

    def place_on_screen(self) -> None:
        """Open inside the screen's available area: where the window was last time if
        that still fits, else 1280x800 (or as much as the screen has), centred. A
        high-DPI scale counts (QT_SCALE_FACTOR=2 on a 1600x1000 screen leaves 800x500)."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        area = screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)
        # Room for a window manager's title bar and border, which the size leaves out.
        room = QSize(max(320, area.width() - FRAME.width()),
                     max(240, area.height() - FRAME.height()))
        self.setMinimumSize(min(SMALLEST.width(), room.width()),
                            min(SMALLEST.height(), room.height()))
        store = self._geometry_store()
        saved = store.value("geometry") if store is not None else None
        if isinstance(saved, QByteArray) and not saved.isEmpty() \
                and self.restoreGeometry(saved) and self.width() <= room.width() \
                and self.height() <= room.height() and area.contains(self.geometry()):
            return
        self.resize(min(DEFAULT_SIZE.width(), room.width()),
                    min(DEFAULT_SIZE.height(), room.height()))
        frame = QRect(QPoint(0, 0), self.size())
        frame.moveCenter(area.center())
        self.move(frame.topLeft())

    def save_geometry(self) -> None:
        """Remember the window's size and place for the next start."""
        store = self._geometry_store()
        if store is not None:
            store.setValue("geometry", self.saveGeometry())
            store.sync()

    # --- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Begin listening for hosts; ask for a name on the first run."""
        self.changed = asyncio.Event()
        self.done = asyncio.Event()
        await self.browser.start()
        self.home.listening()
        if self.settings.first_run:
            self.ask_identity(first=True)

    async def shutdown(self) -> None:
        """Leave the table (closing our room), stop discovery, finish every task."""
        if self._shut:
            return
        self._shut = True
        if self.conn is not None:
            conn, self.conn = self.conn, None
            await conn.leave("closed the window")
        await self.browser.stop()
        me = asyncio.current_task()  # shutdown may itself run as one of our tasks
        while others := [t for t in self._tasks if t is not me]:
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)
            self._tasks.difference_update(others)

    def closeEvent(self, event: QCloseEvent | None) -> None:
        if self._closed or self._shut or event is None:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        event.ignore()  # first say goodbye to the table, then close
        self._closed = True
        self.save_geometry()
        self.spawn(self._close_after_shutdown())

    def changeEvent(self, event: QEvent | None) -> None:
        super().changeEvent(event)
        if event is not None and event.type() == QEvent.Type.ActivationChange:
            self._touch()  # shortcuts follow the active window; waiters may care

    async def _close_after_shutdown(self) -> None:
        await self.shutdown()
        self.close()
        if self.done is not None:
            self.done.set()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as a task the window owns (awaited or cancelled on shutdown)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("window task failed", exc_info=task.exception())
            self.home.show_error(_("Something went wrong inside lanplay; try again."))
        self._touch()

    def _touch(self) -> None:
        if self.changed is not None:
            self.changed.set()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float) -> None:
        """Wait for ``predicate()`` as the window changes; TimeoutError if it does not."""
        assert self.changed is not None, "start() the window first"
        async with asyncio.timeout(timeout):
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

    # --- identity and text size ----------------------------------------------------------

    def ask_identity(self, first: bool) -> None:
        dialog = IdentityDialog(self.settings.name, self.settings.colour, first, self)
        dialog.chosen.connect(self._set_identity)
        self._open(dialog)

    def _set_identity(self, name: str, colour: str) -> None:
        self.settings.name, self.settings.colour = name, colour
        self.settings.save()
        self.home.set_identity(name, colour)
        self._touch()

    def zoom(self, factor: float) -> None:
        """Ctrl+plus / Ctrl+minus scale all text; Ctrl+0 goes back to normal."""
        scale = 1.0 if factor == 0 else self.settings.scale * factor
        self.settings.scale = round(min(MAX_SCALE, max(MIN_SCALE, scale)), 3)
        self.settings.save()
        self._apply_look()

    def _apply_look(self) -> None:
        """The player's text size times a step for tall windows (a 1080-line screen
        is read from as far away as an 800-line one, so its text grows too)."""
        window = min(1.4, max(1.0, self.height() / 800))
        window = round(window * 10) / 10  # in steps, so a drag does not restyle each pixel
        effective = self.settings.scale * window
        if effective != self._applied_scale:
            self._applied_scale = effective
            theme.apply(effective)

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        self._apply_look()

    # --- dialogs ----------------------------------------------------------------------

    def _open(self, dialog: Any) -> None:
        """Show a dialog without blocking the event loop (never ``exec``)."""
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda *_: self._dialog_closed(dialog))
        fit_dialog(dialog, self)
        dialog.open()
        self._touch()

    def _dialog_closed(self, dialog: Any) -> None:
        if self.dialog is dialog:
            self.dialog = None
        self._touch()

    def open_host_dialog(self) -> None:
        dialog = HostDialog(self)
        dialog.chosen.connect(lambda choice: self.spawn(self._host(choice)))
        self._open(dialog)

    def open_change_dialog(self) -> None:
        """The owner picks another game, mode or options for the open room."""
        lobby = self.lobby
        if lobby is None or self.conn is None or not self.conn.peer.owner:
            return
        dialog = HostDialog(self, lobby.game, room=True)
        dialog.preset(lobby.game, lobby.mode, dict(lobby.options))
        dialog.chosen.connect(lambda choice: self._control(
            "set_game", game=choice.game, mode=choice.mode, options=choice.options))
        self._open(dialog)

    def open_join_dialog(self) -> None:
        dialog = JoinAddressDialog(self)
        dialog.join.connect(lambda host, port: self.spawn(
            self._join([host], port, f"{host}:{port}", dialog=dialog)))
        self._open(dialog)

    def open_resume_dialog(self) -> None:
        self.home.refresh_saves(self.net.data_dir)
        dialog = ResumeDialog(self.home.unfinished, self)
        dialog.resume.connect(lambda path: self.spawn(self._resume(path, dialog)))
        self._open(dialog)

    def open_replays(self) -> None:
        """Help -> Replays: the finished games on this laptop, each to go over again."""
        dialog = ReplaysDialog(files.finished_games(self.net.data_dir), self)

        def chosen(path: Any) -> None:
            try:
                self._replaying(open_file(self, path))
            except ReplayError as exc:
                dialog.failed(exc.reason)
            else:
                dialog.accept()

        dialog.chosen.connect(chosen)
        self._open(dialog)

    def replay_last_game(self) -> None:
        """The end screen's "Replay": the game just played, from this laptop's seat."""
        try:
            self._replaying(open_replay(self, self.last_game.replay()))
        except ReplayError as exc:
            self.game.set_end_status(exc.reason, can_play_again=True, waiting=False)

    def _replaying(self, window: QWidget) -> None:
        self.replay_windows.append(window)
        window.destroyed.connect(lambda *_: self.replay_windows.remove(window))
        self._touch()

    def show_rules(self) -> None:
        game = self.lobby.game if self.lobby is not None and self.conn is not None else None
        if game is None:
            return
        if self.rules_dialog is not None:
            self.rules_dialog.close()
        dialog = RulesDialog(game, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda *_: self._rules_closed(dialog))
        self.rules_dialog = dialog
        fit_dialog(dialog, self)
        dialog.show()
        self._touch()

    def show_pictures(self) -> None:
        """Help -> Pictures: everything the picture games draw from, packs included."""
        from ui.content_browser import ContentBrowser  # reads the packs: only on demand

        if self.pictures is None:
            self.pictures = ContentBrowser(parent=self)
            fit_dialog(self.pictures, self)
        self.pictures.show()
        self.pictures.raise_()
        self._touch()

    def _rules_closed(self, dialog: RulesDialog) -> None:
        if self.rules_dialog is dialog:
            self.rules_dialog = None

    # --- hosting and joining ------------------------------------------------------------

    def _on_found(self, kind: str, host: FoundHost) -> None:
        self.home.on_host(kind, host)
        self._touch()

    async def _host(self, choice: HostChoice) -> None:
        if self.conn is not None:
            return
        self.home.set_busy(_("Opening the room\u2026"))
        try:
            conn = await Connection.host_game(self.settings.name or "Host", self.settings.colour,
                                              self.net, choice.game, choice.mode,
                                              choice.options, choice.password)
        except JoinError as exc:
            self.home.set_busy(None)
            self.home.show_error(exc.reason)
            return
        self.home.set_busy(None)
        self.home.clear_message()
        self._enter(conn)

    async def _resume(self, path: Any, dialog: ResumeDialog) -> None:
        """Reopen a saved game's room and sit at it again as its owner."""
        if self.conn is not None:
            return
        try:
            conn = await Connection.resume_game(self.settings.name or "Host",
                                                self.settings.colour, self.net, path)
        except JoinError as exc:
            reason = exc.reason
        except Exception as exc:  # a save broken in a way nobody foresaw
            log.exception("resuming %s failed", path)
            reason = _("This game could not be resumed ({error}); pick another one or host a "
                       "new game.").format(error=type(exc).__name__)
        else:
            if dialog.isVisible():
                dialog.accept()
            self.home.clear_message()
            self._enter(conn)
            return
        if dialog.isVisible():
            dialog.failed(reason)
        else:
            self.home.show_error(reason)
        self._touch()

    def _join_found(self, host: FoundHost) -> None:
        """Join the room, or watch it where there is no seat to take (a game running,
        a full room)."""
        watch = watch_only(host)
        if host.password:
            self._ask_password(host.host_name, host.addresses, host.port, spectate=watch)
            return
        self.spawn(self._join(host.addresses, host.port, host.host_name, spectate=watch))

    def _ask_password(self, host_name: str, addresses: Any, port: int,
                      error: str = "", spectate: bool = False) -> None:
        dialog = PasswordDialog(host_name, self, error)
        dialog.entered.connect(lambda pw: self.spawn(
            self._join(addresses, port, host_name, password=pw, spectate=spectate)))
        self._open(dialog)

    async def _join(self, addresses: Any, port: int, label_text: str, *,
                    dialog: JoinAddressDialog | None = None, password: str = "",
                    spectate: bool = False) -> None:
        if self.conn is not None:
            return
        self.home.set_busy((_("Watching {host}\u2026") if spectate else
                            _("Joining {host}\u2026")).format(host=label_text))
        try:
            try:
                conn = await Connection.join(self.settings.name or "Player",
                                             self.settings.colour, self.net, tuple(addresses),
                                             port, password, spectate=spectate)
            except JoinError as exc:
                if exc.code != "full" or spectate:
                    raise
                # No seat left: watch instead (a seat may free up between games).
                conn = await Connection.join(self.settings.name or "Player",
                                             self.settings.colour, self.net, tuple(addresses),
                                             port, password, spectate=True)
        except JoinError as exc:
            self.home.set_busy(None)
            if exc.code == "password":  # none given, or a wrong one: ask (again)
                if dialog is not None:
                    dialog.reject()
                self._ask_password(label_text, addresses, port, exc.reason if password
                                   else "", spectate=spectate)
            elif dialog is not None and dialog.isVisible():
                dialog.failed(exc.reason)
            else:
                self.home.show_error(exc.reason)
            self._touch()
            return
        self.home.set_busy(None)
        self.home.clear_message()
        if dialog is not None:
            dialog.accept()
        self._enter(conn)

    def _enter(self, conn: Connection) -> None:
        self.conn = conn
        self.lobby = None
        self.pacer.clear()
        self._received = None
        self._want_restart = False
        self.room.chat.clear()
        self.game.clear_chat()
        self.game.clear_result()
        self.room.set_address(self._join_text(conn))
        self.room.title.setText(_("Joining {host}\u2026").format(host=conn.peer.host_name))
        self.room.notice.clear()
        if conn.host is not None:
            self._hosting_notices(conn.host.port)
        b = conn.bridge
        b.welcome.connect(self._on_welcome)
        b.lobby.connect(self._on_lobby)
        b.view.connect(self._on_view)
        b.move_rejected.connect(self.game.show_rejection)
        b.control_rejected.connect(self._on_control_rejected)
        b.chat.connect(self._on_chat)
        b.game_over.connect(self._on_game_over)
        b.reconnecting.connect(self._on_reconnecting)
        b.reconnected.connect(self._on_reconnected)
        b.pack.connect(self._on_pack)
        b.clock.connect(self._on_clock)
        b.pack_error.connect(self._on_pack_error)
        b.audit.connect(self._on_audit)
        conn.start(lambda reason: self._on_ended(conn, reason))
        self.stack.setCurrentWidget(self.room)
        self._touch()

    def _hosting_notices(self, port: int) -> None:
        """The first room on this laptop: what the firewall will ask (once, ever).
        Every room: a word on the network if nobody joins for a while."""
        if not self.settings.host_hint_seen:
            self.room.notice.say("first-host", network_help.first_host_title(),
                                 network_help.first_host_text(port))
            self.settings.host_hint_seen = True
            self.settings.save()
        self._lonely.start(int(self.lonely_after * 1000))

    def _still_alone(self) -> None:
        conn, lobby = self.conn, self.lobby
        if conn is None or conn.host is None or lobby is None or lobby.phase != "lobby" \
                or self._someone_joined(lobby, conn.peer.seat):
            return
        port = conn.host.port
        where = "\n".join(f"{a}:{port}" for a in local_addresses()) or \
            _("this laptop's address, port {port}").format(port=port)
        self.room.notice.say("lonely", network_help.lonely_title(),
                             network_help.lonely_text(port), where,
                             network_help.lonely_after_text())
        self._touch()

    @staticmethod
    def _someone_joined(lobby: Lobby, you: int | None) -> bool:
        return any(i != you and not seat.get("bot") and seat.get("connected", True)
                   for i, seat in enumerate(lobby.seats))

    def _join_text(self, conn: Connection) -> str:
        if conn.host is None:
            return _("Connected to {address}").format(address=conn.address_text)
        where = ", ".join(f"{a}:{conn.host.port}" for a in local_addresses())
        return _("Others can join from their list, or by address at {addresses}").format(
            addresses=where)

    # --- the connection's events ----------------------------------------------------------

    def _on_welcome(self, welcome: Welcome) -> None:
        if self.lobby is not None:
            self._on_lobby(self.lobby)

    def _on_lobby(self, lobby: Lobby) -> None:
        conn = self.conn
        if conn is None:
            return
        previous = self.lobby
        self.lobby = lobby
        you, owner = conn.peer.seat, conn.peer.owner
        self.rules_action.setEnabled(True)
        self.room.show_lobby(lobby, you, owner)
        if conn.host is not None and self._someone_joined(lobby, you):
            self._lonely.stop()  # they found us: the network is fine
            self.room.notice.clear("lonely")
        self.setWindowTitle(f"lanplay \u2014 {self.room.title.text()}")
        self.game.set_game(lobby.game, lobby.host_name)
        self.game.set_seats(lobby.seats, you, owner)
        self.game.set_watching(you is None, lobby)
        self._show_paused(conn, lobby, previous)
        if lobby.phase == "lobby":
            self.stack.setCurrentWidget(self.room)
        else:
            if lobby.phase == "playing" and (previous is None or previous.phase != "playing"):
                self._game_number += 1  # an end still waiting for the pacer is not this one's
                self.game.clear_result()
                self._want_restart = False
            self.stack.setCurrentWidget(self.game)
            self._update_end_status()
        if (self._want_restart and owner and lobby.phase == "over"
                and lobby.problem is None):
            self._want_restart = False
            self._control("start")
        self._touch()

    def _show_paused(self, conn: Connection, lobby: Lobby, previous: Lobby | None) -> None:
        """Play held because the host cannot save: every window says so, and the
        host's own window says where to make room."""
        if lobby.paused:
            text = (render(lobby.paused_message, [str(s.get("name", "?")) for s in lobby.seats])
                    if is_message(lobby.paused_message) else lobby.paused)
            host = conn.host
            if host is not None:
                where = host.save_path.parent if host.save_path is not None else None
                text += " " + (_("This laptop is the host: free some disk space (the game is "
                                 "saved in {folder}).").format(folder=where) if where else
                               _("This laptop is the host: free some disk space."))
            self.banner.say(text)
        elif previous is not None and previous.paused:
            self.banner.say("")

    def _on_view(self, animate: bool) -> None:
        """A view arrived: the pacer shows it in its turn (a snapshot at once)."""
        conn = self.conn
        if conn is None or conn.peer.view is None:
            return
        # The view as our table shows it: the host's, with our own kept note in it.
        view, previous = conn.shown_view() or conn.peer.view, self._received
        self._received = view
        if previous is not None and previous.get("game") != view.get("game"):
            animate = False  # another game in the same room: a new table, no motion
        seats = self.lobby.seats if self.lobby is not None else []
        self.pacer.push(view, animate, by_person(seats, actor(previous, view)))
        self._touch()

    def _show_view(self, view: dict[str, Any], animate: bool) -> None:
        """The pacer's turn for ``view``: put it on the table."""
        conn = self.conn
        if conn is None:
            return
        if self.lobby is not None:
            self.game.set_seats(self.lobby.seats, conn.peer.seat, conn.peer.owner)
        before = self.game.view
        self.game.set_view(view, animate)
        if animate:
            self._sound_for(before, view, conn.peer.seat)
        if self.stack.currentWidget() is self.room and self.lobby is not None \
                and self.lobby.phase != "lobby":
            self.stack.setCurrentWidget(self.game)
        self._touch()

    def _sound_for(self, before: dict[str, Any] | None, view: dict[str, Any],
                   you: int | None) -> None:
        """What just happened, then (a moment later) my turn: one or two soft sounds."""
        for order, cue in enumerate(cues(before, view, you)):
            if order == 0:
                self.sound.play(cue)
            else:
                self.sound.play_later(cue, 350)

    def _set_sound(self, on: bool) -> None:
        self.sound.enabled = on
        self.settings.sound = on
        self.settings.save()

    def _table_pace(self) -> tuple[int, int]:
        pace = getattr(self.game.table, "pace", None)
        return pace() if callable(pace) else (0, 0)

    def _on_clock(self, clock: object) -> None:
        """The host's deadline: counted down once the table shows the moves before it
        (a window that opened behind a held trick has not opened on this table yet)."""
        conn = self.conn
        if conn is None or conn.peer.clock is None:
            self.game.set_clock(None)
            return
        self.pacer.when_idle(self._show_clock)

    def _show_clock(self) -> None:
        conn = self.conn
        if conn is None or conn.peer.clock is None:
            self.game.set_clock(None)
            return
        left = conn.peer.clock_deadline - asyncio.get_running_loop().time()
        self.game.set_clock(max(0.0, left))

    def _on_pack(self, pack_id: str) -> None:
        """The host's pictures are here: draw them instead of their names."""
        pictures.forget_cache()
        if self.conn is not None and self.game.view is not None:
            self.game.set_view(self.game.view, False)

    def _on_pack_error(self, reason: str) -> None:
        """The game goes on with the pictures' names; say why the images are missing."""
        self.game.add_chat("lanplay", "#888888", _("The host's pictures could not be "
                                                   "received: {reason}").format(reason=reason))

    def _on_game_over(self, over: GameOver) -> None:
        """The end screen comes once the last moves have been seen on the table."""
        conn, number = self.conn, self._game_number
        self.game.set_clock(None)

        def show() -> None:
            if self.conn is conn and self._game_number == number:
                self.sound.play("over")
                self.game.show_result(over.result)
                self._update_end_status()
                self._touch()

        self.pacer.when_idle(show)

    def _on_audit(self, verdict: Any) -> None:
        """This laptop's own check of the game: the end screen says what it found, and
        the game can be replayed (kept at once; said on the end screen once it shows,
        after the last moves: a result shown later would clear what came before it)."""
        names = [str(s.get("name", "")) for s in self.lobby.seats] if self.lobby else []
        conn, number = self.conn, self._game_number
        audit = conn.peer.witness.last_audit if conn is not None else None
        kept = conn is not None and audit is not None and self.lobby is not None
        if conn is not None and audit is not None and self.lobby is not None:
            self.last_game.keep(audit, self.lobby.seats, conn.peer.seat, conn.peer.result,
                                verdict.summary(), conn.peer.host_name, self.net.data_dir,
                                self.spawn)

        def show() -> None:
            if self.conn is conn and self._game_number == number:
                self.game.end.show_verdict(verdict_text(verdict, names), verdict.ok)
                if kept:
                    self.game.end.offer_replay()
                self._touch()

        self.pacer.when_idle(show)
        self._touch()

    def _update_end_status(self) -> None:
        conn, lobby = self.conn, self.lobby
        if conn is None or lobby is None or lobby.phase != "over":
            return
        me = lobby.seats[conn.peer.seat] if conn.peer.seat is not None \
            and 0 <= conn.peer.seat < len(lobby.seats) else None
        ready = bool(me and me.get("ready"))
        owner_name = next((s["name"] for s in lobby.seats if s.get("owner")), lobby.host_name)
        if me is None:
            text = _("Waiting for {name} to start another game.").format(name=owner_name)
        elif ready and lobby.problem:
            text = problem_text(lobby, conn.peer.seat)
        elif ready:
            text = _("Starting\u2026") if conn.peer.owner else \
                _("Waiting for {name} to start another game.").format(name=owner_name)
        else:
            text = ""
        self.game.set_end_status(text, can_play_again=me is not None, waiting=ready)

    def _on_control_rejected(self, reason: str) -> None:
        self._want_restart = False
        self.room.show_error(reason)
        self.game.set_end_status(reason, can_play_again=True, waiting=False)
        self._touch()

    def _on_chat(self, chat: Chat) -> None:
        colour = text = ""
        if self.lobby is not None and chat.seat is not None \
                and 0 <= chat.seat < len(self.lobby.seats):
            mark = badges(self.lobby.seats)[chat.seat]
            colour, text = mark.colour, mark.text
        self.room.chat.add(chat.sender, colour, chat.text, text)
        self.game.add_chat(chat.sender, colour, chat.text, text)
        self._touch()

    def _on_reconnecting(self) -> None:
        self.banner.say(_("Reconnecting\u2026 the connection to the host dropped; your seat "
                          "is kept and the game comes back by itself."))
        self.game.set_dimmed(True)
        self._touch()

    def _on_reconnected(self) -> None:
        self.banner.say("")
        self.game.set_dimmed(False)
        self._touch()

    def _on_ended(self, conn: Connection, reason: str) -> None:
        """The connection ended without us leaving: the host is gone or sent us away."""
        if conn is not self.conn:
            return
        self.pacer.clear()
        self.conn = None
        self.lobby = None
        self.banner.say("")
        self.game.set_dimmed(False)
        self._close_rules()
        self.gone.reason.setText(reason + " " +
                                 _("Go back to Home to find or host another game."))
        self.stack.setCurrentWidget(self.gone)
        self.spawn(conn.end())
        self._touch()

    # --- what the player asked for ---------------------------------------------------------

    def _control(self, command: str, **args: Any) -> None:
        if self.conn is not None:
            self.room.show_error("")
            self.conn.control(command, **args)

    def _intent(self, action: dict[str, Any]) -> None:
        if self.conn is not None:
            self.pacer.hurry()  # a person acted: whatever the table holds may go
            self.conn.intent(action)

    def _say(self, text: str) -> None:
        if self.conn is not None:
            self.conn.peer.say(text)

    def _play_again(self) -> None:
        conn = self.conn
        if conn is None:
            return
        self._want_restart = conn.peer.owner
        self._control("ready", ready=True)
        self._touch()

    def ask_leave(self) -> None:
        """Leave (or, for the owner, close the room) after asking, where it affects
        the others: the question says what happens to them."""
        conn, lobby = self.conn, self.lobby
        if conn is None or lobby is None:
            self.leave()
            return
        if conn.peer.owner:
            saved = conn.host is not None and conn.host.config.save
            question = close_question(lobby, conn.peer.seat, saved)
        else:
            question = leave_question(lobby, conn.peer.seat)
        dialog = ask(self, question, self.leave)
        if dialog is not None:
            self._open(dialog)

    def ask_remove(self, seat: int) -> None:
        """The owner removes a seat: a person only after a question."""
        if self.lobby is None:
            return
        dialog = ask(self, remove_question(self.lobby, seat),
                     lambda: self._control("remove_seat", seat=seat))
        if dialog is not None:
            self._open(dialog)

    def leave(self) -> None:
        conn = self.conn
        if conn is None:
            self.go_home()
            return
        self.conn = None
        self.lobby = None

        async def leave() -> None:
            await conn.leave()
            self.go_home()

        self.spawn(leave())

    def go_home(self) -> None:
        self.pacer.clear()
        self._lonely.stop()
        self.room.notice.clear()
        self.home.listening()
        self.banner.say("")
        self.game.set_dimmed(False)
        self.game.clear_result()
        self._close_rules()
        self.home.refresh_addresses()
        self.home.refresh_saves(self.net.data_dir)
        self.setWindowTitle("lanplay")
        self.stack.setCurrentWidget(self.home)
        self._touch()

    def _close_rules(self) -> None:
        self.rules_action.setEnabled(False)
        if self.rules_dialog is not None:
            self.rules_dialog.close()
