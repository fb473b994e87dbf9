"""The ``lanplay-content`` catalogues: the template is what the sources give, and
German and Spanish translate every message of it, none fuzzy, none empty.

GNU gettext's ``msgfmt --check --statistics`` is the judge the issue names
(.ci/run installs Debian's ``gettext``); the same checks also run through
lanplay's own reader, so a laptop without gettext still catches a gap, and
lanplay's pure-Python compiler is held to msgfmt's output.
"""

from __future__ import annotations

import configparser
import gettext
import io
import os
import re
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from lanplay.locale import (
    CONTENT_DOMAIN,
    DIR,
    LANGUAGES,
    catalogue_path,
    po,
    template_path,
    translation,
)
from lanplay.tools import compile_locales, content_pot

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
FIELD = re.compile(r"\{[^{}]*\}|%[sd]")


def template() -> list[po.Entry]:
    return po.parse(template_path(CONTENT_DOMAIN).read_text(encoding="utf-8"))


def catalogue(lang: str) -> list[po.Entry]:
    path = catalogue_path(lang, CONTENT_DOMAIN)
    return po.parse(path.read_text(encoding="utf-8"), str(path))


def msgfmt() -> str:
    found = shutil.which("msgfmt")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("msgfmt is missing: .ci/run installs Debian's gettext for this test")
        pytest.skip("needs msgfmt (Debian: apt-get install gettext)")
    return found


def test_the_template_is_what_the_sources_give() -> None:
    committed = template_path(CONTENT_DOMAIN).read_text(encoding="utf-8")
    assert committed == content_pot.render(), (
        "lanplay/locale/lanplay-content.pot is out of date: run "
        "`python -m lanplay.tools.content_pot --write`, then `--sync` and translate")


