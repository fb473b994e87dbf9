"""What a Ranagedon view says to one seat: my side, what I may do now, and the words.

A plain reading of the host's view, with no scene and no widget: which side
is mine, whether I deploy or jump now, which frogs I may aim, how each side
looks, and the lines the banner, the tooltips and the abilities legend show.
The table makes a fresh one whenever it asks (``RanagedonTable.read``), so a
reading never outlives the view or the intent still waiting for the host.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ui.tables import look
from ui.tables.felt import names_list
from ui.tables.ranagedon.items import LegendRow
from ui.words.i18n import N_, _, ngettext
from ui.words.result_words import tie

OUTCOME_WORDS = {
    "flipped": N_("Flipped over: back to its start"),
    "poisoned": N_("Poisonous frog below: back to its start"),
    "off_table": N_("Off the table: put back a finger inside"),
    "dive_touched": N_("Touched another frog: the turn ends"),
    "dive_clear": N_("Slid clear: it may jump now"),
}
"""The caption beside a frog whose jump did not simply land (English, marked)."""
ABILITY_WORDS = {"double": N_("double jump"), "dive": N_("diving (slides first)"),
                 "poison": N_("poisonous")}
FROG_WORDS = {"red": N_("red frogs"), "green": N_("green frogs")}
FROG_COLOURS = {"red": N_("red"), "green": N_("green")}
BORDER_WORDS = {"magenta": N_("magenta border"), "blue": N_("blue border"),
                "yellow": N_("yellow border")}
"""A frog's colour and its border's, as the rulebook names them."""


def outcome_words(outcome: str) -> str:
    return _(OUTCOME_WORDS[outcome]) if outcome in OUTCOME_WORDS else ""


def ability_words(ability: object) -> str:
    key = str(ability)
    return _(ABILITY_WORDS[key]) if key in ABILITY_WORDS else key


def frog_words(colour: str) -> str:
    return _(FROG_WORDS[colour]) if colour in FROG_WORDS else \
        _("{colour} frogs").format(colour=colour)


def border_words(border: str) -> str:
    return _(BORDER_WORDS[border]) if border in BORDER_WORDS else \
        _("{colour} border").format(colour=border)


def frog_xy(frog: dict[str, Any]) -> tuple[float, float]:
    """A frog's position in the host's millimetres."""
    return float(frog.get("x", 0.0)), float(frog.get("y", 0.0))


@dataclass(frozen=True)
class Reading:
    """The view (``{}`` before the first), the players' names, my seat, and
    whether an intent of mine still waits for the host's answer."""

    view: dict[str, Any]
    names: list[str]
    you: int | None
    pending: bool
    seats: tuple[dict[str, Any], ...] = ()
    """The lobby's seat maps: the badge a one-player side's frogs carry."""

    def name(self, seat: Any) -> str:
        names = self.names
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else \
            _("someone")

    def phase(self) -> str:
        return "over" if self.view.get("over") else str(self.view.get("phase", ""))

    # --- what I may do ----------------------------------------------------------------

    def my_side(self) -> int | None:
        view = self.view
        side = view.get("your_side")
        if isinstance(side, int) and self.you is not None:
            return side
        side_of = view.get("side_of") or []
        if self.you is not None and self.you < len(side_of):
            return int(side_of[self.you])
        return None

    def acting(self) -> bool:
        view = self.view
        return (self.you is not None and not view.get("over") and not self.pending
                and self.you in (view.get("actors") or []))

    def can_deploy(self) -> bool:
        view = self.view
        side = self.my_side()
        deployed = view.get("deployed") or []
        return (self.acting() and view.get("phase") == "deploy" and side is not None
                and not (side < len(deployed) and deployed[side]))

    def can_jump(self) -> bool:
        return self.acting() and self.phase() in ("jump", "again")

    def aimable(self) -> list[int]:
        """Ids of the frogs I may aim now: my side's free frogs (in ``again`` only that one)."""
        view = self.view
        if not self.can_jump():
            return []
        side = self.my_side()
        again = view.get("again") or {}
        out = []
        for frog in view.get("frogs") or []:
            if frog.get("side") != side or not frog.get("free"):
                continue
            if self.phase() == "again" and frog.get("id") != again.get("frog"):
                continue
            out.append(int(frog["id"]))
        return out

    def frog(self, frog_id: int) -> dict[str, Any] | None:
        for frog in self.view.get("frogs") or []:
            if frog.get("id") == frog_id:
                return dict(frog)
        return None

    def divers(self) -> list[int]:
        if self.phase() != "jump":
            return []
        return [f for f in self.aimable() if (self.frog(f) or {}).get("ability") == "dive"]

    def my_sector(self) -> list[float] | None:
        side = self.my_side()
        sectors = self.view.get("sectors") or []
        if side is not None and 0 <= side < len(sectors):
            return [float(a) for a in sectors[side]]
        return None

    def my_frog_ids(self) -> list[int]:
        side = self.my_side()
        return sorted(int(f["id"]) for f in self.view.get("frogs") or []
                      if f.get("side") == side)

    def my_clusters(self) -> list[Any]:
        """The host's suggested deployments for my side."""
        side = self.my_side()
        clusters = self.view.get("clusters") or []
        return clusters[side] if side is not None and side < len(clusters) else []

    # --- the sides --------------------------------------------------------------------

    def side_seats(self, side: int) -> list[int]:
        sides = self.view.get("sides") or []
        if 0 <= side < len(sides):
            return [int(s) for s in sides[side]]
        return [side]

    def side_letter(self, side: int) -> str:
        """The owner's badge text on a one-player side's frogs; a team's colour letter."""
        seats = self.side_seats(side)
        if len(seats) == 1:
            return look.seat_letter(list(self.seats), seats[0]) if self.seats \
                else look.initial(self.name(seats[0]))
        frogs = [f for f in self.view.get("frogs") or [] if f.get("side") == side]
        colour = str(frogs[0].get("colour", "?")) if frogs else "?"
        return colour[:1].upper()

    def side_badge(self, side: int) -> str | None:
        """The badge colour a one-player side's frogs carry (the log's and plates'
        mark of that seat), so the frogs keep their rulebook colour and still say
        whose they are; None for a team's frogs (their colour letter says it)."""
        seats = self.side_seats(side)
        if len(seats) == 1 and self.seats:
            return look.seat_colour(list(self.seats), seats[0]).name()
        return None

    def side_look(self, side: int) -> tuple[str, str, str]:
        """(frog colour, border, words) that the side's frogs share."""
        frogs = [f for f in self.view.get("frogs") or [] if f.get("side") == side]
        colours = {str(f.get("colour")) for f in frogs}
        borders = {str(f.get("border")) for f in frogs}
        if len(colours) == 1:
            colour = colours.pop()
            return colour, "none", frog_words(colour)
        if len(borders) == 1:
            border = borders.pop()
            return "none", border, border_words(border)
        return "none", "none", _("frogs")

    # --- the words --------------------------------------------------------------------

    def waiting(self) -> list[str]:
        return [self.name(s) for s in self.view.get("actors") or [] if s != self.you]

    def turn_text(self, dive_mode: bool) -> str:
        """The banner's line: whose move it is, or what I can do now."""
        view = self.view
        phase = self.phase()
        if phase == "over":
            return self.over_text()
        if phase == "deploy":
            waiting = self.waiting()
            wait = _("waiting for {names}").format(names=names_list(waiting)) if waiting \
                else _("waiting for the host")
            if self.can_deploy():
                return _("Deploy your frogs: pick a cluster or drag them, then Confirm")
            if self.you is not None:
                return _("Deployed: {waiting}").format(waiting=wait)
            return _("Everyone deploys their frogs: {waiting}").format(waiting=wait)
        turn = view.get("turn")
        if phase == "again":
            kind = (view.get("again") or {}).get("kind")
            if turn == self.you and self.can_jump():
                if kind == "dive":
                    return _("Your frog slid clear: jump it now, or Stop")
                return _("Double jump: jump the same frog again, or Stop")
            return _("Waiting for {name}: jump again or stop").format(name=self.name(turn))
        if phase == "jump":
            if turn == self.you and self.can_jump():
                if dive_mode:
                    return _("Dive: press anywhere on the lit frog and pull back to slide it")
                return _("Your turn: press a lit frog's coloured border and pull")
            return _("Waiting for {name} to jump a frog").format(name=self.name(turn))
        return _("Waiting for the game to start")

    def over_text(self) -> str:
        view = self.view
        winners = [int(s) for s in view.get("winners") or []]
        final = view.get("final") or view.get("scores") or []
        best = max(final) if final else 0
        drawn = tie(view, "final" if view.get("final") else "scores")
        if drawn is not None:  # everyone tied: nobody is told they won
            return ngettext("Game over: a draw, everyone has {n} point",
                            "Game over: a draw, everyone has {n} points", drawn).format(n=drawn)
        teams = view.get("teams")
        if teams:
            for team in teams:
                if sorted(team) == sorted(winners):
                    together = names_list([self.name(s) for s in team])
                    return ngettext("Game over: {names} win with {n} point",
                                    "Game over: {names} win with {n} points", best).format(
                                        names=together, n=best)
        names = [self.name(s) for s in winners]
        if len(names) == 1:
            return ngettext("Game over: {name} wins with {n} point",
                            "Game over: {name} wins with {n} points", best).format(
                                name=names[0], n=best)
        if names:
            return ngettext("Game over: {names} share the win with {n} point",
                            "Game over: {names} share the win with {n} points", best).format(
                                names=names_list(names), n=best)
        return _("Game over")

    def info_text(self) -> str:
        if self.phase() == "deploy":
            return _("Deploying")
        turns = int(self.view.get("turns", 0) or 0)
        return _("Turn {n}").format(n=turns + (0 if self.phase() == "over" else 1))

    def frog_tip(self, frog: dict[str, Any]) -> str:
        side = int(frog.get("side", 0))
        owner = names_list([self.name(s) for s in self.side_seats(side)])
        colour, border = str(frog.get("colour")), str(frog.get("border"))
        if side == self.my_side():
            head = _("Your frog: {colour}, {border}")
        else:
            head = _("{owner}'s frog: {colour}, {border}")
        shade = _(FROG_COLOURS[colour]) if colour in FROG_COLOURS else colour
        lines = [head.format(owner=owner, colour=shade, border=border_words(border))]
        ability = frog.get("ability")
        lines.append(_("Ability: {ability}").format(ability=ability_words(ability))
                     if ability else _("No ability in this game"))
        level = int(frog.get("level", 0) or 0)
        if level:
            lines.append(_("On a stack, level {n}").format(n=level))
        if frog.get("covered"):
            lines.append(_("Stepped on: it cannot jump"))
        elif frog.get("free"):
            lines.append(_("Free: it can jump"))
        pad = frog.get("pad")
        if pad == "inside":
            lines.append(_("Completely inside the lily pad: +2"))
        elif pad == "partly":
            lines.append(_("Partly on the lily pad: +1 while not stepped on"))
        return "\n".join(lines)

    def why_not(self, fid: int) -> str:
        """Why a frog I pressed cannot jump."""
        frog = self.frog(fid) or {}
        if frog.get("side") != self.my_side():
            return _("That frog is not yours: jump one of your lit frogs.")
        if self.phase() == "again":
            return _("Only the frog that just jumped may jump again.")
        if frog.get("covered"):
            return _("That frog is stepped on: it cannot jump.")
        return _("That frog is on a stack: only free frogs can jump.")

    def legend_rows(self) -> list[LegendRow]:
        """One row per look that carries an ability, read off the frogs themselves."""
        frogs = self.view.get("frogs") or []
        by_border: dict[str, set[Any]] = {}
        by_colour: dict[str, set[Any]] = {}
        for frog in frogs:
            by_border.setdefault(str(frog.get("border")), set()).add(frog.get("ability"))
            by_colour.setdefault(str(frog.get("colour")), set()).add(frog.get("ability"))
        rows = []
        if all(len(a) == 1 for a in by_border.values()) and any(
                None not in a for a in by_border.values()):
            for border in ("magenta", "blue", "yellow"):
                ability = next(iter(by_border.get(border, {None})))
                if ability:
                    rows.append(LegendRow("none", border, _("{look}: {ability}").format(
                        look=_capital(border_words(border)), ability=ability_words(ability))))
        elif all(len(a) == 1 for a in by_colour.values()) and any(
                None not in a for a in by_colour.values()):
            for colour in ("red", "green"):
                ability = next(iter(by_colour.get(colour, {None})))
                if ability:
                    rows.append(LegendRow(colour, "none", _("{look}: {ability}").format(
                        look=_capital(frog_words(colour)), ability=ability_words(ability))))
        if not rows:
            rows.append(LegendRow("none", "none", _("No abilities in this game")))
        return rows


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]
