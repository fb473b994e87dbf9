"""``python -m lanplay.tools.compile_locales``: every ``.po`` under lanplay/locale to its ``.mo``.

The ``.mo`` files are build products, kept out of git: ``.ci/build-app`` runs
this before PyInstaller so the one-file app carries them (its spec collects
every data file of the package), and a wheel built after it ships them
(setup.cfg's package_data names ``*.mo``). Nothing else needs it: a checkout,
an editable install or a wheel without ``.mo`` files still loads every
catalogue, since ``lanplay.locale.translation`` compiles a ``.po`` in memory
when no ``.mo`` at least as new lies beside it. Pure Python (``lanplay.locale.po``),
so Windows and macOS builds need no GNU gettext.

    python -m lanplay.tools.compile_locales           # write the .mo files
    python -m lanplay.tools.compile_locales --clean   # remove them
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lanplay.locale import DIR, po


def sources(root: Path = DIR) -> list[Path]:
    return sorted(root.glob("*/LC_MESSAGES/*.po"))


def compile_all(root: Path = DIR) -> list[Path]:
    """Write each catalogue's ``.mo`` beside it; a broken ``.po`` raises PoError
    naming the file and line, before anything is written."""
    compiled = [(path.with_suffix(".mo"),
                 po.compile_mo(po.parse(path.read_text(encoding="utf-8"), str(path))))
                for path in sources(root)]
    for target, data in compiled:
        target.write_bytes(data)
    return [target for target, _ in compiled]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lanplay.tools.compile_locales",
                                     description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--clean", action="store_true", help="remove the compiled .mo files")
    args = parser.parse_args(argv)
    if args.clean:
        for path in sorted(DIR.glob("*/LC_MESSAGES/*.mo")):
            path.unlink()
        return 0
    try:
        written = compile_all()
    except po.PoError as exc:
        print(f"compile_locales: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"compile_locales: {path.relative_to(DIR.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
