"""The Ranagedon table: its widget, board geometry, frog items, aiming, deploying and demo."""

from ui.tables.ranagedon.table import RanagedonTable

__all__ = ["RanagedonTable"]
