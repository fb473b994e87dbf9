"""The drawn pieces of the Ranking Top table: cards, empty Ranking Top slots, stacks.

Each item paints one thing from plain data (a card map of the view) and knows
nothing of the rules. Cards are drawn by us: a song card is its song's colour
band with the song's own shape (colour is never the only cue: eight shapes for
eight songs), its number big, its title and artist small; the Top card is dark
with a gold TOP!, the Primordial Rule deep purple with a star (and the number
it stands for once it sits in a Ranking Top).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QBrush, QColor, QFontMetrics, QPainter, QPainterPath, QPen
from PyQt6.QtWidgets import (
    QGraphicsObject,
    QGraphicsSceneHoverEvent,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from lanplay.games.ranking_top import cards
from ui.tables import look, textfit
from ui.tables.pieces import (
    HandCard,
    paint_back,
    paint_drop_zone,
    paint_glow,
    paint_plate,
    paint_quiet,
)
from ui.words.i18n import _, content, ngettext

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
    "Arwrarwrirwrarwro": "Arwrarwro", "Otto y los sarcófagos del ritmo": "Otto",
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


def _fit_font(text: str, px: float, width: float, bold: bool = False) -> Any:
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


class CardItem(HandCard):
    """A card face up (or a back), clickable and draggable when it sits in my hand.

    The corner index (number and shape in the colour band) stays visible when
    cards overlap in a hand, so a fanned hand still reads card by card.
    """

    def __init__(self, card: dict[str, Any] | None, width: float, height: float,
                 back: bool = False) -> None:
        super().__init__()
        self.card = card or {}
        self.face = face_of(card)
        self.w, self.h = width, height
        self.back = back or card is None
        self.selected = False
        self.compact = False
        """Overlapped by the next card: only the band's corner index shows."""
        self._lifted = False
        if not self.back:
            self.setToolTip(card_tip(self.face))

    @property
    def card_id(self) -> int | None:
        return self.face.id

    def boundingRect(self) -> QRectF:
        pad = max(3.0, self.w * 0.06)
        return QRectF(-pad, -pad, self.w + 2 * pad, self.h + 2 * pad)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.w, self.h)
        radius = self.w * 0.08
        if self.lit or self.selected:
            paint_glow(painter, rect, radius, max(2.5, self.w * (0.05 if self.selected else 0.035)),
                       QColor("#FFFFFF") if self.selected else look.LIT)
        if self.back:
            paint_back(painter, rect, radius)
        elif self.face.kind == "top":
            self._paint_top(painter, rect, radius)
        elif self.face.kind == "rule":
            self._paint_rule(painter, rect, radius)
        else:
            self._paint_song(painter, rect, radius)
        if self.quiet:
            paint_quiet(painter, rect, radius, 80)

    # --- faces ----------------------------------------------------------------

    def _band(self, painter: QPainter, rect: QRectF, radius: float, colour: QColor,
              ink: QColor, corner: str) -> float:
        """The coloured top band with the corner index (number) and the shape."""
        band_h = max(look.default_px() * 1.35, self.h * 0.2)
        clip = QPainterPath()
        clip.addRoundedRect(rect, radius, radius)
        painter.save()
        painter.setClipPath(clip)
        painter.fillRect(QRectF(0, 0, self.w, band_h), colour)
        painter.restore()
        pad = self.w * 0.07
        painter.setPen(ink)
        painter.setFont(look.font(band_h * 0.78, bold=True))
        painter.drawText(QRectF(pad, 0, self.w * 0.6, band_h),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, corner)
        size = band_h * 0.72
        box = QRectF(self.w - pad - size, (band_h - size) / 2, size, size)
        if self.compact:  # the shape sits under the number, in the visible strip
            box = QRectF(pad, band_h + band_h * 0.15, size, size)
            painter.setPen(QPen(QColor("#101010"), max(1.0, size * 0.06)))
            painter.setBrush(colour)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(ink)
        painter.drawPath(shape_path(shape_of(self.face), box))
        return band_h

    def _frame(self, painter: QPainter, rect: QRectF, radius: float, fill: QColor,
               edge: QColor) -> None:
        painter.setPen(QPen(edge, max(1.0, self.w * 0.02)))
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, radius, radius)

    def _paint_song(self, painter: QPainter, rect: QRectF, radius: float) -> None:
        colour = song_colour(self.face)
        ink = look.ink_for(colour)
        self._frame(painter, rect, radius, look.CARD_FACE, look.CARD_INK)
        number = str(self.face.number or "?")
        band_h = self._band(painter, rect, radius, colour, ink, number)
        if self.compact:
            return
        small = self.h < look.default_px() * 9.5
        body = QRectF(0, band_h, self.w, self.h - band_h)
        words = QRectF(self.w * 0.03, body.top(), self.w * 0.94, body.height() * 0.62)
        title, artist = self._fit_words(words, self.face.title, "" if small else
                                        self.face.artist)
        used = title.height() + (artist.height() if artist is not None else 0.0)
        big_h = body.height() - used - self.h * 0.03
        painter.setPen(look.CARD_INK)
        painter.setFont(look.font(min(big_h * 0.9, body.height() * 0.5), bold=True))
        painter.drawText(QRectF(0, body.top(), self.w, big_h), Qt.AlignmentFlag.AlignCenter,
                         number)
        words.moveTop(body.top() + big_h)
        words.setHeight(used)
        self._paint_words(painter, words, title, artist, look.CARD_INK, QColor("#55544F"))

    def _words_px(self) -> float:
        return max(float(look.default_px()), min(self.h * 0.075, self.w * 0.11))

    def _fit_words(self, box: QRectF, title: str, artist: str
                   ) -> tuple[textfit.Fitted, textfit.Fitted | None]:
        """The title (up to three lines) and, where room is left, the artist (up to
        two) in ``box``; a card too small for the artist shows its title alone."""
        t = self._words_px()
        fitted = textfit.fit(title, box.width(), t, 3, bold=True, height=box.height())
        if not fitted.fits:  # plain type is narrower than bold
            fitted = textfit.fit(title, box.width(), t, 3, height=box.height())
        short = short_title(title)
        if not fitted.fits and short:  # a small card: the song's short name
            fitted = textfit.fit(short, box.width(), t, 2, bold=True, height=box.height())
            if not fitted.fits:  # a card too small for words: its number and colour
                fitted = textfit.Fitted(fitted.font, [], True)
            return fitted, None
        if not artist:
            return fitted, None
        left = box.height() - fitted.height()
        by = textfit.fit(artist, box.width(), t * 0.9, 2, height=left)
        return fitted, (by if by.fits else None)

    def _paint_words(self, painter: QPainter, box: QRectF, title: textfit.Fitted,
                     artist: textfit.Fitted | None, ink: QColor, muted: QColor) -> None:
        painter.setPen(ink)
        textfit.draw(painter, title, QRectF(box.left(), box.top(), box.width(),
                                            title.height()),
                     Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        if artist is not None:
            painter.setPen(muted)
            textfit.draw(painter, artist, QRectF(box.left(), box.top() + title.height(),
                                                 box.width(), artist.height()),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)

    def _words(self, painter: QPainter, box: QRectF, title: str, artist: str, ink: QColor,
               muted: QColor) -> None:
        """Title over the artist in ``box``, as much as fits, from its top."""
        fitted, by = self._fit_words(box, title, artist)
        self._paint_words(painter, box, fitted, by, ink, muted)

    def _paint_top(self, painter: QPainter, rect: QRectF, radius: float) -> None:
        self._frame(painter, rect, radius, TOP_FACE, TOP_INK)
        inner = rect.adjusted(self.w * 0.05, self.w * 0.05, -self.w * 0.05, -self.w * 0.05)
        painter.setPen(QPen(TOP_INK, max(1.0, self.w * 0.015)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(inner, radius * 0.7, radius * 0.7)
        band_h = self._band(painter, rect, radius, QColor("#3A3328"), TOP_INK, "T")
        if self.compact:
            return
        painter.setPen(TOP_INK)
        painter.setFont(_fit_font("TOP!", self.h * 0.24, self.w * 0.86, bold=True))
        body_h = self.h - band_h
        small = self.h < look.default_px() * 9.5
        top_h = body_h * (0.9 if small else 0.5)
        painter.drawText(QRectF(0, band_h, self.w, top_h), Qt.AlignmentFlag.AlignCenter, "TOP!")
        if not small:
            self._words(painter, QRectF(self.w * 0.08, band_h + top_h, self.w * 0.84,
                                        body_h - top_h - self.h * 0.05),
                        _("cancels a card"), self.face.artist, TOP_INK, QColor("#C9B98A"))

    def _paint_rule(self, painter: QPainter, rect: QRectF, radius: float) -> None:
        self._frame(painter, rect, radius, RULE_FACE, QColor("#B79BE6"))
        painter.setBrush(QBrush(QColor(255, 255, 255, 28), Qt.BrushStyle.BDiagPattern))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawRoundedRect(rect.adjusted(2, 2, -2, -2), radius, radius)
        corner = str(self.face.stands_for) if self.face.stands_for else "★"
        band_h = self._band(painter, rect, radius, QColor("#5A3A8C"), RULE_INK, corner)
        if self.compact:
            return
        small = self.h < look.default_px() * 9.5
        body_h = self.h - band_h
        big_h = body_h * (0.86 if small else 0.5)
        big = QRectF(0, band_h, self.w, big_h)
        if self.face.stands_for:
            painter.setPen(RULE_INK)
            painter.setFont(look.font(big_h * 0.8, bold=True))
            painter.drawText(big, Qt.AlignmentFlag.AlignCenter, str(self.face.stands_for))
        else:
            size = min(big_h, self.w) * 0.7
            box = QRectF(self.w / 2 - size / 2, big.center().y() - size / 2, size, size)
            painter.setPen(QPen(QColor("#F2C94C"), max(1.0, size * 0.04)))
            painter.setBrush(QColor("#F2C94C"))
            painter.drawPath(shape_path("star", box))
        if not small:
            self._words(painter, QRectF(self.w * 0.06, band_h + big_h, self.w * 0.88,
                                        body_h - big_h - self.h * 0.03),
                        self.face.title, _("wild card"), RULE_INK, QColor("#CDBBEA"))

    # --- input: click or drag, both always work -------------------------------

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent | None) -> None:
        self.hovered = True
        if self.lit and not self._lifted:
            self._lifted = True
            self.setY(self.y() - self.h * 0.06)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent | None) -> None:
        if self._lifted and not self._dragging:
            self._lifted = False
            self.setY(self.y() + self.h * 0.06)
        self.hovered = False
        super().hoverLeaveEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent | None) -> None:
        if event is not None and self._press is not None:
            self._lifted = False  # a click or a drop ends the hover lift
        super().mouseReleaseEvent(event)


