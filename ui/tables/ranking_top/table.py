"""The Ranking Top table: renders a view, flies cards where they went, emits intents.

Everything drawn comes from the view the host sent and the lobby's seat maps;
nothing here decides a rule: the view says which of my cards may go into my
Ranking Top (``can_rank``) and which may top (``can_top``), and the host
checks every intent anyway (a refusal comes back through ``show_rejection``).

Playing: click a card in my hand, then "To my Ranking Top" or "Discard
(effect)" (a choice that cannot be made stays visible and says why), or drag
the card onto my Ranking Top or the discard pile. In a top window every seat
that may act gets the same big TOP! and Pass buttons whatever it holds: TOP!
opens a chooser of my cards that can top (or says there is none), so nobody
learns a hand from a button. Space is TOP!, P (or Esc) is Pass: windows are
short. The window's time left is the game page's clock, not ours.
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QParallelAnimationGroup, QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetrics, QKeyEvent
from PyQt6.QtWidgets import (
    QApplication,
    QGraphicsSimpleTextItem,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
)

from lanplay.game import format_log
from ui.tables import look
from ui.tables.felt import WaitingTable, names_list
from ui.tables.pieces import RingItem
from ui.tables.ranking_top.choice import Choice, ChoicePanel
from ui.tables.ranking_top.items import (
    CardItem,
    DirectionItem,
    DiscItem,
    PlateItem,
    SlotItem,
    StackItem,
    ZoneItem,
    card_name,
    face_of,
    wrap,
)
from ui.tables.ranking_top.layout import Layout, compute
from ui.tables.widgets import BUTTON_STYLE

FLY_MS = 300
PULSE_MS = 650
SNAP_MS = 220
FAN = 4
"""How many discard-pile cards show (the top one whole, older ones fanned behind)."""

TOP_STYLE = (
    "QPushButton { background: #F2C94C; color: #1A1408; border: 3px solid #8A6D2F;"
    " border-radius: 10px; padding: 6px 18px; font-weight: bold; }"
    "QPushButton:hover { background: #FFE08A; }")
PASS_STYLE = BUTTON_STYLE.replace("#F3E6C2", "#DCE3DF")


def rank_reason(card: dict[str, Any], needed: int) -> str:
    """Why ``card`` cannot go into a Ranking Top that needs ``needed`` next (in words)."""
    face = face_of(card)
    if face.kind == "top":
        return "A Top card never goes in a Ranking Top."
    if face.kind == "song" and face.number != needed and needed:
        return f"Your Ranking Top needs a {needed} next."
    return "This card cannot go in your Ranking Top now."


def discard_words(card: dict[str, Any]) -> str:
    face = face_of(card)
    if face.kind != "song":
        return "On the discard pile it has no effect."
    return f"Discard: {face.effect}"


class RankingTopTable(WaitingTable):
    """The table widget the window embeds for a game of Ranking Top."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("rankingTopTable", parent)
        self.layout_: Layout | None = None
        self.hand_items: list[CardItem] = []
        self.ranking_items: dict[int, list[CardItem | SlotItem]] = {}
        self.chain_items: list[CardItem] = []
        self.discard_items: list[CardItem] = []
        self.plates: dict[int, PlateItem] = {}
        self.stage_lines: list[str] = []
        self.zones: dict[str, ZoneItem] = {}
        self._rects: dict[int, QRectF] = {}
        self.chooser = ChoicePanel(self._viewport())
        self.chooser.chosen.connect(self._chosen)
        self.chooser.cancelled.connect(self._cancel_choice)
        self.top_button = QPushButton("TOP!", self._viewport())
        self.top_button.setObjectName("rtopTop")
        self.top_button.setStyleSheet(TOP_STYLE)
        self.top_button.setToolTip("Top the last card (Space)")
        self.pass_button = QPushButton("Pass", self._viewport())
        self.pass_button.setObjectName("rtopPass")
        self.pass_button.setStyleSheet(PASS_STYLE)
        self.pass_button.setToolTip("Let it stand (P or Esc)")
        for button in (self.top_button, self.pass_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.hide()
        self.top_button.clicked.connect(self.press_top)
        self.pass_button.clicked.connect(self.press_pass)

    # --- the contract --------------------------------------------------------

    def set_view(self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
                 animate: bool = True) -> None:
        """Show ``view``; cards fly to where they went unless this is a resync."""
        self._finish_animation()
        previous = self.view
        before = dict(self._rects)
        self._adopt(view, seats, you, int(view.get("players", len(seats))))
        self._stop_waiting()
        self.chooser.hide()
        self._rebuild()
        self._show_log(view)
        if self._my_window():
            self._take_keys()
        if animate and previous is not None and previous.get("game") == view.get("game"):
            self._animate(previous, before)

    def show_rejection(self, reason: str) -> None:
        self.chooser.hide()
        super().show_rejection(reason)

    # --- reading the view ---------------------------------------------------------

    def _your(self, seat: Any) -> str:
        return "your" if seat == self.you else f"{self._name(seat)}'s"

    def _actors(self) -> list[int]:
        return [s for s in (self.view or {}).get("actors") or [] if isinstance(s, int)]

    def _acting(self) -> bool:
        return self.you is not None and self._phase() != "over" and self.you in self._actors()

    def _my_play(self) -> bool:
        """I play a card now (my turn, or the second card of an effect)."""
        return (self._acting() and self._phase() in ("turn", "again")
                and (self.view or {}).get("current") == self.you and not self._pending)

    def _my_window(self) -> bool:
        return self._acting() and self._phase() == "window" and not self._pending

    def _my_keep(self) -> bool:
        return (self._acting() and self._phase() == "keep"
                and (self.view or {}).get("current") == self.you and not self._pending)

    def _needed(self, seat: Any) -> int:
        needed = (self.view or {}).get("needed") or []
        return int(needed[seat]) if isinstance(seat, int) and 0 <= seat < len(needed) else 0

    def _hand(self) -> list[dict[str, Any]]:
        return list((self.view or {}).get("hand") or []) if self.you is not None else []

    def _card(self, card_id: int) -> dict[str, Any]:
        for card in self._hand():
            if card.get("id") == card_id:
                return card
        return {"id": card_id}

    def _chain(self) -> list[dict[str, Any]]:
        return list((self.view or {}).get("chain") or [])

    def _chain_top_name(self) -> str:
        chain = self._chain()
        return card_name(face_of(chain[-1].get("card"))) if chain else "the card"

    def turn_text(self) -> str:
        """The banner's line: whose move it is, or what I can do now."""
        view = self.view or {}
        phase = self._phase()
        current = view.get("current")
        if phase == "over":
            return self._over_text()
        if phase == "turn":
            if current == self.you:
                return (f"Your turn: play a card (your Ranking Top needs a "
                        f"{self._needed(self.you)})")
            return f"Waiting for {self._name(current)} to play a card"
        if phase == "again":
            why = view.get("again")
            if current == self.you:
                if why == "objecion":
                    return "Objeción Denegada: play another card, it cannot be topped"
                return "Diente blanco: play one more card"
            return f"Waiting for {self._name(current)} to play a second card"
        if phase == "keep":
            if current == self.you:
                return "El Dinosaurio Anacleto: click the one card you keep"
            return f"Waiting for {self._name(current)} to choose the card to keep"
        if phase == "window":
            chain = self._chain()
            owner = chain[-1].get("seat") if chain else None
            deciding = [self._name(s) for s in self._actors() if s != self.you]
            if self._acting():
                return f"TOP! or Pass? {self._name(owner)}'s {self._chain_top_name()}"
            words = (f"waiting for {names_list(deciding)}" if len(deciding) <= 3
                     else f"waiting for {len(deciding)} players")
            if owner == self.you:
                return f"Can anyone top your {self._chain_top_name()}? {words}"
            if self.you is not None and self.you in self._passed():
                return f"You passed: {words}"
            return f"Top window: {words}"
        return "Waiting for the game to start"

    def _over_text(self) -> str:
        view = self.view or {}
        winners = [self._name(s) for s in view.get("winners") or []]
        if self.you is not None and self.you in (view.get("winners") or []):
            return "Game over: you completed your Ranking Top and win!"
        if len(winners) == 1:
            return f"Game over: {winners[0]} completed the Ranking Top and wins"
        if winners:
            return f"Game over: {names_list(winners)} win"
        return "Game over"

    def _passed(self) -> list[int]:
        passed = (self.view or {}).get("passed") or []
        return [s for s, p in enumerate(passed) if p]

    def _banner_seat(self) -> tuple[QColor | None, str]:
        view = self.view or {}
        phase = self._phase()
        seat = view.get("current")
        if phase == "window":
            chain = self._chain()
            seat = chain[-1].get("seat") if chain else seat
        if phase == "over" or not isinstance(seat, int):
            return None, ""
        return look.seat_colour(self.seats, seat), look.initial(look.seat_name(self.seats, seat))

    def _info_text(self) -> str:
        view = self.view or {}
        way = "clockwise" if view.get("direction", 1) == 1 else "counter-clockwise"
        return f"Deck {view.get('deck', 0)} · {way}"

    # --- drawing the scene --------------------------------------------------------

    def _rebuild(self) -> None:
        self._finish_animation()
        self.scene.clear()
        self.hand_items, self.chain_items, self.discard_items = [], [], []
        self.ranking_items, self.plates, self.zones = {}, {}, {}
        self.stage_lines = []
        self._rects = {}
        self.top_button.hide()
        self.pass_button.hide()
        size = self._viewport().size()
        width, height = max(480, size.width()), max(360, size.height())
        self.scene.setSceneRect(0, 0, width, height)
        view = self.view
        if view is None:
            return
        players = int(view.get("players", len(self.seats)))
        bottom = self.you if self.you is not None else 0
        hand = self._hand()
        text_px = max(look.default_px() * 1.15, min(width, height) * 0.02)
        lay = compute(width, height, text_px, players, bottom, len(hand), self.you is None)
        self.layout_ = lay
        self.banner.show_state(self.turn_text(), *self._banner_seat(), self._info_text(),
                               accent=self._acting())
        self._draw_seats(view, lay, players)
        self._draw_piles(view, lay)
        self._draw_direction(view, lay, players)
        self._draw_stage(view, lay)
        self._draw_hand(lay, hand)

    def _status(self, seat: int) -> str:
        view = self.view or {}
        phase = self._phase()
        needed = self._needed(seat)
        if phase == "over":
            return "winner" if seat in (view.get("winners") or []) else \
                f"{len(self._ranking(seat))} of 5"
        if phase == "window":
            if seat in self._actors():
                return "deciding"
            if seat in self._passed():
                return "passed"
            chain = self._chain()
            if chain and chain[-1].get("seat") == seat:
                return "played" if len(chain) == 1 else "topped"
        if seat == view.get("current") and phase in ("turn", "again"):
            return f"to play · needs {needed}" if needed else "to play"
        if seat == view.get("current") and phase == "keep":
            return "keeps one card"
        return f"needs {needed}" if needed else ""

    def _ranking(self, seat: int) -> list[dict[str, Any]]:
        rankings = (self.view or {}).get("ranking") or []
        return list(rankings[seat]) if 0 <= seat < len(rankings) else []

    def _draw_seats(self, view: dict[str, Any], lay: Layout, players: int) -> None:
        counts = view.get("hand_counts") or [0] * players
        phase = self._phase()
        for seat, spots in lay.seats.items():
            seat_map = self.seats[seat] if seat < len(self.seats) else {}
            active = phase != "over" and (
                (phase == "window" and seat in self._actors())
                or (phase != "window" and seat == view.get("current")))
            plate = PlateItem(seat, seat_map, look.seat_colour(self.seats, seat),
                              spots.plate.width(), spots.plate.height(), lay.text_px,
                              int(counts[seat]) if seat < len(counts) else 0,
                              self._status(seat), active, seat == self.you)
            plate.setPos(spots.plate.topLeft())
            self.scene.addItem(plate)
            self.plates[seat] = plate
            ranking = self._ranking(seat)
            needed = self._needed(seat)
            items: list[CardItem | SlotItem] = []
            for i, rect in enumerate(spots.ranking):
                number = 5 - i
                if i < len(ranking):
                    card = ranking[i]
                    item: CardItem | SlotItem = CardItem(card, rect.width(), rect.height())
                    tip = item.toolTip()
                    item.setToolTip(f"{self._your(seat).capitalize()} Ranking Top, place "
                                    f"{number}: {tip}")
                    self._remember(card, rect)
                else:
                    item = SlotItem(number, rect.width(), rect.height(),
                                    nxt=number == needed and phase != "over")
                    item.setToolTip(f"{self._your(seat).capitalize()} Ranking Top: "
                                    + ("the next card must be a "
                                       f"{number} (or a Primordial Rule)"
                                       if number == needed else f"place {number}, still empty"))
                item.setPos(rect.topLeft())
                self.scene.addItem(item)
                items.append(item)
            self.ranking_items[seat] = items
        if self.you is not None:
            mine = lay.seats[self.you].ranking
            area = QRectF(mine[0].topLeft(), mine[-1].bottomRight()).adjusted(-8, -8, 8, 8)
            self._zone("rank", area, "To my Ranking Top")

    def _remember(self, card: dict[str, Any], rect: QRectF) -> None:
        card_id = card.get("id")
        if isinstance(card_id, int):
            self._rects[card_id] = QRectF(rect)

    def _zone(self, key: str, rect: QRectF, label: str) -> None:
        zone = ZoneItem(rect, label, self.layout_.text_px if self.layout_ else 14.0)
        zone.setZValue(-1)
        self.scene.addItem(zone)
        self.zones[key] = zone

    def _caption(self, text: str, box: QRectF, px: float, colour: QColor = look.MUTED_ON_FELT,
                 bold: bool = False, centre: bool = True) -> QGraphicsSimpleTextItem:
        fnt = look.font(px, bold=bold)
        metrics = QFontMetrics(fnt)
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, int(box.width()))
        item = QGraphicsSimpleTextItem(shown)
        item.setFont(fnt)
        item.setBrush(colour)
        if shown != text:
            item.setToolTip(text)
        width = metrics.horizontalAdvance(shown)
        x = box.center().x() - width / 2 if centre else box.left()
        item.setPos(x, box.top() + (box.height() - metrics.height()) / 2)
        self.scene.addItem(item)
        return item

    def _draw_piles(self, view: dict[str, Any], lay: Layout) -> None:
        t = lay.text_px
        deck = StackItem(int(view.get("deck", 0)), lay.deck.width(), lay.deck.height())
        deck.setPos(lay.deck.topLeft())
        reshuffles = int(view.get("reshuffles", 0) or 0)
        deck.setToolTip(f"Draw deck: {view.get('deck', 0)} cards"
                        + (f" (the discard pile was shuffled in {reshuffles}×)"
                           if reshuffles else ""))
        self.scene.addItem(deck)
        lift = lay.deck.width() * 0.1
        label_box = QRectF(lay.deck.left() - t, lay.deck.top() - lift - t * 1.5,
                           lay.deck.width() + 2 * t, t * 1.3)
        self._caption("Deck", label_box, t * 0.95)
        pile = list(view.get("discard") or [])
        shown = pile[-FAN:]
        fan = lay.discard_fan
        w, h = lay.discard.width(), lay.discard.height()
        step = (fan.width() - w) / max(1, FAN - 1)
        x0 = lay.discard.left() - step * (len(shown) - 1)
        for i, card in enumerate(shown):
            item = CardItem(card, w, h)
            item.compact = i < len(shown) - 1
            rect = QRectF(x0 + i * step, fan.top(), w, h)
            item.setPos(rect.topLeft())
            item.setZValue(i)
            self.scene.addItem(item)
            self.discard_items.append(item)
            self._remember(card, rect)
        if not shown:
            empty = SlotItem(0, w, h, nxt=False)
            empty.setPos(lay.discard.topLeft())
            empty.setToolTip("The discard pile is empty")
            self.scene.addItem(empty)
        label = f"Discard pile ({int(view.get('discard_count', len(pile)) or 0)})"
        self._caption(label, QRectF(fan.left() - t, fan.top() - t * 1.5, fan.width() + 2 * t,
                                    t * 1.3), t * 0.95)
        self._zone("discard", fan.adjusted(-10, -t * 1.7, 10, 10), "Discard (effect)")

    def _draw_direction(self, view: dict[str, Any], lay: Layout, players: int) -> None:
        t = lay.text_px
        clockwise = view.get("direction", 1) == 1
        current = view.get("current")
        caption = ""
        if isinstance(current, int) and self._phase() != "over":
            nxt = (current + (1 if clockwise else -1)) % max(1, players)
            caption = f"next: {'you' if nxt == self.you else self._name(nxt)}"
        size = min(lay.direction.width() * 0.55, lay.direction.height() - t * 3.6, t * 5)
        item = DirectionItem(clockwise, size, t, caption)
        box = lay.direction
        item.setPos(box.center().x() - size / 2,
                    box.top() + (box.height() - size - t * 3.2) / 2)
        self.scene.addItem(item)

    def _draw_stage(self, view: dict[str, Any], lay: Layout) -> None:
        chain = self._chain()
        if chain and self._phase() == "window":
            self._draw_chain(view, lay, chain)
        else:
            self._draw_message(view, lay)

    def _chain_label(self, index: int, link: dict[str, Any]) -> str:
        seat = link.get("seat")
        who = "You" if seat == self.you else self._name(seat)
        if index > 0:
            return f"{who} top{'' if who == 'You' else 's'}"
        if link.get("to") == "top":
            stands = link.get("stands")
            as_ = f" as {stands}" if face_of(link.get("card")).kind == "rule" and stands else ""
            return f"{who} → Ranking Top{as_}"
        return f"{who} → discard"

    def _draw_chain(self, view: dict[str, Any], lay: Layout, chain: list[dict[str, Any]]) -> None:
        t = lay.text_px
        stage = lay.stage
        owner = chain[0].get("seat")
        standing = view.get("standing")
        face = face_of(chain[0].get("card"))
        what = str(face.number) if face.kind == "song" and face.number else card_name(face)
        title = (f"If nobody tops: {self._your(owner)} {what} stands" if standing
                 else f"If nobody tops back: {self._your(owner)} {what} is cancelled")
        self.stage_lines.append(title)
        self._caption(title, QRectF(stage.left(), stage.top(), stage.width(), t * 1.4), t * 1.05,
                      look.LIT if standing is False else look.INK_ON_FELT, bold=True)
        slots = lay.chain_slots(len(chain))
        for i, (link, rect) in enumerate(zip(chain, slots, strict=True)):
            card = dict(link.get("card") or {})
            if i == 0 and link.get("to") == "top" and link.get("stands"):
                card.setdefault("stands", link.get("stands"))
            item = CardItem(card, rect.width(), rect.height())
            item.compact = i + 1 < len(slots) and slots[i + 1].left() < rect.right() - 2
            item.setPos(rect.topLeft())
            item.setZValue(10 + i)
            self.scene.addItem(item)
            self.chain_items.append(item)
            self._remember(card, rect)
            seat = link.get("seat")
            label = self._chain_label(i, link)
            self.stage_lines.append(label)
            right = slots[i + 1].left() if i + 1 < len(slots) else rect.right() + t * 4
            box = QRectF(rect.left(), rect.bottom() + t * 0.25,
                         max(rect.width(), right - rect.left()), t * 1.4)
            if isinstance(seat, int):
                r = t * 0.55
                disc = DiscItem(look.seat_colour(self.seats, seat),
                                look.initial(look.seat_name(self.seats, seat)), r)
                disc.setPos(box.left(), box.center().y() - r)
                self.scene.addItem(disc)
                box.setLeft(box.left() + 2 * r + t * 0.3)
            self._caption(label, box, t * 0.95, look.INK_ON_FELT, centre=False)
        self._draw_window_controls(lay)

    def _draw_window_controls(self, lay: Layout) -> None:
        t = lay.text_px
        box = lay.buttons
        deciding = [s for s in self._actors() if s != self.you]
        passed = [self._name(s) for s in self._passed() if s != self.you]
        words = []
        if self.you is not None and self.you in self._passed():
            words.append("You passed")
        if passed:
            words.append("Passed: " + names_list(passed))
        if deciding:
            words.append("Deciding: " + names_list([self._name(s) for s in deciding]))
        if self._my_window():
            h = round(box.height())
            top_w, pass_w = round(t * 8.5), round(t * 6.5)
            self.top_button.setFont(look.font(t * 1.35, bold=True))
            self.pass_button.setFont(look.font(t * 1.1, bold=True))
            self.top_button.setText("TOP!  (Space)")
            self.pass_button.setText("Pass  (P)")
            top_w = max(top_w, self.top_button.sizeHint().width())
            pass_w = max(pass_w, self.pass_button.sizeHint().width())
            gap = round(t)
            left = self.graphics.mapFromScene(QPointF(box.center().x() - (top_w + gap + pass_w) / 2,
                                                      box.top()))
            self.top_button.setGeometry(left.x(), left.y(), top_w, h)
            self.pass_button.setGeometry(left.x() + top_w + gap, left.y(), pass_w, h)
            self.top_button.show()
            self.pass_button.show()
            self.top_button.raise_()
            self.pass_button.raise_()
            line = QRectF(box.left(), box.bottom() + t * 0.3, box.width(), t * 1.3)
        else:
            line = QRectF(box.left(), box.top(), box.width(), t * 1.4)
        if words:
            text = " · ".join(words)
            self.stage_lines.append(text)
            self._caption(text, line, t * 0.95)

    def _draw_message(self, view: dict[str, Any], lay: Layout) -> None:
        """No window open: what I can do now, and what just happened."""
        t = lay.text_px
        stage = lay.stage
        lines: list[tuple[str, float, QColor, bool]] = []
        phase = self._phase()
        if phase == "over":
            won = self.you is not None and self.you in (view.get("winners") or [])
            lines.append(("You win: your Ranking Top is complete!" if won
                          else self._over_text().replace("Game over: ", ""), t * 1.5,
                          look.LIT, True))
            scores = view.get("scores") or []
            if scores:
                parts = [f"{self._name(s)} {n}/5" for s, n in enumerate(scores)]
                lines.append(("Ranking Tops: " + ", ".join(parts), t * 1.0,
                              look.INK_ON_FELT, False))
        elif self._my_play():
            needed = self._needed(self.you)
            lines.append((f"Your Ranking Top needs a {needed}" if needed else "Your turn",
                          t * 1.4, look.LIT, True))
            if phase == "again" and view.get("again") == "objecion":
                lines.append(("Objeción Denegada: this card cannot be topped", t * 1.05,
                              look.INK_ON_FELT, True))
            elif phase == "again":
                lines.append(("Diente blanco: play one more card (it can be topped)", t * 1.05,
                              look.INK_ON_FELT, True))
            lines.append(("Click a card, then choose where it goes (or drag it onto your "
                          "Ranking Top or the discard pile)", t * 0.95, look.INK_ON_FELT,
                          False))
        elif self._my_keep():
            lines.append(("Click the one card you keep", t * 1.4, look.LIT, True))
            lines.append(("The rest of your hand goes to the discard pile, then you draw 4",
                          t * 0.95, look.INK_ON_FELT, False))
        else:
            lines.append((self.turn_text(), t * 1.2, look.INK_ON_FELT, True))
        log = view.get("log") or []
        names = self._names()
        recent = [format_log(e, names) for e in log[-2:]]
        if recent:
            lines.append(("", t * 0.6, look.MUTED_ON_FELT, False))
        for text in recent:
            lines.append((text, t * 0.95, look.MUTED_ON_FELT, False))
        rows: list[tuple[str, float, QColor, bool]] = []
        for text, px, colour, bold in lines:
            metrics = QFontMetrics(look.font(px, bold=bold))
            wrapped = wrap(text, metrics, stage.width() - 8, 3) if text else [""]
            rows.extend((line, px, colour, bold) for line in wrapped)
            if text:
                self.stage_lines.append(text)
        heights = [QFontMetrics(look.font(px, bold=b)).height() * 1.1 for _, px, _, b in rows]
        y = stage.top() + max(0.0, (stage.height() - sum(heights)) / 2)
        for (text, px, colour, bold), hh in zip(rows, heights, strict=True):
            if text:
                self._caption(text, QRectF(stage.left(), y, stage.width(), hh), px, colour, bold)
            y += hh

    def _draw_hand(self, lay: Layout, hand: list[dict[str, Any]]) -> None:
        t = lay.text_px
        if self.you is None:
            self._caption("You are watching: every hand is hidden", lay.hand_band, t * 1.05)
            return
        if not hand:
            self._caption("Your hand is empty", lay.hand_band, t * 1.05)
            return
        play, keep, window = self._my_play(), self._my_keep(), self._my_window()
        can_top = set((self.view or {}).get("can_top") or [])
        for i, (card, rect) in enumerate(zip(hand, lay.hand, strict=False)):
            item = CardItem(card, rect.width(), rect.height())
            item.compact = i + 1 < len(lay.hand) and lay.hand[i + 1].left() < rect.right() - 2
            item.setPos(rect.topLeft())
            item.setZValue(20 + i)
            lit = play or keep or (window and card.get("id") in can_top)
            item.make_playable(lit, self._clicked, self._dragged if (play or window) else None)
            if not (play or keep or window):
                item.quiet = False
            self.scene.addItem(item)
            self.hand_items.append(item)
            self._remember(card, rect)

    # --- playing: click or drag -------------------------------------------------------

    def _clicked(self, item: CardItem) -> None:
        rect = item.sceneBoundingRect()
        self._pointer = QPointF(rect.center().x(), rect.top())
        card_id = item.card_id
        if card_id is None:
            return
        if self._my_window():
            self._top_with(card_id)
        elif self._my_keep():
            self._ask_keep(item)
        elif self._my_play():
            self._ask_play(item)

    def _stage_foot(self) -> Any:
        """Where a choice opens: the foot of the stage, clear of my hand and the piles."""
        lay = self.layout_
        if lay is None:
            return self.rect().center()
        return self.graphics.mapFromScene(QPointF(lay.stage.center().x(), lay.stage.bottom()))

    def _ask_play(self, item: CardItem) -> None:
        view = self.view or {}
        card = item.card
        can_rank = item.card_id in (view.get("can_rank") or [])
        why = "" if can_rank else rank_reason(card, self._needed(self.you))
        face = item.face
        rank_label = "To my Ranking Top"
        if face.kind == "rule" and can_rank:
            rank_label = f"To my Ranking Top (as {self._needed(self.you)})"
        choices = [Choice("top", rank_label, can_rank, why),
                   Choice("discard", "Discard (effect)" if face.kind == "song"
                          else "Discard (no effect)", True, discard_words(card))]
        note = "\n".join(x for x in (why, discard_words(card)) if x)
        self._select(item)
        t = self.layout_.text_px if self.layout_ else 16.0
        self.chooser.ask("play", item.card_id, f"Play {card_name(face)}:", choices, note,
                         self._stage_foot(), t)

    def _ask_keep(self, item: CardItem) -> None:
        others = len(self.hand_items) - 1
        self._select(item)
        t = self.layout_.text_px if self.layout_ else 16.0
        self.chooser.ask("keep", item.card_id, f"Keep {card_name(item.face)}?",
                         [Choice("keep", "Keep this card")],
                         f"The other {others} card{'s' if others != 1 else ''} go to the "
                         "discard pile, then you draw 4.", self._stage_foot(), t)

    def _select(self, item: CardItem | None) -> None:
        for other in self.hand_items:
            other.selected = other is item
            other.update()

    def _chosen(self, key: object) -> None:
        purpose, subject = self.chooser.purpose, self.chooser.subject
        self.chooser.hide()
        self._select(None)
        if not isinstance(subject, int):
            return
        if purpose == "play" and key in ("top", "discard") and self._my_play():
            self._send({"type": "play", "card": subject, "to": key})
        elif purpose == "keep" and self._my_keep():
            self._send({"type": "keep", "card": subject})
        elif purpose == "top" and isinstance(key, int):
            self._top_with(key)

    def _cancel_choice(self) -> None:
        self.chooser.hide()
        self._select(None)

    def _dragged(self, item: CardItem, at: QPointF, released: bool) -> None:
        """Dragging shows the drop areas; a drop on one is the same as its button."""
        lay = self.layout_
        if lay is None:
            return
        window = self._my_window()
        targets = {"stage": lay.stage} if window else {
            k: z.rect for k, z in self.zones.items()}
        hit = next((k for k, rect in targets.items() if rect.contains(at)), None)
        if not released:
            for key, zone in self.zones.items():
                zone.setVisible(not window)
                zone.hot = key == hit
                zone.update()
            return
        for zone in self.zones.values():
            zone.setVisible(False)
        self._pointer = at
        card_id = item.card_id
        if hit is None or card_id is None:
            self._snap_back(item)
            return
        if window:
            self._snap_back(item)
            self._top_with(card_id)
            return
        if not self._my_play():
            self._snap_back(item)
            return
        if hit == "rank" and card_id not in ((self.view or {}).get("can_rank") or []):
            self._snap_back(item)
            self._toast(rank_reason(item.card, self._needed(self.you)))
            return
        self._send({"type": "play", "card": card_id, "to": "top" if hit == "rank" else "discard"})

    def press_top(self) -> None:
        """TOP!: my one topping card at once, a chooser for several, or 'you have none'."""
        if not self._my_window():
            return
        view = self.view or {}
        can = [c for c in view.get("can_top") or [] if isinstance(c, int)]
        if self.layout_ is not None:
            self._pointer = QPointF(self.layout_.buttons.center().x(), self.layout_.buttons.top())
        if not can:
            self._toast(f"You have no card that can top {self._chain_top_name()}: "
                        "it takes a Top card or the same number. Pass, or wait.")
            return
        if len(can) == 1:
            self._top_with(can[0])
            return
        choices = [Choice(c, card_name(face_of(self._card(c)))) for c in can]
        t = self.layout_.text_px if self.layout_ else 16.0
        geometry = self.top_button.geometry()
        at = geometry.center()
        at.setY(geometry.bottom())
        self.chooser.ask("top", -1, f"Top {self._chain_top_name()} with:", choices, "", at, t,
                         below=True)

    def _top_with(self, card_id: int) -> None:
        view = self.view or {}
        if not self._my_window():
            return
        if card_id not in (view.get("can_top") or []):
            self._toast(f"{card_name(face_of(self._card(card_id)))} cannot top "
                        f"{self._chain_top_name()}.")
            return
        self._send({"type": "top", "card": card_id, "window": view.get("window")})

    def press_pass(self) -> None:
        if not self._my_window():
            return
        self.chooser.hide()
        self._send({"type": "pass", "window": (self.view or {}).get("window")})

    def _send(self, action: dict[str, Any]) -> None:
        """Sent: the buttons go and my hand goes quiet until the host answers."""
        self.top_button.hide()
        self.pass_button.hide()
        for item in self.hand_items:
            item.lit = False
            item.update()
        super()._send(action)

    def _toast_home(self) -> QPointF | None:
        return self.layout_.hand_band.center() if self.layout_ is not None else None

    def _take_keys(self) -> None:
        """A window opened for me: Space and P must reach the table, unless I am typing."""
        focus = QApplication.focusWidget()
        if isinstance(focus, (QLineEdit, QTextEdit, QPlainTextEdit)):
            return
        if self.isVisible():
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """Space is TOP!, P or Esc is Pass; Esc first closes an open choice."""
        if event is None:
            return
        key = event.key()
        if key == Qt.Key.Key_Escape and self.chooser.isVisible():
            self._cancel_choice()
            return
        if self._my_window():
            if key == Qt.Key.Key_Space:
                if self.chooser.isVisible() and self.chooser.purpose == "top":
                    self.chooser.buttons[0].click()
                else:
                    self.press_top()
                return
            if key in (Qt.Key.Key_P, Qt.Key.Key_Escape):
                self.press_pass()
                return
        super().keyPressEvent(event)

    # --- motion ---------------------------------------------------------------------

    def _snap_back(self, item: CardItem) -> None:
        home = self._rects.get(item.card_id if item.card_id is not None else -1)
        if home is None or item.scene() is not self.scene or item.pos() == home.topLeft():
            return
        self._snap_to(item, home.topLeft(), SNAP_MS)

    def _animate(self, previous: dict[str, Any], before: dict[int, QRectF]) -> None:
        """Every card shown now flies from where it was shown before (hand, chain,
        Ranking Top, pile); a card nobody saw comes from its player's plate, or from
        the deck when it is a card I drew. A pulse marks the last play."""
        lay = self.layout_
        if lay is None:
            return
        group = QParallelAnimationGroup(self)
        last = (self.view or {}).get("last") or {}
        fresh = last != previous.get("last")
        seat = last.get("seat")
        hand_ids = {item.card_id for item in self.hand_items}
        moving = [*self.hand_items, *self.chain_items, *self.discard_items]
        for items in self.ranking_items.values():
            moving.extend(i for i in items if isinstance(i, CardItem))
        for item in moving:
            card_id = item.card_id
            if card_id is None:
                continue
            old = before.get(card_id)
            if old is None:
                if not fresh:
                    continue
                if item.card_id in hand_ids and item in self.hand_items:
                    old = QRectF(lay.deck)
                elif isinstance(seat, int) and seat in self.plates:
                    point = self.plates[seat].hand_point()
                    old = QRectF(point.x() - item.w / 4, point.y() - item.h / 4,
                                 item.w / 2, item.h / 2)
                else:
                    continue
            if (old.topLeft() - item.pos()).manhattanLength() < 2 and \
                    abs(old.width() - item.w) < 1:
                continue
            item.setZValue(item.zValue() + 40)
            group.addAnimation(self._fly(item, old.topLeft(), QPointF(item.pos()), FLY_MS))
            if item.w > 0 and abs(old.width() - item.w) > 1:
                group.addAnimation(self._fly(item, old.width() / item.w, 1.0, FLY_MS, b"scale"))
        if fresh and last.get("kind") in ("play", "top", "close", "win"):
            card = last.get("card") or {}
            target = next((i for i in moving if i.card_id == card.get("id")), None)
            if target is not None:
                ring = RingItem(QRectF(target.pos(), QPointF(target.pos().x() + target.w,
                                                             target.pos().y() + target.h)))
                self._pulse(group, ring, PULSE_MS, z=80)
        self._start_animation(group)

