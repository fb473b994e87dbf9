"""A start of the window that prints only what a person needs.

Qt and its multimedia backends talk on every start: PipeWire and VA-API
libraries they looked for and did without, a sound server that is not
running. All harmless, and all noise in a terminal. ``install`` sets Qt's
logging rules (``QLoggingCategory.setFilterRules``; a ``QT_LOGGING_RULES``
of the person's own still wins) so those categories stay silent, and a
message handler that keeps Qt's remaining warnings to itself, unless
``--verbose`` (or ``QT_LOGGING_RULES`` / ``QT_DEBUG_PLUGINS``: someone asked
Qt to talk). It remembers Qt's last words either way: when no platform plugin
starts, Qt's fatal message becomes ``ui.display``'s one sentence and exit
code 2 instead of an abort and a core dump.

Call it before anything imports Qt Multimedia (``ui.services.sound`` does, at
import): some of the noise is made while the library loads.
"""

from __future__ import annotations

import collections
import logging
import os
import sys
from typing import Any

QUIET_RULES = "\n".join([
    "qt.multimedia*=false",  # PipeWire, VA-API, FFmpeg: libraries looked for at load
    "qt.qpa.*.debug=false",
])
"""Categories a normal start keeps silent (Qt's own rules syntax)."""

EXIT_NO_WINDOW = 2

_said: collections.deque[str] = collections.deque(maxlen=40)
"""Qt's latest messages (``category: text``), for the sentence when a plugin fails."""
_verbose = False
_handler: Any = None
"""The installed handler (kept: Qt holds only a pointer to it)."""


def install(verbose: bool = False) -> None:
    """Quiet Qt down for this process (``verbose``: every message, as Qt prints it)."""
    global _verbose, _handler
    from PyQt6.QtCore import QLoggingCategory, qInstallMessageHandler

    asked = bool(os.environ.get("QT_LOGGING_RULES") or os.environ.get("QT_DEBUG_PLUGINS"))
    _verbose = verbose or asked
    if not _verbose:
        QLoggingCategory.setFilterRules(QUIET_RULES)
    else:
        logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    _handler = _on_message
    qInstallMessageHandler(_handler)


def _on_message(kind: Any, context: Any, message: str | None) -> None:
    from PyQt6.QtCore import QtMsgType

    category = getattr(context, "category", None) or "default"
    text = message or ""
    line = text if category == "default" else f"{category}: {text}"
    _said.append(line)
    if kind == QtMsgType.QtFatalMsg:
        if "platform plugin" in text:
            _no_platform(line)
        print(line, file=sys.stderr, flush=True)
        return  # Qt aborts: a fatal that is not about the platform is a bug to see
    if _verbose or kind == QtMsgType.QtCriticalMsg:
        print(line, file=sys.stderr, flush=True)


def _no_platform(fatal: str) -> None:
    """Say what stopped the platform plugin and end here, exit 2, before Qt aborts."""
    from pathlib import Path

    from PyQt6.QtCore import QCoreApplication, QLibraryInfo

    from ui import display

    # where Qt looked: QT_QPA_PLATFORM_PLUGIN_PATH, then each library path's platforms/
    env = os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "")
    roots = [*QCoreApplication.libraryPaths(),
             QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)]
    dirs = [Path(d) for d in env.split(os.pathsep) if d] + \
        [Path(root) / "platforms" for root in roots]
    try:
        sentence = display.plugin_problem(list(_said), dirs)
    except Exception as exc:  # the diagnosis must never be what crashes
        sentence = f"{fatal.splitlines()[0]} ({type(exc).__name__})"
    if _verbose:
        print(fatal, file=sys.stderr)
    print(f"lanplay: {sentence}", file=sys.stderr, flush=True)
    os._exit(EXIT_NO_WINDOW)


def said() -> list[str]:
    """Qt's latest messages (for tests and ``--verbose`` reports)."""
    return list(_said)


__all__ = ["EXIT_NO_WINDOW", "QUIET_RULES", "install", "said"]
