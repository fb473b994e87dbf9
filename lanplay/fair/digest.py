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
from collections.abc import Mapping, Sequence
from typing import Any

from protocol.codec import pack

NAME_BYTES = 4
PART_BYTES = 16
ENTRY = NAME_BYTES + PART_BYTES


def canonical(value: Any) -> Any:
    """``value`` with every map's keys sorted (tuples become lists), for hashing."""
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


class Parts:
    """The digests of the view a peer holds now, updated delta by delta."""

    def __init__(self) -> None:
        self.parts: dict[str, bytes] = {}

    def reset(self, view: Mapping[str, Any]) -> bytes:
        """A whole new view (a snapshot): hash every key. A view that is not a map (a
        hostile delta can make one) is one nameless part no replay's view has."""
        if not isinstance(view, Mapping):
            self.parts = {"\x00": part_digest(view)}
        else:
            self.parts = {k: part_digest(v) for k, v in view.items()}
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
                self.parts[key] = part_digest(view[key])
            else:
                self.parts.pop(key, None)
        return record(self.parts)
