"""``python -m ui.tools.locale_pot``: the template of the window's ``lanplay-ui`` domain.

Every literal passed to ``_``, ``N_``, ``ngettext`` and ``pgettext`` (ui/words/i18n.py)
anywhere under ui/, read from the sources' syntax trees (nothing is imported,
so no Qt is needed), in the order the files and lines give. A ``# translators:``
comment on the lines just above such a call goes to the translator as a
``#.`` line; every message names the files it is used in. A message with
``{name}`` fields is flagged ``python-brace-format``, so ``msgfmt --check``
holds each translation to the same fields.

    python -m ui.tools.locale_pot            # print the template
    python -m ui.tools.locale_pot --write    # rewrite lanplay/locale/lanplay-ui.pot
    python -m ui.tools.locale_pot --check    # exit 1 if the committed template differs
    python -m ui.tools.locale_pot --sync     # carry the template into every language
    python -m ui.tools.locale_pot --sync fr  # ... or start a new one

``--sync`` keeps every translation whose message is still in the template,
adds the new ones empty (tests/test_locale_ui.py then fails until they are
translated) and drops the rest.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lanplay.locale import po, tool

UI = Path(__file__).resolve().parents[1]
ROOT = UI.parent
DOMAIN = "lanplay-ui"
CALLS: dict[str, tuple[str | None, ...]] = {
    "_": ("msgid",), "N_": ("msgid",), "ngettext": ("msgid", "plural"),
    "pgettext": ("context", "msgid"), "in_language": (None, "msgid")}
"""The marking functions and what their leading arguments are (None: not a text)."""
TRANSLATORS = re.compile(r"#\s*translators:\s*(.*)", re.IGNORECASE)
FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}")

HEADER = (
    "Project-Id-Version: lanplay\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=UTF-8\n"
    "Content-Transfer-Encoding: 8bit\n"
)


class MarkProblem(ValueError):
    """A marked call whose text no catalogue could hold (an f-string, a sum)."""


@dataclass
class Found:
    msgid: str
    context: str | None = None
    plural: str | None = None
    files: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr if isinstance(node.value, ast.Name) and node.value.id == "i18n" \
            else None
    return None


def calls(source: str, where: str) -> Iterator[tuple[int, str, dict[str, str]]]:
    """Each marked call with literal texts: its line, function and fields. A call
    whose text is built at run time from literals (an f-string) is an error; one
    that passes a variable on is not (it translates what ``N_`` marked)."""
    tree = ast.parse(source, where)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name not in CALLS:
            continue
        wanted = CALLS[name]
        found: dict[str, str] = {}
        for role, arg in zip(wanted, node.args, strict=False):
            if role is None:
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found[role] = arg.value
            elif isinstance(arg, ast.JoinedStr | ast.BinOp):
                raise MarkProblem(f"{where}:{node.lineno}: {name}() of a text built at run "
                                  "time; mark the template and .format() it")
        if len(found) == sum(1 for role in wanted if role is not None):
            yield node.lineno, name, found


def _comments(lines: list[str], lineno: int) -> list[str]:
    """``# translators:`` lines just above line ``lineno`` (1-based), or on it."""
    out: list[str] = []
    same = TRANSLATORS.search(lines[lineno - 1]) if lineno <= len(lines) else None
    at = lineno - 2
    while at >= 0 and lines[at].strip().startswith("#"):
        match = TRANSLATORS.search(lines[at])
        if match:
            out.insert(0, match.group(1).strip())
        at -= 1
    if same:
        out.append(same.group(1).strip())
    return out


def sources() -> list[Path]:
    return sorted(p for p in UI.rglob("*.py") if p.name != "locale_pot.py")


def found(paths: list[Path] | None = None) -> list[Found]:
    """Every message, first use first; one message used in several files lists each."""
    out: dict[tuple[str | None, str], Found] = {}
    for path in paths or sources():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        lines = text.splitlines()
        for lineno, _fn, fields in sorted(calls(text, rel), key=lambda c: c[0]):
            key = (fields.get("context"), fields["msgid"])
            entry = out.get(key)
            if entry is None:
                entry = out[key] = Found(fields["msgid"], fields.get("context"),
                                         fields.get("plural"))
            elif fields.get("plural") != entry.plural:
                raise MarkProblem(f"{rel}:{lineno}: {entry.msgid!r} with two plurals")
            if rel not in entry.files:
                entry.files.append(rel)
            for comment in _comments(lines, lineno):
                if comment not in entry.comments:
                    entry.comments.append(comment)
    return list(out.values())


def _flags(message: Found) -> list[str]:
    texts = [message.msgid, message.plural or ""]
    return ["python-brace-format"] if any(FIELD.search(t) for t in texts) else []


def entries() -> list[po.Entry]:
    head = po.Entry("", [HEADER], comments=[
        f"Template of the {DOMAIN} domain (the window's own words): extracted by",
        "`python -m ui.tools.locale_pot --write`; edit the sources, not this file."])
    out = [head]
    for message in found():
        out.append(po.Entry(message.msgid, ["", ""] if message.plural is not None else [""],
                            message.context, message.plural, _flags(message),
                            [", ".join(message.files), *message.comments]))
    return out


def render() -> str:
    return po.render(entries())


def new_header(lang: str) -> po.Entry:
    return po.new_header(lang, "the lanplay window's own words.")


def sync(lang: str) -> tuple[int, int]:
    """Bring ``lang``'s catalogue in line with the template (made when missing);
    returns how many messages were added and dropped."""
    return tool.sync(DOMAIN, lang, entries(), new_header(lang))


def main(argv: list[str] | None = None) -> int:
    return tool.main(argv, module="ui.tools.locale_pot", domain=DOMAIN, doc=__doc__,
                     entries=entries, header=new_header, problems=(MarkProblem,))


if __name__ == "__main__":
    sys.exit(main())
