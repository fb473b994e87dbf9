"""Texts that travel as keys (lanplay.messages): one message, each laptop's own language
and names; an older or foreign laptop still reads the English; junk from the wire
renders as text, never as an exception or a leak."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lanplay import locale
from lanplay.game import IllegalAction, LogLine
from lanplay.messages import (
    Problem,
    fill,
    is_message,
    items,
    msg,
    msg_n,
    picture,
    question,
    render,
    seat,
    seats,
)
from lanplay.session import Refusal

NAMES = ["Ann", "Bo", "Cy"]


def test_one_message_reads_in_each_language_with_each_laptops_names() -> None:
    line = msg("Round {round}: {actor} draws the question \"{question}\"", round=2,
               actor=seat(1), question=question("red-02", "What is bigger?"))
    assert render(line, NAMES, "en") == 'Round 2: Bo draws the question "What is bigger?"'
    assert render(line, NAMES, "de") == "Runde 2: Bo zieht die Frage „Was ist größer?“"
    assert render(line, NAMES, "es") == "Ronda 2: Bo saca la pregunta «¿Qué es más grande?»"
    # the other laptop shows other names for the same seats
    assert render(line, ["Ana", "Ben", "Cid"], "de").startswith("Runde 2: Ben zieht")


def test_the_wire_shape_is_a_key_and_typed_arguments() -> None:
    said = msg("{actor} rates {a} above {b}: up to floor {up}, down to floor {down}.",
               actor=seat(2), a=picture("broom", "Broom"), b=picture("dog", "Dog"), up=4,
               down=2)
    wire = said.to_wire()
    assert wire == {"key": "{actor} rates {a} above {b}: up to floor {up}, down to floor "
                           "{down}.",
                    "args": {"actor": {"seat": 2}, "a": {"picture": "broom", "text": "Broom"},
                             "b": {"picture": "dog", "text": "Dog"}, "up": 4, "down": 2}}
    assert is_message(wire) and not is_message({"key": "guess-1-2", "seconds": 30})
    assert render(wire, NAMES, "en") == ("Cy rates Broom above Dog: up to floor 4, down to "
                                         "floor 2.")
    assert render(wire, NAMES, "de") == ("Cy stuft Besen über Hund ein: hoch auf Etage 4, "
                                         "runter auf Etage 2.")


def test_plurals_and_lists_follow_the_language() -> None:
    for n, en, de, es in ((1, "1 point", "1 Punkt", "1 punto"),
                          (12, "12 points", "12 Punkten", "12 puntos")):
        said = msg_n("Game over: {winners} share the win with {n} point.",
                     "Game over: {winners} share the win with {n} points.", n,
                     winners=seats([0, 1, 2]))
        assert render(said, NAMES, "en") == f"Game over: Ann, Bo and Cy share the win with {en}."
        assert render(said, NAMES, "de") == (f"Spielende: Ann, Bo und Cy teilen sich den Sieg "
                                             f"mit {de}.")
        assert render(said, NAMES, "es") == (f"Fin de la partida: Ann, Bo y Cy comparten la "
                                             f"victoria con {es}.")
    either = msg("Choose which ranking card to turn down: {numerals}.",
                 numerals=items(["II", "V"], "or"))
    assert render(either, (), "de") == "Wähle, welche Rangkarte umgedreht wird: II oder V."
    assert render(msg("{x}", x=2.5), (), "de") == "2,5"
    assert render(msg("{x}", x=2.5), (), "en") == "2.5"


def test_a_seat_this_laptop_has_no_name_for_is_its_number() -> None:
    said = msg("It is not your turn: waiting for {waiting}.", waiting=seats([0, 4]))
    assert render(said, NAMES, "en") == "It is not your turn: waiting for Ann and seat 5."
    assert render(said, (), "es") == "No es tu turno: se espera a asiento 1 y asiento 5."


def test_content_is_translated_only_when_it_is_the_built_in_text() -> None:
    assert render(msg("{p}", p=picture("dog", "Dog")), (), "de") == "Hund"
    # a custom pack's own picture under a built-in id keeps its name
    assert render(msg("{p}", p=picture("dog", "Rex the Wonder Dog")), (), "de") == \
        "Rex the Wonder Dog"


def test_a_key_no_catalogue_knows_is_shown_in_english_with_its_arguments() -> None:
    newer = {"key": "{actor} invents a new rule.", "args": {"actor": {"seat": 0}}}
    assert render(newer, NAMES, "de") == "Ann invents a new rule."
    # an older host's log entry (text with positional seats) still reads
    assert render({"text": "{0} leads the first trick.", "seats": [2]}, NAMES, "de") == \
        "Cy leads the first trick."


def test_a_broken_translation_falls_back_to_the_english(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def gettext(self, key: str) -> str:
            return "{nonsense} kaputt"

        def ngettext(self, one: str, many: str, n: int) -> str:
            return "{nonsense}"

        def pgettext(self, context: str, key: str) -> str:
            return key

    monkeypatch.setattr("lanplay.messages.catalogue", lambda domain, lang: Broken())
    assert render(msg("{actor} begins.", actor=seat(0)), NAMES, "de") == "Ann begins."


JUNK: list[Any] = [None, 3, 2.5, [], {}, {"key": 5}, {"key": "{a.__class__}", "args": {"a": 1}},
                   {"key": "{a[0]}", "args": {"a": "x"}}, {"key": "{a}", "args": []},
                   {"key": "{a}", "args": {"a": {"seat": "x"}}},
                   {"key": "{a}", "args": {"a": {"seats": 7}}},
                   {"key": "{a}", "args": {"a": {"picture": 3, "text": None}}},
                   {"key": "{a}", "args": {"a": {"list": [{"list": [{"list": [{}]}]}]}}},
                   {"key": "x" * 100_000, "args": {}}, {"key": "", "args": {}},
                   {"key": "{n}", "plural": "{n}s", "args": {"n": True}},
                   {"text": "{0.__class__}", "seats": [0]}, {"text": 5}]


@pytest.mark.parametrize("junk", JUNK, ids=range(len(JUNK)))
def test_whatever_comes_over_the_wire_renders_as_a_short_text(junk: Any) -> None:
    for lang in locale.LANGUAGES:
        out = render(junk, NAMES, lang)
        assert isinstance(out, str) and len(out) <= 1000
        assert "<class" not in out


def test_deep_and_random_junk_never_raises() -> None:
    rng = random.Random(7)

    def junk(depth: int) -> Any:
        pick = rng.randrange(8)
        if depth > 8 or pick == 0:
            return rng.choice([None, 1, -2.0, "t", True, b"x"])
        if pick < 3:
            return {"key": rng.choice(["{a}", "{a} {b}", "{{a}}", "{", "}"]),
                    "args": {k: junk(depth + 1) for k in "ab"}, "plural": rng.choice([None, "p"])}
        if pick < 5:
            return {rng.choice(["seat", "seats", "list", "picture", "text", "join"]):
                    junk(depth + 1)}
        return [junk(depth + 1) for _ in range(rng.randrange(3))]

    for _ in range(2000):
        assert isinstance(render(junk(0), NAMES, rng.choice(locale.LANGUAGES)), str)


def test_fill_takes_only_plain_fields() -> None:
    assert fill("{a} and {{b}}", {"a": "1"}) == "1 and {b}"
    assert fill("{a} and {b}", {"a": "1"}) is None
    assert fill("{a.real}", {"a": "1"}) == "{a.real}"


def test_a_log_line_names_the_seats_of_its_message() -> None:
    line = LogLine(msg("{actor} played {card}: {effects}.", actor=seat(1), card="7 (III)",
                       effects=items([msg("{owner}'s {card} turned face down", owner=seat(0),
                                          card="7 (II)")])))
    assert line.seats == (1, 0)
    assert line.text == "{0} played 7 (III): {1}'s 7 (II) turned face down."
    view = line.to_view()
    assert view["seats"] == [1, 0] and view["key"] == "{actor} played {card}: {effects}."
    assert render(view, NAMES, "es") == "Bo jugó 7 (III): la 7 (II) de Ann queda boca abajo."


def test_refusals_carry_their_message_and_their_english() -> None:
    refusal = Refusal("not_your_turn", msg("It is not your turn: waiting for {waiting}.",
                                           waiting=seats([1])))
    assert refusal.reason == "It is not your turn: waiting for seat 2."
    assert refusal.message.english(NAMES) == "It is not your turn: waiting for Bo."
    assert render(refusal.message, NAMES, "de") == "Du bist nicht dran: Es wird auf Bo gewartet."
    assert isinstance(IllegalAction("plain words").message.key, str)
    problem = Problem(msg("The room is full ({n} seats).", n=5))
    assert isinstance(problem, ValueError) and str(problem) == "The room is full (5 seats)."


# --- choosing the language ------------------------------------------------------------


def test_the_language_is_chosen_then_lanplay_lang_then_the_system(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANPLAY_LANG", raising=False)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "es_CL.UTF-8")
    assert locale.language() == "es"
    monkeypatch.setenv("LANPLAY_LANG", "de")
    assert locale.language() == "de"
    try:
        assert locale.set_language("es_ES") == "es" and locale.language() == "es"
        with pytest.raises(ValueError, match="not 'fr'"):
            locale.set_language("fr")
        assert locale.language() == "es"
    finally:
        locale.set_language(None)
    assert locale.language() == "de"
    assert render(msg("The game is over.")) == "Das Spiel ist vorbei."


def test_the_system_language_reads_the_variables_gettext_reads() -> None:
    assert locale.system_language({"LANGUAGE": "fr:es:de", "LANG": "de_DE.UTF-8"}) == "es"
    assert locale.system_language({"LC_ALL": "de_AT.UTF-8", "LANG": "es_ES"}) == "de"
    assert locale.system_language({"LANG": "C.UTF-8"}) == "en"
    assert locale.system_language({"LANG": "pt_BR"}) == "en"
    assert locale.normalise("de-CH") == "de" and locale.normalise("") is None
