"""A small validator for plain data read from disk: types and ranges, with a path.

A save or a journal line is JSON someone may have edited, truncated or forged;
each field is checked here by type and range before any of it is used, so a
damaged file is refused with a sentence naming the field ("seats[0].name
should be text, not a number") instead of crashing the host later. A ``Spec``
is a function that raises ``Invalid`` for a value at a path; specs compose.
Nesting is walked with a list, not recursion, so no depth can overflow it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any


class Invalid(Exception):
    """``value`` at ``where`` is not what the spec asks for; ``problem`` says how."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where or 'it'} {problem}")
        self.where = where
        self.problem = problem

    @property
    def sentence(self) -> str:
        """"seats[0].name should be text, not a number" ("it ..." for the whole value)."""
        return str(self)


Spec = Callable[[Any, str], None]


def kind(value: Any) -> str:
    """What a value is, in words a person reading a file would use."""
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a map"
    return type(value).__name__


def _wrong(value: Any, where: str, wanted: str) -> Invalid:
    return Invalid(where, f"should be {wanted}, not {kind(value)}")


def text(min_len: int = 0, max_len: int = 200, pattern: str | None = None,
         what: str = "text") -> Spec:
    form = re.compile(pattern) if pattern is not None else None

    def check(value: Any, where: str) -> None:
        if not isinstance(value, str):
            raise _wrong(value, where, what)
        if len(value) < min_len:
            raise Invalid(where, "is empty" if min_len == 1 and not value
                          else f"is shorter than {min_len} characters")
        if len(value) > max_len:
            raise Invalid(where, f"is longer than {max_len} characters")
        if form is not None and not form.fullmatch(value):
            raise Invalid(where, f"is not {what}")
    return check


def integer(lo: int | None = None, hi: int | None = None) -> Spec:
    def check(value: Any, where: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _wrong(value, where, "a whole number")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise Invalid(where, f"is {value}, outside {lo}..{hi}")
    return check


def number(lo: float, hi: float) -> Spec:
    def check(value: Any, where: str) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _wrong(value, where, "a number")
        if not math.isfinite(value) or not lo <= value <= hi:
            raise Invalid(where, f"is {value}, outside {lo:g}..{hi:g}")
    return check


def boolean(value: Any, where: str) -> None:
    if not isinstance(value, bool):
        raise _wrong(value, where, "true or false")


def one_of(*choices: str) -> Spec:
    def check(value: Any, where: str) -> None:
        if value not in choices or not isinstance(value, str):
            raise Invalid(where, f"should be one of {', '.join(map(repr, choices))}")
    return check


def optional(spec: Spec) -> Spec:
    def check(value: Any, where: str) -> None:
        if value is not None:
            spec(value, where)
    return check


def array(item: Spec, max_len: int, min_len: int = 0) -> Spec:
    def check(value: Any, where: str) -> None:
        if not isinstance(value, list):
            raise _wrong(value, where, "a list")
        if not min_len <= len(value) <= max_len:
            raise Invalid(where, f"has {len(value)} items, not {min_len}..{max_len}")
        for i, each in enumerate(value):
            item(each, f"{where}[{i}]")
    return check


def record(fields: Mapping[str, Spec], required: frozenset[str] | set[str] = frozenset()
           ) -> Spec:
    """A map with these fields (keys not named are ignored: a later version's)."""
    def check(value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise _wrong(value, where, "a map")
        for name, spec in fields.items():
            inside = f"{where}.{name}" if where else name
            if name not in value:
                if name in required:
                    raise Invalid(inside, "is missing")
                continue
            spec(value[name], inside)
    return check


def plain(max_depth: int, max_items: int = 1_000_000) -> Spec:
    """Any JSON value (maps with str keys, lists, text, numbers, true/false, null,
    and the saves' bytes), nested at most ``max_depth`` deep and holding at most
    ``max_items`` values in all."""
    def check(value: Any, where: str) -> None:
        todo: list[tuple[Any, int]] = [(value, 1)]
        seen = 0
        while todo:
            item, depth = todo.pop()
            seen += 1
            if seen > max_items:
                raise Invalid(where, f"holds more than {max_items} values")
            if isinstance(item, dict):
                if depth > max_depth:
                    raise Invalid(where, f"is nested more than {max_depth} deep")
                todo.extend((v, depth + 1) for v in item.values())
            elif isinstance(item, list):
                if depth > max_depth:
                    raise Invalid(where, f"is nested more than {max_depth} deep")
                todo.extend((v, depth + 1) for v in item)
            elif isinstance(item, float):
                if not math.isfinite(item):
                    raise Invalid(where, "holds a number that is not finite")
            elif not (item is None or isinstance(item, (str, int, bytes))):
                raise Invalid(where, f"holds {kind(item)}")
    return check


def both(*specs: Spec) -> Spec:
    def check(value: Any, where: str) -> None:
        for spec in specs:
            spec(value, where)
    return check
