"""A game's view as the host sends it, checked against the game's own reference.

Each game declares its view's shape (``lanplay/games/<game>/schema.py``, the
shapes of ``lanplay.games.shape``; docs/GAMES.md is made from them and seeded
play is held to them). A table and a bot read those fields by their declared
types: a host that sends ``turn: "x"`` or a hand of maps where card ids belong
would raise in code that trusted them. A peer checks each snapshot whole and each
delta by the fields it changes, before the view is shown or played from.

The shapes are compiled once into small checkers. Unlike the reference's own
check (``shape.problems``, strict for the documentation), keys the reference does
not know are let through: a later minor version may add fields, and no table
reads them. A delta is checked op by op at the shape its path leads to, so it
costs about a microsecond an op whatever the view's size; only an op that goes
into a map whose shape depends on its tag (a "last event" that changes kind) has
that one map checked after a trial apply.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from lanplay import games
from lanplay.games import shape as sh
from protocol import delta
from protocol.messages import ProtocolError

Check = Callable[[Any], "str | None"]
_MISSING: Any = object()
_HEX = frozenset("0123456789abcdef")


class Node:
    """One compiled shape: ``check(value)`` says why a value does not fit (or None);
    the rest lets a delta's path be followed into it."""

    __slots__ = ("cases", "check", "fields", "items", "kind", "max_items", "min_items",
                 "nullable", "paths", "required", "tag", "values")

    def __init__(self, kind: str, nullable: bool) -> None:
        self.kind = kind
        self.nullable = nullable
        self.check: Check = _fits_any
        self.fields: dict[str, Node] = {}
        self.required: frozenset[str] = frozenset()
        self.items: Node | list[Node] | None = None
        self.values: Node | None = None
        self.tag = ""
        self.cases: dict[str, Node] = {}
        self.min_items = 0
        self.max_items: int | None = None
        self.paths: dict[tuple[Any, ...], tuple[Node | None, Node | None, int]] = {}
        """(A root's) paths already followed: where each leads (see ``_resolve``)."""


def _fits_any(value: Any) -> str | None:
    return None


def compile_shape(shape: sh.Shape) -> Node:
    """The checker for ``shape`` (a reference shape, see ``lanplay.games.shape``)."""
    s = sh.norm(shape)
    kind: str = s["type"]
    node = Node(kind, bool(s.get("nullable")))
    if kind in sh.SCALARS:
        node.check = _scalar_check(s, kind, node.nullable)
    elif kind in ("list", "tuple"):
        _list(node, s)
    elif kind == "map":
        _map(node, s)
    elif kind == "dict":
        _dict(node, s)
    else:  # tagged
        _tagged(node, s)
    return node


_TYPES: dict[str, tuple[type, ...]] = {
    "null": (type(None),), "bool": (bool,), "int": (int,), "float": (float,),
    "number": (int, float), "str": (str,),
}


def _scalar_check(s: Mapping[str, Any], kind: str, nullable: bool) -> Check:
    if kind == "any" and "enum" not in s:
        return _fits_any
    types = _TYPES.get(kind)
    low, high = s.get("min"), s.get("max")
    enum = frozenset((type(e), e) for e in s.get("enum", ()))
    digits = s.get("hex")
    numeric = kind in ("int", "float", "number")

    def check(value: Any) -> str | None:
        if value is None and nullable:
            return None
        if types is not None and type(value) not in types:
            return f"{_what(value)}, not {kind}"
        if enum and not _among(value, enum):
            return f"{_short(value)} is not one of its values"
        if numeric:
            if type(value) is float and not math.isfinite(value):
                return f"{value!r} is not a finite number"
            if (low is not None and value < low) or (high is not None and value > high):
                return f"{_short(value)} is out of range"
        if digits is not None and not (len(value) == digits and set(value) <= _HEX):
            return f"{_short(value)} is not {digits} hex digits"
        return None

    return check


def _among(value: Any, enum: frozenset[tuple[type, Any]]) -> bool:
    try:
        return (type(value), value) in enum
    except TypeError:  # an array or a map where a listed value belongs
        return False


def _list(node: Node, s: Mapping[str, Any]) -> None:
    nullable = node.nullable
    if node.kind == "tuple":
        parts = [compile_shape(item) for item in s["items"]]
        node.items = parts
        node.min_items = node.max_items = len(parts)

        def check_tuple(value: Any) -> str | None:
            if value is None and nullable:
                return None
            if type(value) is not list or len(value) != len(parts):
                return f"{_what(value)}, not an array of {len(parts)}"
            for index, (item, part) in enumerate(zip(value, parts, strict=True)):
                why = part.check(item)
                if why is not None:
                    return f"[{index}]: {why}"
            return None

        node.check = check_tuple
        return
    item_node = compile_shape(s["items"])
    node.items = item_node
    node.min_items = least = int(s.get("min_items", 0))
    node.max_items = most = s.get("max_items")
    item_check = item_node.check

    def check_list(value: Any) -> str | None:
        if value is None and nullable:
            return None
        if type(value) is not list:
            return f"{_what(value)}, not an array"
        if len(value) < least or (most is not None and len(value) > most):
            return f"{len(value)} items"
        if item_check is not _fits_any:
            for index, item in enumerate(value):
                why = item_check(item)
                if why is not None:
                    return f"[{index}]: {why}"
        return None

    node.check = check_list


