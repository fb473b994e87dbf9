"""The middle of the Ranking Top table: the open top window, or what happens now.

In a top window the stage shows the chain of cards played and topped (each
with who did it), what happens if nobody tops, who has passed and who still
decides, and the big TOP! and Pass buttons for a seat that may act. Otherwise
it says what I can do now, above the last two lines of the log. Drawing
only: the table hands in the reading and the layout, keeps what the stage
drew (``Drawn``) and answers the buttons' clicks itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetricsF
from PyQt6.QtWidgets import (
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QPushButton,
    QWidget,
)

from lanplay.messages import render
from ui.tables import look, textfit
from ui.tables.felt import names_list
from ui.tables.ranking_top.faces import card_name, face_of
from ui.tables.ranking_top.items import CardItem
from ui.tables.ranking_top.layout import COUNTDOWN_LINES, Layout
from ui.tables.ranking_top.reading import Reading
from ui.tables.ranking_top.seats import DiscItem, direction_place
from ui.tables.widgets import BUTTON_STYLE
from ui.words.i18n import _
from ui.words.result_words import view_verdict

TOP_STYLE = (
    "QPushButton { background: #F2C94C; color: #1A1408; border: 3px solid #8A6D2F;"
    " border-radius: 10px; padding: 6px 18px; font-weight: bold; }"
    "QPushButton:hover { background: #FFE08A; }")
PASS_STYLE = BUTTON_STYLE.replace("#F3E6C2", "#DCE3DF")
LABEL_LINES = 2.4
"""The room under a chain's card for who played it and where, in text heights (two
lines: "Jonas →" over "discard pile" where the cards lie close)."""


def caption(scene: QGraphicsScene, text: str, box: QRectF, px: float,
            colour: QColor = look.MUTED_ON_FELT, bold: bool = False,
            centre: bool = True, lines: int = 1) -> list[QGraphicsSimpleTextItem]:
    """``text`` in ``box`` (centred, or from its left), a little smaller or in ``lines``
    lines if it must; stacked in the middle of the box."""
    fitted = textfit.fit(text, box.width(), px, 1, bold=bold, min_px=px * 0.85)
    if not fitted.fits:
        fitted = textfit.fit(text, box.width(), px, lines, bold=bold, height=box.height())
    top = box.top() + max(0.0, (box.height() - fitted.height()) / 2)
    return textfit.add_lines(scene, fitted, QRectF(box.left(), top, box.width(),
                                                   fitted.height()), colour, centre)


class WindowButtons:
    """TOP! and Pass: two buttons on the viewport, over the stage's button row."""

    def __init__(self, parent: QWidget) -> None:
        self.top = QPushButton("TOP!", parent)
        self.top.setObjectName("rtopTop")
        self.top.setStyleSheet(TOP_STYLE)
        self.top.setToolTip(_("Top the last card (Space)"))
        self.pass_ = QPushButton(_("Pass"), parent)
        self.pass_.setObjectName("rtopPass")
        self.pass_.setStyleSheet(PASS_STYLE)
        self.pass_.setToolTip(_("Let it stand (P or Esc)"))
        for button in (self.top, self.pass_):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # Space and P take them anyway
            button.hide()
        self.top.setAccessibleName("TOP!")
        self.pass_.setAccessibleName(_("Pass"))

    def hide(self) -> None:
        self.top.hide()
        self.pass_.hide()

    def place(self, box: QRectF, t: float, graphics: QGraphicsView,
              column: bool | None = None) -> None:
        """Show both, side by side and centred in the scene's ``box`` (or TOP! over
        Pass, in a box tall enough or when ``column`` says so)."""
        h = round(box.height())
        top_w, pass_w = round(t * 8.5), round(t * 6.5)
        self.top.setFont(look.font(t * 1.35, bold=True))
        self.pass_.setFont(look.font(t * 1.1, bold=True))
        self.top.setText("TOP!  " + _("(Space)"))
        self.pass_.setText(_("Pass") + "  (P)")
        gap = round(t)
        if self.top.sizeHint().width() + self.pass_.sizeHint().width() + gap > box.width():
            self.top.setText("TOP!")  # long keys' names: the tooltips still say them
            self.pass_.setText(_("Pass"))
        top_w = max(top_w, self.top.sizeHint().width())
        pass_w = max(pass_w, self.pass_.sizeHint().width())
        if column or (column is None and box.height() >= t * 5.6):  # TOP! over Pass
            self.pass_.setText(_("Pass") + " (P)")
            for px in (t * 1.15, t * 0.95):  # the keys a little smaller before none
                self.top.setFont(look.font(px, bold=True))
                self.pass_.setFont(look.font(min(px, t * 1.1), bold=True))
                self.top.setText("TOP! " + _("(Space)"))
                if max(self.top.sizeHint().width(),
                       self.pass_.sizeHint().width()) <= box.width():
                    break
            else:
                # the keys' names are long in this language: the tooltips still say them
                self.top.setFont(look.font(t * 1.15, bold=True))
                self.pass_.setFont(look.font(t * 1.1, bold=True))
                self.top.setText("TOP!")
                self.pass_.setText(_("Pass"))
            width = max(round(box.width()), self.top.sizeHint().width(),
                        self.pass_.sizeHint().width())
            h = round((box.height() - t * 0.6) / 2)
            left = graphics.mapFromScene(QPointF(box.center().x() - width / 2, box.top()))
            self.top.setGeometry(left.x(), left.y(), width, h)
            self.pass_.setGeometry(left.x(), left.y() + h + round(t * 0.6), width, h)
        else:
            left = graphics.mapFromScene(QPointF(
                box.center().x() - (top_w + gap + pass_w) / 2, box.top()))
            self.top.setGeometry(left.x(), left.y(), top_w, h)
            self.pass_.setGeometry(left.x() + top_w + gap, left.y(), pass_w, h)
        self.top.show()
        self.pass_.show()
        self.top.raise_()
        self.pass_.raise_()


