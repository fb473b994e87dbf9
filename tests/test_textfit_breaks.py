"""Where a word too long for its line is broken: before a consonant that opens a
syllable ("Achter-bahn", "Dino-saurio"), as German and Spanish hyphenate, not wherever
the line happens to end ("Achterb-ahn"); a word that fits is never broken."""

from __future__ import annotations

import pytest
from PyQt6.QtGui import QFontMetricsF
from PyQt6.QtWidgets import QApplication

from ui.tables import look, textfit


@pytest.mark.parametrize(("word", "cut", "shown"), [
    ("Achterbahn", 7, "Achter-bahn"),     # not Achterb-ahn
    ("Dinosaurio", 6, "Dino-saurio"),     # not Dinosa-urio
    ("Denegada", 5, "Dene-gada"),
    ("Schildkröte", 7, "Schild-kröte"),   # "kr" opens the syllable together
    ("Hippopotamus", 7, "Hippopo-tamus"),  # already a good place: kept
    ("Babyflasche", 8, "Babyfla-sche"),   # "sch" never parted
])
def test_a_long_word_breaks_where_a_syllable_begins(word: str, cut: int, shown: str) -> None:
    at = textfit._syllable_cut(word, cut)
    assert f"{word[:at]}-{word[at:]}" == shown


def test_the_lines_of_a_broken_word_hold_the_word_and_fit(qapp: QApplication) -> None:
    metrics = QFontMetricsF(look.font(16.0, bold=True))
    width = metrics.horizontalAdvance("Achterb-")
    lines = textfit.wrap_words("Achterbahn", metrics, width)
    assert lines == ["Achter-", "bahn"]
    assert all(metrics.horizontalAdvance(line) <= width for line in lines)
    assert textfit.wrap_words("Ticket", metrics, width) == ["Ticket"]
