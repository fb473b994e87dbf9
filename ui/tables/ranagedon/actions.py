"""The column of what I can do now, under the legend: a hint and the buttons.

While deploying: one button per suggested cluster (side by side where the column
holds them) and Confirm; while jumping: Dive (when a diver may slide first), or
Jump again and Stop after a double jump or a dive. The buttons always keep their
height: the hint takes what room they leave, a size smaller or in its shorter
wording where it must. The panel only shows what the table offers and passes the
clicks on (its buttons' signals and ``chose_cluster``); it decides nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from PyQt6.QtCore import QPoint, Qt, pyqtSignal
from PyQt6.QtWidgets import QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.tables import look
from ui.tables.widgets import BUTTON_STYLE
from ui.words.i18n import _


class ActionPanel(QWidget):
    """A widget on the table's viewport; the table places it beside the board."""

    chose_cluster = pyqtSignal(int)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("ranagedonActions")
        self.setStyleSheet(
            "#ranagedonActions QLabel { color: #F3F1E7; }"
            "QPushButton:checked { background: #FFD866; border-color: #FFFFFF; }"
            + BUTTON_STYLE +
            # the clusters' buttons with less padding, so two or three stand in a row
            "QPushButton[cluster=\"true\"] { padding: 4px 6px; }"
            "QPushButton[cluster=\"true\"]:focus { padding: 3px 5px; }")
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.cluster_buttons: list[QPushButton] = []
        self.confirm_button = QPushButton(_("Confirm"), self)
        self.dive_button = QPushButton(_("Dive: slide first"), self)
        self.dive_button.setCheckable(True)
        self.again_button = QPushButton(_("Jump again"), self)
        self.stop_button = QPushButton(_("Stop"), self)
        self.action_column = QVBoxLayout(self)
        self.action_column.setContentsMargins(0, 0, 0, 0)
        self.action_column.setSpacing(8)
        self.action_column.addWidget(self.hint)
        self.cluster_grid = QGridLayout()
        self.cluster_grid.setSpacing(6)
        self.action_column.addLayout(self.cluster_grid)
        self._hints = ("", "")
        """The hint as offered, and its shorter wording for a column with less room."""
        self._hint_px = float(look.default_px())
        for button in self._buttons():
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        for button in (self.confirm_button, self.again_button, self.stop_button):
            self.action_column.addWidget(button)
        self.action_column.addStretch(1)
        # The Dive toggle at the foot, never where "Jump again" or "Stop" stood a moment
        # before (a Stop clicked as the view changed once switched Dive on).
        self.action_column.addWidget(self.dive_button)

    def _buttons(self) -> tuple[QPushButton, ...]:
        return (self.confirm_button, self.dive_button, self.again_button, self.stop_button)

    def offer(self, text_px: float, hint: str, clusters: Sequence[str], chosen: int | None,
              shown: Sequence[QPushButton], dive_on: bool, short_hint: str = "") -> bool:
        """Show ``hint`` (``short_hint`` where the column has no room for it), a button
        per cluster name (``chosen`` checked) and the ``shown`` buttons; True when there
        is anything to show at all."""
        t = text_px
        for button in self.cluster_buttons:
            self.cluster_grid.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.cluster_buttons = []
        self._hint_px = t * 0.95
        self.hint.setFont(look.font(self._hint_px))
        for button in self._buttons():
            button.setFont(look.font(t, bold=True))
            button.hide()
        for k, name in enumerate(clusters):
            button = QPushButton(name, self)
            button.setProperty("cluster", True)
            button.setCheckable(True)
            button.setChecked(chosen == k)
            button.setFont(look.font(t * 0.95, bold=True))
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            button.clicked.connect(lambda _=False, k=k: self.chose_cluster.emit(k))
            self.cluster_buttons.append(button)
        for button in shown:
            button.show()
        if self.dive_button in shown:
            self.dive_button.blockSignals(True)
            self.dive_button.setChecked(dive_on)
            self.dive_button.blockSignals(False)
        self._hints = (hint, short_hint)
        self.hint.setText(hint)
        self.hint.setMaximumHeight(16777215)
        self.hint.setVisible(bool(hint))
        visible = bool(hint) or bool(self.cluster_buttons)
        self.setVisible(visible)
        return visible

    def _arrange_clusters(self, width: int) -> int:
        """The cluster buttons side by side, as many to a row as ``width`` holds whole
        (German's three stood squashed one under another at 1000x592); returns the
        height of their rows."""
        buttons = self.cluster_buttons
        if not buttons:
            return 0
        gap = self.cluster_grid.spacing()
        widest = max(b.sizeHint().width() for b in buttons)
        across = max(1, min(len(buttons), (width + gap) // (widest + gap)))
        for k, button in enumerate(buttons):
            self.cluster_grid.removeWidget(button)
            self.cluster_grid.addWidget(button, k // across, k % across)
            button.show()  # now, not when the layout would: it is laid out at once
        for column in range(self.cluster_grid.columnCount()):
            self.cluster_grid.setColumnStretch(column, 1 if column < across else 0)
        rows = -(-len(buttons) // across)
        return rows * max(b.sizeHint().height() for b in buttons) + (rows - 1) * gap

    def _fit_hint(self, width: int, height: int, clusters: int) -> None:
        """The hint in the room the buttons leave: a size smaller (never below the
        platform's type; German's aiming hint ran under "Dive" at 1024x640), then in
        its shorter wording; the buttons keep their height whatever it needs."""
        if self.hint.isHidden() or not self.hint.text():
            return
        spacing = self.action_column.spacing()
        buttons = [b for b in self._buttons() if not b.isHidden()]
        room = height - sum(b.sizeHint().height() + spacing for b in buttons)
        if clusters:
            room -= clusters + spacing
        hint, short = self._hints
        for text in (hint, short) if short else (hint,):
            self.hint.setText(text)
            px = self._hint_px
            self.hint.setFont(look.font(px))
            while self.hint.heightForWidth(width) > room and px > look.default_px():
                px = max(float(look.default_px()), px * 0.92)
                self.hint.setFont(look.font(px))
            if self.hint.heightForWidth(width) <= room:
                break
        self.hint.setMaximumHeight(max(0, room))

    def place(self, top_left: QPoint, width: float, height: float) -> None:
        """Fill ``width`` x ``height`` from ``top_left`` (viewport pixels), over the felt."""
        self.setFixedSize(round(width), max(40, round(height)))
        clusters = self._arrange_clusters(round(width))
        self._fit_hint(round(width), max(40, round(height)), clusters)
        self.action_column.activate()
        self.move(top_left)
        self.raise_()
