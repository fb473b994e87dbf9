"""A table screen drawn as ``lanplay screenshots`` draws it, in a real window of a
screen's size, and read by the fit check: a fault's test sees what fit.json shows.

The window gets the size a screen gives it (``as_on_screen``: a 1024x640 screen's
1000x592, not the 1000x600 a plain resize kept offscreen), the text size and look the
window sets, and the screen's language.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PyQt6.QtWidgets import QApplication

from lanplay import locale
from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.tools import screenshot_tables
from ui.tools.fit import FitCheck, Problem
from ui.tools.screenshot_tables import TableScreen
from ui.tools.screenshots import as_on_screen, taught
from ui.window.window import MainWindow

SMALL = (1000, 592)
"""The window a 1024x640 screen gives lanplay (``place_on_screen``)."""


@contextmanager
def in_language(lang: str) -> Iterator[None]:
    locale.set_language(lang)
    try:
        yield
    finally:
        locale.set_language(None)  # conftest's LANPLAY_LANG=en


def screen_problems(qapp: QApplication, tmp: Path, screens: list[TableScreen],
                    size: tuple[int, int] = SMALL, lang: str = "en"
                    ) -> dict[str, list[Problem]]:
    """Each screen's problems, drawn in a window of ``size`` in ``lang``."""
    with drawn(qapp, tmp, screens, size, lang) as (_window, fit):
        return fit.screens


@contextmanager
def drawn(qapp: QApplication, tmp: Path, screens: list[TableScreen],
          size: tuple[int, int] = SMALL, lang: str = "en"
          ) -> Iterator[tuple[MainWindow, FitCheck]]:
    """The window with ``screens`` drawn in it (the last one still on show), and the
    fit check that read them; the window is gone, and the look put back, after."""
    font, sheet, palette = qapp.font(), qapp.styleSheet(), qapp.palette()
    with in_language(lang):
        window = MainWindow(Settings(name="Mia", colour="#E69F00", taught=taught()),
                            NetConfig(interfaces=["127.0.0.1"], bind="127.0.0.1", port=0,
                                      save=False, demo=True))
        try:
            window.show()
            as_on_screen(window, size)
            QApplication.processEvents()
            fit = FitCheck(size)
            with fit:
                screenshot_tables.render(window, screens, tmp, fit)
            yield window, fit
        finally:
            window.close()
            window.deleteLater()
            QApplication.processEvents()
            qapp.setStyleSheet(sheet)
            qapp.setFont(font)
            qapp.setPalette(palette)


def named(*names: str) -> list[TableScreen]:
    """The screenshots' table screens of these names."""
    found = [s for s in screenshot_tables.screens() if s.name in names]
    assert {s.name for s in found} == set(names), names
    return found
