"""After a Linux build: is everything the window needs inside dist/lanplay?

Every file of lanplay, ui and protocol that is not code (pictures, rules
help, licences, icons, and whatever is added later, sounds or catalogues),
the licences, the fallback fonts, and the Qt parts named in the spec. Reads
the one-file app's table of contents; prints what is missing and exits 1.

    .venv/bin/python packaging/check_app.py dist/lanplay
"""

from __future__ import annotations

import sys
from pathlib import Path

from PyInstaller.archive.readers import CArchiveReader

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("lanplay", "ui", "protocol")
NEEDED = (
    "licenses/lanplay/LICENSE",
    "licenses/PyQt6-Qt6",
    "fonts/DejaVuSans.ttf",
    "fonts/DejaVuSans-Bold.ttf",
    "PyQt6/QtSvg.abi3.so",
    "PyQt6/QtMultimedia.abi3.so",
    "PyQt6/Qt6/plugins/platforms/libqxcb.so",
    "PyQt6/Qt6/plugins/platforms/libqoffscreen.so",
    "PyQt6/Qt6/plugins/platforms/libqwayland.so",
    "PyQt6/Qt6/plugins/imageformats/libqsvg.so",
    "PyQt6/Qt6/plugins/iconengines/libqsvgicon.so",
    # Compiled by .ci/build-app (not in git, so data_files() alone would not ask).
    "lanplay/locale/de/LC_MESSAGES/lanplay-content.mo",
    "lanplay/locale/es/LC_MESSAGES/lanplay-content.mo",
    "lanplay/locale/de/LC_MESSAGES/lanplay.mo",
    "lanplay/locale/es/LC_MESSAGES/lanplay.mo",
)


def data_files() -> list[str]:
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            if path.is_file() and path.suffix not in (".py", ".pyc") \
                    and "__pycache__" not in path.parts:
                out.append(path.relative_to(ROOT).as_posix())
    return out


def main(app: str) -> int:
    names = set(CArchiveReader(app).toc)
    wanted = data_files()
    missing = [n for n in wanted if n not in names]
    missing += [n for n in NEEDED if n not in names and not any(
        m.startswith(n + "/") for m in names)]
    if missing:
        print(f"check_app: {len(missing)} missing from {app}: {', '.join(missing[:20])}",
              file=sys.stderr)
        return 1
    print(f"check_app: {app} carries all {len(wanted)} data files of "
          f"{', '.join(PACKAGES)} and the {len(NEEDED)} parts the window needs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "dist/lanplay"))
