"""The Alles klar? table: renders a view, animates the last play, emits intents.

Everything drawn comes from the view the host sent and the lobby's seat
maps; nothing here decides a rule. The numeral choice offered for a
two-numeral card is read off the view's ranking cards, and the host checks
every intent anyway (a refusal comes back through ``show_rejection``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from PyQt6.QtCore import (
    QParallelAnimationGroup,
    QPointF,
    QRectF,
    QSequentialAnimationGroup,
    Qt,
    QTimer,
)
from PyQt6.QtGui import QColor, QFontMetrics, QKeyEvent
from PyQt6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem, QWidget

from lanplay.games.alles_klar.rules import ROMAN
from lanplay.messages import render
from ui.tables import look, textfit
from ui.tables.alles_klar.items import (
    CardItem,
    PlateItem,
    RankingItem,
    StackItem,
    ZoneItem,
    rank_caption_width,
)
from ui.tables.alles_klar.layout import Layout, compute
from ui.tables.felt import FeltTable
from ui.tables.keys import Target
from ui.tables.motion import HOLD_MS
from ui.tables.pieces import RingItem
from ui.tables.widgets import NumeralChooser
from ui.words.i18n import N_, _, and_list, ngettext
from ui.words.result_words import tie

FLY_MS = 280
TRICK_MS = 320
PULSE_MS = 650
SNAP_MS = 200
ORDINALS = (N_("highest"), N_("second-highest"), N_("third-highest"), N_("fourth-highest"),
            N_("fifth-highest"))


def card_text(card: dict[str, Any]) -> str:
    """'7 (III)', '4 (I, V)' or '9', from a card map of the view."""
    numerals = [ROMAN[n - 1] for n in card.get("numerals", []) if 1 <= n <= 5]
    value = card.get("value", "?")
    return f"{value} ({', '.join(numerals)})" if numerals else str(value)


def play_for(card: dict[str, Any], ranking: list[bool]) -> tuple[dict[str, Any] | None, list[int]]:
    """The intent for playing ``card``, or None and the numerals to choose between.

    A numeral is named exactly when one ranking card of the card is still up;
    with two up the player chooses; the host checks the result either way.
    """
    up = [n for n in card.get("numerals", []) if 1 <= n <= 5 and ranking[n - 1]]
    if len(up) > 1:
        return None, up
    action: dict[str, Any] = {"type": "play", "card": card["id"]}
    if up:
        action["numeral"] = up[0]
    return action, up


class AllesKlarTable(FeltTable):
    """The table widget the window embeds for a game of Alles klar?."""

    KEYS = (("1-9", N_("play the card at that place in your hand, from the left (the key "
                       "shows on each card while it is your turn)")),
            ("1, 2", N_("in the choice of the ranking card that turns down: take that one")),
            (N_("Esc"), N_("close the choice of the ranking card that turns down")))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("allesKlarTable", parent)
        self.layout_: Layout | None = None
        self.hand_items: list[CardItem] = []
        self.table_items: dict[int, CardItem] = {}
        self.plates: dict[int, PlateItem] = {}
        self.ranking_items: list[RankingItem] = []
        self.last_line: QGraphicsSimpleTextItem | None = None
        self.centre_words: list[QGraphicsSimpleTextItem] = []
        """The centre row's words: the piles' names and the last play's lines."""
        self.my_plate: PlateItem | None = None
        self.zone: ZoneItem | None = None
        self._gave_way: list[QGraphicsItem] = []
        """Pieces under the open choice, hidden until it closes (``_ask_numeral``)."""
        self._hand_rects: dict[int, QRectF] = {}
        self._table_rects: dict[int, tuple[QRectF, bool]] = {}
        self._pending: int | None = None
        self._pending_pos: QPointF | None = None
        self._pending_timer = QTimer(self)
        self._pending_timer.setSingleShot(True)
        self._pending_timer.setInterval(5000)
        self._pending_timer.timeout.connect(self._pending_expired)
        self.chooser = NumeralChooser(self._viewport())
        self.chooser.chosen.connect(self._chosen)
        self.chooser.cancelled.connect(self._cancel_choice)

    # --- the contract --------------------------------------------------------

    def set_view(self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
                 animate: bool = True) -> None:
        """Show ``view``; animate its last play unless this is a resync (animate=False)."""
        self._finish_animation()
        previous = self.view
        before_hand, before_table = dict(self._hand_rects), dict(self._table_rects)
        dropped = self._pending_pos
        players = int(view.get("players", len(view.get("table", []))))
        self._adopt(view, seats, you, players)
        self._clear_pending()
        self._close_choice()
        self._rebuild()
        self.banner.show_state(self._turn_text(), *self._turn_seat_look(),
                               _("Trick {n}").format(n=view.get("trick", 1)),
                               accent=self._my_turn())
        self._show_log(view, render)
        last = view.get("last")
        if (animate and previous is not None and last
                and last != previous.get("last") and previous.get("game") == view.get("game")):
            self._animate(last, previous, before_hand, before_table, dropped)

    def show_rejection(self, reason: str) -> None:
        """The host's reason, near where the player looked, for a few seconds."""
        self._clear_pending(snap_back=True)
        self._close_choice()
        self._toast(reason)

    def _toast_home(self) -> QPointF | None:
        if self.layout_ is not None and self.layout_.hand:
            return self.layout_.hand_band.center()
        return None

    # --- what the banner says ---------------------------------------------------

    def teach_spot(self, key: str) -> Any:
        lay = self.layout_
        if lay is None:
            return None
        spots = {"hand": list(lay.hand) or [lay.hand_band], "ranking": list(lay.ranking)}
        return self._spot(spots.get(key, []))

    def _turn_text(self) -> str:
        view = self.view or {}
        names = self._names()
        if view.get("over"):
            winners = [names[s] for s in view.get("winners") or [] if 0 <= s < len(names)]
            scores = view.get("scores") or []
            best = max(scores) if scores else 0
            drawn = tie(view)
            if drawn is not None:  # everyone tied: nobody is told they won
                return ngettext("Game over: a draw, everyone has {n} card",
                                "Game over: a draw, everyone has {n} cards", drawn).format(
                                    n=drawn)
            if len(winners) == 1:
                return ngettext("Game over: {name} wins with {n} card",
                                "Game over: {name} wins with {n} cards", best).format(
                                    name=winners[0], n=best)
            if winners:
                return ngettext("Game over: {names} share the win with {n} card",
                                "Game over: {names} share the win with {n} cards",
                                best).format(names=and_list(winners), n=best)
            return _("Game over")
        turn = view.get("turn")
        if turn is None:
            return _("Waiting for the game to start")
        if turn == self.you:
            return _("Your turn: play a card")
        return _("Waiting for {name}").format(
            name=names[turn] if 0 <= turn < len(names) else _("seat {n}").format(n=turn + 1))

    def _turn_seat_look(self) -> tuple[QColor | None, str]:
        view = self.view or {}
        turn = view.get("turn")
        if view.get("over") or turn is None:
            return None, ""
        return look.seat_colour(self.seats, turn), look.seat_letter(self.seats, turn)

    # --- drawing the scene --------------------------------------------------------

    def _my_turn(self) -> bool:
        view = self.view or {}
        return (self.you is not None and not view.get("over") and view.get("turn") == self.you)

    def _rebuild(self) -> None:
        self._finish_animation()
        self.scene.clear()
        self.hand_items, self.table_items, self.plates = [], {}, {}
        self.ranking_items, self.last_line, self.zone = [], None, None
        self.centre_words, self.my_plate, self._gave_way = [], None, []
        self._hand_rects, self._table_rects = {}, {}
        size = self._viewport().size()
        width, height = max(320, size.width()), max(240, size.height())
        self.scene.setSceneRect(0, 0, width, height)
        view = self.view
        if view is None:
            return
        players = int(view.get("players", len(view.get("table", []))))
        bottom = self.you if self.you is not None else 0
        hand = view.get("hand", []) if self.you is not None else []
        text_px = max(look.default_px() * 1.2, min(width, height) * 0.021)
        lay = compute(width, height, players, bottom, text_px, len(hand),
                      rank_caption_width())
        self.layout_ = lay
        self._draw_plates(view, lay, players)
        self._draw_rows(view, lay)
        self._draw_centre(view, lay)
        self._draw_hand(view, lay, hand)

    def _draw_plates(self, view: dict[str, Any], lay: Layout, players: int) -> None:
        counts = view.get("hand_counts", [0] * players)
        won = view.get("won", [0] * players)
        for seat, place in lay.places.items():
            seat_map = self.seats[seat] if seat < len(self.seats) else {}
            plate = PlateItem(seat, seat_map, look.seat_colour(self.seats, seat),
                              place.plate.width(), lay.text_px, counts[seat], won[seat],
                              view.get("turn") == seat and not view.get("over"),
                              seat == self.you)
            plate.setPos(place.plate.topLeft())
            self.scene.addItem(plate)
            self.plates[seat] = plate
            if seat == self.you:
                self.my_plate = plate

    def _draw_rows(self, view: dict[str, Any], lay: Layout) -> None:
        names = self._names()
        for seat, row in enumerate(view.get("table", [])):
            slots = lay.row_slots(seat, len(row))
            for i, (card, rect) in enumerate(zip(row, slots, strict=True)):
                item = CardItem(card, rect.width(), rect.height(), face_up=bool(card.get("up")))
                item.compact = i + 1 < len(slots) and slots[i + 1].left() < rect.right()
                item.setPos(rect.topLeft())
                item.setZValue(i)
                owner = names[seat] if seat < len(names) else _("Seat {n}").format(n=seat + 1)
                tip = _("{name}'s {card}").format(name=owner, card=card_text(card))
                if not card.get("up"):
                    tip = _("{name}'s {card}: face down, a later {value} covered it, so it "
                            "cannot win; it still goes to the trick's winner").format(
                                name=owner, card=card_text(card), value=card.get("value"))
                item.setToolTip(tip)
                self.scene.addItem(item)
                self.table_items[card["id"]] = item
                self._table_rects[card["id"]] = (QRectF(rect), bool(card.get("up")))

    def _draw_centre(self, view: dict[str, Any], lay: Layout) -> None:
        ranking = list(view.get("ranking", [True] * 5))
        for n, rect in enumerate(lay.ranking, start=1):
            item = RankingItem(n, ranking[n - 1], rect.width(), rect.height())
            item.setPos(rect.topLeft())
            text = _("Ranking card {numeral}, face up. If it is the last one up, the {which} "
                     "face-up card wins once at least {n} cards lie face up.") \
                if ranking[n - 1] else \
                _("Ranking card {numeral}, face down. If it is the last one up, the {which} "
                  "face-up card wins once at least {n} cards lie face up.")
            item.setToolTip(text.format(numeral=ROMAN[n - 1], which=_(ORDINALS[n - 1]), n=n))
            self.scene.addItem(item)
            self.ranking_items.append(item)
        pile = StackItem(int(view.get("pile", 0)), lay.pile.width(), lay.pile.height())
        pile.setPos(lay.pile.topLeft())
        left = int(view.get("pile", 0) or 0)
        pile.setToolTip(ngettext("Draw pile: {n} card", "Draw pile: {n} cards", left).format(
            n=left))
        self.scene.addItem(pile)
        out = StackItem(int(view.get("removed", 0)), lay.out.width(), lay.out.height(), out=True)
        out.setPos(lay.out.topLeft())
        gone = int(view.get("removed", 0) or 0)
        out.setToolTip(ngettext("Out of the game (blind tricks): {n} card",
                                "Out of the game (blind tricks): {n} cards", gone).format(n=gone))
        self.scene.addItem(out)
        small = look.font(lay.text_px * 0.95)
        self.centre_words = [
            self._caption(_("draw pile"), lay.pile, small, look.MUTED_ON_FELT, outward=1),
            self._caption(_("out of game"), lay.out, small, look.MUTED_ON_FELT, outward=-1)]
        log = view.get("log", [])
        if log:
            line = render(log[-1], self._names())
            # Between the piles' names: under the ranking cards and their gaps.
            gap = lay.card_w * 0.08
            band = QRectF(lay.out.right() + gap, lay.ranking[0].bottom(),
                          lay.pile.left() - lay.out.right() - 2 * gap, lay.text_px * 2.9)
            fitted = textfit.fit(line, band.width(), lay.text_px, 2, bold=True,
                                 height=band.height())
            brief = textfit.without_asides(line)
            if not fitted.fits and brief != line:  # the card's rank in words stays in the
                fitted = textfit.fit(brief, band.width(), lay.text_px, 2, bold=True,
                                     height=band.height())  # log and the tooltip
            top = band.top() + QFontMetrics(small).height() * 0.25
            items = textfit.add_lines(self.scene, fitted, QRectF(band.left(), top,
                                                                band.width(), band.height()),
                                      look.INK_ON_FELT, tooltip=line)
            self.last_line = items[0] if items else None
            self.centre_words += items

    def _caption(self, text: str, under: QRectF, fnt: Any, colour: QColor,
                 outward: int = 0) -> QGraphicsSimpleTextItem:
        """A pile's name under it: centred, or shifted away from the centre row
        (``outward`` -1 left, 1 right) when it is wider than the pile and its gap."""
        metrics = QFontMetrics(fnt)
        width = metrics.horizontalAdvance(text)
        item = QGraphicsSimpleTextItem(text)
        item.setFont(fnt)
        item.setBrush(colour)
        x = under.center().x() - width / 2
        if width > under.width() and outward:  # the centre row's words have the middle
            x = under.right() - width if outward < 0 else under.left()
        item.setPos(x, under.bottom() + metrics.height() * 0.25)
        self.scene.addItem(item)
        return item

    def _draw_hand(self, view: dict[str, Any], lay: Layout, hand: list[dict[str, Any]]) -> None:
        if self.you is None:
            text = QGraphicsSimpleTextItem(_("You are watching: every hand is hidden"))
            text.setFont(look.font(lay.text_px))
            text.setBrush(look.MUTED_ON_FELT)
            width = QFontMetrics(text.font()).horizontalAdvance(text.text())
            band = lay.hand_band
            text.setPos(band.center().x() - width / 2, band.center().y() - lay.text_px / 2)
            self.scene.addItem(text)
            return
        lit = self._my_turn()
        for i, (card, rect) in enumerate(zip(hand, lay.hand, strict=False)):
            item = CardItem(card, rect.width(), rect.height())
            item.setPos(rect.topLeft())
            item.setZValue(10)
            item.key = str(i + 1) if i < 9 else ""  # keys 1-5 play the hand (F1 says so)
            item.make_playable(lit, self._clicked, self._dragged)
            item.setToolTip(self._hand_tip(card))
            self.scene.addItem(item)
            self.hand_items.append(item)
            self._hand_rects[card["id"]] = QRectF(rect)
        self.zone = ZoneItem(lay.drop, lay.text_px)
        self.zone.setZValue(-1)
        self.scene.addItem(self.zone)

    def _hand_tip(self, card: dict[str, Any]) -> str:
        view = self.view or {}
        ranking = list(view.get("ranking", [True] * 5))
        numerals = [n for n in card.get("numerals", []) if 1 <= n <= 5]
        up = [n for n in numerals if ranking[n - 1]]
        lines = [card_text(card)]
        if not numerals:
            lines.append(_("No numeral: it turns no ranking card down."))
        elif len(up) == 2:
            lines.append(_("You choose which ranking card turns down: {one} or {other}.")
                         .format(one=ROMAN[up[0] - 1], other=ROMAN[up[1] - 1]))
        elif up:
            lines.append(_("Turns ranking card {numeral} face down.").format(
                numeral=ROMAN[up[0] - 1]))
        else:
            lines.append(_("Its ranking card is already face down: it turns nothing down.")
                         if len(numerals) == 1 else
                         _("Both its ranking cards are already face down."))
        names = self._names()
        for seat, row in enumerate(view.get("table", [])):
            for placed in row:
                if placed.get("up") and placed.get("value") == card.get("value"):
                    lines.append(
                        _("It turns your face-up {value} face down.").format(
                            value=placed["value"]) if seat == self.you else
                        _("It turns {name}'s face-up {value} face down.").format(
                            name=names[seat], value=placed["value"]))
        return "\n".join(lines)

    # --- playing: click or drag -------------------------------------------------------

    def _clicked(self, item: CardItem) -> None:
        rect = item.sceneBoundingRect()
        self._pointer = QPointF(rect.center().x(), rect.top())
        self._play(item, dropped=False)

    def _dragged(self, item: CardItem, at: QPointF, released: bool) -> None:
        lay = self.layout_
        if lay is None or self.zone is None:
            return
        inside = at.y() < lay.hand_band.top()
        if not released:
            self.zone.setVisible(True)
            self.zone.hot = inside
            self.zone.update()
            return
        self.zone.setVisible(False)
        self._pointer = at
        if inside:
            self._play(item, dropped=True)
        else:
            self._snap_back(item)

    def _play(self, item: CardItem, dropped: bool) -> None:
        if self._pending is not None or not self._my_turn() or self.view is None:
            if dropped:
                self._snap_back(item)
            return
        action, choices = play_for(item.card, list(self.view.get("ranking", [True] * 5)))
        if action is None:
            labels = [(n, _("Turn down {numeral}").format(numeral=ROMAN[n - 1]))
                      for n in choices]
            self._ask_numeral(item, labels)
            return
        self._send(action, item)

    def _ask_numeral(self, item: CardItem, labels: list[tuple[int, str]]) -> None:
        """Which ranking card turns down: asked where it hides nothing the choice needs.

        Above the card it lay over the last play's second line (a trick just decided)
        and over my own cards of the trick (issue 31): the choice needs the ranking
        cards and every face-up card. So it floats between the centre row's words and
        my hand where nothing lies there (my row empty, no trick held on it); else it
        lies over my hand (and my plate, if it must), whose pieces under it give way
        until it closes: none of them can be played while it is open."""
        self._restore()
        rect = self._view_rect(item.sceneBoundingRect())
        near = rect.toAlignedRect()
        self.chooser.ask(item, labels, near.topLeft(), near.topRight())
        lay = self.layout_
        port = self._viewport().rect()
        if lay is None or not self.chooser.isVisible():
            return
        w, h = self.chooser.width(), self.chooser.height()
        centred = round(rect.center().x() - w / 2)

        def across(x: float) -> int:
            return round(max(4.0, min(x, port.width() - w - 4.0)))

        hand = [self._view_rect(r) for r in lay.hand] or [self._view_rect(lay.hand_band)]
        words = [self._view_rect(i.sceneBoundingRect()) for i in self.centre_words]
        top = max((r.bottom() for r in words), default=self._view_rect(lay.ranking[0]).bottom())
        bottom = min(r.top() for r in hand)
        if bottom - top >= h:  # between the centre row's words and my hand
            box = QRectF(across(centred), top + (bottom - top - h) / 2, w, h)
            kept = {i for i in self.hand_items  # below it (not a card dropped above)
                    if lay.hand_band.contains(i.sceneBoundingRect().center())}
            if not any(piece.isVisible() and piece.parentItem() is None
                       and piece not in kept and box.intersects(
                           self._view_rect(piece.sceneBoundingRect()))
                       for piece in self.scene.items()):  # my row, a trick held there
                self.chooser.move(round(box.x()), round(box.y()))
                return
        band = self._view_rect(lay.hand_band)
        y = round(max(4.0, min(band.center().y() - h / 2, port.height() - h - 4.0)))
        pieces: list[tuple[QGraphicsItem, float]] = [(i, 2.0 if i is item else 1.0)
                                                      for i in self.hand_items]
        if self.my_plate is not None:
            pieces.append((self.my_plate, 3.0))  # who I am, and that it is my turn

        def under(x: int) -> list[tuple[QGraphicsItem, float]]:
            box = QRectF(x, y, w, h)
            return [(piece, cost) for piece, cost in pieces
                    if box.intersects(self._view_rect(piece.sceneBoundingRect()))]

        spots = [across(centred), across(band.left()), across(port.width() - w - 4)]
        x = min(spots, key=lambda at: (sum(c for _p, c in under(at)), abs(at - centred)))
        self.chooser.move(x, y)
        for piece, _cost in under(x):
            piece.setVisible(False)
            self._gave_way.append(piece)

    def _view_rect(self, rect: QRectF) -> QRectF:
        """A scene rect on the felt's viewport, where the choice lies."""
        return QRectF(self.graphics.mapFromScene(rect).boundingRect())

    def _restore(self) -> None:
        """The pieces the choice lay over come back."""
        for piece in self._gave_way:
            if piece.scene() is self.scene:
                piece.setVisible(True)
        self._gave_way = []

    def _close_choice(self) -> None:
        self.chooser.hide()
        self._restore()

    def _chosen(self, numeral: int) -> None:
        item = self.chooser.item
        self._close_choice()
        if isinstance(item, CardItem) and item.scene() is self.scene and item.card_id is not None:
            self._send({"type": "play", "card": item.card_id, "numeral": numeral}, item)

    def _cancel_choice(self) -> None:
        item = self.chooser.item
        self._close_choice()
        if isinstance(item, CardItem) and item.scene() is self.scene:
            self._snap_back(item)

    def _send(self, action: dict[str, Any], item: CardItem) -> None:
        self._pending = item.card_id
        home = self._hand_rects.get(item.card_id or -1)
        moved = home is not None and (item.pos() - home.topLeft()).manhattanLength() > 12
        self._pending_pos = QPointF(item.pos()) if moved else None
        self._pending_timer.start()
        self.intent.emit(action)

    def _clear_pending(self, snap_back: bool = False) -> None:
        card, self._pending = self._pending, None
        self._pending_pos = None
        self._pending_timer.stop()
        if snap_back and card is not None:
            for item in self.hand_items:
                if item.card_id == card:
                    self._snap_back(item)

    def _pending_expired(self) -> None:
        """No answer from the host: give the card back rather than freeze the hand."""
        self._clear_pending(snap_back=True)

    def _snap_back(self, item: CardItem) -> None:
        home = self._hand_rects.get(item.card_id or -1)
        if home is None or item.scene() is not self.scene or item.pos() == home.topLeft():
            return
        item.setZValue(10)
        self._snap_to(item, home.topLeft(), SNAP_MS)

    def key_targets(self) -> list[Target]:
        """My hand's cards, from the left, with their keys (a card that cannot be
        played now is read, not taken)."""
        if self.chooser.isVisible():
            return []
        out: list[Target] = []
        for item in self.hand_items:
            card = card_text(item.card)
            name = (_("Your hand: {card}, playable") if item.lit else
                    _("Your hand: {card}, not playable now")).format(card=card)
            out.append(Target(("hand", item.card_id), name,
                              partial(self._clicked, item), self._item_rect(item),
                              item.key if item.lit else "", self._hand_tip(item.card),
                              enabled=item.lit))
        return out

    def key_controls(self) -> list[QWidget]:
        return list(self.chooser.buttons)

    def _claim_key(self, event: QKeyEvent) -> bool:
        """Esc closes the numeral choice (its own keys choose: ``NumeralChooser``)."""
        if event.key() == Qt.Key.Key_Escape and self.chooser.isVisible():
            self._cancel_choice()
            return True
        return False

    # --- motion ---------------------------------------------------------------------

    def _source(self, seat: int, card_id: int, before_hand: dict[int, QRectF],
                dropped: QPointF | None) -> QPointF:
        """Where a played card starts its flight: my hand slot, my drop, or the seat's plate."""
        lay = self.layout_
        assert lay is not None
        if seat == self.you and dropped is not None:
            return dropped
        if seat == self.you and card_id in before_hand:
            return before_hand[card_id].topLeft()
        plate = self.plates.get(seat)
        point = plate.hand_point() if plate else QPointF(lay.width / 2, 0)
        return QPointF(point.x() - lay.card_w / 2, point.y() - lay.card_h / 2)

    def _animate(self, last: dict[str, Any], previous: dict[str, Any],
                 before_hand: dict[int, QRectF], before_table: dict[int, tuple[QRectF, bool]],
                 dropped: QPointF | None) -> None:
        lay = self.layout_
        if lay is None:
            return
        seat = int(last.get("seat", 0))
        card = last.get("card") or {}
        card_id = card.get("id")
        if not isinstance(card_id, int) or seat not in lay.places:
            return
        start = self._source(seat, card_id, before_hand, dropped)
        group = QParallelAnimationGroup(self)
        if last.get("result") == "open" and card_id in self.table_items:
            item = self.table_items[card_id]
            item.setZValue(40)
            group.addAnimation(self._fly(item, start, item.pos(), FLY_MS))
            self._pulses(group, last)
        elif last.get("result") in ("won", "blind"):
            group.addAnimation(self._trick_away(last, previous, before_table, start))
        self._draw_in(group, before_hand)
        self._start_animation(group)

    def _pulses(self, group: QParallelAnimationGroup, last: dict[str, Any]) -> None:
        """A fading ring on the ranking card turned down and on the card covered."""
        rects: list[QRectF] = []
        turned = last.get("turned")
        if isinstance(turned, int) and 1 <= turned <= 5 and self.layout_:
            rects.append(self.layout_.ranking[turned - 1])
        covered = last.get("covered")
        if isinstance(covered, int) and covered in self.table_items:
            rects.append(self.table_items[covered].sceneBoundingRect())
        for rect in rects:
            self._pulse(group, RingItem(QRectF(rect), gap=3.0), PULSE_MS)

    def _trick_away(self, last: dict[str, Any], previous: dict[str, Any],
                    before_table: dict[int, tuple[QRectF, bool]],
                    start: QPointF) -> QSequentialAnimationGroup:
        """The played card lands, then the whole trick flies to its winner (or out)."""
        lay = self.layout_
        assert lay is not None
        seat = int(last["seat"])
        card = last["card"]
        covered = last.get("covered")
        ghosts: list[CardItem] = []
        prev_rows = previous.get("table", [])
        count = len(prev_rows[seat]) + 1 if seat < len(prev_rows) else 1
        slots = lay.row_slots(seat, count)
        landing = slots[-1]
        shifts: list[tuple[CardItem, QPointF]] = []
        """The player's earlier cards make room for the new one beside them."""
        for owner, row in enumerate(prev_rows):
            # each row fanned as it lay (the player's own with room for the new card):
            # an overlapped card shows its corner index, not a big value half covered
            fan = slots if owner == seat else lay.row_slots(owner, len(row))
            for i, placed in enumerate(row):
                spot = before_table.get(placed["id"])
                if spot is None:
                    continue
                rect, up = spot
                ghost = CardItem(placed, rect.width(), rect.height(),
                                 face_up=up and placed["id"] != covered)
                ghost.setPos(rect.topLeft())
                ghost.compact = i + 1 < len(fan) and fan[i + 1].left() < fan[i].right()
                if owner == seat and i < len(slots) and slots[i].topLeft() != rect.topLeft():
                    shifts.append((ghost, slots[i].topLeft()))
                ghosts.append(ghost)
        played = CardItem(card, lay.card_w, lay.card_h)
        played.setPos(start)
        ghosts.append(played)
        for z, ghost in enumerate(ghosts):
            ghost.setZValue(40 + z)
            ghost.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self._ghost(ghost)

        winner = last.get("winner")
        if last.get("result") == "won" and isinstance(winner, int) and winner in self.plates:
            point = self.plates[winner].won_point()
        else:
            point = lay.out.center()
        shrink = 0.3
        target = QPointF(point.x() - lay.card_w * shrink / 2, point.y() - lay.card_h * shrink / 2)
        seq = QSequentialAnimationGroup(self)
        land = QParallelAnimationGroup(self)
        land.addAnimation(self._fly(played, start, landing.topLeft(), FLY_MS))
        for ghost, to in shifts:
            land.addAnimation(self._fly(ghost, ghost.pos(), to, FLY_MS))
        seq.addAnimation(land)
        seq.addPause(HOLD_MS)  # the decided trick is read where it lay, then it flies
        self._hold_ms = HOLD_MS
        away = QParallelAnimationGroup(self)
        moved = dict(shifts)
        for ghost in ghosts:
            at = landing.topLeft() if ghost is played else moved.get(ghost, ghost.pos())
            away.addAnimation(self._fly(ghost, at, target, TRICK_MS))
            away.addAnimation(self._fly(ghost, 1.0, shrink, TRICK_MS, b"scale"))
            if last.get("result") == "blind":
                away.addAnimation(self._fly(ghost, 1.0, 0.2, TRICK_MS, b"opacity"))
        seq.addAnimation(away)
        return seq

    def _draw_in(self, group: QParallelAnimationGroup, before_hand: dict[int, QRectF]) -> None:
        """A card newly in my hand fades in where the played one was.

        Never from opacity 0: Qt does not deliver clicks to a fully transparent
        item, and input must never wait for an animation.
        """
        if not before_hand:
            return
        for item in self.hand_items:
            if item.card_id not in before_hand:
                group.addAnimation(self._fly(item, 0.3, 1.0, FLY_MS, b"opacity"))
