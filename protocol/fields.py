"""A message's fields against what arrived: does a decoded value fit its field's
type hint, and if not, why (in wire terms, for a person)."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Union

from protocol.plain import wire_name

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def why_not(value: Any, hint: Any, where: str) -> str | None:
    """Why ``value`` does not fit ``hint`` (elements included), or None if it does."""
    if hint is Any:
        return None
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        if any(why_not(value, arm, where) is None for arm in typing.get_args(hint)):
            return None
    elif origin is dict or hint is dict:
        if isinstance(value, dict):
            key_hint, value_hint = typing.get_args(hint) or (str, Any)
            for key, item in value.items():
                if why_not(key, key_hint, where) is not None:
                    return f"{where} has a {wire_name(key)} map key; map keys must be str"
                if value_hint is Any:
                    continue
                why = why_not(item, value_hint, f"{where}.{key[:40]}")
                if why is not None:
                    return why
            return None
    elif origin is list or hint is list:
        if isinstance(value, list):
            (item_hint,) = typing.get_args(hint) or (Any,)
            if item_hint is Any:  # any item fits: a delta's ops are checked as applied
                return None
            for index, item in enumerate(value):
                why = why_not(item, item_hint, f"{where}[{index}]")
                if why is not None:
                    return why
            return None
    elif _scalar_ok(value, hint):
        return None
    return f"{where} must be {_type_name(hint)}, not {wire_name(value)}"


def _scalar_ok(value: Any, hint: Any) -> bool:
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:  # bool is an int in Python but not on the wire
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if hint is bytes:
        return isinstance(value, bytes)
    return False


def _type_name(hint: Any) -> str:
    """``hint`` in wire terms: "int or nil", "array of map", ..."""
    if hint is Any:
        return "any value"
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(arm) for arm in typing.get_args(hint))
    if hint is type(None):
        return "nil"
    if origin is dict or hint is dict:
        return "map with str keys"
    if origin is list or hint is list:
        args = typing.get_args(hint)
        return f"array of {_type_name(args[0])}" if args and args[0] is not Any else "array"
    names = {bool: "bool", int: "int", float: "float", str: "str", bytes: "bin"}
    return names.get(hint, str(hint))


_PLANS: dict[type, list[tuple[str, Any, bool, type | None]]] = {}
_EXACT: dict[Any, type] = {int: int, str: str, bool: bool, float: float, list[Any]: list}
"""Field hints a value of this very type fits, its elements unlooked at."""


def plan(cls: type) -> list[tuple[str, Any, bool, type | None]]:
    """Each field of ``cls``: its name, its hint, whether it must be there, and the one
    type that fits the hint without a look inside (None: always look)."""
    found = _PLANS.get(cls)
    if found is None:
        hints = _hints(cls)
        found = _PLANS[cls] = [
            (f.name, hints[f.name], f.default is dataclasses.MISSING
             and f.default_factory is dataclasses.MISSING, _EXACT.get(hints[f.name]))
            for f in dataclasses.fields(cls)]
    return found