class SlotItem(QGraphicsObject):
    """An empty place in a Ranking Top: its number faint; the next needed one lit."""

    def __init__(self, number: int, width: float, height: float, nxt: bool,
                 hot: bool = False) -> None:
        super().__init__()
        self.number, self.w, self.h = number, width, height
        self.next, self.hot = nxt, hot
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return QRectF(-3, -3, self.w + 6, self.h + 6)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.w, self.h)
        radius = self.w * 0.08
        colour = look.LIT if self.next else QColor(255, 255, 255, 70)
        painter.setPen(QPen(colour, max(1.5, self.w * (0.04 if self.next else 0.025)),
                            Qt.PenStyle.DashLine))
        painter.setBrush(QColor(255, 216, 102, 60) if self.hot else QColor(0, 0, 0, 45))
        painter.drawRoundedRect(rect, radius, radius)
        painter.setPen(colour)
        painter.setFont(look.font(min(self.h * 0.42, self.w * 0.6), bold=True))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(self.number))
        if self.next and self.h > look.default_px() * 4:
            painter.setFont(look.font(min(self.h * 0.13, self.w * 0.2)))
            painter.drawText(QRectF(0, self.h * 0.7, self.w, self.h * 0.28),
                             # translators: under the number a Ranking Top needs next
                             Qt.AlignmentFlag.AlignCenter, _("next"))


