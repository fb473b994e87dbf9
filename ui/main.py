"""The installed ``lanplay`` command: the window's entry point decides, not the core.

With no command it opens the window (or says in one sentence why it cannot:
no display, a Qt platform plugin that does not load; ``ui.display``), quietly
(``ui.quiet``; ``--verbose`` prints what Qt says); ``screenshots`` renders the window's
screens; ``--install-desktop`` puts lanplay in a Linux menu; every other
command is ``lanplay.cli``'s and runs headless. Qt is
imported only for those two, so the headless commands work without PyQt6.

``--lang de`` is ``lanplay.cli``'s too (before or after any command, this file's
included): it is set with ``lanplay.locale.set_language`` before the window or a
command starts, so the window reads its choice from ``lanplay.locale.language()``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lanplay import cli


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, window=window, commands=[SCREENSHOTS, INSTALL_DESKTOP])


def window(args: argparse.Namespace) -> int:
    """Open the window, or say in one sentence why it cannot open here (exit 2)."""
    from ui import display
    from ui.services.settings import Settings
    from ui.words import i18n

    settings = Settings.load()  # inside the data folder, when one was chosen
    i18n.start(settings)  # so a refusal speaks the language chosen in the window too
    problem = display.no_display()
    if problem is not None:
        return _fail(problem)
    try:
        from ui import quiet

        quiet.install(verbose=args.verbose)  # before Qt Multimedia loads, and talks
        from ui.app import run
    except ImportError as exc:
        from ui.words.i18n import _

        print(_("The window needs PyQt6 and qasync ({error}). The headless commands work: "
                "see `lanplay --help`.").format(error=exc), file=sys.stderr)
        return 2
    return run(settings, verbose=args.verbose)


def _screenshots(args: argparse.Namespace) -> int:
    try:
        from ui import quiet

        quiet.install(verbose=args.verbose)  # the PNGs it wrote, not Qt Multimedia's noise
        from ui.tools.screenshots import parse_size, render
    except ImportError as exc:
        from ui.words.i18n import _

        return _fail(_("screenshots need PyQt6 and qasync ({error}).").format(error=exc))
    try:
        sizes = [parse_size(part) for given in args.size or ["1280x800"]
                 for part in given.split(",") if part.strip()]
    except ValueError as exc:
        return _fail(f"--size: {exc}.")
    return render(args.dir, sizes)


def _screenshot_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, metavar="DIR")
    parser.add_argument("--size", action="append", metavar="WxH",
                        help="window size (default 1280x800); several (repeated or "
                             "comma-separated) render into DIR/WxH/ each; DIR/fit.json lists "
                             "every text that is cut off, clipped or overlapping")


def _fail(message: str) -> int:
    print(f"lanplay: {message}", file=sys.stderr)
    return 2


SCREENSHOTS = cli.Command("screenshots", "render the window's screens offscreen to PNG",
                          _screenshot_arguments, _screenshots)
INSTALL_DESKTOP = cli.Command(
    "install-desktop", "Linux: add lanplay with its icon to this user's applications menu",
    lambda parser: None, lambda args: _install_desktop(), option=True)


def _install_desktop() -> int:
    from ui.desktop import install_desktop  # no Qt: it copies the committed icons

    return install_desktop()


if __name__ == "__main__":
    sys.exit(main())
