"""Whether the window can open here, and the one sentence that says why not.

Qt aborts (a core dump, exit 134) when no platform plugin starts, and its
message blames a library that may well be installed ("xcb-cursor0 or
libxcb-cursor0 is needed"). So the window's entry point asks first
(``no_display``): on Linux and the other X11 or Wayland systems no
``DISPLAY``, no ``WAYLAND_DISPLAY`` and no ``QT_QPA_PLATFORM`` is an SSH
session, a server or a container. Where a plugin still fails (a display that
does not answer, a library that is missing), ``plugin_problem`` reads Qt's own
messages and asks the system's loader what is missing, in its own words.
No Qt here: this runs before Qt is loaded, and ``ui.quiet`` hands it Qt's words.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from ui.words.i18n import _

INSTEAD = "`lanplay host GAME --headless` / `lanplay join ADDRESS --bot`"
"""What works without a display (the commands themselves are never translated)."""

_PLUGIN = re.compile(r'Qt platform plugin "([^"]*)" in "([^"]*)"')
_NOT_FOUND = re.compile(r'Could not find the Qt platform plugin "([^"]*)"')


def no_display(environ: Mapping[str, str] | None = None,
               platform: str | None = None) -> str | None:
    """The sentence for a start with no display to open the window on; None when
    there may be one (Windows and macOS always have theirs)."""
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    if platform.startswith("win") or platform == "darwin":
        return None
    if env.get("QT_QPA_PLATFORM") or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    runtime = env.get("XDG_RUNTIME_DIR")
    if env.get("XDG_SESSION_TYPE") == "wayland" and runtime \
            and (Path(runtime) / "wayland-0").exists():
        return None  # Qt finds Wayland's default socket by itself
    return no_display_text()


def no_display_text() -> str:
    return _("No display found: start lanplay on the laptop's desktop, or use "
             "{instead}.").format(instead=INSTEAD)


def plugin_problem(messages: Sequence[str], plugin_dirs: Iterable[Path] = (),
                   environ: Mapping[str, str] | None = None,
                   load: Callable[[Path], str | None] | None = None) -> str:
    """What stopped Qt's platform plugin, in one sentence, from Qt's own ``messages``
    (``category: text``, the fatal one last): the library the system's loader cannot
    find (``load`` a plugin file: its error, or None when it loads), else a display
    that does not answer, else what Qt said."""
    env = os.environ if environ is None else environ
    load = load or dlopen_error
    text = "\n".join(messages)
    missing = _NOT_FOUND.search(text)
    if missing:
        return _("The window cannot open: Qt has no platform plugin \u201c{plugin}\u201d "
                 "(QT_QPA_PLATFORM={plugin}); unset QT_QPA_PLATFORM, or use "
                 "{instead}.").format(plugin=missing.group(1), instead=INSTEAD)
    found = _PLUGIN.search(text)
    name = found.group(1) if found else (env.get("QT_QPA_PLATFORM") or "xcb")
    dirs = ([Path(found.group(2)) / "platforms", Path(found.group(2))]
            if found and found.group(2) else [])
    for path in _plugin_files(name, [*dirs, *plugin_dirs]):
        error = load(path)
        if error:
            return _("The window cannot open: Qt's \u201c{plugin}\u201d platform plugin "
                     "does not load ({error}); install the library it names (the "
                     "README's install line lists them all), or use {instead}.").format(
                         plugin=name, error=error, instead=INSTEAD)
    if re.search(r"could not connect to display|Failed to create wl_display|"
                 r"cannot open display", text, re.IGNORECASE):
        where = env.get("WAYLAND_DISPLAY") if name.startswith("wayland") \
            else env.get("DISPLAY")
        return _("No display answers at {display}: start lanplay on the laptop's "
                 "desktop, or use {instead}.").format(
                     display=where or _("the default display"), instead=INSTEAD)
    said = next((line.split(": ", 1)[-1] for line in reversed(messages[:-1])
                 if "xcb-cursor0" not in line and line.strip()), "")
    return _("The window cannot open: Qt's \u201c{plugin}\u201d platform plugin did not "
             "start ({said}); use {instead}.").format(
                 plugin=name, said=said or _("Qt said no more"), instead=INSTEAD)


def _plugin_files(name: str, dirs: Iterable[Path]) -> list[Path]:
    seen: list[Path] = []
    for folder in dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            stem = path.name.split(".")[0]
            if stem in (f"libq{name}", f"q{name}") and path not in seen:
                seen.append(path)
    return seen


def dlopen_error(path: Path) -> str | None:
    """What the system's loader says when it loads ``path``: the library it cannot
    find, for example (None when it loads)."""
    import ctypes

    try:
        ctypes.CDLL(str(path))
    except OSError as exc:
        return str(exc).strip() or None
    return None


__all__ = ["INSTEAD", "dlopen_error", "no_display", "no_display_text", "plugin_problem"]
