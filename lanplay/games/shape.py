"""The small type language of the game reference, and the checker that holds values to it.

Each game declares what a client needs to know next to its rules, as pure data
(``lanplay/games/<game>/schema.py``): its phases, its actions and its view.
``python -m lanplay.tools.gamedoc`` renders docs/GAMES.md from those schemas,
and the conformance suite holds every view and action of seeded play against
them, so the document cannot drift from the code.

A *shape* is a map (a bare type name such as ``"int"`` stands for ``{"type": "int"}``):

* ``null``, ``bool``, ``int``, ``float``, ``number`` (an int or a float),
  ``str``, ``any``; numbers take ``min`` and ``max``, any scalar ``enum`` (the
  allowed values), a str ``hex`` (exactly that many lowercase hex digits);
* ``list`` of ``items`` (a shape), with ``min_items`` and ``max_items``;
* ``tuple``: an array whose ``items`` is a list of shapes, one per position;
* ``map``: exactly the keys of ``fields`` (``optional`` ones may be missing;
  ``extra``, a shape, lets any other key in);
* ``dict``: any str keys (``keys`` says what they name), ``values`` a shape;
* ``tagged``: a map whose ``tag`` key picks one of the map shapes in ``cases``.

Every shape may carry ``doc`` (what it means here), ``nullable`` (null allowed too)
and ``name``: a shape used in several places (a card) is described once under its
name, with its ``summary``.

The view's ``may`` key (every game, see ``MAY``) lists *action templates*: an
action to send as it is, or, with ``choose``, one whose named fields the seat
fills in within a *choice* (``CHOICE``: a number range, or the parts of an
S-tier note). ``fits`` tells whether an action is one a template allows.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

Shape = Mapping[str, Any] | str

SCALARS = ("null", "bool", "int", "float", "number", "str", "any")
COMPOUND = ("list", "tuple", "map", "dict", "tagged")
KEYS = {
    "type", "doc", "nullable", "min", "max", "enum", "hex", "items", "min_items", "max_items",
    "fields", "optional", "extra", "keys", "values", "tag", "cases", "name", "summary",
}
_HEX = frozenset("0123456789abcdef")


def norm(shape: Shape) -> Mapping[str, Any]:
    """The map form of a shape."""
    return {"type": shape} if isinstance(shape, str) else shape


def schema_of(module: str) -> Mapping[str, Any]:
    """The ``SCHEMA`` of the game whose rules package is ``module`` (the catalogue's
    ``Entry.module``), from its ``schema`` module."""
    found: Mapping[str, Any] = importlib.import_module(f"{module}.schema").SCHEMA
    return found


def shape_problems(shape: Any, path: str = "<root>") -> list[str]:
    """Where ``shape`` is not a well-formed shape (unknown keys or types), or []."""
    if isinstance(shape, str):
        return [] if shape in SCALARS else [f"{path}: unknown type {shape!r}"]
    if not isinstance(shape, Mapping):
        return [f"{path}: a shape is a type name or a map, not {type(shape).__name__}"]
    out = [f"{path}: unknown key {k!r}" for k in shape if k not in KEYS]
    kind = shape.get("type")
    if kind not in SCALARS and kind not in COMPOUND:
        return [*out, f"{path}: unknown type {kind!r}"]
    if "doc" in shape and not isinstance(shape["doc"], str):
        out.append(f"{path}: doc must be a str")
    if kind == "list":
        out += shape_problems(shape.get("items"), f"{path}[]")
    elif kind == "tuple":
        items = shape.get("items")
        if not isinstance(items, list):
            return [*out, f"{path}: a tuple's items are a list of shapes"]
        for i, item in enumerate(items):
            out += shape_problems(item, f"{path}[{i}]")
    elif kind == "map":
        fields = shape.get("fields", {})
        for key, sub in fields.items():
            out += shape_problems(sub, f"{path}.{key}")
        out += [f"{path}: optional {k!r} is not a field" for k in shape.get("optional", ())
                if k not in fields]
        if "extra" in shape:
            out += shape_problems(shape["extra"], f"{path}.*")
    elif kind == "dict":
        out += shape_problems(shape.get("values"), f"{path}.*")
    elif kind == "tagged":
        for tag, case in shape.get("cases", {}).items():
            case_path = f"{path}<{tag}>"
            out += shape_problems(case, case_path)
            if isinstance(case, Mapping) and tag not in (
                    case.get("fields", {}).get(shape.get("tag"), {}).get("enum", ())):
                out.append(f"{case_path}: its {shape.get('tag')!r} field must be enum [{tag!r}]")
    return out


# --- checking a value ------------------------------------------------------------


def problems(shape: Shape, value: Any, path: str = "", limit: int = 10) -> list[str]:
    """Where ``value`` does not have ``shape`` (at most ``limit`` places), or []."""
    out: list[str] = []
    for problem in _walk(norm(shape), value, path or "<root>"):
        out.append(problem)
        if len(out) >= limit:
            break
    return out


def _scalar(kind: str, value: Any) -> bool:
    t = type(value)
    if kind == "any":
        return True
    if kind == "null":
        return value is None
    if kind == "bool":
        return t is bool
    if kind == "int":
        return t is int
    if kind == "float":
        return t is float
    if kind == "number":
        return t is int or t is float
    return t is str


def _walk(shape: Mapping[str, Any], value: Any, path: str) -> Iterator[str]:
    if value is None and shape.get("nullable"):
        return
    kind = shape["type"]
    if kind in SCALARS:
        if not _scalar(kind, value):
            yield f"{path}: {_what(value)}, not {describe(shape)}"
            return
        if "enum" in shape and not any(type(value) is type(e) and value == e
                                       for e in shape["enum"]):
            yield f"{path}: {value!r:.60} is not one of {list(shape['enum'])!r:.120}"
        if kind in ("int", "float", "number"):
            if isinstance(value, float) and not math.isfinite(value):
                yield f"{path}: {value!r} is not a finite number"
            elif "min" in shape and value < shape["min"]:
                yield f"{path}: {value!r} is below {shape['min']!r}"
            elif "max" in shape and value > shape["max"]:
                yield f"{path}: {value!r} is above {shape['max']!r}"
        if "hex" in shape and not (len(value) == shape["hex"] and set(value) <= _HEX):
            yield f"{path}: {value!r:.80} is not {shape['hex']} lowercase hex digits"
        return
    if kind in ("list", "tuple"):
        if type(value) is not list:
            yield f"{path}: {_what(value)}, not an array"
            return
        if kind == "tuple":
            items = shape["items"]
            if len(value) != len(items):
                yield f"{path}: {len(value)} items, not {len(items)}"
                return
            for i, (item, sub) in enumerate(zip(value, items, strict=True)):
                yield from _walk(norm(sub), item, f"{path}[{i}]")
            return
        if len(value) < shape.get("min_items", 0):
            yield f"{path}: {len(value)} items, fewer than {shape['min_items']}"
        if "max_items" in shape and len(value) > shape["max_items"]:
            yield f"{path}: {len(value)} items, more than {shape['max_items']}"
        sub = norm(shape["items"])
        for i, item in enumerate(value):
            yield from _walk(sub, item, f"{path}[{i}]")
        return
    if type(value) is not dict:
        yield f"{path}: {_what(value)}, not a map"
        return
    if kind == "dict":
        sub = norm(shape["values"])
        for key, item in value.items():
            if type(key) is not str:
                yield f"{path}: the key {key!r:.40} is not a str"
            else:
                yield from _walk(sub, item, f"{path}.{key}")
        return
    if kind == "tagged":
        tag = value.get(shape["tag"])
        cases = shape["cases"]
        if not isinstance(tag, str) or tag not in cases:
            yield (f"{path}.{shape['tag']}: {tag!r:.40} is not one of "
                   f"{sorted(cases)!r:.120}")
            return
        yield from _walk(norm(cases[tag]), value, path)
        return
    yield from _map(shape, value, path)


def _map(shape: Mapping[str, Any], value: dict[Any, Any], path: str) -> Iterator[str]:
    fields: Mapping[str, Any] = shape.get("fields", {})
    optional = shape.get("optional", ())
    extra = shape.get("extra")
    for key in fields:
        if key not in value and key not in optional:
            yield f"{path}: the key {key!r} is missing"
    for key, item in value.items():
        sub = fields.get(key)
        where = f"{path}.{key}"
        if sub is None:
            if extra is None:
                yield f"{path}: the key {key!r:.40} is not in the reference"
            elif type(key) is not str:
                yield f"{path}: the key {key!r:.40} is not a str"
            else:
                yield from _walk(norm(extra), item, where)
        else:
            yield from _walk(norm(sub), item, where)


def _what(value: Any) -> str:
    names = {type(None): "null", bool: "a bool", int: "an int", float: "a float",
             str: "a str", list: "an array", dict: "a map", bytes: "bytes"}
    return f"{names.get(type(value), type(value).__name__)} {value!r:.40}"


# --- describing a shape in words (the reference's type column) --------------------


def describe(shape: Shape) -> str:
    """A short type, e.g. ``int 0-76``, ``array of int``, ``"play" | "pass"``, ``map``."""
    s = norm(shape)
    kind = s["type"]
    text = _describe(s, kind)
    return f"{text} or null" if s.get("nullable") else text


def _describe(s: Mapping[str, Any], kind: str) -> str:
    if "enum" in s:
        return " | ".join(_literal(e) for e in s["enum"])
    if kind in ("int", "float", "number"):
        lo, hi = s.get("min"), s.get("max")
        if lo is not None and hi is not None:
            return f"{kind} {_num(lo)} to {_num(hi)}"
        if lo is not None:
            return f"{kind} >= {_num(lo)}"
        if hi is not None:
            return f"{kind} <= {_num(hi)}"
        return str(kind)
    if kind == "str" and "hex" in s:
        return f"str ({s['hex']} lowercase hex digits)"
    if kind == "list":
        count = ""
        lo, hi = s.get("min_items"), s.get("max_items")
        if hi is not None and (lo or 0) == hi:
            count = f" ({hi})"
        elif hi is not None:
            count = f" ({lo or 0}-{hi})"
        elif lo:
            count = f" ({lo}+)"
        item = describe(s["items"])
        return f"array{count} of " + (f"({item})" if item.endswith(" or null") else item)
    if kind == "tuple":
        return "[" + ", ".join(describe(i) for i in s["items"]) + "]"
    if kind == "dict":
        return f"map of {s.get('keys', 'str')} to {describe(s['values'])}"
    if "name" in s:
        return str(s["name"])
    if kind == "tagged":
        return f"map by {s['tag']}"
    return str(kind)


def _literal(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _num(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return f"{value:.1f}"
    return repr(value)


# --- the shapes every game shares -------------------------------------------------

SEAT: Mapping[str, Any] = {"type": "int", "min": 0, "max": 15, "doc": "a seat, 0..players-1"}

_MESSAGE_FIELDS: Mapping[str, Any] = {
    "key": {"type": "str", "doc": "The English template, also the message's id in the "
            "`lanplay` catalogue: `{name}` fields are filled from `args` (`{{` and `}}` "
            "are plain braces)."},
    "args": {"type": "dict", "keys": "field name", "values": {"type": "any"},
             "doc": "Each field's argument: a number, a str shown as it is, `{\"seat\": n}`, "
             "`{\"seats\": [n, ...]}`, content (`{\"picture\": id, \"text\": English}`), "
             "`{\"list\": [...]}` or a message (docs/PROTOCOL.md, \"Texts travel as keys\"); "
             "left out when there are none."},
    "plural": {"type": "str", "doc": "The English plural template; the argument `n` picks "
               "the form."},
}

MESSAGE: Mapping[str, Any] = {
    "type": "map", "name": "message",
    "summary": "A text each laptop renders in its own language (`lanplay.messages.render`).",
    "fields": _MESSAGE_FIELDS, "optional": ["args", "plural"],
}

LOG_ENTRY: Mapping[str, Any] = {
    "type": "map", "name": "log line",
    "summary": "One public log line: a message, and the seats it is about.",
    "fields": {
        **_MESSAGE_FIELDS,
        "seats": {"type": "list", "items": SEAT,
                  "doc": "The seats the line is about (the first is the actor), as its "
                  "arguments name them."},
    },
    "optional": ["args", "plural"],
}

LOG: Mapping[str, Any] = {"type": "list", "items": LOG_ENTRY,
                          "doc": "Every public log line of the game so far, oldest first "
                          "(only ever appended to)."}

NUMBER_CHOICE: Mapping[str, Any] = {
    "type": "map",
    "doc": "Any finite number (int or float) from `min` to `max`, both included; "
           "null: no bound on that side.",
    "fields": {"kind": {"type": "str", "enum": ["number"]},
               "min": {"type": "number", "nullable": True},
               "max": {"type": "number", "nullable": True}},
}

NOTE: Mapping[str, Any] = {
    "type": "tagged", "tag": "form", "name": "note form",
    "summary": "What a valid S-tier note is.",
    "cases": {
        "arrangement": {
            "type": "map",
            "doc": "A list of `slots` entries (tiers S to D), each a picture id or null: one "
                   "id out of each entry of `choices` (a card shows one of its faces), each "
                   "in one slot, and exactly `empty` slots null.",
            "fields": {"form": {"type": "str", "enum": ["arrangement"]},
                       "slots": {"type": "int", "min": 1},
                       "choices": {"type": "list", "items": {"type": "list", "items": "str",
                                                             "min_items": 1}},
                       "empty": {"type": "int", "min": 0}},
        },
        "tiering": {
            "type": "map",
            "doc": "A list with a tier (0 = S .. `tiers` - 1 = D) for each of `pictures`, in "
                   "their order, every tier used at least `min_per_tier` and at most "
                   "`max_per_tier` times.",
            "fields": {"form": {"type": "str", "enum": ["tiering"]},
                       "pictures": {"type": "list", "items": "str"},
                       "tiers": {"type": "int", "min": 1},
                       "min_per_tier": {"type": "int", "min": 0},
                       "max_per_tier": {"type": "int", "min": 1}},
        },
    },
}

CHOICE: Mapping[str, Any] = {
    "type": "tagged", "tag": "kind", "name": "choice",
    "summary": "How a seat fills in one field of an action template.",
    "cases": {
        "number": NUMBER_CHOICE,
        "commitment": {
            "type": "map",
            "doc": "The note's commitment: 64 lowercase hex digits of SHA-256 over the tag, "
                   "a fresh 16-byte salt and the note, which must be a note as `note` says "
                   "(PROTOCOL.md, \"The S-tier note\"). Keep the note and the salt: the "
                   "reveal sends them.",
            "fields": {"kind": {"type": "str", "enum": ["commitment"]}, "note": NOTE},
        },
        "note": {
            "type": "map",
            "doc": "The note you committed to, exactly as its commitment hashed it.",
            "fields": {"kind": {"type": "str", "enum": ["note"]}, "note": NOTE},
        },
        "salt": {
            "type": "map",
            "doc": "The salt your note's commitment hashed: 32 lowercase hex digits.",
            "fields": {"kind": {"type": "str", "enum": ["salt"]}},
        },
        "faces": {
            "type": "map",
            "doc": "The face your note holds of each card, in the order of the note's "
                   "`choices` (an array of picture ids).",
            "fields": {"kind": {"type": "str", "enum": ["faces"]}},
        },
        "hint": {
            "type": "map",
            "doc": "One picture of your note and its tier, `{\"tier\": 0-4, \"picture\": id}`: "
                   "it is laid on the board for everyone (checked against the note at the "
                   "reveal).",
            "fields": {"kind": {"type": "str", "enum": ["hint"]}},
        },
        "formation": {
            "type": "map",
            "doc": "Your own deployment: an array of `count` positions `[x, y]` in mm, in "
                   "the order of your side's frogs, inside your side's sector (the view's "
                   "`sectors`), each frog's edge at least a palm from the pad's edge (centre "
                   "at least `sizes.deploy_min` from the pad's centre), discs not "
                   "overlapping, and the group connected with no gap wider than "
                   "`sizes.link` between centres.",
            "fields": {"kind": {"type": "str", "enum": ["formation"]},
                       "count": {"type": "int", "min": 1},
                       "side": {"type": "int", "min": 0}},
        },
    },
}

TEMPLATE: Mapping[str, Any] = {
    "type": "map", "name": "template",
    "summary": "An action you may send now. Without `choose`: send it exactly as it is. With "
           "`choose`: send it without `choose`, with a value for each field `choose` names, "
           "within that choice.",
    "fields": {"type": {"type": "str", "doc": "The action's type."},
               "choose": {"type": "dict", "keys": "field", "values": CHOICE,
                          "doc": "The fields you fill in, and how."}},
    "optional": ["choose"],
    "extra": {"type": "any", "doc": "The action's other fields, with the value to send."},
}

MAY: Mapping[str, Any] = {
    "type": "list", "items": TEMPLATE,
    "doc": "What you may send now (see \"What a seat may do\"); [] for a spectator, a seat "
           "that may not act now, and once the game is over.",
}


SHARED = ("log line", "template", "choice", "note form")
"""The named shapes every game shares (described once, before the games)."""


def view_shape(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """A mode's view shape with the ``may`` key every game's view ends with."""
    return {**view, "fields": {**view["fields"], "may": MAY}}


def action_shapes(name: str, spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The map shapes of an action's forms (most actions have one)."""
    out: list[Mapping[str, Any]] = []
    for form in spec.get("forms", (spec,)):
        fields = {"type": {"type": "str", "enum": [name]}, **form.get("fields", {})}
        out.append({"type": "map", "fields": fields, "optional": list(form.get("optional", ()))})
    return out


