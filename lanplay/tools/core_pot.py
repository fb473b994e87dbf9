"""``python -m lanplay.tools.core_pot``: the template of the ``lanplay`` domain, from the code.

Every message the core builds (``lanplay.messages``: the log lines, refusal and
rejection reasons, game-over texts, what the headless commands print) is a
call of ``msg``, ``msg_n`` or ``N_`` whose key is a literal str. This reads
every module of the ``lanplay`` package with the standard library's ``ast``
and collects those keys, so the template cannot drift from the code
(tests/test_locale_core.py fails when the committed one differs).

Why ``ast`` and not Babel or xgettext: the keys are our own calls (``msg(key,
actor=seat(...))``), not ``gettext()``; reading them needs twenty lines, no
package in the test extra and no GNU tool on Windows, and the same walk checks
what an extractor cannot: a key built at run time (an f-string, a ``+``) is
an error here, since no catalogue could hold it. A key kept in a table is
marked ``N_("...")`` where it is written.

Each message says where it is used and what its fields hold (a player's name,
a picture, a phrase translated on its own), read from the call's arguments.

    python -m lanplay.tools.core_pot            # print the template
    python -m lanplay.tools.core_pot --write    # rewrite lanplay/locale/lanplay.pot
    python -m lanplay.tools.core_pot --check    # exit 1 if the committed template differs
    python -m lanplay.tools.core_pot --sync     # carry the template into every language
    python -m lanplay.tools.core_pot --sync fr  # ... or start a new one
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lanplay.locale import CORE_DOMAIN, po, tool

PACKAGE = Path(__file__).resolve().parents[1]
MARKERS = {"msg": 1, "msg_n": 2, "N_": 1}
"""The functions whose first literal arguments are keys (``msg_n``: singular, plural)."""

ARG_WORDS = {
    "seat": "a player's name", "_seat": "a player's name",
    "seats": "players' names, as 'A, B and C'", "names": "players' names, as 'A, B and C'",
    "picture": "a picture's name", "picture_word": "a picture's name",
    "word": "a picture's or card's name", "_name": "a picture's or frog's name",
    "question": "a Ranking question", "question_word": "a Ranking question",
    "topic": "an S-tier topic", "game_word": "a game's name", "mode_word": "a mode's name",
    "items": "a list, as 'a, b, c'", "msg": "a phrase, translated on its own",
    "msg_n": "a phrase, translated on its own", "_waiting": "a sentence, translated on its own",
    "_what_now": "a phrase, translated on its own", "_play_text": "a phrase, translated on "
    "its own", "_outcome": "a phrase, translated on its own",
}
"""What a field holds, by the function that makes its argument (for the translator)."""

HEADER = (
    "Project-Id-Version: lanplay\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=UTF-8\n"
    "Content-Transfer-Encoding: 8bit\n"
    "Plural-Forms: nplurals=2; plural=(n != 1);\n"
)


class KeyProblem(ValueError):
    """A marked call whose key is not a literal str; the message names file and line."""


@dataclass
class Found:
    msgid: str
    plural: str | None
    files: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)


def _callee(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else None


def _field_word(value: ast.expr) -> str:
    if isinstance(value, ast.Call):
        name = _callee(value)
        if name in ARG_WORDS:
            return ARG_WORDS[name]
    return "a number or a word, shown as it is"


def calls(source: str, where: str) -> Iterator[tuple[str, str | None, dict[str, str]]]:
    """(key, plural, {field: what it holds}) of every marked call in ``source``."""
    found = [n for n in ast.walk(ast.parse(source, where)) if isinstance(n, ast.Call)]
    for node in sorted(found, key=lambda n: (n.lineno, n.col_offset)):
        name = _callee(node)
        if name not in MARKERS or not node.args:
            continue
        wanted = MARKERS[name]
        keys = [_literal(a) for a in node.args[:wanted]]
        if any(isinstance(a, ast.JoinedStr | ast.BinOp) for a in node.args[:wanted]):
            raise KeyProblem(f"{where}:{node.lineno}: {name}() needs a literal key, not one "
                             "built at run time (no catalogue could hold it)")
        if any(k is None for k in keys) or len(keys) < wanted:
            continue  # a key from a table of N_ marks (the marks are collected)
        if not keys[0]:
            raise KeyProblem(f"{where}:{node.lineno}: {name}() with an empty key (gettext "
                             "would answer with the catalogue's header)")
        fields = {kw.arg: _field_word(kw.value) for kw in node.keywords if kw.arg}
        if name == "msg_n":
            fields = {"n": "the number that picks the form", **fields}
        yield str(keys[0]), keys[1] if wanted == 2 else None, fields


def sources(root: Path = PACKAGE) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def collect(root: Path = PACKAGE) -> list[Found]:
    """Every key, in the order of the files and of the code in each."""
    found: dict[str, Found] = {}
    for path in sources(root):
        where = path.relative_to(root.parent).as_posix()
        for key, plural, fields in calls(path.read_text(encoding="utf-8"), where):
            entry = found.get(key)
            if entry is None:
                entry = found[key] = Found(key, plural)
            elif entry.plural != plural and plural is not None:
                if entry.plural is not None:
                    raise KeyProblem(f"{where}: {key!r} has two plurals: {entry.plural!r} "
                                     f"and {plural!r}")
                entry.plural = plural
            if where not in entry.files:
                entry.files.append(where)
            for name, word in fields.items():
                entry.fields.setdefault(name, word)
    return list(found.values())


def entries(root: Path = PACKAGE) -> list[po.Entry]:
    """The template's messages, header first."""
    head = po.Entry("", [HEADER], comments=[
        f"Template of the {CORE_DOMAIN} domain: generated by",
        "`python -m lanplay.tools.core_pot --write`; edit the sources, not this file."])
    out = [head]
    for item in collect(root):
        comments = [f"used in {', '.join(item.files)}"]
        comments += [f"{{{name}}}: {word}" for name, word in item.fields.items()
                     if f"{{{name}}}" in item.msgid or (item.plural and f"{{{name}}}"
                                                        in item.plural)]
        strings = ["", ""] if item.plural is not None else [""]
        out.append(po.Entry(item.msgid, strings, plural=item.plural, comments=comments))
    return out


def render(root: Path = PACKAGE) -> str:
    return po.render(entries(root))


def new_header(lang: str) -> po.Entry:
    return po.new_header(lang, "lanplay's own messages (log lines, refusals, the "
                               "commands' output).")


def sync(lang: str) -> tuple[int, int]:
    """Bring ``lang``'s catalogue in line with the template (made when missing);
    returns how many messages were added and dropped."""
    return tool.sync(CORE_DOMAIN, lang, entries(), new_header(lang))


def main(argv: list[str] | None = None) -> int:
    return tool.main(argv, module="lanplay.tools.core_pot", domain=CORE_DOMAIN, doc=__doc__,
                     entries=entries, header=new_header, problems=(KeyProblem, SyntaxError))


if __name__ == "__main__":
    sys.exit(main())
