"""Running real windows in tests: asyncio on the Qt loop (qasync), as the app does.

A test body is a coroutine run by ``aloop`` on a qasync loop, so the window's
tasks, the hosts, zeroconf and the clicks all share one thread exactly as in
the app. Waiting is on the windows' ``changed`` events with a deadline, never
on luck.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import QPoint, Qt
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication, QWidget

from ui.services.connection import NetConfig
from ui.services.settings import Settings
from ui.tables.teach import STEPS
from ui.window.window import MainWindow

LOOPBACK = ["127.0.0.1"]
Runner = Callable[[Coroutine[Any, Any, Any], float], Any]


@contextlib.contextmanager
def looks_kept(qapp: QApplication) -> Iterator[None]:
    """Windows set the application's font, palette and stylesheet: put them back after,
    so later tests (the table's, say) see the platform's defaults."""
    font, sheet, palette = qapp.font(), qapp.styleSheet(), qapp.palette()
    try:
        yield
    finally:
        qapp.setStyleSheet(sheet)
        qapp.setFont(font)
        qapp.setPalette(palette)


@pytest.fixture
def keep_look(qapp: QApplication) -> Iterator[None]:
    with looks_kept(qapp):
        yield


@pytest.fixture
def aloop(qapp: QApplication) -> Iterator[Runner]:
    """``run(coro, timeout)`` on a fresh qasync loop; the application's look is kept."""
    with looks_kept(qapp):
        yield from _loop(qapp)


def _loop(qapp: QApplication) -> Iterator[Runner]:
    import qasync

    quit_on_close = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)

    def run(coro: Coroutine[Any, Any, Any], timeout: float) -> Any:
        return loop.run_until_complete(asyncio.wait_for(coro, timeout))

    try:
        yield run
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.close()
        asyncio.set_event_loop(None)
        qapp.setQuitOnLastWindowClosed(quit_on_close)
        assert not pending, f"tasks left running: {pending}"


def unique(name: str) -> str:
    """A host name no other test on this machine announces at the same time."""
    return f"{name} {os.getpid() % 100000}"


TAUGHT = tuple(STEPS)
"""Every tour (S-tier's modes each have one): the harness's windows have seen them."""


def window(tmp: Path, name: str, colour: str = "#56B4E9", **net: Any) -> MainWindow:
    settings = Settings(name=name, colour=colour, path=tmp / name / "settings.json",
                        taught=list(TAUGHT))  # the first-turn walkthroughs have their test
    net.setdefault("save", False)
    net.setdefault("pace", 0.0)  # views at once; the pacing tests ask for it
    config = NetConfig(interfaces=LOOPBACK, bind="127.0.0.1", port=0, bot_delay=0.0,
                       seed=7, **net)
    win = MainWindow(settings, config)
    win.resize(1280, 800)
    win.show()
    return win


async def close(*windows: MainWindow) -> None:
    """Leave every table (closing rooms), stop discovery, close the windows."""
    for win in windows:
        await win.shutdown()
        win.close()
        win.deleteLater()


async def until(predicate: Callable[[], bool], timeout: float, *windows: MainWindow) -> None:
    """Wait until ``predicate()`` holds, re-checking whenever a window changes."""
    events = [w.changed for w in windows if w.changed is not None]
    assert events, "start() the windows first"
    async with asyncio.timeout(timeout):
        while not predicate():
            for event in events:
                event.clear()
            waiters = [asyncio.ensure_future(e.wait()) for e in events]
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waiters:
                    waiter.cancel()
                # Cancelled is not yet done: let them finish, or a test that ends
                # right now leaves them behind (the teardown's "tasks left running").
                await asyncio.gather(*waiters, return_exceptions=True)


def click(widget: QWidget, pos: QPoint | None = None) -> None:
    """A real left click, delivered through Qt as a mouse would."""
    assert widget.isVisible() and widget.isEnabled(), f"{widget!r} cannot be clicked now"
    if pos is None:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
    else:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         pos)


def double_click(widget: QWidget, pos: QPoint) -> None:
    """Press and release, then the double-click press and release, as Qt sees a mouse."""
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    QTest.mouseDClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)


def type_and_enter(widget: QWidget, text: str) -> None:
    QTest.keyClicks(widget, text)
    QTest.keyClick(widget, Qt.Key.Key_Return)


def settle(rounds: int = 20) -> None:
    """Run Qt's posted events ``rounds`` times over: a layout that answers a resize with
    another resize settles in a few rounds, however loaded the machine (a wait of some
    milliseconds ran however many rounds the machine gave it: sometimes none)."""
    app = QApplication.instance()
    for _ in range(rounds):
        app.processEvents()  # type: ignore[union-attr]
