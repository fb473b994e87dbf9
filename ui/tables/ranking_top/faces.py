"""What a Ranking Top card shows, read from a card map of the view: its face (title,
artist, number, song colour and shape), its name and tip in words, and the shapes
that pair with the colours (colour is never the only cue: eight shapes for eight
songs). Plain data and painter paths; the items draw them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetrics, QPainterPath

from lanplay.games.ranking_top import cards
from ui.tables import look
from ui.words.i18n import _, content

CARD_RATIO = 0.70


TOP_FACE = QColor("#26221C")


TOP_INK = QColor("#F2C94C")


RULE_FACE = QColor("#3B2160")


RULE_INK = QColor("#F3ECFF")


SONG_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
                "#CC79A7", "#5B5B5B")
"""Okabe-Ito's eight (black softened to graphite so the shape on it still reads)."""


SHAPES = ("heart", "arrows", "ring", "shield", "spikes", "tooth", "plus", "moon")
"""One shape per song, in the songs' order: each hints at its effect."""


@dataclass(frozen=True)
class Song:
    title: str
    artist: str
    effect: str


SONGS: tuple[Song, ...] = tuple(Song(*texts) for texts in cards.TITLES)
"""The rulebook's songs in its order (the rules' own words, which the ``lanplay-content``
catalogue translates); a view's own title/artist/effect win over these."""


TOP_EFFECT = cards.TOP_TEXT[2]


RULE_EFFECT = cards.PRIMORDIAL_TEXT[2]


SHORT_TITLES = {
    "Mi muñeca me hablo": "Muñeca", "La señora interesante": "Señora",
    "Objeción Denegada": "Objeción", "El Dinosaurio Anacleto": "Dinosaurio",
    "Diente blanco, no te vayas": "Diente blanco", "Mi mamá me lo teje todo": "Mamá",
    "Otto y los sarcófagos del ritmo": "Otto",
}
"""What a card too small for its title shows (the whole title is on larger cards,
in its tooltip and in the rules): the word the table calls the song by."""


def short_title(title: str) -> str | None:
    """The short name of a card's words (a song's by the table's name for it; the
    special cards' words in the window's language)."""
    if title in SHORT_TITLES:
        return SHORT_TITLES[title]
    # translators: the Primordial Rule's name on a card too small for the whole name
    special = {content("ranking-top", "card:primordial", "Primordial Rule"): _("Wild"),
               # translators: what a Top card does, on a card too small for "cancels a card"
               _("cancels a card"): _("cancels")}
    return special.get(title)


@dataclass(frozen=True)
class Face:
    """What a card map of the view says, read tolerantly (one place to adapt)."""

    id: int | None
    kind: str
    """"song", "top" or "rule"."""
    song: int | None
    number: int | None
    title: str
    artist: str
    effect: str
    stands_for: int | None = None


def face_of(card: dict[str, Any] | None) -> Face:
    card = card or {}
    raw_id = card.get("id")
    kind = str(card.get("kind") or card.get("type") or "song").lower()
    if kind in ("primordial", "primordial_rule", "wild", "wildcard"):
        kind = "rule"
    if kind not in ("song", "top", "rule"):
        kind = "song"
    song_raw = card.get("song")
    song = song_raw if isinstance(song_raw, int) and 0 <= song_raw < len(SONGS) else None
    number = card.get("number", card.get("value"))
    number = number if isinstance(number, int) else None
    stands = card.get("stands", card.get("as"))
    stands = stands if isinstance(stands, int) else None
    if kind == "top":
        title, artist, effect = "Top", "Policarpo Avendaño", TOP_EFFECT
    elif kind == "rule":
        title, artist, effect = "Primordial Rule", "Retrete Navarrete y los bulliciosos", \
            RULE_EFFECT
    else:
        known = SONGS[song] if song is not None else Song("", "", "")
        title, artist, effect = known.title, known.artist, known.effect
    title = str(card.get("title") or title)
    artist = str(card.get("artist") or artist)
    effect = str(card.get("effect") or effect)
    special = "top" if kind == "top" else "primordial" if kind == "rule" else None
    if special is not None:  # the song titles are names; the special cards' are words
        title = content("ranking-top", f"card:{special}", title)
    effect = content("ranking-top", f"effect:{special or song}", effect)
    return Face(raw_id if isinstance(raw_id, int) else None, kind, song, number, title,
                artist, effect, stands)


