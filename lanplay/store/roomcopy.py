"""The room as it stands, as one laptop hands it to another (docs/PROTOCOL.md "Hand-over").

A hand-over (and a deputy's copy) is bytes: one line of JSON, the *head* (the room:
its id and term, the game chosen and its options, the seats with their tokens, the
owner's token, the removed tokens, the password's key, the bots), then, while a game
is in play or has just ended, the game's save exactly as the save file holds it
(``lanplay.store.saves``: the seed, the shuffle record, the action log), then the
journal lines that follow that save (a deputy's copy grows by them, move by move).

The laptop that receives it reads it as untrusted input, like a save read from disk:
the head is checked here by type and range, the save by ``saves.decode``, the lines by
``saves.apply_journal``, and ``lanplay.host`` replays the game from its seed
(``saves.rebuild``) before anyone plays on. A copy that fails any of it is refused
with one sentence (``CopyError``), never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from lanplay.admission import RoomKey
from lanplay.store import saves
from lanplay.store import schema as sc
from lanplay.store.durable import MAX_FILE

FORMAT = 1
MAX_COPY = MAX_FILE
"""Most bytes a laptop takes for one copy (a save is refused beyond it too)."""


class CopyError(Exception):
    """The copy cannot be used; ``reason`` says why, in one sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class RoomCopy:
    room: str
    term: int
    host_name: str
    game: str
    mode: str
    options: dict[str, Any]
    seats: list[saves.SavedSeat]
    phase: str
    """"lobby", "playing" or "over" (a game just ended: its save says how)."""
    owner_token: str = ""
    banned: list[str] = field(default_factory=list)
    room_key: RoomKey | None = None
    games_played: int = 0
    base_seed: int | None = None
    bots: str = "relaxed"
    bot_count: int = 0
    standin_after: float | None = 30.0
    autostart: int | None = None
    after: float = 15.0
    """Seconds of the host's silence after which a deputy takes over."""
    port: int = 0
    web_port: int = 0
    """Where the host that made the copy listens (a deputy sends early comers there)."""
    save: saves.Save | None = None
    """The game in play or just ended, its journal applied (None in the lobby)."""
    clock: tuple[str, float] | None = None
    """The deadline running when the copy was made: its key and the seconds it had left.
    The new host runs that deadline for no longer (a round handed over mid-count does
    not start its count again); None: none ran, or the copy is a deputy's."""


_TOKEN = sc.text(1, 128)
_SEAT = sc.record({"name": sc.text(1, 64), "token": _TOKEN,
                   "colour": sc.text(0, 7, r"(#[0-9A-Fa-f]{6})?", "a colour like #E69F00"),
                   "bot": sc.boolean, "owner": sc.boolean, "hosted": sc.boolean},
                  required={"name", "colour", "token", "bot", "owner", "hosted"})
HEAD = sc.record({
    "format": sc.integer(FORMAT, FORMAT),
    "room": sc.text(1, 64, r"[A-Za-z0-9_-]+", "an id of letters, digits, - and _"),
    "term": sc.integer(1, 2 ** 31), "host_name": sc.text(1, 200),
    "game": sc.text(1, 64), "mode": sc.text(1, 64),
    "options": sc.both(sc.record({}), sc.plain(8)),
    "seats": sc.array(_SEAT, saves.MAX_SEATS),
    "phase": sc.one_of("lobby", "playing", "over"),
    "owner_token": sc.text(0, 128), "banned": sc.array(_TOKEN, 100_000),
    "room_key": sc.optional(sc.record({"salt": sc.text(1, 128),
                                       "key": sc.text(64, 64, r"[0-9a-f]{64}",
                                                      "64 hex digits")},
                                      required={"salt", "key"})),
    "games_played": sc.integer(0, 10 ** 9), "base_seed": sc.optional(sc.integer(
        -(2 ** 63), 2 ** 64 - 1)),
    "bots": sc.one_of("relaxed", "strong"), "bot_count": sc.integer(0, 10 ** 6),
    "standin_after": sc.optional(sc.number(0, 1e9)),
    "autostart": sc.optional(sc.integer(1, saves.MAX_SEATS)),
    "after": sc.number(0.1, 3600), "port": sc.integer(0, 65535),
    "web_port": sc.integer(0, 65535),
    "clock": sc.optional(sc.record({"key": sc.text(1, 200), "left": sc.number(0, 10 ** 6)},
                                   required={"key", "left"})),
}, required={"format", "room", "term", "host_name", "game", "mode", "options", "seats",
             "phase"})


