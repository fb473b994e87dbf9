"""The ``lanplay`` command: the window with no arguments, headless tools otherwise."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lanplay import games
from lanplay.game import player_range, seats_problem

DEFAULT_PORT = 7531


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command is None:
        return _window()
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="lanplay", description=(
        "Tabletop games at a LAN party. With no command, opens the window."))
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    g = sub.add_parser("games", help="list the games")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=cmd_games)

    h = sub.add_parser("host", help="host a game and announce it on the LAN")
    h.add_argument("game")
    h.add_argument("--mode")
    h.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    h.add_argument("--name", default=None, help="the host's name shown on the LAN")
    h.add_argument("--port", type=int, default=DEFAULT_PORT)
    h.add_argument("--bind", default="0.0.0.0", help="address to listen on")
    h.add_argument("--bots", type=int, default=0, help="bots to seat at once")
    h.add_argument("--players", type=int, default=None,
                   help="start when this many seats are taken and ready "
                        "(default: the bots plus one, at least the game's minimum)")
    h.add_argument("--games", type=int, default=1,
                   help="headless: stop after this many games (0: never)")
    h.add_argument("--seed", type=int, default=None)
    h.add_argument("--bot-delay", type=float, default=0.4,
                   help="seconds a bot waits before moving, so people can follow")
    h.add_argument("--interface", action="append", default=None, metavar="ADDRESS",
                   help="announce only on this address (repeatable)")
    h.add_argument("--no-announce", action="store_true")
    h.add_argument("--headless", action="store_true", help="open no window")
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
    j.add_argument("--json", action="store_true")
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

    b = sub.add_parser("bench", help="measure latency, delta size and host work")
    b.add_argument("--json", action="store_true")
    b.add_argument("--quick", action="store_true", help="fewer samples (for tests)")
    b.set_defaults(func=cmd_bench)
    return p


def _window() -> int:
    try:
        from ui.app import run
    except ImportError as exc:
        print(f"The window needs PyQt6 and qasync ({exc}). The headless commands work: "
              f"see `lanplay --help`.", file=sys.stderr)
        return 2
    return run()


def _options(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes KEY=VALUE, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def _fail(message: str) -> int:
    print(f"lanplay: {message}", file=sys.stderr)
    return 2


# --- games ---------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for e in games.CATALOGUE:
        row: dict[str, Any] = {"id": e.id, "name": e.name, "players": list(e.players),
                               "modes": list(e.modes), "available": e.available}
        if e.available:
            game = games.load(e.id)
            row["players"] = list(player_range(game))
            row["modes"] = [m.id for m in game.modes]
            row["options"] = [{"key": o.key, "default": o.default, "choices": list(o.choices),
                               "label": o.label} for o in game.options]
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        lo, hi = r["players"]
        status = "available" if r["available"] else "coming"
        print(f"{r['id']:<12} {r['name']:<14} {lo}-{hi} players  "
              f"modes: {', '.join(r['modes']):<32} {status}")
    return 0


# --- host ----------------------------------------------------------------------


def cmd_host(args: argparse.Namespace) -> int:
    if not args.headless:
        print("lanplay: the window is not built yet; hosting headless.", file=sys.stderr)
    try:
        game = games.load(args.game)
    except KeyError as exc:
        return _fail(str(exc).strip("'\""))
    try:
        return asyncio.run(_host(args, game.id))
    except ValueError as exc:
        return _fail(str(exc))


async def _host(args: argparse.Namespace, game_id: str) -> int:
    import socket

    from lanplay.discovery import local_addresses
    from lanplay.host import Host, HostConfig
    from lanplay.session import Refusal

    name = args.name or f"{socket.gethostname()}"
    game = games.load(game_id)
    from lanplay.game import mode_of

    mode = mode_of(game, args.mode)
    players = args.players or max(mode.min_players, args.bots + 1)
    problem = seats_problem(game, mode.id, players)
    if problem:  # the room would wait for ever
        return _fail(problem)
    config = HostConfig(host_name=name, bind=args.bind, port=args.port, seed=args.seed,
                        autostart=players, announce=not args.no_announce,
                        interfaces=args.interface, bot_delay=args.bot_delay)
    host = Host(game_id, args.mode, _options(args.option), config)
    try:
        port = await host.start()
    except OSError as exc:
        return _fail(f"cannot listen on {args.bind}:{args.port} ({exc.strerror or exc})")
    addresses = ", ".join(f"{a}:{port}" for a in local_addresses())
    print(f"Hosting {game.name} ({host.room.mode}) as {name!r} on port {port}; "
          f"starts with {players} players.\nOthers can join at: {addresses}", flush=True)

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
            names = ", ".join(s.name + (" (bot)" if s.bot else "") for s in room.seats)
            print(f"Seats {len(room.seats)}/{room.max_players}: {names}", flush=True)
        elif what == "started":
            print(f"Game {host.games_played} started.", flush=True)
        elif what == "over" and host.session is not None and host.session.result:
            res = host.session.result
            seen["games"] += 1
            winners = [room.seats[w].name for w in res.winners]
            scores = zip(room.seats, res.scores, strict=True)
            print(f"Game over: {', '.join(winners)} won; scores "
                  f"{', '.join(f'{s.name} {v:g}' for s, v in scores)}.", flush=True)
            if args.games and seen["games"] >= args.games:
                stop.set()

    host.listeners.append(on_event)
    try:
        for _ in range(args.bots):
            host.add_bot()
    except Refusal as exc:
        await host.stop()
        return _fail(exc.reason)
    await stop.wait()
    await host.stop("The host has closed the room.")
    print("Stopped; announcement withdrawn.", flush=True)
    return 0


# --- discover -------------------------------------------------------------------


def cmd_discover(args: argparse.Namespace) -> int:
    return asyncio.run(_discover(args))


async def _discover(args: argparse.Namespace) -> int:
    from lanplay.discovery import Browser

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
        print(f"{h.host_name:<20} {h.game:<12} {h.seats_taken}/{h.seats_total} "
              f"{h.state:<8} {h.address}:{h.port}{lock}{mark}")
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

    from lanplay.bots import drive
    from lanplay.peer import JoinError, Peer

    peer = Peer(args.name or f"Bot on {socket.gethostname()}", bot=True)
    try:
        welcome = await peer.connect(address, port)
    except JoinError as exc:
        return _fail(exc.reason)
    print(f"Joined {welcome.host_name!r} ({welcome.game}) in seat "
          f"{(welcome.seat or 0) + 1}.", flush=True)
    task = asyncio.create_task(drive(peer, args.seed))
    done_waiting = asyncio.create_task(peer.wait_until(lambda p: p.result is not None, 1e9))
    await asyncio.wait({task, done_waiting}, return_when=asyncio.FIRST_COMPLETED)
    result = peer.result
    if not task.done():
        await peer.close("game finished")
    await asyncio.gather(task, return_exceptions=True)
    done_waiting.cancel()
    if result is None:
        return _fail(peer.closed_reason or "the game did not finish")
    if args.json:
        print(json.dumps({"seat": peer.seat, **result}))
    else:
        won = peer.seat in result["winners"]
        print(f"Game over: {'we won' if won else 'we lost'}; scores {result['scores']}.")
    return 0


# --- selfplay and bench ---------------------------------------------------------------


def cmd_selfplay(args: argparse.Namespace) -> int:
    from lanplay.selfplay import selfplay

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
        print(f"{out['game']} ({out['mode']}), {out['players']} bots, seed {out['seed']}: "
              f"{out['actions']} actions in {out['seconds']} s")
        print(f"winners (seats): {', '.join(str(w + 1) for w in out['winners'])}; "
              f"scores: {out['scores']}")
        print(f"frames per peer: {out['frames']}; bytes per peer: {out['bytes']}; "
              f"largest frame: {out['largest_frame']} bytes")
        if args.record:
            print(f"recorded to {args.record}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from lanplay.bench import run_bench

    return run_bench(as_json=args.json, quick=args.quick)


if __name__ == "__main__":
    sys.exit(main())
