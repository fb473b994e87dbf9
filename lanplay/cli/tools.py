"""The commands of ``lanplay.tools`` and ``lanplay.replay``: ``selfplay``, ``verify``,
``replay``, ``bench`` and ``bench-load`` run, check or measure a game with no one
else at the table; each imports its tool only when run."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from lanplay import games
from lanplay.cli.common import fail, parse_options, say
from lanplay.game import seats_problem
from lanplay.messages import items, msg


def cmd_selfplay(args: argparse.Namespace) -> int:
    from lanplay.tools.selfplay import selfplay

    try:
        problem = seats_problem(games.load(args.game), args.mode, args.players)
        if problem:  # the host would refuse the extra bots or never start
            return fail(problem)
        out = asyncio.run(selfplay(args.game, args.players, args.mode, args.seed,
                                   parse_options(args.option), args.record))
    except (KeyError, ValueError) as exc:
        return fail(str(exc).strip("'\""))
    if args.json:
        print(json.dumps(out))
    else:
        print(say(msg("{game} ({mode}), {players} bots, seed {seed}: {actions} actions in "
                      "{seconds} s", game=out["game"], mode=out["mode"],
                      players=out["players"], seed=out["seed"], actions=out["actions"],
                      seconds=out["seconds"])))
        print(say(msg("winners (seats): {winners}; scores: {scores}",
                      winners=items([w + 1 for w in out["winners"]]),
                      scores=str(out["scores"]))))
        print(say(msg("frames per peer: {frames}; bytes per peer: {bytes}; largest frame: "
                      "{largest} bytes", frames=str(out["frames"]), bytes=str(out["bytes"]),
                      largest=out["largest_frame"])))
        if args.record:
            print(say(msg("recorded to {path}", path=str(args.record))))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from lanplay.tools.verify import RecordError, run_verify

    try:
        status, lines = run_verify(args.frames)
    except RecordError as exc:
        return fail(exc.reason)
    for line in lines:
        print(line)
    return status


def cmd_replay(args: argparse.Namespace) -> int:
    from lanplay.replay.words import run_replay

    status, lines = run_replay(args.file, args.seat, args.open)
    if status != 0:
        return fail(lines[0])
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
