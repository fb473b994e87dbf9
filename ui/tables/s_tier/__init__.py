"""The S-tier table: its widget, the tier board, one panel per mode, notes and demo."""

from ui.tables.s_tier.table import STierTable

__all__ = ["STierTable"]