@dataclass
class Drawn:
    """What the stage put on the table: the chain's cards, its lines, each card's place."""

    cards: list[CardItem] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    rects: dict[int, QRectF] = field(default_factory=dict)

    def remember(self, card: dict[str, Any], rect: QRectF) -> None:
        card_id = card.get("id")
        if isinstance(card_id, int):
            self.rects[card_id] = QRectF(rect)


def draw_stage(scene: QGraphicsScene, read: Reading, seats: list[dict[str, Any]],
               lay: Layout) -> Drawn:
    """The chain of an open top window, or the message of the moment."""
    drawn = Drawn()
    chain = read.chain()
    if chain and read.phase() == "window":
        _draw_chain(scene, read, seats, lay, chain, drawn)
    else:
        _draw_message(scene, read, lay, drawn)
    return drawn


def _draw_chain(scene: QGraphicsScene, read: Reading, seats: list[dict[str, Any]],
                lay: Layout, chain: list[dict[str, Any]], drawn: Drawn) -> None:
    t = lay.text_px
    stage = lay.stage
    owner = chain[0].get("seat")
    standing = read.view.get("standing")
    face = face_of(chain[0].get("card"))
    what = str(face.number) if face.kind == "song" and face.number else card_name(face)
    mine = owner == read.you
    if standing:
        title = (_("If nobody tops: your {card} stands") if mine else
                 _("If nobody tops: {name}'s {card} stands"))
    else:
        title = (_("If nobody tops back: your {card} is cancelled") if mine else
                 _("If nobody tops back: {name}'s {card} is cancelled"))
    title = title.format(name=read.name(owner), card=what)
    drawn.lines.append(title)
    box = QRectF(stage.left(), stage.top(), stage.width(), t * 1.4)
    if not textfit.fit(title, box.width(), t * 1.05, bold=True, min_px=t * 0.9).fits:
        # German's "Toppt niemand zurück: Urregel von Jonas wird aufgehoben" is wider
        # than the stage of a small window: over the direction's column too, where its
        # arrow starts lower down
        size, spot = direction_place(lay.direction, t, read.view.get("direction", 1) == 1)
        if spot.top() + size * 0.15 >= box.bottom():
            box.setRight(lay.direction.right())
    caption(scene, title, box, t * 1.05, look.LIT if standing is False else look.INK_ON_FELT,
            bold=True)
    labels = [read.chain_label(i, link) for i, link in enumerate(chain)]
    metrics = QFontMetricsF(look.font(look.default_px()))
    widest = max((metrics.horizontalAdvance(text) for text in labels[:-1]), default=0.0)
    slots = lay.chain_slots(len(chain), widest + t * 1.9)
    for i, (link, rect) in enumerate(zip(chain, slots, strict=True)):
        card = dict(link.get("card") or {})
        if i == 0 and link.get("to") == "top" and link.get("stands"):
            card.setdefault("stands", link.get("stands"))
        item = CardItem(card, rect.width(), rect.height())
        item.compact = i + 1 < len(slots) and slots[i + 1].left() < rect.right() - 2
        item.setPos(rect.topLeft())
        item.setZValue(10 + i)
        scene.addItem(item)
        drawn.cards.append(item)
        drawn.remember(card, rect)
        seat = link.get("seat")
        label = labels[i]
        drawn.lines.append(label)
        area = lay.chain_area if not lay.chain_area.isNull() else stage
        right = slots[i + 1].left() - t * 0.3 if i + 1 < len(slots) \
            else max(rect.right(), area.right() - t * 0.3)
        # up to the next card's label: where the cards overlap (a long chain in a small
        # window) a label as wide as its card ran over the next one's badge and words
        box = QRectF(rect.left(), rect.bottom() + t * 0.25, right - rect.left(),
                     LABEL_LINES * t)
        if isinstance(seat, int):
            r = t * 0.55
            disc = DiscItem(look.seat_colour(seats, seat),
                            look.seat_letter(seats, seat), r)
            disc.setPos(box.left(), box.top() + t * 0.7 - r)
            disc.setToolTip(label)
            scene.addItem(disc)
            box.setLeft(box.left() + 2 * r + t * 0.3)
        fitted = textfit.fit(label, box.width(), t * 0.95, 1, min_px=t * 0.8)
        if not fitted.fits:
            fitted = textfit.fit(label, box.width(), t * 0.95, 2, height=box.height())
        if fitted.fits:  # too close to the next card for words: its badge says who
            textfit.add_lines(scene, fitted, box, look.INK_ON_FELT, centre=False)
    _window_words(scene, read, lay, drawn)


