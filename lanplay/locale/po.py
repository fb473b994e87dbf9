"""Read and write gettext ``.po`` catalogues and compile them to ``.mo``, in pure Python.

Pure Python so that a laptop without GNU gettext (Windows, macOS, a bare
checkout) still gets working catalogues: ``lanplay.locale.translation``
compiles a ``.po`` in memory when no fresh ``.mo`` lies beside it, and
``python -m lanplay.tools.compile_locales`` writes the ``.mo`` files for a
wheel or the one-file app. What is read: ``msgctxt``, ``msgid``,
``msgid_plural``, ``msgstr`` / ``msgstr[n]``, continued lines, the C escapes,
``#`` and ``#.`` comments and ``#,`` flags; ``#:`` references and obsolete
``#~`` entries are skipped.
Compiling follows ``msgfmt``: fuzzy and untranslated entries are left out
(the header always goes in), keys are ``context\\x04msgid``.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CONTEXT_GLUE = "\x04"
"""Between a context and its msgid in a compiled key (what ``pgettext`` looks up)."""

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


class PoError(ValueError):
    """A ``.po`` file that cannot be read; the message names the line."""


@dataclass
class Entry:
    """One message: its key (context and id), its translation(s) and notes."""

    msgid: str
    msgstr: list[str] = field(default_factory=lambda: [""])
    context: str | None = None
    plural: str | None = None
    flags: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    """``#.`` lines: what the translator is told about the message."""
    notes: list[str] = field(default_factory=list)
    """``#`` lines: the translator's own (a catalogue's conventions, on its header)."""

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return all(self.msgstr) and bool(self.msgstr)


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, got {text!r}")
    body = text[1:-1]

    def one(match: re.Match[str]) -> str:
        char = match.group(1)
        if char not in _ESCAPES:
            raise PoError(f"{where}: unknown escape \\{char}")
        return _ESCAPES[char]

    return _ESCAPE.sub(one, body)


def parse(text: str, name: str = "<po>") -> list[Entry]:
    """Every non-obsolete entry of a ``.po`` text, the header (msgid "") included."""
    entries: list[Entry] = []
    flags: list[str] = []
    comments: list[str] = []
    notes: list[str] = []
    fields: dict[str, str] = {}
    current: str | None = None
    seen: set[tuple[str | None, str]] = set()

    def finish(where: str) -> None:
        nonlocal flags, comments, notes, fields, current
        if fields:
            if "msgid" not in fields:
                raise PoError(f"{where}: an entry without msgid")
            strs = sorted((k for k in fields if k.startswith("msgstr")), key=_plural_index)
            if not strs:
                raise PoError(f"{where}: msgid {fields['msgid']!r} has no msgstr")
            entry = Entry(fields["msgid"], [fields[k] for k in strs], fields.get("msgctxt"),
                          fields.get("msgid_plural"), flags, comments, notes)
            if entry.key in seen:
                raise PoError(f"{where}: msgid {entry.msgid!r} (context {entry.context!r}) "
                              "appears twice")
            seen.add(entry.key)
            entries.append(entry)
        flags, comments, notes, fields, current = [], [], [], {}, None

    lines = text.splitlines()
    for number, raw in enumerate([*lines, ""], start=1):
        where = f"{name}:{number}"
        line = raw.strip()
        if not line:
            finish(where)
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#"):
            if any(k.startswith("msgstr") for k in fields):
                finish(where)
            if line.startswith("#,"):
                flags.extend(f.strip() for f in line[2:].split(",") if f.strip())
            elif line.startswith("#."):
                comments.append(line[2:].strip())
            elif line == "#" or line.startswith("# "):
                notes.append(line[2:])
            continue
        if line.startswith('"'):
            if current is None:
                raise PoError(f"{where}: a continued string outside any field")
            fields[current] += _unquote(line, where)
            continue
        keyword, _, rest = line.partition(" ")
        if not re.fullmatch(r"msgctxt|msgid|msgid_plural|msgstr(\[\d+\])?", keyword):
            raise PoError(f"{where}: unknown line {line!r}")
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
            finish(where)
        if keyword in fields:
            raise PoError(f"{where}: {keyword} twice in one entry")
        fields[keyword] = _unquote(rest, where)
        current = keyword
    return entries


def _plural_index(keyword: str) -> int:
    match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
    return int(match.group(1)) if match else 0


