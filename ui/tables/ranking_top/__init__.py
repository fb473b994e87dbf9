"""The Ranking Top table: its widget, card items, layout, choice panel and demo."""

from ui.tables.ranking_top.table import RankingTopTable

__all__ = ["RankingTopTable"]
