"""Bots are peers: they get the same deltas a person in that seat would get.

A bot therefore cannot cheat (it never holds more than its own view), and the
tests and ``selfplay`` play whole games through the real host. A secret the
bot's seat keeps (the S-tier note) stays with the bot's own ``Keeper``: it
commits to the bot's note, answers the host from it, and shows the bot its
own note in its view, just as a person's window does. The choice of
move is the game module's ``bot(view, seat, rng)`` unless a test passes a
``Chooser`` of its own.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

from lanplay import games, messages
from lanplay.admission import RoomKey
from lanplay.game import Action, View
from lanplay.peer import inbound
from lanplay.peer.keeper import Keeper
from lanplay.peer.peer import Peer
from lanplay.rng import stream, varied

log = logging.getLogger(__name__)

Chooser = Callable[[View, int, int], Action | None]
"""(view, seat, state_id) -> the move to make, or None to wait."""


JITTER = 0.2
"""A bot's wait before each move varies by this fraction either way, so a table of
bots does not tick like a metronome (drawn from its own seeded stream)."""


def think_time(delay: float, rng: random.Random) -> float:
    """Seconds to wait before a move: ``delay`` varied by JITTER (0 stays 0)."""
    return varied(delay, rng, JITTER)


RELAXED_SLIP = 0.3
"""How often a relaxed bot plays another move of the same kind than the best one its
game's bot found (another card, another tile: a good-enough move, not the best)."""
RELAXED_PACE = 1.6
"""A relaxed bot thinks this much longer before each move..."""
LOCK_IN = ("lock", "commit", "confirm", "submit")
LOCK_WAIT = 4.0
"""... and waits at least this many seconds (at a human pace) before locking in, so a
person has looked at the board first (bots locked S-tier in at once)."""


def relaxed(action: Action, view: View, rng: random.Random) -> Action:
    """A relaxed bot's move, from the one its game's (pure) bot chose: sometimes another
    move of the same type that the seat may send now, as it is (``may``'s templates
    without fields to fill); a move with fields to fill (a jump's angle and strength)
    is the bot's own, a little less exact (within the template's bounds)."""
    may = [m for m in view.get("may") or [] if isinstance(m, dict)]
    kind = action.get("type")
    if rng.random() >= RELAXED_SLIP:
        return action
    same = [m for m in may if m.get("type") == kind and "choose" not in m]
    if same:
        return dict(rng.choice(same))
    template = next((m for m in may if m.get("type") == kind and "choose" in m), None)
    if template is None:
        return action
    out = dict(action)
    for name, choice in (template.get("choose") or {}).items():
        value = out.get(name)
        if not isinstance(choice, dict) or choice.get("kind") != "number" \
                or not isinstance(value, int | float) or isinstance(value, bool):
            continue
        low, high = choice.get("min"), choice.get("max")
        span = (high - low) if isinstance(low, int | float) and isinstance(high, int | float) \
            else abs(float(value)) or 1.0
        moved = float(value) + rng.uniform(-0.06, 0.06) * span
        if isinstance(low, int | float):
            moved = max(float(low), moved)
        if isinstance(high, int | float):
            moved = min(float(high), moved)
        out[name] = round(moved, 4) if isinstance(value, float) else round(moved)
    return out


def wait_for(action: Action, delay: float, strength: str, rng: random.Random) -> float:
    """Seconds before sending ``action``: a strong bot's ``delay``; a relaxed one thinks
    longer, and longer still before locking in (never with no delay: tests)."""
    base = think_time(delay, rng)
    if strength != "relaxed" or not delay:
        return base
    wait = base * RELAXED_PACE
    if action.get("type") in LOCK_IN:
        wait = max(wait, LOCK_WAIT * delay)
    return wait


