"""The S-tier side panel: players with their role and state, the track, short facts.

Painted from the ``Scene`` a mode panel builds. Every seat is drawn with its
colour disc and initial, every state in words (never colour alone).
"""

from __future__ import annotations

from PyQt6.QtCore import QPointF, QRectF, QSize, Qt
from PyQt6.QtGui import QColor, QFontMetrics, QPainter, QPaintEvent, QPen
from PyQt6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ui.tables import look, textfit
from ui.tables.s_tier.board import RIGHT, WRONG
from ui.tables.s_tier.common import PlayerRow, TrackModel
from ui.words.i18n import _


class PlayersList(QWidget):
    """One line per seat: disc, name, role, state; the acting seats lit."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[PlayerRow] = []
        self.seats: list[dict[str, object]] = []
        self.you: int | None = None
        self.px = float(look.default_px())
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def show_rows(self, rows: list[PlayerRow], seats: list[dict[str, object]],
                  you: int | None, px: float) -> None:
        self.rows, self.seats, self.you, self.px = rows, seats, you, px
        self.tight = 1.0
        self.setFixedHeight(self.sizeHint().height())
        self.update()

    tight = 1.0
    """Below 1 the rows stand closer (a long list in a low window)."""

    def _line_h(self) -> float:
        roomy = 1.9 if len(self.rows) <= 8 else 1.55
        return self.px * max(1.3 if len(self.rows) <= 12 else 1.18, roomy * self.tight)

    def squeeze(self, share: float) -> None:
        """Rows closer together (``share`` of their usual spacing, never below 1.3 lines)."""
        self.tight = share
        self.setFixedHeight(self.sizeHint().height())
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(240, int(self._line_h() * max(1, len(self.rows)) + 4))

    def texts(self) -> list[str]:
        return [f"{look.seat_name(self.seats, r.seat)} {r.tag} {r.status}".strip()
                for r in self.rows]

    def paintEvent(self, event: QPaintEvent | None) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        line = self._line_h()
        w = self.width()
        r = max(line * 0.34, look.default_px() * 0.62)  # room for its letter
        # The marks in one column as wide as the widest (a pill where letters need it),
        # the names lined up after it.
        half = max((look.disc_half_width(r, look.seat_letter(self.seats, row.seat))
                    for row in self.rows), default=r)
        x = 2 * half + 9
        for i, row in enumerate(self.rows):
            top = i * line
            if row.acting:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QColor(255, 216, 102, 45))
                painter.drawRoundedRect(QRectF(0, top + 1, w, line - 2), 6, 6)
            name = look.seat_name(self.seats, row.seat)
            look.draw_disc(painter, QPointF(half + 4, top + line / 2), r,
                           look.seat_colour(self.seats, row.seat),
                           look.seat_letter(self.seats, row.seat))
            bold = look.font(self.px, bold=True)
            plain = look.font(self.px * 0.95)
            painter.setFont(bold)
            painter.setPen(look.LIT if row.acting else look.INK_ON_FELT)
            shown = name + (" " + _("(you)") if row.seat == self.you else "")
            right = row.status + ("  \u2713" if row.done else "")
            right_w = QFontMetrics(plain).horizontalAdvance(right) + 4
            room = int(w - x - right_w - 2)
            fitted = textfit.fit(shown, room, self.px, bold=True)
            painter.setFont(fitted.font)
            painter.drawText(QRectF(x, top, room, line), Qt.AlignmentFlag.AlignVCenter,
                             fitted.lines[0])
            used = fitted.width()
            space = self.px * 0.45
            for tag in (row.tag, row.short):  # the whole tag, else its short form
                if not tag:
                    continue
                label = textfit.fit(tag, room - used - space, self.px * 0.95,
                                    hyphenate=False)
                if label.fits or tag == (row.short or row.tag):
                    painter.setFont(label.font)
                    painter.setPen(look.MUTED_ON_FELT)
                    painter.drawText(QRectF(x + used + space, top, room - used - space, line),
                                     Qt.AlignmentFlag.AlignVCenter, label.lines[0])
                    break
            painter.setFont(plain)
            painter.setPen(look.LIT if row.acting else look.INK_ON_FELT)
            painter.drawText(QRectF(w - right_w - 4, top, right_w, line),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, right)
        painter.end()


class TrackView(QWidget):
    """The token track: cooperative tokens walk towards one star, team tokens race to theirs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model: TrackModel | None = None
        self.px = float(look.default_px())
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def show_track(self, model: TrackModel | None, px: float) -> None:
        self.model, self.px = model, px
        self.row = 2.6
        self.setVisible(model is not None)
        self.setFixedHeight(self.sizeHint().height())
        self.update()

    row = 2.6
    """A track's height in text heights (less in a crowded side panel)."""

    def squeeze(self) -> None:
        self.row = 1.8
        self.setFixedHeight(self.sizeHint().height())
        self.update()

    def _columns(self) -> int:
        """Effects two a row while their names fit half the width, else one."""
        m = self.model
        if m is None or not m.effects:
            return 2
        metrics = QFontMetrics(look.font(self.px * 0.85))
        half = max(self.width(), 240) / 2 - 10
        widest = max(metrics.horizontalAdvance("\u2713 " + name) for name, _ in m.effects)
        return 2 if widest <= half else 1

    def sizeHint(self) -> QSize:
        m = self.model
        if m is None:
            return QSize(240, 0)
        rows = 1 if m.meet else 2
        effects = len(m.effects)
        per = self._columns()
        return QSize(240, int(self.px * (self.row * rows + 1.6 * ((effects + per - 1) // per)
                                         + 0.6)))

    def paintEvent(self, event: QPaintEvent | None) -> None:
        m = self.model
        if m is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        w = float(self.width())
        row_h = self.px * self.row
        if m.meet:
            # Green starts at the left, red at the right; the star sits between.
            spaces = 2 * m.star + 1
            self._row(painter, 0, w, row_h, spaces, m.star,
                      [(m.green, RIGHT, "G"), (spaces - 1 - m.red, WRONG, "R")])
            y = row_h
        else:
            spaces = m.star + 1
            self._row(painter, 0, w, row_h, spaces, m.star, [(m.green, RIGHT, "G")])
            self._row(painter, row_h, w, row_h, spaces, m.star, [(m.red, WRONG, "R")])
            y = 2 * row_h
        if m.effects:
            fnt = look.font(self.px * 0.85)
            painter.setFont(fnt)
            per = self._columns()
            col_w = w / per
            for i, (name, on) in enumerate(m.effects):
                box = QRectF((i % per) * col_w, y + (i // per) * self.px * 1.6 + 2, col_w - 4,
                             self.px * 1.45)
                painter.setPen(QPen(look.LIT if on else QColor("#5A6E65"), 1.2))
                painter.setBrush(QColor(255, 216, 102, 50) if on else Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(box, 5, 5)
                painter.setPen(look.INK_ON_FELT if on else look.MUTED_ON_FELT)
                text = ("\u2713 " if on else "") + name
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter,
                                 QFontMetrics(fnt).elidedText(text, Qt.TextElideMode.ElideRight,
                                                              int(box.width() - 6)))
        painter.end()

    def _row(self, painter: QPainter, top: float, w: float, h: float, spaces: int, star: int,
             tokens: list[tuple[int, QColor, str]]) -> None:
        step = w / spaces
        r = min(step * 0.42, h * 0.36)
        cy = top + h / 2
        painter.setPen(QPen(QColor("#5A6E65"), 2))
        painter.drawLine(QPointF(step / 2, cy), QPointF(w - step / 2, cy))
        for i in range(spaces):
            cx = step * (i + 0.5)
            painter.setPen(QPen(QColor("#8FA69C"), 1.5))
            painter.setBrush(QColor("#22362D"))
            painter.drawEllipse(QPointF(cx, cy), r * 0.7, r * 0.7)
            if i == star:
                painter.setPen(look.LIT)
                painter.setFont(look.font(r * 1.5, bold=True))
                painter.drawText(QRectF(cx - r, cy - r, 2 * r, 2 * r),
                                 Qt.AlignmentFlag.AlignCenter, "\u2605")
        for pos, colour, letter in tokens:
            pos = max(0, min(spaces - 1, pos))
            look.draw_disc(painter, QPointF(step * (pos + 0.5), cy), r, colour, letter)


class SidePanel(QFrame):
    """Players, the track and facts, above the log."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stierSide")
        self.setStyleSheet("#stierSide { background: #1B2A24; border-left: 1px solid #0B1712; }"
                           "#stierSide QLabel { color: #E8EDE9; }")
        self.title = QLabel(_("Players"), self)
        self.players = PlayersList(self)
        self.track_title = QLabel(_("Track"), self)
        self.track = TrackView(self)
        self.facts = QLabel(self)
        self.facts.setWordWrap(True)
        self.facts.setTextFormat(Qt.TextFormat.PlainText)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 10, 10, 6)
        column.setSpacing(6)
        column.addWidget(self.title)
        column.addWidget(self.players)
        column.addWidget(self.track_title)
        column.addWidget(self.track)
        column.addWidget(self.facts)
        self.px = float(look.default_px())

    def fit(self, width: int, height: int) -> None:
        self.setFixedWidth(max(280, min(420, round(width * 0.22))))
        self.px = max(look.default_px() * 1.05, height * 0.0155)
        self._type(self.px)

    def _type(self, px: float) -> None:
        """Every text of the panel at ``px`` (the rows, the tracks, the titles, the facts)."""
        self.title.setFont(look.font(px * 1.15, bold=True))
        self.track_title.setFont(look.font(px * 1.15, bold=True))
        self.facts.setFont(look.font(max(float(look.default_px()), px * 0.95)))
        self.players.px = px
        self.track.px = px

    def settle(self, room: float = 1e9) -> None:
        """Wrapped facts need their height for this width, or the panel overlaps itself;
        a panel taller than ``room`` first brings its player rows closer, then its
        tracks and gaps, and last sets its texts in the smallest type (16 seats at
        game over in a 1024x640 screen cut the facts off at the foot)."""
        need = 0
        for px in dict.fromkeys((self.px, min(self.px, float(look.default_px())))):
            self._type(px)
            need = self._settle_at(room)
            if need <= room:
                break
        self.setFixedHeight(need)

    def _settle_at(self, room: float) -> int:
        # From the roomy panel each time: a second settle (the log folded away) squeezed
        # the already squeezed rows by a share of their squeezed height, so they came
        # back roomy and the facts under them were cut off (16 seats at 1024x640).
        self.players.tight = 1.0
        self.players.setFixedHeight(self.players.sizeHint().height())
        self.track.row = TrackView.row
        self.track.setFixedHeight(self.track.sizeHint().height())
        margins = self.contentsMargins()
        inner = self.width() - 22 - margins.left() - margins.right()
        self.facts.setFixedHeight(max(0, self.facts.heightForWidth(max(100, inner)))
                                  if self.facts.text() else 0)
        layout = self.layout()
        if layout is None:
            return self.height()
        layout.setSpacing(6)
        layout.activate()
        need = layout.sizeHint().height()
        if need > room and self.players.rows:
            over = need - room
            rows = len(self.players.rows)
            share = max(0.0, 1 - over / (rows * self.players._line_h()))
            self.players.squeeze(share)
            layout.activate()
            need = layout.sizeHint().height()
        if need > room:  # still too tall: the tracks and the gaps give way too
            self.track.squeeze()
            layout.setSpacing(3)
            layout.activate()
            need = layout.sizeHint().height()
        self.players.update()
        self.track.update()
        return int(need)


__all__ = ["PlayersList", "SidePanel", "TrackView"]
