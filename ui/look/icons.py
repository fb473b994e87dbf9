"""Pictures drawn with QPainter: game icons, the lock, seat badges.

Drawn rather than loaded from fonts or files: only DejaVu is installed on a
typical LAN-party laptop and emoji render as boxes, while a painted shape
looks the same everywhere and scales to any DPI.
"""

from __future__ import annotations

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PyQt6.QtWidgets import QApplication

from ui.look import theme

GAME_COLOURS = {"alles-klar": "#0072B2", "ranking": "#E69F00", "s-tier": "#CC79A7",
                "ranking-top": "#009E73", "ranagedon": "#56B4E9"}


def _pixmap(size: int) -> tuple[QPixmap, QPainter]:
    app = QApplication.instance()
    ratio = app.devicePixelRatio() if isinstance(app, QApplication) else 1.0
    pm = QPixmap(int(size * ratio), int(size * ratio))
    pm.setDevicePixelRatio(ratio)
    pm.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pm)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    return pm, painter


def _font(px: float, bold: bool = True) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, int(px)))
    font.setBold(bold)
    return font


def _card(p: QPainter, rect: QRectF, value: str, numeral: str, angle: float) -> None:
    p.save()
    p.translate(rect.center())
    p.rotate(angle)
    r = QRectF(-rect.width() / 2, -rect.height() / 2, rect.width(), rect.height())
    p.setPen(QPen(QColor("#3b4b55"), max(1.0, rect.width() / 30)))
    p.setBrush(QColor("#f7f3e8"))
    p.drawRoundedRect(r, rect.width() / 8, rect.width() / 8)
    p.setPen(QColor("#1b2a33"))
    p.setFont(_font(rect.height() * 0.42))
    p.drawText(r.adjusted(0, -r.height() * 0.12, 0, 0), Qt.AlignmentFlag.AlignCenter, value)
    p.setFont(_font(rect.height() * 0.2))
    p.setPen(QColor("#0072B2"))
    p.drawText(r.adjusted(0, r.height() * 0.5, 0, -r.height() * 0.06),
               Qt.AlignmentFlag.AlignCenter, numeral)
    p.restore()


def game_pixmap(game_id: str, size: int, enabled: bool = True) -> QPixmap:
    """A picture for a game: what you would see on the box, simplified."""
    pm, p = _pixmap(size)
    s = float(size)
    back = QColor(GAME_COLOURS.get(game_id, "#999999"))
    if not enabled:
        back = QColor("#56646c")
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(back.darker(160))
    p.drawRoundedRect(QRectF(0, 0, s, s), s * 0.16, s * 0.16)
    if game_id == "alles-klar":
        w, h = s * 0.34, s * 0.5
        for value, numeral, dx, angle in (("3", "IV", -0.2, -14), ("11", "I", 0.2, 14),
                                          ("7", "III", 0.0, 0)):
            _card(p, QRectF(s / 2 - w / 2 + dx * s, s * 0.24, w, h), value, numeral, angle)
    elif game_id in ("ranking", "ranking-top"):
        p.setBrush(QColor("#f7f3e8"))
        heights = (0.55, 0.75, 0.4) if game_id == "ranking-top" else (0.7, 0.52, 0.36)
        for i, hgt in enumerate(heights):
            x = s * (0.18 + i * 0.23)
            p.drawRoundedRect(QRectF(x, s * (0.84 - hgt), s * 0.18, s * hgt), s * 0.03, s * 0.03)
        p.setPen(back.darker(220))
        p.setFont(_font(s * 0.14))
        order = ("2", "1", "3") if game_id == "ranking-top" else ("1", "2", "3")
        for i, label in enumerate(order):
            x = s * (0.18 + i * 0.23)
            p.drawText(QRectF(x, s * 0.66, s * 0.18, s * 0.16), Qt.AlignmentFlag.AlignCenter,
                       label)
    elif game_id == "s-tier":
        tiers = (("S", "#D55E00"), ("A", "#E69F00"), ("B", "#F0E442"))
        for i, (letter, colour) in enumerate(tiers):
            y = s * (0.17 + i * 0.23)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(colour))
            p.drawRoundedRect(QRectF(s * 0.14, y, s * 0.2, s * 0.19), s * 0.03, s * 0.03)
            p.setBrush(QColor("#f7f3e8"))
            p.drawRoundedRect(QRectF(s * 0.38, y, s * 0.48 - i * s * 0.1, s * 0.19),
                              s * 0.03, s * 0.03)
            p.setPen(QColor("#1b2a33"))
            p.setFont(_font(s * 0.14))
            p.drawText(QRectF(s * 0.14, y, s * 0.2, s * 0.19), Qt.AlignmentFlag.AlignCenter,
                       letter)
    elif game_id == "ranagedon":
        p.setBrush(QColor("#7fd1b9"))
        p.drawEllipse(QRectF(s * 0.18, s * 0.34, s * 0.64, s * 0.44))
        for x in (0.3, 0.58):
            p.setBrush(QColor("#7fd1b9"))
            p.drawEllipse(QRectF(s * x, s * 0.22, s * 0.16, s * 0.16))
            p.setBrush(QColor("#1b2a33"))
            p.drawEllipse(QRectF(s * (x + 0.05), s * 0.27, s * 0.06, s * 0.06))
        p.setPen(QPen(QColor("#1b2a33"), s * 0.025))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawArc(QRectF(s * 0.36, s * 0.44, s * 0.28, s * 0.16), 200 * 16, 140 * 16)
    else:
        p.setPen(QColor("#f7f3e8"))
        p.setFont(_font(s * 0.4))
        p.drawText(QRectF(0, 0, s, s), Qt.AlignmentFlag.AlignCenter, "?")
    p.end()
    return pm


