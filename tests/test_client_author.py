"""docs/PROTOCOL.md and the host agree where a client written from the document alone
had to guess (issue 23, "the protocol document, as a client author met it"): a
message type a receiver does not know is skipped, on both sides; the shuffle's
refusals say what holds whenever a contribution comes; and the document's examples
are the values the code uses. Over real TCP on 127.0.0.1, port 0."""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path

import hostile
import pytest
from nethelpers import run
from resilience import GAME, LOCAL, Table, config

from lanplay.host import Host
from lanplay.net.discovery import Announcement
from lanplay.peer.peer import Peer
from protocol.codec import FrameReader, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    Audit,
    Chat,
    Contribution,
    Contributions,
    GameOver,
    Hello,
    Message,
    Ping,
    Pong,
    Rejected,
    Resync,
    SeedCommit,
    Snapshot,
    Welcome,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text()


class Raw:
    """A client that sends exactly what a test says and keeps everything it is sent."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer, self.frames = reader, writer, FrameReader()
        self.inbox: list[Message] = []
        self.seen: list[Message] = []
        self.pings = 0

    @classmethod
    async def join(cls, port: int, name: str, **hello: bool) -> Raw:
        raw = cls(*await asyncio.open_connection(LOCAL, port))
        raw.send(Hello(PROTOCOL_VERSION, name, **hello))
        await raw.until(Welcome)
        return raw

    def send(self, *msgs: Message) -> None:
        self.writer.write(b"".join(encode(m) for m in msgs))

    async def recv(self) -> Message:
        while not self.inbox:
            data = await self.reader.read(1 << 20)
            assert data, "the host closed the connection"
            self.inbox.extend(self.frames.feed(data))
        got = self.inbox.pop(0)
        self.seen.append(got)
        return got

    async def until(self, kind: type[Message], timeout: float = 10.0) -> Message:
        async with asyncio.timeout(timeout):
            while not isinstance(got := await self.recv(), kind):
                pass
            return got

    async def answer_to(self, msg: Message) -> Rejected | None:
        """The rejection ``msg`` gets, or None when it gets none before the answer to a
        ping sent after it (the host answers one connection's messages in order)."""
        self.pings += 1
        self.send(msg, Ping(self.pings))
        answer: Rejected | None = None
        async with asyncio.timeout(10):
            while not isinstance(got := await self.recv(), Pong) or got.nonce != self.pings:
                if isinstance(got, Rejected):
                    assert answer is None, (answer, got)  # one answer at most
                    answer = got
        return answer

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


# --- a message type the receiver does not know -----------------------------------------


@pytest.mark.timeout(30)
def test_a_peer_skips_a_message_type_it_does_not_know_and_stays() -> None:
    """A later version's message (a well-formed map whose type is a str this lanplay
    does not know) used to drop the connection as malformed; now it is skipped as an
    unknown field is."""
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.welcome())
        writer.write(hostile.raw({"type": "weather", "forecast": ["sun", 3], "id": 1}))
        writer.write(hostile.msg(Chat("still here", "Mallory", 1)))
        writer.write(hostile.raw({"type": "weather"}))
        writer.write(hostile.msg(Ping(31)))
        frames = FrameReader()
        while True:
            data = await reader.read(4096)
            if not data:
                return
            for msg in frames.feed(data):
                if isinstance(msg, Pong) and msg.nonce == 31:
                    writer.write(hostile.msg(Chat("pong seen", "Mallory", 1)))

    async def main() -> None:
        async with hostile.hostile_host(script) as port:
            peer = Peer("Ann", reconnect_for=0, dead_after=30)
            await peer.connect(LOCAL, port, timeout=5)
            task = asyncio.create_task(peer.run())
            try:
                await peer.wait_until(lambda p: len(p.chat) == 2 or p.closed_reason is not None,
                                      10)
                assert peer.closed_reason is None, peer.closed_reason
                assert [c.text for c in peer.chat] == ["still here", "pong seen"]
                assert peer.link is not None and not peer.link.closed
            finally:
                await peer.close()
                await asyncio.wait_for(task, 5)

    asyncio.run(asyncio.wait_for(main(), 25))


# --- the shuffle's refusals -------------------------------------------------------------


