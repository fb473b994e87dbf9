"""The command line's part in a room that moves between laptops (``lanplay.host.handover``).

``lanplay host`` takes ``--takeover-after S`` (how long its deputy waits for it) and,
when the room moves on (its deputy took it over while this host was gone, found on
``--resume`` or once it is back), says where and watches the game there as a
spectator. ``lanplay join ADDRESS --bot --deputy`` lets the bot's laptop stand by as
the room's deputy, and referee the room once the host has been silent long enough.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import Any

from lanplay.host.config import HostConfig
from lanplay.messages import msg, render
from lanplay.names import printable
from protocol.messages import Moved

TAKEOVER_HELP = ("seconds this host may be silent before its deputy takes the room over "
                 "(default 15)")


def host_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--takeover-after", type=float, default=15.0, metavar="S",
                        help=TAKEOVER_HELP)
    parser.add_argument("--allow-deputy", action="store_true",
                        help="take a laptop that offers itself (lanplay join --deputy) as "
                             "the room's deputy: it will hold every hand, so only with "
                             "laptops you trust")


def join_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deputy", action="store_true",
                        help="stand by as the room's deputy: referee it if the host goes "
                             "silent (and take a hand-over when offered)")
    parser.add_argument("--takeover-after", type=float, default=None, metavar="S",
                        help="with --deputy: take over after S seconds of silence "
                             "(default: as the host says)")
    parser.add_argument("--bind", default="0.0.0.0",
                        help="with --deputy: the address to listen on once refereeing")
    parser.add_argument("--port", type=int, default=None,
                        help="with --deputy: the port to referee on (default: 7531, else "
                             "the next free pair)")
    parser.add_argument("--web-port", type=int, default=None, metavar="P",
                        help="with --deputy: the browser page's port (default: the one "
                             "after --port)")
    parser.add_argument("--no-web", action="store_true",
                        help="with --deputy: serve no browser page")
    parser.add_argument("--no-announce", action="store_true",
                        help="with --deputy: do not announce the room on the LAN")


def say(message: Any) -> None:
    print(printable(render(message)), flush=True)


def moved_line(moved: Moved) -> str:
    return printable(render(msg("The room moved on: {name} referees it at {address}; this "
                                "laptop watches it there.", name=moved.name,
                                address=f"{moved.address}:{moved.port}")))


async def watch_moved(moved: Moved, name: str, password: Any) -> int:
    """Join the room where it moved as a spectator and watch to the game's end."""
    from lanplay.peer.peer import JoinError, Peer

    print(moved_line(moved), flush=True)
    peer = Peer(name, spectate=True, password=password)
    try:
        await peer.connect(moved.address, moved.port)
    except JoinError as exc:
        print(f"lanplay: {printable(exc.reason)}", file=sys.stderr, flush=True)
        return 1
    run = asyncio.create_task(peer.run())
    try:
        await peer.wait_until(lambda p: p.result is not None or run.done(), 1e9)
        if peer.result is not None:
            print("Game over.", flush=True)
            with contextlib.suppress(TimeoutError):
                await peer.wait_until(lambda p: p.verdict is not None, 10)
            if peer.verdict is not None:
                print(printable(peer.verdict.summary()), flush=True)
    finally:
        await peer.close("watched to the end")
        await asyncio.gather(run, return_exceptions=True)
    return 0


def deputy_config(args: argparse.Namespace, name: str) -> HostConfig:
    """The host this laptop would run once it referees the room."""
    return HostConfig(host_name=name, bind=args.bind, port=args.port,
                      web=not args.no_web, web_port=None if args.no_web else args.web_port,
                      announce=not args.no_announce, bot_delay=args.delay,
                      data_dir=args.data_dir)


class LanFinder:
    """Finds a room by its id on the LAN (``Peer.finder``), for a peer that lost its host
    and missed where the room went: a zeroconf browser started the first time it is
    needed (never, in a game nothing interrupts), and stopped by ``close``."""

    def __init__(self) -> None:
        self.browser: Any = None
        self.failed = False

    async def __call__(self, room: str) -> list[tuple[str, int, int]]:
        from lanplay.net.discovery import Browser, room_finder

        if self.browser is None and not self.failed:
            browser = Browser()
            try:
                await browser.start()
            except Exception:  # no multicast here: the known places are tried all the same
                self.failed = True
                await browser.stop()
                return []
            self.browser = browser
        return [] if self.browser is None else await room_finder(self.browser)(room)

    async def close(self) -> None:
        if self.browser is not None:
            browser, self.browser = self.browser, None
            await browser.stop()


def follow_successor(successor: Any) -> None:
    """Say what the laptop's part in the room is, as it changes."""
    def on_event(event: str, payload: Any) -> None:
        if event == "standby":
            print("Standing by as the room's deputy." if payload == "deputy"
                  else "Taking the room over.", flush=True)
        elif event == "hosting":
            print(f"This laptop referees the room now (term {payload.room.term}, port "
                  f"{payload.port}); the others follow by themselves.", flush=True)
        elif event in ("stood_down", "failed"):
            say(payload)

    successor.listeners.append(on_event)


__all__ = ["LanFinder", "deputy_config", "follow_successor", "host_arguments", "join_arguments",
           "moved_line", "watch_moved"]
