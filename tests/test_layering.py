"""Imports go one way: ui -> lanplay -> protocol, and the game rules import no I/O.

Read from the source (the AST), so an import hidden inside a function counts
too; plus one subprocess proving the headless side imports with PyQt6 gone.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported(path: Path) -> list[tuple[str, int, str | None]]:
    """(top-level module, line, enclosing function or None) for every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    out: list[tuple[str, int, str | None]] = []

    def visit(node: ast.AST, func: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = func
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            if isinstance(child, ast.Import):
                out.extend((a.name.split(".")[0], child.lineno, inner) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    name = ".".join([*base, child.module] if child.module else base)
                else:
                    name = child.module or ""
                out.append((name.split(".")[0], child.lineno, inner))
            visit(child, inner)

    visit(tree, None)
    return out


def sources(folder: str) -> list[Path]:
    found = sorted((ROOT / folder).rglob("*.py"))
    assert found, f"no Python files under {folder}/"
    return found


def violations(folder: str, forbidden: set[str],
               allowed: Collection[tuple[str, str, str | None]] = ()) -> list[str]:
    bad = []
    for path in sources(folder):
        rel = path.relative_to(ROOT).as_posix()
        for module, line, func in imported(path):
            if module in forbidden and (rel, module, func) not in allowed:
                where = f" (in {func})" if func else ""
                bad.append(f"{rel}:{line} imports {module}{where}")
    return bad


@pytest.mark.timeout(30)
def test_protocol_is_sans_io_and_imports_nothing_above_it() -> None:
    bad = violations("protocol", {"lanplay", "ui", "PyQt6", "asyncio", "socket", "zeroconf",
                                  "selectors", "qasync"})
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_lanplay_never_imports_the_window() -> None:
    # The one way in is the command with no arguments, which opens the window:
    # cli._window imports ui lazily and says what is missing when it cannot.
    launcher = {("lanplay/cli.py", "ui", "_window"), ("lanplay/cli.py", "ui", "_screenshots"),
                ("lanplay/cli.py", "ui", "_install_desktop")}
    bad = violations("lanplay", {"ui", "PyQt6", "qasync"}, launcher)
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_game_rules_are_pure() -> None:
    bad = violations("lanplay/games", {"asyncio", "socket", "msgpack", "PyQt6", "zeroconf",
                                       "ui", "protocol", "selectors", "threading", "qasync"})
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_the_import_walker_sees_what_it_must() -> None:
    """The checks above would pass vacuously if the walker missed imports."""
    probe = ROOT / "lanplay" / "host.py"
    names = {m for m, _, _ in imported(probe)}
    assert {"asyncio", "lanplay", "protocol"} <= names
    cli = {(m, f) for m, _, f in imported(ROOT / "lanplay" / "cli.py")}
    assert ("ui", "_window") in cli
    rel = {m for m, _, _ in imported(ROOT / "lanplay" / "games" / "alles_klar" / "__init__.py")}
    assert "lanplay" in rel


BLOCK_QT = """
import sys
class NoQt:
    def find_spec(self, name, path=None, target=None):
        if name == "PyQt6" or name.startswith("PyQt6.") or name == "qasync":
            raise ImportError(f"{name} is blocked for this test")
        return None
sys.meta_path.insert(0, NoQt())
try:
    import PyQt6  # noqa
except ImportError:
    pass
else:
    raise SystemExit("the blocker did not block PyQt6")
import lanplay, lanplay.host, lanplay.peer, lanplay.cli, lanplay.bots, lanplay.selfplay
import lanplay.discovery, protocol, protocol.codec
from lanplay import games
games.available()
assert not any(m == "PyQt6" or m.startswith("PyQt6.") for m in sys.modules), sorted(sys.modules)
print("headless imports ok")
"""


@pytest.mark.timeout(60)
def test_headless_side_imports_without_pyqt6() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", BLOCK_QT], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=50)
    assert done.returncode == 0, done.stderr
    assert "headless imports ok" in done.stdout
