"""The ``lanplay`` commands that need no window: host, join, discover, the tools.

The core never opens the window: the window's entry point (``ui.main``, the
installed ``lanplay`` command) calls ``main`` with the window to open when no
command is given and the commands that need it (``screenshots``). Run
headless (``python -m lanplay``), no command says where the window is.

``--lang de`` (before or after the command) chooses the language of everything
this process says, the window included (``lanplay.locale.set_language``);
without it ``LANPLAY_LANG``, then the system's locale, decide.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanplay import cli_moves, games
from lanplay import locale as lang
from lanplay.game import player_range, seats_problem
from lanplay.messages import Msg, content_text, items, msg, render
from lanplay.names import printable
from lanplay.store import folders
from lanplay.verdict import summary, verdict_of

DEFAULT_PORT = 7531
PORT_PAIRS = 5
"""A host tries 7531, 7533, ... 7539 (each with its web page's port after it): the rule
is ``lanplay.host.ports``'s, which this module does not import for ``--help``'s sake."""


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


def main(argv: Sequence[str] | None = None, *,
         window: Callable[[argparse.Namespace], int] | None = None,
         commands: Sequence[Command] = ()) -> int:
    """Run one command; with none, open ``window`` (or say where the window is)."""
    parser = _parser(window is not None, commands)
    args = parser.parse_args(argv)
    if getattr(args, "lang", None):
        try:
            lang.set_language(args.lang)
        except ValueError as exc:
            return _fail(str(exc))
    if args.data_dir and Path(args.data_dir).exists() and not Path(args.data_dir).is_dir():
        return _fail(msg("--data-dir {path} is a file, not a folder.", path=args.data_dir))
    with folders.chosen(args.data_dir):  # the window's settings follow it too
        return _run(parser, args, window, commands)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace,
         window: Callable[[argparse.Namespace], int] | None,
         commands: Sequence[Command]) -> int:
    for command in commands:
        if command.option and getattr(args, command.name.replace("-", "_")):
            return command.run(args)
    if args.command is None:
        if window is None:
            parser.print_usage(sys.stderr)
            return _fail("no command given. The window opens with the installed `lanplay` "
                         "command (or `python -m ui`); `python -m lanplay --help` lists "
                         "the commands that run here.")
        return window(args)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130


def _parser(window: bool = True, commands: Sequence[Command] = ()) -> argparse.ArgumentParser:
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


def _options(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes KEY=VALUE, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def _fail(message: Msg | str) -> int:
    print(f"lanplay: {render(message)}", file=sys.stderr)
    return 2


def _say(message: Msg) -> str:
    """A message in the chosen language (``--lang``, ``LANPLAY_LANG`` or the system's)."""
    return render(message)


# --- games ---------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    """Every game, its names and descriptions in the chosen language (``lang`` says
    which; ids, keys and values stay as the host and ``--option`` take them)."""
    speak = lang.language()
    rows: list[dict[str, Any]] = []
    for e in games.CATALOGUE:
        row: dict[str, Any] = {"id": e.id, "name": content_text("game", e.id, e.name, speak),
                               "players": list(e.players), "modes": list(e.modes),
                               "available": e.available, "lang": speak}
        if e.available:
            game = games.load(e.id)
            row["summary"] = content_text("game-summary", e.id, game.summary, speak)
            row["players"] = list(player_range(game))
            row["modes"] = [m.id for m in game.modes]
            row["mode_names"] = {
                m.id: content_text("mode", f"{e.id}:{m.id}", m.name, speak) for m in game.modes}
            row["mode_descriptions"] = {
                m.id: content_text("mode-help", f"{e.id}:{m.id}", m.description, speak)
                for m in game.modes}
            row["options"] = [_option_row(e.id, o, speak) for o in game.options]
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        lo, hi = r["players"]
        status = _say(msg("available") if r["available"] else msg("coming"))
        modes = ", ".join(r["modes"])  # the ids: what --mode takes
        print(f"{r['id']:<12} {r['name']:<14} "
              f"{_say(msg('{low}-{high} players', low=lo, high=hi)):<12}  "
              f"{_say(msg('modes: {modes}', modes=modes)):<40} {status}")
    return 0


def _option_row(game_id: str, option: Any, speak: str) -> dict[str, Any]:
    where = f"{game_id}:{option.key}"
    row = {"key": option.key, "default": option.default, "choices": list(option.choices),
           "label": content_text("option", where, option.label, speak),
           "help": content_text("option-help", where, option.help, speak) if option.help
           else ""}
    words = {c: content_text("choice", f"{where}:{c}", c, speak)
             for c in option.choices if isinstance(c, str) and c}
    if words:
        row["choice_labels"] = words
    return row


# --- host ----------------------------------------------------------------------


def cmd_host(args: argparse.Namespace) -> int:
    if not args.headless:
        print("lanplay: the window is not built yet; hosting headless.", file=sys.stderr)
    if args.game is None and args.resume is None:
        return _fail("name the game to host (see `lanplay games`), or --resume a saved one")
    game_id = None
    if args.game is not None:
        try:
            game_id = games.load(args.game).id
        except KeyError as exc:
            return _fail(str(exc).strip("'\""))
    try:
        return asyncio.run(_host(args, game_id))
    except ValueError as exc:
        return _fail(str(exc))


async def _host(args: argparse.Namespace, game_id: str | None) -> int:
    import socket

    from lanplay.game import mode_of
    from lanplay.host import Host, HostConfig
    from lanplay.host.server import RoomMoved
    from lanplay.net.discovery import local_addresses
    from lanplay.session import Refusal
    from lanplay.store.saves import SaveError

    name = args.name or f"{socket.gethostname()}"
    standin = args.standin_after if args.standin_after >= 0 else None
    config = HostConfig(host_name=name, bind=args.bind, port=args.port,  # None: 7531, ...
                        first_port=args.first_port, web=not args.no_web,
                        web_port=None if args.no_web else args.web_port,
                        seed=args.seed, announce=not args.no_announce,
                        interfaces=args.interface, bot_delay=args.bot_delay,
                        password=args.password or None, standin_after=standin,
                        data_dir=args.data_dir, takeover_after=args.takeover_after,
                        deputies=args.allow_deputy)
    if args.resume is not None:
        def skipped(path: Path, reason: str) -> None:
            print(f"lanplay: skipped {path.name}: {reason}", file=sys.stderr, flush=True)

        try:
            host = Host.resume(args.resume or None, config, port=args.port, skipped=skipped)
        except SaveError as exc:
            return _fail(exc.reason)
        except Exception as exc:  # never a traceback for a bad file: say it in one line
            return _fail(f"the save could not be resumed ({type(exc).__name__}).")
        if game_id is not None and game_id != host.room.game.id:
            return _fail(f"the saved game is {host.room.game.name}, not {game_id}")
        game, players = host.room.game, len(host.room.seats)
        host.config.autostart = players
    else:
        assert game_id is not None
        game = games.load(game_id)
        mode = mode_of(game, args.mode)
        players = args.players or max(mode.min_players, args.bots + 1)
        problem = seats_problem(game, mode.id, players)
        if problem:  # the room would wait for ever
            return _fail(problem)
        config.autostart = players
        host = Host(game_id, args.mode, _options(args.option), config)
    saved_in = host.save_path  # before start: a resumed game may end in its first moments
    try:
        port = await host.start()
    except RoomMoved as exc:  # its deputy took the room over while this laptop was gone
        await host.stop()
        host.saver.forget()
        return await cli_moves.watch_moved(exc.moved, name, host.tokens.room_key)
    except OSError as exc:
        await host.stop()
        return _fail(_not_listening(exc, args.bind, host.config.port, args.resume is not None))
    addresses = ", ".join(f"{a}:{port}" for a in local_addresses())
    lock = " with a password" if host.config.password or host.config.room_key else ""
    if args.resume is not None:
        session = host.session
        assert session is not None
        print(f"Resumed {game.name} from {saved_in} after {session.state_id} moves, "
              f"as {host.room.host_name!r} on port {port}{lock}; the players' laptops "
              f"reconnect by themselves.\nOthers can watch at: {addresses}", flush=True)
    else:
        print(f"Hosting {game.name} ({host.room.mode}) as {name!r} on port {port}{lock}; "
              f"starts with {players} players.\nOthers can join at: {addresses}",
              flush=True)
    note = host.ports.note() if host.ports is not None else None
    if note is not None:
        print(_say(note), flush=True)
    _print_page(host)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)

    seen = {"seats": 0, "games": 0}

    def on_event(what: str) -> None:
        room = host.room
        if what == "lobby" and len(room.seats) != seen["seats"]:
            seen["seats"] = len(room.seats)
            seated = ", ".join(printable(s.name) + (" (bot)" if s.bot else "")
                               for s in room.seats)
            print(f"Seats {len(room.seats)}/{room.max_players}: {seated}", flush=True)
        elif what == "started":
            print(f"Game {host.games_played} started.", flush=True)
            if host.save_path is not None:
                print(f"Every move is saved in {host.save_path.parent}; after a crash, "
                      f"`lanplay host --resume` goes on from there.", flush=True)
        elif what in ("standin", "standin_over"):
            away = [printable(s.name) for s in room.seats if s.standin]
            print(f"Stand-in bots play for: {', '.join(away)}." if away
                  else "Every seat is played by its own player again.", flush=True)
        elif what == "paused":
            where = host.save_path.parent if host.save_path is not None else "its folder"
            print(f"{host.play.paused} Free some space where the game is saved "
                  f"({where}); no move is told to anyone until it is saved.", flush=True)
        elif what == "unpaused":
            print("The game is saved again; play goes on.", flush=True)
        elif what == "deputy":
            deputy = room.deputy
            print(f"Deputy: {printable(str(deputy['name']))}'s laptop stands by." if deputy
                  else "No deputy stands by now.", flush=True)
        elif what == "moved":
            stop.set()
        elif what == "action" and args.log_moves and host.session is not None:
            seat = host.session.log[-1].seat if host.session.log else -1
            who = printable(room.seats[seat].name) if 0 <= seat < len(room.seats) \
                else "the host"
            print(f"Move {host.session.state_id} by {who}.", flush=True)
        elif what == "over" and host.session is not None and host.session.result:
            res = host.session.result
            seen["games"] += 1
            line = summary(res.to_wire())
            names = [printable(s.name) for s in room.seats]
            print(f"Game over: {line.english(names) if line else ''}.", flush=True)
            if args.games and seen["games"] >= args.games:
                stop.set()

    host.listeners.append(on_event)
    try:
        for _ in range(args.bots if args.resume is None else 0):
            host.add_bot()
    except Refusal as exc:
        await host.stop()
        return _fail(exc.reason)
    await stop.wait()
    moved = host.handover.moved_to
    await host.stop("The host has closed the room.", pause=True)  # mid-game: paused
    print("Stopped; announcement withdrawn.", flush=True)
    if moved is not None:  # the room lives on elsewhere: this laptop watches it there
        return await cli_moves.watch_moved(moved, name, host.tokens.room_key)
    return 0


def _print_page(host: Any) -> None:
    """Where a browser joins: the page's addresses, and its QR code on a terminal."""
    from lanplay.net.discovery import local_addresses
    from lanplay.web.address import page_urls, qr_text

    if host.web_problem:
        print(f"lanplay: {_say(host.web_problem)}", file=sys.stderr, flush=True)
    if not host.web_port:
        return
    urls = page_urls(local_addresses(), host.web_port)
    print(_say(msg("In a browser (a phone, a laptop without lanplay): {addresses}",
                   addresses=", ".join(urls))), flush=True)
    if sys.stdout.isatty():
        print(qr_text(urls[0]), flush=True)


def _not_listening(exc: OSError, bind: str, port: int | None, resumed: bool) -> Msg:
    """Why the host cannot listen, in one sentence."""
    import errno

    from lanplay.host.ports import NoFreePort

    if isinstance(exc, NoFreePort):
        return exc.message
    if exc.errno == errno.EADDRINUSE and resumed:
        return msg("Port {port}, which the players will come back to, is taken (another "
                   "lanplay on this laptop?): close that program and resume again.",
                   port=port or 0)
    if exc.errno == errno.EADDRINUSE:
        return msg("Port {port} is taken (another lanplay on this laptop?): choose another "
                   "with --port, or leave --port out to take the first free one from "
                   "{first}.", port=port or 0, first=DEFAULT_PORT)
    return msg("Cannot listen on {address} ({error}).", address=f"{bind}:{port}",
               error=exc.strerror or str(exc))


# --- discover -------------------------------------------------------------------


def cmd_discover(args: argparse.Namespace) -> int:
    return asyncio.run(_discover(args))


async def _discover(args: argparse.Namespace) -> int:
    from lanplay.net.discovery import Browser

    browser = Browser(interfaces=args.interface)
    await browser.start()
    try:
        await asyncio.sleep(args.timeout)
    finally:
        hosts = sorted(browser.hosts.values(), key=lambda h: (h.host_name, h.port))
        await browser.stop()
    if args.json:
        print(json.dumps([h.to_json() for h in hosts], indent=1))
        return 0
    if not hosts:
        print("No lanplay hosts found. Join by address if multicast is blocked here.")
        return 0
    for h in hosts:
        mark = "" if h.compatible else f"  (protocol {h.version}: cannot join)"
        lock = "  [password]" if h.password else ""
        print(f"{printable(h.host_name):<20} {printable(h.game):<12} "
              f"{h.seats_taken}/{h.seats_total} "
              f"{printable(h.state):<8} {h.address}:{h.port}{lock}{mark}")
    return 0


# --- join ------------------------------------------------------------------------


def _split_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, DEFAULT_PORT
    if not port.isdigit():
        raise ValueError(f"{text!r} is not ADDRESS[:PORT]")
    return host, int(port)


def cmd_join(args: argparse.Namespace) -> int:
    if not args.bot:
        return _fail("joining as a person needs the window (coming soon); use --bot to "
                     "let a bot play the seat.")
    try:
        address, port = _split_address(args.address)
    except ValueError as exc:
        return _fail(str(exc))
    return asyncio.run(_join(args, address, port))


async def _join(args: argparse.Namespace, address: str, port: int) -> int:
    import socket

    from lanplay.peer.peer import JoinError, Peer
    from lanplay.peer.recording import FrameRecorder

    recording = FrameRecorder(args.record) if args.record is not None else None
    name = args.name or f"Bot on {socket.gethostname()}"
    peer = Peer(name, bot=True, password=args.password,
                recorder=recording.write if recording is not None else None)
    finder = cli_moves.LanFinder()
    peer.finder = finder
    successor = None
    if args.deputy:
        from lanplay.peer.successor import Successor

        successor = Successor(peer, cli_moves.deputy_config(args, name), volunteer=True,
                              after=args.takeover_after)
        cli_moves.follow_successor(successor)
    try:
        welcome = await peer.connect(address, port)
    except JoinError as exc:
        if recording is not None:
            recording.discard()
        return _fail(printable(exc.reason))  # a host's words: nothing may reach the terminal raw
    try:
        return await _play_joined(args, peer, welcome)
    finally:
        await finder.close()
        if successor is not None:
            await successor.close()
            if successor.host is not None:  # this laptop refereed the game's end
                await successor.host.stop("The game is over.")
        if recording is not None:
            where = recording.finish(peer.seat)
            print(f"Recorded {recording.count} frames to {where}.", file=sys.stderr,
                  flush=True)


async def _play_joined(args: argparse.Namespace, peer: Any, welcome: Any) -> int:
    from lanplay.peer.bots import drive

    print(f"Joined {printable(welcome.host_name)!r} ({printable(welcome.game)}) in seat "
          f"{(welcome.seat or 0) + 1}.", flush=True)

    def on_event(event: str, payload: Any) -> None:
        if event == "reconnecting":
            print("Lost the host; reconnecting with our token.", flush=True)
        elif event == "reconnected":
            print(f"Back in seat {(peer.seat or 0) + 1}.", flush=True)
        elif event == "referee":
            print(printable(str(payload)), flush=True)

    peer.listeners.append(on_event)
    task = asyncio.create_task(drive(peer, args.seed, args.delay))
    done_waiting = asyncio.create_task(peer.wait_until(lambda p: p.result is not None, 1e9))
    await asyncio.wait({task, done_waiting}, return_when=asyncio.FIRST_COMPLETED)
    if peer.result is not None and not task.done():
        # the audit follows the game_over at once (a host resumed from an old save sends none)
        with contextlib.suppress(TimeoutError):
            await peer.wait_until(lambda p: p.verdict is not None, 10)
    result = peer.result
    if not task.done():
        await peer.close("game finished")
    await asyncio.gather(task, return_exceptions=True)
    done_waiting.cancel()
    if result is None:
        return _fail(printable(peer.closed_reason or "the game did not finish"))
    verdict = peer.verdict
    if args.json:
        print(json.dumps({"seat": peer.seat, **result,
                          "audit": verdict.summary() if verdict else "no audit came"}))
    else:
        names = [printable(s["name"]) for s in peer.lobby.seats] if peer.lobby else []
        print(f"Game over: {verdict_of(result).line(peer.seat).english(names)} "
              f"Scores {result['scores']}.")
        if verdict is not None:
            print(printable(verdict.line([s["name"] for s in peer.lobby.seats]
                                         if peer.lobby else [])))
    return 0


# --- selfplay and bench ---------------------------------------------------------------


def cmd_selfplay(args: argparse.Namespace) -> int:
    from lanplay.tools.selfplay import selfplay

    try:
        problem = seats_problem(games.load(args.game), args.mode, args.players)
        if problem:  # the host would refuse the extra bots or never start
            return _fail(problem)
        out = asyncio.run(selfplay(args.game, args.players, args.mode, args.seed,
                                   _options(args.option), args.record))
    except (KeyError, ValueError) as exc:
        return _fail(str(exc).strip("'\""))
    if args.json:
        print(json.dumps(out))
    else:
        print(_say(msg("{game} ({mode}), {players} bots, seed {seed}: {actions} actions in "
                       "{seconds} s", game=out["game"], mode=out["mode"],
                       players=out["players"], seed=out["seed"], actions=out["actions"],
                       seconds=out["seconds"])))
        print(_say(msg("winners (seats): {winners}; scores: {scores}",
                       winners=items([w + 1 for w in out["winners"]]),
                       scores=str(out["scores"]))))
        print(_say(msg("frames per peer: {frames}; bytes per peer: {bytes}; largest frame: "
                       "{largest} bytes", frames=str(out["frames"]), bytes=str(out["bytes"]),
                       largest=out["largest_frame"])))
        if args.record:
            print(_say(msg("recorded to {path}", path=str(args.record))))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from lanplay.tools.verify import RecordError, run_verify

    try:
        status, lines = run_verify(args.frames)
    except RecordError as exc:
        return _fail(exc.reason)
    for line in lines:
        print(line)
    return status


def cmd_replay(args: argparse.Namespace) -> int:
    from lanplay.replay.words import run_replay

    status, lines = run_replay(args.file, args.seat, args.open)
    if status != 0:
        return _fail(lines[0])
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:  # `lanplay replay FILE | head`: the reader has seen enough
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


def cmd_bench(args: argparse.Namespace) -> int:
    from lanplay.tools.bench import run_bench

    return run_bench(as_json=args.json, quick=args.quick)


def cmd_bench_load(args: argparse.Namespace) -> int:
    from lanplay.tools.loadbench import run_load_bench

    return run_load_bench(as_json=args.json, quick=args.quick, save=not args.no_save)


if __name__ == "__main__":
    sys.exit(main())
