"""Texts that travel as keys: a message id plus typed arguments, rendered on each laptop.

What a person reads and the host composes (log lines, refusal and rejection
reasons, game-over texts, the texts in a game's view) is never a finished
sentence: it is a message whose ``key`` is the English template and whose
``args`` fill its ``{name}`` fields. Each laptop renders it in its own language
with ``render`` (the ``lanplay`` gettext domain; content it names through
``lanplay-content``), filling seats with the names *it* shows. A laptop whose
catalogue lacks the key (an older one) or a client without gettext still
shows the English: the key is the fallback. docs/PROTOCOL.md "Texts travel as
keys" is the wire contract; in short::

    {"key": "{actor} lays {picture} on tier {tier}.",
     "args": {"actor": {"seat": 2}, "picture": {"picture": "broom", "text": "Broom"},
              "tier": "S"}}

An argument is one of:

* a number (int or float);
* a str shown as it is: a name, a card label ("7 (III)"), a tier letter;
* ``{"seat": n}``: the name of seat n on this laptop;
* ``{"seats": [n, ...]}``: those names, as "A, B and C" in the language;
* ``{"<kind>": id, "text": english}``: content (``picture``, ``question``,
  ``topic``, ``ranking-top``, ...), translated by ``lanplay-content`` under the
  context ``<kind>:<id>`` when the English is the catalogue's (a custom pack's
  own picture keeps its name);
* ``{"list": [arg, ...]}``: the items, as "a, b, c"; with ``"join": "and"`` as
  "a, b and c", with ``"join": "or"`` as "a, b or c";
* a message (a map with ``key``): rendered in turn.

A message with ``"plural"`` (the English plural template) picks singular or
plural form by its argument ``n`` (``ngettext``).

Python code builds messages with ``msg``/``msg_n`` and the argument helpers;
``python -m lanplay.tools.core_pot`` extracts every literal key of those calls
(and of ``N_``) into the template, so no key escapes the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lanplay.locale import CONTENT_DOMAIN, CORE_DOMAIN, catalogue, language

CONTENT_KINDS = frozenset({"picture", "question", "topic", "category", "axis", "game",
                           "game-summary", "mode", "mode-help", "option", "option-help",
                           "choice", "ranking-top"})
"""The kinds of content argument: the first part of a ``lanplay-content`` msgctxt."""

MAX_DEPTH = 4
"""Messages inside messages, at most this deep (what came over the wire may be junk)."""
MAX_ITEMS = 64
MAX_TEXT = 1000
"""Characters of a rendered message kept: a host's words are a sentence or two."""

_FIELD = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")
_POSITIONAL = re.compile(r"\{\{|\}\}|\{([0-9]{1,2})\}")


def N_(key: str) -> str:
    """Marks a literal key kept in a table (``TEAM_NAMES``) for the extractor; the
    code passes it to ``msg`` later."""
    return key


_SEAT = N_("seat {n}")
"""A seat this laptop has no name for (a message of an older game, the English reason)."""
_SOMEONE = N_("someone")
_COMMA = N_("{first}, {second}")
_FINAL = {"comma": _COMMA, "and": N_("{first} and {second}"), "or": N_("{first} or {second}")}
_POINT = N_("decimal point: .")
"""Translated to end in the language's decimal separator (German and Spanish: ",")."""


# --- building messages (the host side) ----------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A seat, named on each laptop by the name it shows."""

    seat: int

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class Seats:
    """Several seats, as "A, B and C"."""

    seats: tuple[int, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"seats": list(self.seats)}


@dataclass(frozen=True)
class Content:
    """A text of the content (a picture's name, a question): ``kind:id`` is its
    ``lanplay-content`` msgctxt, ``text`` the English (the fallback)."""

    kind: str
    id: str
    text: str

    def to_wire(self) -> dict[str, Any]:
        return {self.kind: self.id, "text": self.text}


JOINS = ("comma", "and", "or")


@dataclass(frozen=True)
class Items:
    """A list of arguments: "a, b, c" (``join`` "comma"), "a, b and c" ("and") or
    "a, b or c" ("or")."""

    items: tuple[Arg, ...]
    join: str = "comma"

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"list": [_arg_wire(i) for i in self.items]}
        if self.join != "comma":
            out["join"] = self.join
        return out


@dataclass(frozen=True)
class Msg:
    """A message: the English template ``key``, its arguments, and for a count the
    English ``plural`` (chosen by the argument ``n``). A value, so a state holding
    one stays a value."""

    key: str
    args: tuple[tuple[str, Arg], ...] = ()
    plural: str | None = None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key}
        if self.args:  # left out when empty: a log holds hundreds of messages
            out["args"] = {name: _arg_wire(value) for name, value in self.args}
        if self.plural is not None:
            out["plural"] = self.plural
        return out

    def english(self, names: Sequence[str] = ()) -> str:
        """The English text, seats named from ``names`` (else "seat 3")."""
        return render(self.to_wire(), names, "en")

    def seats(self) -> tuple[int, ...]:
        """Every seat the message names, in the order of its arguments."""
        return tuple(_seats_in(self))

    def __str__(self) -> str:
        return self.english()


