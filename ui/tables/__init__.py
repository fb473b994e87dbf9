"""Game tables: one QWidget per game that renders views and emits intents.

Each game's table has its own folder, ``ui/tables/<game>/`` (as its rules have
``lanplay/games/<game>/``): ``table.py`` is the widget, beside its items,
layout and reading of the view; its demo scenes are a tool
(``ui/tools/demos/<game>.py``). The modules here are shared by every table: the
felt frame (``felt``), motion, pieces, look, widgets, textfit, and ``keys`` (the
pieces' stand-ins for the keyboard and for screen readers).
A game's folder imports no other game's folder (``tests/test_layering.py``).

The window codes against this contract only:

- ``table_for(game_id) -> type`` gives the table class for a game id, and
  ``make_table(game_id)`` one of them (or the plain stand-in, ``placeholder``);
- a table is a ``QWidget`` with ``intent = pyqtSignal(dict)`` (an action to
  send), ``set_view(view, seats, you, animate=True)`` (``seats`` are the
  lobby's seat maps, ``you`` is my seat or ``None`` for a spectator; a resync
  is applied with ``animate=False`` and jumps) and ``show_rejection(reason)``
  (the host's reason, shown near where the player looked, for a moment).
"""

from __future__ import annotations

from PyQt6.QtWidgets import QWidget


def table_for(game_id: str) -> type[QWidget]:
    """The table class for a game id; a KeyError names the unknown game."""
    if game_id in ("alles-klar", "alles_klar"):
        from ui.tables.alles_klar import AllesKlarTable
        return AllesKlarTable
    if game_id in ("s-tier", "s_tier"):
        from ui.tables.s_tier import STierTable
        return STierTable
    if game_id in ("ranking-top", "ranking_top"):
        from ui.tables.ranking_top import RankingTopTable
        return RankingTopTable
    if game_id == "ranking":
        from ui.tables.ranking import RankingTable
        return RankingTable
    if game_id == "ranagedon":
        from ui.tables.ranagedon import RanagedonTable
        return RanagedonTable
    raise KeyError(f"No table for the game {game_id!r} yet.")


def make_table(game_id: str) -> QWidget:
    """The game's own table, or the plain stand-in if it has none (yet)."""
    try:
        cls = table_for(game_id)
    except (ImportError, KeyError):
        from ui.tables.placeholder import PlaceholderTable

        return PlaceholderTable()
    return cls()


__all__ = ["make_table", "table_for"]
