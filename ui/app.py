"""The window's entry point: Qt and asyncio on one thread through qasync.

``run`` builds the application, shows the main window and runs the event
loop until the window is closed; closing first leaves the table (closing our
room, if we host one) and stops discovery, then the loop ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys

from PyQt6.QtWidgets import QApplication

from ui.window import MainWindow


async def _main(window: MainWindow) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C closes the room politely too
        with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
            loop.add_signal_handler(sig, window.close)
    await window.start()
    assert window.done is not None
    try:
        await window.done.wait()
    finally:
        await window.shutdown()


def run() -> int:
    import qasync

    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setApplicationName("lanplay")
    app.setQuitOnLastWindowClosed(False)  # the loop ends after the goodbyes, not before
    window = MainWindow()
    window.show()
    qasync.run(_main(window))
    return 0