Arg = int | float | str | Seat | Seats | Content | Items | Msg


def _arg_wire(value: Arg) -> Any:
    if isinstance(value, (Seat, Seats, Content, Items, Msg)):
        return value.to_wire()
    return value


def _seats_in(value: Any) -> Iterator[int]:
    if isinstance(value, Seat):
        yield value.seat
    elif isinstance(value, Seats):
        yield from value.seats
    elif isinstance(value, Items):
        for item in value.items:
            yield from _seats_in(item)
    elif isinstance(value, Msg):
        for _, arg in value.args:
            yield from _seats_in(arg)


def msg(key: str, /, **args: Arg) -> Msg:
    """A message; ``key`` must be a literal str (the extractor reads it)."""
    return Msg(key, tuple(args.items()))


def msg_n(singular: str, plural: str, n: int, /, **args: Arg) -> Msg:
    """A message whose form follows the count ``n`` (also its argument ``{n}``)."""
    return Msg(singular, (("n", n), *args.items()), plural)


def seat(n: int) -> Seat:
    return Seat(n)


def seats(ns: Sequence[int]) -> Seats:
    return Seats(tuple(ns))


def items(values: Sequence[Arg], join: str = "comma") -> Items:
    if join not in JOINS:
        raise ValueError(f"join is one of {JOINS}, not {join!r}")
    return Items(tuple(values), join)


def picture(picture_id: str, text: str) -> Content:
    return Content("picture", picture_id, text)


def question(question_id: str, text: str) -> Content:
    return Content("question", question_id, text)


def topic(topic_id: str, text: str) -> Content:
    return Content("topic", topic_id, text)


def content(kind: str, ident: str, text: str) -> Content:
    """Any ``lanplay-content`` text: a game's name is ``content("game", "ranking", "Ranking")``."""
    return Content(kind, ident, text)


