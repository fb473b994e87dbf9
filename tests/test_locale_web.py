"""The browser page's catalogue (``lanplay-web``): the template is what the page marks,
German and Spanish translate every message with every field kept (msgfmt agrees),
and the host serves them to the page with the core's and the content's."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from lanplay.locale import LANGUAGES, catalogue_path, po, template_path
from lanplay.messages import fields
from lanplay.tools import web_pot
from lanplay.web import catalogues
from lanplay.web.catalogues import WEB_DOMAIN

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def test_the_template_is_what_the_page_marks() -> None:
    assert template_path(WEB_DOMAIN).read_text(encoding="utf-8") == po.render(
        web_pot.entries()), ("lanplay/locale/lanplay-web.pot is out of date: run `python -m "
                             "lanplay.tools.web_pot --write`, then `--sync` and translate")
    keys = {e.msgid for e in web_pot.entries()}
    assert {"Take a seat", "Reconnecting…", "Write the note", "Jump!"} <= keys


def test_the_extractor_refuses_a_text_built_at_run_time() -> None:
    ok = 'x = _("Ready");\nctx._("Round {n}", { n });\nngettext("{n} card", "{n} cards", n);\n'
    assert list(web_pot.calls(ok, "ok.js")) == [("Ready", None), ("Round {n}", None),
                                               ("{n} card", "{n} cards")]
    assert list(web_pot.calls("export function _(text, args) {}", "words.js")) == []
    for built in ("_(`${n} cards`)", "_(name)", 'ngettext("one", many, n)'):
        with pytest.raises(web_pot.MarkProblem, match=r"bad\.js:1"):
            list(web_pot.calls(built, "bad.js"))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_fields(lang: str) -> None:
    path = catalogue_path(lang, WEB_DOMAIN)
    entries = po.parse(path.read_text(encoding="utf-8"), str(path))
    assert [e.key for e in entries] == [e.key for e in web_pot.entries()]
    for entry in entries[1:]:
        assert entry.translated and not entry.fuzzy, entry.msgid
        wanted = fields(entry.msgid) | fields(entry.plural or "")
        for text in entry.msgstr:
            assert fields(text) <= wanted and wanted - fields(text) <= (
                {"n"} if entry.plural else set()), (entry.msgid, text)
    if shutil.which("msgfmt"):
        done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null",
                               str(path)], capture_output=True, text=True, timeout=30,
                              env={"LC_ALL": "C"})
        assert done.returncode == 0 and done.stderr.strip() == \
            f"{len(entries) - 1} translated messages.", done.stderr


def test_the_page_gets_every_catalogue_it_renders_with() -> None:
    de = json.loads(catalogues.as_json("de") or b"")
    assert de["domains"][WEB_DOMAIN]["Take a seat"] == "Platz nehmen"
    assert de["domains"][WEB_DOMAIN]["{n} watching"] == ["{n} schaut zu", "{n} schauen zu"]
    assert de["domains"]["lanplay"]["Slow down: too many moves at once."]
    assert de["domains"]["lanplay-content"]["picture:dog\x04Dog"] == "Hund"
    assert json.loads(catalogues.as_json("en") or b"")["domains"][WEB_DOMAIN] == {}
    assert catalogues.as_json("xx") is None