async def drive(peer: Peer, seed: int, delay: float = 0.0,
                choose: Chooser | None = None, keeper: Keeper | None = None,
                house: bool = False) -> None:
    """Make ``peer`` play its seat until its connection ends; its secrets stay with
    ``keeper`` (a new one in memory if none is given).

    ``delay`` is a human pace (about a second, varied); the moves it chooses do not
    depend on it: the waits come from a stream of their own."""
    rng = random.Random(seed)
    pace = stream(seed, "pace")
    ease = stream(seed, "relaxed")  # its own stream: the game's bot draws as before
    if keeper is None:
        keeper = Keeper()
    keeper.attach(peer)
    acted_on = -1
    in_flight: int | None = None
    """The intent sent and not yet answered: in a simultaneous phase another seat's
    answer changes the view before ours is applied, and asking again then would
    only send a duplicate the host refuses (and that costs a rate token)."""
    back_off = False

    def on_event(event: str, payload: Any) -> None:
        nonlocal acted_on, in_flight, back_off
        if event in ("accepted", "rejected") and getattr(payload, "id", None) == in_flight:
            in_flight = None
            if event == "rejected":
                acted_on = -1  # refused: think again on the next look
                back_off = getattr(payload, "code", "") == "rate"
        elif event == "reconnected":
            acted_on, in_flight = -1, None  # the move may have been lost in the drop

    peer.listeners.append(on_event)
    runner = asyncio.get_running_loop().create_task(peer.run())
    try:
        while not runner.done():
            peer.changed.clear()
            lobby = peer.lobby
            if (lobby is not None and lobby.phase != "playing" and peer.seat is not None
                    and peer.seat < len(lobby.seats) and not lobby.seats[peer.seat]["ready"]):
                peer.control("ready", ready=True)
            if back_off:  # the host throttled us: let its bucket refill a little
                back_off = False
                await asyncio.sleep(0.2)
            view = keeper.shown()
            if (view is not None and peer.seat is not None and peer.result is None
                    and in_flight is None and peer.state_id != acted_on
                    and lobby is not None and lobby.phase == "playing"
                    and lobby.paused is None):  # held: the host cannot save moves now
                # relaxed is a pace with people: a bot with no delay (selfplay, the
                # benchmarks, the tests' tables) plays its game's bot as it is
                strength = getattr(lobby, "bots", "strong") if delay and house \
                    else "strong"  # the room's strength is for the host's own bots
                try:
                    if choose is None:  # the view's game: checked, and the one it shows
                        action = games.load(view["game"]).bot(view, peer.seat, rng)
                        if action is not None and strength == "relaxed":
                            action = relaxed(action, view, ease)
                    else:
                        action = choose(view, peer.seat, peer.state_id)
                except Exception as exc:  # a view the checks let through, yet unplayable
                    log.debug("no move from the view at %d: %r", peer.state_id, exc)
                    peer.closed_reason = messages.render(inbound.SENTENCES["view"], (),
                                                         peer.lang)
                    break
                if action is not None:
                    if delay:
                        await asyncio.sleep(wait_for(action, delay, strength, pace))
                    acted_on = peer.state_id
                    in_flight = keeper.intent(action)
                    continue
            waiter = asyncio.get_running_loop().create_task(peer.changed.wait())
            try:
                await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
            finally:  # also when the bot is cancelled: its waiter must not outlive it
                waiter.cancel()
                await asyncio.gather(waiter, return_exceptions=True)
    finally:
        keeper.detach()
        if not runner.done():
            await peer.close("bot stopped")
            runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


async def run_bot(address: str, port: int, name: str, seed: int, delay: float = 0.0,
                  token: str | None = None,
                  password: str | RoomKey | None = None,
                  contribution_seed: int | None = None, house: bool = False) -> Peer:
    """Join ``address:port`` as a bot and play until the host ends the game (as the
    room's strength says when it is one of the ``house``'s own bots)."""
    peer = Peer(name, bot=True, token=token, password=password,
                contribution_seed=contribution_seed)
    await peer.connect(address, port)
    await drive(peer, seed, delay, house=house)
    return peer
