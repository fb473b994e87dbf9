"""What the window says when the network may be in the way, and the card it says it in.

A host's first room meets the system's firewall prompt (Windows asks about
private networks, macOS about incoming connections); a room nobody joins or
a list that stays empty usually means a network that blocks multicast or
keeps laptops apart. The texts are plain functions of the system, so tests
read each one; the card shows one of them with the address to type.
"""

from __future__ import annotations

import sys

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtWidgets import QApplication, QWidget

from lanplay.host import DEFAULT_PORT, ports
from ui.look.widgets import Card, button, label
from ui.words.i18n import _

MDNS_PORT = 5353
"""UDP: where zeroconf (mDNS) discovery listens, on every system."""


def system(platform: str | None = None) -> str:
    """"windows", "macos" or "linux" (anything else reads as Linux: a Unix firewall)."""
    platform = platform or sys.platform
    if platform.startswith("win"):
        return "windows"
    return "macos" if platform == "darwin" else "linux"


def first_host_title() -> str:
    return _("Hosting for the first time on this laptop")


def first_host_text(port: int, platform: str | None = None, web_port: int = 0) -> str:
    """What this system's firewall will ask, and the answer that lets the others in: the
    game's port and the browser page's (``web_port``; 0: none), or the usual range that
    holds both."""
    kind = system(platform)
    if kind == "windows":
        return _("Windows may ask whether to allow lanplay on networks: tick Private networks "
                 "and press Allow. On a network Windows calls Public (a caf\u00e9, a hotel), "
                 "it blocks discovery and keeps the others out: make this network Private in "
                 "Settings \u2192 Network & internet, or host on another one.")
    if kind == "macos":
        return _("macOS may ask whether lanplay may accept incoming network connections, and "
                 "whether it may find devices on your local network: answer Allow to both, "
                 "or the others cannot see or join this room.")
    if _in_range(port, web_port):
        low, high = ports.usual_range()
        return _("If this laptop runs a firewall (ufw, firewalld), let in TCP ports {low} to "
                 "{high} for the game and UDP port {mdns} for discovery, for example "
                 "\u201csudo ufw allow {low}:{high}/tcp\u201d and \u201csudo ufw allow "
                 "{mdns}/udp\u201d; otherwise the others cannot see or join this room.").format(
                     low=low, high=high, mdns=MDNS_PORT)
    if web_port:
        return _("If this laptop runs a firewall (ufw, firewalld), let in TCP port {port} for "
                 "the game, TCP port {web} for the browser page and UDP port {mdns} for "
                 "discovery, for example \u201csudo ufw allow {port}/tcp\u201d, \u201csudo ufw "
                 "allow {web}/tcp\u201d and \u201csudo ufw allow {mdns}/udp\u201d; otherwise "
                 "the others cannot see or join this room.").format(port=port, web=web_port,
                                                                     mdns=MDNS_PORT)
    return _("If this laptop runs a firewall (ufw, firewalld), let in TCP port {port} for "
             "the game and UDP port {mdns} for discovery, for example \u201csudo ufw allow "
             "{port}/tcp\u201d and \u201csudo ufw allow {mdns}/udp\u201d; otherwise the "
             "others cannot see or join this room.").format(port=port, mdns=MDNS_PORT)


def _in_range(port: int, web_port: int = 0) -> bool:
    """The game's port and the page's (if any) are both of the usual range."""
    return ports.in_usual_range(port) and (not web_port or ports.in_usual_range(web_port))


def tcp_ports(port: int, web_port: int = 0) -> str:
    """The TCP ports a firewall must let in for a room on ``port`` with its page on
    ``web_port``: the usual range when both are of it (the next room on the laptop may
    take the next pair), else the two ports (the game's alone when there is no page)."""
    if _in_range(port, web_port):
        low, high = ports.usual_range()
        return f"{low}\u2013{high}"
    return f"{port}, {web_port}" if web_port else str(port)


