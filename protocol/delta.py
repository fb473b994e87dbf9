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

import marshal
import math
from typing import Any

from protocol.messages import ProtocolError, wire_name

SET, DELETE, TRUNCATE, EXTEND = 0, 1, 2, 3


Path = list[str | int]


class DeltaError(ProtocolError):
    """A delta that does not fit the view it was meant for (resync needed)."""


def _same(a: Any, b: Any) -> bool:
    # True == 1 == 1.0 in Python but not on the wire; compare types too.
    if type(a) is not type(b):
        return False
    if type(a) is float:  # -0.0 == 0.0 and nan != nan, yet each packs as itself
        return (a == b and math.copysign(1.0, a) == math.copysign(1.0, b)) or (
            math.isnan(a) and math.isnan(b))
    return bool(a == b)


def _prefer_one_set(path: Path, new: dict[str, Any], ops: list[list[Any]],
                    start: int) -> None:
    """Replace the ops under a map by one SET of the whole map when every field changed.

    Each op repeats the map's path, so once there are at least as many ops as
    fields (a "last move" summary, say), one SET of the map is smaller; it
    applies the same. Counting instead of packing keeps diff cheap.
    """
    if len(ops) - start >= max(len(new), 2):
        del ops[start:]
        ops.append([SET, path, new])


def diff(old: Any, new: Any) -> list[list[Any]]:
    """The ops that turn ``old`` into ``new``."""
    ops: list[list[Any]] = []
    _diff(old, new, [], ops)
    return ops


