"""The window's catalogue (``lanplay-ui``): the template is what ui/ marks, German and
Spanish translate every message, none fuzzy, none empty, none a copy, every field
kept; and no widget of ui/ is handed an English literal that skipped ``_``.

``msgfmt --check --statistics`` (GNU gettext) is the judge the issue names; lanplay's
own reader must agree with it, so a laptop without gettext loads the same words."""

from __future__ import annotations

import ast
import gettext
import io
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lanplay.locale import LANGUAGES, catalogue_path, po, template_path
from lanplay.messages import fields
from ui.tools import locale_pot
from ui.words.i18n import UI_DOMAIN

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
UI = Path(locale_pot.__file__).resolve().parent


def template() -> list[po.Entry]:
    return po.parse(template_path(UI_DOMAIN).read_text(encoding="utf-8"))


def catalogue(lang: str) -> list[po.Entry]:
    path = catalogue_path(lang, UI_DOMAIN)
    return po.parse(path.read_text(encoding="utf-8"), str(path))


def test_the_template_is_what_the_code_gives() -> None:
    assert template_path(UI_DOMAIN).read_text(encoding="utf-8") == locale_pot.render(), (
        "lanplay/locale/lanplay-ui.pot is out of date: run `python -m ui.tools.locale_pot "
        "--write`, then `--sync` and translate")


def test_the_template_holds_the_words_of_every_part_of_the_window() -> None:
    keys = {e.msgid for e in template()}
    for key in ("Host a game\u2026",                    # Home
                "I'm ready",                             # the room
                "Hide log",                              # a table's bar
                "Trick {n}",                             # Alles klar?'s banner
                "Language",                              # Settings
                "Checked on this laptop: the shuffle came from everyone, every move "
                "followed the rules"):                   # the end screen's verdict
        assert key in keys, key
    plurals = {e.msgid: e.plural for e in template() if e.plural}
    assert plurals["{n} watching"] == "{n} watching"


def test_the_extractor_refuses_a_text_built_at_run_time() -> None:
    ok = '_("Ready")\nN_("Block")\n_(table[k])\nngettext("{n} card", "{n} cards", n)\n'
    assert [f["msgid"] for _, _, f in locale_pot.calls(ok, "ok.py")] == \
        ["Ready", "Block", "{n} card"]
    for built in ('_(f"{n} cards")', '_("a" + b)', 'ngettext("one", f"{n}", n)'):
        with pytest.raises(locale_pot.MarkProblem, match=r"bad\.py:1"):
            list(locale_pot.calls(built, "bad.py"))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalogue_translates_every_message_of_the_template(lang: str) -> None:
    wanted = [e.key for e in template()]
    entries = catalogue(lang)
    assert [e.key for e in entries] == wanted, (
        f"{lang}: not the template's messages in its order: run `python -m "
        "ui.tools.locale_pot --sync` and translate")
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
            # a singular may say "1" (or "einer") where the English says {n}
            assert fields(text) <= wanted, (entry.msgid, text)
            assert wanted - fields(text) <= ({"n"} if entry.plural else set()), \
                (entry.msgid, text)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalogue_is_translated_not_copied(lang: str) -> None:
    messages = [e for e in catalogue(lang) if e.msgid]
    same = [e.msgid for e in messages if e.msgstr[0] == e.msgid]
    # "Chat", "Bot", "{game} ({mode})": the same in the language, and few
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
    out = tmp_path / "ui.mo"
    done = subprocess.run([msgfmt(), "--check", "--statistics", "-o", str(out),
                           str(catalogue_path(lang, UI_DOMAIN))],
                          capture_output=True, text=True, timeout=30,
                          env={**os.environ, "LC_ALL": "C"})
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == f"{len(template()) - 1} translated messages.", done.stderr
    theirs = gettext.GNUTranslations(out.open("rb"))
    ours = gettext.GNUTranslations(io.BytesIO(po.compile_mo(catalogue(lang))))
    assert ours._catalog == theirs._catalog  # type: ignore[attr-defined]
    word = ours.ngettext("{n} watching", "{n} watching", 3).format(n=3)
    assert word != "3 watching" and "3" in word


# --- no English slips past _ --------------------------------------------------------

SHOWN = {"setText", "setToolTip", "setWindowTitle", "setPlaceholderText", "addAction",
         "addMenu", "setStatusTip", "QLabel", "QPushButton", "QCheckBox", "QRadioButton",
         "QGroupBox", "QAction", "addItem", "addTab", "setTitle", "setHeaderLabels",
         "showMessage", "QMessageBox", "setInformativeText", "addRow", "setTabText",
         "setItemText", "addButton", "setLabelText", "label", "button", "toast",
         "show_state", "_caption", "say", "show_error", "set_end_status", "show_verdict"}
"""Calls that put their text on the screen (Qt's, and ui.look.widgets' helpers)."""
MARKED = {"_", "N_", "ngettext", "pgettext", "in_language", "content", "content_text",
          "render", "get"}
"""A literal inside these is translated (or is a key of a view, as ``view.get("pile")``)."""
NAMES = {"lanplay", "TOP!", "Severlá", "F1", "Esc", "Enter"}
"""Names, the same in every language (a Ranking Top song's title)."""
SKIP = {"locale_pot.py", "fit.py", "screenshots.py", "screenshot_tables.py"}
"""Tools that speak to a developer, not to a player."""


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else \
        func.id if isinstance(func, ast.Name) else None


def _literals(node: ast.AST) -> Iterator[str]:
    """The str literals that reach the call's text untranslated."""
    if isinstance(node, ast.Call):
        name = _call_name(node)
        if name in MARKED:
            return
        if name == "format" and isinstance(node.func, ast.Attribute):
            yield from _literals(node.func.value)  # the template; its fields' values
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                yield from _literals(arg)
            return
    if isinstance(node, ast.Subscript):  # theme roles, view["key"]
        yield from _literals(node.value)
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
        return
    for child in ast.iter_child_nodes(node):
        yield from _literals(child)


def unmarked(source: str) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _call_name(node) in SHOWN:
            name = _call_name(node)
            shown = [*node.args, *(k.value for k in node.keywords)]
            if name in ("label", "button"):  # then a theme role
                shown = node.args[:1]
            elif name == "say" and len(node.args) > 1:  # a notice's key, then its words
                shown = shown[1:]
            for arg in shown:
                for text in _literals(arg):
                    if re.search(r"[A-Za-z]{2}", text) and text.strip(" —") not in NAMES:
                        yield node.lineno, text


def test_the_check_catches_an_unmarked_text() -> None:
    found = list(unmarked('b.setText("Ready")\nb.setToolTip(_("Fine"))\n'
                          'QLabel(_("{n} of {m}").format(n=1, m="all"))\n'
                          'label("Late", "muted")\nlabel(_("Ok"), "muted")\n'
                          'x.setText(view.get("pile"))\nn.say("lonely", _("Alone"))\n'
                          'banner.say("Paused")\n'))
    assert found == [(1, "Ready"), (3, "all"), (4, "Late"), (8, "Paused")]


def test_no_window_text_is_an_english_literal_that_skips_the_catalogue() -> None:
    problems = []
    for path in sorted(UI.rglob("*.py")):
        if path.name in SKIP:
            continue
        for line, text in unmarked(path.read_text(encoding="utf-8")):
            problems.append(f"{path.relative_to(UI.parent)}:{line}: {text!r}")
    assert not problems, "shown without _():\n" + "\n".join(problems)
