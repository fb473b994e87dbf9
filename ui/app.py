"""The window's entry point: Qt and asyncio on one thread through qasync.

``run`` builds the application, shows the main window and runs the event
loop until the window is closed; closing first leaves the table (closing our
room, if we host one) and stops discovery, then the loop ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys

from PyQt6.QtGui import QIcon
from PyQt6.QtWidgets import QApplication

from ui import desktop
from ui.look import fonts
from ui.services.settings import Settings
from ui.window.window import MainWindow
from ui.words import i18n
from ui.words.i18n import _


def app_icon() -> QIcon:
    """lanplay's icon at every size it was drawn for (the window, the task bar)."""
    icon = QIcon()
    for size in desktop.ICON_SIZES:
        icon.addFile(str(desktop.icon_png(size)))
    return icon


async def _main(window: MainWindow) -> None:
    loop = asyncio.get_running_loop()
    if window.guard is not None:
        window.guard.watch_loop(loop)
    for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C closes the room politely too
        with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
            loop.add_signal_handler(sig, window.close_now)
    await window.start()
    if os.environ.get("LANPLAY_QUIT_AFTER_START"):  # `time` the start to the window
        window.close_now()
    assert window.done is not None
    try:
        await window.done.wait()
    finally:
        await window.shutdown()


def run(settings: Settings | None = None, verbose: bool = False) -> int:
    import qasync

    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    fonts.ensure_fonts(app)  # before the theme reads the application's font
    app.setApplicationName("lanplay")
    app.setDesktopFileName(desktop.APP_ID)  # Wayland matches the window to the menu entry
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)  # the loop ends after the goodbyes, not before
    settings = settings if settings is not None else Settings.load()
    i18n.start(settings)  # --lang, LANPLAY_LANG, the language chosen here, the system's
    i18n.install_qt(app)
    window = MainWindow(settings)
    window.guard_slips(verbose)  # from here on, no Python exception ends the window
    window.show()
    try:
        qasync.run(_main(window))
    except RuntimeError as exc:
        closing = window.done is not None and window.done.is_set()
        if closing and "Event loop stopped" not in str(exc):
            raise
        # Qt stopped the loop under us: the display went away (an X server that died),
        # before the window closed or while it said its goodbyes (a session that ends
        # sends every window TERM and takes the display away at once)
        from ui import quiet

        said = next((line for line in reversed(quiet.said()) if "X11" in line
                     or "display" in line.lower()), "")
        print("lanplay: " + _("The window lost its display and closed{said}.").format(
            said=f" ({said})" if said else ""), file=sys.stderr)
        return 1
    finally:
        if window.guard is not None:
            window.guard.uninstall()
    return 0
