"""The Ranagedon table: the widget, its reading of the view, frogs, aiming and flights."""

from ui.tables.ranagedon.table import RanagedonTable

__all__ = ["RanagedonTable"]