def _firewall_hint(port: int, platform: str | None, host: bool, web_port: int = 0) -> str:
    kind = system(platform)
    if kind == "windows":
        return _("a firewall: Windows keeps lanplay out on a network it calls Public (make it "
                 "Private in Settings \u2192 Network & internet)")
    if kind == "macos":
        return _("a firewall: in System Settings \u2192 Network \u2192 Firewall, lanplay "
                 "must be allowed incoming connections")
    if host:
        return _("a firewall on the host's laptop (TCP {ports} and UDP {mdns} must be let "
                 "in)").format(ports=tcp_ports(port), mdns=MDNS_PORT)
    return _("a firewall on this laptop (TCP {ports} and UDP {mdns} must be let in)").format(
        ports=tcp_ports(port, web_port), mdns=MDNS_PORT)


def lonely_title() -> str:
    return _("Nobody has joined yet")


def lonely_text(port: int, platform: str | None = None, web_port: int = 0) -> str:
    """The host waits alone: why the others may not see the room, and what to type."""
    why = _firewall_hint(port, platform, host=False, web_port=web_port)
    return _("If the others do not see this room in their list, the network may be in the "
             "way: some Wi-Fi networks block the multicast that discovery uses, guest and "
             "hotel Wi-Fi often keep laptops from reaching each other at all, or {why}. "
             "On their laptops, use \u201cJoin by address\u2026\u201d and type:").format(
                 why=why)


def lonely_after_text() -> str:
    return _("If that fails too, the laptops cannot reach each other on this network: try a "
             "phone's hotspot or the party's own router.")


def quiet_text(platform: str | None = None, port: int = DEFAULT_PORT) -> str:
    """Home's list stays empty: why a friend's room may not show up, and the way round."""
    why = _firewall_hint(port, platform, host=True)
    return _("Still no games found.\n\nIf a friend is hosting, the network may be hiding "
             "the room: some Wi-Fi networks block the multicast that discovery uses, guest "
             "Wi-Fi often keeps laptops apart, or {why}.\n\nAsk them for the address "
             "their room shows and type it in \u201cJoin by address\u2026\u201d.").format(
                 why=why)


class Notice(Card):
    """A card with a heading, a text, and optionally an address to type and copy."""

    dismissed = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, margin=14)
        self.title = label("", "heading")
        self.text = label("", wrap=True)
        self.address = label("", "big", wrap=True)
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.after = label("", "muted", wrap=True)
        # The address on its line, the buttons under it, one a line: the notice floats
        # over the room's chat column, narrow at 1024 wide.
        self.copy = button(_("Copy address"))
        self.copy.clicked.connect(self._copy)
        self.ok = button(_("Got it"))
        self.ok.clicked.connect(self._dismiss)
        self.body.addWidget(self.title)
        self.body.addWidget(self.text)
        self.body.addWidget(self.address)
        self.body.addWidget(self.copy)
        self.body.addWidget(self.after)
        self.body.addWidget(self.ok)
        self.kind = ""
        self.hide()

    def say(self, kind: str, title: str, text: str, address: str = "",
            after: str = "") -> None:
        self.kind = kind
        self.title.setText(title)
        self.text.setText(text)
        self.address.setText(address)
        self.address.setVisible(bool(address))
        self.copy.setVisible(bool(address))
        self.after.setText(after)
        self.after.setVisible(bool(after))
        self.show()

    def clear(self, kind: str | None = None) -> None:
        """Hide the notice (only if it is of ``kind``, when given)."""
        if kind is None or kind == self.kind:
            self.kind = ""
            self.hide()

    def _copy(self) -> None:
        clipboard = QApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.address.text().split("\n")[0])

    def _dismiss(self) -> None:
        self.clear()
        self.dismissed.emit()


__all__ = ["MDNS_PORT", "Notice", "first_host_text", "first_host_title", "lonely_text",
           "lonely_title", "quiet_text", "system", "tcp_ports"]
