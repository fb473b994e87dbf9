"""Python references to Qt objects that a parent may delete under them.

A Qt object dies with its parent: a game switch deletes the old table and every
bubble, button and timer on it, a closed dialog deletes itself. A Python
attribute that still points at one then holds a wrapper whose C++ object is gone,
and the first call through it raises ``RuntimeError`` (in a slot, PyQt6 then ends
the process). ``Held`` is the window's ``QPointer``: it gives the object while it
lives and ``None`` after, so code asks "is it still there?" instead of crashing.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from PyQt6 import sip
from PyQt6.QtCore import QObject

Q = TypeVar("Q", bound=QObject)


def alive(obj: sip.simplewrapper | None) -> bool:
    """``obj`` is set and its Qt object has not been deleted (by its parent, or a scene
    that was cleared: a graphics item too)."""
    return obj is not None and not sip.isdeleted(obj)


class Held(Generic[Q]):
    """A reference that reads ``None`` once its Qt object is deleted."""

    def __init__(self, obj: Q | None = None) -> None:
        self._obj = obj

    def get(self) -> Q | None:
        obj = self._obj
        if obj is not None and sip.isdeleted(obj):
            self._obj = obj = None
        return obj

    def set(self, obj: Q | None) -> None:
        self._obj = obj

    def __bool__(self) -> bool:
        return self.get() is not None


__all__ = ["Held", "alive"]
