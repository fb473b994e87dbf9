"""Deploying on the Ranagedon table: a suggested cluster or a group placed by hand,
checked locally as it is dragged (``deploy.problem``), sent on Confirm. A mixin of
the table (``RanagedonTable``): the host decides; this only offers and sends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QPointF

from ui.tables.ranagedon.deploy import problem
from ui.tables.ranagedon.reading import frog_xy


class Deploying:
    """Placing my frogs before the first jump (mixed into ``RanagedonTable``)."""

    view: dict[str, Any] | None
    board: Any
    placement: list[tuple[float, float]] | None
    cluster: int | None
    _pointer: QPointF | None

    if TYPE_CHECKING:  # the table's own (declared here only for the type checker)
        @property
        def read(self) -> Any: ...

        def _rebuild(self) -> None: ...

        def _send(self, action: dict[str, Any]) -> None: ...

        def _toast(self, text: str) -> None: ...

    def _start_placement(self) -> None:
        view = self.view or {}
        read = self.read
        mine = read.my_clusters()
        if mine:
            self.placement = [(float(x), float(y)) for x, y in mine[0]["frogs"]]
            self.cluster = 0
        else:
            side = read.my_side()
            self.placement = [frog_xy(f) for f in sorted(view.get("frogs") or [],
                                                         key=lambda f: int(f["id"]))
                              if f.get("side") == side]
            self.cluster = None

    def choose_cluster(self, k: int) -> None:
        """Show suggested cluster ``k`` on the table (Confirm sends it)."""
        mine = self.read.my_clusters()
        if not self.read.can_deploy() or not 0 <= k < len(mine):
            return
        self.placement = [(float(x), float(y)) for x, y in mine[k]["frogs"]]
        self.cluster = k
        self._rebuild()

    def _confirm(self) -> None:
        if not self.read.can_deploy() or self.placement is None:
            return
        if self.cluster is not None:
            self._send({"type": "deploy", "cluster": self.cluster})
        else:
            self._send({"type": "deploy",
                        "frogs": [[round(x, 2), round(y, 2)] for x, y in self.placement]})

    def _drop(self, index: int, at: QPointF) -> None:
        """A frog dragged while deploying: keep it there if the group still holds."""
        board = self.board
        if board is None or self.placement is None:
            return
        x, y = board.to_model(at)
        moved = list(self.placement)
        moved[index] = (round(x, 2), round(y, 2))
        trouble = problem(moved, self.read.my_sector(), self.view or {})
        if trouble:
            self._pointer = at
            self._rebuild()
            self._toast(trouble)
            return
        self.placement = moved
        self.cluster = None
        self._rebuild()

