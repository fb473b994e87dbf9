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
import operator
from dataclasses import dataclass
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


Marks = dict[str, bytes | None]
"""A view's top-level keys -> the ``marshal`` bytes of their values (None: not
marshallable, compare the long way), each worked out when first needed."""


def marks(view: Any) -> Marks | None:
    """The marks to keep beside a view (a map) for its next ``diff_marked``: empty,
    filled in as the diffs need them."""
    return {} if type(view) is dict else None


def _mark(found: Marks, view: dict[str, Any], key: str) -> bytes | None:
    if key not in found:
        try:
            found[key] = marshal.dumps(view[key], 2)
        except ValueError:
            found[key] = None
    return found[key]


Shared = dict[tuple[str, bytes, bytes], list[list[Any]]]
"""(key, old marks, new marks) -> the ops for that key: the same change seen by several
viewers is diffed once."""


Parts = dict[tuple[Any, ...], Any]
"""(key, id(old part), id(new part)) -> (old part, new part, the ops for that key), and
(key, type, old, new) -> the one op of a changed scalar: what one round of deltas found
for the very objects (and scalars) several viewers' views share. The parts are kept with
their ops, so an id cannot be reused by another object while the round lasts."""


def diff_marked(old: Any, new: Any, old_marks: Marks | None, new_marks: Marks | None,
                shared: Shared | None = None,
                parts: Parts | None = None) -> list[list[Any]]:
    """``diff(old, new)``, the same ops, cheaper for the host's views of one game.

    - A top-level list whose items are the very objects of the old one, in order,
      perhaps with more after them (a log: games make each line's map once), is
      unchanged up to there: at most one EXTEND, found in C without a comparison.
      (A state is never changed once made, nor is a view: the same object is the
      same value.)
    - Otherwise a part whose ``marshal`` bytes did not change is skipped, and a part
      several viewers saw change from the same bytes to the same bytes (the board)
      is diffed once for all of them (``shared``, one per round of deltas). Equal
      bytes mean equal exact types, values and order at every node, where ``diff``
      finds nothing, and where it finds the same ops for every viewer.
    - A part that is the very object it was (a game's constant) is unchanged; a pair
      of old and new parts that another viewer's views held too (a game builds its
      public parts once per state) gives the ops found for the first (``parts``, one
      per round), and so does a scalar's change: no bytes are made again, and the
      viewers' deltas share their op objects (the host packs a delta made of the same
      ops once).
    """
    if (type(old) is not dict or type(new) is not dict or old_marks is None
            or new_marks is None):
        return diff(old, new)
    ops: list[list[Any]] = []
    if old.keys() != new.keys():
        for key in old:
            if key not in new:
                ops.append([DELETE, [key]])
    find = old.get
    for key, value in new.items():
        before = find(key, _ABSENT)
        if before is value:
            continue
        if before is _ABSENT:
            ops.append([SET, [key], value])
            continue
        kind = type(before)
        if kind is type(value) and kind in _ATOMS:  # a turn, a phase: no bytes needed
            if before != value:
                if parts is None:
                    ops.append([SET, [key], value])
                else:
                    atom = (key, kind, before, value)
                    op = parts.get(atom)
                    if op is None:
                        op = parts[atom] = [SET, [key], value]
                    ops.append(op)
            continue
        if parts is not None:
            pair = (key, id(before), id(value))
            seen = parts.get(pair)
            if seen is not None:
                ops.extend(seen[2])
                continue
            found: list[list[Any]] = []
            _diff_part(key, before, value, old, new, old_marks, new_marks, shared, found)
            parts[pair] = (before, value, found)
            ops.extend(found)
            continue
        _diff_part(key, before, value, old, new, old_marks, new_marks, shared, ops)
    return ops


def _diff_part(key: str, before: Any, value: Any, old: dict[str, Any], new: dict[str, Any],
               old_marks: Marks, new_marks: Marks, shared: Shared | None,
               ops: list[list[Any]]) -> None:
    """The ops for the top-level part ``key`` of two views (``diff_marked``), onto ``ops``."""
    if (type(before) is list and type(value) is list and len(value) >= len(before)
            and all(map(operator.is_, before, value))):
        if len(value) > len(before):
            ops.append([EXTEND, [key], value[len(before):]])
        return
    was, now = _mark(old_marks, old, key), _mark(new_marks, new, key)
    if was is not None and was == now:
        return
    if was is None or now is None or shared is None:
        if not _unchanged(before, value):
            _diff(before, value, [key], ops)
        return
    found = shared.get((key, was, now))
    if found is None:
        found = []
        _diff(before, value, [key], found)
        shared[(key, was, now)] = found
    ops.extend(found)


_ABSENT = object()
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


