"""Shared test setup: Qt renders offscreen, no test may leak a task, and no test
binds one of lanplay's usual ports (a person's own window may be listening there)."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lanplay.host.ports import in_usual_range

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The suite reads English: a developer's German desktop must not turn every text it
# checks (tests that check another language say so, or set the variable themselves).
os.environ["LANPLAY_LANG"] = "en"

# Hosts save every game; tests (and the commands they start) must never write
# into the user's own data directory. A RAM disk when there is one: the same
# code runs, but an fsync there costs 0.3 ms instead of a disk's 15 ms.
RAM_DISK = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
if "LANPLAY_DATA_DIR" not in os.environ:
    _data = tempfile.mkdtemp(prefix="lanplay-test-data-", dir=RAM_DISK)
    os.environ["LANPLAY_DATA_DIR"] = _data
    atexit.register(shutil.rmtree, _data, True)


@pytest.fixture
def data_dir() -> Path:
    """A fresh data directory (for saves) inside the test run's own."""
    return Path(tempfile.mkdtemp(dir=os.environ.get("LANPLAY_DATA_DIR")))


_FIXED_BINDS: list[object] = []


def _watch_binds(event: str, args: tuple[Any, ...]) -> None:
    """Every bind in this process, seen through Python's audit events (the real
    sockets, nothing replaced): one to a usual lanplay port is remembered."""
    if event == "socket.bind" and len(args) > 1:
        address = args[1]
        if isinstance(address, tuple) and len(address) >= 2 \
                and isinstance(address[1], int) and in_usual_range(address[1]):
            _FIXED_BINDS.append(address)


sys.addaudithook(_watch_binds)


@pytest.fixture(autouse=True)
def no_fixed_port() -> Iterator[None]:
    """A test that binds 7531..7540 fails: those are the ports a person's own lanplay
    takes, so such a test fails (or disturbs a real room) whenever one is running.
    Tests find free ports instead (port 0, or ``first_port`` moved to free ones)."""
    _FIXED_BINDS.clear()
    yield
    bound, _FIXED_BINDS[:] = list(_FIXED_BINDS), []
    assert not bound, f"the test bound lanplay's usual ports: {bound}"


@pytest.fixture(autouse=True, scope="session")
def qt_application(qapp: Any) -> Any:
    """Every test process has its QApplication before its first test, in the style the
    window always draws in (Fusion: ``ui.look.theme.apply`` sets it). A test that lays
    out a table without asking for an application passed only after one that did, and
    aborted a fresh pytest-xdist worker whenever the scheduling gave it to one first;
    and the style, set by the first window a process made and never put back, gave a
    table's pieces other sizes depending on which tests had run before it (beside other
    heavy work the scheduling differs: a choice 740 px wide in a 718 px table, three of
    four discarded cards missing)."""
    qapp.setStyle("Fusion")
    return qapp



@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """Widgets a test hands to ``qtbot.addWidget`` live until its teardown has closed
    them (pytest-qt holds them weakly): a table shown at the top level and freed as the
    test function returned was deleted while exposed, and the events pytest-qt then
    processed crashed the process in ``QGraphicsView::paintEvent`` (a segmentation
    fault, every other test of that worker lost with it)."""
    from pytestqt import qtbot as qtbot_module

    kept: list[Any] = []
    original = qtbot_module._add_widget

    def add_widget(test_item: pytest.Item, widget: Any, **kwargs: Any) -> None:
        kept.append(widget)
        original(test_item, widget, **kwargs)

    qtbot_module._add_widget = add_widget  # type: ignore[assignment]
    try:
        return (yield)
    finally:
        qtbot_module._add_widget = original  # type: ignore[assignment]
        kept.clear()  # closed by now: they may go


@pytest.fixture(autouse=True)
def look_put_back(qt_application: Any) -> Iterator[None]:
    """Every test leaves the application's font, style sheet and palette as it found
    them. A window sets all three (``ui.look.theme``), and the tables lay out by the
    application's font (``ui.tables.look.default_px``): six window tests that did not
    ask for ``keep_look`` left them changed for every later test of their process, whose
    tables then had other sizes in some orders only. Put back here for every test, so
    no test's result depends on which ran before it."""
    app = qt_application
    font, sheet, palette = app.font(), app.styleSheet(), app.palette()
    yield
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)
    if app.font() != font:
        app.setFont(font)
    if app.palette() != palette:
        app.setPalette(palette)


@pytest.fixture()
def fit_type() -> Iterator[None]:
    """The window's text at 15 px, as in the fit check's screenshots; the font and the
    language are put back after."""
    from PyQt6.QtWidgets import QApplication

    from lanplay import locale

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    was = app.font()
    bigger = app.font()
    bigger.setPixelSize(15)
    app.setFont(bigger)
    try:
        yield
    finally:
        locale.set_language(None)
        app.setFont(was)
