"""The first start from a terminal: the window where there is no display, a Qt platform
plugin that cannot load, a quiet start (and ``--verbose``), and ``--data-dir`` for the
window with the settings inside that folder.

The command runs as a person runs it: the venv's ``lanplay`` script in a subprocess,
with the environment it would have (no display, no offscreen platform), and the test
reads what it printed and its exit code.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ui_harness import Runner, aloop, click, close, until  # noqa: F401

from lanplay.store import folders
from ui import display
from ui.services.settings import Settings

LANPLAY = str(Path(sys.executable).with_name("lanplay"))
DISPLAY_VARS = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_SESSION_TYPE",
                "QT_LOGGING_RULES", "QT_DEBUG_PLUGINS", "QT_QPA_PLATFORM_PLUGIN_PATH")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="X11 and Wayland displays are Linux's")


def env_without_display(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in DISPLAY_VARS}
    env.update(LANPLAY_DATA_DIR=str(tmp / "data"), PYTHONUNBUFFERED="1", **extra)
    return env


def lanplay(env: dict[str, str], *args: str, timeout: float = 60
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LANPLAY, *args], capture_output=True, text=True, env=env,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def one_sentence(done: subprocess.CompletedProcess[str]) -> str:
    """The refusal: exit 2, nothing on stdout, one line on stderr, no abort."""
    assert done.returncode == 2, (done.returncode, done.stderr)  # not 134 / -6 (abort)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "core dumped" not in done.stderr
    assert lines[0].startswith("lanplay: ")
    return lines[0]


# --- no display ---------------------------------------------------------------------


@linux_only
@pytest.mark.timeout(60)
def test_no_display_is_one_sentence_and_exit_2_not_a_core_dump(tmp_path: Path) -> None:
    done = lanplay(env_without_display(tmp_path))
    line = one_sentence(done)
    assert line == ("lanplay: No display found: start lanplay on the laptop's desktop, or use "
                    "`lanplay host GAME --headless` / `lanplay join ADDRESS --bot`.")
    assert "xcb-cursor" not in done.stderr  # Qt's guess, wrong where it is installed
    german = lanplay(env_without_display(tmp_path), "--lang", "de")
    assert "lanplay host GAME --headless" in one_sentence(german)
    assert one_sentence(german) != line


def free_display() -> str:
    """An X display number no server listens on here (":N" means a Unix socket only)."""
    n = 90 + os.getpid() % 500
    while Path(f"/tmp/.X11-unix/X{n}").exists() or Path(f"/tmp/.X{n}-lock").exists():
        n += 1
    return f":{n}"


@linux_only
@pytest.mark.timeout(60)
def test_a_display_that_does_not_answer_is_named_in_one_sentence(tmp_path: Path) -> None:
    where = free_display()
    line = one_sentence(lanplay(env_without_display(tmp_path, DISPLAY=where)))
    assert line.startswith(f"lanplay: No display answers at {where}: ")
    assert "lanplay host GAME --headless" in line


@pytest.mark.timeout(60)
def test_a_platform_plugin_qt_does_not_have_is_named(tmp_path: Path) -> None:
    line = one_sentence(lanplay(env_without_display(tmp_path, QT_QPA_PLATFORM="nosuchscreen")))
    assert "\u201cnosuchscreen\u201d" in line and "QT_QPA_PLATFORM" in line


PLUGIN_CHILD = """
import sys
from ui import quiet
quiet.install()
from PyQt6.QtCore import QCoreApplication
QCoreApplication.setLibraryPaths([sys.argv[1]])  # only the copied plugin is found
from PyQt6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
print("the window opened")
"""


def _qt_dir() -> Path:
    import PyQt6

    return Path(PyQt6.__file__).resolve().parent / "Qt6"


@linux_only
@pytest.mark.timeout(60)
def test_a_platform_plugin_missing_a_library_names_it_as_the_loader_does(
        tmp_path: Path) -> None:
    # A real xcb plugin whose one needed library is really missing: a copy of Qt's
    # own, its dependency on libxcb-cursor.so.0 renamed (same length: the ELF stays
    # sound) to a library no system has, beside Qt's libraries as in the wheel.
    plugin = _qt_dir() / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        pytest.skip("this PyQt6 has no xcb plugin")
    body = plugin.read_bytes()
    if body.count(b"libxcb-cursor.so.0") != 1:
        pytest.skip("this xcb plugin does not name libxcb-cursor.so.0 once")
    root = tmp_path / "qt"
    (root / "plugins" / "platforms").mkdir(parents=True)
    (root / "lib").symlink_to(_qt_dir() / "lib")  # the plugin's RUNPATH: $ORIGIN/../../lib
    (root / "plugins" / "platforms" / "libqxcb.so").write_bytes(
        body.replace(b"libxcb-cursor.so.0", b"libxcb-cursxx.so.0"))
    env = env_without_display(tmp_path, QT_QPA_PLATFORM="xcb", DISPLAY=free_display())
    done = subprocess.run([sys.executable, "-c", PLUGIN_CHILD, str(root / "plugins")],
                          capture_output=True, text=True, env=env, timeout=60,
                          cwd=Path(__file__).resolve().parents[1], stdin=subprocess.DEVNULL)
    line = one_sentence(done)
    assert "\u201cxcb\u201d" in line
    assert "(libxcb-cursxx.so.0: cannot open shared object file: No such file or " \
           "directory)" in line


def test_there_is_a_display_where_one_is_named_and_always_on_windows_and_macos() -> None:
    assert display.no_display({}, "linux") == display.no_display_text()
    for env in ({"DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"},
                {"QT_QPA_PLATFORM": "offscreen"}):
        assert display.no_display(env, "linux") is None, env
    assert display.no_display({"DISPLAY": ""}, "linux") is not None
    assert display.no_display({}, "win32") is None
    assert display.no_display({}, "darwin") is None


# --- a quiet start ---------------------------------------------------------------------


SOUND_CHILD = """
import sys
if sys.argv[1] != "raw":
    from ui import quiet
    quiet.install(verbose=sys.argv[1] == "verbose")
