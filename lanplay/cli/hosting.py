"""``lanplay host``: a headless host, from its arguments to the room it runs, the
lines it prints while the room lives, and why it could not listen.

Its own module: the longest command's work (a new room, a resumed one, one whose
deputy took it over) shares nothing with the other commands but ``common``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lanplay import cli_moves, games
from lanplay.cli.common import DEFAULT_PORT, fail, parse_options, say
from lanplay.game import seats_problem
from lanplay.messages import Msg, msg
from lanplay.names import printable
from lanplay.verdict import summary


def cmd_host(args: argparse.Namespace) -> int:
    if not args.headless:
        print("lanplay: the window is not built yet; hosting headless.", file=sys.stderr)
    if args.game is None and args.resume is None:
        return fail("name the game to host (see `lanplay games`), or --resume a saved one")
    game_id = None
    if args.game is not None:
        try:
            game_id = games.load(args.game).id
        except KeyError as exc:
            return fail(str(exc).strip("'\""))
    try:
        return asyncio.run(_host(args, game_id))
    except ValueError as exc:
        return fail(str(exc))


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
            return fail(exc.reason)
        except Exception as exc:  # never a traceback for a bad file: say it in one line
            return fail(f"the save could not be resumed ({type(exc).__name__}).")
        if game_id is not None and game_id != host.room.game.id:
            return fail(f"the saved game is {host.room.game.name}, not {game_id}")
        game, players = host.room.game, len(host.room.seats)
        host.config.autostart = players
    else:
        assert game_id is not None
        game = games.load(game_id)
        mode = mode_of(game, args.mode)
        players = args.players or max(mode.min_players, args.bots + 1)
        problem = seats_problem(game, mode.id, players)
        if problem:  # the room would wait for ever
            return fail(problem)
        config.autostart = players
        host = Host(game_id, args.mode, parse_options(args.option), config)
    saved_in = host.save_path  # before start: a resumed game may end in its first moments
    try:
        port = await host.start()
    except RoomMoved as exc:  # its deputy took the room over while this laptop was gone
        await host.stop()
        host.saver.forget()
        return await cli_moves.watch_moved(exc.moved, name, host.tokens.room_key)
    except OSError as exc:
        await host.stop()
        return fail(_not_listening(exc, args.bind, host.config.port, args.resume is not None))
    addresses = ", ".join(f"{a}:{port}" for a in reachable(host.config, local_addresses))
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
        print(say(note), flush=True)
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
        return fail(exc.reason)
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
        print(f"lanplay: {say(host.web_problem)}", file=sys.stderr, flush=True)
    if not host.web_port:
        return
    urls = page_urls(reachable(host.config, local_addresses), host.web_port)
    print(say(msg("In a browser (a phone, a laptop without lanplay): {addresses}",
                  addresses=", ".join(urls))), flush=True)
    if sys.stdout.isatty():
        print(qr_text(urls[0]), flush=True)


def reachable(config: Any, everyone: Callable[[], list[str]]) -> list[str]:
    """The addresses others reach this host at: the one it listens on when it listens on
    one (``--bind 127.0.0.1`` printed the laptop's LAN address, where nothing listened),
    else the ones it announces on (``--interface``), else every address of the laptop."""
    if config.bind not in (None, "", "0.0.0.0", "::"):
        return [config.bind]
    if config.interfaces:
        return list(config.interfaces)
    return everyone()


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
