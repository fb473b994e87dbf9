"""What the three S-tier modes share: tiers, the card deck, topics, log lines, checks.

The content (pictures, cards, topics) is copied into the state as plain data
at setup, so after that the rules never touch a pack. The deck is a tuple of
card indexes; when it runs out, the discards are reshuffled with the seeded
stream ``("reshuffle", n)``; if even that cannot fill a round (competitive
and team games keep the pictures guessed right as points), every card not in
the deck goes back in, because the points are counted, not held.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from lanplay.content.library import Library
from lanplay.game import SYSTEM, IllegalAction, Seat
from lanplay.game import LogLine as LogLine  # the modes take it from here
from lanplay.messages import Content, Msg, Problem, Seats, items, msg, msg_n, picture, render, seats
from lanplay.rng import choice_index, shuffled, stream

GAME_ID = "s-tier"
TIERS = ("S", "A", "B", "C", "D")
TIER_COUNT = len(TIERS)

Weights = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Topic:
    id: str
    text: str
    weights: Weights

    def to_view(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text,
                "weights": [[axis, w] for axis, w in self.weights]}


@dataclass(frozen=True)
class Card:
    """A double-sided picture card, names included so the view needs no content."""

    front: str
    front_name: str
    back: str
    back_name: str

    def face(self, side: int) -> str:
        return self.front if side == 0 else self.back

    def name_of(self, picture: str) -> str:
        return self.front_name if picture == self.front else self.back_name


@dataclass(frozen=True)
class Deck:
    """The cards as data: all of them, the draw order and the discard pile."""

    cards: tuple[Card, ...]
    order: tuple[int, ...]
    discard: tuple[int, ...] = ()
    reshuffles: int = 0

    def draw(self, count: int, seed: int) -> tuple[tuple[int, ...], Deck]:
        """The top ``count`` cards, refilling first if the deck is short."""
        deck = self
        if len(deck.order) < count:
            deck = deck.refill(count, seed)
        return deck.order[:count], Deck(deck.cards, deck.order[count:], deck.discard,
                                        deck.reshuffles)

    def refill(self, count: int, seed: int) -> Deck:
        n = self.reshuffles + 1
        if len(self.order) + len(self.discard) >= count:
            back = self.discard
        else:
            held = set(self.order)
            back = tuple(i for i in range(len(self.cards)) if i not in held)
        more = shuffled(sorted(back), stream(seed, "reshuffle", n))
        return Deck(self.cards, (*self.order, *more), (), n)

    def discarding(self, cards: Sequence[int]) -> Deck:
        return Deck(self.cards, self.order, (*self.discard, *cards), self.reshuffles)

    def discarding_unkept(self, cards: Iterable[int], kept: Collection[str | None]) -> Deck:
        """Discard ``cards`` but those showing a picture in ``kept`` (won as points)."""
        return self.discarding([c for c in cards
                                if self.cards[c].front not in kept
                                and self.cards[c].back not in kept])

    def name_in(self, cards: Iterable[int], picture: str | None) -> str | None:
        """The name of ``picture`` if one of ``cards`` has it on either face."""
        for c in cards:
            card = self.cards[c]
            if picture in (card.front, card.back):
                return card.name_of(picture)
        return None

    def shuffled_order(self, rng: Any) -> Deck:
        """The same deck with its draw order reshuffled (hidden variants)."""
        return Deck(self.cards, tuple(shuffled(self.order, rng)), self.discard,
                    self.reshuffles)


def load_content(library: Library, seed: int) -> tuple[Deck, tuple[Topic, ...]]:
    """The 70 cards and every topic, in seeded orders, as plain data."""
    cards = []
    for card in library.stier_cards(seed):
        cards.append(Card(card.front, _name(library, card.front),
                          card.back, _name(library, card.back)))
    found = library.stier_topics()
    topics = [Topic(t.id, t.text, tuple((str(a), float(w)) for a, w in t.weights))
              for t in found]
    # A group that brought its own topics wants to play them: those come first.
    own = [i for i, t in enumerate(found) if t.pack not in ("", "builtin")]
    rest = [i for i, t in enumerate(found) if t.pack in ("", "builtin")]
    draw = stream(seed, "topics")
    order = shuffled(own, draw) + shuffled(rest, draw)
    return (Deck(tuple(cards), tuple(range(len(cards)))),
            tuple(topics[i] for i in order))


def _name(library: Library, picture: str) -> str:
    found = library.pictures.get(picture)
    return found.name if found is not None else picture


def topic_of(topics: Sequence[Topic], round_no: int) -> Topic:
    return topics[(round_no - 1) % len(topics)]


def default_faces(deck: Deck, hand: Sequence[int], seed: int, round_no: int,
                  salt: str = "") -> tuple[str, ...]:
    """The face each card shows, drawn by ``stream(seed, "face", round, i)``."""
    return tuple(deck.cards[c].face(choice_index(2, stream(seed, "face", round_no, salt, i)))
                 for i, c in enumerate(hand))


def first_seat(players: int, seed: int) -> Seat:
    return choice_index(players, stream(seed, "first"))


# --- the note's commitment (docs/PROTOCOL.md, "The S-tier note") -------------------

NOTE_TAG = b"lanplay s-tier note\x00"
"""What a note's commitment hashes first, so it is never a hash of anything else."""
SALT_BYTES = 16