def _window_words(scene: QGraphicsScene, read: Reading, lay: Layout, drawn: Drawn) -> None:
    """Who passed and who still decides: under TOP! and Pass when I may act (the table
    places them), else where they would be, under the countdown.

    In a row under the cards: one line under the buttons, or two in their row. In
    their column beside the cards (a low middle: 1000x592): each part on a line of its
    own, down to the stage's foot, or to my hand where my row leaves the column free;
    under the column's head, where the countdown runs (the words once lay under it,
    shortened to "Du hast gepasst · G…", issue 31)."""
    t = lay.text_px
    box = lay.buttons
    you = read.you
    deciding = [s for s in read.actors() if s != you]
    passed = [read.name(s) for s in read.passed() if s != you]
    words = []
    if you is not None and you in read.passed():
        words.append(_("You passed"))
    if passed:
        words.append(_("Passed: {names}").format(names=names_list(passed)))
    if deciding:
        words.append(_("Deciding: {names}").format(
            names=names_list([read.name(s) for s in deciding])))
    if not words:
        return
    acting = read.my_window()
    if box.height() < t * 5.6:  # a row under the chain's cards
        text = " · ".join(words)
        drawn.lines.append(text)
        if acting:
            caption(scene, text, QRectF(box.left(), box.bottom() + t * 0.3, box.width(),
                                        t * 1.3), t * 0.95)
        else:
            caption(scene, text, box, t * 0.95, lines=2)
        return
    top = box.bottom() + t * 0.3 if acting else box.top() + t * COUNTDOWN_LINES
    px = t * 0.95
    parts, joined = "\n".join(words), " \u00b7 ".join(words)
    drawn.lines.append(joined)
    fitted, room = textfit.fit(joined, box.width(), px), box
    for room in _word_rooms(lay, read, top):
        most = max(1, int(room.height() // (QFontMetricsF(look.font(px)).height()
                                              * textfit.LEADING)))
        for text in (parts, joined):  # each part on its own line, else sharing them
            fitted = textfit.fit(text, room.width(), px, most, height=room.height())
            if fitted.fits:
                break
        if fitted.fits:
            break
    textfit.add_lines(scene, fitted, QRectF(room.left(), room.top(), room.width(),
                                            fitted.height()), look.MUTED_ON_FELT)


