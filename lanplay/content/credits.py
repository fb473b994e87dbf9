"""Who made the pictures: the attribution the Twemoji licence asks for."""

from __future__ import annotations

from pathlib import Path

LICENSES = Path(__file__).resolve().parent / "LICENSES"


def about_text() -> str:
    """Plain text for the About box and the content browser."""
    return (
        "Pictures: Twemoji, copyright Twitter, Inc. and other contributors "
        "(https://github.com/jdecked/twemoji), licensed under CC BY 4.0 "
        "(https://creativecommons.org/licenses/by/4.0/). The SVG files come from the "
        "npm package @twemoji/svg 15.0.0 (MIT licence, copyright Samuel Kopp) and are "
        "used unchanged. Licence texts: lanplay/content/LICENSES/."
    )
