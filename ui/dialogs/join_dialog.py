"""Joining by typing an address, and typing a room's password.

The dialog stays open while the window connects and shows the host's answer
in red right under the field, so a typo costs one correction, not a restart.
"""

from __future__ import annotations

from PyQt6.QtCore import pyqtSignal
from PyQt6.QtWidgets import QDialog, QLineEdit, QVBoxLayout, QWidget

from lanplay.host import DEFAULT_PORT
from ui.look.widgets import dialog_buttons, label
from ui.services.connection import parse_address
from ui.words.i18n import _


class JoinAddressDialog(QDialog):
    join = pyqtSignal(str, int)
    """(address, port) to try; the window answers with ``failed`` or closes us."""

    def __init__(self, parent: QWidget | None = None, text: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Join by address"))
        self.setMinimumWidth(520)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(10)
        layout.addWidget(label(_("Join by address"), "heading"))
        layout.addWidget(label(_(
            "Type the address shown on the host's screen, for example 192.168.1.20 (port "
            "{port} unless it says otherwise, as in 192.168.1.20:7532).").format(
                port=DEFAULT_PORT), "muted", wrap=True))
        self.address = QLineEdit(text)
        self.address.setPlaceholderText(_("ADDRESS or ADDRESS:PORT"))
        self.address.returnPressed.connect(self._try)
        layout.addWidget(self.address)
        self.error = label("", "error", wrap=True)
        layout.addWidget(self.error)
        row, self.ok = dialog_buttons(_("Join"), self._try, self.reject)
        layout.addLayout(row)

    def _try(self) -> None:
        if not self.ok.isEnabled():
            return
        try:
            host, port = parse_address(self.address.text())
        except ValueError as exc:
            self.failed(str(exc))
            return
        self.error.setText(_("Connecting to {address}\u2026").format(address=f"{host}:{port}"))
        self.ok.setEnabled(False)
        self.join.emit(host, port)

    def failed(self, reason: str) -> None:
        """The join did not work: say why, and let the player try again."""
        self.error.setText(reason)
        self.ok.setEnabled(True)
        self.address.setFocus()


class PasswordDialog(QDialog):
    entered = pyqtSignal(str)

    def __init__(self, host_name: str, parent: QWidget | None = None, error: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Password"))
        self.setMinimumWidth(420)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.addWidget(label(_("{host} needs a password to join.").format(host=host_name),
                               wrap=True))
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.returnPressed.connect(self._ok)
        layout.addWidget(self.password)
        self.error = label(error, "error", wrap=True)
        self.error.setVisible(bool(error))
        layout.addWidget(self.error)
        row, _ok = dialog_buttons(_("Join"), self._ok, self.reject)

        layout.addLayout(row)

    def _ok(self) -> None:
        self.entered.emit(self.password.text())
        self.accept()
