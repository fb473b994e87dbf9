"""Deltas between two views: ``apply(a, diff(a, b)) == b``.

A view is a tree of maps (str keys), lists and scalars. A delta is a list of
ops, each a short array whose first element is the op code:

* ``[0, path, value]`` set: replace the node at ``path`` (or add a map key);
  an empty path replaces the whole view.
* ``[1, path]`` delete the map key at ``path``.
* ``[2, path, n]`` truncate the list at ``path`` to length ``n``.
* ``[3, path, items]`` append ``items`` to the list at ``path``.

``path`` is an array of map keys (str) and list indices (int). Compared with
RFC 6902 JSON Patch this is the same idea with integer op codes and array
paths instead of ``"/a/0"`` strings: about a third of the bytes for a typical
card play, and no escaping rules (see docs/PROTOCOL.md and BENCHMARKS.md).
Lists are diffed index by index with a shared prefix; appending to a log
costs one op however long the log is.
"""

from __future__ import annotations

from typing import Any

from protocol.messages import ProtocolError

SET, DELETE, TRUNCATE, EXTEND = 0, 1, 2, 3

Path = list[str | int]


class DeltaError(ProtocolError):
    """A delta that does not fit the view it was meant for (resync needed)."""


def _same(a: Any, b: Any) -> bool:
    # True == 1 == 1.0 in Python but not on the wire; compare types too.
    return type(a) is type(b) and a == b


def diff(old: Any, new: Any) -> list[list[Any]]:
    """The ops that turn ``old`` into ``new``."""
    ops: list[list[Any]] = []
    _diff(old, new, [], ops)
    return ops


def _diff(old: Any, new: Any, path: Path, ops: list[list[Any]]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append([DELETE, [*path, key]])
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], ops)
            else:
                ops.append([SET, [*path, key], value])
        return
    if isinstance(old, list) and isinstance(new, list):
        common = min(len(old), len(new))
        for i in range(common):
            _diff(old[i], new[i], [*path, i], ops)
        if len(new) < len(old):
            ops.append([TRUNCATE, path, len(new)])
        elif len(new) > len(old):
            ops.append([EXTEND, path, new[common:]])
        return
    if not _same(old, new):
        ops.append([SET, path, new])


def apply(old: Any, ops: list[Any]) -> Any:
    """``old`` changed by ``ops``; ``old`` itself is never mutated.

    Only the containers along each op's path are copied, so applying a small
    delta to a large view is cheap. Raises DeltaError on an op that does not
    fit.
    """
    result = old
    for op in ops:
        if not isinstance(op, list) or len(op) < 2 or not isinstance(op[1], list):
            raise DeltaError(f"malformed delta op {op!r:.60}")
        result = _apply_at(result, op[1], 0, op)
    return result


def _apply_at(node: Any, path: list[Any], depth: int, op: list[Any]) -> Any:
    if depth == len(path):
        return _apply_here(node, op)
    key = path[depth]
    if isinstance(node, dict) and isinstance(key, str):
        copy = dict(node)
        last = depth == len(path) - 1
        if last and op[0] == SET:
            _need(op, 3)
            copy[key] = op[2]
            return copy
        if last and op[0] == DELETE:
            if key not in copy:
                raise DeltaError(f"delta deletes missing key {key!r:.40}")
            del copy[key]
            return copy
        if key not in node:
            raise DeltaError(f"delta path names missing key {key!r:.40}")
        copy[key] = _apply_at(node[key], path, depth + 1, op)
        return copy
    if isinstance(node, list) and isinstance(key, int) and not isinstance(key, bool):
        if not 0 <= key < len(node):
            raise DeltaError(f"delta index {key} outside a list of {len(node)}")
        items = list(node)
        if depth == len(path) - 1 and op[0] == SET:
            _need(op, 3)
            items[key] = op[2]
        else:
            items[key] = _apply_at(node[key], path, depth + 1, op)
        return items
    raise DeltaError(f"delta path step {key!r:.40} does not fit a {type(node).__name__}")


def _apply_here(node: Any, op: list[Any]) -> Any:
    code = op[0]
    if code == SET:
        _need(op, 3)
        return op[2]
    if code == TRUNCATE:
        _need(op, 3)
        if not isinstance(node, list) or not isinstance(op[2], int) or op[2] > len(node):
            raise DeltaError("delta truncates something that is not a long enough list")
        return node[:op[2]]
    if code == EXTEND:
        _need(op, 3)
        if not isinstance(node, list) or not isinstance(op[2], list):
            raise DeltaError("delta extends something that is not a list")
        return node + op[2]
    raise DeltaError(f"unknown delta op code {code!r:.20}")


def _need(op: list[Any], n: int) -> None:
    if len(op) != n:
        raise DeltaError(f"delta op {op[0]!r:.10} needs {n} elements, has {len(op)}")
