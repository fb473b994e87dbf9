"""Is this really a small PNG or SVG? Checked by content, before anything renders it.

Pictures come from pack folders people download and from hosts on the LAN,
so the bytes are untrusted: the size is capped, a PNG must start with its
signature and a sane header, an SVG must be well-formed XML with an <svg>
root that asks for a bounded amount of drawing and refers to nothing outside
itself (``lanplay.content.svg``).
"""

from __future__ import annotations

import struct

from lanplay.content import svg
from lanplay.content.model import ContentError

MAX_PICTURE_BYTES = 256 * 1024
"""Largest picture accepted: a Twemoji SVG is about 1.5 KB, a clear PNG tile
well under 100 KB; anything bigger slows every laptop that receives it."""

MAX_PNG_SIDE = 4096
KINDS = ("svg", "png")

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_SVG_NS = "{http://www.w3.org/2000/svg}svg"
_OTHER_FORMATS = (
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"RIFF", "a WebP (or other RIFF) file"),
    (b"BM", "a BMP image"),
    (b"%PDF", "a PDF"),
    (b"PK\x03\x04", "a zip archive"),
)


def sniff(data: bytes) -> str:
    """``png`` or ``svg`` for acceptable picture bytes; ContentError otherwise."""
    if len(data) > MAX_PICTURE_BYTES:
        raise ContentError(f"is {_kib(len(data))}; a picture may be at most "
                           f"{_kib(MAX_PICTURE_BYTES)}: shrink or simplify it")
    if not data:
        raise ContentError("is empty")
    if data.startswith(_PNG_MAGIC):
        _check_png(data)
        return "png"
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        _check_svg(data)
        return "svg"
    for magic, what in _OTHER_FORMATS:
        if data.startswith(magic):
            raise ContentError(f"is {what}; pictures must be PNG or SVG")
    raise ContentError("is not an image (neither PNG nor SVG)")


def _check_png(data: bytes) -> None:
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise ContentError("is a damaged PNG (no image header)")
    width, height = struct.unpack(">II", data[16:24])
    if not (0 < width <= MAX_PNG_SIDE and 0 < height <= MAX_PNG_SIDE):
        raise ContentError(f"is a PNG of {width}x{height} pixels; each side must be "
                           f"1 to {MAX_PNG_SIDE}")


def _check_svg(data: bytes) -> None:
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ContentError("is an SVG that is not UTF-8 text") from exc
    svg.check(data)


def _kib(size: int) -> str:
    return f"{size / 1024:.0f} KiB" if size >= 1024 else f"{size} bytes"
