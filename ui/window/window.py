"""The main window: its chrome (size and place, text size, language, menus and keys)
and the stack of pages, Home, the room, the game and the page for a table that is gone.

It owns the Browser (the live list of hosts), the dialogs (``Dialogs``), the
ways into a party (``Joining``), at most one ``Party`` (our seat at a table,
and the Host when we host) and every task it starts; the pages only render
and emit what the player asked for. Nothing here blocks: connecting, hosting
and leaving are asyncio tasks on the Qt thread (qasync).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from PyQt6.QtCore import QByteArray, QEvent, QPoint, QRect, QSettings, QSize, Qt
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
    QApplication,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from lanplay import locale
from lanplay.net.discovery import DEMO_SERVICE, SERVICE, Browser, FoundHost
from lanplay.store import folders
from protocol.messages import Lobby
from ui.dialogs.confirm import Question
from ui.look import theme
from ui.look.widgets import Banner, press_on_enter
from ui.pages.game.page import GamePage
from ui.pages.gone import GonePage
from ui.pages.home import HomePage
from ui.pages.room import RoomPage
from ui.services.connection import Connection, NetConfig
from ui.services.last_game import LastGame
from ui.services.pacing import Pacer
from ui.services.seats import KeptSeats
from ui.services.settings import MAX_SCALE, MIN_SCALE, Settings
from ui.services.sound import Sound
from ui.window.dialogs import Dialogs
from ui.window.handing import Handing
from ui.window.joining import Joining
from ui.window.party import Party
from ui.window.slips import SlipGuard, SlipNotice, log_dir
from ui.words.i18n import NAMES, _, in_language

log = logging.getLogger(__name__)

DEFAULT_SIZE = QSize(1280, 800)
SMALLEST = QSize(960, 600)
"""The least the window shrinks to where the screen allows (every table works there)."""
FRAME = QSize(24, 48)
"""A window manager's border and title bar, which a window's size does not include."""
CLOSE_WITHIN = 10.0
"""Seconds the goodbyes may take when the window closes; then it closes anyway."""
LONELY_AFTER = 60.0
"""Seconds a hosted room may stay without another person before the window says
why the others may not find it."""


def smallest_in(room: QSize) -> QSize:
    """The least the window shrinks to where a screen leaves it ``room``: SMALLEST, or
    all of the room on a smaller screen (a 1024x640 screen's 1000x592)."""
    return QSize(min(SMALLEST.width(), room.width()), min(SMALLEST.height(), room.height()))


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None, net: NetConfig | None = None) -> None:
        super().__init__()
        self.settings = settings if settings is not None else Settings.load()
        self.net = net or NetConfig()
        self._applied_scale = self.settings.scale
        theme.apply(self.settings.scale)  # before any widget exists, so all take it
        app = QApplication.instance()
        if isinstance(app, QApplication):
            press_on_enter(app)  # Enter presses a focused button, on every page and dialog
        self.setWindowTitle("lanplay")
        self.place_on_screen()
        self.party: Party | None = None
        """Our seat at a table, while there is one."""
        self.browser = Browser(interfaces=self.net.interfaces,
                               service=DEMO_SERVICE if self.net.demo else SERVICE)
        self.changed: asyncio.Event | None = None
        self.done: asyncio.Event | None = None
        """Set once the window has said its goodbyes and closed."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.lonely_after = LONELY_AFTER
        self._closed = False
        """Saying goodbye has begun (the window closes when it is done)."""
        self._close_confirmed = False
        self._gone = False
        """The goodbyes are said: a close now closes."""
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
        self.slip_notice = SlipNotice(body)
        self.guard: SlipGuard | None = None
        """Catches what would end the window (``guard_slips``; ``ui.app.run`` installs it)."""
        self.home = HomePage()
        self.room = RoomPage()
        self.game = GamePage()
        self.gone = GonePage()
        for page in (self.home, self.room, self.game, self.gone):
            self.stack.addWidget(page)
        self.sound = Sound(self.settings.sound, self)
        self.last_game = LastGame()
        path = self.settings.path  # the seats this window holds, kept beside the settings
        self.seats = KeptSeats.load(path.parent if path is not None else None)
        self.joining = Joining(self)
        self.dialogs = Dialogs(self, self)
        self.browser.add_listener(self._on_found)
        self._wire_pages()
        self._menus()
        self.handing = Handing(self)  # the Room menu: the room outlives this laptop
        self._shortcuts()

    def _wire_pages(self) -> None:
        """What the pages ask of the window itself (the party at the table wires the
        rest: ``Party.begin``)."""
        self.game.set_sound(self.settings.sound)
        self.game.sound_toggled.connect(self._set_sound)
        self.game.tick.connect(lambda: self.sound.play("tick"))
        self.home.set_identity(self.settings.name, self.settings.colour)
        self.home.host_clicked.connect(self.dialogs.host)
        self.home.join_address_clicked.connect(self.dialogs.join_address)
        self.home.join_requested.connect(self.joining.found)
        self.home.kept = self.seats.for_room
        self.seats.changed.append(self.home.refresh_kept)
        self.home.resume_clicked.connect(self.dialogs.resume)
        self.home.refresh_saves(self.net.data_dir)
        self.home.identity_clicked.connect(lambda: self.ask_identity(first=False))
        for page in (self.room, self.game):
            page.rules.connect(self.show_rules)
            page.change_game.connect(self.dialogs.change_game)
        self.game.end.replay.connect(self.dialogs.replay_last_game)
        self.gone.home.clicked.connect(self.go_home)

    # --- what the tests and tools read of the party and the dialogs ---------------------

    @property
    def conn(self) -> Connection | None:
        return self.party.conn if self.party is not None else None

    @property
    def lobby(self) -> Lobby | None:
        return self.party.lobby if self.party is not None else None

    @property
    def pacer(self) -> Pacer | None:
        return self.party.pacer if self.party is not None else None

    @property
    def dialog(self) -> Any:
        """The dialog open over the window, if any."""
        return self.dialogs.current

    @property
    def rules_dialog(self) -> QWidget | None:
        return self.dialogs.rules

    @property
    def replay_windows(self) -> list[QWidget]:
        return self.dialogs.replay_windows

    @property
    def pictures(self) -> QWidget | None:
        return self.dialogs.pictures

    def guard_slips(self, verbose: bool = False) -> SlipGuard:
        """From now on an exception in a slot or an event handler is logged in the data
        folder and said in one sentence; the window and its party go on."""
        if self.guard is None:
            self.guard = SlipGuard(log_dir(folders.data_dir(self.net.data_dir)),
                                   self.slip_notice.say, verbose=verbose)
            self.guard.install()
        return self.guard

    @property
    def slips(self) -> list[str]:
        """The slips caught since the window started (none without a guard)."""
        return self.guard.slips if self.guard is not None else []

    # --- menus, keys, settings: who you are and the language -----------------------------

    def _menus(self) -> None:
        menu = self.menuBar()
        assert menu is not None
        self._settings_menu(menu)
        help_menu = menu.addMenu(_("&Help"))
        assert help_menu is not None
        rules = help_menu.addAction(_("Rules of this game") + "\tF1")
        pictures = help_menu.addAction(_("Pictures, questions and topics\u2026"))
        replays = help_menu.addAction(_("Replays of finished games\u2026"))
        assert rules is not None and pictures is not None and replays is not None
        self.rules_action: QAction = rules
        self.rules_action.triggered.connect(self.show_rules)
        self.rules_action.setEnabled(False)  # until there is a game to explain
        self.pictures_action: QAction = pictures
        self.pictures_action.triggered.connect(self.dialogs.show_pictures)
        self.replays_action: QAction = replays
        self.replays_action.triggered.connect(self.dialogs.replays)

    def _shortcuts(self) -> None:
        # object: Quit's slot is ``close``, whose bool Qt drops
        shortcuts: list[tuple[QKeySequence | str, Callable[[], object]]] = [
            (QKeySequence(Qt.Key.Key_F1), self.show_rules),
            (QKeySequence(QKeySequence.StandardKey.ZoomIn), lambda: self.zoom(1.1)),
            ("Ctrl+=", lambda: self.zoom(1.1)),
            (QKeySequence(QKeySequence.StandardKey.ZoomOut), lambda: self.zoom(1 / 1.1)),
            ("Ctrl+0", lambda: self.zoom(0)),
        ]
        # The platform's Quit (Cmd+Q on a Mac) and Ctrl+Q everywhere, each once: the
        # same key twice would be ambiguous, and neither would fire.
        quits = {k.toString(): k for k in
                 [*QKeySequence.keyBindings(QKeySequence.StandardKey.Quit),
                  QKeySequence("Ctrl+Q")]}
        shortcuts += [(key, self.close) for key in quits.values()]
        for keys, slot in shortcuts:
            shortcut = QShortcut(QKeySequence(keys), self)  # this window's, not the app's
            shortcut.activated.connect(slot)

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
        self.dialogs.open(box)

    def ask_identity(self, first: bool) -> None:
        self.dialogs.identity(first)

    def set_identity(self, name: str, colour: str) -> None:
        self.settings.name, self.settings.colour = name, colour
        self.settings.save()
        self.home.set_identity(name, colour)
        self.touch()

    def _set_sound(self, on: bool) -> None:
        self.sound.enabled = on
        self.settings.sound = on
        self.settings.save()

    def open_host_dialog(self) -> None:
        self.dialogs.host()

    def open_join_dialog(self) -> None:
        self.dialogs.join_address()

    def show_rules(self) -> None:
        lobby = self.lobby
        self.dialogs.show_rules(lobby.game if lobby is not None else None)

    # --- where the window opens, and its text size -----------------------------------

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
        self.setMinimumSize(smallest_in(room))
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
        if self.party is not None:
            party, self.party = self.party, None
            await party.close("closed the window")
        await self.browser.stop()
        me = asyncio.current_task()  # shutdown may itself run as one of our tasks
        while others := [t for t in self._tasks if t is not me]:
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)
            self._tasks.difference_update(others)

    def closeEvent(self, event: QCloseEvent | None) -> None:
        """The close box, Ctrl+Q and the system's quit: ask what Leave (or Close the
        room) asks where it affects others, then say goodbye to the table, then close.
        The window stays until the goodbyes are said (within ``CLOSE_WITHIN``), so a
        process never runs on without its window."""
        if self._gone or self._shut or event is None:
            return  # the goodbyes are said: close for real
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        event.ignore()
        if self._closed:
            return  # already saying goodbye
        question = self.party.leave_question() if self.party is not None else None
        if question is not None and not self._close_confirmed:
            self.dialogs.ask(question, self._confirm_close)
            return
        self.close_now()

    def _confirm_close(self) -> None:
        self._close_confirmed = True
        self.close_now()

    def close_now(self) -> None:
        """Say goodbye to the table and close, without asking (the terminal's Ctrl-C,
        SIGTERM, or a question already answered)."""
        if self._closed:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._closed = True
        self.save_geometry()
        self.spawn(self._close_after_shutdown())

    def changeEvent(self, event: QEvent | None) -> None:
        super().changeEvent(event)
        if event is not None and event.type() == QEvent.Type.ActivationChange:
            self.touch()  # shortcuts follow the active window; waiters may care

    async def _close_after_shutdown(self) -> None:
        try:
            async with asyncio.timeout(CLOSE_WITHIN):
                await self.shutdown()
        except Exception:  # whatever went wrong, the window closes
            log.exception("the goodbyes did not finish; closing anyway")
        finally:
            self._gone = True
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
        self.touch()

    def touch(self) -> None:
        """Something a waiter may care about changed (``wait_until``)."""
        if self.changed is not None:
            self.changed.set()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float) -> None:
        """Wait for ``predicate()`` as the window changes; TimeoutError if it does not."""
        assert self.changed is not None, "start() the window first"
        async with asyncio.timeout(timeout):
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

    # --- the party: what it asks of the window (``ui.window.party.Stage``) ---------------

    def at_table(self) -> bool:
        return self.party is not None

    def enter(self, conn: Connection) -> None:
        """A connection was opened: it becomes the party at the table."""
        self.party = Party(conn, self)
        self.handing.attach(conn)
        self.party.begin()

    def leave(self) -> None:
        if self.party is None:
            self.go_home()
            return
        self.party.leave()

    def release(self, party: Party) -> None:
        """``party`` no longer holds the table (it is leaving, or its connection ended)."""
        if self.party is party:
            self.party = None

    def party_over(self, party: Party, reason: str | None, title: str = "") -> None:
        """A party ended: we left (Home) or the table is gone (say why)."""
        if self.party is not None:
            return  # another party sits at the table already
        if reason is None:
            self.go_home()
            return
        self.banner.say("")
        self.game.set_dimmed(False)
        self.rules_available(False)
        self.gone.say(reason, title)
        self.stack.setCurrentWidget(self.gone)
        self.touch()

    def show_page(self, page: QWidget) -> None:
        self.stack.setCurrentWidget(page)

    def page_shown(self) -> QWidget | None:
        return self.stack.currentWidget()

    def set_title(self, title: str) -> None:
        self.setWindowTitle(title)

    def rules_available(self, available: bool) -> None:
        self.rules_action.setEnabled(available)
        if not available:
            self.dialogs.close_rules()

    def ask(self, question: Question | None, then: Callable[[], None]) -> None:
        self.dialogs.ask(question, then)

    def tell(self, text: str) -> None:
        """A word from this window itself, in the chat of the room and the table."""
        self.room.chat.add("lanplay", "", text)
        self.game.add_chat("lanplay", "", text)
        self.touch()

    def ask_password(self, host_name: str, addresses: Sequence[str], port: int,
                     error: str = "", spectate: bool = False) -> None:
        self.dialogs.password(host_name, addresses, port, error, spectate)

    def _on_found(self, kind: str, host: FoundHost) -> None:
        self.home.on_host(kind, host)
        self.touch()

    def go_home(self) -> None:
        self.room.notice.clear()
        self.home.listening()
        self.banner.say("")
        self.game.set_dimmed(False)
        self.game.clear_result()
        self.rules_available(False)
        self.home.refresh_addresses()
        self.home.refresh_saves(self.net.data_dir)
        self.setWindowTitle("lanplay")
        self.stack.setCurrentWidget(self.home)
        self.touch()


__all__ = ["MainWindow"]
