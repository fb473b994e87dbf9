"""The tier board by keys: 1-9 choose a picture that may move, S to D put it in that
tier, 0 puts it back under the tiers.

What can be taken is read off the board's model, as a mouse would find it: the
movable tiles, and once one is chosen (or it is the only one) the cells that take
a drop. The keys are drawn on the tiles (the tiers' own letters are their keys).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PyQt6.QtCore import QRectF

from ui.tables.keys import Target
from ui.tables.s_tier.board import TIERS, TierBoard
from ui.words.i18n import _

Move = Callable[[str, tuple[int, int] | None], None]
BUTTON_KEYS = {"submit": "N", "lock": "L", "unlock": "L", "wrong": "W", "silent": "Q"}
"""The keys of the mode's buttons (shown on them): N for the note, L to lock in or
unlock, W for Wrong!, Q to stay quiet (the tiers' letters and F are taken)."""


def _side(lane: str) -> str:
    return {"Green": _("Green side"), "Red": _("Red side")}.get(lane) or \
        _("{team} side").format(team=lane)


def _where(board: TierBoard, picture: str) -> str:
    model = board.model
    for (lane, tier), tiles in model.cells.items():
        if any(t.id == picture for t in tiles):
            if len(model.lanes) > 1:
                return _("{side}, tier {tier}").format(side=_side(model.lanes[lane]),
                                                       tier=TIERS[tier])
            return _("tier {tier}").format(tier=TIERS[tier])
    return _("under the tiers")


def targets(board: TierBoard, may: bool, move: Move) -> list[Target]:
    """The board's targets now (none when I may not move: watching, or a reveal on show);
    the key caps on the board follow them."""
    geo, model = board.geo, board.model
    caps: dict[str, str] = {}
    out: list[Target] = []
    if not may or geo is None:
        if board.key_caps or board.pool_key:
            board.key_caps, board.pool_key = caps, ""
            board.update()
        return out
    movable = model.movable()
    for i, tile in enumerate(movable):
        rect = geo.tiles.get(tile.id)
        if rect is None:
            continue
        key = str(i + 1) if i < 9 else ""
        caps[tile.id] = key
        name = _("{picture}, {where}").format(picture=tile.name, where=_where(board, tile.id))
        if tile.caption:
            name = f"{name} ({tile.caption})"
        if board.selected == tile.id:
            name = _("{picture}, chosen: now its tier").format(picture=name)

        def choose(picture: str = tile.id) -> None:
            board.selected = None if board.selected == picture else picture
            board.update()

        out.append(Target(("tile", tile.id), name, choose, QRectF(rect), key,
                          _("Choose it, then a tier's letter")))
    active = board._active()
    pool_key = ""
    if active is not None:
        tiers = [tier for _lane, tier in model.targets]
        for cell in sorted(model.targets, key=lambda c: (c[1], c[0])):
            rect = geo.cells.get(cell)
            if rect is None:
                continue
            lane, tier = cell
            key = TIERS[tier] if tiers.count(tier) == 1 else ""
            name = _("Tier {tier}").format(tier=TIERS[tier]) if len(model.lanes) == 1 else \
                _("{side}, tier {tier}").format(side=_side(model.lanes[lane]), tier=TIERS[tier])
            there = [t.name for t in model.cells.get(cell, [])]
            if there:
                name = f"{name}: {', '.join(there)}"
            out.append(Target(("cell", cell), name,
                              partial(move, active, cell), QRectF(rect), key))
        in_pool = any(t.id == active for t in model.pool)
        if model.pool_target and model.show_pool and not in_pool:
            pool_key = "0"
            out.append(Target(("pool",), _("Back under the tiers"),
                              partial(move, active, None), QRectF(geo.pool), pool_key))
    if (caps, pool_key) != (board.key_caps, board.pool_key):
        board.key_caps, board.pool_key = caps, pool_key
        board.update()
    return out


__all__ = ["BUTTON_KEYS", "targets"]