def card_name(face: Face) -> str:
    """'3 · Severlá', 'Top card', 'Primordial Rule (as 2)'."""
    if face.kind == "top":
        return _("Top card")
    if face.kind == "rule":
        return _("{card} (as {n})").format(card=face.title, n=face.stands_for) \
            if face.stands_for else face.title
    return f"{face.number} · {face.title}" if face.number else face.title


def card_tip(face: Face) -> str:
    if face.kind == "song":
        head = f"{face.number} · \u201c{face.title}\u201d ({face.artist})"
        return head + "\n" + _("On the discard pile: {effect}").format(effect=face.effect)
    return f"{card_name(face)} \u2014 {face.artist}\n{face.effect}"


def song_colour(face: Face) -> QColor:
    if face.kind == "top":
        return TOP_FACE
    if face.kind == "rule":
        return RULE_FACE
    return QColor(SONG_COLOURS[face.song % len(SONG_COLOURS)] if face.song is not None
                  else "#8E9A96")


def shape_path(shape: str, box: QRectF) -> QPainterPath:
    """A song's shape filling ``box`` (square): drawn, so it scales and stays sharp."""
    c = box.center()
    r = min(box.width(), box.height()) / 2
    path = QPainterPath()
    if shape == "heart":
        path.moveTo(c.x(), c.y() + r * 0.85)
        path.cubicTo(c.x() - r * 1.3, c.y() - r * 0.1, c.x() - r * 0.6, c.y() - r * 1.1,
                     c.x(), c.y() - r * 0.4)
        path.cubicTo(c.x() + r * 0.6, c.y() - r * 1.1, c.x() + r * 1.3, c.y() - r * 0.1,
                     c.x(), c.y() + r * 0.85)
    elif shape == "arrows":  # two opposed arrows: the direction reverses
        for sign in (-1, 1):
            y = c.y() + sign * r * 0.42
            tip = c.x() + sign * r * 0.95
            tail = c.x() - sign * r * 0.95
            path.moveTo(tail, y - r * 0.14)
            path.lineTo(c.x() + sign * r * 0.25, y - r * 0.14)
            path.lineTo(c.x() + sign * r * 0.25, y - r * 0.42)
            path.lineTo(tip, y)
            path.lineTo(c.x() + sign * r * 0.25, y + r * 0.42)
            path.lineTo(c.x() + sign * r * 0.25, y + r * 0.14)
            path.lineTo(tail, y + r * 0.14)
            path.closeSubpath()
    elif shape == "ring":
        path.addEllipse(c, r * 0.9, r * 0.9)
        path.addEllipse(c, r * 0.45, r * 0.45)
    elif shape == "shield":
        path.moveTo(c.x(), c.y() - r)
        path.lineTo(c.x() + r * 0.85, c.y() - r * 0.6)
        path.quadTo(c.x() + r * 0.8, c.y() + r * 0.5, c.x(), c.y() + r)
        path.quadTo(c.x() - r * 0.8, c.y() + r * 0.5, c.x() - r * 0.85, c.y() - r * 0.6)
        path.closeSubpath()
    elif shape == "spikes":  # a dinosaur's back
        path.moveTo(c.x() - r, c.y() + r * 0.7)
        for i in range(3):
            x = c.x() - r + i * (2 * r / 3)
            path.lineTo(x + r / 3, c.y() - r * 0.8)
            path.lineTo(x + 2 * r / 3, c.y() + r * 0.7)
        path.closeSubpath()
    elif shape == "tooth":
        path.moveTo(c.x() - r * 0.8, c.y() - r * 0.6)
        path.quadTo(c.x() - r * 0.8, c.y() - r, c.x() - r * 0.3, c.y() - r * 0.9)
        path.quadTo(c.x(), c.y() - r * 0.75, c.x() + r * 0.3, c.y() - r * 0.9)
        path.quadTo(c.x() + r * 0.8, c.y() - r, c.x() + r * 0.8, c.y() - r * 0.6)
        path.quadTo(c.x() + r * 0.8, c.y() + r * 0.1, c.x() + r * 0.45, c.y() + r)
        path.quadTo(c.x() + r * 0.2, c.y() + r, c.x() + r * 0.12, c.y() + r * 0.3)
        path.lineTo(c.x() - r * 0.12, c.y() + r * 0.3)
        path.quadTo(c.x() - r * 0.2, c.y() + r, c.x() - r * 0.45, c.y() + r)
        path.quadTo(c.x() - r * 0.8, c.y() + r * 0.1, c.x() - r * 0.8, c.y() - r * 0.6)
        path.closeSubpath()
    elif shape == "plus":
        k = r * 0.33
        path.addRect(QRectF(c.x() - k, c.y() - r * 0.9, 2 * k, r * 1.8))
        path.addRect(QRectF(c.x() - r * 0.9, c.y() - k, r * 1.8, 2 * k))
        path.setFillRule(Qt.FillRule.WindingFill)
    elif shape == "moon":
        path.addEllipse(c, r * 0.9, r * 0.9)
        cut = QPainterPath()
        cut.addEllipse(QPointF(c.x() + r * 0.45, c.y() - r * 0.25), r * 0.75, r * 0.75)
        path = path.subtracted(cut)
    elif shape == "star":
        for i in range(10):
            angle = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.42
            point = QPointF(c.x() + rr * math.cos(angle), c.y() + rr * math.sin(angle))
            if i == 0:
                path.moveTo(point)
            else:
                path.lineTo(point)
        path.closeSubpath()
    elif shape == "hand":  # a raised palm: stop
        path.addRoundedRect(QRectF(c.x() - r * 0.55, c.y() - r * 0.15, r * 1.1, r * 1.05),
                            r * 0.3, r * 0.3)
        for i in range(4):
            x = c.x() - r * 0.55 + i * r * 0.29
            path.addRoundedRect(QRectF(x, c.y() - r * (0.95 - 0.08 * abs(i - 1.5)), r * 0.24,
                                       r * 0.95), r * 0.12, r * 0.12)
        path.addRoundedRect(QRectF(c.x() + r * 0.45, c.y() - r * 0.05, r * 0.5, r * 0.24),
                            r * 0.12, r * 0.12)
        path.setFillRule(Qt.FillRule.WindingFill)
    else:
        path.addEllipse(c, r * 0.8, r * 0.8)
    return path


def shape_of(face: Face) -> str:
    if face.kind == "top":
        return "hand"
    if face.kind == "rule":
        return "star"
    return SHAPES[face.song % len(SHAPES)] if face.song is not None else "ring"


def fit_font(text: str, px: float, width: float, bold: bool = False) -> Any:
    fnt = look.font(px, bold=bold)
    while QFontMetrics(fnt).horizontalAdvance(text) > width and px > look.default_px():
        px -= 1
        fnt = look.font(px, bold=bold)
    return fnt


def wrap(text: str, metrics: QFontMetrics, width: float, lines: int) -> list[str]:
    """Words filled into at most ``lines`` lines of ``width``; the last one elided."""
    out: list[str] = []
    words = text.split()
    current = ""
    while words:
        word = words[0]
        trial = f"{current} {word}".strip()
        if metrics.horizontalAdvance(trial) <= width or not current:
            current = trial
            words.pop(0)
            if metrics.horizontalAdvance(current) > width:  # one long word alone
                out.append(current)
                current = ""
            continue
        out.append(current)
        current = ""
    if current:
        out.append(current)
    if len(out) > lines:
        out = [*out[:lines - 1], " ".join(out[lines - 1:])]
    return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, int(width)) for line in out]
