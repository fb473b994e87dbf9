"""Each seat's badge: its colour and one to three characters, unique at the table.

One pure function of the seat list (the lobby's seat maps), so every laptop
draws the same mark for the same seat on the table, the pieces, the log, the
chat, the room and the end screen. Colour is never the only cue: the text
alone tells the seats apart, so two seats sharing a colour (more seats than
palette colours, a spectator's view of an old save) still differ.

The text is the name's initial; where initials collide, the seats that share
one add a second character: the number a name ends with ("Bot 2" -> "B2"),
else the name's next letter ("Ben" -> "Be"); if that still collides, every
seat of that initial takes its place among them ("A1", "A2", ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

FALLBACK = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
            "#FFFFFF")
"""A seat with no usable colour gets one by its number (Okabe-Ito, as the room's palette)."""


@dataclass(frozen=True)
class Badge:
    text: str
    """One to three characters: "A", "B2", "Be", "P12"."""
    colour: str
    """"#RRGGBB"."""


def initial(name: str) -> str:
    """The first letter or digit of ``name``, upper case ("?" for none)."""
    for char in name.strip():
        if char.isalnum():
            return char.upper()
    return "?"


def _number(name: str) -> str:
    """The number a name ends with ("Bot 12" -> "12"), or ""."""
    words = name.split()
    if len(words) > 1 and words[-1].isdigit():
        return words[-1][:2]
    return ""


def _second(name: str) -> str:
    """The next letter or digit after the initial ("Ben" -> "e"), or ""."""
    chars = [c for c in name.strip() if c.isalnum()]
    return chars[1].lower() if len(chars) > 1 else ""


def _colour(raw: Any, seat: int) -> str:
    text = str(raw) if isinstance(raw, str) else ""
    if len(text) == 7 and text.startswith("#"):
        try:
            int(text[1:], 16)
        except ValueError:
            pass
        else:
            return text.upper()
    return FALLBACK[seat % len(FALLBACK)]


def badges(seats: Sequence[Mapping[str, Any]]) -> list[Badge]:
    """One badge per seat, in seat order; no two texts alike."""
    names = [str(s.get("name") or f"Seat {i + 1}") for i, s in enumerate(seats)]
    firsts = [initial(n) for n in names]
    texts = list(firsts)
    groups: dict[str, list[int]] = {}
    for seat, first in enumerate(firsts):
        groups.setdefault(first, []).append(seat)
    for first, members in groups.items():
        if len(members) < 2:
            continue
        tried = [first + (_number(names[s]) or _second(names[s])) for s in members]
        if len(set(tried)) == len(tried) and all(len(t) > 1 for t in tried):
            chosen = tried
        else:
            chosen = [f"{first}{k}" for k in range(1, len(members) + 1)]
        for seat, text in zip(members, chosen, strict=True):
            texts[seat] = text
    return [Badge(text, _colour(seat.get("colour"), i))
            for i, (seat, text) in enumerate(zip(seats, texts, strict=True))]


def badge(seats: Sequence[Mapping[str, Any]], seat: int) -> Badge:
    """The badge of one seat (a seat beyond the list: its number, a fallback colour)."""
    if 0 <= seat < len(seats):
        return badges(seats)[seat]
    return Badge(str(seat + 1), FALLBACK[seat % len(FALLBACK)])


__all__ = ["FALLBACK", "Badge", "badge", "badges", "initial"]