class StackItem(QGraphicsObject):
    """The draw deck: a face-down stack with its count on top."""

    def __init__(self, count: int, width: float, height: float) -> None:
        super().__init__()
        self.count, self.w, self.h = count, width, height
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        off = self.w * 0.1
        return QRectF(-1, -off - 1, self.w + off + 2, self.h + off + 2)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        radius = self.w * 0.08
        layers = 0 if self.count == 0 else min(3, 1 + self.count // 20)
        for i in range(layers, -1, -1):
            rect = QRectF(i * self.w * 0.03, -i * self.w * 0.03, self.w, self.h)
            if self.count == 0:
                painter.setPen(QPen(look.MUTED_ON_FELT, 1.5, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect, radius, radius)
            else:
                paint_back(painter, rect, radius)
        painter.setPen(look.INK_ON_FELT if self.count else look.MUTED_ON_FELT)
        painter.setFont(look.font(self.h * 0.26, bold=True))
        painter.drawText(QRectF(0, 0, self.w, self.h), Qt.AlignmentFlag.AlignCenter,
                         str(self.count))


class ZoneItem(QGraphicsObject):
    """A drop area drawn while a card is dragged: my Ranking Top or the discard pile."""

    def __init__(self, rect: QRectF, label: str, text_px: float) -> None:
        super().__init__()
        self.rect = QRectF(rect)
        self.label, self.text_px = label, text_px
        self.hot = False
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setVisible(False)

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-4, -4, 4, 4)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_drop_zone(painter, self.rect, self.hot, (25, 70))
        painter.setPen(look.LIT)
        painter.setFont(look.font(self.text_px, bold=True))
        painter.drawText(self.rect.adjusted(6, 4, -6, -4),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                         self.label)


class PlateItem(QGraphicsObject):
    """A seat's name plate: colour disc with initial, name, cards in hand, a status.

    The seat to play gets a ring in its own colour and a drawn pointer, so the
    turn reads without relying on colour alone; the status says what the seat
    is doing in words ("to play", "deciding", "passed", "needs 3").
    """

    def __init__(self, seat: int, seat_map: dict[str, Any], colour: QColor, width: float,
                 height: float, text_px: float, in_hand: int, status: str, active: bool,
                 you: bool) -> None:
        super().__init__()
        self.seat = seat
        self.seat_map = seat_map
        self.name = str(seat_map.get("name") or _("Seat {n}").format(n=seat + 1))
        self.bot = bool(seat_map.get("bot"))
        self.connected = bool(seat_map.get("connected", True))
        self.colour = colour
        self.w, self.h, self.text_px = width, height, text_px
        self.in_hand, self.status = in_hand, status
        self.active, self.you = active, you
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(True)
        self.setToolTip(self.describe())

    def describe(self) -> str:
        who = _("{name} (you)").format(name=self.name) if self.you else self.name
        extra = "" if self.connected else " " + _("(not connected)")
        status = f", {self.status}" if self.status else ""
        return ngettext("{who}: {n} card in hand", "{who}: {n} cards in hand",
                        self.in_hand).format(who=who, n=self.in_hand) + status + extra

    def hand_point(self) -> QPointF:
        """Where this seat's cards come from when it plays (a card flies from here)."""
        return self.mapToScene(QPointF(self.w * 0.5, self.h * 0.5))

    def boundingRect(self) -> QRectF:
        return QRectF(-4, -4, self.w + 8, self.h + 8)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.w, self.h)
        paint_plate(painter, rect, self.h * 0.22, self.colour, self.active, self.text_px)
        t = self.text_px
        disc_r = self.h * 0.32
        centre = QPointF(self.h * 0.12 + disc_r, self.h * 0.5)
        look.draw_disc(painter, centre, disc_r, self.colour, look.letter_of(self.seat_map))
        left = centre.x() + disc_r + t * 0.45
        if self.active:  # a drawn pointer beside the disc: the turn without colour
            path = QPainterPath()
            tip = QPointF(left + t * 0.55, self.h / 2)
            path.moveTo(tip)
            path.lineTo(left, self.h / 2 - t * 0.42)
            path.lineTo(left, self.h / 2 + t * 0.42)
            path.closeSubpath()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(look.LIT)
            painter.drawPath(path)
            left += t * 0.85
        # Right end: the hand as a small back with its count (on a narrow plate, on
        # the second line, so the whole name has the first).
        count_font = look.font(t * 1.0, bold=True)
        count = str(self.in_hand)
        count_w = QFontMetrics(count_font).horizontalAdvance(count)
        back_h = self.h * 0.52
        back_w = back_h * CARD_RATIO
        right = self.w - t * 0.5 - count_w
        room = right - back_w - t * 0.6 - left
        tag = _("(you)") if self.you else _("(bot)") if self.bot else ""
        name = self.name + (f" {tag}" if tag else "")
        status = self.status
        name_font = look.font(t * 1.0, bold=True)
        status_font = look.font(t * 0.9)
        two_lines = bool(status) and self.h >= (QFontMetrics(name_font).height()
                                                + QFontMetrics(status_font).height())
        fitted = textfit.fit(name, room, name_font.pixelSize(), bold=True)
        band = (0.0, self.h)
        name_room = room
        if not fitted.fits and two_lines:
            name_room = self.w - t * 0.5 - left
            fitted = textfit.fit(name, name_room, name_font.pixelSize(), bold=True)
            back_h = self.h * 0.36
            back_w = back_h * CARD_RATIO
            band = (self.h / 2, self.h / 2)
        top, tall = band
        paint_back(painter, QRectF(right - back_w - t * 0.3, top + (tall - back_h) / 2,
                                   back_w, back_h), back_w * 0.12)
        painter.setPen(look.INK_ON_FELT)
        painter.setFont(count_font)
        painter.drawText(QRectF(right, top, count_w + 2, tall),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, count)
        name_font, shown = fitted.font, fitted.lines[0]
        painter.setFont(name_font)
        painter.setPen(look.INK_ON_FELT if self.connected else look.MUTED_ON_FELT)
        if two_lines:
            half = self.h / 2
            painter.drawText(QRectF(left, 0, name_room, half + 1),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, shown)
            fitted = textfit.fit(status, room, status_font.pixelSize())
            painter.setFont(fitted.font)
            painter.setPen(look.LIT if self.active else look.MUTED_ON_FELT)
            painter.drawText(QRectF(left, half, room, half),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                             fitted.lines[0])
        else:
            painter.drawText(QRectF(left, 0, room, self.h),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)


