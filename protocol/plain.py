"""The wire subset: what any msgpack library writes and reads.

nil, bool, int, float, str, bin, array and map with str keys, nested at most
``MAX_DEPTH`` deep. A frame is checked against it before any code reads it.
"""

from __future__ import annotations

from typing import Any

from protocol.errors import ProtocolError

MAX_DEPTH = 64
"""Deepest nesting of maps and arrays accepted, the message map included.

Views are a handful of levels deep; the limit keeps recursive code above this
layer (repr, rendering, game rules) safe from a hostile peer."""

_SCALARS = (type(None), bool, int, float, str, bytes)
_ALLOWED = "only nil, bool, int, float, str, bin, array and map are allowed"


def wire_name(value: Any) -> str:
    """The msgpack family of ``value`` ("int", "map", ...) for error reasons."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, bytes):
        return "bin"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "map"
    return type(value).__name__


def check_plain(value: Any, where: str = "frame") -> None:
    """Raise ProtocolError unless ``value`` is in the wire subset.

    The subset is nil, bool, int, float, str, bin, array and map with str keys,
    nested at most MAX_DEPTH deep: what any msgpack library can produce and
    read. Iterative, so a deep value cannot exhaust the Python stack; the
    path to a fault is only worked out once a fault is found.
    """
    plain = _PLAIN_TYPES
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        kind = type(node)
        if kind in plain:
            continue
        if isinstance(node, dict):
            if depth >= MAX_DEPTH:
                raise ProtocolError(f"{where} nests maps and arrays more than {MAX_DEPTH} deep")
            for key in node:
                if type(key) is not str and not isinstance(key, str):
                    raise ProtocolError(_fault(value, where))
            stack.extend((item, depth + 1) for item in node.values()
                         if type(item) not in plain)
        elif isinstance(node, list):
            if depth >= MAX_DEPTH:
                raise ProtocolError(f"{where} nests maps and arrays more than {MAX_DEPTH} deep")
            stack.extend((item, depth + 1) for item in node if type(item) not in plain)
        elif not isinstance(node, _SCALARS):
            raise ProtocolError(_fault(value, where))


_PLAIN_TYPES = frozenset({type(None), bool, int, float, str, bytes})


def _fault(value: Any, where: str) -> str:
    """The reason for the first thing outside the wire subset in ``value``
    (slow; only called once check_plain knows there is one)."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            for key, item in node.items():
                if not isinstance(key, str):
                    return f"{at} has a {wire_name(key)} map key; map keys must be str"
                stack.append((item, f"{at}.{key[:40]}"))
        elif isinstance(node, list):
            stack.extend((item, f"{at}[{index}]") for index, item in enumerate(node))
        elif not isinstance(node, _SCALARS):
            return f"{at} is a {wire_name(node)}; {_ALLOWED}"
    return f"{where} is outside the wire subset"
