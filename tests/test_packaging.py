"""What installing lanplay leaves behind: ``--version``, the Linux menu entry, the icons.

The one-file app itself is built and tried by ``.ci/build-app`` and ``.ci/run``
(too slow for the suite); here the pieces it is made of.
"""

from __future__ import annotations

import configparser
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import lanplay
from protocol.messages import PROTOCOL_VERSION
from ui import desktop

ROOT = Path(__file__).resolve().parents[1]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def read_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


@pytest.mark.timeout(30)
def test_version_names_the_release_and_the_protocol() -> None:
    done = subprocess.run([sys.executable, "-m", "lanplay", "--version"], capture_output=True,
                          text=True, timeout=20, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"lanplay {lanplay.__version__} (protocol {PROTOCOL_VERSION})"


def test_the_package_version_is_read_from_one_place() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf-8")
    assert cfg["metadata"]["version"].strip() == "attr: lanplay.__version__"


def test_the_icon_comes_at_every_size_the_entry_and_window_use() -> None:
    for size in desktop.ICON_SIZES:
        assert png_size(desktop.icon_png(size)) == (size, size)
    assert b"<svg" in desktop.icon_svg().read_bytes()


@pytest.mark.timeout(30)
def test_windows_and_macos_icons_hold_each_size(qapp: object) -> None:
    from PyQt6.QtGui import QImageReader

    for name, sizes in (("lanplay.ico", [16, 24, 32, 48, 64, 128, 256]),
                        ("lanplay.icns", [16, 32, 64, 128, 256, 512, 1024])):
        reader = QImageReader(str(ROOT / "packaging" / name))
        found = []
        for i in range(reader.imageCount()):
            reader.jumpToImage(i)
            image = reader.read()
            assert not image.isNull(), f"{name} image {i}: {reader.errorString()}"
            found.append(image.width())
        assert sorted(found) == sizes, name


def test_the_entry_quotes_what_the_spec_asks() -> None:
    assert desktop.exec_quote("/opt/lanplay") == "/opt/lanplay"
    assert desktop.exec_quote("/home/mia/My Games/lanplay") == '"/home/mia/My Games/lanplay"'
    assert desktop.exec_quote('/a "b" $c`d\\e') == '"/a \\"b\\" \\$c\\`d\\\\e"'
    assert desktop.exec_quote("/100%/lanplay") == "/100%%/lanplay"


def test_the_desktop_entry_and_icons_land_in_the_xdg_data_home(tmp_path: Path) -> None:
    app = tmp_path / "My Games" / "lanplay"
    entry_path = desktop.install(tmp_path / "share", [str(app)])
    assert entry_path == tmp_path / "share" / "applications" / "lanplay.desktop"
    entry = read_entry(entry_path)
    assert entry["Type"] == "Application" and entry["Name"] == "lanplay"
    assert entry["Exec"] == f'"{app}"'
    assert entry["Terminal"] == "false" and "Game" in entry["Categories"].split(";")
    icon = Path(entry["Icon"])
    assert icon.is_absolute() and png_size(icon) == (256, 256)
    hicolor = tmp_path / "share" / "icons" / "hicolor"
    for size in desktop.ICON_SIZES:
        assert png_size(hicolor / f"{size}x{size}" / "apps" / "lanplay.png") == (size, size)
    assert (hicolor / "scalable" / "apps" / "lanplay.svg").read_bytes() == \
        desktop.icon_svg().read_bytes()
    validate = shutil.which("desktop-file-validate")
    if validate:
        done = subprocess.run([validate, str(entry_path)], capture_output=True, text=True,
                              timeout=20)
        assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr
    # Installing again replaces, and leaves no temporary files behind.
    desktop.install(tmp_path / "share", [str(app)])
    assert sorted(p.name for p in entry_path.parent.iterdir()) == ["lanplay.desktop"]


@pytest.mark.timeout(30)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="desktop entries are Linux's")
def test_install_desktop_command_writes_an_entry_that_starts_this_lanplay(
        tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "ui", "--install-desktop"],
                          capture_output=True, text=True, timeout=20, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    entry_path = tmp_path / "data" / "applications" / "lanplay.desktop"
    assert str(entry_path) in done.stdout
    entry = read_entry(entry_path)
    assert entry["Exec"] == f"{desktop.exec_quote(sys.executable)} -m ui"
    # A relative XDG_DATA_HOME is ignored, as the spec says: ~/.local/share instead.
    env["XDG_DATA_HOME"] = "relative/data"
    done = subprocess.run([sys.executable, "-m", "ui", "--install-desktop"],
                          capture_output=True, text=True, timeout=20, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / ".local" / "share" / "applications" / "lanplay.desktop").is_file()


def test_install_desktop_elsewhere_says_what_to_do_instead(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert desktop.install_desktop("win32") == 2
    assert "Pin to Start" in capsys.readouterr().err
    assert desktop.install_desktop("darwin") == 2
    assert "Applications" in capsys.readouterr().err


def test_an_unwritable_data_home_is_a_clear_error(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    assert desktop.install_desktop("linux") == 1
    err = capsys.readouterr().err
    assert "cannot write the desktop entry" in err and str(blocker) in err


NO_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>{cache}</cachedir></fontconfig>
"""
FONT_PROBE = """
import sys
from pathlib import Path
from PyQt6.QtGui import QFontMetrics
from PyQt6.QtWidgets import QApplication
from ui.look.fonts import ensure_fonts
app = QApplication([])
before = QFontMetrics(app.font()).inFont("A")
added = ensure_fonts(app, Path(sys.argv[1]))
print(before, added, QFontMetrics(app.font()).inFont("A"), app.font().family())
"""
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


@pytest.mark.timeout(60)
@pytest.mark.skipif(not (DEJAVU / "DejaVuSans.ttf").is_file(), reason="needs fonts-dejavu-core")
def test_a_system_without_fonts_gets_the_carried_ones(tmp_path: Path) -> None:
    carried = tmp_path / "fonts"  # what the one-file app carries
    carried.mkdir()
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        shutil.copy(DEJAVU / name, carried / name)
    config = tmp_path / "fonts.conf"
    config.write_text(NO_FONTS.format(cache=tmp_path / "cache"), encoding="utf-8")
    env = {**os.environ, "FONTCONFIG_FILE": str(config), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", FONT_PROBE, str(carried)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=50)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True", "DejaVu", "Sans"]
    # With the system's fonts, nothing is added.
    env.pop("FONTCONFIG_FILE")
    done = subprocess.run([sys.executable, "-c", FONT_PROBE, str(carried)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=50)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:3] == ["True", "False", "True"]


def test_the_window_icon_has_every_drawn_size(qapp: object) -> None:
    from PyQt6.QtCore import QSize

    from ui.app import app_icon

    sizes = app_icon().availableSizes()
    assert sorted(s.width() for s in sizes) == list(desktop.ICON_SIZES)
    assert QSize(256, 256) in sizes


def test_install_desktop_is_an_option_of_the_window_side_only(
        capsys: pytest.CaptureFixture[str]) -> None:
    from lanplay import cli
    from ui import main

    with pytest.raises(SystemExit):
        main.main(["--help"])
    assert "--install-desktop" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["--help"])  # the headless core knows nothing of menus
    assert "--install-desktop" not in capsys.readouterr().out
