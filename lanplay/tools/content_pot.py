"""``python -m lanplay.tools.content_pot``: the template of the ``lanplay-content`` domain.

Every text of the built-in content and of the games' metadata that a person
reads, gathered from where it is written, so the template cannot drift from
the sources (tests/test_locale_content.py fails when the committed one
differs). Each message's ``msgctxt`` is its kind and id, so equal English words
of different kinds may be translated differently:

========================================  =========================================
``picture:<id>``                          a picture's name (lanplay/content/builtin.json)
``category:<name>``                       a picture's kind (``animal``)
``axis:<name>``                           a score axis (lanplay/content/axes.py)
``question:<id>``                         a Ranking question, either side (``red-01``)
``topic:<id>``                            an S-tier topic
``game:<game>``, ``game-summary:<game>``  a game's name and one-line summary
``mode:<game>:<mode>``                    a mode's name (``mode-help:...``: its description)
``option:<game>:<key>``                   a host option's label (``option-help:...``: its help)
``choice:<game>:<key>:<value>``           a word choice of an option (numbers need none)
``ranking-top:card:<top|primordial>``     the special cards' names
``ranking-top:effect:<song|top|...>``     what a Ranking Top card does (song 0-7)
========================================  =========================================

Ranking Top's song titles and artists are names (the rulebook's Spanish) and
stay as they are, so they are not messages; S-tier's 70 double-sided cards
are pairs of picture ids, named by the pictures' messages.

    python -m lanplay.tools.content_pot            # print the template
    python -m lanplay.tools.content_pot --write    # rewrite lanplay/locale/lanplay-content.pot
    python -m lanplay.tools.content_pot --check    # exit 1 if the committed template differs
    python -m lanplay.tools.content_pot --sync     # carry the template into every language
    python -m lanplay.tools.content_pot --sync fr  # ... or start a new one

``--sync`` is ``msgmerge`` without GNU gettext (and without its fuzzy
guesses): every catalogue gets the template's messages in the template's
order, with their translations kept, new ones empty (to translate) and
removed ones dropped. The suite fails while any message is untranslated.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lanplay import games
from lanplay.content.axes import AXES
from lanplay.games.ranking_top import cards
from lanplay.locale import CONTENT_DOMAIN, po, tool

BUILTIN = Path(__file__).resolve().parents[1] / "content" / "builtin.json"

HEADER = (
    "Project-Id-Version: lanplay\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=UTF-8\n"
    "Content-Transfer-Encoding: 8bit\n"
)


def _content(raw: dict[str, Any]) -> Iterator[po.Entry]:
    categories: list[str] = []
    for picture in raw["pictures"]:
        where = f"picture name ({picture['category']})" if picture.get("category") \
            else "picture name"
        yield po.Entry(picture["name"], context=f"picture:{picture['id']}", comments=[where])
        if picture.get("category") and picture["category"] not in categories:
            categories.append(picture["category"])
    for category in categories:
        yield po.Entry(category, context=f"category:{category}",
                       comments=["a kind of picture, shown as 'Kind: ...' in the browser"])
    for axis, meaning in AXES.items():
        yield po.Entry(axis, context=f"axis:{axis}",
                       comments=[f"a score axis; 10 means {meaning}"])
    for question in raw["questions"]:
        yield po.Entry(question["text"], context=f"question:{question['id']}",
                       comments=[f"Ranking question, {question['side']} side: which of two "
                                 "pictures fits better"])
    for topic in raw["topics"]:
        yield po.Entry(topic["text"], context=f"topic:{topic['id']}",
                       comments=["S-tier topic: a tier list's title, S best to D worst"])


def _games() -> Iterator[po.Entry]:
    for game in games.available():
        gid = game.id
        yield po.Entry(game.name, context=f"game:{gid}", comments=["a game's name"])
        yield po.Entry(game.summary, context=f"game-summary:{gid}",
                       comments=[f"{game.name}: one line under its name"])
        for mode in game.modes:
            yield po.Entry(mode.name, context=f"mode:{gid}:{mode.id}",
                           comments=[f"{game.name}: a mode's name"])
            if mode.description:
                yield po.Entry(mode.description, context=f"mode-help:{gid}:{mode.id}",
                               comments=[f"{game.name}: what the {mode.name} mode is"])
        for option in game.options:
            yield po.Entry(option.label, context=f"option:{gid}:{option.key}",
                           comments=[f"{game.name}: a host option's label"])
            if option.help:
                yield po.Entry(option.help, context=f"option-help:{gid}:{option.key}",
                               comments=[f"{game.name}: what '{option.label}' does"])
            for choice in option.choices:
                if isinstance(choice, str) and choice:
                    yield po.Entry(choice, context=f"choice:{gid}:{option.key}:{choice}",
                                   comments=[f"{game.name}: a choice of '{option.label}'"])


def _ranking_top() -> Iterator[po.Entry]:
    for name, (title, _artist, _effect) in (("top", cards.TOP_TEXT),
                                           ("primordial", cards.PRIMORDIAL_TEXT)):
        yield po.Entry(title, context=f"ranking-top:card:{name}",
                       comments=["Ranking Top: a special card's name"])
    for song, (title, _artist, effect) in enumerate(cards.TITLES):
        yield po.Entry(effect, context=f"ranking-top:effect:{song}",
                       comments=[f"Ranking Top: what the song card \"{title}\" does on the "
                                 "discard pile (song titles stay as they are)"])
    for name, (title, _artist, effect) in (("top", cards.TOP_TEXT),
                                           ("primordial", cards.PRIMORDIAL_TEXT)):
        yield po.Entry(effect, context=f"ranking-top:effect:{name}",
                       comments=[f"Ranking Top: what a {title} card does"])


def entries(builtin: Path = BUILTIN) -> list[po.Entry]:
    """The template's messages, header first, in the order of their sources."""
    raw = json.loads(builtin.read_text(encoding="utf-8"))
    head = po.Entry("", [HEADER], comments=[
        f"Template of the {CONTENT_DOMAIN} domain: generated by",
        "`python -m lanplay.tools.content_pot --write`; edit the sources, not this file."])
    return [head, *_content(raw), *_games(), *_ranking_top()]


def render(builtin: Path = BUILTIN) -> str:
    return po.render(entries(builtin))


def new_header(lang: str) -> po.Entry:
    return po.new_header(lang, "lanplay's content: picture names, questions, topics, the "
                               "games' names, modes and options, Ranking Top's card effects.")


def sync(lang: str) -> tuple[int, int]:
    """Bring ``lang``'s catalogue in line with the template (made when missing);
    returns how many messages were added and dropped."""
    return tool.sync(CONTENT_DOMAIN, lang, entries(), new_header(lang))


def main(argv: list[str] | None = None) -> int:
    return tool.main(argv, module="lanplay.tools.content_pot", domain=CONTENT_DOMAIN, doc=__doc__,
                     entries=entries, header=new_header)


if __name__ == "__main__":
    sys.exit(main())
