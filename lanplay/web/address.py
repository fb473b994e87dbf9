"""Where the page is: its address on each of this machine's networks, and its QR code.

The room shows the first address as a QR code (a phone's camera opens it) and
every address as text; ``lanplay host`` prints them. segno makes the code (SVG,
PNG or text for a terminal) with no other dependency.
"""

from __future__ import annotations

import io

import segno


def page_url(address: str, web_port: int, path: str = "/") -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{web_port}{path}"


def page_urls(addresses: list[str], web_port: int) -> list[str]:
    """The page's address on each network (loopback only when there is no other)."""
    return [page_url(a, web_port) for a in addresses]


def _code(url: str) -> segno.QRCode:
    return segno.make(url, error="m", micro=False)


def qr_svg(url: str, scale: int = 8, dark: str = "#000000", light: str = "#ffffff") -> bytes:
    out = io.BytesIO()
    _code(url).save(out, kind="svg", scale=scale, border=3, dark=dark, light=light,
                    xmldecl=False)
    return out.getvalue()


def qr_png(url: str, scale: int = 6) -> bytes:
    out = io.BytesIO()
    _code(url).save(out, kind="png", scale=scale, border=3)
    return out.getvalue()


def qr_text(url: str) -> str:
    """The code in block characters, two rows a line, for a terminal."""
    out = io.StringIO()
    _code(url).terminal(out=out, compact=True)
    return out.getvalue()