def _map(node: Node, s: Mapping[str, Any]) -> None:
    nullable = node.nullable
    fields = {key: compile_shape(sub) for key, sub in s.get("fields", {}).items()}
    node.fields = fields
    node.required = required = frozenset(fields) - frozenset(s.get("optional", ()))
    extra = compile_shape(s["extra"]) if "extra" in s else None
    checks = [(key, sub.check) for key, sub in fields.items() if sub.check is not _fits_any]
    extra_check = extra.check if extra is not None and extra.check is not _fits_any else None

    def check_map(value: Any) -> str | None:
        if value is None and nullable:
            return None
        if type(value) is not dict:
            return f"{_what(value)}, not a map"
        for key in required:
            if key not in value:
                return f"its key {key!r} is missing"
        for key, check in checks:
            if key in value:
                why = check(value[key])
                if why is not None:
                    return f".{key}: {why}"
        if extra_check is not None:
            for key, item in value.items():
                if key not in fields:
                    why = extra_check(item)
                    if why is not None:
                        return f".{key[:40]}: {why}"
        return None

    node.check = check_map


def _dict(node: Node, s: Mapping[str, Any]) -> None:
    nullable = node.nullable
    node.values = values = compile_shape(s["values"])
    value_check = values.check

    def check_dict(value: Any) -> str | None:
        if value is None and nullable:
            return None
        if type(value) is not dict:
            return f"{_what(value)}, not a map"
        if value_check is not _fits_any:
            for key, item in value.items():
                why = value_check(item)
                if why is not None:
                    return f".{key[:40]}: {why}"
        return None

    node.check = check_dict


def _tagged(node: Node, s: Mapping[str, Any]) -> None:
    nullable = node.nullable
    node.tag = tag = s["tag"]
    node.cases = cases = {name: compile_shape(case) for name, case in s["cases"].items()}

    def check_tagged(value: Any) -> str | None:
        if value is None and nullable:
            return None
        if type(value) is not dict:
            return f"{_what(value)}, not a map"
        case = cases.get(value.get(tag)) if type(value.get(tag)) is str else None
        if case is None:
            return f"its {tag!r} is none of its kinds"
        return case.check(value)

    node.check = check_tagged


def _what(value: Any) -> str:
    names = {type(None): "null", bool: "a bool", int: "an int", float: "a float",
             str: "a str", list: "an array", dict: "a map", bytes: "bytes"}
    return names.get(type(value), "a value")


def _short(value: Any) -> str:
    if isinstance(value, str):
        return repr(value[:40])
    return repr(value)[:40] if isinstance(value, int | float) else _what(value)


# --- the views of the games this version knows -------------------------------------------

_ROOTS: dict[tuple[str, str | None], Node | None] = {}


def root_for(view: Mapping[str, Any]) -> Node | None:
    """The compiled view shape of the game and mode ``view`` names, or None when this
    version knows no such game (or mode)."""
    game, mode = view.get("game"), view.get("mode")
    key = (game if type(game) is str else "", mode if type(mode) is str else None)
    if key not in _ROOTS:
        _ROOTS[key] = _compile_root(*key)
    return _ROOTS[key]


UNCHECKED = Node("any", False)
"""The root of a game this version plays that declares no view shape (only the
tests' toy games: every game of the catalogue has a ``schema``)."""


def _compile_root(game: str, mode: str | None) -> Node | None:
    module = next((e.module for e in games.CATALOGUE if e.id == game and e.module), None)
    if module is None:
        return None
    try:
        modes: Mapping[str, Any] = sh.schema_of(module)["modes"]
    except ModuleNotFoundError as exc:
        if exc.name != f"{module}.schema":
            raise
        return UNCHECKED
    chosen = mode if mode in modes else (next(iter(modes)) if len(modes) == 1 else None)
    if chosen is None:
        return None
    return compile_shape(sh.view_shape(modes[chosen]["view"]))


def view_fault(view: Any) -> str | None:
    """Why ``view`` is not a view this version can show and play from, or None."""
    if type(view) is not dict:
        return "the view is not a map"
    root = root_for(view)
    if root is None:
        return f"the view is of a game this version does not know ({_short(view.get('game'))})"
    if root is UNCHECKED:
        return None
    why = root.check(view)
    return None if why is None else f"the view{why if why[0] in '.[' else ': ' + why}"


