"""``lanplay join ADDRESS --bot``: a bot peer takes a seat at a host, plays it to the
end (standing by as the room's deputy with ``--deputy``) and says how it went."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from typing import Any

from lanplay import cli_moves
from lanplay.cli.common import DEFAULT_PORT, fail
from lanplay.names import printable
from lanplay.verdict import verdict_of


def _split_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, DEFAULT_PORT
    if not port.isdigit():
        raise ValueError(f"{text!r} is not ADDRESS[:PORT]")
    return host, int(port)


def cmd_join(args: argparse.Namespace) -> int:
    if not args.bot:
        return fail("joining as a person needs the window (coming soon); use --bot to "
                    "let a bot play the seat.")
    try:
        address, port = _split_address(args.address)
    except ValueError as exc:
        return fail(str(exc))
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
        return fail(printable(exc.reason))  # a host's words: nothing may reach the terminal raw
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
        return fail(printable(peer.closed_reason or "the game did not finish"))
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
