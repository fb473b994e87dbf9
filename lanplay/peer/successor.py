"""A laptop that may referee the room: it answers offers, keeps the deputy's copy, and
takes the room over (docs/PROTOCOL.md "Hand-over and deputy").

A ``Successor`` sits beside one ``Peer`` (a window's, or ``lanplay join --deputy``'s
bot). When the host offers it the room (``offer``), it asks its person (``ask``; a
headless deputy says yes), holds a pair of ports (``lanplay.peer.standby``) and says
where it will listen (``Stand``). Then:

* **a hand-over**: the room comes in parts (``room_part``); once whole it is checked
  and replayed (``lanplay.store.roomcopy``, ``Host.adopt``), a host opens on the ports
  held, one term up, and the old host is told (``Ack``), which sends everyone here;
* **standing by**: the copy comes the same way, then every move as journal lines
  (``journal``), each acknowledged on arrival. It pings the host every quarter of
  ``after``; once the host has been silent ``after`` seconds and a peer that lost it
  too came here (a witness: so a deputy cut off alone never splits the room), or at
  once when no seat is played on a third laptop (the host's own bots and the owner's
  seat went with the host), it takes the room over exactly as in a hand-over. A host
  that says goodbye (it closed or paused the room), names another deputy or none, or a
  room that moved on, lets it stand down.

Everything the host sends is checked before it is read (``lanplay.peer.inbound``, then
the copy as a save is); a copy that fails costs the offer, never the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from lanplay.host.config import HostConfig
from lanplay.messages import Msg, msg
from lanplay.peer.peer import Peer
from lanplay.peer.standby import Standby
from lanplay.store import roomcopy
from protocol.messages import Ack, Deputy, Journal, Moved, Offer, Ping, RoomPart, Stand, Welcome

if TYPE_CHECKING:
    from lanplay.host.server import Host

log = logging.getLogger("lanplay.peer.successor")

Ask = Callable[[Offer], Awaitable[bool]]
"""Whether this laptop's person takes the offer (a window asks; None: always yes)."""
Listener = Callable[[str, Any], None]
"""(event, payload): standby (payload: the role), hosting (the Host), stood_down (why,
a message), failed (why, a message)."""

WATCH_EVERY = 0.1
HANDOVER_WITHIN = 30.0
"""Seconds after saying yes to a hand-over within which the room must come."""


