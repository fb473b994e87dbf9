"""Every table, as a screen reader sees it: the accessibility tree walked over AT-SPI.

A real window (``tests/a11y_child.py``) runs on its own X display (Xvfb) with Qt's
AT-SPI bridge on, on a D-Bus session of its own whose accessibility bus the
at-spi2 launcher starts; it shows every table screen of ``lanplay screenshots``
that a player can act in. This test is the screen reader: it walks the tree over
D-Bus (PyQt6's QtDBus, as any AT-SPI client would) and finds, on every screen,

- each piece the player can act on now (the table's stand-ins, ``ui.tables.keys``)
  as a "push button" with its name (its key in it), enabled and focusable;
- each of the window's controls under its name with a role;
- no actionable object (a button, a check box, an entry...) without a name;
- the table under "{game}: the table", its description the turn line;

and hears the turn line announced: the accessible-name change Qt sends when it
changes arrives as an AT-SPI event.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from own_display import own_xvfb
from PyQt6.QtCore import QEventLoop, QObject, QTimer, pyqtSlot
from PyQt6.QtDBus import QDBus, QDBusConnection, QDBusMessage
from PyQt6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
NEEDED = ("Xvfb", "dbus-daemon")
pytestmark = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in NEEDED)
    or not Path("/usr/libexec/at-spi-bus-launcher").exists(),
    reason="needs Xvfb, dbus-daemon and at-spi2-core (.ci/run installs them)")

ACTIONABLE = {"push button", "toggle button", "check box", "radio button", "combo box",
              "menu item", "page tab", "slider", "spin button", "entry", "text",
              "password text", "list item", "tree item", "table cell"}
"""Roles of objects a person acts on (every one must have a name)."""
ENABLED, FOCUSABLE, SHOWING, SENSITIVE = 8, 11, 25, 24
"""AT-SPI state bits (AtspiStateType)."""
ATSPI = "org.a11y.atspi"
ACCESSIBLE = "org.a11y.atspi.Accessible"


@dataclass
class Node:
    name: str
    role: str
    description: str
    states: set[int]
    children: list[Node] = field(default_factory=list)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()


class Reader:
    """A screen reader's view of one application over the accessibility bus."""

    def __init__(self, address: str) -> None:
        self.conn = QDBusConnection.connectToBus(address, f"a11y-{os.getpid()}")
        assert self.conn.isConnected(), self.conn.lastError().message()
        self.heard: list[str] = []

    def call(self, dest: str, path: str, iface: str, method: str, *args: Any) -> list[Any]:
        message = QDBusMessage.createMethodCall(dest, path, iface, method)
        if args:
            message.setArguments(list(args))
        reply = self.conn.call(message, QDBus.CallMode.Block, 5000)
        assert reply.type() == QDBusMessage.MessageType.ReplyMessage, reply.errorMessage()
        return list(reply.arguments())

    def prop(self, dest: str, path: str, name: str) -> Any:
        value = self.call(dest, path, "org.freedesktop.DBus.Properties", "Get",
                          ACCESSIBLE, name)[0]
        return value.variant() if hasattr(value, "variant") else value

    def apps(self) -> list[tuple[str, str]]:
        return [tuple(c) for c in self.call(f"{ATSPI}.Registry", "/org/a11y/atspi/accessible/root",
                                            ACCESSIBLE, "GetChildren")[0]]

    def node(self, dest: str, path: str) -> Node:
        """The object at ``path`` and everything showing under it."""
        states_raw = self.call(dest, path, ACCESSIBLE, "GetState")[0]
        states = {bit + 32 * word for word, bits in enumerate(states_raw)
                  for bit in range(32) if int(bits) >> bit & 1}
        node = Node(str(self.prop(dest, path, "Name")),
                    str(self.call(dest, path, ACCESSIBLE, "GetRoleName")[0]),
                    str(self.prop(dest, path, "Description")), states)
        if SHOWING in states or path.endswith("/root"):
            for child_dest, child_path in self.call(dest, path, ACCESSIBLE, "GetChildren")[0]:
                node.children.append(self.node(str(child_dest), str(child_path)))
        return node

    def listen(self) -> None:
        """Register as a screen reader does, for the objects' events."""
        self.call(f"{ATSPI}.Registry", "/org/a11y/atspi/registry", f"{ATSPI}.Registry",
                  "RegisterEvent", "object:property-change")
        self._ear = Ear(self.heard)
        assert self.conn.connect("", "", f"{ATSPI}.Event.Object", "PropertyChange",
                                 self._ear.got)

    def hear(self, text: str, timeout_ms: int = 5000) -> bool:
        """Wait (on D-Bus events, with a deadline) until ``text`` was announced."""
        if text in self.heard:
            return True
        loop = QEventLoop()
        self._ear.wake = loop.quit
        QTimer.singleShot(timeout_ms, loop.quit)
        while text not in self.heard:
            before = len(self.heard)
            loop.exec()
            if len(self.heard) == before:
                break  # the deadline passed
        return text in self.heard


