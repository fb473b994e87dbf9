"""lanplay's gettext catalogues, and how to load one with the standard library.

Layout (what ``gettext`` expects): ``lanplay/locale/<lang>/LC_MESSAGES/<domain>.po``,
one ``.pot`` template per domain beside the language folders. Domains:

* ``lanplay-content``: every text of the built-in content and the games'
  metadata (picture names, Ranking questions, S-tier topics, game, mode and
  option words, Ranking Top's card effects); ``msgctxt`` is the kind and id
  (``picture:abacus``). Its template is generated from the sources by
  ``python -m lanplay.tools.content_pot``.
* ``lanplay``: the core's own messages: the log lines, refusals and rejection
  reasons the host sends as keys (``lanplay.messages``), the game-over texts
  and what the headless commands print. Its template is extracted from the
  sources by ``python -m lanplay.tools.core_pot``.
* ``lanplay-ui``: the window's own strings (``ui/i18n.py``); its template is
  extracted from ui/ by ``python -m ui.locale_pot``.

The rules help is not a catalogue: each game has ``help.<lang>.md`` beside
``help.md`` (``help_path``).

``.mo`` files are build products (not in git): ``python -m
lanplay.tools.compile_locales`` writes them (``.ci/build-app`` does, so the
one-file app carries them). A checkout or an editable install needs no step:
``translation`` compiles the ``.po`` in memory when no ``.mo`` at least as new
lies beside it.

A new language ``xx``: ``python -m lanplay.tools.content_pot --sync xx``,
``python -m lanplay.tools.core_pot --sync xx`` and ``python -m ui.locale_pot
--sync xx`` (the window's) start its three catalogues from the templates;
translate every ``msgstr`` (the headers' comments in ``de``'s say the
conventions; keep every ``{field}``); write each game's ``help.xx.md`` with the
first line the German and Spanish ones have (the English help's hash); add
``xx`` to ``LANGUAGES`` (and its name to ``ui.i18n.NAMES``).
tests/test_locale_content.py, tests/test_locale_core.py, tests/test_locale_ui.py
and tests/test_locale_help.py then hold the language to the English whole.

Which language this process speaks: ``set_language`` (``lanplay --lang``), else
``LANPLAY_LANG``, else the system's (``system_language``); ``language()`` says.
"""

from __future__ import annotations

import functools
import gettext
import io
import locale as _system
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from lanplay.locale import po

DIR = Path(__file__).resolve().parent
"""Where the catalogues live (inside the package, so wheels and the app carry them)."""

LANGUAGES = ("en", "de", "es")
"""English is the source language: its texts are the msgids, so it has no catalogue."""

CONTENT_DOMAIN = "lanplay-content"
CORE_DOMAIN = "lanplay"
ENV = "LANPLAY_LANG"
"""Overrides the system's language for every command (``lanplay --lang`` sets it too)."""

_chosen: str | None = None


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


@functools.lru_cache(maxsize=32)
def catalogue(domain: str, lang: str) -> gettext.NullTranslations:
    """``translation(domain, [lang])``, loaded once per process (rendering a log line
    asks for it every time). English is the msgids themselves: no file is looked at,
    so the English of a refusal costs the rules no I/O."""
    if lang == "en":
        return gettext.NullTranslations()
    return translation(domain, [lang])


def normalise(name: str | None) -> str | None:
    """A known language for a locale name ("de_DE.UTF-8" -> "de", "es" -> "es"), or
    None when lanplay does not speak it ("C", "fr_FR", "")."""
    if not name:
        return None
    base = name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def system_language(env: Mapping[str, str] | None = None) -> str:
    """The language the system asks for: the first of ``LANGUAGE`` (a list, as
    gettext reads it), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that lanplay speaks,
    else the locale Python finds (Windows and macOS set no variable), else English."""
    env = os.environ if env is None else env
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            found = normalise(part)
            if found:
                return found
        if var != "LANGUAGE":  # the first one set decides, as for gettext ("C" is English)
            return "en"
    try:
        found = normalise(_system.getlocale(_system.LC_MESSAGES if hasattr(
            _system, "LC_MESSAGES") else _system.LC_CTYPE)[0])
    except (ValueError, TypeError):
        found = None
    return found or "en"


def set_language(lang: str | None) -> str:
    """Choose the language of everything this process renders (``None``: back to
    ``LANPLAY_LANG`` or the system's); ValueError for one lanplay does not speak."""
    global _chosen
    if lang is None:
        _chosen = None
        return language()
    found = normalise(lang)
    if found is None:
        raise ValueError(f"lanplay speaks {', '.join(LANGUAGES)}, not {lang!r}")
    _chosen = found
    return found


def language() -> str:
    """The language to render in: ``set_language``'s choice, else ``LANPLAY_LANG``,
    else the system's. Read each time, so a test or a command may change it."""
    if _chosen is not None:
        return _chosen
    return normalise(os.environ.get(ENV)) or system_language()


def requested() -> str | None:
    """The language this run was told to speak (``set_language``, else
    ``LANPLAY_LANG``); None when neither said: the window then speaks the language
    it remembers, else the system's."""
    return _chosen if _chosen is not None else normalise(os.environ.get(ENV))


def catalogued(domain: str, root: Path = DIR) -> list[str]:
    """The languages that have a catalogue of ``domain`` (English has none: it is the
    source)."""
    return sorted(p.parents[1].name for p in root.glob(f"*/LC_MESSAGES/{domain}.po"))


def help_path(game_dir: Path, lang: str) -> Path:
    """A game's rules help in ``lang``: ``help.<lang>.md``, or the English ``help.md``
    when there is no translation (or for English)."""
    translated = game_dir / f"help.{lang}.md"
    if lang != "en" and translated.is_file():
        return translated
    return game_dir / "help.md"


__all__ = ["CONTENT_DOMAIN", "CORE_DOMAIN", "DIR", "ENV", "LANGUAGES", "catalogue",
           "catalogue_path", "catalogued", "help_path", "language", "mo_bytes", "normalise",
           "requested", "set_language", "system_language", "template_path", "translation"]
