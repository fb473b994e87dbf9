"""Every dialog the window opens: one at a time, never blocking the event loop.

Host, join by address, a room's password, resume, change the game, the
questions before what cannot be undone, your name and colour, the rules
(F1), the pictures, and the replays (the list, the game just played, each in
a ``ReplayWindow`` of its own). A dialog only says what was chosen; what
follows goes back to the window through ``Opener``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, Protocol

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QDialog, QWidget

from lanplay.replay import files
from lanplay.replay.model import Replay, ReplayError
from ui.dialogs.confirm import Question, ask
from ui.dialogs.host_dialog import HostChoice, HostDialog
from ui.dialogs.identity import IdentityDialog
from ui.dialogs.join_dialog import JoinAddressDialog, PasswordDialog
from ui.dialogs.replays import ReplaysDialog
from ui.dialogs.resume_dialog import ResumeDialog
from ui.dialogs.rules_help import RulesDialog
from ui.look.widgets import fit_dialog
from ui.pages.game.page import GamePage
from ui.pages.home import HomePage
from ui.pages.replay_window import ReplayWindow
from ui.services.connection import NetConfig
from ui.services.last_game import LastGame
from ui.services.lifetime import Held
from ui.services.settings import Settings
from ui.window.joining import Joining
from ui.window.party import Party


class Opener(Protocol):
    """What the dialogs need of the window they open over."""

    home: HomePage
    game: GamePage
    settings: Settings
    net: NetConfig
    last_game: LastGame
    joining: Joining
    party: Party | None

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...
    def touch(self) -> None: ...
    def set_identity(self, name: str, colour: str) -> None: ...


def open_replay(parent: QWidget, replay: Replay, seat: int | None = None) -> ReplayWindow:
    """A window of its own for ``replay`` (the game's room stays as it is behind it)."""
    window = ReplayWindow(replay, parent, seat)
    window.show()
    window.raise_()
    window.activateWindow()
    return window


class Dialogs:
    """The window's dialogs: ``current`` is the one open (a new one closes it)."""

    def __init__(self, parent: QWidget, window: Opener) -> None:
        self.parent = parent
        self.window = window
        # Each dialog deletes itself when closed: held so that a deleted one reads None.
        self._current: Held[QDialog] = Held()
        self._rules: Held[RulesDialog] = Held()
        self.pictures: QDialog | None = None
        self._replays: list[Held[QWidget]] = []

    @property
    def current(self) -> Any:
        """The dialog open over the window, if any."""
        return self._current.get()

    @property
    def rules(self) -> RulesDialog | None:
        return self._rules.get()

    @property
    def replay_windows(self) -> list[QWidget]:
        """The replay windows open now."""
        return [w for held in self._replays if (w := held.get()) is not None]

    def open(self, dialog: Any) -> None:
        """Show a dialog without blocking the event loop (never ``exec``)."""
        if self.current is not None:
            self.current.close()
        self._current.set(dialog)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda *_: self._closed(dialog))
        fit_dialog(dialog, self.parent)
        dialog.open()
        self.window.touch()

    def _closed(self, dialog: Any) -> None:
        if self.current is dialog:
            self._current.set(None)
        self.window.touch()

    def ask(self, question: Question | None, then: Callable[[], None]) -> None:
        """``then`` at once where there is nothing to ask, else after a yes."""
        dialog = ask(self.parent, question, then)
        if dialog is not None:
            self.open(dialog)

    # --- the ways into a party ----------------------------------------------------------

    def host(self) -> None:
        w = self.window
        dialog = HostDialog(self.parent)
        dialog.chosen.connect(lambda choice: w.spawn(w.joining.host(choice)))
        self.open(dialog)

    def change_game(self) -> None:
        """The owner picks another game, mode or options for the open room."""
        party = self.window.party
        lobby = party.lobby if party is not None else None
        if party is None or lobby is None or not party.conn.peer.owner:
            return
        dialog = HostDialog(self.parent, lobby.game, room=True)
        dialog.preset(lobby.game, lobby.mode, dict(lobby.options))

        def chosen(choice: HostChoice) -> None:
            party.control("set_game", game=choice.game, mode=choice.mode,
                          options=choice.options)

        dialog.chosen.connect(chosen)
        self.open(dialog)

    def join_address(self) -> None:
        w = self.window
        dialog = JoinAddressDialog(self.parent)
        dialog.join.connect(lambda host, port: w.spawn(
            w.joining.join([host], port, f"{host}:{port}", dialog=dialog)))
        self.open(dialog)

    def password(self, host_name: str, addresses: Sequence[str], port: int,
                 error: str = "", spectate: bool = False) -> None:
        w = self.window
        dialog = PasswordDialog(host_name, self.parent, error)
        dialog.entered.connect(lambda pw: w.spawn(
            w.joining.join(addresses, port, host_name, password=pw, spectate=spectate)))
        self.open(dialog)

    def resume(self) -> None:
        w = self.window
        w.home.refresh_saves(w.net.data_dir)
        dialog = ResumeDialog(w.home.unfinished, self.parent)
        dialog.resume.connect(lambda path: w.spawn(w.joining.resume(path, dialog)))
        self.open(dialog)

    # --- who you are ----------------------------------------------------------------------

    def identity(self, first: bool) -> None:
        settings = self.window.settings
        dialog = IdentityDialog(settings.name, settings.colour, first, self.parent)
        dialog.chosen.connect(self.window.set_identity)
        self.open(dialog)

    # --- help: rules, pictures, replays -------------------------------------------------

    def show_rules(self, game: str | None) -> None:
        """F1: the rules of the game at the table (nothing where there is none)."""
        if game is None:
            return
        if self.rules is not None:
            self.rules.close()
        dialog = RulesDialog(game, self.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda *_: self._rules_closed(dialog))
        self._rules.set(dialog)
        fit_dialog(dialog, self.parent)
        dialog.show()
        self.window.touch()

    def _rules_closed(self, dialog: RulesDialog) -> None:
        if self.rules is dialog:
            self._rules.set(None)

    def close_rules(self) -> None:
        if self.rules is not None:
            self.rules.close()

    def show_pictures(self) -> None:
        """Help -> Pictures: everything the picture games draw from, packs included."""
        from ui.dialogs.content_browser import ContentBrowser  # reads the packs: on demand

        if self.pictures is None:
            self.pictures = ContentBrowser(parent=self.parent)
            fit_dialog(self.pictures, self.parent)
        self.pictures.show()
        self.pictures.raise_()
        self.window.touch()

    def replays(self) -> None:
        """Help -> Replays: the finished games on this laptop, each to go over again."""
        dialog = ReplaysDialog(files.finished_games(self.window.net.data_dir), self.parent)

        def chosen(path: Path) -> None:
            try:
                self._replaying(open_replay(self.parent, files.open_replay(path)))
            except ReplayError as exc:
                dialog.failed(exc.reason)
            else:
                dialog.accept()

        dialog.chosen.connect(chosen)
        self.open(dialog)

    def replay_last_game(self) -> None:
        """The end screen's "Replay": the game just played, from this laptop's seat."""
        try:
            self._replaying(open_replay(self.parent, self.window.last_game.replay()))
        except ReplayError as exc:
            self.window.game.set_end_status(exc.reason, can_play_again=True, waiting=False)

    def _replaying(self, window: QWidget) -> None:
        self._replays = [h for h in self._replays if h.get() is not None]
        self._replays.append(Held(window))
        self.window.touch()


__all__ = ["Dialogs", "Opener", "open_replay"]