class Ear(QObject):
    def __init__(self, heard: list[str]) -> None:
        super().__init__()
        self.heard = heard
        self.wake: Any = None

    @pyqtSlot(QDBusMessage)
    def got(self, message: QDBusMessage) -> None:
        args = message.arguments()
        if args and args[0] == "accessible-name":
            value = args[3]
            self.heard.append(str(value.variant() if hasattr(value, "variant") else value))
            if self.wake is not None:
                self.wake()


@pytest.fixture
def desktop(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An X display and a D-Bus session of this test's own (their accessibility bus is
    started by D-Bus on the first request); both ended after, by their pids."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    xvfb, display = own_xvfb()
    env = {**os.environ, "DISPLAY": display, "XDG_RUNTIME_DIR": str(runtime),
           "NO_AT_BRIDGE": "0"}
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert bus.stdout is not None
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
        yield env
    finally:
        bus.terminate()
        xvfb.terminate()
        bus.wait(10)
        xvfb.wait(10)


def a11y_address(env: dict[str, str]) -> str:
    out = subprocess.run(["dbus-send", "--session", "--print-reply=literal",
                          "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
                         env=env, capture_output=True, text=True, timeout=20, check=True)
    return out.stdout.strip()


def table_node(root: Node, game_name: str) -> Node | None:
    return next((n for n in root.walk() if n.name == f"{game_name}: the table"), None)


@pytest.mark.timeout(120)
def test_every_table_names_what_a_person_can_act_on(qapp: QApplication,
                                                     desktop: dict[str, str]) -> None:
    address = a11y_address(desktop)  # starts the launcher and its registry
    reader = Reader(address)
    env = {**desktop, "QT_QPA_PLATFORM": "xcb", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
           "LANPLAY_LANG": "en", "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, str(ROOT / "tests" / "a11y_child.py")], env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             cwd=ROOT)
    assert child.stdin is not None and child.stdout is not None
    from ui.words.game_words import game_name

    seen_pieces: dict[str, int] = {}
    screens = 0
    try:
        while True:
            line = child.stdout.readline()
            assert line, "the window's process ended early"
            shown = json.loads(line)
            if shown["screen"] is None:
                break
            screens += 1
            apps = reader.apps()
            assert len(apps) == 1, apps
            root = reader.node(*apps[0])
            nodes = list(root.walk())
            where = shown["screen"]
            buttons = [n for n in nodes if n.role in ACTIONABLE and SHOWING in n.states]
            unnamed = [n.role for n in buttons if not n.name.strip()]
            assert not unnamed, f"{where}: objects without a name: {unnamed}"
            for name in shown["pieces"]:
                found = [n for n in buttons if n.name == name]
                assert found, f"{where}: the piece {name!r} is not in the tree"
                assert found[0].role == "push button", (where, name, found[0].role)
                assert {ENABLED, FOCUSABLE} <= found[0].states, (where, name)
            for name in shown["controls"]:
                assert any(n.name == name for n in buttons), \
                    f"{where}: the control {name!r} is not in the tree with a role"
            prefix = next((g for g in ("ranking-top", "ranking", "s-tier", "alles-klar",
                                       "ranagedon") if where.startswith(g)), "")
            table = table_node(root, game_name(prefix))
            assert table is not None, f"{where}: no table named for {game_name(prefix)}"
            assert table.description.strip(), f"{where}: the table says no turn line"
            seen_pieces[prefix] = seen_pieces.get(prefix, 0) + len(shown["pieces"])
            if screens == 1:
                reader.listen()
            elif screens == 2:
                # The turn line changed with the screen: a screen reader heard it.
                assert reader.hear(table.description), \
                    f"the turn line {table.description!r} was never announced"
            child.stdin.write("next\n")
            child.stdin.flush()
    finally:
        if child.stdin is not None and not child.stdin.closed:
            child.stdin.close()
        child.wait(20)
    assert screens >= 15
    missing = [g for g in ("alles-klar", "ranking", "s-tier", "ranking-top", "ranagedon")
               if not seen_pieces.get(g)]
    assert not missing, f"no piece to act on was found on the tables of {missing}"
