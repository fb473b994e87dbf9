"""The names a browser reaches this host by: the ``Host`` header read strictly, and the
host's own addresses and names (those it prints, shows and announces).

A ``Host`` header is the one thing of a request the server acts on besides its
path, so it is read once, by rules a client cannot stretch: exactly one, at most
255 characters, a DNS name of letters, digits and hyphens in labels of at most 63
(or an IPv4 address, or an IPv6 one in brackets), and a port of digits. One that
breaks them is a bad request (400); one that is well formed but names another
machine is misdirected (421). Only the host's own names get a QR code, drawn once
each before anyone asks (``lanplay.web.server``).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass

MAX_HOST = 255
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
_PORT = re.compile(r"[0-9]{1,5}")


@dataclass(frozen=True)
class HostName:
    """A ``Host`` header, read: its name in lower case (an IPv6 address without its
    brackets), its port (None when not given) and the header as the browser sent it."""

    name: str
    port: int | None
    value: str


def parse(value: str) -> HostName | None:
    """The ``Host`` header ``value`` read, or None when it is not a well-formed one."""
    text = value.strip()
    if not text or len(text) > MAX_HOST or not text.isascii():
        return None
    lowered = text.lower()
    port: str | None = None
    if lowered.startswith("["):
        inside, bracket, rest = lowered[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        name, port = inside, (rest[1:] if rest else None)
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
    else:
        name, colon, after = lowered.partition(":")
        port = after if colon else None
        if not _well_formed(name):
            return None
    if port is not None and (not _PORT.fullmatch(port) or int(port) > 65535):
        return None
    return HostName(name, int(port) if port is not None else None, text)


def _well_formed(name: str) -> bool:
    """A DNS name (labels of letters, digits, hyphens) or an IPv4 address."""
    labels = name[:-1].split(".") if name.endswith(".") else name.split(".")
    return bool(labels) and all(_LABEL.fullmatch(label) for label in labels)


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Names:
    """This machine's names: ``local`` says whether a Host header names it as a LAN
    page would reach it; ``own`` lists the Host values it is shown and announced by."""

    def __init__(self, addresses: Iterable[str], port: int,
                 host_name: str | None = None) -> None:
        machine = (host_name if host_name is not None else socket.gethostname()).lower()
        self.port = port
        self.machine = machine
        named = [machine, f"{machine}.local"] if _well_formed(machine) else []
        self.names = tuple(dict.fromkeys(
            [*(a.lower() for a in addresses), "127.0.0.1", "localhost", *named]))

    def local(self, host: HostName) -> bool:
        """An IP address, ``localhost``, this machine's name, or a ``.local`` name (an
        mDNS name: a page of another site that points its own name at this address
        gets neither the page nor the socket, its origin is never the page's)."""
        name = host.name.rstrip(".")
        return (is_ip(name) or name in ("localhost", self.machine)
                or name.endswith(".local") or name.endswith(".localhost"))

    def own(self) -> list[str]:
        """The Host values of this machine's own names with the page's port (and without
        it, on port 80), as a browser sends them."""
        out = []
        for name in self.names:
            shown = f"[{name}]" if ":" in name else name
            out.append(f"{shown}:{self.port}")
            if self.port == 80:
                out.append(shown)
        return out