class DirectionItem(QGraphicsObject):
    """The direction of play: a circular arrow, its name in words, and who is next."""

    def __init__(self, clockwise: bool, size: float, text_px: float, caption: str) -> None:
        super().__init__()
        self.clockwise, self.size, self.text_px = clockwise, size, text_px
        self.caption = caption
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip((_("Play goes clockwise ({song} reverses it).") if clockwise else
                         _("Play goes counter-clockwise ({song} reverses it).")).format(
                             song="Severlá"))

    def boundingRect(self) -> QRectF:
        # The words under the arrow are wider than it (and are cut at this rect: the
        # felt keeps a picture of each piece of exactly this size).
        return QRectF(-self.text_px * 2, 0, self.size + self.text_px * 4,
                      self.size + self.text_px * 3.2)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        s = self.size
        c = QPointF(s / 2, s / 2)
        r = s * 0.32
        pen = QPen(look.INK_ON_FELT, max(2.0, s * 0.06))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        box = QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)
        # An arc of 300 degrees; the arrowhead at its end shows the way round.
        start = 90
        span = -300 if self.clockwise else 300
        painter.drawArc(box, start * 16, span * 16)
        end = math.radians(start + span)
        tip = QPointF(c.x() + r * math.cos(end), c.y() - r * math.sin(end))
        # Tangent direction of travel at the end of the arc.
        sign = -1 if self.clockwise else 1
        tx, ty = -math.sin(end) * sign, -math.cos(end) * sign
        head = s * 0.14
        path = QPainterPath()
        path.moveTo(tip.x() + tx * head, tip.y() + ty * head)
        path.lineTo(tip.x() - ty * head * 0.8 - tx * head * 0.3,
                    tip.y() + tx * head * 0.8 - ty * head * 0.3)
        path.lineTo(tip.x() + ty * head * 0.8 - tx * head * 0.3,
                    tip.y() - tx * head * 0.8 - ty * head * 0.3)
        path.closeSubpath()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(look.INK_ON_FELT)
        painter.drawPath(path)
        painter.setPen(look.INK_ON_FELT)
        painter.setFont(look.font(self.text_px * 0.95, bold=True))
        words = _("clockwise") if self.clockwise else _("counter-clockwise")
        painter.drawText(QRectF(-self.text_px * 2, s, s + self.text_px * 4, self.text_px * 1.5),
                         Qt.AlignmentFlag.AlignCenter, words)
        painter.setPen(look.MUTED_ON_FELT)
        painter.setFont(look.font(self.text_px * 0.9))
        painter.drawText(QRectF(-self.text_px * 2, s + self.text_px * 1.5,
                                s + self.text_px * 4, self.text_px * 1.5),
                         Qt.AlignmentFlag.AlignCenter, self.caption)


class DiscItem(QGraphicsObject):
    """A seat's disc (colour and initial) beside a caption on the felt."""

    def __init__(self, colour: QColor, letter: str, radius: float) -> None:
        super().__init__()
        self.colour, self.letter, self.r = colour, letter, radius
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        # Two initials that collide make the disc a wider pill (look.disc_half_width).
        half = look.disc_half_width(self.r, self.letter)
        return QRectF(self.r - half - 2, -2, 2 * half + 4, 2 * self.r + 4)

    def paint(self, painter: QPainter | None, option: QStyleOptionGraphicsItem | None,
              widget: QWidget | None = None) -> None:
        if painter is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        look.draw_disc(painter, QPointF(self.r, self.r), self.r, self.colour, self.letter)
