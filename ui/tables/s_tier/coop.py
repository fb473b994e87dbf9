"""Cooperative S-tier: the leader's note, the guessers' shared board, the track.

Guessers drag pictures between the pool and the tiers (a drop on an
occupied tier swaps, as the host does), then lock in; any move unlocks
everyone, so the panel shows who is locked. After attempt 1 the count is
shown to all; after the reveal the note lies on the board with a tick or a
cross per tier until the next leader has written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ui.tables.s_tier.board_model import BoardModel, Tile
from ui.tables.s_tier.common import (
    ASKED,
    EFFECT_NAMES,
    TIERS,
    Button,
    Context,
    PlayerRow,
    Scene,
    Send,
    TrackModel,
    draft_board,
    draft_buttons,
    laptop_wait,
    tile,
)
from ui.tables.s_tier.note import ONE_PER_TIER, NoteDraft
from ui.words.i18n import N_, _, ngettext

SHORT = {"choose-side": N_("Choose side"), "place-one": N_("Place one"),
         "no-second": N_("No 2nd try"), "take-four": N_("Take four")}
"""The effects' names on the track, short (English, marked)."""


def _moved(green: int, red: int) -> str:
    if green:
        return _("green up {n}").format(n=green)
    if red:
        return _("red down {n}").format(n=red)
    return ""