@dataclass(frozen=True)
class ViewLimits:
    """How big a peer lets its view grow, and how much work one delta may ask for.

    A view is a few hundred elements; these bounds are far above any game's,
    and far below what would hurt a laptop: a host that sent deltas growing
    a list by a million items each took a peer to 670 MB and 8.8 s of CPU.
    """

    nodes: int = 100_000
    """Maps, arrays and scalars in the view, every level counted."""
    text: int = 4 << 20
    """Characters of str and bytes of bin in the view, map keys included."""
    cost: int = 200_000
    """Elements one delta may copy, add, remove or look at."""


VIEW_LIMITS = ViewLimits()
_NUMBERS = frozenset({int, float, bool, type(None)})


@dataclass(frozen=True)
class Size:
    nodes: int
    text: int


class ViewTooBig(DeltaError):
    """A whole view (a snapshot) over ``ViewLimits``: asking again will not help."""


def measure(value: Any, stop: int | None = None) -> Size:
    """The view-size of ``value``; DeltaError once more than ``stop`` nodes are seen.

    Iterative, so depth cannot exhaust the stack. A map's or list's scalars are
    counted where they are met (never pushed and popped one by one), and ``stop`` is
    looked at after each map and list: past it after one of them means past it.
    """
    kind = type(value)
    if kind is str or kind is bytes:
        return Size(1, len(value))
    if kind is not dict and kind is not list:
        return Size(1, 0)
    most = -1 if stop is None else stop
    nodes = text = 0
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        nodes += 1
        if type(node) is dict:
            text += sum(map(len, node))
            children: Any = node.values()
        else:
            children = node
        for child in children:
            kind = type(child)
            if kind is dict or kind is list:
                push(child)
            else:
                nodes += 1
                if kind is str or kind is bytes:
                    text += len(child)
        if nodes > most >= 0:
            raise DeltaError(f"more than {stop} elements to look at")
    return Size(nodes, text)


class BoundedView:
    """A view and its size, changed by deltas only within ``ViewLimits``.

    What a peer keeps: ``apply`` costs in proportion to the delta (and to the
    containers along its paths), never to the whole view, and refuses a delta
    that would cost or grow more than the limits allow; the view is then as
    it was, and the peer asks for a snapshot. A snapshot over the limits is
    ``ViewTooBig``.
    """

    def __init__(self, view: Any, limits: ViewLimits = VIEW_LIMITS) -> None:
        self.limits = limits
        try:
            size = measure(view, limits.nodes)
        except DeltaError:
            raise ViewTooBig(f"a view of more than {limits.nodes} elements") from None
        if size.text > limits.text:
            raise ViewTooBig(f"a view of more than {limits.text} characters of text")
        self.value = view
        self.size = size
        self.work = size.nodes + size.text // 8
        """What the view holds that the one before did not, at most, in elements (a
        copied map or list counts its entries; text, 8 bytes to one): the last
        delta's work, or the whole view's size."""

    def apply(self, ops: Any) -> None:
        """Change the view by ``ops``; DeltaError (and no change) if they do not fit."""
        ctx = _Context(self.limits, self.size)
        self.value = _apply_all(self.value, ops, ctx)
        self.size = Size(ctx.nodes, ctx.text)
        self.work = ctx.cost + ctx.added_text // 8


def apply(old: Any, ops: Any) -> Any:
    """``old`` changed by ``ops``; ``old`` itself is never mutated.

    Only the containers along each op's path are copied (once per call, however
    many ops touch them), so applying a small delta to a large view is cheap;
    the result shares untouched subtrees with ``old`` and with ``ops``. Raises
    DeltaError, and nothing else, on ops that are malformed or do not fit.
    No size limits: a peer keeps a ``BoundedView`` instead.
    """
    return _apply_all(old, ops, _Context(None, Size(0, 0)))


class _Context:
    """One apply call: the containers it made (by id: safe to change in place),
    and, when bounded, the work done and the view's size as the ops go."""

    def __init__(self, limits: ViewLimits | None, size: Size) -> None:
        self.fresh: dict[int, Any] = {}
        self.limits = limits
        self.most = limits.cost if limits is not None else math.inf
        self.cost = 0
        self.added_text = 0
        self.nodes, self.text = size.nodes, size.text

    def spend(self, work: int) -> None:
        self.cost += work
        if self.cost > self.most:
            raise DeltaError(f"the delta asks for more than {self.most} elements of work")

    def grow(self, value: Any, sign: int = 1, key: str = "", items: bool = False) -> None:
        """Count ``value`` (with its map ``key``) into the view (``sign`` 1) or out of
        it (-1); ``items``: only the items of the list ``value``, not the list."""
        if self.limits is None:
            return
        kind = type(value)
        if kind is str or kind is bytes:  # most ops set one scalar: no walk for it
            nodes, text = 1, len(value)
        elif kind in _NUMBERS:
            nodes, text = 1, 0
        else:
            try:
                size = measure(value, self.limits.cost - self.cost)
            except DeltaError:
                raise DeltaError(f"the delta asks for more than {self.limits.cost} "
                                 f"elements of work") from None
            nodes, text = size.nodes, size.text
        self.cost += nodes
        if self.cost > self.most:
            raise DeltaError(f"the delta asks for more than {self.most} elements of work")
        self.nodes += sign * (nodes - items)
        text += len(key)
        if sign > 0:
            self.text += text
            self.added_text += text
        else:
            self.text -= text

    def check(self) -> None:
        limits = self.limits
        if limits is None:
            return
        if self.nodes > limits.nodes:
            raise DeltaError(f"the view would hold more than {limits.nodes} elements")
        if self.text > limits.text:
            raise DeltaError(f"the view would hold more than {limits.text} characters "
                             f"of text")


