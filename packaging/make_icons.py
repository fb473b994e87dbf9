"""Render lanplay's icon (ui/icon/lanplay.svg) to the files each system wants.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py

writes ui/icon/lanplay-N.png (the window and the Linux desktop entry),
packaging/lanplay.ico (Windows: the exe's icon) and packaging/lanplay.icns
(macOS: the .app's icon). Both containers hold PNG images, which Windows
Vista and later and macOS 10.7 and later read; they are packed here by hand
so no image tool beyond Qt is needed. The outputs are committed: a build
needs no Qt run before PyInstaller.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PyQt6.QtCore import QBuffer, QIODevice, Qt
from PyQt6.QtGui import QGuiApplication, QImage, QPainter
from PyQt6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "ui" / "icon" / "lanplay.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
              (b"ic09", 512), (b"ic10", 1024))


def png(renderer: QSvgRenderer, size: int) -> bytes:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data().data())


def ico(images: dict[int, bytes]) -> bytes:
    """ICONDIR, one ICONDIRENTRY per size (0 means 256), then the PNGs."""
    head = struct.pack("<HHH", 0, 1, len(images))
    offset = len(head) + 16 * len(images)
    entries, blobs = b"", b""
    for size, data in images.items():
        side = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
        blobs += data
    return head + entries + blobs


def icns(images: list[tuple[bytes, bytes]]) -> bytes:
    body = b"".join(kind + struct.pack(">I", 8 + len(data)) + data for kind, data in images)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"cannot read {SVG}", file=sys.stderr)
        return 1
    rendered = {size: png(renderer, size) for size in {*PNG_SIZES, *ICO_SIZES, 1024}}
    for size in PNG_SIZES:
        (SVG.parent / f"lanplay-{size}.png").write_bytes(rendered[size])
    (ROOT / "packaging" / "lanplay.ico").write_bytes(ico({s: rendered[s] for s in ICO_SIZES}))
    (ROOT / "packaging" / "lanplay.icns").write_bytes(
        icns([(kind, rendered[size]) for kind, size in ICNS_TYPES]))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