def test_the_template_holds_every_text_a_person_reads() -> None:
    import json

    from lanplay import games
    from lanplay.content.axes import AXES
    from lanplay.games.ranking_top import cards

    raw = json.loads(content_pot.BUILTIN.read_text(encoding="utf-8"))
    keys = {e.key for e in template()}
    for picture in raw["pictures"]:
        assert (f"picture:{picture['id']}", picture["name"]) in keys
        assert (f"category:{picture['category']}", picture["category"]) in keys
    for question in raw["questions"]:
        assert (f"question:{question['id']}", question["text"]) in keys
    assert {q["side"] for q in raw["questions"]} == {"red", "blue"}
    for topic in raw["topics"]:
        assert (f"topic:{topic['id']}", topic["text"]) in keys
    for axis in AXES:
        assert (f"axis:{axis}", axis) in keys
    for game in games.available():
        assert (f"game:{game.id}", game.name) in keys
        assert (f"game-summary:{game.id}", game.summary) in keys
        for mode in game.modes:
            assert (f"mode:{game.id}:{mode.id}", mode.name) in keys
        for option in game.options:
            assert (f"option:{game.id}:{option.key}", option.label) in keys
            assert not option.help or (f"option-help:{game.id}:{option.key}",
                                       option.help) in keys
            for choice in option.choices:
                if isinstance(choice, str):
                    assert (f"choice:{game.id}:{option.key}:{choice}", choice) in keys
    for song, (title, artist, effect) in enumerate(cards.TITLES):
        assert (f"ranking-top:effect:{song}", effect) in keys
        # The song titles and artists are names: they stay as the rulebook has them.
        assert not any(msgid in (title, artist) for _, msgid in keys)
    assert ("ranking-top:card:primordial", cards.PRIMORDIAL_TEXT[0]) in keys
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalogue_translates_every_message_of_the_template(lang: str) -> None:
    wanted = [e.key for e in template()]
    entries = catalogue(lang)
    have = [e.key for e in entries]
    missing = [k for k in wanted if k not in set(have)]
    extra = [k for k in have if k not in set(wanted)]
    assert not missing and not extra, (
        f"{lang}: {len(missing)} messages missing ({missing[:3]}), {len(extra)} no longer in "
        "the template: run `python -m lanplay.tools.content_pot --sync` and translate")
    assert have == wanted, f"{lang}: not in the template's order (run --sync)"
    messages = [e for e in entries if e.msgid]
    assert not [e.key for e in messages if e.fuzzy], f"{lang}: fuzzy messages"
    empty = [e.context for e in messages if not e.translated or not e.msgstr[0].strip()]
    assert not empty, f"{lang}: untranslated: {', '.join(map(str, empty[:10]))}"
    assert po.header(entries).get("Language") == lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translation_keeps_its_placeholders_and_its_question_marks(lang: str) -> None:
    for entry in catalogue(lang):
        if not entry.msgid:
            continue
        assert sorted(FIELD.findall(entry.msgstr[0])) == sorted(FIELD.findall(entry.msgid)), \
            entry.context
        if entry.context and entry.context.startswith("question:"):
            assert entry.msgstr[0].endswith("?"), entry.context
            if lang == "es":
                assert entry.msgstr[0].startswith("¿"), entry.context


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalogue_is_translated_not_copied(lang: str) -> None:
    """Equal words are fine (Pizza, Koala), a catalogue of English is not; and no
    two pictures share a name, which would make a Ranking comparison ambiguous."""
    messages = [e for e in catalogue(lang) if e.msgid]
    same = [e for e in messages if e.msgstr[0] == e.msgid]
    assert len(same) < len(messages) * 0.15, f"{lang}: {len(same)} messages are the English"
    names = Counter(e.msgstr[0].casefold() for e in messages
                    if e.context and e.context.startswith("picture:"))
    assert [n for n, count in names.items() if count > 1] == []
    questions = [e.msgstr[0] for e in messages if e.context and
                 e.context.startswith(("question:", "topic:"))]
    assert len(set(questions)) == len(questions), f"{lang}: two questions or topics alike"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_msgfmt_finds_every_message_translated_and_none_fuzzy(lang: str,
                                                              tmp_path: Path) -> None:
    path = catalogue_path(lang, CONTENT_DOMAIN)
    out = tmp_path / "c.mo"
    done = subprocess.run([msgfmt(), "--check", "--statistics", "-o", str(out), str(path)],
                          capture_output=True, text=True, timeout=30,
                          env={**os.environ, "LC_ALL": "C"})
    assert done.returncode == 0, done.stderr
    count = len(template()) - 1
    assert done.stderr.strip() == f"{count} translated messages.", done.stderr
    # lanplay's own compiler gives what msgfmt gives, message for message.
    theirs = gettext.GNUTranslations(out.open("rb"))
    ours = gettext.GNUTranslations(io.BytesIO(po.compile_mo(catalogue(lang))))
    assert ours._catalog == theirs._catalog  # type: ignore[attr-defined]
    assert len(ours._catalog) == count + 1  # type: ignore[attr-defined]


def test_a_catalogue_loads_from_its_po_with_no_mo_and_from_a_fresh_mo(tmp_path: Path) -> None:
    for lang in TRANSLATED:
        folder = tmp_path / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(catalogue_path(lang, CONTENT_DOMAIN), folder)
    de = translation(CONTENT_DOMAIN, ["de"], root=tmp_path)
    assert de.pgettext("picture:dog", "Dog") == "Hund"
    assert de.pgettext("question:red-02", "What is bigger?") == "Was ist größer?"
    assert de.pgettext("picture:nothing", "Nothing") == "Nothing"  # the English fallback
    chain = translation(CONTENT_DOMAIN, ["fr", "es", "de"], root=tmp_path)
    assert chain.pgettext("topic:topic-01", "Most valuable") == "Lo más valioso"
    assert translation(CONTENT_DOMAIN, ["en"], root=tmp_path).pgettext(
        "picture:dog", "Dog") == "Dog"

    # A compiled catalogue at least as new as its source is what is read ...
    source = catalogue_path("de", CONTENT_DOMAIN, root=tmp_path)
    entries = po.parse(source.read_text(encoding="utf-8"))
    for entry in entries:
        if entry.context == "picture:dog":
            entry.msgstr = ["Köter"]
    compiled = source.with_suffix(".mo")
    compiled.write_bytes(po.compile_mo(entries))
    assert translation(CONTENT_DOMAIN, ["de"], root=tmp_path).pgettext(
        "picture:dog", "Dog") == "Köter"
    # ... and one older than its source (a pull after the last build) is not.
    later = time.time() + 10
    os.utime(source, (later, later))
    assert translation(CONTENT_DOMAIN, ["de"], root=tmp_path).pgettext(
        "picture:dog", "Dog") == "Hund"


