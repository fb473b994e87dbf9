"""The built-in content: enough distinct pictures that all render, two full question
sides, the S-tier topics and cards, and scores a bot can rank by."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from lanplay import content
from lanplay.content.axes import AXES, fit, parse_axis
from lanplay.content.images import sniff
from lanplay.content.library import BUILTIN_DIR, BUILTIN_MANIFEST
from lanplay.content.model import ContentError
from lanplay.content.packs import load_manifest


def coverage(path: Path, size: int = 48) -> float:
    """The share of pixels a picture paints when rendered offscreen (0.0 = blank)."""
    from PyQt6.QtCore import Qt
    from PyQt6.QtGui import QImage, QPainter
    from PyQt6.QtSvg import QSvgRenderer

    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    if path.suffix == ".svg":
        renderer = QSvgRenderer(str(path))
        assert renderer.isValid(), f"{path.name} does not parse as SVG"
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
    else:
        loaded = QImage(str(path))
        assert not loaded.isNull(), f"{path.name} does not load as an image"
        painter = QPainter(image)
        painter.drawImage(image.rect(), loaded)
        painter.end()
    bits = image.constBits()
    assert bits is not None
    data = bits.asstring(image.sizeInBytes())  # BGRA per pixel: alpha is every 4th byte
    return sum(1 for alpha in data[3::4] if alpha) / (size * size)


LIB = content.default_library()
PICTURES = content.builtin().pictures


def test_there_are_at_least_200_pictures_with_unique_ids_and_names() -> None:
    assert len(PICTURES) >= 200
    ids = [p.id for p in PICTURES]
    assert len(set(ids)) == len(ids)
    names = Counter(p.name.casefold() for p in PICTURES)
    assert [n for n, k in names.items() if k > 1] == []
    assert all(p.name and p.name[0].isupper() for p in PICTURES)


def test_every_picture_is_a_vendored_svg_named_by_its_id_and_nothing_else_is_vendored(
) -> None:
    files = {f.name for f in (BUILTIN_DIR / "pictures").iterdir()}
    assert files == {f"{p.id}.svg" for p in PICTURES}
    for picture in PICTURES:
        assert picture.path.name == f"{picture.id}.svg"
        assert sniff(picture.data()) == "svg" == picture.kind


def test_the_builtin_pack_passes_the_same_checks_as_a_custom_pack() -> None:
    checked = load_manifest(BUILTIN_MANIFEST, default_id="builtin", check_files=True,
                            namespaced=False)
    assert checked.pictures == content.builtin().pictures


@pytest.mark.timeout(60)
def test_every_picture_renders_offscreen_to_a_visible_image(qapp: object) -> None:
    blank = {p.id: round(coverage(p.path), 3) for p in PICTURES}
    assert {i: c for i, c in blank.items() if c < 0.05} == {}


def test_every_picture_has_every_axis_scored_from_0_to_10() -> None:
    for picture in PICTURES:
        assert set(picture.scores) == set(AXES), picture.id
        assert all(0 <= v <= 10 for v in picture.scores.values()), picture.id
    # each axis tells pictures apart: it spans most of the scale
    for axis in AXES:
        values = [p.score(axis) for p in PICTURES]
        assert min(values) <= 1 and max(values) >= 9, axis


@pytest.mark.parametrize(("axis", "high", "low"), [
    ("value", "diamond", "socks"), ("size", "whale", "mouse"),
    ("danger", "shark", "teddy_bear"), ("noise", "rocket", "snail"),
    ("usefulness", "toolbox", "crown"), ("cuteness", "panda", "cockroach"),
    ("smell", "skunk", "diamond"), ("speed", "rocket", "sloth"),
    ("weight", "elephant", "balloon"), ("age", "t_rex", "smartphone"),
    ("warmth", "volcano", "ice_cream"), ("rarity", "unicorn", "ant"),
    ("fun", "roller_coaster", "calendar"), ("taste", "pizza", "soap"),
])
def test_scores_put_obvious_pairs_in_order(axis: str, high: str, low: str) -> None:
    """Catches a shifted column in the score table."""
    assert LIB.picture(high).score(axis) >= LIB.picture(low).score(axis) + 5


def test_ranking_has_46_questions_on_each_side_each_naming_its_axis() -> None:
    for side in ("red", "blue"):
        bag = LIB.ranking_questions(side)
        assert len(bag) == 46
        assert len({q.text for q in bag}) == 46
        assert all(q.side == side and q.text.endswith("?") for q in bag)
        assert all(q.weights and all(a in AXES for a, _ in q.weights) for q in bag)
    ids = [q.id for q in content.builtin().questions]
    assert len(set(ids)) == len(ids) == 92


def test_some_questions_are_matters_of_taste_mixing_several_axes() -> None:
    mixed = [q for q in content.builtin().questions if len(q.weights) > 1]
    assert 10 <= len(mixed) < 92


def test_s_tier_has_56_topics_and_70_double_sided_cards_of_140_pictures() -> None:
    topics = LIB.stier_topics()
    assert len(topics) >= 56
    assert len({t.text for t in topics}) == len(topics)
    assert all(t.weights and all(a in AXES for a, _ in t.weights) for t in topics)
    cards = content.builtin().cards
    assert len(cards) == 70
    faces = [side for card in cards for side in (card.front, card.back)]
    assert len(set(faces)) == 140
    assert all(face in LIB.pictures for face in faces)


def test_the_120_ranking_tiles_are_drawn_by_seed() -> None:
    tiles = LIB.ranking_tiles(seed=7)
    assert len(tiles) == len(set(tiles)) == 120
    assert all(t in LIB.pictures for t in tiles)
    assert LIB.ranking_tiles(seed=7) == tiles
    assert LIB.ranking_tiles(seed=8) != tiles


def test_the_s_tier_deck_is_shuffled_by_seed() -> None:
    deck = LIB.stier_cards(seed=3)
    assert len(deck) == 70 and set(deck) == set(content.builtin().cards)
    assert LIB.stier_cards(seed=3) == deck != LIB.stier_cards(seed=4)


def test_a_bot_ranks_by_the_question_with_a_little_noise() -> None:
    rng = random.Random(11)
    wins = sum(content.bot_score("diamond", "red-01", rng)
               > content.bot_score("socks", "red-01", rng) for _ in range(200))
    assert wins >= 195  # value 10 against 0: noise never flips it in practice
    close = sum(content.bot_score("cat", "red-06", rng)
                > content.bot_score("dog", "red-06", rng) for _ in range(400))
    assert 100 < close < 300  # equally cute: the noise decides, either way
    order = content.bot_order(["shark", "dog", "teddy_bear", "cockroach"], "red-17",
                              random.Random(1), noise=0.0)
    assert order[0] in ("dog", "teddy_bear") and order[-1] in ("shark", "cockroach")


def test_a_bot_reads_the_direction_of_a_low_axis() -> None:
    smaller = LIB.about("blue-02")
    assert smaller.weights == (("size", -1.0),)
    assert fit(LIB.picture("mouse").scores, smaller.weights) > \
        fit(LIB.picture("whale").scores, smaller.weights)
    assert content.bot_score("ant", smaller, random.Random(2), noise=0.0) == 10.0


def test_bot_scores_repeat_with_the_same_seed() -> None:
    first = [content.bot_score(p, "topic-21", random.Random(5)) for p in ("dog", "bomb")]
    again = [content.bot_score(p, "topic-21", random.Random(5)) for p in ("dog", "bomb")]
    assert first == again


@pytest.mark.parametrize(("axis", "direction", "reason"), [
    ("colour", None, "unknown axis 'colour'"),
    ("size", "down", "direction must be"),
    ({"size": 0}, None, "non-zero"),
    ({}, None, "empty"),
    ({"size": 1}, "low", "signs of its weights"),
    (3, None, "axis name or a table"),
])
def test_a_bad_axis_is_refused_with_its_reason(axis: object, direction: object,
                                               reason: str) -> None:
    with pytest.raises(ContentError, match=reason):
        parse_axis(axis, direction, "questions[1]")


def test_the_twemoji_licences_are_kept_and_credited() -> None:
    licences = BUILTIN_DIR / "LICENSES"
    graphics = (licences / "Twemoji-graphics-CC-BY-4.0.txt").read_text(encoding="utf-8")
    assert "Attribution 4.0 International" in graphics
    package = (licences / "twemoji-svg-package-MIT.txt").read_text(encoding="utf-8")
    assert package.startswith("MIT License")
    text = content.about_text()
    assert "Twemoji" in text and "CC BY 4.0" in text and "MIT" in text
    readme = (BUILTIN_DIR.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "Twemoji" in readme and "CC BY 4.0" in readme


def test_setup_cfg_ships_the_content_files() -> None:
    import configparser

    cfg = configparser.ConfigParser()
    cfg.read(BUILTIN_DIR.parents[1] / "setup.cfg")
    patterns = {p.strip() for p in cfg["options.package_data"]["*"].split(",")}
    assert {"*.json", "pictures/*.svg", "LICENSES/*"} <= patterns
