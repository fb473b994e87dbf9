"""The Alles klar? table: its widget, card and stack items, layout and demo."""

from ui.tables.alles_klar.table import AllesKlarTable

__all__ = ["AllesKlarTable"]
