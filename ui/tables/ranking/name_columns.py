"""Names under a row of tiles, each in a column of its own: a name wider than its
tile's share of the row borrows the width its neighbours' shorter names leave.

Five tiles on one floor of a 1024x640 screen's window gave each name a fifth of the
floor (64 px): "Schwamm" (78 px, one syllable, no break allowed) came out "Schwa…"
while "Koch" beside it took 36. Where every name fits its share, nothing moves; where
the row cannot hold them all whole, neither (the fit check then says so).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ui.tables.ranking.items import TileItem

STEP = 2.0
"""Pixels a column grows by while looking for the width a name fits in."""


def spread(items: Sequence[TileItem], left: float, right: float, gap: float) -> bool:
    """Give the names of ``items`` (one row, left to right, names under the pictures)
    columns within ``left``..``right`` (scene x), ``gap`` apart, each as close under its
    picture as the others allow. Whether the columns changed."""
    fitted = [item.fit_under(item.name_room) for item in items]
    if all(f.fits for f in fitted):
        return False
    widths = []
    for item, fit in zip(items, fitted, strict=True):
        if fit.fits:  # the width its lines take (fitted again there: the same lines)
            widths.append(min(item.name_room, fit.width() + 1.0))
            continue
        need = least_width(item, right - left)
        if need is None:
            return False
        widths.append(need)
    centres = [item.x() + item.size / 2 for item in items]
    xs = place(centres, widths, left, right, gap)
    for whole in (True, False):  # the others give up their larger type, then a break
        if xs is not None:
            break
        shrunk = shrink(items, [f.fits for f in fitted], widths,
                        lambda w: place(centres, w, left, right, gap) is not None, whole)
        if shrunk is not None:
            widths = shrunk
            xs = place(centres, widths, left, right, gap)
    if xs is None:
        return False
    for item, x, width in zip(items, xs, widths, strict=True):
        item.set_name_column(x - item.x(), width)
    return True


def least_width(item: TileItem, most: float) -> float | None:
    """The narrowest column wider than the item's room that holds its name whole."""
    width = item.name_room
    while width < most:
        width = min(most, width + STEP)
        if item.fit_under(width).fits:
            return width
    return None


def shrink(items: Sequence[TileItem], movable: Sequence[bool], widths: Sequence[float],
           enough: Callable[[list[float]], bool], whole: bool) -> list[float] | None:
    """Narrower columns for the ``movable`` names, the widest first, a step at a time,
    until the row has ``enough``: each name still whole (a size smaller, or on one more
    line; with ``whole``, no word broken that was not). None if they cannot give that."""
    out = list(widths)
    while not enough(out):
        for i in sorted((i for i, m in enumerate(movable) if m), key=lambda i: -out[i]):
            fitted = items[i].fit_under(out[i] - STEP)
            if out[i] > STEP * 2 and fitted.fits \
                    and (not whole or unbroken(fitted.lines, items[i].name)):
                out[i] -= STEP
                break
        else:
            return None
    return out


def unbroken(lines: Sequence[str], text: str) -> bool:
    """Whether the lines hold ``text``'s words whole (no hyphen added inside one)."""
    return [word for line in lines for word in line.split()] == text.split()


def place(centres: Sequence[float], widths: Sequence[float], left: float, right: float,
          gap: float) -> list[float] | None:
    """Each column's left x: centred on its centre where it can be, pushed aside as
    little as its neighbours need, inside ``left``..``right``; None if they cannot all
    stand there."""
    count = len(widths)
    if sum(widths) + gap * max(0, count - 1) > right - left + 0.5:
        return None
    xs = [min(max(c - w / 2, left), right - w) for c, w in zip(centres, widths, strict=True)]
    for i in range(1, count):  # no column over the one before it
        xs[i] = max(xs[i], xs[i - 1] + widths[i - 1] + gap)
    for i in range(count - 1, -1, -1):  # nor over the one after it, nor past the end
        end = right if i == count - 1 else xs[i + 1] - gap
        xs[i] = min(xs[i], end - widths[i])
    return xs


__all__ = ["least_width", "place", "shrink", "spread", "unbroken"]
