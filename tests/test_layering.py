"""Imports go one way: ui -> lanplay -> protocol, the game rules import no I/O,
and each game's table (``ui/tables/<game>/``) keeps to itself and the shared felt.

Read from the source (the AST), so an import hidden inside a function counts
too; plus one subprocess proving the headless side imports with PyQt6 gone.
The host package's parts, and the Peer's, are held to the collaborators each one needs.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Callable, Collection
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported(path: Path) -> list[tuple[str, int, str | None]]:
    """(top-level module, line, enclosing function or None) for every import in ``path``."""
    tops = [(name.split(".")[0], line, func) for name, line, func in imported_names(path)]
    return list(dict.fromkeys(tops))


def imported_names(path: Path) -> list[tuple[str, int, str | None]]:
    """(dotted name, line, enclosing function or None) for every import in ``path``;
    ``from a.b import c`` gives both ``a.b`` and ``a.b.c`` (c may be a module)."""
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
                out.extend((a.name, child.lineno, inner) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    name = ".".join([*base, child.module] if child.module else base)
                else:
                    name = child.module or ""
                out.append((name, child.lineno, inner))
                out.extend((f"{name}.{a.name}", child.lineno, inner) for a in child.names
                           if a.name != "*")
            visit(child, inner)

    visit(tree, None)
    return out


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


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
    # Not even lazily: the window's entry point (ui/main.py, the installed
    # `lanplay` command) opens the window and hands every other command to
    # lanplay.cli.
    bad = violations("lanplay", {"ui", "PyQt6", "qasync"})
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_game_rules_are_pure() -> None:
    bad = violations("lanplay/games", {"asyncio", "socket", "msgpack", "PyQt6", "zeroconf",
                                       "ui", "protocol", "selectors", "threading", "qasync"})
    assert not bad, "\n".join(bad)


GAMES_MAY_USE = ("lanplay.game", "lanplay.games", "lanplay.rng", "lanplay.content",
                 "lanplay.messages")
"""All of lanplay a game's rules may import: the surface, each other, seeded
randomness, the picture library and the messages its texts are (built there, rendered
on each laptop)."""

HOST_AND_NETWORK = ("lanplay.host", "lanplay.peer", "lanplay.net", "lanplay.store",
                    "lanplay.admission", "lanplay.session", "lanplay.room", "lanplay.cli",
                    "lanplay.tools",
                    "lanplay.content.transfer", "asyncio", "socket", "ssl", "selectors",
                    "zeroconf", "ifaddr", "msgpack", "qasync", "protocol", "threading",
                    "multiprocessing", "subprocess")


@pytest.mark.timeout(30)
def test_games_import_nothing_of_the_host_or_the_network() -> None:
    bad = []
    for path in sources("lanplay/games"):
        rel = path.relative_to(ROOT).as_posix()
        for name, line, _ in imported_names(path):
            if any(under(name, m) for m in HOST_AND_NETWORK):
                bad.append(f"{rel}:{line} imports {name} (the host or the network)")
            elif (under(name, "lanplay") and name != "lanplay"
                  and not any(under(name, m) for m in GAMES_MAY_USE)):
                bad.append(f"{rel}:{line} imports {name} (not one of {GAMES_MAY_USE})")
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_the_replay_model_is_pure() -> None:
    # a replay's states and views come from the rules alone; reading files is files.py's
    model = ROOT / "lanplay" / "replay" / "model.py"
    io = ("os", "pathlib", "io", "json", "time", "asyncio", "socket", "threading",
          "lanplay.store", "lanplay.peer", "lanplay.host", "lanplay.replay.files", "PyQt6")
    bad = [f"{name} (line {line})" for name, line, _ in imported_names(model)
           if any(under(name, m) for m in io)]
    assert not bad, bad


HOST_PARTS: dict[str, set[str]] = {
    # each part of lanplay/host/ and the other parts it may import
    "__init__": {"config", "dispatch", "peers", "seeds", "server"},
    "config": set(),
    "ports": {"config"},
    "shared": set(),
    "peers": set(),
    "seeds": {"config", "peers", "shared", "words"},
    "fanout": {"peers"},
    "packs": {"peers"},
    "saving": {"config", "shared"},
    "away": {"config", "shared"},
    "announce": {"config", "peers", "shared"},
    "words": set(),
    "dispatch": {"peers", "words"},
    "commands": {"config", "packs", "peers", "shared", "words"},
    "connections": {"config", "packs", "peers", "shared", "words"},
    "flow": {"away", "config", "fanout", "peers", "saving", "seeds", "shared"},
    "server": {"announce", "commands", "config", "connections", "dispatch", "flow", "packs",
               "peers", "ports", "saving", "seeds", "shared", "words", "handover"},
    # the room outliving its host (issue 34): the deputy's stream, and the hand-over
    "deputy": {"peers"},
    "handover": {"commands", "config", "deputy", "flow", "peers", "saving", "shared", "words"},
}

HOST_DUTIES: dict[str, set[str]] = {
    # what touches the outside world, and the only parts that may import it
    "socket": {"ports"},  # whether a pair's web port is free
    "lanplay.peer": {"commands", "handover"},  # the host's own bots are peers; a host
    # whose deputy vanished asks there, as a spectator's peer, whether its room moved on
    "lanplay.peer.peer": {"handover"},
    "lanplay.tools": set(),
    "lanplay.cli": set(),
    "zeroconf": {"announce"},
    "lanplay.net.discovery": {"announce"},
    "lanplay.store.outbox": {"saving"},
    "lanplay.store": {"saving", "server", "deputy", "handover"},  # the server reads a save
    # to resume it; the room's copy a hand-over and a deputy get is a save too
    "lanplay.admission": {"connections", "peers", "config", "shared"},  # throttle, room key
    "lanplay.net.link": {"connections", "peers", "fanout"},
    "lanplay.content": {"packs", "server"},
    "secrets": {"shared", "seeds", "saving", "commands"},
    "asyncio": {"away", "flow", "connections", "announce", "server", "seeds", "ports",
                "deputy", "handover"},
}


@pytest.mark.timeout(30)
def test_the_host_parts_import_only_what_they_need() -> None:
    found = {p.stem for p in sources("lanplay/host")}
    assert found == set(HOST_PARTS), f"name each part's neighbours: {found ^ set(HOST_PARTS)}"
    bad = []
    for path in sources("lanplay/host"):
        rel, part = path.relative_to(ROOT).as_posix(), path.stem
        for name, line, _ in imported_names(path):
            if under(name, "lanplay.host") and name != "lanplay.host":
                other = name.split(".")[2]
                if other not in HOST_PARTS:
                    other = "__init__"  # a name the package re-exports: the whole package
                if other not in HOST_PARTS[part] and other != part:
                    bad.append(f"{rel}:{line} imports the part {other} ({name})")
            for duty, owners in HOST_DUTIES.items():
                if under(name, duty) and part not in owners:
                    bad.append(f"{rel}:{line} imports {name}: only {sorted(owners)} may")
    assert not bad, "\n".join(bad)


PEER_PARTS: dict[str, set[str]] = {
    # each part of the Peer class (lanplay/peer/) and the other parts it may import:
    # one way, from the shared state up to the read loop
    "core": set(),
    "following": {"core"},
    "joining": {"core", "following"},
    "fairness": {"core"},
    "receiving": {"core", "fairness", "following"},
    "peer": {"core", "fairness", "following", "joining", "receiving"},
}


@pytest.mark.timeout(30)
def test_the_peer_parts_import_only_what_they_need() -> None:
    bad = []
    for part, neighbours in PEER_PARTS.items():
        path = ROOT / "lanplay" / "peer" / f"{part}.py"
        for name, line, _ in imported_names(path):
            if under(name, "lanplay.peer") and name != "lanplay.peer":
                other = name.split(".")[2]
                if other in PEER_PARTS and other != part and other not in neighbours:
                    bad.append(f"lanplay/peer/{part}.py:{line} imports the part {other}")
    assert not bad, "\n".join(bad)
    peer = {n for n, _, _ in imported_names(ROOT / "lanplay" / "peer" / "peer.py")}
    assert {"lanplay.peer.receiving", "lanplay.peer.joining.JoinError"} <= peer


@pytest.mark.timeout(30)
def test_the_import_walker_sees_what_it_must() -> None:
    """The checks above would pass vacuously if the walker missed imports."""
    probe = ROOT / "lanplay" / "host" / "connections.py"
    names = {m for m, _, _ in imported(probe)}
    assert {"asyncio", "lanplay", "protocol"} <= names
    commands = {(m, f) for m, _, f in imported(ROOT / "lanplay" / "host" / "commands.py")}
    assert ("lanplay", "run") in commands  # lanplay.peer.bots, imported inside Bots.run
    rel = {m for m, _, _ in imported(ROOT / "lanplay" / "games" / "alles_klar" / "__init__.py")}
    assert "lanplay" in rel
    flow = {n for n, _, _ in imported_names(ROOT / "lanplay" / "host" / "flow.py")}
    assert {"lanplay.host.fanout", "lanplay.host.saving.Saver", "asyncio"} <= flow
    saving = {n for n, _, _ in imported_names(ROOT / "lanplay" / "host" / "saving.py")}
    assert {"lanplay.store.saves", "lanplay.store.outbox"} <= saving
    bots = {n for n, _, _ in imported_names(ROOT / "lanplay" / "host" / "commands.py")}
    assert "lanplay.peer.bots.run_bot" in bots


TABLES = ROOT / "ui" / "tables"


def game_tables() -> list[str]:
    """The game folders of ui/tables/ (a package each), e.g. ``ranking_top``."""
    return sorted(p.name for p in TABLES.iterdir() if (p / "__init__.py").is_file())


def reaches(name: str, game: str) -> bool:
    package = f"ui.tables.{game}"
    return name == package or name.startswith(package + ".")


def table_violations(
        allowed: Collection[tuple[str, str | None]] = ()) -> list[str]:
    """Imports of one game's table by another game's table, or by the shared modules
    beside them (``allowed``: (file, function) pairs that may, like the registry)."""
    games = game_tables()
    bad = []
    for path in sorted(TABLES.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        inside = path.relative_to(TABLES).parts
        own = inside[0] if len(inside) > 1 else None
        seen: set[int] = set()
        for name, line, func in imported_names(path):
            if line in seen or (rel, func) in allowed:
                continue
            if any(other != own and reaches(name, other) for other in games):
                seen.add(line)
                where = f" (in {func})" if func else ""
                bad.append(f"{rel}:{line} imports {name}{where}")
    return bad


@pytest.mark.timeout(30)
def test_a_game_table_imports_no_other_game_table() -> None:
    # The shared modules (felt, motion, pieces, look, widgets, demo_kit) import no
    # game folder either; only the registry, table_for, names them all.
    assert set(game_tables()) >= {"alles_klar", "ranagedon", "ranking", "ranking_top", "s_tier"}
    bad = table_violations(allowed={("ui/tables/__init__.py", "table_for")})
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_the_table_check_sees_imports_of_game_folders() -> None:
    """The check above would pass vacuously if the walker missed such imports."""
    names = {n for n, _, _ in imported_names(TABLES / "ranagedon" / "scene.py")}
    assert "ui.tables.ranagedon.reading" in names and "ui.tables.felt" in names
    registry = table_violations()
    assert any("ui/tables/__init__.py" in line and "ui.tables.ranking_top" in line
               for line in registry), registry
    assert reaches("ui.tables.ranking.items", "ranking")
    assert not reaches("ui.tables.ranking_top.items", "ranking")


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
import lanplay, lanplay.host, lanplay.peer.peer, lanplay.cli, lanplay.peer.bots
import lanplay.tools.selfplay
import ui.main  # the installed `lanplay` command: its headless commands need no Qt
import lanplay.net.discovery, protocol, protocol.codec
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


UI = ROOT / "ui"
FLOOR = ("ui.look", "ui.words", "ui.services")
"""What every screen stands on: it imports no page, dialog, window or tool."""


def ui_violations(folder: str, forbidden: Collection[str],
                  own: Callable[[Path], str | None] = lambda _: None) -> list[str]:
    """Imports of any ``forbidden`` ui package by the files under ``ui/<folder>``; a
    file may import its own part (``own`` names it: ``ui.pages.game`` for the game
    page's files)."""
    bad = []
    for path in sources(f"ui/{folder}"):
        rel = path.relative_to(ROOT).as_posix()
        mine = own(path)
        for name, line, func in imported_names(path):
            if mine is not None and under(name, mine):
                continue
            if any(under(name, f) for f in forbidden):
                where = f" (in {func})" if func else ""
                bad.append(f"{rel}:{line} imports {name}{where}")
    return sorted(set(bad))


def page_of(path: Path) -> str:
    """``ui.pages.home`` for ui/pages/home.py, ``ui.pages.game`` for ui/pages/game/*."""
    part = path.relative_to(UI / "pages").parts[0]
    return "ui.pages." + part.removesuffix(".py")


@pytest.mark.timeout(30)
def test_the_tools_import_the_window_never_the_other_way() -> None:
    bad = []
    for path in sources("ui"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("ui/tools/") or rel == "ui/main.py":  # main dispatches the tools
            continue
        bad += [f"{rel}:{line} imports {name}" for name, line, _ in imported_names(path)
                if under(name, "ui.tools")]
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_pages_do_not_import_each_other() -> None:
    bad = ui_violations("pages", ["ui.pages"], own=page_of)
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_dialogs_import_no_page_and_no_window() -> None:
    bad = ui_violations("dialogs", ["ui.pages", "ui.window", "ui.tools"])
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_the_floor_and_the_tables_import_no_screen_above_them() -> None:
    above = ["ui.pages", "ui.dialogs", "ui.window", "ui.tools", "ui.app", "ui.main"]
    bad = []
    for folder in ("look", "words", "services", "tables"):
        bad += ui_violations(folder, above)
    assert not bad, "\n".join(bad)


@pytest.mark.timeout(30)
def test_the_ui_checks_see_what_they_must() -> None:
    """The checks above would pass vacuously if the walker missed ui imports."""
    assert page_of(UI / "pages" / "game" / "end_screen.py") == "ui.pages.game"
    assert page_of(UI / "pages" / "home.py") == "ui.pages.home"
    party = {n for n, _, _ in imported_names(UI / "window" / "party.py")}
    assert {"ui.pages.room", "ui.services.pacing", "ui.dialogs.confirm"} <= party
    main = {n for n, _, f in imported_names(UI / "main.py")}
    assert any(under(n, "ui.tools") for n in main)
    for folder in FLOOR:
        assert sources(folder.replace(".", "/"))
