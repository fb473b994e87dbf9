"""Competitive S-tier: the leader spreads the pictures, each player places their own.

The round's pictures lie face up below the tiers with who holds each; mine is
lit and a click on a tier (or a drag) places it. Placements stay hidden
until everyone answered; then the note lies on the board with each holder's
disc and a tick or a cross. The reveal (``last``) carries the round's
pictures with names, the deal and every placement, so a fresh snapshot (a
spectator joining, a player reconnecting) draws it whole; the memory of
earlier views is only a fallback for a reveal without pictures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.look import pictures
from ui.tables.s_tier.board_model import BoardModel, Tile
from ui.tables.s_tier.common import (
    ASKED,
    TIERS,
    Button,
    Context,
    PlayerRow,
    Scene,
    Send,
    draft_board,
    draft_buttons,
    laptop_wait,
    result_words,
    tile,
)
from ui.tables.s_tier.note import SPREAD, NoteDraft
from ui.words.i18n import _, ngettext


class CompetitivePanel:
    def __init__(self, send: Send, refresh: Callable[[], None]) -> None:
        self.send, self.refresh = send, refresh
        self.draft: NoteDraft | None = None
        self.names: dict[str, str] = {}
        self.memory: dict[int, tuple[list[str], list[Any], Any]] = {}
        """round -> (picture ids, dealt per seat, leader), as last seen."""

    def on_move(self, ctx: Context, picture: str, target: tuple[int, int] | None) -> None:
        tier = None if target is None else target[1]
        if self._writing(ctx) and self.draft is not None:
            self.draft.move(picture, tier)
            self.refresh()
        elif ctx.phase == "place" and ctx.acting() and tier is not None:
            self.send({"type": "place", "tier": tier})

    def on_flip(self, ctx: Context, picture: str) -> None:
        """No card has two faces here."""

    def _writing(self, ctx: Context) -> bool:
        return ctx.phase == "note" and ctx.acting() and ctx.view.get("leader") == ctx.you

    def scene(self, ctx: Context) -> Scene:
        view = ctx.view
        self.names.update(ctx.picture_names())
        ids = [str(p["id"]) for p in view.get("pictures") or []]
        dealt = list(view.get("dealt") or [])
        if ids and (any(d is not None for d in dealt) or ctx.round not in self.memory):
            self.memory[ctx.round] = (ids, dealt, view.get("leader"))
        if self._writing(ctx):
            s = self._note_scene(ctx, ids)
        elif ctx.phase == "place":
            s = self._place_scene(ctx, ids)
        elif ctx.phase in ASKED:
            leader = view.get("leader")
            s = laptop_wait(ctx, self._place_scene(ctx, ids),
                            [leader] if isinstance(leader, int) else [])
        else:
            s = self._waiting_scene(ctx, ids)
        led = len(view.get("led") or [])
        s.info = _("Round {n} of {total}").format(n=ctx.round, total=ctx.players)
        s.players = self._players(ctx)
        s.facts.insert(0, _("{n} of {total} have led. Right guessers keep their picture; the "
                            "leader scores when at least half are right.").format(
                                n=led, total=ctx.players))
        last = view.get("last") or {}
        if last.get("kind") == "reveal":
            right = [int(s) for s in last.get("correct") or []]
            gain = int(last.get("leader_gain", 0))
            s.facts.insert(0, (_("Last reveal: {n} right ({names}); the leader took {gain}.")
                               if right else
                               _("Last reveal: {n} right; the leader took {gain}.")).format(
                                   n=len(right), names=ctx.names_of(right), gain=gain))
        return s

    def _note_scene(self, ctx: Context, ids: list[str]) -> Scene:
        cards = [[(pid, self.names.get(pid, ""))] for pid in ids]
        key = ("competitive", ctx.round, tuple(ids))
        if self.draft is None or self.draft.key != key:
            self.draft = NoteDraft(key, SPREAD, cards)
        problem = self.draft.problem()
        return Scene(_("Your note: every tier used, at most 2 per tier"), ctx.you, "", True,
                     ctx.topic_text(), draft_board(self.draft),
                     message=problem or _("Ready: Submit sends your note; then the pictures "
                                          "are dealt."), message_warn=bool(problem),
                     buttons=draft_buttons(self.draft, self.send, self.refresh))

    def _holders(self, ctx: Context, ids: list[str], dealt: list[Any]) -> dict[str, int]:
        return {str(p): seat for seat, p in enumerate(dealt) if p is not None and p in ids}

    def _place_scene(self, ctx: Context, ids: list[str]) -> Scene:
        view = ctx.view
        you = ctx.you
        leader = view.get("leader")
        dealt = list(view.get("dealt") or [])
        holders = self._holders(ctx, ids, dealt)
        mine = dealt[you] if you is not None and you < len(dealt) else None
        answered = list(view.get("answered") or [])
        placing = ctx.acting() and mine is not None
        placed = view.get("placed")
        waiting = [s for s in ctx.actors]
        cells: dict[tuple[int, int], list[Tile]] = {}
        pool: list[Tile] = []
        note = view.get("note") if leader == you else None
        for i, pid in enumerate(ids):
            seat = holders.get(pid)
            if seat is None:
                # translators: under a picture nobody holds (competitive S-tier)
                caption = _("extra")
            else:
                caption = _("yours") if seat == you else _("{name}'s").format(
                    name=ctx.names[seat])
            discs = (ctx.disc(seat),) if seat is not None else ()
            t = tile(pid, self.names, movable=placing and pid == mine, discs=discs,
                     caption=caption)
            if isinstance(note, list) and i < len(note):
                cells.setdefault((0, int(note[i])), []).append(t)
            elif pid == mine and isinstance(placed, int):
                cells.setdefault((0, placed), []).append(t)
            else:
                pool.append(t)
        board = BoardModel(cells=cells, pool=pool, pool_title=_(
                           "The pictures, face up: each player guesses their own"),
                           targets=frozenset((0, t) for t in range(5)) if placing
                           else frozenset())
        buttons: list[Button] = []
        if placing:
            name = self.names.get(str(mine), str(mine))
            banner = _("Place your picture: where did {leader} write {picture}?").format(
                leader=ctx.name(leader), picture=name)
            message = _("Click a tier (or drag your lit picture there). You cannot change it.")
        else:
            banner = _("Waiting for {names} to place").format(names=ctx.names_of(waiting))
            if leader == you:
                message = _("You lead: your note is on the board; stay silent.")
            elif isinstance(placed, int):
                message = _("You placed yours in {tier}. Answers show when all are in.").format(
                    tier=TIERS[placed])
            else:
                message = ngettext("{n} of {total} player has placed.",
                                   "{n} of {total} players have placed.",
                                   ctx.players - 1).format(n=sum(1 for a in answered if a),
                                                           total=ctx.players - 1)
        return Scene(banner, None if placing else (waiting[0] if waiting else None), "",
                     placing, ctx.topic_text(), board, message, False, buttons)

    def _waiting_scene(self, ctx: Context, ids: list[str]) -> Scene:
        view = ctx.view
        leader = view.get("leader")
        board = self.reveal_board(ctx)
        if ids and not ctx.over:
            board.pool = [tile(pid, self.names) for pid in ids]
            board.pool_title = _("This round's pictures (dealt after the note)")
            board.show_pool = True
        if ctx.over:
            return Scene(result_words(ctx), None, "", ctx.you in ctx.outcome().marked,
                         ctx.topic_text(), board,
                         message=_("Everyone has led: the game is over."))
        name = ctx.name(leader if isinstance(leader, int) else None)
        return Scene(_("Waiting for {name} to write the note").format(name=name),
                     leader if isinstance(leader, int) else None, "", False,
                     _("The topic stays secret until {name} has written the note").format(
                         name=name), board,
                     message=_("{name} spreads the pictures over the tiers in secret.").format(
                         name=name[:1].upper() + name[1:]))

    def reveal_scene(self, ctx: Context) -> Scene | None:
        """The reveal as it happens: the leader's note laid out on the tier list, each
        holder's guess beside its picture, right and wrong marked."""
        last = ctx.view.get("last") or {}
        if last.get("kind") != "reveal":
            return None
        right = [int(s) for s in last.get("correct") or []]
        leader = last.get("leader")
        gain = int(last.get("leader_gain", 0))
        if leader == ctx.you:
            lies = _("Your note lies on the tiers; \u2713 right, \u2717 wrong. Click the "
                     "board to go on.")
        elif isinstance(leader, int):
            lies = _("{name}'s note lies on the tiers; \u2713 right, \u2717 wrong. Click the "
                     "board to go on.").format(name=ctx.name(leader))
        else:
            lies = _("The leader's note lies on the tiers; \u2713 right, \u2717 wrong. Click "
                     "the board to go on.")
        got = (_("{n} right: {names}").format(n=len(right), names=ctx.names_of(right))
               if right else _("nobody right"))
        banner = _("The reveal: {result}").format(result=got)
        if gain and isinstance(leader, int):
            banner = _("The reveal: {result}; {name} takes {gain}").format(
                result=got, name=ctx.name(leader), gain=gain)
        return Scene(banner, leader if isinstance(leader, int) else None,
                     "", False, ctx.topic_text(), self.reveal_board(ctx), message=lies)

    def reveal_board(self, ctx: Context) -> BoardModel:
        last = ctx.view.get("last") or {}
        if last.get("kind") != "reveal":
            return BoardModel(show_pool=False)
        note = list(last.get("note") or [])
        placements = list(last.get("placements") or [])
        right = {int(s) for s in last.get("correct") or []}
        shown = [p for p in last.get("pictures") or [] if isinstance(p, dict)]
        ids: list[str] = [str(p["id"]) for p in shown]
        self.names.update({str(p["id"]): pictures.shown_name(str(p["id"]),
                                                              str(p.get("name", "")))
                           for p in shown})
        dealt: list[Any] = list(last.get("dealt") or [])
        if not ids:
            # An older host's reveal names no pictures: fall back on what this
            # table saw of the round before this one (this one, once over).
            seen = self.memory.get(ctx.round if ctx.over else ctx.round - 1)
            if seen is not None:
                ids, dealt = seen[0], seen[1] or dealt
        cells: dict[tuple[int, int], list[Tile]] = {}
        if len(ids) == len(note):
            holders = self._holders(ctx, ids, dealt)
            for pid, tier in zip(ids, note, strict=True):
                seat = holders.get(pid)
                if seat is None:
                    t = tile(pid, self.names, caption=_("extra"))
                else:
                    got = placements[seat] if seat < len(placements) else None
                    said = (_("{name} said {tier}").format(name=ctx.names[seat],
                                                            tier=TIERS[int(got)])
                            if isinstance(got, int) else
                            _("{name}: no answer").format(name=ctx.names[seat]))
                    t = tile(pid, self.names, discs=(ctx.disc(seat),),
                             mark="right" if seat in right else "wrong", caption=said)
                cells.setdefault((0, int(tier)), []).append(t)
        leader = last.get("leader")
        caption = (_("Last round: {name}'s note; beside each picture, its holder's guess")
                   .format(name=ctx.names[leader]) if isinstance(leader, int)
                   and 0 <= leader < len(ctx.names) else
                   _("Last round: the leader's note; beside each picture, its holder's guess"))
        return BoardModel(cells=cells, show_pool=False, caption=caption)

    def _players(self, ctx: Context) -> list[PlayerRow]:
        view = ctx.view
        leader = view.get("leader")
        won = list(view.get("won") or [0] * ctx.players)
        answered = list(view.get("answered") or [])
        led = {int(s) for s in view.get("led") or []}
        rows = []
        for seat in range(ctx.players):
            pics = won[seat] if seat < len(won) else 0
            # translators: pictures won, in a narrow column of the players' list
            score = ngettext("{n} pic", "{n} pics", pics).format(n=pics)
            tag = _("leader") if seat == leader else (_("has led") if seat in led else "")
            done = ctx.phase == "place" and seat != leader and seat < len(answered) \
                and bool(answered[seat])
            rows.append(PlayerRow(seat, tag, score, seat in ctx.actors and not ctx.over, done))
        return rows


__all__ = ["CompetitivePanel"]
