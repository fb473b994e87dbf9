"""Pack folders for the content tests: a valid one, and the pieces to break it."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36">'
       b'<circle cx="18" cy="18" r="16" fill="#cc3333"/>'
       b'<rect x="10" y="10" width="16" height="6" fill="#ffffff"/></svg>')


def png_bytes(width: int = 32, height: int = 32, rgba: tuple[int, int, int, int] =
              (40, 120, 200, 255), noise: bool = False, seed: int = 0) -> bytes:
    """A real PNG (8-bit RGBA); ``noise`` makes it incompressible, hence large."""
    import random

    rng = random.Random(f"{width}x{height}:{seed}")
    rows = []
    for _ in range(height):
        if noise:
            row = rng.randbytes(width * 3)
            pixels = b"".join(row[i:i + 3] + b"\xff" for i in range(0, len(row), 3))
        else:
            pixels = bytes(rgba) * width
        rows.append(b"\x00" + pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


VALID_TOML = """\
name = "Office party"
author = "The IT crowd"
description = "Things from our office."

[[pictures]]
id = "stapler"
name = "Red stapler"
file = "stapler.svg"
scores = { value = 2, size = 1, danger = 1, usefulness = 8 }

[[pictures]]
id = "mug"
name = "Coffee mug"
file = "mug.png"
category = "object"

[[pictures]]
id = "printer"
name = "Printer"
file = "printer.png"
scores = { noise = 9, fun = 0 }

[[questions]]
text = "What would you rather have on your desk?"
side = "red"
axis = { usefulness = 1, noise = -0.5 }

[[questions]]
id = "loud"
text = "What is more annoying in a meeting?"
axis = "noise"

[[topics]]
text = "Best thing to bring to the Monday meeting"
axis = "fun"

[[topics]]
text = "Most likely to go missing"
"""


def write_pack(folder: Path, toml: str = VALID_TOML,
               files: dict[str, bytes] | None = None) -> Path:
    """A pack folder with ``pack.toml`` and its pictures; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.toml").write_text(toml, encoding="utf-8")
    defaults = {"stapler.svg": SVG, "mug.png": png_bytes(),
                "printer.png": png_bytes(48, 40, (90, 90, 90, 255))}
    for name, data in (defaults if files is None else files).items():
        (folder / name).write_bytes(data)
    return folder