def note_bytes(tiers: Sequence[Any]) -> bytes:
    """The note as compact JSON (ASCII), the form its commitment hashes."""
    return json.dumps(list(tiers), separators=(",", ":"), ensure_ascii=True).encode("ascii")


def commitment(tiers: Sequence[Any], salt: bytes) -> str:
    """SHA-256 (hex) of the tag, the 16-byte salt and the note: all the host is told
    before the reveal. The salt keeps the host from trying every possible note."""
    if len(salt) != SALT_BYTES:
        raise ValueError(f"a note's salt is {SALT_BYTES} bytes, not {len(salt)}")
    return hashlib.sha256(NOTE_TAG + salt + note_bytes(tiers)).hexdigest()


def is_commitment(value: object) -> TypeGuard[str]:
    return (isinstance(value, str) and len(value) == 64
            and all(c in "0123456789abcdef" for c in value))


def is_salt(value: object) -> TypeGuard[str]:
    return (isinstance(value, str) and len(value) == 2 * SALT_BYTES
            and all(c in "0123456789abcdef" for c in value))


def commitment_field(action: Mapping[str, Any]) -> str:
    value = action.get("commitment")
    if not is_commitment(value):
        raise IllegalAction(msg("'commitment' must be the note's SHA-256: 64 lowercase hex "
                                "digits."))
    return value


def reveal_fields(action: Mapping[str, Any]) -> tuple[list[Any], str]:
    """The revealed note ('tiers', a list) and its salt (32 lowercase hex digits)."""
    tiers, salt = action.get("tiers"), action.get("salt")
    if not isinstance(tiers, list) or len(tiers) > 16:
        raise IllegalAction(msg("'tiers' must be the note as it was written: a list."))
    if not all(t is None or type(t) is int or (isinstance(t, str) and len(t) <= 200)
               for t in tiers):
        raise IllegalAction(msg("The note holds picture ids, tiers or nothing (null)."))
    if not is_salt(salt):
        raise IllegalAction(msg("'salt' must be the note's salt: 32 lowercase hex digits."))
    return tiers, salt


def matches(committed: str | None, tiers: Sequence[Any], salt: str) -> bool:
    """Whether ``tiers`` with ``salt`` (hex) is the note ``committed`` promised."""
    return committed is not None and commitment(tiers, bytes.fromhex(salt)) == committed


def sample_commitment(tiers: Sequence[Any], rng: Any) -> str:
    """A commitment to a sample note, for ``legal``'s samples (the salt is the sample's)."""
    return commitment(tiers, bytes(rng.getrandbits(8) for _ in range(SALT_BYTES)))


# --- checking setup -----------------------------------------------------------------

def check_players(mode: str, low: int, high: int, players: int) -> None:
    if not low <= players <= high:
        raise Problem(msg_n("S-tier ({mode}) needs {low}-{high} players; there is {n}.",
                            "S-tier ({mode}) needs {low}-{high} players; there are {n}.",
                            players, mode=mode, low=low, high=high))


def int_option(options: Mapping[str, Any], key: str, default: int,
               choices: Sequence[int]) -> int:
    """The option's value, which must be one of ``choices`` (a bool is not an int here)."""
    value = options.get(key, default)
    if value not in choices or not is_int(value):
        raise Problem(msg("Option {option} must be one of {choices}.", option=key,
                          choices=items([str(c) for c in choices])))
    return value


