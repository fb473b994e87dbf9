"""The Ranking table: renders a view, animates tiles between floors, emits intents.

Everything drawn comes from the view the host sent and the lobby's seat
maps; nothing here decides a rule. The table lights what the view makes
possible (a hand tile while placing, partners on the same floor while
comparing, every tile while guessing) and explains a click that cannot
work; the host checks every intent anyway (a refusal comes back through
``show_rejection``).

Comparing is by click: the first tile, then a lit partner on its floor,
then "Which fits better?" with one button per tile. Between rounds, while
everyone places, the tower keeps the finished round's row with each
owner's disc and the points the tile earned (``previous_row``).
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QParallelAnimationGroup, QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetrics, QKeyEvent
from PyQt6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem, QPushButton, QWidget

from ui.look import pictures
from ui.services.lifetime import alive
from ui.tables import look, textfit
from ui.tables.felt import names_list
from ui.tables.keys import Target
from ui.tables.motion import HOLD_MS
from ui.tables.pieces import RingItem
from ui.tables.ranking import tile_keys
from ui.tables.ranking.items import (
    Mark,
    TileItem,
    track_room,
)
from ui.tables.ranking.layout import (
    FLOORS,
    HAND_LABEL,
    TRACK_COLUMN,
    Layout,
    compute,
    track_position,
)
from ui.tables.ranking.name_columns import spread
from ui.tables.ranking.plates import PlateInfo, PlateItem
from ui.tables.ranking.reading import Reading, slot_name
from ui.tables.ranking.tower import TowerTable
from ui.tables.widgets import BUTTON_STYLE, NumeralChooser
from ui.words.i18n import _, ngettext
from ui.words.result_words import tie

MOVE_MS = 300
PULSE_MS = 700


class RankingTable(TowerTable):
    """The table widget the window embeds for a game of Ranking."""

    KEYS = tile_keys.KEYS  # F1 lists them

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("rankingTable", parent)
        self.layout_: Layout | None = None
        self.tiles: dict[int, TileItem] = {}
        """Slot -> the tile on the tower (this round's row, or the finished one)."""
        self.hand_items: list[TileItem] = []
        self.plates: dict[int, PlateItem] = {}
        self.first: int | None = None
        self._pair: tuple[TileItem, TileItem] | None = None
        """The first tile picked for a comparison (a slot)."""
        self._showing_previous = False
        self._caption_room = 0.0
        """The height kept over the floors for the row's caption (0: none)."""
        self._caption_cut = False
        """The last drawing found no floor with room for the caption."""
        self._rects: dict[tuple[Any, str], QRectF] = {}
        self._under_choice: list[QGraphicsItem] = []
        """My hand's pieces hidden while the choice lies over them."""
        self.chooser = NumeralChooser(self._viewport())
        self.chooser.label.setText(_("Which fits the question better?"))
        self.chooser.chosen.connect(self._chosen)
        self.chooser.cancelled.connect(self._cancel_choice)
        self.pass_button = QPushButton(_("Pass"), self._viewport())
        self.pass_button.setObjectName("rankingPass")
        self.pass_button.setStyleSheet(BUTTON_STYLE)
        self.pass_button.clicked.connect(self._pass)
        self.pass_button.hide()

    # --- the contract --------------------------------------------------------

    def set_view(self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
                 animate: bool = True) -> None:
        """Show ``view``; animate tiles to their new floors unless this is a resync."""
        self._finish_animation()
        previous = self.view
        before = dict(self._rects)
        self._adopt(view, seats, you, int(view.get("players", len(seats))))
        self._stop_waiting()
        self.first = None
        self.chooser.hide()
        self._rebuild()
        self._show_log(view)
        if animate and previous is not None and previous.get("game") == view.get("game"):
            self._animate(previous, before)

    def show_rejection(self, reason: str) -> None:
        self.chooser.hide()
        super().show_rejection(reason)

    # --- reading the view ---------------------------------------------------------

    def _hint_pieces(self) -> list[Any]:
        return [*self.hand_items, *self.tiles.values()]

    def teach_spot(self, key: str) -> Any:
        lay = self.layout_
        if lay is None:
            return None
        spots = {"hand": list(lay.hand) or [lay.hand_band], "tower": list(lay.shelves.values()),
                 "plates": list(lay.plates)}
        return self._spot(spots.get(key, []))

    def _mark(self, seat: int) -> Mark:
        return Mark(look.seat_colour(self.seats, seat), look.seat_letter(self.seats, seat))


    @property
    def read(self) -> Reading:
        """What the view says to this seat now (a fresh reading each time)."""
        return Reading(self.view or {}, self._names(), self.you, self._pending, self.first)

    def _acting(self) -> bool:
        return self.read.acting()

    def _can_compare(self) -> bool:
        return self.read.can_compare()

    def _can_guess(self) -> bool:
        return self.read.can_guess()

    def _can_place(self) -> bool:
        return self.read.can_place()

    def turn_text(self) -> str:
        """The banner's line: whose move it is, or what I can do now."""
        return self.read.turn_text()

    def _answered(self) -> bool:
        return self.read.answered()

    def _question(self) -> str:
        return self.read.question()

    def _info_text(self) -> str:
        return self.read.info_text()

    def _banner_seat(self) -> tuple[QColor | None, str]:
        view = self.view or {}
        phase = self._phase()
        seat = view.get("current") if phase in ("compare", "guess") else None
        if phase == "guess":
            seat = view.get("guess_for")
        if not isinstance(seat, int):
            return None, ""
        return look.seat_colour(self.seats, seat), look.seat_letter(self.seats, seat)

    # --- drawing the scene --------------------------------------------------------

    def _shown_row(self) -> list[dict[str, Any]]:
        """This round's row; while placing, the finished round's row (the reveal)."""
        view = self.view or {}
        row = list(view.get("row") or [])
        self._showing_previous = False
        if not row:
            row = list(view.get("previous_row") or [])
            self._showing_previous = bool(row)
        return row

    def _rebuild(self) -> None:
        self._caption_room = 0.0
        self._under_choice = []  # the pieces drawn anew are shown; the old ones are gone
        self._build()
        lay = self.layout_
        if self._caption_cut and lay is not None:  # no floor has room: a line over them
            self._caption_room = lay.text_px * 1.45
            self._build()
            lay = self.layout_
            if lay is not None and lay.shelves[0].bottom() > \
                    lay.hand_band.top() - lay.margin * 0.8 + 0.5:  # not into the hand
                self._caption_room = -1.0
                self._build()
        if self.chooser.isVisible():  # still choosing: the new hand gives way as the old did
            self._hide_under_choice()

    def _build(self) -> None:
        self._caption_cut = False
        self._finish_animation()
        self.scene.clear()
        self.tiles, self.hand_items, self.plates = {}, [], {}
        self._rects = {}
        self.pass_button.hide()
        size = self._viewport().size()
        width, height = max(480, size.width()), max(360, size.height())
        self.scene.setSceneRect(0, 0, width, height)
        view = self.view
        if view is None:
            return
        players = int(view.get("players", len(self.seats)))
        row = self._shown_row()
        counts = [0] * FLOORS
        for slot in row:
            floor = slot.get("floor")
            if isinstance(floor, int) and 0 <= floor < FLOORS:
                counts[floor] += 1
        hand = list(view.get("hand") or []) if self.you is not None else []
        text_px = max(look.default_px() * 1.2, min(width, height) * 0.021)
        big_hand = self._phase() == "place" and self.you is not None
        phase = self._phase()
        # Right of the hand: what I placed, or my guess and Pass.
        action = phase == "guess" or (phase == "place" and view.get("placed") is not None)
        # Bots' badges (B1, B2...) are pills: the track makes room for a row of those
        # that stand together (scores change only between rounds, when the row on show
        # is drawn anew: no tile glides sideways for it), the rest goes to the tiles.
        scores = list(view.get("scores") or [])
        places: dict[int | None, list[str]] = {}
        for seat in range(players):
            score = int(scores[seat]) if seat < len(scores) else 0
            places.setdefault(track_position(score)[0], []).append(
                look.seat_letter(self.seats, seat))
        # Too many together for the usual column (five pills at the round's start made
        # the track 137 px wide for every floor): they stand in their floor, right of
        # its number, and that floor's tiles start after them; the roof keeps its own.
        column = text_px * TRACK_COLUMN
        band: dict[int, float] = {}
        for place, letters in places.items():
            need = track_room(letters, text_px)
            if place is not None and place < FLOORS and need > column:
                band[place] = need + text_px * 0.4
        track = max((track_room(letters, text_px) for place, letters in places.items()
                     if place is not None and place not in band), default=0.0)
        lay = compute(width, height, text_px, players, counts, len(hand), big_hand,
                      action_room=action, track_need=track,
                      caption_h=max(0.0, self._caption_room), band_need=band)
        tall, taller, tall_hand = self._long_names(lay, row, hand)
        marked = self._marked_floors(view, lay, row)
        if tall or tall_hand > 1 or marked:  # lines under the tiles that need them
            lay = compute(width, height, text_px, players, counts, len(hand), big_hand,
                          tall, tall_hand, action, track, max(0.0, self._caption_room),
                          taller, marked, band)
            if marked and lay.shelves[0].bottom() > lay.hand_band.top() - lay.margin * 0.8 \
                    + 0.5:  # no height for the marks' line: the tower would reach the hand
                lay = compute(width, height, text_px, players, counts, len(hand), big_hand,
                              tall, tall_hand, action, track,
                              max(0.0, self._caption_room), taller, band_need=band)
        self.layout_ = lay
        self.banner.show_state(self.turn_text(), *self._banner_seat(), self._info_text(),
                               accent=self._acting() and not self._answered())
        self._draw_plates(view, lay, players)
        self._draw_tower(view, lay, row, players)
        self._draw_hand(view, lay, hand)

    def _draw_plates(self, view: dict[str, Any], lay: Layout, players: int) -> None:
        scores = list(view.get("scores") or [0] * players)
        left = view.get("stones_left") or []
        start = 2 if players == 3 else 1
        phase = self._phase()
        actors = set(view.get("actors") or [])
        answered = view.get("answered") or []
        gains = self._gains()
        for seat in range(players):
            seat_map = self.seats[seat] if seat < len(self.seats) else {}
            held = left[seat] if seat < len(left) else []
            stones = [(self._mark(c), int(held[c]) if c < len(held) else 0, start)
                      for c in range(players) if c != seat]
            done = seat < len(answered) and bool(answered[seat])
            status = ""
            if phase == "place":
                status = _("placed") if done else (_("placing") if seat in actors else "")
            elif phase == "guess":
                if seat == view.get("guess_for"):
                    status = _("compared")
                elif seat in actors:
                    status = _("answered") if done else _("guessing")
            elif phase == "compare" and seat == view.get("current"):
                status = _("comparing")
            active = phase != "over" and (
                (phase == "compare" and seat == view.get("current"))
                or (phase in ("place", "guess") and seat in actors and not done))
            info = PlateInfo(seat, look.seat_name(self.seats, seat),
                             look.seat_colour(self.seats, seat),
                             int(scores[seat]) if seat < len(scores) else 0,
                             seat == self.you, bool(seat_map.get("bot")),
                             bool(seat_map.get("connected", True)), active, status, stones,
                             gains.get(seat), look.seat_letter(self.seats, seat))
            if seat >= len(lay.plates):
                continue
            plate = PlateItem(info, lay.plates[seat], lay.text_px)
            self.scene.addItem(plate)
            self.plates[seat] = plate
        if phase == "over":
            self._draw_final(view, lay, players)

    def _draw_final(self, view: dict[str, Any], lay: Layout, players: int) -> None:
        if not lay.plates or players > len(lay.plates):
            return
        below = lay.plates[players - 1]
        winners = [self._name(s) for s in view.get("winners") or []]
        text = QGraphicsSimpleTextItem(
            _("Game over: a draw") if tie(view, "final") is not None  # nobody is a winner
            else ngettext("{names} wins!", "{names} win!", len(winners)).format(
                names=names_list(winners)) if winners else _("Game over"))
        text.setFont(look.font(lay.text_px * 1.4, bold=True))
        text.setBrush(look.LIT)
        text.setPos(below.left() + lay.text_px * 0.5, below.bottom() + lay.margin)
        self.scene.addItem(text)

    def _gains(self) -> dict[int, int]:
        """Points each owner's tile earned in the row on show, once owners are known."""
        gains: dict[int, int] = {}
        view = self.view or {}
        if not (self._showing_previous or self._phase() == "over"):
            return gains
        for slot in self._shown_row_cached():
            owner = slot.get("owner")
            if isinstance(owner, int):
                stones = [s for s in slot.get("stones") or [] if s == owner]
                gains[owner] = max(0, int(slot.get("floor", 0)) - len(stones))
        last = view.get("last") or {}
        if last.get("kind") == "score" and isinstance(last.get("gains"), list):
            gains = {s: int(g) for s, g in enumerate(last["gains"]) if s in gains or g}
        return gains

    def _shown_row_cached(self) -> list[dict[str, Any]]:
        view = self.view or {}
        return list(view.get("row") or []) or list(view.get("previous_row") or [])

    def _draw_hand(self, view: dict[str, Any], lay: Layout, hand: list[dict[str, Any]]) -> None:
        band = lay.hand_band
        t = lay.text_px
        if self.you is None:
            self._band_text(lay, _("You are watching: the hands are hidden"), band)
            return
        placing = self._can_place()
        for i, (tile, rect) in enumerate(zip(hand, lay.hand, strict=False)):
            picture = str(tile.get("id", ""))
            item = TileItem(picture, pictures.shown_name(picture, str(tile.get("name") or picture)),
                            lay.hand_tile, t,
                            lay.hand_name_h, key=("hand", picture),
                            name_room=lay.hand_step - t * 0.15)
            item.setPos(rect.topLeft())
            item.setZValue(10)
            if placing:
                item.lit = True
                item.key = str(i + 1) if i < 9 else ""  # keys 1-6 place (F1 says so)
                item.hover_lift = True
                item.make_clickable(self._hand_clicked)
                item.setToolTip(_("{name}: click to place it face down").format(name=item.name))
            elif self._phase() != "place":
                item.setOpacity(0.8)
            self.scene.addItem(item)
            self.hand_items.append(item)
            self._rects[("hand", picture)] = QRectF(rect)
        # A hand's long name borrows what its neighbours' shorter ones leave.
        spread(self.hand_items, band.left() + HAND_LABEL * t,
               lay.action.left() - t * 0.5 if lay.action.width() else band.right(), t * 0.5)
        first = lay.hand[0] if lay.hand else band
        column = QRectF(band.left(), band.top(), HAND_LABEL * t - t * 0.4, band.height())
        fitted = textfit.fit(_("Your hand"), column.width(), t * 0.9, 2)
        top = max(band.top(), first.top() + lay.hand_tile / 2 - fitted.height() / 2)
        textfit.add_lines(self.scene, fitted, QRectF(  # beside a small hand: not over floor 0
            column.left(), top, column.width(), fitted.height()), look.MUTED_ON_FELT,
            centre=False)
        self._draw_action(view, lay)

    def _draw_action(self, view: dict[str, Any], lay: Layout) -> None:
        """The right end of the hand band: what I placed, my guess, or the Pass button."""
        area = lay.action
        t = lay.text_px
        phase = self._phase()
        placed = view.get("placed")
        if phase == "place" and placed is not None:
            size = min(area.height() - lay.name_h - t * 1.6, lay.hand_tile)
            item = TileItem(str(placed), pictures.name_of(str(placed)), size, t,
                            lay.name_h, key=("hand", str(placed)))
            item.quiet = True
            item.setPos(area.center().x() - size / 2, area.top() + t * 1.4)
            self.scene.addItem(item)
            self._rects[("hand", str(placed))] = QRectF(item.pos(), item.boundingRect().size())
            self._band_text(lay, _("Placed face down"), QRectF(area.left(), area.top(),
                                                            area.width(), t * 1.4), small=True)
            return
        if phase == "guess":
            pending = view.get("guess")
            if self._can_guess():
                self.pass_button.setFont(look.font(t * 1.2, bold=True))
                self.pass_button.setText(_("{choice} ({key})").format(choice=_("Pass"),
                                                                      key="P"))
                self.pass_button.adjustSize()
                if self.pass_button.width() > area.width():  # narrow: P still passes
                    self.pass_button.setText(_("Pass"))
                    self.pass_button.adjustSize()
                w = max(self.pass_button.width(), round(t * 7))
                h = max(self.pass_button.height(), round(t * 2.6))
                self.pass_button.resize(w, h)
                centre = self.graphics.mapFromScene(area.center())
                self.pass_button.move(centre.x() - w // 2, centre.y() - h // 2)
                self.pass_button.show()
                self.pass_button.raise_()
            elif pending is not None:
                what = (_("You passed") if pending == "pass" else
                        _("You guessed {name}").format(name=self._slot_name(pending)))
                self._band_text(lay, what, area, small=True)

    def _slot_name(self, slot: Any) -> str:
        for s in (self.view or {}).get("row") or []:
            if s.get("slot") == slot:
                return slot_name(s)
        return _("a tile")

    def _band_text(self, lay: Layout, text: str, box: QRectF, small: bool = False) -> None:
        item = QGraphicsSimpleTextItem(text)
        item.setFont(look.font(lay.text_px * (0.95 if small else 1.1), bold=small))
        item.setBrush(look.LIT if small else look.MUTED_ON_FELT)
        metrics = QFontMetrics(item.font())
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, int(box.width()))
        item.setText(shown)
        width = metrics.horizontalAdvance(shown)
        item.setPos(box.center().x() - width / 2, box.center().y() - metrics.height() / 2)
        self.scene.addItem(item)

    # --- playing: clicks become intents ------------------------------------------

    def _hand_clicked(self, item: TileItem) -> None:
        rect = item.sceneBoundingRect()
        self._pointer = QPointF(rect.center().x(), rect.top())
        if not self._can_place():
            return
        self._send({"type": "place", "tile": item.picture})

    def _tile_clicked(self, item: TileItem) -> None:
        rect = item.sceneBoundingRect()
        self._pointer = QPointF(rect.center().x(), rect.top())
        if item.slot is None:
            return
        if self._can_guess():
            self._send(self._with_step({"type": "guess", "slot": item.slot}))
        elif self._can_compare():
            self._compare_click(item)

    def _pass(self) -> None:
        if self._can_guess():
            self._pointer = None
            self._send(self._with_step({"type": "pass"}))

    def _with_step(self, action: dict[str, Any]) -> dict[str, Any]:
        step = (self.view or {}).get("step")
        if isinstance(step, int):
            action["step"] = step
        return action

    def _compare_click(self, item: TileItem) -> None:
        floor = item.floor if item.floor is not None else -1
        if self.first is None:
            if floor in (0, FLOORS - 1):
                self._toast((_("{name} is on floor {n}, the top: it cannot move further, so "
                               "it cannot be compared.") if floor else
                             _("{name} is on floor {n}, the bottom: it cannot move further, "
                               "so it cannot be compared.")).format(name=item.name, n=floor))
                return
            partners = [t for t in self.tiles.values()
                        if t.floor == floor and t.slot != item.slot]
            if not partners:
                self._toast(_("{name} is alone on floor {n}: pick two tiles on one floor.")
                            .format(name=item.name, n=floor))
                return
            self._select(item)
            return
        first = self.tiles.get(self.first)
        if first is None or item.slot == self.first:
            self._select(None)
            return
        if item.floor != first.floor:
            self._toast(_("Pick two tiles on one floor: {first} is on floor {n}, {second} on "
                          "floor {m}.").format(first=first.name, n=first.floor,
                                               second=item.name, m=item.floor))
            return
        self._ask(first, item)

    def _select(self, item: TileItem | None) -> None:
        """Mark the first tile and light its partners on the floor; None starts over."""
        self.first = item.slot if item is not None else None
        for tile in self.tiles.values():
            if item is None:
                tile.selected = False
                tile.lit = tile.floor in range(1, FLOORS - 1)
                tile.quiet = not tile.lit
            else:
                tile.selected = tile is item
                tile.lit = tile is not item and tile.floor == item.floor
                tile.quiet = not (tile.lit or tile.selected)
            tile.update()
        self.banner.show_state(self.turn_text(), *self._banner_seat(), self._info_text(),
                               accent=True)

    def _ask(self, a: TileItem, b: TileItem) -> None:
        self.chooser.label.setText(_("Which fits the question better?"))
        b.selected = True
        b.update()
        left = a if a.x() <= b.x() else b
        right = b if left is a else a
        choices = [(0, _("{name} up").format(name=left.name)),
                   (1, _("{name} up").format(name=right.name))]
        self._pair = (left, right)
        top_left = self.graphics.mapFromScene(left.sceneBoundingRect().topLeft())
        top_right = self.graphics.mapFromScene(right.sceneBoundingRect().topRight())
        self.chooser.ask(left, choices, top_left, top_right)
        # Over my hand (which does nothing while comparing): the pair stays in view.
        if self.layout_ is not None:
            centre = self.graphics.mapFromScene(self.layout_.hand_band.center())
            bounds = self._viewport().rect()
            w, h = self.chooser.width(), self.chooser.height()
            self.chooser.move(max(4, min(centre.x() - w // 2, bounds.width() - w - 4)),
                              max(4, min(centre.y() - h // 2, bounds.height() - h - 4)))
            self._hide_under_choice()
        self.banner.show_state(_("Which fits \u201c{question}\u201d better: {one} or {other}?")
                               .format(question=self._question(), one=left.name,
                                       other=right.name), *self._banner_seat(),
                               self._info_text(), accent=True,
                               # the question stands on the table: where the line is
                               # short, it need not say it again
                               short=_("Which fits the question better: {one} or {other}?")
                               .format(one=left.name, other=right.name))

    def _hide_under_choice(self) -> None:
        """The hand's pieces under the open choice give way until it closes (they do
        nothing while I compare; their names under its buttons would read as one)."""
        lay = self.layout_
        if lay is None:
            return
        box = self.graphics.mapToScene(self.chooser.geometry()).boundingRect()
        band = lay.hand_band
        self._under_choice = [item for item in self.scene.items()
                              if item.isVisible() and item.parentItem() is None
                              and band.contains(item.sceneBoundingRect().center())
                              and item.sceneBoundingRect().intersects(box)]
        for item in self._under_choice:
            item.setVisible(False)

    def _show_under_choice(self) -> None:
        for item in self._under_choice:
            if alive(item) and item.scene() is self.scene:
                item.setVisible(True)
        self._under_choice = []

    def _chosen(self, which: int) -> None:
        self.chooser.hide()
        self._show_under_choice()
        pair = self._pair
        if pair is None or not self._can_compare():
            return
        up, down = (pair[0], pair[1]) if which == 0 else (pair[1], pair[0])
        self._pair = None
        self._send({"type": "compare", "up": up.slot, "down": down.slot})

    def _cancel_choice(self) -> None:
        self.chooser.hide()
        self._show_under_choice()
        self._pair = None
        self._select(None)

    def _toast_home(self) -> QPointF | None:
        return self.layout_.hand_band.center() if self.layout_ is not None else None

    def key_targets(self) -> list[Target]:
        return tile_keys.targets(self)

    def key_controls(self) -> list[QWidget]:
        return [self.pass_button, *self.chooser.buttons]

    def _claim_key(self, event: QKeyEvent) -> bool:
        return tile_keys.claim(self, event)

    # --- motion ---------------------------------------------------------------------

    def _animate(self, previous: dict[str, Any], before: dict[tuple[Any, str], QRectF]) -> None:
        """Tiles glide from where they were; a placed tile flies from the hand; new
        stones and the compared pair get a fading ring."""
        group = QParallelAnimationGroup(self)
        view = self.view or {}
        for item in [*self.tiles.values(), *self.hand_items]:
            old = before.get(item.ident) if isinstance(item.ident, tuple) else None
            if old is None:
                continue
            if (old.topLeft() - item.pos()).manhattanLength() > 2:
                item.setZValue(30)
                group.addAnimation(self._fly(item, old.topLeft(), item.pos(), MOVE_MS))
        placed = view.get("placed")
        if placed is not None and previous.get("placed") is None:
            start = before.get(("hand", str(placed)))
            for found in self.scene.items():
                if isinstance(found, TileItem) and found.ident == ("hand", str(placed)) \
                        and found not in self.hand_items and start is not None:
                    group.addAnimation(self._fly(found, start.topLeft(), found.pos(), MOVE_MS))
        rings: list[QRectF] = []
        last = view.get("last") or {}
        if last != previous.get("last") and last.get("kind") == "compare":
            for key in ("up", "down"):
                tile = self.tiles.get(last.get(key, -1))
                if tile is not None:
                    rings.append(tile.mapRectToScene(tile.picture_rect()))
        old_stones = {s.get("slot"): len(s.get("stones") or []) for s in previous.get("row") or []}
        for slot in view.get("row") or []:
            number = slot.get("slot")
            if number in old_stones and len(slot.get("stones") or []) > old_stones[number]:
                tile = self.tiles.get(number)
                if tile is not None:
                    rings.append(tile.mapRectToScene(tile.picture_rect()))
        if not previous.get("row") and view.get("row"):
            for tile in self.tiles.values():
                group.addAnimation(self._fly(tile, 0.3, 1.0, MOVE_MS, b"opacity"))
        for rect in rings:
            self._pulse(group, RingItem(rect, gap=5.0), PULSE_MS)
        self._start_animation(group)
        if last != previous.get("last") and last.get("kind") in ("guesses", "score"):
            self._hold_ms = HOLD_MS  # the stones shown, the round scored: read them first
