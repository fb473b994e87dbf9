"""Letters on a system with no fonts: the one-file app carries DejaVu Sans.

Qt draws text with the system's fonts (fontconfig on Linux). A Linux with no
font installed at all (a minimal container, a kiosk image) would show every
letter as a box, so the Linux app carries DejaVu Sans, regular and bold,
under ``fonts/`` beside its other files (Windows and macOS always have
fonts). They are registered only when the default font cannot draw an "A".
"""

from __future__ import annotations

import sys
from pathlib import Path

from PyQt6.QtGui import QFont, QFontDatabase, QFontMetrics
from PyQt6.QtWidgets import QApplication

FAMILY = "DejaVu Sans"


def carried_dir() -> Path | None:
    """The fonts the one-file app brought (None when running from source)."""
    base = getattr(sys, "_MEIPASS", None)
    return Path(base) / "fonts" if base else None


def ensure_fonts(app: QApplication, folder: Path | None = None) -> bool:
    """Register the carried fonts if the system has none; whether it did."""
    if QFontMetrics(app.font()).inFont("A"):
        return False
    folder = folder or carried_dir()
    if folder is None or not folder.is_dir():
        return False
    added = [QFontDatabase.addApplicationFont(str(path)) for path in sorted(folder.glob("*.ttf"))]
    if not any(i >= 0 for i in added):
        return False
    font = QFont(app.font())
    font.setFamily(FAMILY)
    app.setFont(font)
    return True


__all__ = ["carried_dir", "ensure_fonts"]