# --- checking actions from the wire -------------------------------------------------

def is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def is_tier(value: object) -> TypeGuard[int]:
    return is_int(value) and 0 <= value < TIER_COUNT


def need_map(action: object) -> Mapping[str, Any]:
    if not isinstance(action, Mapping):
        raise IllegalAction(msg("An action must be a map with a 'type'."))
    return action


def read_action(action: object, known: Sequence[str], over: bool) -> tuple[Mapping[str, Any], str]:
    """The action as a map and its type (``timeout`` included), refusing junk and
    anything once the game is over; the first step of every mode's ``check``."""
    act = need_map(action)
    if over:
        raise IllegalAction(msg("The game is over."))
    return act, type_of(act, known)


def need_player(seat: Seat, players: int) -> None:
    if seat == SYSTEM or not 0 <= seat < players:
        raise IllegalAction(msg("Only a player at the table can do that."))


def need_note_writer(phase: str, leader: Seat, seat: Seat) -> None:
    """One leader a round writes one note (cooperative and competitive)."""
    if phase != "note":
        raise IllegalAction(msg("The note for this round is already written."))
    if seat != leader:
        raise IllegalAction(msg("Only the leader writes the note."))


PLAIN_NOTE = msg("Your laptop keeps the note until the reveal: it sends the host only the "
                 "note's commitment, never the note itself.")


def check_void(act: Mapping[str, Any], seat: Seat, asked: Collection[Seat],
               own: bool) -> Seat:
    """A round voided because a leader's note cannot be had: by the host (SYSTEM, its
    stand-in for ``act["seat"]`` knows no note) or by the leader itself (``own``: its
    laptop lost the note), only while that leader's note is asked for. The leader
    whose note is missing."""
    if seat == SYSTEM:
        only_keys(act, "seat")
        leader = act.get("seat")
        if not is_int(leader) or leader not in asked:
            raise IllegalAction(msg("The host voids a round only for a leader whose note is "
                                    "needed now."))
        return leader
    only_keys(act)
    if not own or seat not in asked:
        raise IllegalAction(msg("Only a leader whose note is needed now can give up the "
                                "round."))
    return seat


def only_keys(action: Mapping[str, Any], *keys: str) -> None:
    extra = sorted(str(k)[:40] for k in action if k != "type" and k not in keys)
    if extra:
        if keys:
            raise IllegalAction(msg("This action takes {allowed}; {field} is not one of them.",
                                    allowed=items([repr(k) for k in keys]),
                                    field=repr(extra[0])))
        raise IllegalAction(msg("This action takes no other field; {field} is not one of "
                                "them.", field=repr(extra[0])))


def tier_field(action: Mapping[str, Any], key: str = "tier") -> int:
    if key not in action:
        raise IllegalAction(msg("Say which tier: the action has no {field}.", field=repr(key)))
    value = action[key]
    if not is_tier(value):
        raise IllegalAction(msg("{field} must be a tier from 0 (S) to 4 (D).",
                                field=repr(key)))
    return value


def type_of(action: Mapping[str, Any], known: Sequence[str]) -> str:
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction(msg("An action needs a 'type' that is a word."))
    if kind not in known and kind != "timeout":
        raise IllegalAction(msg("Unknown action {action}.", action=repr(kind[:40])))
    return kind


def ceil_half(n: int) -> int:
    return (n + 1) // 2


def names(who: Sequence[Seat]) -> Seats | Msg:
    """Seats as a message argument: "A, B and C", or "nobody"."""
    return seats(who) if who else msg("nobody")


def picture_word(ident: str | None, name: str | None) -> Content:
    """A picture as a message argument, named from the content."""
    return picture(ident or "", name or ident or "")


def plain(value: Any) -> Any:
    """A fresh msgpack-ready copy: tuples become lists, maps are copied."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def freeze(value: Any) -> Any:
    """The inverse of ``plain`` for storing events in a frozen state."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return {k: freeze(v) for k, v in value.items()}
    return value


def format_log(entry: Mapping[str, Any], seat_names: Sequence[str]) -> str:
    """A log entry in this laptop's language (``lanplay.messages.render``)."""
    return render(entry, seat_names)