def _quote(text: str) -> str:
    out = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
           .replace("\r", "\\r"))
    return '"' + out.replace("\n", "\\n") + '"'


def _field(keyword: str, text: str) -> list[str]:
    """One field; a text with line breaks is split after each, as gettext does."""
    if "\n" not in text.rstrip("\n"):
        return [f"{keyword} {_quote(text)}"]
    parts = text.splitlines(keepends=True)
    return [f'{keyword} ""', *(_quote(p) for p in parts)]


def render(entries: Iterable[Entry]) -> str:
    """A ``.po`` (or ``.pot``) text: one entry per paragraph, long strings unwrapped."""
    blocks: list[str] = []
    for entry in entries:
        lines = [f"# {n}" if n else "#" for n in entry.notes]
        lines += [f"#. {c}" if c else "#." for c in entry.comments]
        if entry.flags:
            lines.append("#, " + ", ".join(entry.flags))
        if entry.context is not None:
            lines += _field("msgctxt", entry.context)
        lines += _field("msgid", entry.msgid)
        if entry.plural is not None:
            lines += _field("msgid_plural", entry.plural)
            for i, s in enumerate(entry.msgstr):
                lines += _field(f"msgstr[{i}]", s)
        else:
            lines += _field("msgstr", entry.msgstr[0])
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def header(entries: Sequence[Entry]) -> dict[str, str]:
    """The header entry's fields (``Language``, ``Plural-Forms``, ...)."""
    for entry in entries:
        if entry.context is None and entry.msgid == "":
            out = {}
            for line in entry.msgstr[0].splitlines():
                name, sep, value = line.partition(":")
                if sep:
                    out[name.strip()] = value.strip()
            return out
    return {}


def compile_mo(entries: Iterable[Entry]) -> bytes:
    """The ``.mo`` bytes of ``entries`` (little-endian, no hash table, as gettext reads)."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        is_header = entry.context is None and entry.msgid == ""
        if not is_header and (entry.fuzzy or not entry.translated):
            continue
        key = entry.msgid if entry.context is None else \
            entry.context + CONTEXT_GLUE + entry.msgid
        if entry.plural is not None:
            key += "\0" + entry.plural
        pairs[key.encode("utf-8")] = "\0".join(entry.msgstr).encode("utf-8")
    keys = sorted(pairs)
    count = len(keys)
    originals_at = 28
    translations_at = originals_at + 8 * count
    data_at = translations_at + 8 * count
    tables = bytearray()
    blob = bytearray()
    for strings in (keys, [pairs[k] for k in keys]):
        for s in strings:
            tables += struct.pack("<II", len(s), data_at + len(blob))
            blob += s + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, data_at)
    return head + bytes(tables) + bytes(blob)


def new_header(lang: str, about: str) -> Entry:
    """The header of a new language's catalogue (``about``: what the domain holds, as a
    note for its translator); the translator fills in the rest."""
    return Entry("", [
        "Project-Id-Version: lanplay\n"
        "PO-Revision-Date: \n"
        "Last-Translator: \n"
        "Language-Team: \n"
        f"Language: {lang}\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 8bit\n"
        "Plural-Forms: nplurals=2; plural=(n != 1);\n"],
        notes=[f"{lang} translations of {about}"])


def sync_catalogue(path: Path, template: Sequence[Entry], head: Entry) -> tuple[int, int]:
    """Bring the catalogue at ``path`` in line with ``template`` (its header ``head`` when
    the file is new), keeping every translation still wanted, with its own flags (a
    fuzzy mark stays) and notes; a translation whose plural changed starts again.
    Returns how many messages were added and dropped."""
    old: dict[tuple[str | None, str], Entry] = {}
    if path.is_file():
        old = {e.key: e for e in parse(path.read_text(encoding="utf-8"), str(path))}
    out = [old.get(template[0].key) or head]
    for message in template[1:]:
        kept = old.get(message.key)
        same = kept is not None and kept.plural == message.plural
        out.append(Entry(message.msgid, kept.msgstr if kept is not None and same
                         else list(message.msgstr) or [""], message.context, message.plural,
                         kept.flags if kept is not None else list(message.flags),
                         message.comments, kept.notes if kept is not None else []))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(out), encoding="utf-8")
    keys = {m.key for m in template}
    added = sum(1 for m in template[1:] if m.key not in old)
    return added, sum(1 for k in old if k not in keys)
