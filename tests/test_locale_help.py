"""Each game's translated rules help (``help.de.md``, ``help.es.md``) keeps up with ``help.md``.

A translation records, on its first line, the hash of the English help it
was made from; a later edit of ``help.md`` that is not carried over fails
here with what to do. The structure is compared too (the headings' levels in
order, and the list items under each), so a section or rule dropped in
translation is noticed even when the hash was updated.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from lanplay import games
from lanplay.locale import LANGUAGES, help_path

GAMES_DIR = Path(games.__file__).resolve().parent
GAME_DIRS = sorted(p.parent for p in GAMES_DIR.glob("*/help.md"))
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
STAMP = re.compile(r"<!-- translated from help\.md sha256:([0-9a-f]{16}) .*-->")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")


def english_hash(text: str) -> str:
    """Of the text, not the bytes: a Windows checkout's CRLF is the same help."""
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8")).hexdigest()[:16]


def structure(text: str) -> list[tuple[int, int]]:
    """(heading level, list items before the next heading) for every heading;
    the text before the first heading counts as level 0."""
    out = [(0, 0)]
    in_fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
        if in_fence:
            continue
        heading = re.match(r"^(#{1,6})\s", line)
        if heading:
            out.append((len(heading.group(1)), 0))
        elif LIST_ITEM.match(line):
            level, items = out[-1]
            out[-1] = (level, items + 1)
    return out


def test_every_game_has_help_in_every_language() -> None:
    assert len(GAME_DIRS) == len(games.available())
    missing = [f"{d.name}/help.{lang}.md" for d in GAME_DIRS for lang in TRANSLATED
               if not (d / f"help.{lang}.md").is_file()]
    assert not missing, f"no translated rules help: {', '.join(missing)}"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda d: d.name)
def test_a_translation_is_of_the_current_english_help(game_dir: Path, lang: str) -> None:
    english = (game_dir / "help.md").read_text(encoding="utf-8")
    path = game_dir / f"help.{lang}.md"
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0] if text else ""
    stamp = STAMP.fullmatch(first)
    assert stamp, (f"{path.relative_to(GAMES_DIR.parents[1])}: the first line must be "
                   f"'<!-- translated from help.md sha256:{english_hash(english)} "
                   "(update it when this file catches up with help.md) -->'")
    now = english_hash(english)
    assert stamp.group(1) == now, (
        f"{game_dir.name}/help.md changed since help.{lang}.md was translated from it "
        f"(sha256 {stamp.group(1)}, now {now}): carry the change over "
        f"(git log -p lanplay/games/{game_dir.name}/help.md), then put {now} on its "
        "first line")


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda d: d.name)
def test_a_translation_has_the_sections_and_rules_of_the_english_help(
        game_dir: Path, lang: str) -> None:
    english = structure((game_dir / "help.md").read_text(encoding="utf-8"))
    translated = structure((game_dir / f"help.{lang}.md").read_text(encoding="utf-8"))
    assert [level for level, _ in translated] == [level for level, _ in english], \
        f"{game_dir.name}/help.{lang}.md: its headings differ from help.md's"
    assert translated == english, (
        f"{game_dir.name}/help.{lang}.md: (heading level, list items) per section "
        f"{translated}, help.md has {english}")


def test_the_structure_check_notices_a_dropped_section_or_rule() -> None:
    text = "# T\n\nIntro.\n\n## A\n- one\n- two\n\n## B\n1. x\n   - y\n"
    assert structure(text) == [(0, 0), (1, 0), (2, 2), (2, 2)]
    assert structure(text.replace("- two\n", "")) != structure(text)
    assert structure(text.replace("## B\n", "")) != structure(text)


def test_the_help_in_a_language_falls_back_to_english(tmp_path: Path) -> None:
    (tmp_path / "help.md").write_text("# Game\n", encoding="utf-8")
    (tmp_path / "help.de.md").write_text("# Spiel\n", encoding="utf-8")
    assert help_path(tmp_path, "de").name == "help.de.md"
    assert help_path(tmp_path, "es").name == "help.md"
    assert help_path(tmp_path, "en").name == "help.md"
    ranking = GAMES_DIR / "ranking"
    assert help_path(ranking, "es").read_text(encoding="utf-8").splitlines()[1] == "# Ranking"
