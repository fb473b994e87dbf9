"""Who won a finished game, decided once from its result, in words that travel as keys.

A game's ``result`` says the facts (``winners``, ``scores``, ``detail``); this
module is the one place that reads them as a verdict: one player won, some share
the win, everyone tied (a draw, never "You win!"), a team won, or a cooperative
group won or lost together, and why. The window's end screen, its replay lists,
the headless commands and the browser page (which gets ``to_wire`` in the host's
``game_over``) all say what this decides, so no two screens disagree on it.

The words are messages (``lanplay.messages``): each laptop renders them in its own
language with the names it shows, and a headline depends on who reads it (a
winner, another player, a watcher) but never on anything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lanplay.messages import N_, Arg, Msg, is_message, items, msg, msg_n, seat, seats

KINDS = ("won", "shared", "draw", "team_won", "group_won", "group_lost", "none")
"""``won``: one seat; ``shared``: some seats tie for the win; ``draw``: every seat (or
every team) ties; ``team_won``: the seats of one team; ``group_won`` / ``group_lost``:
a cooperative game, won or lost together; ``none``: a result that names no winner."""

ROLES = ("winner", "player", "watcher")
"""Who reads a headline: one of the winners, another seated player, a spectator."""

NAMES_SHOWN = 4
"""Names a headline lists before "and 5 more": eight took two lines and pushed 16
seats' score rows below their height at 1024x640 (the rows name everyone)."""

TEAM_NAMES = (N_("Green team"), N_("Red team"))
"""The teams as the room names them when a game plays in teams (the first green)."""


def team_word(team: int) -> Msg:
    """A team's name: "Green team", "Red team", else "Team 3"."""
    if 0 <= team < len(TEAM_NAMES):
        return msg(TEAM_NAMES[team])
    return msg("Team {n}", n=team + 1)


def seat_list(listed: Sequence[int], most: int | None = NAMES_SHOWN) -> Arg:
    """Seats as "A, B and C"; past ``most`` as "A, B, C and 5 more"."""
    if most is None or len(listed) <= most:
        return seats(listed)
    more = len(listed) - most + 1
    return items([*(seat(s) for s in listed[:most - 1]),
                  msg_n("{n} more", "{n} more", more)], "and")


@dataclass(frozen=True)
class Verdict:
    """What a result means. ``winners`` are the result's; ``team`` the winning team's
    index (``team_won``); ``best`` the top score; ``reason`` the game's own word on
    why it ended so (a message's wire map, from ``detail["why"]``)."""

    kind: str
    winners: tuple[int, ...] = ()
    team: int | None = None
    teams: tuple[tuple[int, ...], ...] = ()
    best: float | None = None
    reason: Mapping[str, Any] | None = None

    @property
    def marked(self) -> tuple[int, ...]:
        """The seats an end screen marks as winners: nobody in a draw or a group's
        result, where no one stands out."""
        return self.winners if self.kind in ("won", "shared", "team_won") else ()

    @property
    def together(self) -> bool:
        """A cooperative result: one outcome for all, no score a seat earned."""
        return self.kind in ("group_won", "group_lost")

    def role(self, you: int | None) -> str:
        """Whose headline ``you`` reads: a ``winner``'s, another ``player``'s, or a
        ``watcher``'s (None: a spectator, or a laptop without a seat)."""
        if you is None:
            return "watcher"
        return "winner" if you in self.winners else "player"

    def line(self, you: int | None) -> Msg:
        """The headline as ``you`` reads it."""
        return self.headline(self.role(you))

    def headline(self, role: str) -> Msg:
        """The headline for a role (``ROLES``): a draw reads the same for all, never
        "You win!"; a team's win tells each player whether it was their team."""
        if self.kind == "won":
            return msg("You win!") if role == "winner" else \
                msg("{name} wins!", name=seat(self.winners[0]))
        if self.kind == "shared":
            return msg("You share the win!") if role == "winner" else \
                msg("{names} share the win!", names=seat_list(self.winners))
        if self.kind == "draw":
            return self._draw()
        if self.kind == "team_won":
            team, members = team_word(self.team or 0), seat_list(self.winners)
            if role == "winner":
                return msg("Your team wins: {team} ({members})!", team=team, members=members)
            if role == "player":
                return msg("{team} ({members}) wins. Your team lost.", team=team,
                           members=members)
            return msg("{team} ({members}) wins!", team=team, members=members)
        if self.kind == "group_won":
            return msg("Victory for the table!") if role == "watcher" else \
                msg("Victory: you all win together!")
        if self.kind == "group_lost":
            return msg("The table lost together.") if role == "watcher" else \
                msg("Defeat: you all lose together.")
        return msg("Nobody wins.")

    def said(self) -> Msg:
        """What happened, in the past and the same for everyone (a replay's line, a
        list of finished games, the headless host's last line)."""
        if self.kind == "won":
            return msg("{name} won", name=seat(self.winners[0]))
        if self.kind == "shared":
            return msg("{names} shared the win", names=seats(self.winners))
        if self.kind == "draw":
            return msg("A draw")
        if self.kind == "team_won":
            return msg("{team} ({members}) won", team=team_word(self.team or 0),
                       members=seats(self.winners))
        if self.kind == "group_won":
            return msg("Victory: everyone won together")
        if self.kind == "group_lost":
            return msg("Defeat: everyone lost together")
        return msg("Nobody won")

    def _draw(self) -> Msg:
        best = self.best
        if best is None or not float(best).is_integer():
            return msg("A draw: nobody is ahead.")
        n = int(best)
        if self.teams:
            return msg_n("A draw: each team has {n} point.", "A draw: each team has {n} points.",
                         n)
        return msg_n("A draw: everyone has {n} point.", "A draw: everyone has {n} points.", n)

    def to_wire(self) -> dict[str, Any]:
        """What a client without this module (the browser page) needs to say the same:
        the kind, whom to mark as winners, whether scores mean anything (``together``:
        not), each role's headline and the reason; the client picks the headline by
        ``role`` (a winner, another player, a watcher)."""
        out: dict[str, Any] = {"kind": self.kind, "winners": list(self.winners),
                               "marked": list(self.marked), "together": self.together,
                               "lines": {r: self.headline(r).to_wire() for r in ROLES}}
        if self.reason is not None:
            out["reason"] = dict(self.reason)
        return out