def _apply_all(old: Any, ops: Any, ctx: _Context) -> Any:
    if not isinstance(ops, list):
        raise DeltaError(f"a delta must be an array of ops, not {wire_name(ops)}")
    result = old
    limits = ctx.limits
    most_nodes, most_text = (limits.nodes, limits.text) if limits else (math.inf, math.inf)
    for index, op in enumerate(ops):
        try:
            result = _apply_op(result, op, ctx)
            if ctx.nodes > most_nodes or ctx.text > most_text:
                ctx.check()
        except DeltaError as exc:
            raise DeltaError(f"delta op {index}: {exc.reason}") from None
    return result


def _apply_op(root: Any, op: Any, ctx: _Context) -> Any:
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
    ctx.cost += 1 + len(path)
    if ctx.cost > ctx.most:
        raise DeltaError(f"the delta asks for more than {ctx.most} elements of work")
    if not path:
        if code == SET:
            ctx.grow(root, -1)
            ctx.grow(op[2])
            return op[2]
        if code == DELETE:
            raise DeltaError("cannot delete the whole view")
        return _resize(root, code, op[2], ctx)
    root = parent = _own(root, path[0], ctx)
    last = len(path) - 1
    for step in range(last):
        key = path[step]
        child = _own(_child(parent, key), path[step + 1], ctx)
        parent[key] = child
        parent = child
    key = path[last]
    if code == SET:
        value = op[2]
        if isinstance(parent, list):
            ctx.grow(_child(parent, key), -1)  # a list grows by EXTEND only
            ctx.grow(value)
        elif key in parent:
            ctx.grow(parent[key], -1)
            ctx.grow(value)
        else:
            ctx.grow(value, key=key)
        parent[key] = value
    elif code == DELETE:
        if not isinstance(parent, dict):
            raise DeltaError(f"cannot delete list index {key}; truncate instead")
        ctx.grow(_child(parent, key), -1, key)
        del parent[key]
    else:
        parent[key] = _resize(_child(parent, key), code, op[2], ctx)
    return root


def _own(node: Any, key: Any, ctx: _Context) -> Any:
    """``node``, checked to take ``key`` as a step, copied unless this call made it."""
    if isinstance(node, dict):
        if not isinstance(key, str):
            raise DeltaError(f"path step {_show(key)} cannot index a map")
    elif isinstance(node, list):
        if type(key) is not int:
            raise DeltaError(f"path step {_show(key)} cannot index an array")
    else:
        raise DeltaError(f"path step {_show(key)} goes into a {wire_name(node)}")
    if ctx.fresh.get(id(node)) is node:
        return node
    ctx.spend(len(node))
    copy = dict(node) if isinstance(node, dict) else list(node)
    ctx.fresh[id(copy)] = copy
    return copy


def _child(node: dict[str, Any] | list[Any], key: Any) -> Any:
    if isinstance(node, dict):
        if key not in node:
            raise DeltaError(f"path names missing key {_show(key)}")
        return node[key]
    if not 0 <= key < len(node):
        raise DeltaError(f"index {key} is outside an array of {len(node)}")
    return node[key]


def _resize(node: Any, code: int, arg: Any, ctx: _Context) -> list[Any]:
    """Truncate or extend a list: in place if this call made it, else one copy.

    In place matters: a delta of many extends to one list once copied it whole
    for each op.
    """
    if not isinstance(node, list):
        raise DeltaError(f"op {code} needs an array, found a {wire_name(node)}")
    mine = ctx.fresh.get(id(node)) is node
    if code == TRUNCATE:
        if type(arg) is not int or not 0 <= arg <= len(node):
            raise DeltaError(f"cannot truncate an array of {len(node)} to {_show(arg)}")
        if ctx.limits is not None:
            ctx.grow(node[arg:], -1, items=True)
        if mine:
            del node[arg:]
            return node
        ctx.spend(arg)
        out = node[:arg]
    else:
        if not isinstance(arg, list):
            raise DeltaError(f"can only append an array, not a {wire_name(arg)}")
        ctx.grow(arg, items=True)
        if mine:
            node.extend(arg)
            return node
        ctx.spend(len(node) + len(arg))
        out = node + arg
    ctx.fresh[id(out)] = out
    return out


def _show(value: Any) -> str:
    """A short, safe description of a bad value for an error reason."""
    if isinstance(value, str):
        return repr(value[:40])
    if isinstance(value, int | float | None):
        return repr(value)[:40]
    return f"a {wire_name(value)}"