def _word_rooms(lay: Layout, read: Reading, top: float) -> list[QRectF]:
    """Where who passed and who still decides may go, beside the chain's cards, from
    ``top`` down, best first: the buttons' column; or, where my Ranking Top reaches
    under the column, the strip above my row out to the direction's column (once the
    direction's words end), then the corner right of my row, under the direction."""
    t, m, box = lay.text_px, lay.margin, lay.buttons
    foot = lay.hand_band.top() - m * 0.5
    mine = lay.seats.get(lay.bottom)
    row = QRectF(mine.ranking[0].topLeft(), mine.ranking[-1].bottomRight()) \
        if mine is not None and mine.ranking else QRectF()
    if row.isNull() or row.right() + m * 0.5 <= box.left():
        return [QRectF(box.left(), top, box.width(), foot - top)]
    rooms = [QRectF(box.left(), top, box.width(), lay.stage.bottom() - top)]
    clockwise = read.view.get("direction", 1) == 1
    below = direction_place(lay.direction, t, clockwise)[1].bottom() + t * 0.2
    right = lay.direction.right()
    if top >= below - t * 0.6:
        rooms.append(QRectF(box.left(), top, right - box.left(),
                            min(t * 1.3, row.top() - m * 0.5 - top)))
    left = max(box.left(), row.right() + m)
    high = max(top, below)
    rooms.append(QRectF(left, high, right - left, foot - high))
    return [r for r in rooms if r.height() >= t and r.width() >= t * 4]


def _draw_message(scene: QGraphicsScene, read: Reading, lay: Layout, drawn: Drawn) -> None:
    """No window open: what I can do now, and what just happened."""
    view = read.view
    t = lay.text_px
    stage = lay.stage
    lines: list[tuple[str, float, QColor, bool]] = []
    phase = read.phase()
    if phase == "over":
        won = read.you is not None and view_verdict(view).winners == (read.you,)  # not a tie
        lines.append((_("You win: your Ranking Top is complete!") if won
                      else read.result_words() or _("Game over"), t * 1.5,
                      look.LIT, True))
        scores = view.get("scores") or []
        if scores:
            parts = [f"{read.name(s)} {n}/5" for s, n in enumerate(scores)]
            lines.append((_("Ranking Tops: {scores}").format(scores=", ".join(parts)), t * 1.0,
                          look.INK_ON_FELT, False))
    elif read.my_play():
        needed = read.needed(read.you)
        lines.append((_("Your Ranking Top needs a {n}").format(n=needed) if needed
                      else _("Your turn"), t * 1.4, look.LIT, True))
        if phase == "again" and view.get("again") == "objecion":
            lines.append((_("{song}: this card cannot be topped").format(
                song="Objeción Denegada"), t * 1.05, look.INK_ON_FELT, True))
        elif phase == "again":
            lines.append((_("{song}: play one more card (it can be topped)").format(
                song="Diente blanco"), t * 1.05, look.INK_ON_FELT, True))
        lines.append((_("Click a card, then choose where it goes (or drag it onto your "
                        "Ranking Top or the discard pile)"), t * 0.95, look.INK_ON_FELT,
                      False))
    elif read.my_keep():
        lines.append((_("Click the one card you keep"), t * 1.4, look.LIT, True))
        lines.append((_("The rest of your hand goes to the discard pile, then you draw 4"),
                      t * 0.95, look.INK_ON_FELT, False))
    else:
        lines.append((read.turn_text(), t * 1.2, look.INK_ON_FELT, True))
    log = view.get("log") or []
    recent = [render(e, read.names) for e in log[-2:]]
    if recent:
        lines.append(("", t * 0.6, look.MUTED_ON_FELT, False))
    for text in recent:
        lines.append((text, t * 0.95, look.MUTED_ON_FELT, False))
    width = stage.width() - 8
    blocks = [(textfit.fit(text, width, px, 4, bold=bold) if text else None, px, colour, text)
              for text, px, colour, bold in lines]

    def height(block: tuple[textfit.Fitted | None, float, QColor, str]) -> float:
        fitted, px = block[0], block[1]
        return fitted.height() if fitted is not None else px

    # The log panel keeps every line: the oldest recent line gives way on a small stage.
    while sum(height(b) for b in blocks) > stage.height() and recent:
        recent.pop(0)
        blocks.pop(len(blocks) - len(recent) - 1)
    y = stage.top() + max(0.0, (stage.height() - sum(height(b) for b in blocks)) / 2)
    for block in blocks:
        fitted, _px, colour, text = block
        if fitted is not None:
            drawn.lines.append(text)
            textfit.add_lines(scene, fitted, QRectF(stage.left(), y, stage.width(),
                                                    fitted.height()), colour)
        y += height(block)
