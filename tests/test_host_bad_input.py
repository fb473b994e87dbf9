"""Bad input: refused with a reason a person understands, and nothing else changes.

Every test seats two people (Olga, who opened the room, and Gus) and one bot
driven by ``lanplay.peer.bots.drive`` at a real host on 127.0.0.1, waits until the
game rests on a person's turn (the bot then has nothing to do, so the state
cannot move by itself), sends something wrong, and checks that: the offender
is refused with a readable reason; the game state, its ``state_id``, the log
and the seats are exactly as before; the other connections are untouched;
and finally the whole game is still played to the end by everyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import struct
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from nethelpers import LOCAL, Tasks, all_agree, hosting, play_out, rejected, run, seat

from lanplay.games.alles_klar.rules import card_label
from lanplay.host import Host
from lanplay.peer.peer import JoinError, Peer
from lanplay.session import Session
from protocol.codec import CLIENT_FRAME, HANDSHAKE_FRAME, MAX_FRAME, FrameReader, encode, pack
from protocol.messages import (
    PROTOCOL_VERSION,
    Chat,
    Control,
    Hello,
    Intent,
    Message,
    Ping,
    Pong,
    Refused,
    Rejected,
    Snapshot,
    Welcome,
)

OWNER, GUEST, BOT = 0, 1, 2


def readable(reason: str) -> None:
    """A sentence a player can act on: words, not a traceback or a repr."""
    assert isinstance(reason, str) and 10 <= len(reason) <= 300, reason
    assert " " in reason and reason[0].isalpha(), reason
    assert "Traceback" not in reason and "Error" not in reason, reason


# --- a client that says exactly the bytes a test wants ------------------------------


class Raw:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.frames = FrameReader()
        self.inbox: list[Message] = []

    @classmethod
    async def open(cls, port: int) -> Raw:
        reader, writer = await asyncio.open_connection(LOCAL, port)
        return cls(reader, writer)

    def send(self, msg: Message) -> None:
        self.writer.write(encode(msg))

    def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)

    def send_map(self, data: dict[str, Any]) -> None:
        body = pack(data)
        self.writer.write(struct.pack(">I", len(body)) + body)

    async def recv(self, timeout: float = 5.0) -> Message | None:
        """The next message, or None once the host has closed the connection."""
        while not self.inbox:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not data:
                return None
            self.inbox.extend(self.frames.feed(data))
        return self.inbox.pop(0)

    async def until(self, kind: type[Message], timeout: float = 5.0) -> Any:
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.recv()
                assert msg is not None, f"the host closed before sending a {kind.TYPE}"
                if isinstance(msg, kind):
                    return msg

    async def closed_after(self, kind: type[Message], timeout: float = 5.0) -> Any:
        """Wait for a ``kind`` message and then the end of the connection."""
        found = await self.until(kind, timeout)
        async with asyncio.timeout(timeout):
            while (await self.recv()) is not None:
                pass
        return found

    async def hello(self, **fields: Any) -> Welcome:
        self.send(Hello(PROTOCOL_VERSION, fields.pop("name", "Raw"), **fields))
        welcome: Welcome = await self.until(Welcome)
        return welcome

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


# --- the table -----------------------------------------------------------------------


@dataclass
class Table:
    host: Host
    owner: Peer
    guest: Peer
    bot: Peer
    tasks: Tasks = field(default_factory=Tasks)
    before: tuple[Any, ...] = ()

    @property
    def session(self) -> Session:
        assert self.host.session is not None
        return self.host.session

    @property
    def people(self) -> list[Peer]:
        return [self.owner, self.guest]

    @property
    def everyone(self) -> list[Peer]:
        return [self.owner, self.guest, self.bot]

    async def settle(self) -> tuple[Peer, Peer]:
        """Wait until a person is on turn and both people see the host's state.

        Returns (the person on turn, the other one). Only the bot acts by
        itself, so from here on nothing changes unless a test makes it.
        """
        def calm(peer: Peer) -> bool:
            session = self.host.session
            return (session is not None and session.state.turn in (OWNER, GUEST)
                    and peer.state_id == session.state_id)

        for peer in self.people:
            await peer.wait_until(calm, 10)
        turn = self.session.state.turn
        return self.people[turn], self.people[1 - turn]

    async def hold(self) -> tuple[Peer, Peer]:
        """``settle``, then remember the picture that bad input must leave alone."""
        turns = await self.settle()
        self.before = self.picture()
        return turns

    def picture(self) -> tuple[Any, ...]:
        """Everything bad input must leave alone."""
        s, room = self.session, self.host.room
        return (s.state_id, s.state, len(s.log), room.phase,
                [(x.name, x.token, x.ready, x.owner, x.connected) for x in room.seats])

    def unaffected(self) -> None:
        for peer in self.everyone:
            assert peer.link is not None and not peer.link.closed, peer.name
            assert peer.closed_reason is None, (peer.name, peer.closed_reason)
        assert all(seat.connected for seat in self.host.room.seats)

    async def intact_to_the_end(self) -> None:
        """Nothing changed since ``hold``, and the game is still played to the end."""
        assert self.picture() == self.before
        self.unaffected()
        await self.finish()

    async def finish(self) -> None:
        """Everyone plays on to the end; all agree on the host's result."""
        newcomer = Peer("Late watcher", spectate=True)
        await newcomer.connect(LOCAL, self.host.port)  # the host still admits people
        self.tasks.add(newcomer.run())
        players = [asyncio.create_task(play_out(p, random.Random(10 + i)))
                   for i, p in enumerate(self.people)]
        await asyncio.wait_for(self.host.finished.wait(), 30)
        await asyncio.wait_for(asyncio.gather(*players), 10)
        await all_agree(self.host, [*self.everyone, newcomer])
        assert self.session.replay().state == self.session.state