def head(copy: RoomCopy) -> bytes:
    """The head's line (no newline): everything of the copy but its game."""
    key = copy.room_key
    data = {"format": FORMAT, "room": copy.room, "term": copy.term,
            "host_name": copy.host_name, "game": copy.game, "mode": copy.mode,
            "options": copy.options,
            "seats": [{"name": s.name, "colour": s.colour, "token": s.token, "bot": s.bot,
                       "owner": s.owner, "hosted": s.hosted} for s in copy.seats],
            "phase": copy.phase, "owner_token": copy.owner_token, "banned": copy.banned,
            "room_key": {"salt": key.salt, "key": key.key.hex()} if key is not None
            else None,
            "games_played": copy.games_played, "base_seed": copy.base_seed,
            "bots": copy.bots, "bot_count": copy.bot_count,
            "standin_after": copy.standin_after, "autostart": copy.autostart,
            "after": copy.after, "port": copy.port, "web_port": copy.web_port,
            "clock": {"key": copy.clock[0], "left": copy.clock[1]} if copy.clock else None}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def join(head_line: bytes, save_bytes: bytes | None) -> bytes:
    """The copy's bytes: the head, then the save's (if any); journal lines may follow."""
    return head_line + b"\n" + (save_bytes + b"\n" if save_bytes is not None else b"")


def decode(raw: bytes) -> RoomCopy:
    """The copy in ``raw``, every part checked; CopyError naming what is wrong."""
    if len(raw) > MAX_COPY:
        raise CopyError(f"The room's copy is {len(raw)} bytes, more than a room ever holds.")
    line, sep, rest = raw.partition(b"\n")
    if not sep:
        raise CopyError("The room's copy is cut short.")
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise CopyError("The room's copy does not begin with the room.") from None
    if not isinstance(data, dict):
        raise CopyError("The room's copy does not begin with the room.")
    try:
        HEAD(data, "")
    except sc.Invalid as exc:
        raise CopyError(f"The room's copy is damaged ({exc.sentence}).") from None
    tokens = [s["token"] for s in data["seats"]]
    if len(set(tokens)) != len(tokens):
        raise CopyError("The room's copy is damaged (two seats have the same token).")
    save = _save(rest, len(data["seats"]), data["phase"])
    key = data.get("room_key")
    return RoomCopy(
        room=data["room"], term=data["term"], host_name=data["host_name"],
        game=data["game"], mode=data["mode"], options=data["options"],
        seats=[saves.SavedSeat(**s) for s in data["seats"]], phase=data["phase"],
        owner_token=data.get("owner_token", ""), banned=list(data.get("banned", [])),
        room_key=RoomKey(key["salt"], bytes.fromhex(key["key"])) if key else None,
        games_played=data.get("games_played", 0), base_seed=data.get("base_seed"),
        bots=data.get("bots", "relaxed"), bot_count=data.get("bot_count", 0),
        standin_after=data.get("standin_after"), autostart=data.get("autostart"),
        after=float(data.get("after", 15.0)), port=data.get("port", 0),
        web_port=data.get("web_port", 0), save=save,
        clock=(clock["key"], float(clock["left"])) if (clock := data.get("clock")) else None)


def _save(rest: bytes, seats: int, phase: str) -> saves.Save | None:
    """The game after the head: its save, then the journal lines that follow it."""
    if not rest:
        if phase != "lobby":
            raise CopyError("The room's copy has no game, yet its game is being played.")
        return None
    body, sep, lines = rest.partition(b"\n")
    if not sep:
        raise CopyError("The room's copy is cut short.")
    try:
        save = saves.decode(body, "The game in the room's copy")
        save = saves.apply_journal(save, lines, "the moves after the room's copy")
    except saves.SaveError as exc:
        raise CopyError(exc.reason) from None
    if len(save.seats) != seats:
        raise CopyError("The room's copy is damaged (its game has other seats than the "
                        "room).")
    return save


__all__ = ["MAX_COPY", "CopyError", "RoomCopy", "decode", "head", "join"]
