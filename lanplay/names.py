"""Names people choose, made safe to show and to print, and unique in a room.

A name comes from the other side of the network and ends up in every window
and on the host's terminal, so it must not carry what would fool either: a
NUL or an ESC sequence (``A\\x00B\\x1b[31mC``: terminal escape injection), CR
or LF (a forged log line), an RTL override (text shown backwards) or a
zero-width space (two names that look the same). ``clean`` removes every
control and format character (Unicode Cc and Cf) and line or paragraph
separators, turns any other run of white space into one space, normalises to
NFC, trims, and caps the length. A name with nothing left falls back to a
neutral one (``Player``) rather than being refused: the person still gets in
and can see what the room calls them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MAX_NAME = 24
"""Characters in a seat's name, a suffix like " (2)" included."""

FALLBACK = "Player"
RESERVED = frozenset({"spectator", "lanplay", "the host"})
"""Names the program itself uses for someone (chat from a spectator, the
window's own notices, moves made by the host): a seat may not take them."""

_DROP = frozenset({"Cc", "Cf", "Cs"})


def clean(text: str, limit: int | None = MAX_NAME) -> str:
    """``text`` with controls and format characters removed, white space folded,
    NFC, trimmed and cut to ``limit`` characters (None: no cut). May be empty."""
    kept: list[str] = []
    space = False
    for ch in text:
        if ch.isspace():  # tab, CR, LF, the line separators, every Zs space
            space = True
            continue
        if unicodedata.category(ch) in _DROP:
            continue
        if space and kept:
            kept.append(" ")
        space = False
        kept.append(ch)
    out = unicodedata.normalize("NFC", "".join(kept))
    if limit is not None:
        out = out[:limit].rstrip()
    return out


def name(text: str) -> str:
    """A cleaned seat name, ``FALLBACK`` when nothing printable is left."""
    return clean(text) or FALLBACK


def unique(wanted: str, taken: Iterable[str]) -> str:
    """``wanted`` (already clean), or ``wanted (2)``, ``(3)``... if another seat has
    it, compared without case ("ann" is taken by "Ann"), or if it is reserved.
    The base is shortened so that the whole stays within ``MAX_NAME``."""
    used = {t.casefold() for t in taken} | RESERVED
    if wanted.casefold() not in used:
        return wanted
    n = 2
    while True:
        suffix = f" ({n})"
        candidate = wanted[:MAX_NAME - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in used:
            return candidate
        n += 1


def printable(text: str) -> str:
    """``text`` safe to print on a terminal or in a log line: nothing it holds can
    move the cursor, change colours or start a new line. Not cut."""
    return clean(text, None)