from PyQt6.QtWidgets import QApplication
from ui.services.sound import Sound
app = QApplication(sys.argv[:1])
sound = Sound()
sound.play("turn")  # asks Qt Multimedia for the audio outputs: its backends load
print("played", file=sys.stderr)
"""


def _sound_run(mode: str, tmp: Path) -> list[str]:
    env = env_without_display(tmp, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", SOUND_CHILD, mode], capture_output=True,
                          text=True, env=env, timeout=60, stdin=subprocess.DEVNULL,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[-1:] == ["played"], done.stderr
    return lines[:-1]


@pytest.mark.timeout(90)
def test_qt_multimedia_says_nothing_unless_verbose(tmp_path: Path) -> None:
    raw = _sound_run("raw", tmp_path)  # what Qt prints by itself (PipeWire, VA-API, ...)
    assert _sound_run("quiet", tmp_path) == []
    verbose = _sound_run("verbose", tmp_path)
    assert set(raw) <= set(verbose), set(raw) - set(verbose)
    if any("pipewire" in line for line in raw):  # this machine has the usual noise
        assert any(line.startswith("qt.multimedia") for line in verbose)


@pytest.mark.timeout(90)
def test_a_start_of_the_window_prints_nothing_and_verbose_prints_qts_words(
        tmp_path: Path) -> None:
    env = env_without_display(tmp_path, QT_QPA_PLATFORM="offscreen",
                              LANPLAY_QUIT_AFTER_START="1")
    done = lanplay(env)
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == ("", "")
    loud = lanplay(env, "--verbose")
    assert loud.returncode == 0, loud.stderr
    raw = _sound_run("raw", tmp_path)
    startup = [line for line in raw if "pipewire" in line]  # said as the library loads
    assert all(line in loud.stderr.splitlines() for line in startup), loud.stderr


# --- --data-dir for the window, and the settings in it ----------------------------------


@pytest.mark.timeout(90)
def test_the_window_takes_data_dir_and_keeps_its_settings_there(tmp_path: Path) -> None:
    env = env_without_display(tmp_path, QT_QPA_PLATFORM="offscreen",
                              LANPLAY_QUIT_AFTER_START="1")
    mine = tmp_path / "mine"
    done = lanplay(env, "--data-dir", str(mine))
    assert done.returncode == 0, done.stderr  # before: "invalid choice: '--data-dir'"
    assert (done.stdout, done.stderr) == ("", "")
    assert (mine / "window.ini").is_file()  # the window's place, saved as it closed
    assert not (tmp_path / "data" / "window.ini").exists()  # not LANPLAY_DATA_DIR's
    also = lanplay(env)  # LANPLAY_DATA_DIR alone: its settings live there too
    assert also.returncode == 0, also.stderr
    assert (tmp_path / "data" / "window.ini").is_file()
    file = tmp_path / "a file"
    file.write_text("not a folder")
    line = one_sentence(lanplay(env, "--data-dir", str(file)))
    assert line == f"lanplay: --data-dir {file} is a file, not a folder."


@pytest.mark.timeout(90)
def test_data_dir_goes_before_or_after_the_host_command(tmp_path: Path) -> None:
    env = env_without_display(tmp_path)
    for where, args in (("before", ["--data-dir", str(tmp_path / "before"), "host"]),
                        ("after", ["host", "--data-dir", str(tmp_path / "after")])):
        done = lanplay(env, *args, "alles-klar", "--headless", "--bots", "2", "--players",
                       "2", "--bot-delay", "0", "--port", "0", "--bind", "127.0.0.1",
                       "--no-announce", "--seed", "3")
        assert done.returncode == 0, done.stderr
        saved = tmp_path / where / "saves"
        assert f"Every move is saved in {saved}" in done.stdout
        assert list((saved / "history").glob("*")), f"the finished game is filed ({where})"


def test_settings_follow_the_data_folder_so_two_folders_are_two_people(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANPLAY_CONFIG_DIR", raising=False)
    monkeypatch.setenv("LANPLAY_DATA_DIR", str(tmp_path / "env"))
    mia = Settings.load()
    assert mia.path == tmp_path / "env" / "settings.json" and mia.first_run
    mia.name = "Mia"
    mia.save()
    with folders.chosen(tmp_path / "other"):  # a second window: --data-dir other
        second = Settings.load()
        assert second.path == tmp_path / "other" / "settings.json"
        assert second.first_run, "another data folder is another person: the welcome"
        assert folders.data_dir() == tmp_path / "other"
    assert Settings.load().name == "Mia"
    monkeypatch.setenv("LANPLAY_CONFIG_DIR", str(tmp_path / "config"))
    assert Settings.load().path == tmp_path / "config" / "settings.json"  # it wins
    monkeypatch.delenv("LANPLAY_CONFIG_DIR")
    monkeypatch.delenv("LANPLAY_DATA_DIR")
    with folders.chosen(None):
        assert folders.chosen_dir() is None
        assert Settings.load().path != tmp_path / "env" / "settings.json"  # the platform's


@pytest.mark.timeout(60)
def test_a_second_window_with_its_own_data_folder_asks_for_its_own_name(
        tmp_path: Path, aloop: Runner, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from ui.dialogs.identity import IdentityDialog
    from ui.services.connection import NetConfig
    from ui.window.window import MainWindow

    monkeypatch.delenv("LANPLAY_CONFIG_DIR", raising=False)
    first = tmp_path / "first"
    Settings(name="Mia", path=first / "settings.json").save()

    async def start(folder: Path) -> MainWindow:
        with folders.chosen(folder):  # as `lanplay --data-dir FOLDER` runs the window
            win = MainWindow(None, NetConfig(interfaces=["127.0.0.1"], save=False))
        win.show()
        await win.start()
        return win

    async def scenario() -> None:
        mia = await start(first)
        other = await start(tmp_path / "second")
        try:
            assert mia.settings.name == "Mia" and mia.dialog is None  # no welcome again
            assert other.settings.first_run and other.home.you.text() != "Mia"
            assert isinstance(other.dialog, IdentityDialog)  # the welcome: a new person
        finally:
            await close(mia, other)

    aloop(scenario(), 50)


# --- demo rooms ----------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_the_screenshots_window_lists_and_announces_demo_rooms_that_no_real_window_lists(
        aloop: Runner, tmp_path: Path) -> None:  # noqa: F811
    from lanplay.host import Host, HostConfig
    from lanplay.net.discovery import Browser
    from ui.dialogs.host_dialog import HostDialog
    from ui.services.connection import NetConfig
    from ui.window.window import MainWindow

    tag = os.getpid()
    loopback = ["127.0.0.1"]

    async def scenario() -> None:
        real = Browser(interfaces=loopback)  # a real window's list, on the same laptop
        await real.start()
        ben = Host("alles-klar", config=HostConfig(
            host_name=f"Ben's laptop {tag}", bind="127.0.0.1", port=0, announce=True,
            demo=True, interfaces=loopback, save=False))
        friend = Host("alles-klar", config=HostConfig(
            host_name=f"a real room {tag}", bind="127.0.0.1", port=0, announce=True,
            interfaces=loopback, save=False))
        net = NetConfig(interfaces=loopback, bind="127.0.0.1", port=0, save=False, demo=True,
                        bot_delay=0.0, pace=0.0)
        win = MainWindow(Settings(name=f"Mia {tag}", colour="#E69F00"), net)
        win.show()
        try:
            await win.start()
            await ben.start()
            click(win.home.host)  # the demo window hosts a room of its own
            dialog = win.dialog
            assert isinstance(dialog, HostDialog)
            dialog.select_game("alles-klar")
            click(dialog.host)
            await until(lambda: win.lobby is not None, 15, win)
            await friend.start()
            demos = {f"Ben's laptop {tag}", f"Mia {tag}"}

            def listed() -> set[str]:
                return {h.host_name for h in win.home._found.values()}

            await until(lambda: demos <= listed(), 15, win)
            assert await real.wait_for(
                lambda hs: any(h.host_name == f"a real room {tag}" for h in hs.values()), 15)
            assert not demos & {h.host_name for h in real.hosts.values()}
            assert f"a real room {tag}" not in listed()
        finally:
            await close(win)
            await friend.stop()
            await ben.stop()
            await real.stop()

    aloop(scenario(), 50)
