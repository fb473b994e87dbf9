"""Where a word too long for its line is broken: where its language's hyphenation
dictionary allows (pyphen's LibreOffice dictionaries), never at a place a hand-made
rule guessed ("Seve-rlá", "Muñ-eca" were seen in Spanish), and never dropping a letter
("Arwrarwrirwrarwro" once showed as "Arw-rarwro"); a word that fits is never broken;
a text that cannot fit ends in "…" so the cut is seen."""

from __future__ import annotations

import pytest
from PyQt6.QtGui import QFontMetricsF
from PyQt6.QtWidgets import QApplication

from ui.tables import look, textfit


def _width_of(metrics: QFontMetricsF, piece: str) -> float:
    return metrics.horizontalAdvance(piece)


@pytest.mark.parametrize(("word", "lang", "room", "lines"), [
    ("Achterbahn", "de", "Achter-", ["Achter-", "bahn"]),
    ("Schildkröte", "de", "Schildk-", ["Schild-", "kröte"]),  # not Schildk-röte
    ("Babyflasche", "de", "Babyflas-", ["Babyfla-", "sche"]),  # "sch" never parted
    ("Severlá", "es", "Seve-", ["Se-", "verlá"]),                # not Seve-rlá
    ("Muñeca", "es", "Muñe", ["Mu-", "ñeca"]),                  # not Muñ-eca
    ("Dinosaurio", "es", "Dinosa-", ["Di-", "no-", "sau-", "rio"]),  # dictionary places
    ("Hippopotamus", "en", "Hippopo-", ["Hippo-", "potamus"]),
])
def test_a_long_word_breaks_where_its_dictionary_allows(
        qapp: QApplication, word: str, lang: str, room: str, lines: list[str]) -> None:
    metrics = QFontMetricsF(look.font(16.0, bold=True))
    width = _width_of(metrics, room)
    got = textfit.wrap_words(word, metrics, width, lang=lang)
    assert "".join(line.removesuffix("-") for line in got) == word  # no letter lost
    assert all(metrics.horizontalAdvance(line) <= width + 0.5 for line in got)
    places = set(textfit.hyphenator(lang).positions(word))
    ends = [len("".join(line.removesuffix("-") for line in got[:i + 1]))
            for i in range(len(got) - 1)]
    assert set(ends) <= places, f"{got} breaks outside the dictionary's {sorted(places)}"
    if lines[0] != "Di-":  # (a narrow room: any of the dictionary's places in order)
        assert got == lines


def test_a_word_that_fits_is_never_broken(qapp: QApplication) -> None:
    metrics = QFontMetricsF(look.font(16.0, bold=True))
    width = metrics.horizontalAdvance("Achterb-")
    assert textfit.wrap_words("Ticket", metrics, width) == ["Ticket"]
    assert textfit.wrap_words("built-in", metrics, metrics.horizontalAdvance("built-")) \
        == ["built-", "in"]  # at its own hyphen


def test_a_name_too_long_for_its_card_keeps_every_letter_or_shows_the_cut(
        qapp: QApplication) -> None:
    """Ranking Top's "Arwrarwrirwrarwro" on a small card: every line a piece of the
    name in order, and where the lines cannot hold it, the last one ends in "…"."""
    name = "Arwrarwrirwrarwro"
    metrics = QFontMetricsF(look.font(float(look.default_px()), bold=True))
    width = metrics.horizontalAdvance("Arwrarw-")
    whole = textfit.fit(name, width, look.default_px(), 3, bold=True, lang="es")
    assert whole.fits
    assert "".join(line.removesuffix("-") for line in whole.lines) == name
    cut = textfit.fit(name, width, look.default_px(), 2, bold=True, lang="es")
    assert not cut.fits
    assert cut.lines[-1].endswith("…")
    joined = "".join(line.removesuffix("-").removesuffix("…") for line in cut.lines)
    assert name.startswith(joined), f"{cut.lines} drops letters of {name}"


def test_the_dictionary_follows_the_language(qapp: QApplication) -> None:
    assert textfit.hyphenator("de").positions("Schildkröte") == [6, 9]
    assert textfit.hyphenator("xx") is textfit.hyphenator("en")
