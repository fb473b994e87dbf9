"""The ``lanplay`` command line's grammar: every command, its arguments and its help.

Apart from the commands' work (``listing``, ``hosting``, ``joining``, ``tools``), so
what ``--help`` and the README's command table say is read in one place, and a
command's module holds what it does, not how it is spelt."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lanplay import cli_moves
from lanplay import locale as lang
from lanplay.cli.common import DEFAULT_PORT, PORT_PAIRS
from lanplay.cli.hosting import cmd_host
from lanplay.cli.joining import cmd_join
from lanplay.cli.listing import cmd_discover, cmd_games
from lanplay.cli.tools import cmd_bench, cmd_bench_load, cmd_replay, cmd_selfplay, cmd_verify
from lanplay.store import folders


@dataclass(frozen=True)
class Command:
    """A command the caller adds to the parser (the window's entry point adds
    ``screenshots``), listed by ``--help`` after the headless ones."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    option: bool = False
    """Given as ``--NAME`` instead of as a command (``--install-desktop``)."""


def build_parser(window: bool = True,
                 commands: Sequence[Command] = ()) -> argparse.ArgumentParser:
    """Every command and option; ``window``: the window's entry point's (``--verbose``,
    and its description), ``commands``: the ones it adds."""
    p = argparse.ArgumentParser(prog="lanplay", description=(
        "Tabletop games at a LAN party. With no command, opens the window." if window else
        "Tabletop games at a LAN party: the commands that need no window."))
    p.add_argument("--version", action="version", version=version_text())
    p.add_argument("--lang", default=None, metavar="LANG", help=LANG_HELP)
    p.add_argument("--data-dir", default=None, metavar="DIR", help=DATA_HELP)
    if window:
        p.add_argument("--verbose", action="store_true",
                       help="the window: also print the warnings of Qt and its sound and "
                            "video libraries (a normal start prints only what you need)")
    for command in commands:
        if command.option:
            p.add_argument(f"--{command.name}", action="store_true", help=command.help)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    g = sub.add_parser("games", help="list the games")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=cmd_games)

    h = sub.add_parser("host", help="host a game and announce it on the LAN")
    h.add_argument("game", nargs="?", help="the game to host (not needed with --resume)")
    h.add_argument("--mode")
    h.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    h.add_argument("--name", default=None, help="the host's name shown on the LAN")
    low, high = DEFAULT_PORT, DEFAULT_PORT + 2 * PORT_PAIRS - 1
    h.add_argument("--port", type=int, default=None,
                   help=f"port to listen on (default: {DEFAULT_PORT}, else the first free "
                        f"odd port up to {high - 1}, so let in {low}:{high}; 0: any free one; "
                        f"with --resume, the port of the saved game, which the peers "
                        f"remember)")
    h.add_argument("--first-port", type=int, default=DEFAULT_PORT,
                   help=argparse.SUPPRESS)  # tests: the usual pairs from a port found free
    h.add_argument("--bind", default="0.0.0.0", help="address to listen on")
    h.add_argument("--web-port", type=int, default=None, metavar="P",
                   help="serve the browser page (phones and laptops without lanplay join "
                        "from it) on this port (default: the TCP port + 1, 7532)")
    h.add_argument("--no-web", action="store_true", help="serve no browser page")
    h.add_argument("--bots", type=int, default=0, help="bots to seat at once")
    h.add_argument("--players", type=int, default=None,
                   help="start when this many seats are taken and ready "
                        "(default: the bots plus one, at least the game's minimum)")
    h.add_argument("--games", type=int, default=1,
                   help="headless: stop after this many games (0: never)")
    h.add_argument("--seed", type=int, default=None,
                   help="for testing: the same seed and seeded peers play the same game "
                        "again (anyone who knows it can work out the deal)")
    h.add_argument("--bot-delay", type=float, default=1.0,
                   help="seconds a bot waits before moving, varied by a fifth either way, "
                        "so people can follow (default 1; 0: at once, for tests)")
    h.add_argument("--interface", action="append", default=None, metavar="ADDRESS",
                   help="announce only on this address (repeatable)")
    h.add_argument("--no-announce", action="store_true")
    h.add_argument("--headless", action="store_true", help="open no window")
    h.add_argument("--password", default=None,
                   help="players must know it to join (it never crosses the network)")
    h.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                   help="resume a saved game (no FILE: the newest unfinished one); the "
                        "players' laptops reconnect by themselves")
    h.add_argument("--standin-after", type=float, default=30.0, metavar="S",
                   help="seconds a player may be away before a bot plays their seat until "
                        "they return (default 30; negative: never)")
    cli_moves.host_arguments(h)
    h.add_argument("--log-moves", action="store_true",
                   help="print a line for each move once it is saved")
    h.set_defaults(func=cmd_host)

    d = sub.add_parser("discover", help="list the hosts found on the LAN")
    d.add_argument("--timeout", type=float, default=3.0)
    d.add_argument("--interface", action="append", default=None, metavar="ADDRESS")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=cmd_discover)

    j = sub.add_parser("join", help="join a host (as a bot, for now)")
    j.add_argument("address", help="ADDRESS[:PORT]")
    j.add_argument("--bot", action="store_true", help="play the seat with a bot")
    j.add_argument("--name", default=None)
    j.add_argument("--seed", type=int, default=0)
    j.add_argument("--delay", type=float, default=0.0,
                   help="seconds the bot waits before each move, so people can follow")
    j.add_argument("--password", default=None, help="the room's password, if it has one")
    j.add_argument("--record", type=Path, default=None, metavar="DIR",
                   help="keep every frame received in DIR/peer-SEAT.frames "
                        "(check it with `lanplay verify`)")
    j.add_argument("--json", action="store_true")
    cli_moves.join_arguments(j)
    j.set_defaults(func=cmd_join)

    s = sub.add_parser("selfplay", help="a real host and N bot peers play one full game")
    s.add_argument("game")
    s.add_argument("--players", type=int, required=True)
    s.add_argument("--mode")
    s.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--json", action="store_true")
    s.add_argument("--record", type=Path, default=None, metavar="DIR")
    s.set_defaults(func=cmd_selfplay)

    v = sub.add_parser("verify", help="check a recorded peer's game against the host's "
                                      "audit, offline")
    v.add_argument("frames", type=Path, metavar="FRAMES",
                   help="a peer-N.frames file of `selfplay --record` or `join --record`")
    v.set_defaults(func=cmd_verify)

    r = sub.add_parser("replay", help="print a finished game step by step, in words")
    r.add_argument("file", type=Path, metavar="FILE",
                   help="a finished game: a host's history save (saves/history/ of the data "
                        "directory) or an audit a laptop kept (audits/)")
    r.add_argument("--seat", type=int, default=None, metavar="N",
                   help="see it from seat N (from 1; default: as a spectator saw it)")
    r.add_argument("--open", action="store_true",
                   help="everything open: what every seat held, at every step")
    r.set_defaults(func=cmd_replay)

    b = sub.add_parser("bench", help="measure latency, delta size and host work")
    b.add_argument("--json", action="store_true")
    b.add_argument("--quick", action="store_true", help="fewer samples (for tests)")
    b.set_defaults(func=cmd_bench)

    bl = sub.add_parser("bench-load", help="16 players and 32 spectators while one peer "
                                           "floods the host with 1000 intents a second")
    bl.add_argument("--json", action="store_true")
    bl.add_argument("--quick", action="store_true", help="a short game (for tests)")
    bl.add_argument("--no-save", action="store_true",
                    help="the host does not save after each move (isolates the network path)")
    bl.set_defaults(func=cmd_bench_load)

    for command in (c for c in commands if not c.option):
        extra = sub.add_parser(command.name, help=command.help)
        command.arguments(extra)
        extra.set_defaults(func=command.run)
    for each in sub.choices.values():  # ``lanplay games --lang de`` as well as before it
        # SUPPRESS: given before the command, it stays; after it, it wins
        each.add_argument("--lang", default=argparse.SUPPRESS, metavar="LANG", help=LANG_HELP)
        each.add_argument("--data-dir", default=argparse.SUPPRESS, metavar="DIR",
                          help=DATA_HELP)
    return p


LANG_HELP = (f"the language to speak ({', '.join(lang.LANGUAGES)}; default: "
             f"${lang.ENV}, else the system's)")
DATA_HELP = (f"where games are saved, and the window's settings with them (default: "
             f"${folders.ENV}, else the user's data directory); before or after the command")


def version_text() -> str:
    """What ``lanplay --version`` prints: two laptops play together when the protocols
    match."""
    from lanplay import __version__
    from protocol.messages import PROTOCOL_VERSION

    return f"lanplay {__version__} (protocol {PROTOCOL_VERSION})"