class CoopPanel:
    def __init__(self, send: Send, refresh: Callable[[], None]) -> None:
        self.send, self.refresh = send, refresh
        self.draft: NoteDraft | None = None
        self.names: dict[str, str] = {}

    # --- gestures ------------------------------------------------------------

    def on_move(self, ctx: Context, picture: str, target: tuple[int, int] | None) -> None:
        tier = None if target is None else target[1]
        if self._writing(ctx) and self.draft is not None:
            self.draft.move(picture, tier)
            self.refresh()
        elif ctx.phase == "guess" and ctx.acting():
            self.send({"type": "move", "picture": picture, "tier": tier})

    def on_flip(self, ctx: Context, picture: str) -> None:
        if self._writing(ctx) and self.draft is not None:
            self.draft.flip(picture)
            self.refresh()

    # --- the scene ---------------------------------------------------------------

    def _writing(self, ctx: Context) -> bool:
        return ctx.phase == "note" and ctx.acting() and ctx.view.get("leader") == ctx.you

    def _effects(self, ctx: Context) -> list[str]:
        return [str(e) for e in ctx.view.get("effects") or []]

    def scene(self, ctx: Context) -> Scene:
        self.names.update(ctx.picture_names())
        view = ctx.view
        leader = view.get("leader")
        track = view.get("track") or {}
        effects = self._effects(ctx)
        model = TrackModel(int(track.get("star", 4)), int(track.get("green", 0)),
                           int(track.get("red", 0)), meet=True,
                           effects=[(_(SHORT[e]), e in effects) for e in EFFECT_NAMES]
                           if view.get("text_side") else [])
        attempts = 1 if "no-second" in effects else 2
        info = _("Round {n}").format(n=ctx.round)
        if ctx.phase == "guess":
            info = _("Round {n} \u00b7 attempt {attempt}/{attempts}").format(
                n=ctx.round, attempt=view.get("attempt", 1), attempts=attempts)
        if self._writing(ctx):
            s = self._note_scene(ctx)
        elif ctx.phase == "guess":
            s = self._guess_scene(ctx, attempts)
        elif ctx.phase in ASKED:
            s = laptop_wait(ctx, self._guess_scene(ctx, attempts),
                            [leader] if isinstance(leader, int) else [])
        else:
            s = self._waiting_scene(ctx)
        s.info, s.track = info, model
        s.players = self._players(ctx)
        if effects:
            s.facts.append(_("Effects now: {effects}").format(effects=", ".join(
                _(EFFECT_NAMES[e]) if e in EFFECT_NAMES else e for e in effects)))
        last = view.get("last") or {}
        if last.get("kind") == "reveal":
            green, red = abs(int(last.get("green", 0))), abs(int(last.get("red", 0)))
            moved = _moved(green, red) or _("no token moved")
            s.facts.insert(0, _("Last reveal: {n} of 5 right ({moved}).").format(
                n=last.get("correct", 0), moved=moved))
        # the track explained where it is drawn: G, R and the star are not obvious
        s.facts.insert(0, _("3 or more right: G (green) steps towards \u2605; 2 or fewer: "
                            "R (red) does. G at \u2605: we all win; R at \u2605: we lose."))
        if leader is not None and ctx.you is None:
            s.facts.append(_("You are watching."))
        return s

    def _note_scene(self, ctx: Context) -> Scene:
        view = ctx.view
        effects = self._effects(ctx)
        cards_raw = view.get("cards") or []
        if cards_raw:
            cards = [[(str(c[0]), str(c[1])), (str(c[2]), str(c[3]))] for c in cards_raw]
        else:
            cards = [[(str(p["id"]), str(p.get("name", "")))] for p in view.get("pictures") or []]
        key = ("cooperative", ctx.round, tuple(tuple(c) for c in cards))
        if self.draft is None or self.draft.key != key:
            self.draft = NoteDraft(key, ONE_PER_TIER, cards, hint_needed="place-one" in effects)
        draft = self.draft
        board = draft_board(draft)
        banner = _("Your note: put each picture in its own tier") if len(cards) >= 5 else \
            _("Your note: put each picture in its own tier; one tier stays empty")
        notes = []
        if cards_raw:
            notes.append(_("Choose the side: \u21bb on a picture shows its card's other face."))
        if draft.hint_needed:
            notes.append(_("Place one picture: pick the tier (\u2605) whose picture you "
                           "reveal."))
        problem = draft.problem()
        return Scene(banner, ctx.you, "", True, ctx.topic_text(), board,
                     message=problem or _("Ready: Submit sends your note."),
                     message_warn=bool(problem),
                     buttons=draft_buttons(draft, self.send, self.refresh), facts=notes)

    def _guess_scene(self, ctx: Context, attempts: int) -> Scene:
        view = ctx.view
        you = ctx.you
        guessers = [int(s) for s in view.get("guessers") or []]
        locked = [int(s) for s in view.get("locked") or []]
        hint = view.get("hint") or {}
        hint_pic = hint.get("picture")
        board_ids: list[Any] = list(view.get("board") or [None] * 5)
        guessing = you in guessers and ctx.acting()
        note = view.get("note") if view.get("leader") == you else None
        cells: dict[tuple[int, int], list[Tile]] = {}
        for tier, pid in enumerate(board_ids):
            if pid is None:
                continue
            mark = ""
            if isinstance(note, list) and len(note) == 5:
                mark = "right" if note[tier] == pid else "wrong"
            cells[(0, tier)] = [tile(str(pid), self.names, fixed=pid == hint_pic,
                                     movable=guessing and pid != hint_pic, mark=mark)]
        on_board = {p for p in board_ids if p is not None}
        pool = [tile(str(p["id"]), self.names, movable=guessing)
                for p in view.get("pictures") or [] if p["id"] not in on_board]
        hint_tier = hint.get("tier") if hint else None
        targets = frozenset((0, t) for t in range(5) if t != hint_tier) if guessing \
            else frozenset()
        waiting = [s for s in guessers if s not in locked]
        board = BoardModel(cells=cells, pool=pool, targets=targets, pool_target=guessing,
                           pool_title=_("Not on the board yet") if pool else
                           _("Drop a picture here to take it off the board") if guessing
                           else "",
                           show_pool=True, hint_tier=hint_tier,
                           pool_slots=tuple(tile(str(p["id"]), self.names)
                                            for p in view.get("pictures") or []))
        count = view.get("count")
        facts = []
        if count is not None:
            facts.append(_("Attempt 1: {n} of 5 right. Which ones, the leader does not say.")
                         .format(n=count))
        if hint_pic:
            facts.append(_("The leader revealed: {picture} is in {tier} (\u2605, fixed).")
                         .format(picture=self.names.get(hint_pic, hint_pic),
                                 tier=TIERS[int(hint_tier or 0)]))
        if isinstance(note, list):
            facts.append(_("Your note: {tiers}").format(tiers=", ".join(
                f"{TIERS[t]} {self.names.get(p, p) if p else _('(empty)')}"
                for t, p in enumerate(note))))
        buttons: list[Button] = []
        message = ""
        warn = False
        if you in guessers:
            mine_locked = you in locked
            can = ctx.acting() and (mine_locked or not pool)
            buttons.append(Button(_("Unlock") if mine_locked else _("Lock in"), can,
                                  self._send_lock(not mine_locked),
                                  "unlock" if mine_locked else "lock",
                                  tip=_("The board is sent when every guesser is locked in")
                                  if can else _("Lay every picture on the board first")))
            if mine_locked:
                banner = _("You are locked in: waiting for {names}").format(
                    names=ctx.names_of(waiting))
            else:
                banner = _("Arrange the board together, then lock in")
            if pool:
                message = ngettext(
                    "{n} still below the tiers: drag it into a tier (or click it, then a "
                    "tier). A drop on a full tier swaps.",
                    "{n} still below the tiers: drag each into a tier (or click it, then a "
                    "tier). A drop on a full tier swaps.", len(pool)).format(n=len(pool))
                warn = True
            else:
                message = _("Any move unlocks everyone. The board is sent when all are "
                            "locked in.")
        else:
            who = ctx.names_of(waiting)
            banner = _("Waiting for {names} to lock in").format(names=who)
            message = (_("You lead: stay silent while they guess.")
                       if view.get("leader") == you else
                       _("The guessers arrange the board: {n} of {total} locked in.").format(
                           n=len(locked), total=len(guessers)))
        if count is not None:
            message = _("Attempt 1: {n} of 5 right.").format(n=count) + " " + message
        if len(view.get("pictures") or []) < 5:
            facts.append(_("Take four: one tier stays empty; leaving the right one empty "
                           "counts as one more right."))
        return Scene(banner, None if guessing else (waiting[0] if waiting else None), "",
                     guessing and you not in locked, ctx.topic_text(), board, message, warn,
                     buttons, facts=facts)

    def _send_lock(self, lock: bool) -> Callable[[], None]:
        return lambda: self.send({"type": "lock" if lock else "unlock"})

    def _waiting_scene(self, ctx: Context) -> Scene:
        """The leader writes (or the game is over): the last note lies on the board."""
        view = ctx.view
        leader = view.get("leader")
        board = self.reveal_board(view.get("last") or {})
        if ctx.over:
            won = bool(view.get("winners"))
            banner = (_("Lost: the red token reached the star") if not won
                      else _("You won: the green token reached the star!") if ctx.you is not None
                      else _("The table won: the green token reached the star!"))
            return Scene(banner, None, "", won and ctx.you is not None, ctx.topic_text(), board,
                         message=_("Game over. The last note lies on the board."))
        name = ctx.name(leader if isinstance(leader, int) else None)
        banner = _("Waiting for {name} to write the note").format(name=name)
        topic = _("The topic stays secret until {name} has written the note").format(name=name)
        return Scene(banner, leader if isinstance(leader, int) else None, "", False, topic,
                     board, message=_("{name} ranks 5 new pictures in secret.").format(
                         name=name[:1].upper() + name[1:]))

    def reveal_scene(self, ctx: Context) -> Scene | None:
        """The reveal as it happens: the leader's note on the tier list, each tier
        marked right (the board had that picture there) or wrong."""
        last = ctx.view.get("last") or {}
        if last.get("kind") != "reveal":
            return None
        green, red = abs(int(last.get("green", 0))), abs(int(last.get("red", 0)))
        moved = _moved(green, red) or _("no token moves")
        return Scene(_("The reveal: {n} of 5 right, {moved}").format(
                         n=last.get("correct", 0), moved=moved), None, "",
                     False, ctx.topic_text(), self.reveal_board(last),
                     message=_("Left the leader's note, right our board: \u2713 the same "
                               "tier, \u2717 not. Click the board to go on."))

    def reveal_board(self, last: dict[str, Any]) -> BoardModel:
        if last.get("kind") != "reveal":
            return BoardModel(show_pool=False)
        note = list(last.get("note") or [None] * 5)
        guess = list(last.get("board") or [None] * 5)
        cells: dict[tuple[int, int], list[Tile]] = {}
        for tier, pid in enumerate(note):  # both sides: the secret and what we did
            if pid is None:
                continue
            right = tier < len(guess) and guess[tier] == pid
            cells[(0, tier)] = [tile(str(pid), self.names, mark="right" if right else "wrong")]
            ours = guess[tier] if tier < len(guess) else None
            if ours is not None:
                cells[(1, tier)] = [replace(tile(str(ours), self.names,
                                                 mark="right" if right else "wrong"),
                                            id=f"{ours}\u00b7ours", picture=str(ours))]
        return BoardModel(lanes=(_("The note"), _("Our board")), cells=cells,
                          show_pool=False,
                          caption=_("The leader's note and our board: {n} of 5 right").format(
                              n=last.get("correct", 0)))

    def _players(self, ctx: Context) -> list[PlayerRow]:
        view = ctx.view
        leader = view.get("leader")
        locked = [int(s) for s in view.get("locked") or []]
        rows = []
        for seat in range(ctx.players):
            if seat == leader:
                status = _("writing") if ctx.phase == "note" else _("silent")
                rows.append(PlayerRow(seat, _("leader"), status, seat in ctx.actors and
                                      ctx.phase == "note"))
            elif ctx.phase == "guess":
                done = seat in locked
                rows.append(PlayerRow(seat, "", _("locked") if done else _("arranging"),
                                      not done, done))
            else:
                rows.append(PlayerRow(seat, "", _("guesser")))
        return rows


__all__ = ["CoopPanel"]
