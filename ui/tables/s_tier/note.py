"""The leader's note being written: a draft kept on this screen until Submit.

Pure Python (no Qt), so every mode's note rule is easy to test. The draft
holds cards (one face, or two with "choose the side"), where each lies and
the hint tier; ``problem()`` says in words why the note cannot be sent yet
(the Submit button stays off and shows it), ``action()`` is the intent.
The host checks the note again; this only spares a person a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ui.words.i18n import _, ngettext

TIERS = ("S", "A", "B", "C", "D")

ONE_PER_TIER = "one-per-tier"
"""Cooperative and team: each picture in its own tier (take four leaves one empty)."""
SPREAD = "spread"
"""Competitive: every tier used, at most two per tier."""


@dataclass
class NoteDraft:
    key: tuple[Any, ...]
    rule: str
    cards: list[list[tuple[str, str]]]
    """Per card its faces as (picture id, name); two faces with "choose the side"."""
    hint_needed: bool = False
    face: list[int] = field(default_factory=list)
    at: dict[int, int] = field(default_factory=dict)
    """card index -> tier."""
    hint: int | None = None

    def __post_init__(self) -> None:
        if not self.face:
            self.face = [0] * len(self.cards)

    # --- reading --------------------------------------------------------------

    def shown(self, card: int) -> tuple[str, str]:
        return self.cards[card][self.face[card]]

    def card_of(self, picture: str) -> int | None:
        for i, faces in enumerate(self.cards):
            if any(pid == picture for pid, _ in faces):
                return i
        return None

    def in_tier(self, tier: int) -> list[int]:
        return [c for c, t in sorted(self.at.items()) if t == tier]

    def unplaced(self) -> list[int]:
        return [c for c in range(len(self.cards)) if c not in self.at]

    # --- changing ---------------------------------------------------------------

    def move(self, picture: str, tier: int | None) -> None:
        """Put a picture in a tier (None = back to the pool).

        One per tier: onto an occupied tier the occupant goes where the moved
        picture came from (the pool or its old tier), like the shared board.
        """
        card = self.card_of(picture)
        if card is None:
            return
        came_from = self.at.get(card)
        if tier is None:
            self.at.pop(card, None)
        else:
            if self.rule == ONE_PER_TIER:
                for other in self.in_tier(tier):
                    if other != card:
                        if came_from is None:
                            self.at.pop(other)
                        else:
                            self.at[other] = came_from
            self.at[card] = tier
        if self.hint is not None and not self.in_tier(self.hint):
            self.hint = None

    def flip(self, picture: str) -> None:
        card = self.card_of(picture)
        if card is not None and len(self.cards[card]) > 1:
            self.face[card] = 1 - self.face[card]

    def set_hint(self, tier: int | None) -> None:
        self.hint = tier if tier is None or self.in_tier(tier) else None

    # --- checking -----------------------------------------------------------------

    def problem(self) -> str:
        """Why the note cannot be sent yet, in one sentence; "" when it can."""
        left = len(self.unplaced())
        if left:
            return ngettext("Place every picture: {n} picture still below the tiers.",
                            "Place every picture: {n} pictures still below the tiers.",
                            left).format(n=left)
        if self.rule == SPREAD:
            for tier in range(5):
                count = len(self.in_tier(tier))
                if count == 0:
                    return _("Tier {tier} is empty: every tier needs a picture.").format(
                        tier=TIERS[tier])
                if count > 2:
                    return _("Tier {tier} holds {n} pictures: at most 2 per tier.").format(
                        tier=TIERS[tier], n=count)
        if self.hint_needed and self.hint is None:
            return _("Choose the tier whose picture you reveal (the star buttons).")
        return ""

    def action(self) -> dict[str, Any]:
        if self.rule == SPREAD:
            return {"type": "note", "tiers": [self.at[c] for c in range(len(self.cards))]}
        tiers: list[str | None] = [None] * 5
        for card, tier in self.at.items():
            tiers[tier] = self.shown(card)[0]
        action: dict[str, Any] = {"type": "note", "tiers": tiers}
        if self.hint_needed:
            action["hint"] = self.hint
        return action


__all__ = ["ONE_PER_TIER", "SPREAD", "NoteDraft"]
