"""The drawn pieces of the Ranking Top table: cards, empty Ranking Top slots, stacks.

Each item paints one thing from plain data (a card map of the view) and knows
nothing of the rules. Cards are drawn by us: a song card is its song's colour
band with the song's own shape (colour is never the only cue: eight shapes for
eight songs), its number big, its title and artist small; the Top card is dark
with a gold TOP!, the Primordial Rule deep purple with a star (and the number
it stands for once it sits in a Ranking Top).
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PyQt6.QtWidgets import (
    QGraphicsObject,
    QGraphicsSceneHoverEvent,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ui.tables import look, textfit
from ui.tables.pieces import (
    HandCard,
    key_size,
    paint_back,
    paint_drop_zone,
    paint_glow,
    paint_key,
    paint_quiet,
)
from ui.tables.ranking_top.faces import (
    RULE_FACE,
    RULE_INK,
    TOP_FACE,
    TOP_INK,
    card_tip,
    face_of,
    fit_font,
    shape_of,
    shape_path,
    short_title,
    song_colour,
)
from ui.words.i18n import _


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
        over = max(pad, key_size("0")[1] * 0.45 + 2)  # a key's cap on the top edge
        return QRectF(-pad, -over, self.w + 2 * pad, self.h + pad + over)

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
        if self.key and self.lit:
            if self.compact:  # left, under the index: the strip a fanned card shows
                y = self.h * 0.38
                paint_key(painter, QPointF(key_size(self.key)[0] + 5, y), self.key)
            else:  # on the top edge, in the middle: beside the big number, a "3" key
                # and a 5 read as 35 (every card of a 1024x640 hand in Spanish: 12, 23, 35)
                paint_key(painter, QPointF(self.w / 2 + key_size(self.key)[0] * 0.1, 0),
                          self.key, straddle=True)

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
        if not title.fits and short_title(self.face.title) is None:
            # a one-word name with no short form ("Arwrarwrirwrarwro"): every letter, in
            # as many lines as the card holds, the number a little smaller
            words.setHeight(body.height() * 0.78)
            title, artist = self._fit_words(words, self.face.title, "")
            if not title.fits:  # a card too small for words: its number and colour
                title = textfit.Fitted(title.font, [], True)
        used = title.height() + (artist.height() if artist is not None else 0.0)
        big_h = body.height() - used - self.h * 0.03
        painter.setPen(look.CARD_INK)
        if big_h >= look.default_px() * 1.2:  # else the corner index alone says it
            painter.setFont(look.font(min(big_h * 0.9, body.height() * 0.5), bold=True))
            painter.drawText(QRectF(0, body.top(), self.w, big_h),
                             Qt.AlignmentFlag.AlignCenter, number)
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
        lang = "es" if self.face.kind == "song" else None  # the songs' names are Spanish
        fitted = textfit.fit(title, box.width(), t, 3, bold=True, height=box.height(),
                             lang=lang)
        if not fitted.fits:  # plain type is narrower than bold
            fitted = textfit.fit(title, box.width(), t, 3, height=box.height(), lang=lang)
        short = short_title(title)
        if not fitted.fits and short:  # a small card: the song's short name
            fitted = textfit.fit(short, box.width(), t, 2, bold=True, height=box.height(),
                                 lang=lang)
            if not fitted.fits:  # a card too small for words: its number and colour
                fitted = textfit.Fitted(fitted.font, [], True)
            return fitted, None
        if not artist:
            return fitted, None
        left = box.height() - fitted.height()
        by = textfit.fit(artist, box.width(), t * 0.9, 2, height=left, lang="es")
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
        painter.setFont(fit_font("TOP!", self.h * 0.24, self.w * 0.86, bold=True))
        body_h = self.h - band_h
        small = self.h < look.default_px() * 9.5
        top_h = body_h * (0.9 if small else 0.5)
        word_top = band_h  # (its key's cap is on the top edge, clear of the "T")
        painter.drawText(QRectF(0, word_top, self.w, band_h + top_h - word_top),
                         Qt.AlignmentFlag.AlignCenter, "TOP!")
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


