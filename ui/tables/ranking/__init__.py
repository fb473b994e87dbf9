"""The Ranking table: its widget, tile items, tower layout and demo."""

from ui.tables.ranking.table import RankingTable

__all__ = ["RankingTable"]