@contextlib.asynccontextmanager
async def table(seed: int = 7, **config: Any) -> AsyncIterator[Table]:
    tasks = Tasks()
    try:
        async with hosting("bad input", seed=seed, autostart=3, **config) as host:
            owner = await seat(host, "Olga", tasks, token=host.owner_token)
            owner.control("ready")
            guest = await seat(host, "Gus", tasks)
            guest.control("ready")
            bot = await seat(host, "Robo", tasks, bot_seed=seed)
            assert (owner.seat, guest.seat, bot.seat) == (OWNER, GUEST, BOT)
            assert owner.owner and not guest.owner
            for peer in (owner, guest):
                await peer.wait_until(lambda p: p.view is not None, 10)
            yield Table(host, owner, guest, bot, tasks)
    finally:
        await tasks.join()


def no_card_named(reason: str, cards: list[int]) -> None:
    for card in cards:
        assert card_label(card) not in reason, reason
    assert not re.search(r"\d", reason), f"a number in {reason!r} could name a card"


# --- broken frames ---------------------------------------------------------------------

GARBAGE = [
    pytest.param(struct.pack(">I", 3) + b"\xc1\xc1\xc1", "msgpack", id="reserved-byte"),
    pytest.param(struct.pack(">I", 4) + b"\x92\x01\x02\x03", "bytes after", id="extra-bytes"),
    pytest.param(struct.pack(">I", 3) + b"\x81\xa1a", "middle", id="truncated-body"),
    pytest.param(struct.pack(">I", 3) + pack([1, 2]), "map", id="not-a-map"),
    pytest.param(struct.pack(">I", 3) + b"\xd4\x01\x00", "extension", id="ext-type"),
]


@pytest.mark.timeout(40)
@pytest.mark.parametrize(("garbage", "said"), GARBAGE)
def test_a_malformed_frame_after_hello_costs_only_that_connection(garbage: bytes,
                                                                   said: str) -> None:
    async def main() -> None:
        async with table() as t:
            await t.hold()
            raw = await Raw.open(t.host.port)
            await raw.hello(name="Garbler")
            raw.send_bytes(garbage)
            refused = await raw.closed_after(Refused)
            assert refused.code == "malformed"
            assert said in refused.reason
            readable(refused.reason)
            await raw.close()
            await t.intact_to_the_end()

    run(main())


