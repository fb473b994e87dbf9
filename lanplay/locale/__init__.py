"""lanplay's gettext catalogues, and how to load one with the standard library.

Layout (what ``gettext`` expects): ``lanplay/locale/<lang>/LC_MESSAGES/<domain>.po``,
one ``.pot`` template per domain beside the language folders. Domains:

* ``lanplay-content``: every text of the built-in content and the games'
  metadata (picture names, Ranking questions, S-tier topics, game, mode and
  option words, Ranking Top's card effects); ``msgctxt`` is the kind and id
  (``picture:abacus``). Its template is generated from the sources by
  ``python -m lanplay.tools.content_pot``.
* ``lanplay``: the window's and the core's own messages (not here yet).

The rules help is not a catalogue: each game has ``help.<lang>.md`` beside
``help.md`` (``help_path``).

``.mo`` files are build products (not in git): ``python -m
lanplay.tools.compile_locales`` writes them (``.ci/build-app`` does, so the
one-file app carries them). A checkout or an editable install needs no step:
``translation`` compiles the ``.po`` in memory when no ``.mo`` at least as new
lies beside it.

A new language ``xx``: ``python -m lanplay.tools.content_pot --sync xx`` starts
its content catalogue from the template; translate every ``msgstr`` (the
header's comment in ``de``'s says the conventions); write each game's
``help.xx.md`` with the first line the German and Spanish ones have (the
English help's hash); add ``xx`` to ``LANGUAGES``. tests/test_locale_content.py
and tests/test_locale_help.py then hold the language to the English whole.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Sequence
from pathlib import Path

from lanplay.locale import po

DIR = Path(__file__).resolve().parent
"""Where the catalogues live (inside the package, so wheels and the app carry them)."""

LANGUAGES = ("en", "de", "es")
"""English is the source language: its texts are the msgids, so it has no catalogue."""

CONTENT_DOMAIN = "lanplay-content"


def catalogue_path(lang: str, domain: str, suffix: str = ".po", root: Path = DIR) -> Path:
    return root / lang / "LC_MESSAGES" / f"{domain}{suffix}"


def template_path(domain: str) -> Path:
    return DIR / f"{domain}.pot"


def mo_bytes(lang: str, domain: str, root: Path = DIR) -> bytes | None:
    """The compiled catalogue: a ``.mo`` at least as new as its ``.po``, else the
    ``.po`` compiled now; None when the language has no catalogue of ``domain``."""
    source = catalogue_path(lang, domain, root=root)
    compiled = catalogue_path(lang, domain, ".mo", root)
    if compiled.is_file() and (not source.is_file()
                               or compiled.stat().st_mtime >= source.stat().st_mtime):
        return compiled.read_bytes()
    if not source.is_file():
        return None
    return po.compile_mo(po.parse(source.read_text(encoding="utf-8"), str(source)))


def translation(domain: str, languages: Sequence[str],
                root: Path = DIR) -> gettext.NullTranslations:
    """The catalogues of ``languages`` (first found wins, the next ones fall back),
    ending in the English msgids themselves: what ``gettext.translation`` gives,
    without needing ``.mo`` files on disk."""
    result: gettext.NullTranslations = gettext.NullTranslations()
    chain: list[gettext.NullTranslations] = []
    for lang in languages:
        data = mo_bytes(lang, domain, root)
        if data is not None:
            chain.append(gettext.GNUTranslations(io.BytesIO(data)))
    for found in reversed(chain):
        found.add_fallback(result)
        result = found
    return result


def help_path(game_dir: Path, lang: str) -> Path:
    """A game's rules help in ``lang``: ``help.<lang>.md``, or the English ``help.md``
    when there is no translation (or for English)."""
    translated = game_dir / f"help.{lang}.md"
    if lang != "en" and translated.is_file():
        return translated
    return game_dir / "help.md"


__all__ = ["CONTENT_DOMAIN", "DIR", "LANGUAGES", "catalogue_path", "help_path", "mo_bytes",
           "template_path", "translation"]
