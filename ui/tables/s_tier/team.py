"""Team S-tier: two leaders write, the teams take turns placing on their own side.

The board has a Green and a Red side. The team to move takes any untaken
picture from below and drops it on its own side; after a team placed its own
leader's picture, that leader says Wrong (only when it is wrong, as the host
checks) or stays silent; after Wrong the team moves it to another tier. After
the reveal each side keeps its pictures with a tick or a cross until the next
notes are written, drawn from the reveal in ``last`` alone (both notes, every
placement and which were right), so a fresh snapshot shows it whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.look import pictures
from ui.tables.s_tier.board_model import BoardModel, Tile
from ui.tables.s_tier.common import (
    ASKED,
    TEAM_NAMES,
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
    team_word,
    tile,
)
from ui.tables.s_tier.note import ONE_PER_TIER, NoteDraft
from ui.words.i18n import N_, _


class TeamPanel:
    def __init__(self, send: Send, refresh: Callable[[], None]) -> None:
        self.send, self.refresh = send, refresh
        self.draft: NoteDraft | None = None
        self.names: dict[str, str] = {}
        self.memory: dict[int, list[dict[str, Any]]] = {}
        """round -> the pictures (with taken and tier) as last seen."""

    # --- gestures ------------------------------------------------------------

    def on_move(self, ctx: Context, picture: str, target: tuple[int, int] | None) -> None:
        tier = None if target is None else target[1]
        if self._writing(ctx) and self.draft is not None:
            self.draft.move(picture, tier)
            self.refresh()
        elif not ctx.acting() or tier is None:
            return
        elif ctx.phase == "take":
            self.send({"type": "take", "picture": picture, "tier": tier})
        elif ctx.phase == "fix":
            self.send({"type": "move", "picture": picture, "tier": tier})

    def on_flip(self, ctx: Context, picture: str) -> None:
        """Team pictures have one face."""

    # --- helpers ---------------------------------------------------------------

    def _team_of(self, ctx: Context, seat: int | None) -> int | None:
        if seat is None:
            return None
        for t, members in enumerate(ctx.view.get("teams") or []):
            if seat in members:
                return t
        return seat % 2

    def _leaders(self, ctx: Context) -> list[int]:
        return [int(s) for s in ctx.view.get("leaders") or []]

    def _writing(self, ctx: Context) -> bool:
        return (ctx.phase == "notes" and ctx.acting() and ctx.you in self._leaders(ctx))

    # --- the scene -------------------------------------------------------------------

    def scene(self, ctx: Context) -> Scene:
        view = ctx.view
        self.names.update(ctx.picture_names())
        pics = list(view.get("pictures") or [])
        if ctx.phase in ("take", "wrong", "fix", *ASKED) or (
                pics and all("taken" in p for p in pics) and len(pics) == 10):
            self.memory[ctx.round] = pics
        if self._writing(ctx):
            s = self._note_scene(ctx)
        elif ctx.phase in ("take", "wrong", "fix"):
            s = self._play_scene(ctx)
        elif ctx.phase in ASKED:
            s = laptop_wait(ctx, self._play_scene(ctx), self._leaders(ctx))
        else:
            s = self._waiting_scene(ctx)
        track = view.get("track") or {}
        s.track = TrackModel(int(track.get("star", 5)), int(track.get("green", 0)),
                             int(track.get("red", 0)), meet=False)
        s.info = _("Round {n}").format(n=ctx.round)
        s.players, s.players_title = self._players(ctx), N_("Teams")
        total = list(view.get("total") or [0, 0])
        facts = [_("Pictures over all rounds: Green {green}, Red {red}.").format(
            green=total[0], red=total[1])]
        rnd = view.get("round_pictures")
        last = view.get("last") or {}
        if rnd and last.get("kind") == "reveal":
            facts.insert(0, _("Last round: Green {green}, Red {red} right.").format(
                green=rnd[0], red=rnd[1]))
        used = list(view.get("wrong_used") or [False, False])
        if ctx.phase in ("take", "wrong", "fix"):
            facts.append(_("\u201cWrong\u201d used: {teams}.").format(teams=", ".join(
                f"{team_word(t)} {_('yes') if used[t] else _('no')}" for t in (0, 1))))
        note = view.get("note")
        if isinstance(note, list) and ctx.phase != "notes" and ctx.you in self._leaders(ctx):
            facts.append(_("Your note: {tiers}").format(tiers=", ".join(
                f"{TIERS[t]} {self.names.get(str(p), str(p))}" for t, p in enumerate(note))))
        s.facts = facts + s.facts
        return s

    def _note_scene(self, ctx: Context) -> Scene:
        cards = [[(str(p["id"]), str(p.get("name", "")))] for p in ctx.view.get("pictures") or []]
        key = ("team", ctx.round, tuple(tuple(c) for c in cards))
        if self.draft is None or self.draft.key != key:
            self.draft = NoteDraft(key, ONE_PER_TIER, cards)
        problem = self.draft.problem()
        other = [s for s in self._leaders(ctx) if s != ctx.you]
        return Scene(_("Your note: one picture per tier"), ctx.you, "", True, ctx.topic_text(),
                     draft_board(self.draft),
                     message=problem or _("Ready: Submit sends your note. The first note in "
                                          "lets its team move first."),
                     message_warn=bool(problem),
                     buttons=draft_buttons(self.draft, self.send, self.refresh),
                     facts=[_("{name} writes at the same time.").format(
                         name=ctx.name(other[0])[:1].upper() + ctx.name(other[0])[1:])]
                     if other else [])

    def _play_scene(self, ctx: Context) -> Scene:
        view = ctx.view
        you = ctx.you
        mine = self._team_of(ctx, you)
        turn = view.get("turn")
        leaders = self._leaders(ctx)
        pending = view.get("pending") or {}
        pending_pic = pending.get("picture")
        acting = ctx.acting()
        cells: dict[tuple[int, int], list[Tile]] = {}
        pool: list[Tile] = []
        for p in view.get("pictures") or []:
            pid = str(p["id"])
            owner = int(p.get("team", 0))
            leader = leaders[owner] if owner < len(leaders) else None
            whose = _("{name}'s").format(name=team_word(owner) if leader is None
                                         else ctx.names[leader])
            taken = p.get("taken")
            if taken is None:
                pool.append(tile(pid, self.names, movable=acting and ctx.phase == "take",
                                 caption=whose,
                                 discs=(ctx.disc(leader),) if leader is not None else ()))
            else:
                fixing = acting and ctx.phase == "fix" and pid == pending_pic
                cells.setdefault((int(taken), int(p.get("tier") or 0)), []).append(
                    tile(pid, self.names, movable=fixing,
                         discs=(ctx.disc(leader),) if leader is not None else (),
                         mark="pending" if pid == pending_pic else ""))
        targets: frozenset[tuple[int, int]] = frozenset()
        if acting and mine is not None and ctx.phase in ("take", "fix"):
            now = next((int(p.get("tier") or 0) for p in view.get("pictures") or []
                        if p["id"] == pending_pic), None)
            targets = frozenset((mine, t) for t in range(5)
                                if ctx.phase == "take" or t != now)
        board = BoardModel(lanes=TEAM_NAMES, cells=cells, pool=pool,
                           pool_title=_("Untaken pictures (any team may take any)") if pool
                           else _("Every picture is taken"), targets=targets,
                           highlight=pending_pic if ctx.phase != "take" else None,
                           pool_slots=tuple(  # a taken picture leaves a gap: nothing
                               # the pointer is on moves (the row re-centred after a take)
                               tile(str(p["id"]), self.names, caption=" ")
                               for p in view.get("pictures") or []) if pool else ())
        pname = self.names.get(str(pending_pic), str(pending_pic))
        team_words = team_word(int(turn)) if isinstance(turn, int) else "?"
        buttons: list[Button] = []
        message, warn = "", False
        waiting = ctx.names_of(ctx.actors, limit=3)
        if ctx.phase == "take":
            if acting:
                banner = (_("Your team's turn: take a picture and place it on the Green side")
                          if (mine or 0) == 0 else
                          _("Your team's turn: take a picture and place it on the Red side"))
                message = _("Drag a picture onto your side (or click it, then a tier).")
            else:
                banner = _("Waiting for {team} ({names}) to take a picture").format(
                    team=team_words, names=waiting)
                message = _("Teams take turns; any cell may hold any number of pictures.")
        elif ctx.phase == "wrong":
            team = int(pending.get("team", 0))
            tier_now = next((p.get("tier") for p in view.get("pictures") or []
                             if p["id"] == pending_pic), None)
            where = TIERS[int(tier_now)] if isinstance(tier_now, int) else "?"
            if acting:
                note = view.get("note") or []
                right = tier_now is not None and tier_now < len(note) and \
                    note[int(tier_now)] == pending_pic
                banner = _("Your team put {picture} in {tier}: say Wrong, or stay silent").format(
                    picture=pname, tier=where)
                buttons = [
                    Button(_("Wrong!"), not right, lambda: self.send({"type": "wrong"}),
                           "wrong", tip=_("It lies right: you cannot say Wrong") if right
                           else _("Once per round: your team moves it to another tier")),
                    Button(_("Stay silent"), True, lambda: self.send({"type": "silent"}),
                           "silent"),
                ]
                message = (_("It lies where your note has it.") if right else
                           _("It lies wrong. Wrong lets your team move it (once per round)."))
                warn = not right
            else:
                banner = _("Waiting for {names} ({team} leader): Wrong, or silent?").format(
                    names=waiting, team=team_word(team))
                message = _("{team} took its own leader's {picture} and put it in {tier}.")\
                    .format(team=team_word(team), picture=pname, tier=where)
        else:
            # who said "Wrong!" and what it means, not the word alone
            team = int(pending.get("team", 0))
            said = leaders[team] if team < len(leaders) else None
            who = ctx.names[said] if said is not None and said < len(ctx.names) \
                else team_word(team)
            if acting:
                banner = _("{leader} said \u201cWrong!\u201d: move {picture} to another "
                           "tier").format(leader=who, picture=pname)
                message = _("{leader}'s note has {picture} elsewhere. Drag it (or click it, "
                            "then a tier) on your side.").format(leader=who, picture=pname)
                warn = True
            else:
                banner = _("Waiting for {names} to move {picture} after \u201cWrong\u201d")\
                    .format(names=waiting, picture=pname)
                message = _("{leader} said \u201cWrong!\u201d: {picture} is not where their "
                            "note has it, so it moves to another tier.").format(
                                leader=who, picture=pname)
        seat = None if acting else (ctx.actors[0] if ctx.actors else None)
        return Scene(banner, seat, "", acting, ctx.topic_text(), board, message, warn, buttons)

    def _waiting_scene(self, ctx: Context) -> Scene:
        view = ctx.view
        leaders = self._leaders(ctx)
        board = self.reveal_board(ctx)
        if ctx.over:
            winners = [int(s) for s in view.get("winners") or []]
            outcome = ctx.outcome()  # a draw's winners are both teams: no team's win
            team = self._team_of(ctx, winners[0]) if outcome.marked else None
            if team is None:
                banner = _("Game over: a draw")
            elif self._team_of(ctx, ctx.you) == team:
                banner = _("Game over: your team wins ({names})").format(
                    names=ctx.names_of(winners))
            else:
                banner = _("Game over: {team} wins ({names})").format(
                    team=team_word(team), names=ctx.names_of(winners))
            return Scene(banner, None, "", ctx.you in outcome.marked, ctx.topic_text(), board,
                         message=_("A token reached the star."))
        written = list(view.get("written") or [False, False])
        writing = [s for t, s in enumerate(leaders) if t < len(written) and not written[t]]
        banner = _("Waiting for {names} to write").format(names=ctx.names_of(writing))
        if ctx.you in leaders:
            mine = view.get("note")
            if isinstance(mine, list):
                cells = {(0, t): [tile(str(p), self.names)] for t, p in enumerate(mine) if p}
                board = BoardModel(cells=cells, show_pool=False, caption=_("Your note (sent)"))
        topic = (ctx.topic_text() if ctx.you in leaders else
                 _("The topic stays secret until {names} have written").format(
                     names=ctx.names_of(leaders)))
        return Scene(banner, writing[0] if writing else None, "", False, topic, board,
                     message=_("The leaders rank their own 5 pictures for one shared topic."))

    def reveal_scene(self, ctx: Context) -> Scene | None:
        """The reveal as it happens: both sides as placed, each picture marked right
        (where its note had it) or wrong."""
        last = ctx.view.get("last") or {}
        if last.get("kind") != "reveal":
            return None
        correct = [len(c) for c in last.get("correct") or [[], []]]
        while len(correct) < 2:
            correct.append(0)
        return Scene(_("The reveal: Green {green}, Red {red} right").format(
                         green=correct[0], red=correct[1]), None, "",
                     False, ctx.topic_text(), self.reveal_board(ctx),
                     message=_("Each side as placed; \u2713 where its note had it, \u2717 "
                               "not. Click the board to go on."))

    def reveal_board(self, ctx: Context) -> BoardModel:
        last = ctx.view.get("last") or {}
        if last.get("kind") != "reveal":
            return BoardModel(lanes=TEAM_NAMES, show_pool=False)
        correct = [set(map(str, c)) for c in last.get("correct") or [[], []]]
        shown = [p for p in last.get("pictures") or [] if isinstance(p, dict)]
        if not shown:
            # An older host's reveal has no placements: fall back on the last
            # placements this table saw before the reveal.
            earlier = [r for r in self.memory if r < ctx.round or ctx.over]
            seen = self.memory[max(earlier)] if earlier else []
            shown = [{**p, "right": str(p["id"]) in correct[int(p.get("taken") or 0)]}
                     for p in seen if p.get("taken") is not None]
        self.names.update({str(p["id"]): pictures.shown_name(str(p["id"]), str(p["name"]))
                           for p in shown if p.get("name")})
        leaders = [int(s) for s in last.get("leaders") or []]
        truth = {str(p): t for note in last.get("notes") or [] for t, p in enumerate(note or [])}
        cells: dict[tuple[int, int], list[Tile]] = {}
        for p in shown:
            taken = p.get("taken")
            if taken is None:
                continue
            team = p.get("team")
            pid, owner = str(p["id"]), int(taken if team is None else team)
            leader = leaders[owner] if owner < len(leaders) else None
            right = bool(p.get("right"))
            cells.setdefault((int(taken), int(p.get("tier") or 0)), []).append(
                tile(pid, self.names, mark="right" if right else "wrong",
                     discs=(ctx.disc(leader),) if leader is not None else (),
                     caption="" if right or pid not in truth else
                     _("note: {tier}").format(tier=TIERS[truth[pid]])))
        return BoardModel(lanes=TEAM_NAMES, cells=cells, show_pool=False,
                          caption=_("Last round: each side as placed; \u2713 = where the note "
                                    "had it"))

    def _players(self, ctx: Context) -> list[PlayerRow]:
        view = ctx.view
        leaders = self._leaders(ctx)
        teams = view.get("teams") or [[s for s in range(ctx.players) if s % 2 == t]
                                      for t in (0, 1)]
        written = list(view.get("written") or [False, False])
        rows = []
        for t, members in enumerate(teams):
            for seat in members:
                lead = t < len(leaders) and leaders[t] == seat
                word = team_word(t)
                tag = _("{team} leader").format(team=word) if lead else word
                short = _("{team} leader").format(team=word[:1]) if lead else word[:1]
                status = ""
                if lead and ctx.phase == "notes":
                    status = _("written") if written[t] else _("writing")
                elif seat in ctx.actors:
                    status = _("to move")
                rows.append(PlayerRow(int(seat), tag, status,
                                      seat in ctx.actors and not ctx.over,
                                      lead and ctx.phase == "notes" and written[t], short))
        return rows


__all__ = ["TeamPanel"]
