"""What a Ranking Top view says to one seat: whose move it is, what I may do, the words.

A plain reading of the host's view, with no scene and no widget: who acts,
whether I play, keep or decide a top window now, what my hand and each
Ranking Top hold, and the lines the banner, the plates and the stage show.
The table makes a fresh one whenever it asks (``RankingTopTable.read``), so a
reading never outlives the view or the intent still waiting for the host.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ui.tables.felt import names_list
from ui.tables.ranking_top.faces import card_name, face_of
from ui.words.i18n import _, ngettext
from ui.words.result_words import tie, view_verdict


def rank_reason(card: dict[str, Any], needed: int) -> str:
    """Why ``card`` cannot go into a Ranking Top that needs ``needed`` next (in words)."""
    face = face_of(card)
    if face.kind == "top":
        return _("A Top card never goes in a Ranking Top.")
    if face.kind == "song" and face.number != needed and needed:
        return _("Your Ranking Top needs a {n} next.").format(n=needed)
    return _("This card cannot go in your Ranking Top now.")


def discard_words(card: dict[str, Any]) -> str:
    face = face_of(card)
    if face.kind != "song":
        return _("On the discard pile it has no effect.")
    return _("Discard: {effect}").format(effect=face.effect)


@dataclass(frozen=True)
class Reading:
    """The view (``{}`` before the first), the players' names, my seat, and
    whether an intent of mine still waits for the host's answer."""

    view: dict[str, Any]
    names: list[str]
    you: int | None
    pending: bool

    def name(self, seat: Any) -> str:
        names = self.names
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else \
            _("someone")

    def phase(self) -> str:
        return "over" if self.view.get("over") else str(self.view.get("phase", ""))

    # --- who acts, and what I may do --------------------------------------------------

    def actors(self) -> list[int]:
        return [s for s in self.view.get("actors") or [] if isinstance(s, int)]

    def acting(self) -> bool:
        return self.you is not None and self.phase() != "over" and self.you in self.actors()

    def my_play(self) -> bool:
        """I play a card now (my turn, or the second card of an effect)."""
        return (self.acting() and self.phase() in ("turn", "again")
                and self.view.get("current") == self.you and not self.pending)

    def my_window(self) -> bool:
        return self.acting() and self.phase() == "window" and not self.pending

    def my_keep(self) -> bool:
        return (self.acting() and self.phase() == "keep"
                and self.view.get("current") == self.you and not self.pending)

    def passed(self) -> list[int]:
        passed = self.view.get("passed") or []
        return [s for s, p in enumerate(passed) if p]

    # --- the cards --------------------------------------------------------------------

    def needed(self, seat: Any) -> int:
        needed = self.view.get("needed") or []
        return int(needed[seat]) if isinstance(seat, int) and 0 <= seat < len(needed) else 0

    def hand(self) -> list[dict[str, Any]]:
        return list(self.view.get("hand") or []) if self.you is not None else []

    def card(self, card_id: int) -> dict[str, Any]:
        for card in self.hand():
            if card.get("id") == card_id:
                return card
        return {"id": card_id}

    def chain(self) -> list[dict[str, Any]]:
        return list(self.view.get("chain") or [])

    def chain_top_name(self) -> str:
        chain = self.chain()
        return card_name(face_of(chain[-1].get("card"))) if chain else _("the card")

    def ranking(self, seat: int) -> list[dict[str, Any]]:
        rankings = self.view.get("ranking") or []
        return list(rankings[seat]) if 0 <= seat < len(rankings) else []

    # --- the words --------------------------------------------------------------------

    def turn_text(self) -> str:
        """The banner's line: whose move it is, or what I can do now."""
        view = self.view
        phase = self.phase()
        current = view.get("current")
        if phase == "over":
            return self.over_text()
        if phase == "turn":
            if current == self.you:
                return _("Your turn: play a card (your Ranking Top needs a {n})").format(
                    n=self.needed(self.you))
            return _("Waiting for {name} to play a card").format(name=self.name(current))
        if phase == "again":
            why = view.get("again")
            if current == self.you:
                if why == "objecion":
                    return _("{song}: play another card, it cannot be topped").format(
                        song="Objeción Denegada")
                return _("{song}: play one more card").format(song="Diente blanco")
            return _("Waiting for {name} to play a second card").format(
                name=self.name(current))
        if phase == "keep":
            if current == self.you:
                return _("{song}: click the one card you keep").format(
                    song="El Dinosaurio Anacleto")
            return _("Waiting for {name} to choose the card to keep").format(
                name=self.name(current))
        if phase == "window":
            chain = self.chain()
            owner = chain[-1].get("seat") if chain else None
            deciding = [self.name(s) for s in self.actors() if s != self.you]
            if self.acting():
                return _("TOP! or Pass? {name}'s {card}").format(
                    name=self.name(owner), card=self.chain_top_name())
            words = (_("waiting for {names}").format(names=names_list(deciding))
                     if len(deciding) <= 3 else
                     ngettext("waiting for {n} player", "waiting for {n} players",
                              len(deciding)).format(n=len(deciding)))
            if owner == self.you:
                # my own card by its number (it lies big on the stage): with its song's
                # name the line outgrew the banner's two lines ("Toppt jemand deine
                # 3 · Arwrarwrirwrarwro? warten auf 4 Spieler", 1000x592)
                face = face_of(chain[-1].get("card")) if chain else None
                mine = str(face.number) if face is not None and face.kind == "song" \
                    and face.number else self.chain_top_name()
                return _("Can anyone top your {card}? {waiting}").format(
                    card=mine, waiting=words)
            if self.you is not None and self.you in self.passed():
                return _("You passed: {waiting}").format(waiting=words)
            return _("Top window: {waiting}").format(waiting=words)
        return _("Waiting for the game to start")

    def over_text(self) -> str:
        words = self.result_words()
        return _("Game over: {result}").format(result=words) if words else _("Game over")

    def result_words(self) -> str:
        """Who won, without "Game over" ("" when nobody did)."""
        view = self.view
        winners = [self.name(s) for s in view.get("winners") or []]
        drawn = tie(view)
        if drawn is not None:  # everyone tied: nobody is told they won
            return ngettext("a draw, everyone has {n} card in their Ranking Top",
                            "a draw, everyone has {n} cards in their Ranking Top",
                            drawn).format(n=drawn)
        if self.you is not None and view_verdict(view).winners == (self.you,):
            return _("you completed your Ranking Top and win!")
        if len(winners) == 1:
            return _("{name} completed the Ranking Top and wins").format(name=winners[0])
        if winners:
            return _("{names} win").format(names=names_list(winners))
        return ""

    def info_text(self) -> str:
        view = self.view
        deck = view.get("deck", 0)
        if view.get("direction", 1) == 1:
            return _("Deck {n} \u00b7 clockwise").format(n=deck)
        return _("Deck {n} \u00b7 counter-clockwise").format(n=deck)

    def status(self, seat: int) -> str:
        """A seat's plate line: deciding, passed, to play, what it needs next..."""
        view = self.view
        phase = self.phase()
        needed = self.needed(seat)
        if phase == "over":
            return _("winner") if seat in view_verdict(view).marked else \
                _("{n} of 5").format(n=len(self.ranking(seat)))
        if phase == "window":
            if seat in self.actors():
                return _("deciding")
            if seat in self.passed():
                return _("passed")
            chain = self.chain()
            if chain and chain[-1].get("seat") == seat:
                return _("played") if len(chain) == 1 else _("topped")
        if seat == view.get("current") and phase in ("turn", "again"):
            return _("to play \u00b7 needs {n}").format(n=needed) if needed else _("to play")
        if seat == view.get("current") and phase == "keep":
            return _("keeps one card")
        return _("needs {n}").format(n=needed) if needed else ""

    def chain_label(self, index: int, link: dict[str, Any]) -> str:
        """Under a card of the top window's chain: who played or topped it, and where to."""
        seat = link.get("seat")
        mine = seat == self.you
        who = self.name(seat)
        if index > 0:
            return _("You top") if mine else _("{name} tops").format(name=who)
        if link.get("to") == "top":
            stands = link.get("stands")
            if face_of(link.get("card")).kind == "rule" and stands:
                return (_("You \u2192 Ranking Top as {n}") if mine else
                        _("{name} \u2192 Ranking Top as {n}")).format(name=who, n=stands)
            return _("You \u2192 Ranking Top") if mine else \
                _("{name} \u2192 Ranking Top").format(name=who)
        return _("You \u2192 discard") if mine else _("{name} \u2192 discard").format(name=who)
