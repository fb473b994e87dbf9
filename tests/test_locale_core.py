"""The ``lanplay`` catalogues: the template is what the code's messages give, and German
and Spanish translate every one, none fuzzy, none empty, every field kept.

As for the content (tests/test_locale_content.py), GNU gettext's ``msgfmt --check
--statistics`` is the judge the issue names, and lanplay's own reader runs the same
checks so a laptop without gettext still catches a gap."""

from __future__ import annotations

import gettext
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lanplay.locale import CORE_DOMAIN, LANGUAGES, catalogue_path, po, template_path
from lanplay.messages import fields
from lanplay.tools import core_pot

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def template() -> list[po.Entry]:
    return po.parse(template_path(CORE_DOMAIN).read_text(encoding="utf-8"))


def catalogue(lang: str) -> list[po.Entry]:
    path = catalogue_path(lang, CORE_DOMAIN)
    return po.parse(path.read_text(encoding="utf-8"), str(path))


def test_the_template_is_what_the_code_gives() -> None:
    assert template_path(CORE_DOMAIN).read_text(encoding="utf-8") == core_pot.render(), (
        "lanplay/locale/lanplay.pot is out of date: run `python -m lanplay.tools.core_pot "
        "--write`, then `--sync` and translate")


def test_the_template_holds_the_messages_every_part_builds() -> None:
    keys = {e.msgid for e in template()}
    for key in ("{actor} leads the first trick.",                  # a game's log
                "It is not your turn: waiting for {waiting}.",     # a refusal
                "Game over: {winner} wins with {n} point.",        # a game over
                "Wrong password for this room; ask the host for it and try again.",  # host
                "{first} and {second}",                            # how a list is said
                "{low}-{high} players"):                           # `lanplay games`
        assert key in keys, key
    plurals = {e.msgid: e.plural for e in template()}
    assert plurals["Game over: {winner} wins with {n} point."] == \
        "Game over: {winner} wins with {n} points."


def test_the_extractor_refuses_a_key_built_at_run_time() -> None:
    ok = 'msg("{actor} begins.", actor=seat(1))\nN_("Block")\nmsg(table[k])\n'
    assert [key for key, _, _ in core_pot.calls(ok, "ok.py")] == ["{actor} begins.", "Block"]
    for built in ('msg(f"{n} cards")', 'msg("a" + b)', 'msg_n("one", f"{n}", n)', 'msg("")'):
        with pytest.raises(core_pot.KeyProblem, match=r"bad\.py:1"):
            list(core_pot.calls(built, "bad.py"))
    said = list(core_pot.calls('msg("{a} on {b}", a=seat(s), b=picture(p, n))', "x.py"))
    assert said[0][2] == {"a": "a player's name", "b": "a picture's name"}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalogue_translates_every_message_of_the_template(lang: str) -> None:
    wanted = [e.key for e in template()]
    entries = catalogue(lang)
    have = [e.key for e in entries]
    assert have == wanted, (f"{lang}: not the template's messages in its order: run "
                            "`python -m lanplay.tools.core_pot --sync` and translate")
    messages = [e for e in entries if e.msgid]
    assert not [e.msgid for e in messages if e.fuzzy], f"{lang}: fuzzy messages"
    empty = [e.msgid for e in messages if not e.translated
             or not all(s.strip() for s in e.msgstr)]
    assert not empty, f"{lang}: untranslated: {empty[:5]}"
    assert po.header(entries).get("Language") == lang
    plural = [e for e in messages if e.plural is not None]
    assert plural and all(len(e.msgstr) == 2 for e in plural)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translation_keeps_every_field_and_makes_no_new_one(lang: str) -> None:
    for entry in catalogue(lang):
        if not entry.msgid:
            continue
        wanted = fields(entry.msgid) | fields(entry.plural or "")
        for text in entry.msgstr:
            # a singular may say "1" where the English says {n}; nothing else may go
            assert fields(text) <= wanted, (entry.msgid, text)
            assert wanted - fields(text) <= ({"n"} if entry.plural else set()), \
                (entry.msgid, text)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalogue_is_translated_not_copied(lang: str) -> None:
    messages = [e for e in catalogue(lang) if e.msgid]
    same = [e.msgid for e in messages if e.msgstr[0] == e.msgid]
    assert len(same) < len(messages) * 0.05, f"{lang}: {same[:10]} are the English"


def msgfmt() -> str:
    found = shutil.which("msgfmt")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("msgfmt is missing: .ci/run installs Debian's gettext for this test")
        pytest.skip("needs msgfmt (Debian: apt-get install gettext)")
    return found


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_msgfmt_finds_every_message_translated_and_none_fuzzy(lang: str,
                                                              tmp_path: Path) -> None:
    out = tmp_path / "c.mo"
    done = subprocess.run([msgfmt(), "--check", "--statistics", "-o", str(out),
                           str(catalogue_path(lang, CORE_DOMAIN))],
                          capture_output=True, text=True, timeout=30,
                          env={**os.environ, "LC_ALL": "C"})
    assert done.returncode == 0, done.stderr
    count = len(template()) - 1
    assert done.stderr.strip() == f"{count} translated messages.", done.stderr
    theirs = gettext.GNUTranslations(out.open("rb"))
    ours = gettext.GNUTranslations(io.BytesIO(po.compile_mo(catalogue(lang))))
    assert ours._catalog == theirs._catalog  # type: ignore[attr-defined]
    assert ours.ngettext("Game over: {winner} wins with {n} point.",
                         "Game over: {winner} wins with {n} points.", 3).endswith("{n} " + (
                             "Punkten." if lang == "de" else "puntos."))
