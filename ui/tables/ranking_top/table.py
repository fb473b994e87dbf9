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

This module is the widget: it keeps the view, draws the seats, piles, hand
and direction, turns clicks, drags and keys into intents, and flies the
cards. What the view says is read in ``reading``; the middle of the table
(the top window's chain and its TOP! and Pass buttons, or the message of the
moment) is drawn by ``stage``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PyQt6.QtCore import (
    QPointF,
    QRectF,
    Qt,
)
from PyQt6.QtGui import QColor, QFontMetricsF, QKeyEvent
from PyQt6.QtWidgets import (
    QApplication,
    QGraphicsSimpleTextItem,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from ui.tables import look
from ui.tables.felt import WaitingTable
from ui.tables.kept import Kept
from ui.tables.keys import HELD, Target
from ui.tables.ranking_top.choice import Choice, ChoicePanel
from ui.tables.ranking_top.countdown import Countdown
from ui.tables.ranking_top.faces import card_name, card_tip, face_of
from ui.tables.ranking_top.flights import Flights
from ui.tables.ranking_top.items import CardItem, SlotItem, StackItem, ZoneItem
from ui.tables.ranking_top.layout import COUNTDOWN_LINES, Layout, compute
from ui.tables.ranking_top.reading import Reading, discard_words, rank_reason
from ui.tables.ranking_top.seats import DirectionItem, DiscItem, PlateItem, direction_place
from ui.tables.ranking_top.stage import WindowButtons, caption, draw_stage
from ui.words.i18n import N_, _, ngettext

FAN = 4
"""How many discard-pile cards show (the top one whole, older ones fanned behind)."""


def _plate(seat_map: dict[str, Any], colour: QColor, shown: tuple[Any, ...]
           ) -> Callable[[], PlateItem]:
    """What makes a seat's plate (``shown``: the seat, then what the plate shows)."""
    return lambda: PlateItem(shown[0], seat_map, colour, *shown[3:])


class RankingTopTable(Flights, WaitingTable):
    """The table widget the window embeds for a game of Ranking Top."""

    KEYS = (("1-9", N_("take the card at that place in your hand, from the left (the key "
                       "shows on each lit card): play it, keep it, or top with it")),
            ("1-9", N_("in a choice: take the choice with that key (it shows on its button)")),
            (N_("Space"), N_("TOP! in a top window (the button says so)")),
            (N_("P or Esc"), N_("Pass in a top window; Esc first closes an open choice")))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("rankingTopTable", parent)
        self.layout_: Layout | None = None
        self.hand_items: list[CardItem] = []
        self.ranking_items: dict[int, list[CardItem | SlotItem]] = {}
        self.chain_items: list[CardItem] = []
        self.discard_items: list[CardItem] = []
        self.plates: dict[int, PlateItem] = {}
        self.stage_lines: list[str] = []
        self.stage_items: list[Any] = []
        """What the stage drew (a resolved chain's hold fades it in afterwards)."""
        self.zones: dict[str, ZoneItem] = {}
        self._rects: dict[int, QRectF] = {}
        self._kept = Kept()
        """The passive pieces (plates, slots, piles, placed cards) of the last rebuild:
        the next takes back those that look the same, with their cached pictures."""
        self.chooser = ChoicePanel(self._viewport())
        self.chooser.chosen.connect(self._chosen)
        self.chooser.cancelled.connect(self._cancel_choice)
        self.chooser.opened.connect(self._stage_quiet)
        self.window_buttons = WindowButtons(self._viewport())
        self.top_button = self.window_buttons.top
        self.pass_button = self.window_buttons.pass_
        self.countdown = Countdown(self._viewport())
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
        if self.read.my_window():
            self._take_keys()
        if animate and previous is not None and previous.get("game") == view.get("game"):
            self._animate(previous, before)

    def show_rejection(self, reason: str) -> None:
        self.chooser.hide()
        super().show_rejection(reason)

    # --- reading the view ---------------------------------------------------------

    @property
    def read(self) -> Reading:
        """The view as it stands for me now: made afresh on every use, so it always
        sees the latest view and whether an intent of mine still waits."""
        return Reading(self.view or {}, self._names(), self.you, self._pending)

    def turn_text(self) -> str:
        """The banner's line: whose move it is, or what I can do now."""
        return self.read.turn_text()

    def _why_not(self) -> str:
        read = self.read
        if read.my_window():
            return _("That card cannot top this one: a lit card can, or press TOP! or Pass.")
        return super()._why_not()

    def _banner_seat(self) -> tuple[QColor | None, str]:
        view = self.view or {}
        phase = self._phase()
        seat = view.get("current")
        if phase == "window":
            chain = self.read.chain()
            seat = chain[-1].get("seat") if chain else seat
        if phase == "over" or not isinstance(seat, int):
            return None, ""
        return look.seat_colour(self.seats, seat), look.seat_letter(self.seats, seat)

    # --- drawing the scene --------------------------------------------------------

    def _rebuild(self) -> None:
        self._finish_animation()
        self._kept.save(self.scene)
        self.scene.clear()
        self.hand_items, self.chain_items, self.discard_items = [], [], []
        self.ranking_items, self.plates, self.zones = {}, {}, {}
        self.stage_lines = []
        self._rects = {}
        self.window_buttons.hide()
        size = self._viewport().size()
        width, height = max(480, size.width()), max(360, size.height())
        self.scene.setSceneRect(0, 0, width, height)
        view = self.view
        if view is None:
            return
        players = int(view.get("players", len(self.seats)))
        bottom = self.you if self.you is not None else 0
        read = self.read
        hand = read.hand()
        text_px = max(look.default_px() * 1.15, min(width, height) * 0.02)
        lay = compute(width, height, text_px, players, bottom, len(hand), self.you is None)
        self.layout_ = lay
        self.banner.show_state(read.turn_text(), *self._banner_seat(), read.info_text(),
                               accent=read.acting())
        self._draw_seats(view, lay, players)
        self._draw_piles(view, lay)
        self._draw_direction(view, lay, players)
        earlier = set(self.scene.items())
        drawn = draw_stage(self.scene, read, self.seats, lay)
        self.stage_items = [i for i in self.scene.items() if i not in earlier]
        if self.chooser.isVisible():
            self._stage_quiet(True)
        self.chain_items, self.stage_lines = drawn.cards, drawn.lines
        self._rects.update(drawn.rects)
        column = lay.buttons.height() >= lay.text_px * 5.6  # TOP! over Pass, beside
        if drawn.cards and read.my_window():
            box = lay.buttons.adjusted(0, lay.text_px * COUNTDOWN_LINES, 0, 0) if column \
                else lay.buttons
            self.window_buttons.place(box, lay.text_px, self.graphics, column)
        self._place_countdown(lay, bool(drawn.cards), column)
        self._draw_hand(lay, hand)

    def set_deadline(self, seconds_left: float | None) -> None:
        """The host's deadline (the game page hands it on): the open window's own
        countdown, where the chain lies."""
        self.countdown.set_left(seconds_left)  # shown while a window is (``_place_countdown``)

    def _place_countdown(self, lay: Layout, window: bool, column: bool) -> None:
        """Over TOP! and Pass (at the head of their column, or above their row)."""
        if not window:
            self.countdown.hide()
            return
        t = lay.text_px
        box = lay.buttons
        top = box.top() if column else box.top() - t * COUNTDOWN_LINES
        top_left = self.graphics.mapFromScene(QPointF(box.left(), top))
        self.countdown.setGeometry(top_left.x(), top_left.y(), round(box.width()),
                                   round(t * 1.5))
        self.countdown.show()
        self.countdown.raise_()

    def _draw_seats(self, view: dict[str, Any], lay: Layout, players: int) -> None:
        counts = view.get("hand_counts") or [0] * players
        phase = self._phase()
        read = self.read
        for seat, spots in lay.seats.items():
            seat_map = self.seats[seat] if seat < len(self.seats) else {}
            active = phase != "over" and (
                (phase == "window" and seat in read.actors())
                or (phase != "window" and seat == view.get("current")))
            colour = look.seat_colour(self.seats, seat)
            shown = (seat, repr(seat_map), colour.rgba(), spots.plate.width(),
                     spots.plate.height(), lay.text_px,
                     int(counts[seat]) if seat < len(counts) else 0, read.status(seat),
                     active, seat == self.you)
            plate = self._kept.take(("plate", *shown), spots.plate.topLeft(),
                                    _plate(seat_map, colour, shown))
            self.scene.addItem(plate)
            self.plates[seat] = plate
            ranking = read.ranking(seat)
            needed = read.needed(seat)
            items: list[CardItem | SlotItem] = []
            for i, rect in enumerate(spots.ranking):
                number = 5 - i
                if i < len(ranking):
                    card = ranking[i]
                    item: CardItem | SlotItem = self._card(card, rect)
                    tip = card_tip(face_of(card))
                    item.setToolTip((_("Your Ranking Top, place {n}: {card}") if seat == self.you
                                     else _("{name}'s Ranking Top, place {n}: {card}")).format(
                                         name=read.name(seat), n=number, card=tip))
                    self._remember(card, rect)
                else:
                    item = self._slot(number, rect, number == needed and phase != "over")
                    if seat == self.you:
                        tip = (_("Your Ranking Top: the next card must be a {n} (or a "
                                 "Primordial Rule)") if number == needed else
                               _("Your Ranking Top: place {n}, still empty"))
                    else:
                        tip = (_("{name}'s Ranking Top: the next card must be a {n} (or a "
                                 "Primordial Rule)") if number == needed else
                               _("{name}'s Ranking Top: place {n}, still empty"))
                    item.setToolTip(tip.format(name=read.name(seat), n=number))
                item.setPos(rect.topLeft())
                self.scene.addItem(item)
                items.append(item)
            self.ranking_items[seat] = items
        if self.you is not None:
            mine = lay.seats[self.you].ranking
            area = QRectF(mine[0].topLeft(), mine[-1].bottomRight()).adjusted(-8, -8, 8, 8)
            self._zone("rank", area, _("To my Ranking Top"))

    def _card(self, card: dict[str, Any], rect: QRectF, compact: bool = False) -> CardItem:
        """A card nobody plays from (placed, on the pile), kept if it looks the same."""
        w, h = rect.width(), rect.height()

        def make() -> CardItem:
            item = CardItem(card, w, h)
            item.compact = compact
            return item

        return self._kept.take(("card", face_of(card), w, h, compact), rect.topLeft(), make)

    def _slot(self, number: int, rect: QRectF, nxt: bool) -> SlotItem:
        w, h = rect.width(), rect.height()
        return self._kept.take(("slot", number, w, h, nxt), rect.topLeft(),
                               lambda: SlotItem(number, w, h, nxt=nxt))

    def _remember(self, card: dict[str, Any], rect: QRectF) -> None:
        card_id = card.get("id")
        if isinstance(card_id, int):
            self._rects[card_id] = QRectF(rect)

    def _zone(self, key: str, rect: QRectF, label: str) -> None:
        zone = ZoneItem(rect, label, self.layout_.text_px if self.layout_ else 14.0)
        zone.setZValue(-1)
        self.scene.addItem(zone)
        self.zones[key] = zone

    def _draw_piles(self, view: dict[str, Any], lay: Layout) -> None:
        t = lay.text_px
        size = (int(view.get("deck", 0)), lay.deck.width(), lay.deck.height())
        deck = self._kept.take(("stack", *size), lay.deck.topLeft(), lambda: StackItem(*size))
        reshuffles = int(view.get("reshuffles", 0) or 0)
        cards = int(view.get("deck", 0) or 0)
        deck.setToolTip(ngettext("Draw deck: {n} card", "Draw deck: {n} cards", cards).format(
            n=cards) + (" " + _("(the discard pile was shuffled in {times}\u00d7)").format(
                times=reshuffles) if reshuffles else ""))
        self.scene.addItem(deck)
        lift = lay.deck.width() * 0.1
        label_box = QRectF(lay.deck.left() - t, lay.deck.top() - lift - t * 1.5,
                           lay.deck.width() + 2 * t, t * 1.3)
        caption(self.scene, _("Deck"), label_box, t * 0.95)
        pile = list(view.get("discard") or [])
        fan = lay.discard_fan
        w, h = lay.discard.width(), lay.discard.height()
        shown = pile[-FAN:] if fan.width() > w + 1 else pile[-1:]  # no fan: its top card
        step = (fan.width() - w) / max(1, FAN - 1)
        x0 = lay.discard.left() - step * (len(shown) - 1)
        for i, card in enumerate(shown):
            rect = QRectF(x0 + i * step, fan.top(), w, h)
            item = self._card(card, rect, compact=i < len(shown) - 1)
            item.setZValue(i)
            self.scene.addItem(item)
            self.discard_items.append(item)
            self._remember(card, rect)
        if not shown:
            empty = self._slot(0, lay.discard, False)
            empty.setToolTip(_("The discard pile is empty"))
            self.scene.addItem(empty)
        count = int(view.get('discard_count', len(pile)) or 0)
        room = QRectF(lay.deck.right() + t * 0.3, fan.top() - t * 1.5,
                      lay.stage.left() - lay.deck.right() - t * 0.6, t * 1.3)
        label = _("Discard pile ({n})").format(n=count)
        metrics = QFontMetricsF(look.font(look.default_px()))
        if metrics.horizontalAdvance(label) > room.width():
            label = _("Discard ({n})").format(n=count)  # a narrow table: the short name
        if metrics.horizontalAdvance(label) > room.width():
            label = _("Discard")  # narrower still: the word alone
        caption(self.scene, label, room, t * 0.95)
        self._zone("discard", fan.adjusted(-10, -t * 1.7, 10, 10), _("Discard (effect)"))

    def _draw_direction(self, view: dict[str, Any], lay: Layout, players: int) -> None:
        t = lay.text_px
        clockwise = view.get("direction", 1) == 1
        current = view.get("current")
        caption = ""
        if isinstance(current, int) and self._phase() != "over":
            nxt = (current + (1 if clockwise else -1)) % max(1, players)
            caption = _("next: you") if nxt == self.you else \
                _("next: {name}").format(name=self._name(nxt))
        size, spot = direction_place(lay.direction, t, clockwise)
        width = spot.width()
        item = self._kept.take(("direction", clockwise, size, t, caption, width),
                               spot.topLeft(),
                               lambda: DirectionItem(clockwise, size, t, caption, width))
        self.scene.addItem(item)

    def _draw_hand(self, lay: Layout, hand: list[dict[str, Any]]) -> None:
        t = lay.text_px
        if self.you is None:
            caption(self.scene, _("You are watching: every hand is hidden"), lay.hand_band,
                    t * 1.05)
            return
        if not hand:
            caption(self.scene, _("Your hand is empty"), lay.hand_band, t * 1.05)
            return
        read = self.read
        play, keep, window = read.my_play(), read.my_keep(), read.my_window()
        can_top = set((self.view or {}).get("can_top") or [])
        for i, (card, rect) in enumerate(zip(hand, lay.hand, strict=False)):
            item = CardItem(card, rect.width(), rect.height())
            item.compact = i + 1 < len(lay.hand) and lay.hand[i + 1].left() < rect.right() - 2
            item.setPos(rect.topLeft())
            item.setZValue(20 + i)
            lit = play or keep or (window and card.get("id") in can_top)
            item.make_playable(lit, self._clicked, self._dragged if (play or window) else None)
            item.key = str(i + 1) if i < 9 else ""  # keys 1-9, shown while it is lit (F1)
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
        read = self.read
        if read.my_window():
            self._top_with(card_id)
        elif read.my_keep():
            self._ask_keep(item)
        elif read.my_play():
            self._ask_play(item)

    def _stage_foot(self) -> Any:
        """Where a choice opens: the foot of the stage, clear of my hand and the piles."""
        lay = self.layout_
        if lay is None:
            return self.rect().center()
        return self.graphics.mapFromScene(QPointF(lay.stage.center().x(), lay.stage.bottom()))

    def teach_ready(self) -> bool:
        """The walkthrough waits for my own turn: not over a 4-second top window."""
        return self.read.my_play()

    def teach_spot(self, key: str) -> Any:
        lay = self.layout_
        if lay is None:
            return None
        mine = lay.seats.get(self.you) if self.you is not None else None
        spots = {"hand": list(lay.hand), "chart": list(mine.ranking) if mine else [],
                 "stage": [lay.stage]}
        return self._spot(spots.get(key, []))

    def _stage_width(self) -> int:
        lay = self.layout_
        if lay is None:
            return 0
        left = self.graphics.mapFromScene(QPointF(lay.stage.left(), 0))
        right = self.graphics.mapFromScene(QPointF(lay.stage.right(), 0))
        return right.x() - left.x()

    def _ask_play(self, item: CardItem) -> None:
        view = self.view or {}
        card = item.card
        can_rank = item.card_id in (view.get("can_rank") or [])
        needed = self.read.needed(self.you)
        why = "" if can_rank else rank_reason(card, needed)
        face = item.face
        rank_label = _("To my Ranking Top")
        if face.kind == "rule" and can_rank:
            rank_label = _("To my Ranking Top (as {n})").format(n=needed)
        choices = [Choice("top", rank_label, can_rank, why),
                   Choice("discard", _("Discard (effect)") if face.kind == "song"
                          else _("Discard (no effect)"), True, discard_words(card))]
        note = "\n".join(x for x in (why, discard_words(card)) if x)
        self._select(item)
        t = self.layout_.text_px if self.layout_ else 16.0
        self.chooser.ask("play", item.card_id, _("Play {card}:").format(card=card_name(face)),
                         choices, note,
                         self._stage_foot(), t, room=self._stage_width())

    def _ask_keep(self, item: CardItem) -> None:
        others = len(self.hand_items) - 1
        self._select(item)
        t = self.layout_.text_px if self.layout_ else 16.0
        self.chooser.ask("keep", item.card_id, _("Keep {card}?").format(
                             card=card_name(item.face)),
                         [Choice("keep", _("Keep this card"))],
                         ngettext("The other {n} card goes to the discard pile, then you "
                                  "draw 4.", "The other {n} cards go to the discard pile, "
                                  "then you draw 4.", others).format(n=others),
                         self._stage_foot(), t, room=self._stage_width())

    def _stage_quiet(self, choosing: bool) -> None:
        """While a choice is open the stage's words under it give way (they said what
        the choice says; a "waiting for ..." line once lay over "keep this card?")."""
        for item in self.stage_items:
            if isinstance(item, QGraphicsSimpleTextItem | DiscItem):
                item.setVisible(not choosing)

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
        read = self.read
        if purpose == "play" and key in ("top", "discard") and read.my_play():
            self._send({"type": "play", "card": subject, "to": key})
        elif purpose == "keep" and read.my_keep():
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
        window = self.read.my_window()
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
        if not self.read.my_play():
            self._snap_back(item)
            return
        if hit == "rank" and card_id not in ((self.view or {}).get("can_rank") or []):
            self._snap_back(item)
            self._toast(rank_reason(item.card, self.read.needed(self.you)))
            return
        self._send({"type": "play", "card": card_id, "to": "top" if hit == "rank" else "discard"})

    def press_top(self) -> None:
        """TOP!: my one topping card at once, a chooser for several, or 'you have none'."""
        read = self.read
        if not read.my_window():
            return
        view = self.view or {}
        can = [c for c in view.get("can_top") or [] if isinstance(c, int)]
        if self.layout_ is not None:
            self._pointer = QPointF(self.layout_.buttons.center().x(), self.layout_.buttons.top())
        if not can:
            self._toast(_("You have no card that can top {card}: it takes a Top card or the "
                          "same number. Pass, or wait.").format(card=read.chain_top_name()))
            return
        if len(can) == 1:
            self._top_with(can[0])
            return
        choices = [Choice(c, card_name(face_of(read.card(c)))) for c in can]
        t = self.layout_.text_px if self.layout_ else 16.0
        geometry = self.top_button.geometry()
        at = geometry.center()
        at.setY(geometry.bottom())
        self.chooser.ask("top", -1, _("Top {card} with:").format(card=read.chain_top_name()),
                         choices, "", at, t, below=True)

    def _top_with(self, card_id: int) -> None:
        view = self.view or {}
        read = self.read
        if not read.my_window():
            return
        if card_id not in (view.get("can_top") or []):
            self._toast(_("{card} cannot top {other}.").format(
                card=card_name(face_of(read.card(card_id))), other=read.chain_top_name()))
            return
        self._send({"type": "top", "card": card_id, "window": view.get("window")})

    def press_pass(self) -> None:
        if not self.read.my_window():
            return
        self.chooser.hide()
        self._send({"type": "pass", "window": (self.view or {}).get("window")})

    def _send(self, action: dict[str, Any]) -> None:
        """Sent: the buttons go and my hand goes quiet until the host answers."""
        self.window_buttons.hide()
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

    def key_targets(self) -> list[Target]:
        """My hand's cards, from the left: lit ones can be taken (played, kept, or
        topped with), the others read."""
        if self.chooser.isVisible():
            return []
        out: list[Target] = []
        for item in self.hand_items:
            name = card_name(item.face)
            out.append(Target(("hand", item.card_id),
                              (_("Your hand: {card}, playable") if item.lit else
                               _("Your hand: {card}, not playable now")).format(card=name),
                              partial(self._clicked, item), self._item_rect(item),
                              item.key if item.lit else "", item.toolTip(),
                              enabled=item.lit))
        return out

    def key_controls(self) -> list[QWidget]:
        return [self.top_button, self.pass_button, *self.chooser.buttons]

    def _claim_key(self, event: QKeyEvent) -> bool:
        """Space is TOP!, P or Esc is Pass; Esc first closes an open choice."""
        key = event.key()
        if key == Qt.Key.Key_Escape and self.chooser.isVisible():
            self._cancel_choice()
            return True
        if self.read.my_window() and not event.modifiers() & HELD:
            if key == Qt.Key.Key_Space:
                if self.chooser.isVisible() and self.chooser.purpose == "top":
                    self.chooser.buttons[0].click()
                else:
                    self.press_top()
                return True
            if key in (Qt.Key.Key_P, Qt.Key.Key_Escape):
                self.press_pass()
                return True
        return False