@pytest.mark.timeout(40)
@pytest.mark.parametrize("first", [False, True], ids=["after-hello", "instead-of-hello"])
def test_an_oversized_length_prefix_is_refused_before_any_body(first: bool) -> None:
    async def main() -> None:
        async with table() as t:
            await t.hold()
            raw = await Raw.open(t.host.port)
            if not first:
                await raw.hello(name="Huge")
            # no body follows: the host must not wait for a mebibyte to arrive
            raw.send_bytes(struct.pack(">I", MAX_FRAME + 1))
            refused = await raw.closed_after(Refused)
            assert refused.code == "malformed"
            limit = HANDSHAKE_FRAME if first else CLIENT_FRAME  # 4 KiB until the welcome
            assert str(limit) in refused.reason and "limit" in refused.reason
            await raw.close()
            # a stray HTTP request is an oversized length prefix too
            web = await Raw.open(t.host.port)
            web.send_bytes(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert (await web.closed_after(Refused)).code == "malformed"
            await web.close()
            await t.intact_to_the_end()

    run(main())


@pytest.mark.timeout(40)
def test_an_unknown_message_type_is_skipped_and_a_host_only_message_rejected() -> None:
    async def main() -> None:
        async with table() as t:
            await t.hold()
            # a message a peer may not send is answered, the connection stays
            raw = await Raw.open(t.host.port)
            await raw.hello(name="Pretender")
            raw.send(Snapshot(999, {"hand": []}))
            answer = await raw.until(Rejected)
            assert answer.code == "unexpected" and "only a host may send" in answer.reason
            readable(answer.reason)
            # a later version's message is skipped whole (PROTOCOL.md, "Messages"): the
            # connection goes on, and the next message is answered
            raw.send_map({"type": "teleport", "to": "the other table"})
            raw.send(Ping(77))
            pong = await raw.until(Pong)
            assert pong.nonce == 77
            assert not any(isinstance(m, Refused) for m in raw.inbox)
            await raw.close()
            await t.intact_to_the_end()

    run(main())


# --- the handshake ---------------------------------------------------------------------


@pytest.mark.timeout(40)
def test_a_hello_with_another_protocol_version_is_refused() -> None:
    async def main() -> None:
        async with table() as t:
            await t.hold()
            raw = await Raw.open(t.host.port)
            raw.send(Hello(PROTOCOL_VERSION + 1, "Future"))
            refused = await raw.closed_after(Refused)
            assert refused.code == "version"
            assert str(PROTOCOL_VERSION) in refused.reason
            assert str(PROTOCOL_VERSION + 1) in refused.reason
            readable(refused.reason)
            await raw.close()
            assert t.host.room.spectators == 0
            await t.intact_to_the_end()

    run(main())


@pytest.mark.timeout(40)
def test_a_first_message_that_is_not_a_hello_is_refused() -> None:
    async def main() -> None:
        async with table() as t:
            await t.hold()
            for msg in (Chat("hi all"), Intent(1, 0, {"type": "play", "card": 0}),
                        Control("start")):
                raw = await Raw.open(t.host.port)
                raw.send(msg)
                refused = await raw.closed_after(Refused)
                assert refused.code == "malformed"
                assert refused.reason == ("This connection did not begin the way lanplay "
                                          "does; join with lanplay.")  # no wire words
                readable(refused.reason)
                await raw.close()
            assert not any(c.seat is None for c in t.host.conns)
            await t.intact_to_the_end()

    run(main())


@pytest.mark.timeout(40)
def test_a_silent_connection_is_refused_when_the_handshake_times_out() -> None:
    async def main() -> None:
        async with table(handshake_timeout=0.3) as t:
            await t.hold()
            raw = await Raw.open(t.host.port)
            started = time.monotonic()
            refused = await raw.closed_after(Refused, timeout=5)
            waited = time.monotonic() - started
            assert refused.code == "timeout"
            readable(refused.reason)
            assert 0.2 <= waited < 3, waited
            await raw.close()
            await t.intact_to_the_end()

    run(main())


@pytest.mark.timeout(40)
def test_a_reconnect_with_a_wrong_token_is_refused_and_takes_no_seat() -> None:
    async def main() -> None:
        async with table() as t:
            await t.hold()
            for token in ("not-a-token", t.owner.token[:-1] + "?" if t.owner.token else "x"):
                intruder = Peer("Mallory", token=token)
                with pytest.raises(JoinError) as caught:
                    await intruder.connect(LOCAL, t.host.port)
                assert caught.value.code == "bad_token"
                readable(caught.value.reason)
                assert token not in caught.value.reason
            assert len(t.host.conns) == 3
            await t.intact_to_the_end()

    run(main())


# --- moves -------------------------------------------------------------------------------


@pytest.mark.timeout(40)
def test_a_move_out_of_turn_is_refused() -> None:
    async def main() -> None:
        async with table() as t:
            on_turn, waiting = await t.hold()
            assert waiting.view is not None
            own = waiting.view["hand"][0]["id"]
            answer = await rejected(waiting, lambda: waiting.intent(
                {"type": "play", "card": own}))
            assert answer.code == "not_your_turn"
            # the English names the seat as the room does; the message names it by number
            assert on_turn.name in answer.reason
            assert answer.message == {"key": "It is not your turn: waiting for {waiting}.",
                                      "args": {"waiting": {"seats": [on_turn.seat]}}}
            readable(answer.reason)
            assert not on_turn.rejections
            await t.intact_to_the_end()

    run(main())


@pytest.mark.timeout(40)
def test_a_card_not_in_hand_is_refused_without_naming_any_card() -> None:
    async def main() -> None:
        async with table() as t:
            on_turn, waiting = await t.hold()
            state = t.session.state
            theirs = state.hands[waiting.seat][0]
            pile = state.pile[0]
            reasons = set()
            for card in (theirs, pile, 500, -1):
                answer = await rejected(on_turn, lambda c=card: on_turn.intent(
                    {"type": "play", "card": c}))
                assert answer.code == "illegal"
                no_card_named(answer.reason, [theirs, pile])
                readable(answer.reason)
                reasons.add(answer.reason)
            # the same words whether the card is in a hand, the pile or nowhere
            assert len(reasons) == 1, reasons
            await t.intact_to_the_end()

    run(main())


@pytest.mark.timeout(40)
def test_a_move_made_against_a_stale_state_id_is_refused() -> None:
    async def main() -> None:
        async with table() as t:
            on_turn, _ = await t.hold()
            action = t.session.game.legal(t.session.state, on_turn.seat)[0]
            for ident, stale in enumerate((on_turn.state_id - 1, on_turn.state_id + 1,
                                           1 << 40), start=100):
                def send(ident: int = ident, stale: int = stale) -> int:
                    on_turn.send(Intent(ident, stale, action))
                    return ident

                answer = await rejected(on_turn, send)
                assert answer.code == "stale"
                readable(answer.reason)
            await t.intact_to_the_end()

    run(main())


@pytest.mark.timeout(40)
def test_a_forged_seat_in_an_action_is_refused_and_spectators_cannot_move() -> None:
    async def main() -> None:
        async with table() as t:
            on_turn, waiting = await t.hold()
            hands = t.session.state.hands
            # the player on turn claims to play for the other person
            forged = {"type": "play", "card": hands[waiting.seat][0], "seat": waiting.seat}
            answer = await rejected(on_turn, lambda: on_turn.intent(forged))
            assert answer.code == "illegal"
            no_card_named(answer.reason, [forged["card"]])
            # the other person claims to be the player on turn
            forged = {"type": "play", "card": hands[on_turn.seat][0], "seat": on_turn.seat}
            answer = await rejected(waiting, lambda: waiting.intent(forged))
            assert answer.code == "not_your_turn"
            # a spectator plays the card of the player on turn
            watcher = Peer("Watcher", spectate=True)
            await watcher.connect(LOCAL, t.host.port)
            assert watcher.seat is None
            t.tasks.add(watcher.run())
            answer = await rejected(watcher, lambda: watcher.intent(forged))
            assert answer.code == "spectator"
            readable(answer.reason)
            no_card_named(answer.reason, [forged["card"]])
            answer = await rejected(watcher, lambda: watcher.control("ready"))
            assert answer.code == "spectator"
            await t.intact_to_the_end()

    run(main())


# --- room controls --------------------------------------------------------------------------


@pytest.mark.timeout(40)
def test_owner_only_controls_are_refused_to_others_and_unknown_commands_to_all() -> None:
    async def main() -> None:
        async with table() as t:
            await t.hold()
            for command, args in (("start", {}), ("add_bot", {}), ("remove_seat", {"seat": 0}),
                                  ("move_seat", {"seat": 0, "to": 2}),
                                  ("set_game", {"game": "alles-klar"})):
                answer = await rejected(t.guest, lambda c=command, a=args: t.guest.control(
                    c, **a))
                assert answer.code == "not_owner", command
                readable(answer.reason)
            for peer in (t.guest, t.owner):
                answer = await rejected(peer, lambda p=peer: p.control("explode"))
                assert answer.code == "unknown_command" and "explode" in answer.reason
                readable(answer.reason)
                answer = await rejected(peer, lambda p=peer: p.control("x" * 5000))
                assert answer.code == "unknown_command" and len(answer.reason) < 100
            # the owner may use them, but not while the game is being played
            for command, args in (("start", {}), ("add_bot", {}), ("remove_seat", {"seat": 1}),
                                  ("move_seat", {"seat": 0, "to": 1})):
                answer = await rejected(t.owner, lambda c=command, a=args: t.owner.control(
                    c, **a))
                assert answer.code == "started", command
                readable(answer.reason)
            await t.intact_to_the_end()

    run(main())
