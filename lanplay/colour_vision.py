"""How colours look to colour-blind players, to check that seat colours stay apart.

The three dichromacies (protanopia, deuteranopia, tritanopia) are simulated with
the matrices of Machado, Oliveira and Fernandes (2009, severity 1.0) applied in
linear RGB; colours are then compared in CIELAB (the CIE 1976 difference, a
Euclidean distance). Pure arithmetic, no Qt: the tests run it on the palette and
on the pixels of rendered tables.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

RGB = tuple[float, float, float]
"""Linear RGB, each 0..1."""
Lab = tuple[float, float, float]

MATRICES: dict[str, tuple[RGB, RGB, RGB]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
KINDS = tuple(MATRICES)
DISTINCT = 15.0
"""The least CIELAB difference at which two seat colours count as clearly apart (a
just-noticeable difference is about 2.3; 15 reads apart at a glance)."""


def linear(hex_colour: str) -> RGB:
    """"#RRGGBB" as linear RGB."""
    text = hex_colour.lstrip("#")
    channels = [int(text[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    return (_linear(channels[0]), _linear(channels[1]), _linear(channels[2]))


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(rgb: RGB, kind: str) -> RGB:
    """``rgb`` (linear) as a person with ``kind`` of colour blindness sees it."""
    m = MATRICES[kind]
    out = [sum(m[row][k] * rgb[k] for k in range(3)) for row in range(3)]
    return (min(1.0, max(0.0, out[0])), min(1.0, max(0.0, out[1])),
            min(1.0, max(0.0, out[2])))


def lab(rgb: RGB) -> Lab:
    """Linear RGB (sRGB primaries, D65) in CIELAB."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def difference(a: RGB, b: RGB, kind: str | None = None) -> float:
    """How far apart two colours look (to ``kind``, or to full colour vision)."""
    if kind is not None:
        a, b = simulate(a, kind), simulate(b, kind)
    return math.dist(lab(a), lab(b))


def mean(colours: Iterable[RGB]) -> RGB:
    """The average of linear colours (the colour a patch of them shows)."""
    items = list(colours)
    n = max(1, len(items))
    return (sum(c[0] for c in items) / n, sum(c[1] for c in items) / n,
            sum(c[2] for c in items) / n)


def confusions(colours: dict[str, RGB], against: dict[str, RGB] | None = None,
               least: float = DISTINCT) -> list[str]:
    """Every pair of ``colours`` (and each against a background of ``against``) closer
    than ``least`` to any colour vision, in words; empty when all stay apart."""
    out: list[str] = []
    for kind in (None, *KINDS):
        seeing = kind or "full colour vision"
        for (one, a), (other, b) in itertools.combinations(colours.items(), 2):
            d = difference(a, b, kind)
            if d < least:
                out.append(f"{one} and {other} under {seeing}: {d:.1f}")
        for one, a in colours.items():
            for ground, b in (against or {}).items():
                d = difference(a, b, kind)
                if d < least:
                    out.append(f"{one} on {ground} under {seeing}: {d:.1f}")
    return out


def hex_colours(colours: Sequence[str]) -> dict[str, RGB]:
    return {c.upper(): linear(c) for c in colours}


__all__ = ["DISTINCT", "KINDS", "MATRICES", "confusions", "difference", "hex_colours",
           "lab", "linear", "mean", "simulate"]
