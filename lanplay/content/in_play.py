"""The content in play in this process: the built-in pack plus the custom packs shared.

A game names its custom pack with the option ``pack`` (a pack id, "" for
the built-in content only). Its rules get the components through
``for_options`` at setup and keep them in the state as plain data, so a
running game never reads a pack again. Bots and tables only ever hold
picture ids; they look them up here. The host registers the pack it shares,
each peer the packs it has received in full, so a bot or a table on any
laptop can score and draw a custom picture once its bytes have arrived.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lanplay.content.library import Library, builtin, library
from lanplay.content.model import Pack, Picture

PACK_OPTION = "pack"
"""The option key naming a game's custom pack ("" = built-in content only)."""

_registered: dict[str, Pack] = {}
_current: Library | None = None


def pack_ids(options: Mapping[str, Any]) -> list[str]:
    """The custom packs a game's options name (at most one today)."""
    value = options.get(PACK_OPTION, "")
    return [value] if isinstance(value, str) and value else []


def for_options(options: Mapping[str, Any]) -> Library:
    """The library a game draws its components from; KeyError names a missing pack.

    Reads the pack folder (the one place a game's setup touches disk); the
    components then live in the game's state.
    """
    return library(pack_ids(options))


def register(pack: Pack) -> None:
    """Make a custom pack's pictures known to this process's bots and tables."""
    global _current
    _registered[pack.id] = pack
    _current = None


def current() -> Library:
    """The built-in pack plus every pack registered so far."""
    global _current
    if _current is None:
        _current = Library([builtin(), *_registered.values()])
    return _current


def picture(picture_id: str) -> Picture | None:
    """The picture with this id among the content in play, or None (not here yet)."""
    return current().pictures.get(picture_id)


def forget() -> None:
    """Drop every registered pack (tests)."""
    global _current
    _registered.clear()
    _current = None


__all__ = ["PACK_OPTION", "current", "for_options", "forget", "pack_ids", "picture",
           "register"]
