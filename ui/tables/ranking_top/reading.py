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
from ui.tables.ranking_top.items import card_name, face_of


def rank_reason(card: dict[str, Any], needed: int) -> str:
    """Why ``card`` cannot go into a Ranking Top that needs ``needed`` next (in words)."""
    face = face_of(card)
    if face.kind == "top":
        return "A Top card never goes in a Ranking Top."
    if face.kind == "song" and face.number != needed and needed:
        return f"Your Ranking Top needs a {needed} next."
    return "This card cannot go in your Ranking Top now."


def discard_words(card: dict[str, Any]) -> str:
    face = face_of(card)
    if face.kind != "song":
        return "On the discard pile it has no effect."
    return f"Discard: {face.effect}"


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
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "someone"

    def phase(self) -> str:
        return "over" if self.view.get("over") else str(self.view.get("phase", ""))

    def your(self, seat: Any) -> str:
        return "your" if seat == self.you else f"{self.name(seat)}'s"

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
        return card_name(face_of(chain[-1].get("card"))) if chain else "the card"

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
                return (f"Your turn: play a card (your Ranking Top needs a "
                        f"{self.needed(self.you)})")
            return f"Waiting for {self.name(current)} to play a card"
        if phase == "again":
            why = view.get("again")
            if current == self.you:
                if why == "objecion":
                    return "Objeción Denegada: play another card, it cannot be topped"
                return "Diente blanco: play one more card"
            return f"Waiting for {self.name(current)} to play a second card"
        if phase == "keep":
            if current == self.you:
                return "El Dinosaurio Anacleto: click the one card you keep"
            return f"Waiting for {self.name(current)} to choose the card to keep"
        if phase == "window":
            chain = self.chain()
            owner = chain[-1].get("seat") if chain else None
            deciding = [self.name(s) for s in self.actors() if s != self.you]
            if self.acting():
                return f"TOP! or Pass? {self.name(owner)}'s {self.chain_top_name()}"
            words = (f"waiting for {names_list(deciding)}" if len(deciding) <= 3
                     else f"waiting for {len(deciding)} players")
            if owner == self.you:
                return f"Can anyone top your {self.chain_top_name()}? {words}"
            if self.you is not None and self.you in self.passed():
                return f"You passed: {words}"
            return f"Top window: {words}"
        return "Waiting for the game to start"

    def over_text(self) -> str:
        view = self.view
        winners = [self.name(s) for s in view.get("winners") or []]
        if self.you is not None and self.you in (view.get("winners") or []):
            return "Game over: you completed your Ranking Top and win!"
        if len(winners) == 1:
            return f"Game over: {winners[0]} completed the Ranking Top and wins"
        if winners:
            return f"Game over: {names_list(winners)} win"
        return "Game over"

    def info_text(self) -> str:
        view = self.view
        way = "clockwise" if view.get("direction", 1) == 1 else "counter-clockwise"
        return f"Deck {view.get('deck', 0)} · {way}"

    def status(self, seat: int) -> str:
        """A seat's plate line: deciding, passed, to play, what it needs next..."""
        view = self.view
        phase = self.phase()
        needed = self.needed(seat)
        if phase == "over":
            return "winner" if seat in (view.get("winners") or []) else \
                f"{len(self.ranking(seat))} of 5"
        if phase == "window":
            if seat in self.actors():
                return "deciding"
            if seat in self.passed():
                return "passed"
            chain = self.chain()
            if chain and chain[-1].get("seat") == seat:
                return "played" if len(chain) == 1 else "topped"
        if seat == view.get("current") and phase in ("turn", "again"):
            return f"to play · needs {needed}" if needed else "to play"
        if seat == view.get("current") and phase == "keep":
            return "keeps one card"
        return f"needs {needed}" if needed else ""

    def chain_label(self, index: int, link: dict[str, Any]) -> str:
        """Under a card of the top window's chain: who played or topped it, and where to."""
        seat = link.get("seat")
        who = "You" if seat == self.you else self.name(seat)
        if index > 0:
            return f"{who} top{'' if who == 'You' else 's'}"
        if link.get("to") == "top":
            stands = link.get("stands")
            as_ = f" as {stands}" if face_of(link.get("card")).kind == "rule" and stands else ""
            return f"{who} → Ranking Top{as_}"
        return f"{who} → discard"
