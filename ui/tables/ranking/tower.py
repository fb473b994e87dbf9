"""The Ranking tower as drawn: each floor's row of tiles with their marks, names and
guess stones, the shelf's hints and the captions over the tower.

Split from ``table.py`` by job: the table reads the view, animates and takes clicks;
this draws the tower from what the table read. Nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QRectF
from PyQt6.QtGui import QFontMetricsF

from ui.look import pictures
from ui.tables import look, textfit
from ui.tables.felt import WaitingTable
from ui.tables.pieces import key_size
from ui.tables.ranking.items import Mark, TileItem, stone_marks
from ui.tables.ranking.layout import FLOORS, Layout, track_position
from ui.tables.ranking.name_columns import spread
from ui.tables.ranking.reading import question_text, slot_name
from ui.tables.ranking.tower_items import QuestionItem, RoofItem, ShelfItem
from ui.words.i18n import _

SMALL_TILE = 3.6
"""Under this many text heights (the platform's) a picture is too small to carry its
guess stones and tag: they go in a line under it."""


class TowerTable(WaitingTable):
    """The tower's drawing; ``RankingTable`` holds the state it reads and the clicks."""

    tiles: dict[int, TileItem]
    _rects: dict[tuple[Any, str], QRectF]
    _showing_previous: bool
    _caption_room: float
    _caption_cut: bool

    def _mark(self, seat: int) -> Mark:
        raise NotImplementedError

    def _can_compare(self) -> bool:
        raise NotImplementedError

    def _can_guess(self) -> bool:
        raise NotImplementedError

    def _tile_clicked(self, item: TileItem) -> None:
        raise NotImplementedError

    def _marked_floors(self, view: dict[str, Any], lay: Layout,
                       row: list[dict[str, Any]]) -> frozenset[int]:
        """Floors whose names stand under pictures too small to carry what lies on them
        (guess stones, the "yours" tag, the owner's disc): at 25 px the stones and the
        tag covered them. Those get a line for the marks under the picture."""
        if lay.tile >= look.default_px() * SMALL_TILE:
            return frozenset()
        reveal = self._showing_previous or self._phase() == "over"
        mine = view.get("mine") if not self._showing_previous else None
        pending = view.get("guess") if self._phase() == "guess" else None
        target = view.get("guess_for")
        counts = [0] * FLOORS
        for slot in row:
            if isinstance(slot.get("floor"), int) and 0 <= slot["floor"] < FLOORS:
                counts[slot["floor"]] += 1
        index = [0] * FLOORS
        floors = set()
        for slot in sorted(row, key=lambda s: int(s.get("slot", 0))):
            floor = slot.get("floor")
            if not isinstance(floor, int) or not 0 <= floor < FLOORS:
                continue
            index[floor] += 1
            number = slot.get("slot")
            if lay.side.get(floor) or not (slot.get("stones") or reveal
                                           or number in (mine, pending)):
                continue
            probe = TileItem("", slot_name(slot), lay.tile, lay.text_px, 0.0,
                             name_room=lay.name_room(counts[floor], floor),
                             beside_room=self._beside_room(lay, counts[floor], floor,
                                                           index[floor] == counts[floor]))
            probe.stones = stone_marks(slot, self._mark)
            probe.mine = number == mine
            if number == pending and isinstance(target, int):
                probe.pending = self._mark(target)
            owner = slot.get("owner")
            if reveal and isinstance(owner, int):
                probe.owner = self._mark(owner)
                probe.gain = max(0, floor - len([s for s in slot.get("stones") or []
                                                 if s == owner]))
            probe.supply = reveal and not isinstance(owner, int)
            if not probe.marks_beside():  # beside the picture costs no height
                floors.add(floor)
        return frozenset(floors)

    @staticmethod
    def _beside_room(lay: Layout, count: int, floor: int, last: bool = False) -> float:
        """Right of a small picture whose name is under it: up to the next picture's key
        cap (0: a picture big enough carries its marks)."""
        if lay.side.get(floor) or lay.tile >= look.default_px() * SMALL_TILE:
            return 0.0
        cap = key_size("9")[0] * 0.5 + 2
        step = lay.step(count, floor)
        if last:  # up to the tower's edge (a floor of few tiles leaves room there)
            x = lay.tile_rect(floor, count - 1, count).left()
            return lay.shelves[floor].right() - lay.margin * 0.3 - x - lay.tile - 2
        return step - lay.tile - cap

    def _long_names(self, lay: Layout, row: list[dict[str, Any]],
                    hand: list[dict[str, Any]]) -> tuple[frozenset[int], frozenset[int], int]:
        """The floors with a name too long for one line under its tile at the smallest
        type (they get a second line), those too long for two (a third), and the lines
        the hand's longest name needs (1, 2, or 3 for a name of several words that two
        lines cannot hold)."""
        metrics = QFontMetricsF(look.font(look.default_px(), bold=True))
        counts = [0] * FLOORS
        for slot in row:
            floor = slot.get("floor")
            if isinstance(floor, int) and 0 <= floor < FLOORS:
                counts[floor] += 1
        tall, taller = set(), set()
        for slot in row:
            floor = slot.get("floor")
            if not isinstance(floor, int) or not 0 <= floor < FLOORS \
                    or lay.side.get(floor):
                continue
            room = max(lay.name_room(counts[floor], floor), lay.tile * 1.12)
            if metrics.horizontalAdvance(slot_name(slot)) > room:
                tall.add(floor)
                if not textfit.fit(slot_name(slot), room, look.default_px(), 2,
                                   bold=True).fits:
                    taller.add(floor)
        room = max(lay.hand_step - lay.text_px * 0.15, lay.hand_tile * 1.12)
        tall_hand = 1
        for tile in hand:
            name = pictures.shown_name(str(tile.get("id", "")), str(tile.get("name") or ""))
            if metrics.horizontalAdvance(name) > room:
                two = textfit.fit(name, room, look.default_px(), 2, bold=True)
                tall_hand = max(tall_hand, 2 if two.fits else 3)
        return frozenset(tall), frozenset(taller), tall_hand

    def _draw_tower(self, view: dict[str, Any], lay: Layout, row: list[dict[str, Any]],
                    players: int) -> None:
        question = view.get("question") or {}
        caption = _("The question appears when the round starts")
        self.scene.addItem(QuestionItem(lay.question, question_text(question),
                                        str(question.get("side", "")), lay.text_px, caption))
        scores = list(view.get("scores") or [0] * players)
        on_floor: dict[int, list[tuple[Mark, bool]]] = {}
        for seat in range(players):
            score = int(scores[seat]) if seat < len(scores) else 0
            place, up = track_position(score)
            if place is not None:
                on_floor.setdefault(place, []).append((self._mark(seat), up))
        self.scene.addItem(RoofItem(lay.roof, lay.track_w, lay.label_w, lay.text_px,
                                    on_floor.get(7, [])))
        hints = self._shelf_hints(row)
        for floor, rect in lay.shelves.items():
            self.scene.addItem(ShelfItem(rect, floor, lay.track_w, lay.label_w, lay.text_px,
                                         on_floor.get(floor, []), hints.get(floor, ""),
                                         lay.band_lead.get(floor, 0.0)))
        self._draw_row(view, lay, row)

    def _shelf_hints(self, row: list[dict[str, Any]]) -> dict[int, str]:
        if row:
            if self._showing_previous:
                return {}
            return {}
        phase = self._phase()
        if phase == "place":
            return {3: _("The 7 pictures start here")}
        return {}

    def _draw_row(self, view: dict[str, Any], lay: Layout, row: list[dict[str, Any]]) -> None:
        mine = view.get("mine") if not self._showing_previous else None
        last = view.get("last") or {}
        moved: dict[int, str] = {}
        if last.get("kind") == "compare" and not self._showing_previous:
            moved = {last.get("up", -1): "up", last.get("down", -1): "down"}
        pending = view.get("guess") if self._phase() == "guess" else None
        target = view.get("guess_for")
        index = [0] * FLOORS
        counts = [0] * FLOORS
        for slot in row:
            if 0 <= int(slot.get("floor", 3)) < FLOORS:
                counts[int(slot.get("floor", 3))] += 1
        round_key = ("prev" if self._showing_previous else view.get("round", 0))
        clickable = self._can_compare() or self._can_guess()
        reveal = self._showing_previous or self._phase() == "over"
        for slot in sorted(row, key=lambda s: int(s.get("slot", 0))):
            floor = int(slot.get("floor", 3))
            number = int(slot.get("slot", 0))
            if not 0 <= floor < FLOORS:
                continue
            rect = lay.tile_rect(floor, index[floor], counts[floor])
            index[floor] += 1
            picture = str(slot.get("picture", ""))
            name = slot_name(slot) or picture
            item = TileItem(picture, name, lay.tile, lay.text_px, lay.name_below(floor),
                            key=(round_key, picture),
                            name_room=lay.name_room(counts[floor], floor),
                            name_side=lay.side.get(floor, False),
                            marks_h=lay.marks_below(floor),
                            beside_room=self._beside_room(lay, counts[floor], floor,
                                                          index[floor] == counts[floor]))
            item.slot, item.floor = number, floor
            item.stones = stone_marks(slot, self._mark)
            item.mine = mine == number
            item.moved = moved.get(number)
            if pending == number and isinstance(target, int):
                item.pending = self._mark(target)
            owner = slot.get("owner")
            if reveal and isinstance(owner, int):
                item.owner = self._mark(owner)
                stones = [s for s in slot.get("stones") or [] if s == owner]
                item.gain = max(0, floor - len(stones))
            elif reveal:
                item.supply = True
            item.setPos(rect.topLeft())
            item.setToolTip(self._tile_tip(slot, floor))
            if self._showing_previous:
                item.setOpacity(0.9)
            if clickable:
                item.make_clickable(self._tile_clicked)
                item.lit = self._can_guess() or floor in range(1, 6)
                item.quiet = self._can_compare() and not item.lit
                item.key = str(number + 1) if 0 <= number < 9 else ""  # keys 1-7 (F1)
            self.scene.addItem(item)
            self.tiles[number] = item
            self._rects[(round_key, picture)] = QRectF(rect)
        self._spread_names(lay)
        if self._showing_previous and row:
            long = _("Last round: owners and points earned")
            # translators: over the finished round's row where the long caption has no room
            short = _("Last round")
            if self._caption_over(lay, long) or self._caption_over(lay, short):
                return
            if not lay.caption.isEmpty():
                self._caption_over(lay, long, strip=True)
            elif self._caption_room < 0:  # no line to spare either: the short one, cut
                self._caption_over(lay, short, force=True)
            else:
                self._caption_cut = True

    def _spread_names(self, lay: Layout) -> None:
        """On a floor whose names stand under the pictures, a name too wide for its
        share borrows what its neighbours' shorter names leave (``name_columns``)."""
        floors: dict[int, list[TileItem]] = {}
        for item in self.tiles.values():
            if item.floor is not None and not lay.side.get(item.floor):
                floors.setdefault(item.floor, []).append(item)
        for floor, items in floors.items():
            items.sort(key=lambda item: item.x())
            spread(items, lay.tiles_left(floor),
                   lay.shelves[floor].right() - lay.margin * 0.3, lay.text_px * 0.5)

    def _caption_over(self, lay: Layout, text: str, strip: bool = False,
                      force: bool = False) -> bool:
        """A line about the row on show, right on the highest floor (or two floors) with
        room for it beside their tiles, in two lines if it must (three over two floors);
        False where none has room. ``strip``: in the line the layout keeps over the
        floors where none had (``Layout.caption``), if it keeps one; ``force``: on the
        last place tried, cut if it must."""
        if strip:
            if lay.caption.isEmpty():
                return False
            box = lay.caption
            fitted = textfit.fit(text, box.width(), lay.text_px * 0.95, 1, bold=True,
                                 height=box.height())
            for item in textfit.add_lines(self.scene, fitted, QRectF(
                    box.left(), box.center().y() - fitted.height() / 2, box.width(),
                    fitted.height()), look.MUTED_ON_FELT):
                item.setX(box.right() - item.boundingRect().width())
                item.setZValue(-1)
            return True
        tries = [(f, f) for f in range(FLOORS - 1, -1, -1)]
        tries += [(f, f - 1) for f in range(FLOORS - 1, 0, -1)]
        for top_floor, low_floor in tries:
            floors = range(low_floor, top_floor + 1)
            taken = [t.ink_right() for t in self.tiles.values() if t.floor in floors]
            left = max(taken, default=lay.tiles_left()) + lay.text_px
            upper, lower = lay.shelves[top_floor], lay.shelves[low_floor]
            box = QRectF(left, upper.top(), upper.right() - left - lay.text_px * 0.5,
                         lower.bottom() - upper.top() - lay.margin * 0.35 - lay.text_px * 0.3)
            if box.width() <= lay.text_px * 4:
                continue
            lines = 2 if top_floor == low_floor else 3  # two floors hold a third line
            fitted = textfit.fit(text, box.width(), lay.text_px * 0.95, lines, bold=True,
                                 height=box.height())
            if not fitted.fits and not (force and (top_floor, low_floor) == tries[-1]):
                continue
            top = box.top() + (box.height() - fitted.height()) / 2
            for item in textfit.add_lines(self.scene, fitted, QRectF(
                    box.left(), top, box.width(), fitted.height()), look.MUTED_ON_FELT):
                item.setX(box.right() - item.boundingRect().width())
                item.setZValue(-1)
            return True
        return False

    def _tile_tip(self, slot: dict[str, Any], floor: int) -> str:
        lines = [_("{name}, floor {n}").format(name=slot_name(slot), n=floor)]
        by = list(slot.get("by") or [])
        stones = [(_("{guesser} bets it is {owner}'s").format(
                       guesser=self._name(by[i]), owner=self._name(s))
                   if i < len(by) and isinstance(by[i], int) else self._name(s))
                  for i, s in enumerate(slot.get("stones") or [])]
        if stones:
            lines.append(_("Guess stones: {names}").format(names="; ".join(stones)))
        owner = slot.get("owner")
        if isinstance(owner, int):
            lines.append(_("Placed by {name}").format(name=self._name(owner)))
        return "\n".join(lines)


__all__ = ["SMALL_TILE", "TowerTable"]
