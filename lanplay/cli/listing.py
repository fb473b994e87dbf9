"""``lanplay games`` and ``lanplay discover``: what can be played here, which games
and which hosts on the LAN, each as a table or as ``--json``."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from lanplay import games
from lanplay import locale as lang
from lanplay.cli.common import say
from lanplay.game import player_range
from lanplay.messages import content_text, msg
from lanplay.names import printable


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
        status = say(msg("available") if r["available"] else msg("coming"))
        modes = ", ".join(r["modes"])  # the ids: what --mode takes
        print(f"{r['id']:<12} {r['name']:<14} "
              f"{say(msg('{low}-{high} players', low=lo, high=hi)):<12}  "
              f"{say(msg('modes: {modes}', modes=modes)):<40} {status}")
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
