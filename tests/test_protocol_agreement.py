"""docs/PROTOCOL.md and the host say the same thing (issue 12, "the protocol document,
as a client author met it"): where a client written from the document had to guess,
the host now does what the document says, and the document says what the host does.
"""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path

import pytest
from nethelpers import run
from resilience import GAME, LOCAL, Table, config

from lanplay import cli, games
from lanplay.host import Host
from lanplay.peer.peer import JoinError, Peer
from protocol.codec import FrameReader, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    Answer,
    Challenge,
    Hello,
    Intent,
    Refused,
    Resync,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text()


def codes_the_host_sends() -> set[str]:
    """Every code literal in Refused(code, ...), Refusal(code, ...), Rejected(id, code, ...)
    and the host's helpers that build those two with their message (lanplay.host.words)."""
    found: set[str] = set()
    for path in (ROOT / "lanplay").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else ""
            at = {"Refused": 0, "Refusal": 0, "Rejected": 1, "refused": 0,
                  "rejected": 1, "_rejected": 1}.get(name)
            if at is None or len(node.args) <= at:
                continue
            arg = node.args[at]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
    return found


def test_every_code_the_host_sends_is_in_the_document() -> None:
    codes = codes_the_host_sends()
    assert {"disk_full", "locked_out", "malformed", "full", "rate"} <= codes
    missing = sorted(c for c in codes if f"`{c}`" not in DOC)
    assert not missing, f"codes the host sends that PROTOCOL.md does not name: {missing}"


def test_the_document_spells_game_ids_as_the_host_sends_them() -> None:
    ids = {entry.id for entry in games.CATALOGUE}
    named = set(re.findall(r'`"?([a-z][a-z_-]+)"?`', DOC))  # `x` and `"x"`, not paths
    misspelt = {game_id.replace("-", "_") for game_id in ids if "-" in game_id}
    assert "alles-klar" in named and not named & misspelt, named & misspelt


def test_the_document_says_a_headless_host_closes_after_its_games() -> None:
    parser = cli._parser(window=False)
    sub = next(a for a in parser._actions if a.dest == "command")
    host = sub.choices["host"]  # type: ignore[attr-defined]
    default = next(a.default for a in host._actions if a.dest == "games")
    assert default == 1
    assert "`--games` games, 1 by" in " ".join(DOC.split())


@pytest.mark.timeout(60)
def test_an_action_without_a_type_is_rejected_malformed_as_the_codes_table_says(
        data_dir: Path) -> None:
    async def main() -> None:
        table = Table(Host(GAME, config=config(data_dir, autostart=3)))
        await table.host.start()
        try:
            for i in range(3):
                peer = await table.seat(f"P{i}", "none")
                peer.control("ready")
            on_turn = table.peers[0]
            await on_turn.wait_until(lambda p: p.view is not None, 10)
            session = table.host.session
            assert session is not None
            on_turn = next(p for p in table.peers if p.seat in session.actors())
            for ident, action in enumerate(({"card": 1}, {"type": 5}, {"type": None}), 1):
                before = len(on_turn.rejections)
                on_turn.send(Intent(ident, on_turn.state_id, action))
                await on_turn.wait_until(lambda p, n=before: len(p.rejections) > n, 5)
                answer = on_turn.rejections[-1]
                assert (answer.id, answer.code) == (ident, "malformed"), answer
                assert "type" in answer.reason
            assert session.state_id == 0
        finally:
            await table.close()

    run(main())


@pytest.mark.timeout(30)
def test_an_answer_in_upper_case_is_a_wrong_answer_as_the_document_says(
        data_dir: Path) -> None:
    from lanplay.admission import proof

    async def main() -> None:
        host = Host(GAME, config=config(data_dir, password="Zwiebelkuchen"))
        port = await host.start()
        try:
            reader, writer = await asyncio.open_connection(LOCAL, port)
            frames = FrameReader()
            writer.write(encode(Hello(PROTOCOL_VERSION, "Shouting")))
            (challenge,) = frames.feed(await reader.read(65536))
            assert isinstance(challenge, Challenge) and challenge.salt
            right = proof("Zwiebelkuchen", challenge.nonce, challenge.salt)
            writer.write(encode(Answer(right.upper())))
            got = []
            while data := await asyncio.wait_for(reader.read(65536), 5):
                got.extend(frames.feed(data))
            assert isinstance(got[-1], Refused) and got[-1].code == "password"
            writer.close()
            # written as the document says, it gets in
            await Peer("Quiet", password="Zwiebelkuchen", reconnect_for=0).connect(LOCAL, port)
            with pytest.raises(JoinError):
                await Peer("Loud", password="ZWIEBELKUCHEN", reconnect_for=0).connect(
                    LOCAL, port)
        finally:
            await host.stop("test over")

    run(main())


@pytest.mark.timeout(60)
def test_a_resync_after_the_game_over_is_answered_by_a_snapshot_and_the_game_over(
        data_dir: Path) -> None:
    async def main() -> None:
        table = Table(Host(GAME, config=config(data_dir, autostart=3)))
        await table.host.start()
        try:
            for i in range(3):
                await table.seat(f"Bot {i}", "steady", seed=60 + i)
            await table.finish()
            peer = table.peers[0]
            seen: list[str] = []
            over = asyncio.Event()

            def on_event(event: str, _: object) -> None:
                seen.append(event)
                if event == "game_over":
                    over.set()

            peer.listeners.append(on_event)
            peer.send(Resync("checking"))
            await asyncio.wait_for(over.wait(), 5)
            assert [e for e in seen if e in ("view", "game_over")] == ["view", "game_over"]
            assert peer.result is not None and peer.state_id == table.host.session.state_id
        finally:
            await table.close()

    run(main())