def ops_fault(view: dict[str, Any], ops: list[Any]) -> str | None:
    """Why the delta ``ops`` would leave ``view`` (a view that passed ``view_fault``)
    with a field of the wrong shape, or None. The ops' envelope (arrays with an op
    code and a path of str and int) is checked before; ops that do not fit the view
    are left to the delta's own apply (which refuses them and asks for a snapshot)."""
    root = root_for(view)
    if root is None or root is UNCHECKED:
        return None
    paths = root.paths
    tagged: list[tuple[list[Any], Node]] = []
    for index, op in enumerate(ops):
        path = op[1]
        key = tuple(path)
        found = paths.get(key)
        if found is None:
            found = _resolve(root, path)
            if len(paths) < PATHS_KEPT:
                paths[key] = found
        node, parent, at = found
        if node is None:
            if parent is not None and at >= 0:  # into a map whose tag picks its fields
                tagged.append((path[:at], parent))
            continue
        code = op[0]
        if code == delta.SET:
            why = node.check(op[2])
            if why is not None:
                return f"delta op {index}: {_where(path)}{_join(why)}"
        else:
            why = _other_fault(code, node, parent, view, op)
            if why is not None:
                return f"delta op {index}: {why}"
    if tagged:
        return _tagged_fault(view, ops, tagged)
    return None


PATHS_KEPT = 8192
"""Paths remembered per view shape (a view has a few hundred; a host inventing paths
only makes the rest be followed step by step)."""


def _resolve(root: Node, path: list[Any]) -> tuple[Node | None, Node | None, int]:
    """The shape ``path`` leads to and its parent's; (None, the tagged map, its depth)
    when the path goes into a map whose tag picks its fields; (None, None, -1) when it
    leaves the reference (a key it does not know: nobody reads it)."""
    node: Node | None = root
    parent: Node | None = None
    for step, key in enumerate(path):
        if node is None:
            return None, None, -1
        if node.kind == "tagged":
            return None, node, step
        parent = node
        node, _ = _step(node, _MISSING, key)
    return node, parent, -1


def _other_fault(code: int, node: Node, parent: Node | None, view: Any,
                 op: list[Any]) -> str | None:
    path = op[1]
    if code == delta.DELETE:
        if parent is not None and parent.kind == "map" and path[-1] in parent.required:
            return f"deletes {_where(path)}, which every view has"
        return None
    if node.kind == "tuple":
        return f"resizes {_where(path)}, which has a fixed length"
    if node.kind != "list" or len(op) < 3:
        return None  # the apply refuses to resize what is not an array
    if code == delta.TRUNCATE:
        if type(op[2]) is int and op[2] < node.min_items:
            return f"cuts {_where(path)} to {op[2]} items"
        return None
    items, item = op[2], node.items
    if type(items) is not list or not isinstance(item, Node):
        return None
    if node.max_items is not None:
        here: Any = view
        for key in path:
            _, here = _step(Node("any", False), here, key)
        have = len(here) if type(here) is list else 0
        if have + len(items) > node.max_items:
            return f"grows {_where(path)} past {node.max_items} items"
    if item.check is not _fits_any:
        for at, value in enumerate(items):
            why = item.check(value)
            if why is not None:
                return f"{_where(path)}[+{at}]{_join(why)}"
    return None


def _step(node: Node, here: Any, key: Any) -> tuple[Node | None, Any]:
    """The shape and the current value one path step further (None: not followed)."""
    kind = node.kind
    nxt: Node | None = None
    if kind == "map" and type(key) is str:
        nxt = node.fields.get(key)
    elif kind == "dict" and type(key) is str:
        nxt = node.values
    elif kind == "list" and type(key) is int and isinstance(node.items, Node):
        nxt = node.items
    elif kind == "tuple" and type(key) is int and isinstance(node.items, list) \
            and 0 <= key < len(node.items):
        nxt = node.items[key]
    if type(here) is dict:
        here = here.get(key, _MISSING) if type(key) is str else _MISSING
    elif type(here) is list and type(key) is int and 0 <= key < len(here):
        here = here[key]
    else:
        here = _MISSING
    return nxt, here


def _tagged_fault(view: dict[str, Any], ops: list[Any],
                  tagged: list[tuple[list[Any], Node]]) -> str | None:
    """The maps whose kind decides their fields, checked whole as the delta leaves them
    (a trial apply: it copies only the maps and arrays along the ops' paths)."""
    try:
        after = delta.apply(view, ops)
    except ProtocolError:
        return None  # the peer's own apply refuses it too, and asks for a snapshot
    for path, node in tagged:
        here: Any = after
        for key in path:
            here = here.get(key, _MISSING) if type(here) is dict else (
                here[key] if type(here) is list and type(key) is int
                and 0 <= key < len(here) else _MISSING)
        if here is _MISSING:
            continue
        why = node.check(here)
        if why is not None:
            return f"{_where(path)}{_join(why)}"
    return None


def _where(path: list[Any]) -> str:
    text = "".join(f"[{k}]" if type(k) is int else f".{str(k)[:40]}" for k in path[:8])
    return "the view" + text


def _join(why: str) -> str:
    return why if why[:1] in (".", "[") else ": " + why


__all__ = ["Node", "compile_shape", "ops_fault", "root_for", "view_fault"]
