"""One seat at one table: the Peer, its reading task, and the Host if we host.

Opening either hosts (an in-process ``Host`` that announces itself, joined by
our own Peer with the owner token, so the host's player is a peer like any
other) or joins an address. ``leave`` is the one way out: it says goodbye,
stops the host if it is ours, and waits for the reading task, so nothing is
left running behind the window. A secret our seat keeps (the S-tier note)
stays with the connection's ``Keeper``, in the data directory's ``notes``
folder, so even a restarted window can reveal it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import inspect
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanplay.admission import RoomKey
from lanplay.game import Action, View
from lanplay.host import DEFAULT_PORT, Host, HostConfig
from lanplay.host.ports import NoFreePort
from lanplay.host.server import CLOSED, RoomMoved
from lanplay.messages import render
from lanplay.peer.keeper import Keeper
from lanplay.peer.peer import JoinError, Peer
from lanplay.store import folders, saves
from ui.services.bridge import PeerBridge
from ui.services.seats import KeptSeats, SeatWatch
from ui.words.i18n import _

HOST_CLOSED = CLOSED
"""A message, so every laptop reads it in its own language."""


@dataclass
class NetConfig:
    """Where the window looks for and offers games (tests narrow it to loopback)."""

    interfaces: Sequence[str] | None = None
    """Interfaces for zeroconf browsing and announcing (None: all)."""
    bind: str = "0.0.0.0"
    port: int | None = None
    """The port a room we host listens on (0: any free one); None: 7531, else the next
    free pair up to 7539 (``lanplay.host.ports``), and the room says why."""
    bot_delay: float = 1.0
    """Seconds a bot waits before it plays (varied by a fifth either way), so people
    can follow the table; 0 plays at once (tests, benchmarks)."""
    pace: float = 1.0
    """How long the table gives each move and key moment (``ui.services.pacing``), as a factor:
    0 shows every view the moment it arrives."""
    seed: int | None = None
    reconnect_for: float | None = None
    """Seconds a dropped peer keeps trying to get back (None: the Peer's default)."""
    save: bool = True
    """Whether a hosted game is saved after every move (so a crashed host resumes)."""
    data_dir: str | os.PathLike[str] | None = None
    """Where games are saved and found to resume (None: ``--data-dir``, else
    $LANPLAY_DATA_DIR, else the user's data directory)."""
    first_port: int = DEFAULT_PORT
    """Where the usual pairs of ports begin (tests move them to ports they found free)."""
    demo: bool = False
    """The screenshots' window: it lists, and announces its rooms as, demo rooms only
    (``lanplay.net.discovery.DEMO_SERVICE``), which no real window lists."""


def supports(target: Any, name: str) -> bool:
    """Whether a class or callable takes ``name`` (features the core adds over time)."""
    if dataclasses.is_dataclass(target) and isinstance(target, type):
        return any(f.name == name for f in dataclasses.fields(target))
    try:
        return name in inspect.signature(target).parameters
    except (TypeError, ValueError):
        return False


def parse_address(text: str) -> tuple[str, int]:
    """``ADDRESS[:PORT]`` as typed by a person; ValueError says what is wrong."""
    text = text.strip()
    if not text:
        raise ValueError(_("Type the address the host's screen shows, for example "
                           "192.168.1.20 or 192.168.1.20:7531."))
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(DEFAULT_PORT)
    if not host or any(c.isspace() for c in host):
        raise ValueError(_("{text} is not an address; type something like 192.168.1.20.")
                         .format(text=repr(text)))
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(_("The port in {text} must be a number from 1 to 65535.")
                         .format(text=repr(text)))
    return host, int(port)


def notes_dir(net: NetConfig) -> Path:
    """Where this laptop keeps its seats' secrets (the S-tier notes)."""
    return folders.data_dir(net.data_dir) / "notes"


class Connection:
    def __init__(self, peer: Peer, host: Host | None = None,
                 notes: Path | None = None) -> None:
        self.peer = peer
        self.host = host
        self.keeper = Keeper(notes)
        self.keeper.attach(peer)
        self.bridge = PeerBridge(peer)
        self.leaving = False
        self.seat_watch: SeatWatch | None = None
        """Keeps our seat's token on disk while we hold one (a joined room only)."""
        self.successor: Any = None
        """Answers the host's offers to referee the room (a ``Successor``, joined rooms);
        once it referees, ``host`` is the room's new host."""
        self._run: asyncio.Task[None] | None = None

    def intent(self, action: Action) -> int:
        """Send a move; a note leaves as its commitment and stays on this laptop."""
        return self.keeper.intent(action)

    def shown_view(self) -> View | None:
        """The view our table shows: the host's, with our own kept note in it."""
        return self.keeper.shown()

    @property
    def address_text(self) -> str:
        if self.peer.address is None:
            return ""
        host, port = self.peer.address
        return f"{host}:{port}"

    # --- opening ------------------------------------------------------------------

    @classmethod
    async def host_game(cls, name: str, colour: str, net: NetConfig, game_id: str,
                        mode: str | None, options: dict[str, Any],
                        password: str = "") -> Connection:
        """Start a host for ``game_id`` and sit at it as its owner; JoinError if not."""
        extra: dict[str, Any] = {}
        if password and supports(HostConfig, "password"):
            extra["password"] = password
        if supports(HostConfig, "save"):
            extra["save"] = net.save
        if net.data_dir is not None:
            extra["data_dir"] = net.data_dir
        if supports(HostConfig, "web"):  # the browser page, on the pair's second port
            extra["web"] = True
        config = HostConfig(host_name=name, bind=net.bind, port=net.port,
                            first_port=net.first_port, seed=net.seed,
                            bot_delay=net.bot_delay, announce=True, demo=net.demo,
                            interfaces=net.interfaces, **extra)
        try:
            host = Host(game_id, mode, options, config)
        except (ValueError, KeyError) as exc:  # a bad option, a pack that is not usable
            raise JoinError(str(exc.args[0] if exc.args else exc)) from exc
        try:
            port = await host.start()
        except NoFreePort as exc:
            await host.stop()
            raise JoinError(render(exc.message)) from exc
        except OSError as exc:
            await host.stop()
            raise JoinError(_("Could not open a room on this laptop ({error}); try again, or "
                              "restart lanplay.").format(error=exc.strerror or exc)) from exc
        except BaseException:  # cancelled while opening (the window closed): close it again
            await host.stop()
            raise
        peer = _peer(name, colour, net, token=host.owner_token, password=password)
        local = "127.0.0.1" if net.bind in ("", "0.0.0.0") else net.bind
        try:
            await peer.connect(local, port)
        except BaseException:  # refused, or cancelled (the window closed meanwhile)
            await host.stop()  # a room nobody holds must not run on
            raise
        return cls(peer, host, notes_dir(net))

    @classmethod
    async def resume_game(cls, name: str, colour: str, net: NetConfig,
                          path: str | os.PathLike[str]) -> Connection:
        """Resume the saved game at ``path`` on the port its players remember and take
        back the owner's seat; JoinError with a reason for a person if not.

        The owner's seat comes back with its saved token, which is the one our Peer
        presents: the host then gives it that seat and a snapshot of the table."""
        config = HostConfig(host_name=name, bind=net.bind, seed=net.seed,
                            bot_delay=net.bot_delay, announce=True, demo=net.demo,
                            interfaces=net.interfaces, save=net.save,
                            data_dir=net.data_dir)
        try:
            host = Host.resume(path, config)
        except saves.SaveError as exc:
            raise JoinError(exc.reason) from exc
        if supports(HostConfig, "web"):  # the page beside the port the players remember
            host.config.web = True
        owner = next((s for s in host.room.seats if s.owner), None)
        token = owner.token if owner is not None else host.owner_token
        # the save keeps the room's key, not its password: our own seat answers with it
        password: str | RoomKey = host.config.password or host.tokens.room_key or ""
        try:
            port = await host.start()
        except RoomMoved as exc:  # its deputy took the room over: our seat is there now
            await host.stop()
            host.saver.forget()
            moved = exc.moved
            return await cls.join(owner.name if owner else name,
                                  owner.colour if owner else colour, net, [moved.address],
                                  moved.port, password=password, token=token)
        except OSError as exc:
            await host.stop()
            port = host.config.port or 0  # a resumed room has the port its players remember
            if exc.errno == errno.EADDRINUSE:
                raise JoinError(_("Another program on this laptop (another lanplay?) uses "
                                  "port {port}, which the players will come back to; close "
                                  "it and try again.").format(port=port)) from exc
            raise JoinError(_("Could not reopen the room on port {port} ({error}); try "
                              "again, or restart lanplay.").format(
                                  port=port, error=exc.strerror or exc)) from exc
        except BaseException:  # cancelled while reopening (the window closed): close it
            await host.stop()
            raise
        peer = _peer(owner.name if owner else name, owner.colour if owner else colour, net,
                     token=token, password=password)
        local = "127.0.0.1" if net.bind in ("", "0.0.0.0") else net.bind
        try:
            await peer.connect(local, port)
        except BaseException:  # refused, or cancelled (the window closed meanwhile)
            await host.stop()
            raise
        return cls(peer, host, notes_dir(net))

    @classmethod
    async def join(cls, name: str, colour: str, net: NetConfig, addresses: Sequence[str],
                   port: int, password: str | RoomKey = "", spectate: bool = False,
                   token: str | None = None) -> Connection:
        """Join (or, with ``spectate``, watch; with a seat's ``token``, take that seat
        back) the first of ``addresses`` that answers; JoinError with the reason if none."""
        last: JoinError | None = None
        for address in addresses:
            peer = _peer(name, colour, net, token=token, password=password,
                         spectate=spectate and not token)
            try:
                await peer.connect(address, port)
            except JoinError as exc:
                if exc.code != "unreachable":
                    raise  # the host answered and said no: trying elsewhere will not help
                last = exc
                continue
            return cls(peer, notes=notes_dir(net))
        raise last or JoinError(_("The host announced no address to connect to."))

    def follow_seat(self, seats: KeptSeats, room: str, addresses: Sequence[str]) -> None:
        """Keep our seat's token in ``seats`` while we hold one (``ui.services.seats``)."""
        self.seat_watch = SeatWatch(seats, self.peer, room, addresses)

    # --- running --------------------------------------------------------------------

    def start(self, on_end: Callable[[str], None]) -> None:
        """Read from the host; ``on_end(reason)`` when the connection ends by itself."""
        async def read() -> None:
            try:
                await self.peer.run()
            finally:
                if not self.leaving:
                    on_end(self.peer.closed_reason or _("The connection to the host was lost."))


        self._run = asyncio.get_running_loop().create_task(read())

    def control(self, command: str, **args: Any) -> int:
        return self.bridge.control(command, **args)

    async def leave(self, reason: str = "left the table", keep_seat: bool = False) -> None:
        """Say goodbye, close our host if we have one, wait for the reader to end. A
        seat kept on disk is forgotten, unless ``keep_seat`` (the window closes: a seat
        in a running game is still the person's, and a restarted window takes it back)."""
        self.leaving = True
        if self.seat_watch is not None:
            if keep_seat:
                self.seat_watch.closing()
            else:
                self.seat_watch.ended(on_purpose=True)
        with contextlib.suppress(Exception):
            await self.peer.close(reason)
        if self.successor is not None:
            await self.successor.close()
        if self.host is not None:
            await self.host.stop(HOST_CLOSED, pause=True)
        if self._run is not None:
            if not self._run.done():
                try:
                    await asyncio.wait_for(asyncio.shield(self._run), 3)
                except TimeoutError:
                    self._run.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._run
        self.bridge.detach()
        self.keeper.detach()

    async def end(self) -> None:
        """After the connection ended by itself: stop our host too, if it is ours."""
        self.leaving = True
        if self.seat_watch is not None:
            self.seat_watch.ended(on_purpose=False)
        if self.successor is not None:
            await self.successor.close()
        if self.host is not None:
            await self.host.stop(HOST_CLOSED)
        if self._run is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._run
        self.bridge.detach()
        self.keeper.detach()


def _peer(name: str, colour: str, net: NetConfig, *, token: str | None = None,
          password: str | RoomKey = "", spectate: bool = False) -> Peer:
    extra: dict[str, Any] = {}
    if password and supports(Peer, "password"):
        extra["password"] = password
    if net.reconnect_for is not None:
        extra["reconnect_for"] = net.reconnect_for
    if net.seed is not None and supports(Peer, "contribution_seed"):
        extra["contribution_seed"] = net.seed  # a seeded window plays the same game again
    return Peer(name, colour, token=token, spectate=spectate, **extra)
