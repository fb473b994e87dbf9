"""The 94 cards of Ranking Top and which card may top which.

Ids are plain ints so a state stays a value: song cards 0..79 (song = id // 10,
number = (id % 10) // 2 + 1, two copies of each number per song), Top cards
80..88, Primordial Rule cards 89..93. The texts come from the rulebook, so the
table can show a card from its view entry alone.
"""

from __future__ import annotations

from typing import Any

from lanplay.messages import Arg, content

SONGS = 8
NUMBERS = 5
COPIES = 2
SONG_CARDS = SONGS * NUMBERS * COPIES
TOP_CARDS = 9
PRIMORDIAL_CARDS = 5
FIRST_TOP = SONG_CARDS
FIRST_PRIMORDIAL = FIRST_TOP + TOP_CARDS
DECK_SIZE = FIRST_PRIMORDIAL + PRIMORDIAL_CARDS

MUNECA, SEVERLA, SENORA, OBJECION, DINOSAURIO, DIENTE, MAMA, ARWR = range(SONGS)

TITLES = (
    ("Mi muñeca me hablo", "Flor Bovina",
     "Everyone hands their whole hand to the player on their right."),
    ("Severlá", "Otto y los sarcófagos del ritmo",
     "Reverse the direction of play and draw 1 card."),
    ("La señora interesante", "Cucky",
     "Everyone discards their hand, then each player draws 4 cards."),
    ("Objeción Denegada", "Juan Pablo Sopa",
     "Play another card (Ranking Top or discard pile); that card cannot be topped. "
     "Objeción Denegada itself can be topped."),
    ("El Dinosaurio Anacleto", "Dinosaurio Roberto",
     "Discard your hand except 1 card of your choice, then draw 4 cards."),
    ("Diente blanco, no te vayas", "John Quijada",
     "Draw 2 cards, then play 1 more card (Ranking Top or discard pile); "
     "it can be topped."),
    ("Mi mamá me lo teje todo", "Lana y Lino",
     "Draw 3 cards; every other player draws 2."),
    ("Arwrarwrirwrarwro", "Bombi",
     "Take the last 3 cards of the discard pile into your hand (not this card "
     "or the cards used to top it)."),
)
TOP_TEXT = ("Top", "Policarpo Avendaño",
            "Tops any card (except one played through Objeción Denegada). "
            "Cannot go into a Ranking Top; on the discard pile it has no effect.")
PRIMORDIAL_TEXT = ("Primordial Rule", "Retrete Navarrete y los bulliciosos",
                   "Wildcard for your Ranking Top: it stands for the number you need. "
                   "Topped by a Primordial Rule, a Top or that number; it only tops "
                   "Primordial Rules. On the discard pile it has no effect.")


def song_card(song: int, number: int, copy: int = 0) -> int:
    """The id of one copy of a song card (for tests and tools)."""
    return song * NUMBERS * COPIES + (number - 1) * COPIES + copy


def is_song(card: int) -> bool:
    return 0 <= card < SONG_CARDS


def is_top(card: int) -> bool:
    return FIRST_TOP <= card < FIRST_PRIMORDIAL


def is_primordial(card: int) -> bool:
    return FIRST_PRIMORDIAL <= card < DECK_SIZE


def song(card: int) -> int | None:
    return card // (NUMBERS * COPIES) if is_song(card) else None


def number(card: int) -> int | None:
    return (card % (NUMBERS * COPIES)) // COPIES + 1 if is_song(card) else None


def kind(card: int) -> str:
    if is_song(card):
        return "song"
    return "top" if is_top(card) else "primordial"


def has_effect(card: int) -> bool:
    """Only song cards do something on the discard pile."""
    return is_song(card)


def label(card: int) -> str:
    """How players name a card in the log: 'Severlá 3', 'Top', 'Primordial Rule'."""
    s = song(card)
    if s is None:
        return TOP_TEXT[0] if is_top(card) else PRIMORDIAL_TEXT[0]
    return f"{TITLES[s][0]} {number(card)}"


def word(card: int) -> Arg:
    """A card as a message argument: a song card is its title and number (a name, the
    same in every language), a Top or Primordial Rule its translated name."""
    s = song(card)
    if s is None:
        name = "top" if is_top(card) else "primordial"
        return content("ranking-top", f"card:{name}", label(card))
    return label(card)


def card_data(card: int) -> dict[str, Any]:
    s = song(card)
    title, artist, effect = (TITLES[s] if s is not None
                             else TOP_TEXT if is_top(card) else PRIMORDIAL_TEXT)
    return {"id": card, "song": s, "number": number(card), "kind": kind(card),
            "title": title, "artist": artist, "effect": effect}


def tops(topper: int, target: int, stands: int | None) -> bool:
    """Whether ``topper`` may top ``target``, which counts as the number ``stands``.

    A Top tops anything; a Primordial Rule tops only Primordial Rules; a song
    card tops a card counting as its own number (a song card, or a Primordial
    Rule standing for that number in a Ranking Top).
    """
    if is_top(topper):
        return True
    if is_primordial(topper):
        return is_primordial(target)
    return stands is not None and number(topper) == stands