@pytest.mark.timeout(40)
def test_every_contribution_gets_the_answer_the_document_gives(data_dir: Path) -> None:
    """A valid one gets no answer (``contributions`` shows it); a malformed one does not
    count, and a valid one after it is taken; a second one is ``duplicate`` before and
    after the shuffle closes; a spectator's is ``spectator`` before and after; only one
    no shuffle can take is ``late``."""
    mine, yours = "a1" * 32, "b2" * 32

    async def main() -> None:
        host = Host(GAME, config=config(data_dir, autostart=2, contribution_wait=30))
        port = await host.start()
        raws: list[Raw] = []
        try:
            watcher = await Raw.join(port, "Watcher", spectate=True)
            ann = await Raw.join(port, "Ann", bot=True)
            bob = await Raw.join(port, "Bob", bot=True)
            raws += [watcher, ann, bob]
            commit = await ann.until(SeedCommit)
            await bob.until(SeedCommit)
            await watcher.until(SeedCommit)
            assert isinstance(commit, SeedCommit)
            game = commit.game

            def code(answer: Rejected | None) -> str | None:
                return None if answer is None else answer.code

            assert code(await ann.answer_to(Contribution(game, "not hex"))) == "malformed"
            assert code(await ann.answer_to(Contribution(game, mine))) is None
            assert code(await ann.answer_to(Contribution(game, mine))) == "duplicate"
            assert code(await watcher.answer_to(Contribution(game, yours))) == "spectator"
            assert code(await ann.answer_to(Contribution(game + 1, mine))) == "late"
            bob.send(Contribution(game, yours))
            told = await ann.until(Contributions)
            assert isinstance(told, Contributions)
            assert (told.values, told.drawn) == ([mine, yours], [])  # Ann's second try
            await ann.until(Snapshot)
            # the shuffle is closed: what held before still holds
            assert code(await ann.answer_to(Contribution(game, mine))) == "duplicate"
            assert code(await bob.answer_to(Contribution(game, yours))) == "duplicate"
            assert code(await watcher.answer_to(Contribution(game, yours))) == "spectator"
            assert code(await ann.answer_to(Contribution(game + 1, mine))) == "late"
        finally:
            for raw in raws:
                await raw.close()
            await host.stop("test over")

    run(main())


# --- what a resync after the end brings ------------------------------------------------


@pytest.mark.timeout(60)
def test_a_resync_after_the_end_brings_the_audit_again(data_dir: Path) -> None:
    async def main() -> None:
        table = Table(Host(GAME, config=config(data_dir, autostart=3)))
        await table.host.start()
        watcher: Raw | None = None
        try:
            for i in range(3):
                await table.seat(f"Bot {i}", "steady", seed=70 + i)
            await table.finish()
            watcher = await Raw.join(table.host.port, "Watcher", spectate=True)
            await watcher.until(Audit)  # joining an ended game brings it
            watcher.seen.clear()
            watcher.send(Resync("checking"))
            await watcher.until(Audit)
            kinds = [type(m) for m in watcher.seen]
            assert kinds == [Contributions, Snapshot, GameOver, Audit], kinds
        finally:
            if watcher is not None:
                await watcher.close()
            await table.close()

    run(main())


# --- the document's examples -------------------------------------------------------------


def test_the_discovery_example_shows_the_version_a_host_announces() -> None:
    section = DOC[DOC.index("## Discovery (zeroconf)"):DOC.index("## Example session")]
    row = re.search(r"^\| `v` \| [^|]+\| `([^`]*)` \|$", section, re.M)
    assert row is not None, "the TXT table has no `v` row"
    assert row.group(1) == Announcement("Bob's laptop", "alles-klar", 7531, 3, 6).txt()["v"]


# --- the result's detail ------------------------------------------------------------------

DETAIL_CASES = [("alles-klar", "standard", 3), ("ranking", "standard", 3),
                ("ranking-top", "standard", 3), ("ranagedon", None, 2), ("ranagedon", None, 4),
                ("s-tier", "cooperative", 2), ("s-tier", "competitive", 4),
                ("s-tier", "team", 4)]


def documented_detail() -> dict[str, set[str]]:
    """The keys of ``result.detail`` per game (and S-tier mode) as PROTOCOL.md lists them."""
    start = DOC.index("#### The result's `detail`")
    table = DOC[start:DOC.index("**`seed` is an unsigned 64-bit int**", start)]
    keys: dict[str, set[str]] = {}
    row = r"^\| `([a-z-]+)`(?: \(every mode\))? \| `([a-z_]+)` \|"
    for game, key in re.findall(row, table, re.M):
        keys.setdefault(game, set()).add(key)
    mode_row = r"^\| `s-tier` (cooperative|competitive|team) \| `([a-z_]+)` \|"
    for mode, key in re.findall(mode_row, table, re.M):
        keys.setdefault(f"s-tier {mode}", set()).add(key)
    return keys


@pytest.mark.parametrize(("game_id", "mode", "players"), DETAIL_CASES,
                         ids=[f"{g}-{m}-{p}" for g, m, p in DETAIL_CASES])
def test_the_results_detail_holds_the_documented_keys_and_the_seed_exactly(
        game_id: str, mode: str | None, players: int) -> None:
    from conformance import random_playthrough

    from lanplay import games
    game = games.load(game_id)
    seed = 2**64 - 59  # far over 2**53: a double would change it
    last = random_playthrough(game, players, mode or game.modes[0].id, seed)[-1]
    result = game.result(last)
    assert result is not None
    detail = result.to_wire()["detail"]
    documented = documented_detail()
    want = documented.get(game_id, set())
    if game_id == "s-tier":
        want = want | documented.get(f"s-tier {mode}", set())
    optional = {"teams"} if game_id == "ranagedon" and players != 4 else set()
    assert set(detail) == want - optional, (sorted(detail), sorted(want))
    if "seed" in want:
        assert detail["seed"] == seed and type(detail["seed"]) is int
