"""What a play does once it stands: a card into a Ranking Top, or a song's effect.

Each effect edits a ``Work`` in place and either ends the turn or leaves the
player a choice (phase ``keep`` for El Dinosaurio Anacleto, phase ``again``
for the second card of Objeción Denegada and Diente blanco).
"""

from __future__ import annotations

from lanplay.games.ranking_top import cards
from lanplay.games.ranking_top.state import TO_TOP, Link, Work
from lanplay.messages import Msg, items, msg, msg_n


def succeed(w: Work, play: Link, base: int) -> Msg | None:
    """Carry out a play that stands; ``base`` = discard pile size beneath its chain.

    Returns a short public description of the effect (a message, for ``last`` and
    the log line the caller writes), or None.
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


def _muneca(w: Work, seat: int, taken: list[int]) -> Msg:
    n = w.players
    w.hands = [w.hands[(s + 1) % n] for s in range(n)]
    return msg("everyone hands their whole hand to the player on their right.")


def _severla(w: Work, seat: int, taken: list[int]) -> Msg:
    w.direction = -w.direction
    w.draw(seat, 1)
    if w.direction == 1:
        return msg("play now goes clockwise, and they draw 1 card.")
    return msg("play now goes counter-clockwise, and they draw 1 card.")


def _senora(w: Work, seat: int, taken: list[int]) -> Msg:
    order = w.order_from(seat)
    for s in order:
        w.discard.extend(w.hands[s])
        w.hands[s] = []
    for s in order:
        w.draw(s, 4)
    return msg("everyone discards their hand and draws 4 cards.")


def _objecion(w: Work, seat: int, taken: list[int]) -> Msg:
    if not w.hands[seat]:
        return msg("objection denied, but they have no card left to play.")
    w.phase, w.again = "again", "objecion"
    return msg("they play another card, which cannot be topped.")


def _dinosaurio(w: Work, seat: int, taken: list[int]) -> Msg:
    if len(w.hands[seat]) > 1:
        w.phase = "keep"
        return msg("they keep 1 card, discard the rest and draw 4.")
    w.draw(seat, 4)
    return msg("they keep their hand (at most 1 card) and draw 4.")


def _diente(w: Work, seat: int, taken: list[int]) -> Msg:
    w.draw(seat, 2)
    if not w.hands[seat]:
        return msg("they draw 2 cards but have nothing to play.")
    w.phase, w.again = "again", "diente"
    return msg("they draw 2 cards and play one more card.")


def _mama(w: Work, seat: int, taken: list[int]) -> Msg:
    w.draw(seat, 3)
    for s in w.order_from(seat)[1:]:
        w.draw(s, 2)
    return msg("they draw 3 cards and everyone else draws 2.")


def _arwr(w: Work, seat: int, taken: list[int]) -> Msg:
    if not taken:
        return msg("the discard pile beneath is empty: they take nothing.")
    return msg_n("they take {n} from the discard pile: {cards}.",
                 "they take {n} from the discard pile: {cards}.", len(taken),
                 cards=items([cards.word(c) for c in taken]))


_EFFECTS = (_muneca, _severla, _senora, _objecion, _dinosaurio, _diente, _mama, _arwr)
