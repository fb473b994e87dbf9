"""The window side of tests/test_accessibility.py: a real window on a real X display with
Qt's AT-SPI bridge on, showing every table screen of ``lanplay screenshots`` in turn.

For each screen it prints one JSON line (the screen's name, and the name of every
control and stand-in a person can act on now, as the window knows them), then waits
for a line on stdin: the test has walked the accessibility tree over D-Bus meanwhile.
"""

from __future__ import annotations

import json
import sys
import tempfile

from PyQt6.QtCore import QEvent, QSocketNotifier, QTimer
from PyQt6.QtWidgets import QAbstractButton, QApplication

from protocol.messages import Lobby
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.tables.keys import PieceButton
from ui.tools.screenshot_tables import screens
from ui.window.window import MainWindow


def main() -> None:
    app = QApplication(sys.argv)
    data = tempfile.TemporaryDirectory()
    net = NetConfig(interfaces=["127.0.0.1"], bind="127.0.0.1", port=0, save=False,
                    data_dir=data.name)
    window = MainWindow(Settings(name="Mia", colour="#E69F00"), net)
    window.resize(1024, 640)
    window.show()
    page = window.game
    window.stack.setCurrentWidget(page)
    wanted = sys.argv[1:]
    todo = [s for s in screens() if s.you is not None and s.result is None
            and (not wanted or s.name in wanted)]
    # (a spectator acts on nothing; the end screen has tests of its own)

    def show_next() -> None:
        """The next screen, then its line; the event loop runs on meanwhile, so the
        window answers the screen reader's questions over D-Bus."""
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        if not todo:
            print(json.dumps({"screen": None}), flush=True)
            app.quit()
            return
        screen = todo.pop(0)
        page.game_id = ""
        page.set_game(screen.game, "Mia")
        page.set_seats(screen.seats, screen.you, True)
        page.set_watching(False, Lobby("Mia", screen.game, screen.mode, {}, screen.seats,
                                       "playing"))
        for _ in range(3):
            app.processEvents()
        for view in screen.views:
            page.set_view(view, animate=False)
        board = getattr(page.table, "board", None)
        if screen.prepare is not None:
            screen.prepare(page.table)
        if board is not None and hasattr(board, "finish"):
            board.finish()
        for _ in range(3):
            app.processEvents()
        page.table.keys.sync()  # type: ignore[attr-defined]
        app.processEvents()
        buttons = [b for b in window.findChildren(QAbstractButton)
                   if b.isVisible() and b.isEnabled() and b.window() is window]
        print(json.dumps({
            "screen": screen.name,
            "pieces": [b.accessibleName() for b in buttons if isinstance(b, PieceButton)],
            "controls": [b.accessibleName() or b.text() for b in buttons
                         if not isinstance(b, PieceButton)],
        }), flush=True)

    def asked() -> None:
        if sys.stdin.readline():
            show_next()
        else:
            app.quit()  # the test is gone

    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(asked)
    QTimer.singleShot(0, show_next)
    app.exec()
    data.cleanup()


if __name__ == "__main__":
    main()
