"""The Ranking Top table: the widget, its reading of the view, the stage, cards and demo."""

from ui.tables.ranking_top.table import RankingTopTable

__all__ = ["RankingTopTable"]
