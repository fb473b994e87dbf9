"""``lanplay --install-desktop``: lanplay in a Linux desktop's applications menu.

Writes a freedesktop.org desktop entry into ``$XDG_DATA_HOME/applications``
(``~/.local/share/applications`` by default) and the icon into the user's
hicolor icon theme beside it. The entry names the icon by its installed
absolute path, so it shows even where the theme has no index; and it starts
exactly the lanplay that wrote it: the one-file app itself (whose own files
vanish when it exits, hence the copied icon), the venv's ``lanplay`` script,
or ``python -m ui``. Needs no Qt: the icon PNGs are committed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

ICON_DIR = Path(__file__).resolve().with_name("icon")
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
APP_ID = "lanplay"
"""The desktop file's name and the window's desktop file name (Wayland's app id)."""


def icon_png(size: int) -> Path:
    return ICON_DIR / f"lanplay-{size}.png"


def icon_svg() -> Path:
    return ICON_DIR / "lanplay.svg"


def data_home(env: Mapping[str, str] | None = None) -> Path:
    """$XDG_DATA_HOME when it is an absolute path (the spec ignores others), else
    ~/.local/share."""
    env = os.environ if env is None else env
    value = env.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path(env.get("HOME") or Path.home()) / ".local" / "share"


def launch_command() -> list[str]:
    """How the menu starts this very lanplay."""
    if getattr(sys, "frozen", False):  # the one-file app: sys.executable is the app
        return [os.path.abspath(sys.executable)]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "lanplay" and script.is_file():
        return [str(script.resolve())]
    return [os.path.abspath(sys.executable), "-m", "ui"]  # the window's side


def exec_quote(arg: str) -> str:
    """One argument of a desktop entry's Exec key, quoted as the spec asks."""
    arg = arg.replace("%", "%%")
    if arg and not any(c in arg for c in " \t\n\"'\\><~|&;$*?#()`"):
        return arg
    escaped = "".join("\\" + c if c in "\"`$\\" else c for c in arg)
    return f'"{escaped}"'


def entry_text(command: Sequence[str], icon: Path) -> str:
    exec_line = " ".join(exec_quote(a) for a in command)
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.0",
        "Name=lanplay",
        "GenericName=LAN party games",
        "Comment=Tabletop games with the people in this room, on the same network",
        f"Exec={exec_line}",
        f"Icon={icon}",
        "Terminal=false",
        "Categories=Game;BoardGame;CardGame;",
        "Keywords=party;cards;board;LAN;multiplayer;",
        f"StartupWMClass={APP_ID}",
        "",
    ])


def _write(path: Path, data: bytes) -> None:
    """Atomically: a menu that reads the entry mid-write sees the old one or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def install(root: Path | None = None, command: Sequence[str] | None = None) -> Path:
    """Install the icons and the entry under ``root`` (the XDG data home); the entry's
    path. Raises OSError when the folder cannot be written."""
    root = data_home() if root is None else root
    icons = root / "icons" / "hicolor"
    for size in ICON_SIZES:
        _write(icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png",
               icon_png(size).read_bytes())
    _write(icons / "scalable" / "apps" / f"{APP_ID}.svg", icon_svg().read_bytes())
    icon = icons / "256x256" / "apps" / f"{APP_ID}.png"
    entry = root / "applications" / f"{APP_ID}.desktop"
    _write(entry, entry_text(command or launch_command(), icon).encode("utf-8"))
    return entry


def install_desktop(platform: str | None = None) -> int:
    """The command: install, or say what to do on a system without desktop entries."""
    platform = platform or sys.platform
    if platform == "win32":
        print("lanplay: --install-desktop is for Linux. On Windows, right-click lanplay.exe "
              "and choose \u201cPin to Start\u201d.", file=sys.stderr)
        return 2
    if platform == "darwin":
        print("lanplay: --install-desktop is for Linux. On macOS, drag lanplay.app into "
              "Applications.", file=sys.stderr)
        return 2
    command = launch_command()
    try:
        entry = install(command=command)
    except OSError as exc:
        print(f"lanplay: cannot write the desktop entry ({exc.strerror or exc}: "
              f"{exc.filename or data_home()}).", file=sys.stderr)
        return 1
    refresh = shutil.which("update-desktop-database")
    if refresh:
        import subprocess

        subprocess.run([refresh, "-q", str(entry.parent)], check=False, timeout=30)
    print(f"lanplay is in the applications menu now ({entry}); it starts "
          f"{' '.join(command)}. Run this again if you move lanplay.")
    return 0


__all__ = ["APP_ID", "ICON_DIR", "data_home", "entry_text", "exec_quote", "icon_png",
           "install", "install_desktop", "launch_command"]
