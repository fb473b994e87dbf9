"""What a play does once it stands: a card into a Ranking Top, or a song's effect.

Each effect edits a ``Work`` in place and either ends the turn or leaves the
player a choice (phase ``keep`` for El Dinosaurio Anacleto, phase ``again``
for the second card of Objeción Denegada and Diente blanco).
"""

from __future__ import annotations

from lanplay.games.ranking_top import cards
from lanplay.games.ranking_top.state import TO_TOP, Link, Work


def succeed(w: Work, play: Link, base: int) -> str | None:
    """Carry out a play that stands; ``base`` = discard pile size beneath its chain.

    Returns a short public description of the effect (for ``last`` and the log
    line the caller writes), or None.
    """
    seat, card = play.seat, play.card
    if play.to == TO_TOP:
        assert play.stands is not None
        w.ranking[seat].append((card, play.stands))
        if play.stands == 1:
            w.end_game(seat)
        else:
            w.end_turn()
        return None
    song = cards.song(card)
    if song == cards.ARWR:
        taken = w.discard[max(0, base - 3):base]
        del w.discard[max(0, base - 3):base]
        w.hands[seat].extend(taken)
    else:
        taken = []
    w.discard.append(card)
    if song is None:
        w.end_turn()
        return None
    w.phase = "turn"
    text = _EFFECTS[song](w, seat, taken)
    if w.phase == "turn":
        w.end_turn()
    return text


def _muneca(w: Work, seat: int, taken: list[int]) -> str:
    n = w.players
    w.hands = [w.hands[(s + 1) % n] for s in range(n)]
    return "everyone hands their whole hand to the player on their right."


def _severla(w: Work, seat: int, taken: list[int]) -> str:
    w.direction = -w.direction
    w.draw(seat, 1)
    way = "clockwise" if w.direction == 1 else "counter-clockwise"
    return f"play now goes {way}, and they draw 1 card."


def _senora(w: Work, seat: int, taken: list[int]) -> str:
    order = w.order_from(seat)
    for s in order:
        w.discard.extend(w.hands[s])
        w.hands[s] = []
    for s in order:
        w.draw(s, 4)
    return "everyone discards their hand and draws 4 cards."


def _objecion(w: Work, seat: int, taken: list[int]) -> str:
    if not w.hands[seat]:
        return "objection denied, but they have no card left to play."
    w.phase, w.again = "again", "objecion"
    return "they play another card, which cannot be topped."


def _dinosaurio(w: Work, seat: int, taken: list[int]) -> str:
    if len(w.hands[seat]) > 1:
        w.phase = "keep"
        return "they keep 1 card, discard the rest and draw 4."
    w.draw(seat, 4)
    return "they keep their hand (at most 1 card) and draw 4."


def _diente(w: Work, seat: int, taken: list[int]) -> str:
    w.draw(seat, 2)
    if not w.hands[seat]:
        return "they draw 2 cards but have nothing to play."
    w.phase, w.again = "again", "diente"
    return "they draw 2 cards and play one more card."


def _mama(w: Work, seat: int, taken: list[int]) -> str:
    w.draw(seat, 3)
    for s in w.order_from(seat)[1:]:
        w.draw(s, 2)
    return "they draw 3 cards and everyone else draws 2."


def _arwr(w: Work, seat: int, taken: list[int]) -> str:
    if not taken:
        return "the discard pile beneath is empty: they take nothing."
    names = ", ".join(cards.label(c) for c in taken)
    return f"they take {len(taken)} from the discard pile: {names}."


_EFFECTS = (_muneca, _severla, _senora, _objecion, _dinosaurio, _diente, _mama, _arwr)