def _diff(old: Any, new: Any, path: Path, ops: list[list[Any]]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        start = len(ops)
        for key in old:
            if key not in new:
                ops.append([DELETE, [*path, key]])
        for key, value in new.items():
            if key in old:
                if not _unchanged(old[key], value):
                    _diff(old[key], value, [*path, key], ops)
            else:
                ops.append([SET, [*path, key], value])
        if path:
            _prefer_one_set(path, new, ops, start)
        return
    if isinstance(old, list) and isinstance(new, list):
        common = min(len(old), len(new))
        # A long list whose head did not move (an append-only log) is checked
        # whole, in two C calls, instead of item by item.
        if common < 2 or not _unchanged(old if len(old) == common else old[:common],
                                        new if len(new) == common else new[:common]):
            for i in range(common):
                if not _unchanged(old[i], new[i]):
                    _diff(old[i], new[i], [*path, i], ops)
        if len(new) < len(old):
            ops.append([TRUNCATE, path, len(new)])
        elif len(new) > len(old):
            ops.append([EXTEND, path, new[common:]])
        return
    if not _same(old, new):
        ops.append([SET, path, new])


_ATOMS = frozenset({str, int, bool, type(None), bytes})
"""Exact types for which ``==`` is what ``_same`` decides (not float: -0.0, NaN)."""


def _unchanged(old: Any, new: Any) -> bool:
    """A fast "``_diff(old, new)`` would find nothing"; False means walk and see.

    Scalars of the same exact type (float aside) compare with ``==``. Maps and
    lists compare with ``==`` and, since ``==`` is not enough (``True == 1 ==
    1.0``, ``-0.0 == 0.0``), are then confirmed by their ``marshal`` bytes,
    which keep every type apart (exact types only: subclasses are refused),
    store floats bit for bit and keep map order. Equal bytes mean the same
    type and value at every node, where the walk finds nothing; anything else
    (NaN included, which ``==`` calls unequal) is walked as before. Both run
    in C, far faster than the walk. The ops are the same as the walk's for
    every value msgpack can carry (the one exception, the same complex NaN
    object on both sides, can never be sent).
    """
    kind = type(old)
    if kind is not type(new):
        return False
    if kind in _ATOMS:
        return bool(old == new)
    if (kind is not dict and kind is not list) or old != new:
        return False
    try:
        return marshal.dumps(old, 2) == marshal.dumps(new, 2)
    except ValueError:  # something marshal cannot write: walk it
        return False


def apply(old: Any, ops: Any) -> Any:
    """``old`` changed by ``ops``; ``old`` itself is never mutated.

    Only the containers along each op's path are copied (once per call, however
    many ops touch them), so applying a small delta to a large view is cheap;
    the result shares untouched subtrees with ``old`` and with ``ops``. Raises
    DeltaError, and nothing else, on ops that are malformed or do not fit.
    """
    if not isinstance(ops, list):
        raise DeltaError(f"a delta must be an array of ops, not {wire_name(ops)}")
    fresh: dict[int, Any] = {}  # containers this call made, by id: safe to change
    result = old
    for index, op in enumerate(ops):
        try:
            result = _apply_op(result, op, fresh)
        except DeltaError as exc:
            raise DeltaError(f"delta op {index}: {exc.reason}") from None
    return result


def _apply_op(root: Any, op: Any, fresh: dict[int, Any]) -> Any:
    if not isinstance(op, list) or not op:
        raise DeltaError(f"an op must be a non-empty array, not {_show(op)}")
    code = op[0]
    if type(code) is not int or code not in (SET, DELETE, TRUNCATE, EXTEND):
        raise DeltaError(f"unknown op code {_show(code)}")
    want = 2 if code == DELETE else 3
    if len(op) != want:
        raise DeltaError(f"op {code} needs {want} elements, has {len(op)}")
    path = op[1]
    if not isinstance(path, list):
        raise DeltaError(f"an op path must be an array, not {wire_name(path)}")
    if not path:
        if code == SET:
            return op[2]
        if code == DELETE:
            raise DeltaError("cannot delete the whole view")
        return _resize(root, code, op[2], fresh)
    root = parent = _own(root, path[0], fresh)
    for step, key in enumerate(path[:-1]):
        child = _own(_child(parent, key), path[step + 1], fresh)
        parent[key] = child
        parent = child
    key = path[-1]
    if code == SET:
        if isinstance(parent, list):
            _child(parent, key)  # a list grows by EXTEND only
        parent[key] = op[2]
    elif code == DELETE:
        if not isinstance(parent, dict):
            raise DeltaError(f"cannot delete list index {key}; truncate instead")
        _child(parent, key)
        del parent[key]
    else:
        parent[key] = _resize(_child(parent, key), code, op[2], fresh)
    return root


def _own(node: Any, key: Any, fresh: dict[int, Any]) -> Any:
    """``node``, checked to take ``key`` as a step, copied unless this call made it."""
    if isinstance(node, dict):
        if not isinstance(key, str):
            raise DeltaError(f"path step {_show(key)} cannot index a map")
    elif isinstance(node, list):
        if type(key) is not int:
            raise DeltaError(f"path step {_show(key)} cannot index an array")
    else:
        raise DeltaError(f"path step {_show(key)} goes into a {wire_name(node)}")
    if fresh.get(id(node)) is node:
        return node
    copy = dict(node) if isinstance(node, dict) else list(node)
    fresh[id(copy)] = copy
    return copy


def _child(node: dict[str, Any] | list[Any], key: Any) -> Any:
    if isinstance(node, dict):
        if key not in node:
            raise DeltaError(f"path names missing key {_show(key)}")
        return node[key]
    if not 0 <= key < len(node):
        raise DeltaError(f"index {key} is outside an array of {len(node)}")
    return node[key]


def _resize(node: Any, code: int, arg: Any, fresh: dict[int, Any]) -> list[Any]:
    if not isinstance(node, list):
        raise DeltaError(f"op {code} needs an array, found a {wire_name(node)}")
    if code == TRUNCATE:
        if type(arg) is not int or not 0 <= arg <= len(node):
            raise DeltaError(f"cannot truncate an array of {len(node)} to {_show(arg)}")
        out = node[:arg]
    else:
        if not isinstance(arg, list):
            raise DeltaError(f"can only append an array, not a {wire_name(arg)}")
        out = node + arg
    fresh[id(out)] = out
    return out


def _show(value: Any) -> str:
    """A short, safe description of a bad value for an error reason."""
    if isinstance(value, str):
        return repr(value[:40])
    if isinstance(value, int | float | None):
        return repr(value)[:40]
    return f"a {wire_name(value)}"