def test_compile_locales_writes_a_mo_per_po_and_names_a_broken_line(tmp_path: Path) -> None:
    folder = tmp_path / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(catalogue_path("es", CONTENT_DOMAIN), folder)
    written = compile_locales.compile_all(tmp_path)
    assert written == [folder / f"{CONTENT_DOMAIN}.mo"]
    loaded = gettext.GNUTranslations(written[0].open("rb"))
    assert loaded.pgettext("picture:cat", "Cat") == "Gato"

    (folder / "broken.po").write_text('msgid "a"\nmsgstr "b\n', encoding="utf-8")
    with pytest.raises(po.PoError, match=r"broken\.po:2: expected a quoted string"):
        compile_locales.compile_all(tmp_path)


def test_the_po_reader_reads_what_gettext_writes() -> None:
    text = ('# a note\n#. a comment\n#: somewhere.py:3\n#, fuzzy, python-format\n'
            'msgctxt "k"\nmsgid ""\n"two "\n"lines\\n"\nmsgstr "zwei \\"Zeilen\\"\\n"\n\n'
            'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "eins"\nmsgstr[1] "viele"\n\n'
            '#~ msgid "old"\n#~ msgstr "alt"\n')
    first, second = po.parse(text)
    assert first.key == ("k", "two lines\n")
    assert first.msgstr == ['zwei "Zeilen"\n']
    assert first.fuzzy and first.comments == ["a comment"] and first.notes == ["a note"]
    assert (second.plural, second.msgstr) == ("many", ["eins", "viele"])
    assert po.parse(po.render([first, second])) == [first, second]
    plural = gettext.GNUTranslations(io.BytesIO(po.compile_mo([
        po.Entry("", ["Plural-Forms: nplurals=2; plural=(n != 1);\n"]), second, first])))
    assert plural.ngettext("one", "many", 3) == "viele"
    assert plural.pgettext("k", "two lines\n") == "two lines\n"  # fuzzy: left out
    with pytest.raises(po.PoError, match="appears twice"):
        po.parse('msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n')


def glob_match(path: str, pattern: str) -> bool:
    """As setuptools' package_data globs: ``*`` stays within one folder."""
    regex = "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c)
                    for c in pattern)
    return re.fullmatch(regex, path) is not None


def test_the_package_ships_the_catalogues() -> None:
    """setup.cfg's package_data patterns (relative to the package ``lanplay.locale``)
    match every template, catalogue and compiled catalogue, so a wheel carries them."""
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf-8")
    value = cfg["options.package_data"]["*"].strip()
    # setuptools reads a value with line breaks as one pattern per line, commas and all.
    patterns = [p.strip() for p in (value.splitlines() if "\n" in value else value.split(","))]
    files = [template_path(CONTENT_DOMAIN),
             *(catalogue_path(lang, CONTENT_DOMAIN, suffix)
               for lang in TRANSLATED for suffix in (".po", ".mo"))]
    for path in files:
        relative = path.relative_to(DIR).as_posix()
        assert any(glob_match(relative, p) for p in patterns), relative
    assert not glob_match("de/LC_MESSAGES/x.po", "*.po")
