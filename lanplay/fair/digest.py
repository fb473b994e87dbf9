"""A digest of each view a peer received, small enough to keep one per state_id.

A view is a map; its digest is, for each top-level key in sorted order, 4
bytes naming the key and 16 bytes of SHA-256 over the key's value in a
canonical msgpack form (every map's keys sorted, so the order a delta left
them in does not count; types stay exact, 1 is not 1.0). Keeping a digest per
key lets the audit say which part of the view differs ("hand", "log"), and
lets a peer update the digest after a delta by hashing only the keys the
delta touched.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Mapping, Sequence
from typing import Any

from protocol.codec import pack

NAME_BYTES = 4
PART_BYTES = 16
ENTRY = NAME_BYTES + PART_BYTES


_LEAF = frozenset({str, int, float, bool, type(None), bytes})
"""Values that are their own canonical form (exact types: a subclass takes the long way)."""


def canonical(value: Any) -> Any:
    """``value`` with every map's keys sorted (tuples become lists), for hashing.

    A scalar inside a map or list is taken as it is, without a call for it (the
    audit's replay puts every view of the game through here)."""
    kind = type(value)
    if kind is dict:
        leaf = _LEAF
        return {k: v if type(v) in leaf else canonical(v)
                for k in sorted(value) for v in (value[k],)}
    if kind is list or kind is tuple:
        leaf = _LEAF
        return [v if type(v) in leaf else canonical(v) for v in value]
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    return value


def part_digest(value: Any) -> bytes:
    """16 bytes of SHA-256 over the canonical msgpack of one top-level value."""
    return hashlib.sha256(pack(canonical(value))).digest()[:PART_BYTES]


_NAMES: dict[str, bytes] = {}


def name_digest(key: str) -> bytes:
    found = _NAMES.get(key)
    if found is None:
        found = hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()[:NAME_BYTES]
        if len(_NAMES) < 4096:
            _NAMES[key] = found
    return found


def record(parts: Mapping[str, bytes]) -> bytes:
    """The digest of a view from its parts' digests (key -> ``part_digest``)."""
    return b"".join(name_digest(k) + parts[k] for k in sorted(parts))


def view_digest(view: Mapping[str, Any]) -> bytes:
    """The digest of a whole view, from scratch."""
    return record({k: part_digest(v) for k, v in view.items()})


def differences(received: bytes, view: Mapping[str, Any],
                parts: Mapping[str, bytes] | None = None) -> list[str]:
    """The top-level keys in which ``view`` differs from the view ``received`` digests
    ([] when they agree); ``parts`` are ``view``'s part digests if already known. A key
    only the received view had is named "another part"."""
    got = {received[i:i + NAME_BYTES]: received[i + NAME_BYTES:i + ENTRY]
           for i in range(0, len(received), ENTRY)}
    out: list[str] = []
    names = set()
    for key in sorted(view):
        name = name_digest(key)
        names.add(name)
        mine = parts[key] if parts is not None else part_digest(view[key])
        if got.get(name) != mine:
            out.append(key)
    if any(name not in names for name in got):
        out.append("another part")
    return out


class Replayed:
    """The part digests of view after view of a replay, hashing again only the parts
    that changed: a part packed to the same bytes as before is the same value."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[bytes, bytes]] = {}

    def parts(self, view: Mapping[str, Any]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        cache: dict[str, tuple[bytes, bytes]] = {}
        for key, value in view.items():
            packed = pack(value)
            old = self._cache.get(key)
            found = old[1] if old is not None and old[0] == packed else part_digest(value)
            out[key] = found
            cache[key] = (packed, found)
        self._cache = cache
        return out


Memo = dict[int, tuple[Any, Any]]
"""id of a map or list -> (it, its canonical form)."""


def _canonical(value: Any, old: Memo, new: Memo) -> Any:
    """``canonical(value)``, taking the form of a map or list that is in ``old`` (the
    very object, not an equal one) from there, and noting every one it met in ``new``."""
    if isinstance(value, dict | list | tuple):
        found = old.get(id(value))
        if found is None or found[0] is not value:
            leaf = _LEAF
            if isinstance(value, dict):
                form: Any = {k: v if type(v) in leaf else _canonical(v, old, new)
                             for k in sorted(value) for v in (value[k],)}
            else:
                form = [v if type(v) in leaf else _canonical(v, old, new) for v in value]
            found = (value, form)
        new[id(value)] = found
        return found[1]
    return value


def _array_header(count: int) -> bytes:
    """The msgpack array header msgpack itself writes for ``count`` items."""
    if count < 16:
        return bytes((0x90 | count,))
    if count < 1 << 16:
        return b"\xdc" + count.to_bytes(2, "big")
    return b"\xdd" + count.to_bytes(4, "big")


class Parts:
    """The digests of the view a peer holds now, updated delta by delta.

    A delta copies only the maps and lists on its paths (``delta.BoundedView``): the
    rest of the view is the very same objects as before, so the canonical form of
    each (what ``part_digest`` hashes) is kept by identity, and a part the delta
    touched costs the work of what changed in it plus one pack and one hash, not a
    walk of the whole part (a long log, say). The digests are those of
    ``part_digest``, byte for byte. The view must not be changed in place (a peer's
    never is: deltas make new maps and lists)."""

    def __init__(self) -> None:
        self.parts: dict[str, bytes] = {}
        self._memo: dict[str, Memo] = {}
        self._lists: dict[str, tuple[list[Any], bytes]] = {}
        """A list part as last hashed, and its items' canonical msgpack, joined."""

    def _digest(self, key: str, value: Any) -> bytes:
        if type(value) is list:
            return self._list_digest(key, value)
        self._lists.pop(key, None)
        memo: Memo = {}
        form = _canonical(value, self._memo.get(key, {}), memo)
        self._memo[key] = memo
        return hashlib.sha256(pack(form)).digest()[:PART_BYTES]

    def _list_digest(self, key: str, value: list[Any]) -> bytes:
        """A list part: msgpack writes an array as its header and then each item as it
        would alone, so a list that only grew (a log) is hashed from the bytes of the
        items it had (the very same objects: compared by identity, in C) and the
        packing of the new ones."""
        before = self._lists.get(key)
        old = self._memo.get(key, {})
        memo: Memo = {}
        header = _array_header(len(value))
        if (before is not None and len(value) >= len(before[0])
                and all(map(operator.is_, value, before[0]))):
            body = before[1] + b"".join(pack(_canonical(item, old, memo))
                                        for item in value[len(before[0]):])
            whole = header + body
        else:
            whole = pack(_canonical(value, old, memo))
            body = whole[len(header):]
        self._memo[key] = memo
        self._lists[key] = (value, body)
        return hashlib.sha256(whole).digest()[:PART_BYTES]

    def reset(self, view: Mapping[str, Any]) -> bytes:
        """A whole new view (a snapshot): hash every key. A view that is not a map (a
        hostile delta can make one) is one nameless part no replay's view has."""
        self._memo, self._lists = {}, {}
        if not isinstance(view, Mapping):
            self.parts = {"\x00": part_digest(view)}
        else:
            self.parts = {k: self._digest(k, v) for k, v in view.items()}
        return record(self.parts)

    def update(self, view: Mapping[str, Any], ops: Sequence[Any]) -> bytes:
        """``view`` is the old one with ``ops`` applied: hash again only what they touched."""
        if not isinstance(view, Mapping) or "\x00" in self.parts:
            return self.reset(view)
        touched: set[str] = set()
        for op in ops:
            path = op[1] if isinstance(op, list) and len(op) > 1 else None
            if not isinstance(path, list) or not path or not isinstance(path[0], str):
                return self.reset(view)  # the whole view replaced
            touched.add(path[0])
        for key in touched:
            if key in view:
                self.parts[key] = self._digest(key, view[key])
            else:
                self.parts.pop(key, None)
                self._memo.pop(key, None)
                self._lists.pop(key, None)
        return record(self.parts)
