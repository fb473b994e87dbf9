"""What every command of ``lanplay.cli`` shares: the default port, ``--option``'s
pairs, and how a failure and a message are said (in the chosen language).

Here, not in the package's ``__init__``, so each command's module imports this and
never the parser or the package that imports it (no import circle)."""

from __future__ import annotations

import sys

from lanplay.messages import Msg, render

DEFAULT_PORT = 7531
PORT_PAIRS = 5
"""A host tries 7531, 7533, ... 7539 (each with its web page's port after it): the rule
is ``lanplay.host.ports``'s, which this module does not import for ``--help``'s sake."""


def parse_options(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes KEY=VALUE, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def fail(message: Msg | str) -> int:
    print(f"lanplay: {render(message)}", file=sys.stderr)
    return 2


def say(message: Msg) -> str:
    """A message in the chosen language (``--lang``, ``LANPLAY_LANG`` or the system's)."""
    return render(message)