class Problem(ValueError):
    """A ValueError whose words are a message: its str is the English, and whoever
    passes it on to a laptop sends ``message``."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.english())
        self.message = message


def as_msg(value: Msg | str) -> Msg:
    """A message as it is, a str as a message with no arguments (a text nobody keyed:
    it is shown as it is, and the catalogue tests find it)."""
    return value if isinstance(value, Msg) else Msg(value)


# --- rendering (each laptop) -------------------------------------------------------------


WIRE_FIELDS = frozenset({"key", "args", "plural", "seats"})
"""A message's fields on the wire (``seats``: a log line's)."""


def is_message(value: Any) -> bool:
    """Whether ``value`` has the wire shape of a message: a map with a str ``key``, maybe
    a map of ``args`` and a ``plural``, and nothing else (a view's timer has a ``key``
    too, and its ``seconds``)."""
    return (isinstance(value, Mapping) and isinstance(value.get("key"), str)
            and isinstance(value.get("args", {}), Mapping) and value.keys() <= WIRE_FIELDS)


def render(message: Any, names: Sequence[str] = (), lang: str | None = None) -> str:
    """A message in ``lang`` (default: ``lanplay.locale.language()``), seats named from
    ``names``. Takes the wire map, a ``Msg``, a plain str (shown as it is) or a log
    entry of an older host (``{"text": "{0} leads.", "seats": [1]}``); whatever
    came over the wire, it returns a str and never raises."""
    if isinstance(message, Msg):
        message = message.to_wire()
    out = _Renderer(names, lang or language()).message(message, 0)
    return out[:MAX_TEXT]


def content_text(kind: str, ident: str, text: str, lang: str | None = None) -> str:
    """A content text (a picture's name) in ``lang``: the catalogue's translation when
    ``text`` is the built-in English of ``kind:ident``, else ``text`` itself."""
    return catalogue(CONTENT_DOMAIN, lang or language()).pgettext(f"{kind}:{ident}", text)


def fill(template: str, values: Mapping[str, str], limit: int | None = None) -> str | None:
    """``template`` with its ``{name}`` fields filled (``{{`` and ``}}`` are braces);
    None when it names a field ``values`` lacks. No attribute or index lookups,
    whatever the template says: it may have come from the wire. With ``limit``, the
    filling stops once the text passes it (a key of 333 fields of 1,000 characters
    each, nested, made a peer build gigabytes): the result is then cut to ``limit``."""
    missing = False
    made = 0

    def one(match: re.Match[str]) -> str:
        nonlocal missing, made
        whole = match.group(0)
        if whole in ("{{", "}}"):
            return whole[0]
        name = match.group(1)
        if name not in values:
            missing = True
            return whole
        if limit is not None and made > limit:
            return ""
        made += len(values[name])
        return values[name]

    out = _FIELD.sub(one, template)
    if missing:
        return None
    return out if limit is None else out[:limit]


def fields(template: str) -> set[str]:
    """The names of ``template``'s fields (a translation must keep them all)."""
    return {m.group(1) for m in _FIELD.finditer(template) if m.group(1)}


class _Renderer:
    def __init__(self, names: Sequence[str], lang: str) -> None:
        self.names = names
        self.lang = lang
        self.core = catalogue(CORE_DOMAIN, lang)

    def message(self, value: Any, depth: int) -> str:
        if isinstance(value, str):
            return value
        if not isinstance(value, Mapping):
            return ""
        key = value.get("key")
        if not isinstance(key, str):
            if isinstance(value.get("text"), str):  # an older host's log entry
                return self._legacy(value)
            return ""
        key = key[:MAX_TEXT]
        if not key:  # gettext's "" is the catalogue's header, never a text
            return ""
        raw = value.get("args")
        args = raw if isinstance(raw, Mapping) else {}
        values = {str(k)[:40]: self.arg(v, depth + 1)
                  for k, v in list(args.items())[:MAX_ITEMS]}
        english = key
        plural = value.get("plural")
        n = args.get("n")
        if isinstance(plural, str) and isinstance(n, int) and not isinstance(n, bool):
            translated = self.core.ngettext(key, plural[:MAX_TEXT], n)
            english = key if n == 1 else plural[:MAX_TEXT]
        else:
            translated = self.core.gettext(key)
        for template in (translated, english):
            done = fill(template, values, MAX_TEXT)
            if done is not None:
                return done
        return english[:MAX_TEXT]

    def arg(self, value: Any, depth: int) -> str:
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return self.number(value)
        if isinstance(value, str):
            return value[:MAX_TEXT]
        if not isinstance(value, Mapping) or depth > MAX_DEPTH:
            return "?"
        if "key" in value:
            return self.message(value, depth)
        if "seat" in value:
            return self.seat(value["seat"])
        if "seats" in value:
            listed = value["seats"]
            return self.joined([self.seat(s) for s in listed[:MAX_ITEMS]]
                               if isinstance(listed, list) else [], "and")[:MAX_TEXT]
        if "list" in value:
            listed = value["list"]
            join = value.get("join")
            return self.joined([self.arg(v, depth + 1) for v in listed[:MAX_ITEMS]]
                               if isinstance(listed, list) else [],
                               join if join in JOINS else "comma")[:MAX_TEXT]
        text = value.get("text")
        text = text[:MAX_TEXT] if isinstance(text, str) else "?"
        for kind, ident in value.items():
            if kind in CONTENT_KINDS and isinstance(ident, str):
                return content_text(kind, ident[:200], text, self.lang)
        return text

    def seat(self, value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value < len(self.names):
                return str(self.names[value])
            return self.message({"key": _SEAT, "args": {"n": value + 1}}, MAX_DEPTH)
        return self.core.gettext(_SOMEONE)

    def joined(self, parts: list[str], join: str) -> str:
        if not parts:
            return ""
        comma = self.core.gettext(_COMMA)
        last = self.core.gettext(_FINAL[join])
        out = parts[0]
        for i, part in enumerate(parts[1:], start=2):
            template = last if i == len(parts) else comma
            out = fill(template, {"first": out, "second": part}) or f"{out}, {part}"
            if len(out) > MAX_TEXT:  # the rest would be cut anyway
                break
        return out[:MAX_TEXT]

    def number(self, value: float) -> str:
        if value != value or value in (float("inf"), float("-inf")):
            return "?"
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:g}".replace(".", self.core.gettext(_POINT)[-1:] or ".")

    def _legacy(self, entry: Mapping[str, Any]) -> str:
        """``{0}``, ``{1}`` ... for the names of ``seats``, as version-2 hosts wrote lines."""
        listed = entry.get("seats")
        filled = [self.seat(s) for s in listed[:MAX_ITEMS]] if isinstance(listed, list) else []
        text = str(entry["text"])[:MAX_TEXT]
        done = _POSITIONAL.sub(lambda m: m.group(0)[0] if m.group(1) is None
                               else filled[int(m.group(1))] if int(m.group(1)) < len(filled)
                               else m.group(0), text)
        return done[:MAX_TEXT]


__all__ = ["CONTENT_KINDS", "JOINS", "N_", "Arg", "Content", "Items", "Msg", "Problem", "Seat",
           "Seats", "as_msg", "content", "content_text", "fields", "fill", "is_message", "items",
           "msg", "msg_n", "picture", "question", "render", "seat", "seats", "topic"]
