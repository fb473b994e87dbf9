"""How cards move on the Ranking Top table: every card flies from where it was shown
before, a resolved chain is held where it lay before it goes on, a card that stays
snaps back after a drag. A mixin of the table (``RankingTopTable``): it reads the
table's items, rects and layout, and animates; it decides no rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QParallelAnimationGroup, QPointF, QRectF, QSequentialAnimationGroup, Qt

from ui.tables.motion import HOLD_MS, Tween
from ui.tables.pieces import RingItem
from ui.tables.ranking_top.items import CardItem
from ui.tables.ranking_top.layout import Layout
from ui.tables.ranking_top.reading import Reading
from ui.tables.ranking_top.stage import draw_stage

if TYPE_CHECKING:  # the type checker sees the table it is mixed into (a QObject, Motion)
    from ui.tables.felt import WaitingTable as _Table
else:
    _Table = object

FLY_MS = 300
PULSE_MS = 650
SNAP_MS = 220


class Flights(_Table):
    """The table's motion (mixed into ``RankingTopTable``)."""

    layout_: Layout | None
    hand_items: list[CardItem]
    chain_items: list[CardItem]
    discard_items: list[CardItem]
    ranking_items: dict[int, list[Any]]
    stage_items: list[Any]
    plates: dict[int, Any]
    _rects: dict[int, QRectF]

    def _snap_back(self, item: CardItem) -> None:
        home = self._rects.get(item.card_id if item.card_id is not None else -1)
        if home is None or item.scene() is not self.scene or item.pos() == home.topLeft():
            return
        self._snap_to(item, home.topLeft(), SNAP_MS)

    def _hold_chain(self, previous: dict[str, Any], lay: Layout,
                    group: QParallelAnimationGroup) -> None:
        """A resolved chain is read where it lay: the window as it closed (its cards,
        who topped whom) stays for the hold, then fades as the stage of now fades in."""
        earlier = set(self.scene.items())
        was = Reading(previous, self._names(), self.you, False)
        draw_stage(self.scene, was, self.seats, lay)
        for item in [i for i in self.scene.items() if i not in earlier]:
            if item.parentItem() is not None:
                continue
            item.setZValue(item.zValue() + 30)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self._ghosts.append(item)
            group.addAnimation(self._after_hold(item, 1.0, 0.0))
        for item in self.stage_items:
            if item.parentItem() is None and item not in self.chain_items:
                item.setOpacity(0.0)
                group.addAnimation(self._after_hold(item, 0.0, 1.0))

    def _after_hold(self, item: Any, start: float, end: float) -> QSequentialAnimationGroup:
        """``item``'s opacity from ``start`` to ``end`` once the hold is over (any item:
        the stage's captions are plain text items, not objects with properties)."""
        item.setOpacity(start)
        fade = Tween(item.setOpacity, self)
        fade.setStartValue(start)
        fade.setEndValue(end)
        fade.setDuration(FLY_MS)
        seq = QSequentialAnimationGroup(self)
        seq.addPause(HOLD_MS)
        seq.addAnimation(fade)
        return seq

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
        links = previous.get("chain") or []
        held: set[Any] = set()
        if fresh and last.get("kind") == "close" and len(links) > 1:
            held = {(link.get("card") or {}).get("id") for link in links}
            self._hold_ms = HOLD_MS
            self._hold_chain(previous, lay, group)
        elif fresh and last.get("kind") == "close" and links:
            self._hold_ms = HOLD_MS // 2  # a short gap before the next window opens
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
            flight = QParallelAnimationGroup(self)
            flight.addAnimation(self._fly(item, old.topLeft(), QPointF(item.pos()), FLY_MS))
            if item.w > 0 and abs(old.width() - item.w) > 1:
                flight.addAnimation(self._fly(item, old.width() / item.w, 1.0, FLY_MS,
                                              b"scale"))
            if card_id in held:  # a resolved chain is read where it lay, then it goes on
                item.setPos(old.topLeft())
                if item.w > 0:
                    item.setScale(old.width() / item.w)
                wait = QSequentialAnimationGroup(self)
                wait.addPause(HOLD_MS)
                wait.addAnimation(flight)
                group.addAnimation(wait)
            else:
                group.addAnimation(flight)
        if fresh and last.get("kind") in ("play", "top", "close", "win"):
            card = last.get("card") or {}
            target = next((i for i in moving if i.card_id == card.get("id")), None)
            if target is not None:
                ring = RingItem(QRectF(target.pos(), QPointF(target.pos().x() + target.w,
                                                             target.pos().y() + target.h)))
                self._pulse(group, ring, PULSE_MS, z=80)
        self._start_animation(group)