def action_problems(actions: Mapping[str, Any], action: Any) -> list[str]:
    """Why ``action`` is none of the ``actions`` a mode's schema declares, or []."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return ["an action is a map with a str 'type'"]
    spec = actions.get(action["type"])
    if spec is None:
        return [f"the action type {action['type']!r:.40} is not in the reference"]
    found: list[str] = []
    for shape in action_shapes(action["type"], spec):
        found = problems(shape, action, action["type"])
        if not found:
            return []
    return found


def fits(template: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    """Whether ``action`` is one that ``template`` allows, judged on its form alone
    (a number within its range, a commitment of the right length; whether a
    commitment hides a valid note only the reveal can tell)."""
    choose: Mapping[str, Any] = template.get("choose") or {}
    fixed = {k: v for k, v in template.items() if k != "choose"}
    if set(action) != set(fixed) | set(choose):
        return False
    for key, value in fixed.items():
        if type(action[key]) is not type(value) or action[key] != value:
            return False
    return all(_chosen(choice, action[key], action) for key, choice in choose.items())


def _chosen(choice: Mapping[str, Any], value: Any, action: Mapping[str, Any]) -> bool:
    kind = choice.get("kind")
    if kind == "number":
        if type(value) not in (int, float) or not math.isfinite(value):
            return False
        lo, hi = choice.get("min"), choice.get("max")
        return (lo is None or value >= lo) and (hi is None or value <= hi)
    if kind == "commitment":
        return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX
    if kind == "salt":
        return isinstance(value, str) and len(value) == 32 and set(value) <= _HEX
    if kind == "note":
        return note_problem(choice["note"], value) is None
    if kind == "faces":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "hint":
        return (isinstance(value, dict) and set(value) == {"tier", "picture"}
                and type(value["tier"]) is int and isinstance(value["picture"], str))
    if kind == "formation":
        return (isinstance(value, list) and len(value) == choice["count"]
                and all(isinstance(p, list) and len(p) == 2
                        and all(type(v) in (int, float) and math.isfinite(v) for v in p)
                        for p in value))
    return False


def note_problem(note: Mapping[str, Any], value: Any) -> str | None:
    """Why ``value`` is not a note of the form ``note`` describes, or None."""
    if not isinstance(value, list):
        return "a note is an array"
    if note["form"] == "tiering":
        pictures, tiers = note["pictures"], note["tiers"]
        if len(value) != len(pictures) or not all(type(t) is int and 0 <= t < tiers
                                                  for t in value):
            return f"a tier 0-{tiers - 1} for each of the {len(pictures)} pictures"
        used = [value.count(t) for t in range(tiers)]
        if min(used) < note["min_per_tier"] or max(used) > note["max_per_tier"]:
            return "a tier is used too few or too many times"
        return None
    choices: Sequence[Sequence[str]] = note["choices"]
    if len(value) != note["slots"] or sum(v is None for v in value) != note["empty"]:
        return f"{note['slots']} entries, {note['empty']} of them null"
    written = [v for v in value if v is not None]
    if len(written) != len(choices) or not all(isinstance(v, str) for v in written):
        return "one picture id per card"
    left = list(written)
    for options in choices:
        hit = next((v for v in left if v in options), None)
        if hit is None:
            return "one face of each card, each once"
        left.remove(hit)
    return None


__all__ = ["CHOICE", "LOG", "LOG_ENTRY", "MAY", "MESSAGE", "NOTE", "SEAT", "TEMPLATE", "Shape",
           "action_problems", "action_shapes", "describe", "fits", "norm", "note_problem",
           "problems", "schema_of", "shape_problems", "view_shape"]