def game_icon(game_id: str, enabled: bool = True) -> QIcon:
    icon = QIcon()
    for size in (32, 48, 64):
        icon.addPixmap(game_pixmap(game_id, size, enabled))
    return icon


def lock_pixmap(size: int, colour: str = theme.WARN_BG) -> QPixmap:
    """A padlock: the mark of a host that needs a password."""
    pm, p = _pixmap(size)
    s = float(size)
    p.setPen(QPen(QColor(colour), s * 0.12))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawArc(QRectF(s * 0.28, s * 0.1, s * 0.44, s * 0.5), 0, 180 * 16)
    p.drawLine(QPointF(s * 0.28, s * 0.35), QPointF(s * 0.28, s * 0.45))
    p.drawLine(QPointF(s * 0.72, s * 0.35), QPointF(s * 0.72, s * 0.45))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(colour))
    p.drawRoundedRect(QRectF(s * 0.16, s * 0.42, s * 0.68, s * 0.5), s * 0.08, s * 0.08)
    p.setBrush(QColor(theme.BG))
    p.drawEllipse(QRectF(s * 0.44, s * 0.55, s * 0.12, s * 0.12))
    p.end()
    return pm


def warning_pixmap(size: int, colour: str = "#D55E00") -> QPixmap:
    """A triangle with '!': the mark of a host this version cannot join."""
    pm, p = _pixmap(size)
    s = float(size)
    path = QPainterPath()
    path.moveTo(s * 0.5, s * 0.06)
    path.lineTo(s * 0.96, s * 0.9)
    path.lineTo(s * 0.04, s * 0.9)
    path.closeSubpath()
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(colour))
    p.drawPath(path)
    p.setPen(QColor("#ffffff"))
    p.setFont(_font(s * 0.6))
    p.drawText(QRectF(0, s * 0.2, s, s * 0.7), Qt.AlignmentFlag.AlignCenter, "!")
    p.end()
    return pm


def initials(name: str) -> str:
    parts = [w for w in name.split() if w]
    if not parts:
        return "?"
    if len(parts) > 1 and parts[-1].isdigit():
        return (parts[0][0] + parts[-1][0]).upper()
    return parts[0][0].upper()


def badge_pixmap(name: str, colour: str, size: int, *, bot: bool = False,
                 faded: bool = False, text: str | None = None) -> QPixmap:
    """A disc in the player's colour with their badge text (``lanplay.badges``; the
    initials of ``name`` without one): colour never alone."""
    pm, p = _pixmap(size)
    s = float(size)
    fill = QColor(colour or "#999999")
    if faded:
        fill.setAlphaF(0.45)
    p.setPen(QPen(QColor(theme.BG), s * 0.05))
    p.setBrush(QBrush(fill))
    rect = QRectF(s * 0.04, s * 0.04, s * 0.92, s * 0.92)
    if bot:
        p.drawRoundedRect(rect, s * 0.22, s * 0.22)  # a square-ish badge marks a bot
    else:
        p.drawEllipse(rect)
    p.setPen(theme.ink_for(colour or "#999999"))
    text = text or initials(name)
    p.setFont(_font(s * (0.46 if len(text) == 1 else 0.36 if len(text) == 2 else 0.28)))
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
    p.end()
    return pm
