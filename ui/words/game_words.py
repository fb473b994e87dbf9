"""A game's name and a save's time as the window says them, for every page and dialog
that lists games (Home, the room, the game page, Resume, Replays)."""

from __future__ import annotations

import time

from lanplay.games import CATALOGUE, load
from ui.words.i18n import _, content


def game_name(game_id: str) -> str:
    """A game's name in the window's language (an unknown game: its id)."""
    name = next((e.name for e in CATALOGUE if e.id == game_id), None)
    return content("game", game_id, name) if name is not None else game_id


def game_and_mode(game_id: str, mode_id: str) -> str:
    """"S-tier (team)" for a game of several modes, "Ranking" for one of one mode: a list
    of S-tier games said "S-tier" three times."""
    name = game_name(game_id)
    try:
        modes = load(game_id).modes
    except KeyError:
        return name
    if len(modes) < 2:
        return name
    mode = next((m for m in modes if m.id == mode_id), None)
    if mode is None:
        return name
    return _("{game} ({mode})").format(game=name, mode=content("mode", f"{game_id}:{mode.id}",
                                                               mode.name))


def when(stamp: float, now: float | None = None) -> str:
    """A save's time as a person says it: today's as a clock time, older ones dated."""
    now = time.time() if now is None else now
    local = time.localtime(stamp)
    if time.strftime("%Y%m%d", local) == time.strftime("%Y%m%d", time.localtime(now)):
        return _("Today {time}").format(time=time.strftime("%H:%M", local))
    # translators: a save's date and time (strftime: %d day, %m month, %b its short name)
    return time.strftime(_("%d %b %Y %H:%M"), local)