class Successor:
    def __init__(self, peer: Peer, config: HostConfig, ask: Ask | None = None,
                 volunteer: bool = False, after: float | None = None) -> None:
        """``config``: the host this laptop would run (its name, where it listens, where
        it saves); ``volunteer``: offer to stand by as deputy when the room has none;
        ``after``: seconds of silence before taking over (None: as the host says)."""
        self.peer = peer
        self.config = config
        self.ask = ask
        self.volunteer = volunteer
        self.after_override = after
        self.listeners: list[Listener] = []
        self.host: Host | None = None
        """The host this laptop runs once it referees the room."""
        self.role: str | None = None
        """"host" (a hand-over accepted) or "deputy" (standing by) while one holds."""
        self.term = 0
        self.after = after if after is not None else 15.0
        self.standby: Standby | None = None
        self.base: bytes | None = None
        """The deputy's copy of the room, and the journal lines since (with their state)."""
        self.lines: list[tuple[int, bytes]] = []
        self.state_id = -1
        self.size = 0
        self.others = 0
        """Seats played on laptops other than the host's and this one: one of them must
        have lost the host too before this laptop takes the room over."""
        self._parts: list[bytes] = []
        self._head: dict[str, Any] = {}
        self._volunteered = ""
        self._watch: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        peer.may_referee = True
        peer.listeners.append(self._on_event)

    # --- the peer's events -----------------------------------------------------------

    def _on_event(self, event: str, payload: Any) -> None:
        if event == "offer" and isinstance(payload, Offer):
            self._spawn(self._answer(payload))
        elif event == "room_part" and isinstance(payload, RoomPart):
            self._part(payload)
        elif event == "journal" and isinstance(payload, Journal):
            self._journal(payload)
        elif event == "deputy" and isinstance(payload, Deputy):
            ports = self.standby.ports if self.standby is not None else None
            if self.role == "deputy" and self.base is not None and (
                    ports is None or payload.port != ports.game or not payload.name):
                self._spawn(self.stand_down(msg("The host named another deputy.")))
            elif not payload.name and self.role is None:
                self._maybe_volunteer()
        elif event == "welcome" and isinstance(payload, Welcome):
            if self.host is None and self.role is not None and payload.term > self.term:
                self._spawn(self.stand_down(msg("The room moved on to another laptop.")))
            self._maybe_volunteer()
        elif event == "rejected" and self.role is not None and self.base is None \
                and getattr(payload, "code", "") in ("not_offered", "not_lanplay"):
            self._spawn(self.stand_down(msg("The host did not take this laptop's offer.")))
        elif event in ("bye", "refused", "closed") and self.host is None \
                and self.role == "deputy":
            self._spawn(self.stand_down(msg("The host left the room with a word; there is "
                                            "nothing to take over.")))

    def _maybe_volunteer(self) -> None:
        peer = self.peer
        if self.volunteer and self.role is None and self.host is None and peer.room \
                and peer.deputy is None and self._volunteered != f"{peer.room}/{peer.term}":
            self._volunteered = f"{peer.room}/{peer.term}"
            self._spawn(self._stand("deputy", peer.term, asked=False))

    async def _answer(self, offer: Offer) -> None:
        if self.host is not None or (self.role == "host"):
            self.peer.send(Stand(offer.role, False))
            return
        try:
            accept = True if self.ask is None else await self.ask(offer)
        except Exception:  # a dialog closed with the window: no
            accept = False
        if not accept or self.peer.term != offer.term:
            self.peer.send(Stand(offer.role, False))
            return
        if self.after_override is None:
            self.after = offer.after
        await self._stand(offer.role, offer.term, asked=True)

    async def _stand(self, role: str, term: int, asked: bool) -> None:
        """Hold the ports and say so (``Stand``): the answer to an offer, or unasked."""
        if self.role == "deputy" and role == "host" and self.standby is not None \
                and self.standby.ports is not None:
            ports = self.standby.ports
        else:
            await self._release()
            standby = Standby(self.config, self._where, self.config.host_name)
            try:
                ports = await standby.start()
            except OSError as exc:
                log.warning("Cannot listen to referee the room (%s).", exc)
                if asked:
                    self.peer.send(Stand(role, False))
                self._tell("failed", msg("This laptop cannot open a port to referee the room "
                                         "({error}).", error=exc.strerror or str(exc)))
                return
            self.standby = standby
        if self.peer.token and self.standby is not None:
            self.standby.own.add(self.peer.token)
        self.role, self.term = role, term
        self._parts = []
        self.peer.send(Stand(role, True, ports.game, ports.web))
        self._tell("standby", role)
        if role == "host":
            self._spawn(self._expect_room())

    async def _expect_room(self) -> None:
        """A hand-over that never came (the old host failed, or changed its mind)."""
        await asyncio.sleep(HANDOVER_WITHIN)
        if self.role == "host" and self.host is None:
            await self.stand_down(msg("The room was not handed over after all."))

    # --- the copy ---------------------------------------------------------------------

    def _part(self, part: RoomPart) -> None:
        if self.role != part.role or part.term != self.term:
            return
        if part.index == 0:
            self._parts = []
        if part.index != len(self._parts):
            self._parts = []  # out of order: an honest host never does it; wait for anew
            return
        self._parts.append(part.data)
        if sum(map(len, self._parts)) > roomcopy.MAX_COPY:
            self._parts = []
            self._spawn(self.stand_down(msg("The host sent a room far larger than any "
                                            "room is.")))
            return
        if part.index < part.total - 1:
            return
        blob, self._parts = b"".join(self._parts), []
        if part.role == "host":
            self._spawn(self._referee(blob, part.seq))
            return
        try:
            copy = roomcopy.decode(blob)
        except roomcopy.CopyError as exc:
            log.warning("The deputy's copy was refused: %s", exc.reason)
            self._spawn(self.stand_down(msg("The host sent a room this laptop cannot read; "
                                            "it stands by no more.")))
            return
        self.base, self.lines, self.size = blob, [], len(blob)
        self.state_id = copy.save.state_id if copy.save is not None else -1
        own = self.peer.token
        self.others = sum(1 for seat in copy.seats
                          if seat.token != own and not seat.hosted and not seat.owner)
        self._head = {"port": copy.port, "web_port": copy.web_port}
        if self.after_override is None:
            self.after = copy.after
        self.peer.send(Ack(part.seq))
        if self._watch is None or self._watch.done():
            self._watch = self._spawn(self._watching())

    def _journal(self, journal: Journal) -> None:
        if self.role != "deputy" or self.base is None or journal.term != self.term:
            return
        if not journal.lines:  # the host went back (its save failed): so does the copy
            if journal.at <= self.state_id:
                self.lines = [(s, line) for s, line in self.lines if s <= journal.at]
                self.state_id = journal.at
                self.peer.send(Ack(journal.seq))
            return
        if journal.at != self.state_id or self.size + len(journal.lines) > roomcopy.MAX_COPY:
            return  # not what follows: no answer, and the host goes on without us
        added: list[tuple[int, bytes]] = []
        state = self.state_id
        for line in journal.lines.split(b"\n")[:-1]:
            try:
                entry = json.loads(line)
                state = entry["state_id"]
            except (ValueError, KeyError, TypeError):
                return
            if not isinstance(state, int) or state != (added[-1][0] if added
                                                       else self.state_id) + 1:
                return
            added.append((state, line + b"\n"))
        self.lines.extend(added)
        self.size += len(journal.lines)
        self.state_id = state
        self.peer.send(Ack(journal.seq))

    def _where(self) -> Moved | None:
        """Where the room is while its host is heard from (a standby sends early comers
        back there); None once it is silent."""
        peer = self.peer
        if peer.home is None or peer.link is None \
                or time.monotonic() - peer.heard_at > self.after / 2:  # pinged each quarter
            return None
        return Moved(peer.room, peer.term, peer.host_name, peer.home[0],
                     int(self._head.get("port") or peer.home[1]),
                     int(self._head.get("web_port") or 0))

    # --- taking over --------------------------------------------------------------------

    async def _watching(self) -> None:
        """Ping the host, and take over once it has been silent long enough."""
        pinged = 0.0
        nonce = 0
        while self.role == "deputy" and self.host is None:
            await asyncio.sleep(WATCH_EVERY)
            peer, standby = self.peer, self.standby
            now = time.monotonic()
            if peer.link is not None and now - pinged >= self.after / 4:
                nonce += 1
                pinged = now
                peer.send(Ping(nonce))
            silent = now - peer.heard_at
            if standby is None or silent < self.after:
                continue
            if not self.others or standby.witnesses(self.after * 2):
                await self.take_over()
                return

    async def take_over(self) -> Host | None:
        """Referee the room from the deputy's copy (the host is gone)."""
        if self.base is None or self.host is not None:
            return None
        blob = self.base + b"".join(line for _, line in self.lines)
        return await self._referee(blob, None, self._clock_left())

    def _clock_left(self) -> tuple[str, float] | None:
        """The running deadline as this laptop last heard it: its key and what was left
        when the host was last heard (nobody could move while it was silent, so the
        silence costs no one time; nor does it give anyone the whole count again)."""
        peer = self.peer
        clock = peer.clock
        if clock is None:
            return None
        silent = max(0.0, time.monotonic() - peer.heard_at)
        left = peer.clock_deadline - asyncio.get_running_loop().time() + silent
        return clock.key, round(max(0.0, min(left, clock.seconds)), 3)

    async def _referee(self, blob: bytes, seq: int | None,
                       clock: tuple[str, float] | None = None) -> Host | None:
        from lanplay.host.server import Host

        standby = self.standby
        if standby is None or standby.ports is None:
            return None
        ports = standby.ports
        try:
            copy = roomcopy.decode(blob)
            if copy.clock is None:  # a deputy's copy: the count as this laptop heard it
                copy = dataclasses.replace(copy, clock=clock)
            config = dataclasses.replace(self.config, port=ports.game,
                                         web_port=ports.web or None, web=bool(ports.web))
            host = Host.adopt(copy, config, owner_token=self.peer.token)
        except roomcopy.CopyError as exc:
            log.warning("The room's copy was refused: %s", exc.reason)
            if seq is not None:  # the old host need not wait for us: play goes on there
                self.peer.send(Stand("host", False))
            await self.stand_down(msg("The host sent a room this laptop cannot use; it "
                                      "does not referee it."), failed=True)
            return None
        await standby.close()
        self.standby = None
        try:
            await host.start()
        except OSError as exc:
            await host.stop()
            if seq is not None:
                self.peer.send(Stand("host", False))
            await self.stand_down(msg("This laptop cannot open a port to referee the room "
                                      "({error}).", error=exc.strerror or str(exc)),
                                  failed=True)
            return None
        self.host, self.role = host, None
        if seq is not None:
            self.peer.send(Ack(seq))
        log.info("This laptop referees the room now (term %d, port %d).", host.room.term,
                 host.port)
        self._tell("hosting", host)
        return host

    async def stand_down(self, why: Msg, failed: bool = False) -> None:
        """Stand by no more (the room is someone else's to referee)."""
        if self.role is None and self.standby is None:
            return
        self.role, self.base, self.lines, self.state_id = None, None, [], -1
        await self._release()
        self._tell("failed" if failed else "stood_down", why)

    async def _release(self) -> None:
        standby, self.standby = self.standby, None
        if standby is not None:
            await standby.close()

    async def close(self) -> None:
        """Stop standing by (the host, once one runs, is its owner's to stop)."""
        self.role = None
        if self._on_event in self.peer.listeners:
            self.peer.listeners.remove(self._on_event)
        await self._release()
        me = asyncio.current_task()
        tasks = [t for t in self._tasks if t is not me]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- small things -------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _tell(self, event: str, payload: Any) -> None:
        for listener in list(self.listeners):
            with contextlib.suppress(Exception):
                listener(event, payload)


__all__ = ["Ask", "Successor"]
