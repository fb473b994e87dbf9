"""The column of what I can do now, under the legend: a hint and the buttons.

While deploying: one button per suggested cluster and Confirm; while jumping:
Dive (when a diver may slide first), or Jump again and Stop after a double
jump or a dive. The panel only shows what the table offers and passes the
clicks on (its buttons' signals and ``chose_cluster``); it decides nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from PyQt6.QtCore import QPoint, Qt, pyqtSignal
from PyQt6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

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
            + BUTTON_STYLE)
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
        self.cluster_row = QVBoxLayout()
        self.cluster_row.setSpacing(6)
        self.action_column.addLayout(self.cluster_row)
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
              shown: Sequence[QPushButton], dive_on: bool) -> bool:
        """Show ``hint``, a button per cluster name (``chosen`` checked) and the ``shown``
        buttons; True when there is anything to show at all."""
        t = text_px
        for button in self.cluster_buttons:
            self.cluster_row.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.cluster_buttons = []
        self.hint.setFont(look.font(t * 0.95))
        for button in self._buttons():
            button.setFont(look.font(t, bold=True))
            button.hide()
        for k, name in enumerate(clusters):
            button = QPushButton(name, self)
            button.setCheckable(True)
            button.setChecked(chosen == k)
            button.setFont(look.font(t * 0.95, bold=True))
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            button.clicked.connect(lambda _=False, k=k: self.chose_cluster.emit(k))
            self.cluster_row.addWidget(button)
            self.cluster_buttons.append(button)
        for button in shown:
            button.show()
        if self.dive_button in shown:
            self.dive_button.blockSignals(True)
            self.dive_button.setChecked(dive_on)
            self.dive_button.blockSignals(False)
        self.hint.setText(hint)
        self.hint.setVisible(bool(hint))
        visible = bool(hint) or bool(self.cluster_buttons)
        self.setVisible(visible)
        return visible

    def _fit_hint(self, width: int, height: int) -> None:
        """The hint a size smaller (never below the platform's type) where the buttons
        leave it less room: German's aiming hint ran under "Dive" at 1024x640."""
        if self.hint.isHidden() or not self.hint.text():
            return
        spacing = self.action_column.spacing()
        buttons = [b for b in (*self.cluster_buttons, *self._buttons()) if not b.isHidden()]
        room = height - sum(b.sizeHint().height() + spacing for b in buttons) - spacing
        px = float(self.hint.font().pixelSize())
        while self.hint.heightForWidth(width) > room and px > look.default_px():
            px = max(float(look.default_px()), px * 0.92)
            self.hint.setFont(look.font(px))

    def place(self, top_left: QPoint, width: float, height: float) -> None:
        """Fill ``width`` x ``height`` from ``top_left`` (viewport pixels), over the felt."""
        self.setFixedSize(round(width), max(40, round(height)))
        self._fit_hint(round(width), max(40, round(height)))
        self.action_column.activate()
        self.move(top_left)
        self.raise_()