def verdict_of(result: Mapping[str, Any] | None) -> Verdict:
    """The verdict of a result's wire map (``Result.to_wire``, a peer's ``game_over``,
    a kept audit); whatever it holds, it returns a verdict and never raises."""
    if not isinstance(result, Mapping):
        return Verdict("none")
    winners = tuple(dict.fromkeys(w for w in result.get("winners") or () if _is_seat(w)))
    raw = result.get("scores")
    scores = [float(s) for s in raw if _is_number(s)] if isinstance(raw, list) else []
    detail = result.get("detail")
    detail = detail if isinstance(detail, Mapping) else {}
    why = detail.get("why")
    reason = why if is_message(why) else None
    best = max(scores) if scores else None
    outcome = detail.get("outcome")
    if outcome in ("victory", "defeat"):
        kind = "group_won" if outcome == "victory" else "group_lost"
        return Verdict(kind, winners, best=best, reason=reason)
    teams = _teams(detail.get("teams"))
    if not winners:
        return Verdict("none", reason=reason)
    team = next((i for i, t in enumerate(teams) if sorted(t) == sorted(winners)), None)
    if team is not None and len(teams) > 1:
        return Verdict("team_won", winners, team, teams, best, reason)
    seated = len(scores) if scores else sum(len(t) for t in teams)
    if seated > 1 and set(winners) == set(range(seated)):
        tied = [s for s in scores if s != best]
        return Verdict("draw", winners, teams=teams, best=None if tied else best,
                       reason=reason)
    return Verdict("won" if len(winners) == 1 else "shared", winners, teams=teams, best=best,
                   reason=reason)


def summary(result: Mapping[str, Any] | None, scores: bool = True) -> Msg | None:
    """The result in one line: who won, then (``scores``) every seat's score, "Mia won
    (Mia 38, Jonas 0)"; a group's result has no score a seat earned. None for no
    result."""
    if not isinstance(result, Mapping):
        return None
    found = verdict_of(result)
    raw = result.get("scores")
    points = [s for s in raw if _is_number(s)] if isinstance(raw, list) else []
    if not scores or not points or found.together:
        return found.said()
    listed = items([msg("{name} {score}", name=seat(i), score=s) for i, s in enumerate(points)])
    return msg("{result} ({scores})", result=found.said(), scores=listed)


def _teams(value: Any) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        return ()
    return tuple(tuple(s for s in t if _is_seat(s)) for t in value if isinstance(t, list))


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value


__all__ = ["KINDS", "NAMES_SHOWN", "ROLES", "TEAM_NAMES", "Verdict", "seat_list", "summary",
           "team_word", "verdict_of"]
