"""No Python exception ends the window: a slip is logged, said in one sentence, and
the party goes on.

PyQt6 ends the process (``qFatal``) on an exception raised in a slot or an event
handler, unless ``sys.excepthook`` is someone's own: then it calls that hook and
carries on. ``SlipGuard`` is that hook for the window's whole life (``ui.app.run``
installs it when the window starts). It writes the traceback whole to
``logs/window.log`` in the data folder (rotated, so it stays small), prints it too
under ``lanplay --verbose``, and shows the person one sentence in their language
over the window ("Something went wrong in the window; your game goes on. ...").
The connection, the seat and the table are untouched: only the one call that
slipped is lost. A second slip soon after is logged, never a second notice.

The same log takes what the window's tasks and the asyncio loop report as errors
(``logging`` records of ``ui`` and ``lanplay`` at ERROR and above), so one file
holds what went wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import logging.handlers
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from PyQt6.QtCore import Qt, QTimer
from PyQt6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QWidget

from ui.look import theme
from ui.look.widgets import label
from ui.words.i18n import _

LOG_NAME = "window.log"
LOG_BYTES = 256 * 1024
"""A log file this large is rotated: the window's log never grows past about 1 MB."""
LOG_KEEP = 3
QUIET_FOR = 30.0
"""Seconds after a notice in which another slip is logged but not said again."""
NOTICE_MS = 20000
"""How long the notice stays unless closed."""

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


def log_dir(data_dir: Path) -> Path:
    return data_dir / "logs"


class SlipNotice(QFrame):
    """The sentence over the window's top edge: floats over the page (it moves no
    control), goes by itself after a while or with its close button."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("slipNotice")
        theme.role(self, "banner")
        row = QHBoxLayout(self)
        row.setContentsMargins(14, 8, 8, 8)
        self.text = label("", wrap=True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.text, 1)
        self.close_button = QPushButton(_("Close"), self)
        self.close_button.clicked.connect(self.hide)
        row.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)
        self.hide()

    def say(self, text: str) -> None:
        self.text.setText(text)
        parent = self.parentWidget()
        if parent is not None:
            width = min(parent.width() - 24, max(420, parent.width() * 2 // 3))
            self.setFixedWidth(width)
            self.adjustSize()
            self.move((parent.width() - width) // 2, 12)
        self.show()
        self.raise_()
        self._timer.start(NOTICE_MS)


class SlipGuard:
    """Catches what would end the window; see the module's words."""

    def __init__(self, folder: Path, say: Callable[[str], None], *, verbose: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.folder = folder
        self.path = folder / LOG_NAME
        self._say = say
        self._verbose = verbose
        self._clock = clock
        self._said_at: float | None = None
        self.slips: list[str] = []
        """One line per slip since the start (the exception's type and words)."""
        self.said = 0
        """How many times the person was told (at most once per ``QUIET_FOR``)."""
        self._handler: logging.Handler | None = None
        self._previous: Any = None

    def install(self) -> None:
        """From now on, an exception in a slot or event handler comes here."""
        self._previous = sys.excepthook
        sys.excepthook = self.hook
        handler = self._open_log()
        if handler is not None:
            handler.setLevel(logging.ERROR)
            for name in ("ui", "lanplay"):
                logging.getLogger(name).addHandler(handler)
            self._handler = handler

    def uninstall(self) -> None:
        if sys.excepthook == self.hook:
            sys.excepthook = self._previous or sys.__excepthook__
        if self._handler is not None:
            for name in ("ui", "lanplay"):
                logging.getLogger(name).removeHandler(self._handler)
            self._handler.close()
            self._handler = None

    def watch_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """A callback on the event loop that raises is a slip too (the loop would only
        print it)."""
        loop.set_exception_handler(self._loop_error)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, BaseException):
            self.hook(type(exc), exc, exc.__traceback__)
        else:
            loop.default_exception_handler(context)

    def _open_log(self) -> logging.Handler | None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handler = logging.handlers.RotatingFileHandler(
                self.path, maxBytes=LOG_BYTES, backupCount=LOG_KEEP, encoding="utf-8",
                delay=True)
        except OSError:
            return None  # a read-only data folder: the notice still says it went wrong
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s "
                                               "%(message)s"))
        return handler

    def hook(self, kind: type[BaseException], value: BaseException,
             tb: TracebackType | None) -> None:
        """sys.excepthook: log it whole, say it once, carry on."""
        if issubclass(kind, KeyboardInterrupt | SystemExit):
            (self._previous or sys.__excepthook__)(kind, value, tb)
            return
        whole = "".join(traceback.format_exception(kind, value, tb))
        self.slips.append(f"{kind.__name__}: {value}")
        self._write(whole)
        if self._verbose:
            print(whole, file=sys.stderr, end="")
        now = self._clock()
        if self._said_at is not None and now - self._said_at < QUIET_FOR:
            return
        self._said_at = now
        self.said += 1
        try:
            self._say(_("Something went wrong in the window; your game goes on. The "
                        "details are in {path}.").format(path=self.path))
        except Exception:  # the notice itself must never be a second slip
            print(whole, file=sys.stderr, end="")

    def _write(self, text: str) -> None:
        handler = self._handler
        if handler is None:
            return
        record = logging.LogRecord("ui.slip", logging.ERROR, __file__, 0,
                                   "an exception in the window went unhandled:\n%s",
                                   (text.rstrip(),), None)
        with contextlib.suppress(Exception):  # a full disk: the log is lost, not the window
            handler.handle(record)


__all__ = ["SlipGuard", "SlipNotice", "log_dir"]
