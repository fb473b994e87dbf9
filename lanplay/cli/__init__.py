"""The ``lanplay`` commands that need no window: host, join, discover, the tools.

The core never opens the window: the window's entry point (``ui.main``, the
installed ``lanplay`` command) calls ``main`` with the window to open when no
command is given and the commands that need it (``screenshots``). Run
headless (``python -m lanplay``), no command says where the window is.

``--lang de`` (before or after the command) chooses the language of everything
this process says, the window included (``lanplay.locale.set_language``);
without it ``LANPLAY_LANG``, then the system's locale, decide.

The parts: ``parser`` (the grammar and ``--help``), ``common`` (what every command
shares), and the commands' work by job: ``listing`` (games, discover), ``hosting``
(host), ``joining`` (join) and ``tools`` (selfplay, verify, replay, bench,
bench-load). ``python -m lanplay.cli`` runs ``main`` (``__main__``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from lanplay import locale as lang
from lanplay.cli.common import DEFAULT_PORT, PORT_PAIRS, fail
from lanplay.cli.hosting import cmd_host
from lanplay.cli.joining import cmd_join
from lanplay.cli.listing import cmd_discover, cmd_games
from lanplay.cli.parser import DATA_HELP, LANG_HELP, Command, build_parser, version_text
from lanplay.cli.tools import cmd_bench, cmd_bench_load, cmd_replay, cmd_selfplay, cmd_verify
from lanplay.messages import msg
from lanplay.store import folders

__all__ = ["DATA_HELP", "DEFAULT_PORT", "LANG_HELP", "PORT_PAIRS", "Command", "_parser",
           "cmd_bench", "cmd_bench_load", "cmd_discover", "cmd_games", "cmd_host", "cmd_join",
           "cmd_replay", "cmd_selfplay", "cmd_verify", "main", "version_text"]

_parser = build_parser
"""The name the tests build the parser by (``cli._parser(window=False)``)."""


def main(argv: Sequence[str] | None = None, *,
         window: Callable[[argparse.Namespace], int] | None = None,
         commands: Sequence[Command] = ()) -> int:
    """Run one command; with none, open ``window`` (or say where the window is)."""
    parser = build_parser(window is not None, commands)
    args = parser.parse_args(argv)
    if getattr(args, "lang", None):
        try:
            lang.set_language(args.lang)
        except ValueError as exc:
            return fail(str(exc))
    if args.data_dir and Path(args.data_dir).exists() and not Path(args.data_dir).is_dir():
        return fail(msg("--data-dir {path} is a file, not a folder.", path=args.data_dir))
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
            return fail("no command given. The window opens with the installed `lanplay` "
                        "command (or `python -m ui`); `python -m lanplay --help` lists "
                        "the commands that run here.")
        return window(args)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
