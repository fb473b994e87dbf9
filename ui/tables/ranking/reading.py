"""What a Ranking view says to one seat: what I may do now, whom we wait for, and the
words of the banner.

A plain reading of the host's view, with no scene and no widget (as Ranagedon's
and Ranking Top's tables have theirs). The table makes a fresh one whenever it
asks (``RankingTable.read``), so a reading never outlives the view, the intent
still waiting for the host, or the first tile picked for a comparison.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ui.look import pictures
from ui.tables.felt import names_list
from ui.words.i18n import _, content, ngettext
from ui.words.result_words import tie


@dataclass
class Reading:
    view: dict[str, Any]
    names: list[str] = field(default_factory=list)
    you: int | None = None
    pending: bool = False
    """An intent of mine is on its way to the host."""
    first: int | None = None
    """The first tile picked for a comparison (a slot), if any."""

    def name(self, seat: Any) -> str:
        names = self.names
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else \
            _("someone")

    def phase(self) -> str:
        return "over" if self.view.get("over") else str(self.view.get("phase", ""))

    def acting(self) -> bool:
        """It is my move now (the view lists me among the actors)."""
        view = self.view
        return (self.you is not None and not view.get("over")
                and self.you in (view.get("actors") or []))

    def can_compare(self) -> bool:
        return self.acting() and self.phase() == "compare" and not self.pending

    def can_guess(self) -> bool:
        view = self.view
        return (self.acting() and self.phase() == "guess" and view.get("guess") is None
                and not self.pending)

    def can_place(self) -> bool:
        view = self.view
        return (self.acting() and self.phase() == "place" and view.get("placed") is None
                and not self.pending)

    def waiting_for(self, exclude_me: bool = True) -> list[str]:
        view = self.view
        answered = view.get("answered") or []
        names = []
        for seat in view.get("actors") or []:
            if exclude_me and seat == self.you:
                continue
            if isinstance(seat, int) and seat < len(answered) and answered[seat]:
                continue
            names.append(self.name(seat))
        return names

    def wait_words(self) -> str:
        waiting = self.waiting_for()
        if not waiting:
            return _("waiting for the host")
        if len(waiting) > 3:
            return ngettext("waiting for {n} player", "waiting for {n} players",
                            len(waiting)).format(n=len(waiting))
        return _("waiting for {names}").format(names=names_list(waiting))

    def turn_text(self) -> str:
        """The banner's line: whose move it is, or what I can do now."""
        view = self.view
        phase = self.phase()
        if phase == "over":
            return self.over_text()
        if phase == "place":
            if self.you is None:
                return _("Everyone places a picture face down: {waiting}").format(
                    waiting=self.wait_words())
            if view.get("placed") is not None:
                return _("Placed face down: {waiting}").format(waiting=self.wait_words())
            return _("Your move: click a picture in your hand to place it face down")
        if phase == "compare":
            current = view.get("current")
            if current == self.you:
                if self.first is not None:
                    return _("Now click a lit tile on the same floor")
                return _("Your turn: click two tiles on one floor to compare them")
            return _("Waiting for {name} to compare two tiles").format(
                name=self.name(current))
        if phase == "guess":
            target = view.get("guess_for")
            mine = target == self.you
            name = self.name(target)
            if self.can_guess():
                return (_("Guess which tile is yours: click a tile, or Pass") if mine else
                        _("Guess which tile is {name}'s: click a tile, or Pass").format(
                            name=name))
            if self.you is not None and self.you in (view.get("actors") or []):
                return _("Answered: {waiting}").format(waiting=self.wait_words())
            if mine:
                return _("The others guess which tile is yours: {waiting}").format(
                    waiting=self.wait_words())
            return _("Guessing which tile is {name}'s: {waiting}").format(
                name=name, waiting=self.wait_words())
        return _("Waiting for the game to start")

    def over_text(self) -> str:
        view = self.view
        winners = [self.name(s) for s in view.get("winners") or []]
        final = view.get("final") or view.get("scores") or []
        best = max(final) if final else 0
        drawn = tie(view, "final" if view.get("final") else "scores")
        if drawn is not None:  # everyone tied: nobody is told they won
            return ngettext("Game over: a draw, everyone has {n} point",
                            "Game over: a draw, everyone has {n} points", drawn).format(n=drawn)
        if len(winners) == 1:
            return ngettext("Game over: {name} wins with {n} point",
                            "Game over: {name} wins with {n} points", best).format(
                                name=winners[0], n=best)
        if winners:
            return ngettext("Game over: {names} share the win with {n} point",
                            "Game over: {names} share the win with {n} points", best).format(
                                names=names_list(winners), n=best)
        return _("Game over")

    def answered(self) -> bool:
        view = self.view
        phase = self.phase()
        return ((phase == "place" and view.get("placed") is not None)
                or (phase == "guess" and view.get("guess") is not None))

    def question(self) -> str:
        return question_text((self.view or {}).get("question") or {}).rstrip("?")

    def info_text(self) -> str:
        view = self.view
        return _("Round {n} \u00b7 supply {supply}").format(n=view.get("round", 1),
                                                            supply=view.get("supply", 0))


def question_text(question: dict[str, Any]) -> str:
    """The round's question in this laptop's language (a pack's own stays as written)."""
    return content("question", str(question.get("id", "")), str(question.get("text", "")))


def slot_name(slot: dict[str, Any]) -> str:
    """A tile's picture name in this laptop's language."""
    return pictures.shown_name(str(slot.get("picture", "")), str(slot.get("name") or ""))
