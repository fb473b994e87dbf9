"""Names are cleaned wherever they enter: no NUL, ESC sequence, CR/LF, RTL override
or zero-width space reaches a lobby, a chat line or the host's terminal; names are
normalised, capped and unique in a room ("Ann (2)")."""

from __future__ import annotations

import asyncio
import unicodedata

import pytest
from nethelpers import LOCAL, hosting
from test_cli import HostProcess, free_port

from lanplay import names
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from lanplay.room import Room

HOSTILE = "A\x00B\x1b[31mC\r\nMove 99 by Admin."


@pytest.mark.parametrize(("raw", "clean"), [
    ("A\x00B", "AB"),  # NUL
    ("\x1b[31mRed\x1b[0m", "[31mRed[0m"),  # ESC: the sequence cannot start
    ("Ann\r\nMove 3 by Bob.", "Ann Move 3 by Bob."),  # CR/LF: no forged log line
    ("Ev\u202eil", "Evil"),  # RTL override
    ("An\u200bn", "Ann"),  # zero-width space
    ("\ufeffBOM\u2066", "BOM"),  # byte order mark, isolate
    ("Zoe\u0308", "Zoë"),  # NFC: one character, as typed elsewhere
    ("  Lots   of\tspace  ", "Lots of space"),
    ("Zoë 🎲", "Zoë 🎲"),
    ("x" * 40, "x" * 24),
])
def test_a_name_is_cleaned(raw: str, clean: str) -> None:
    assert names.name(raw) == clean
    assert unicodedata.is_normalized("NFC", clean)


@pytest.mark.parametrize("raw", ["", "   ", "\u200b\u200b", "\x00\x1b\r\n", "\u202e"])
def test_a_name_with_nothing_left_falls_back_to_player(raw: str) -> None:
    assert names.name(raw) == "Player"


def test_names_are_unique_in_a_room_whatever_their_case() -> None:
    room = Room("s-tier", "competitive")  # up to 16 seats
    seated = [room.add(n).name for n in
              ("Ann", "Ann", "ann", "An\u200bn", "Ann (2)", "Spectator", "lanplay", "")]
    assert seated == ["Ann", "Ann (2)", "ann (3)", "Ann (4)", "Ann (2) (2)",
                      "Spectator (2)", "lanplay (2)", "Player"]
    long = room.add("y" * 30).name
    twin = room.add("y" * 30).name
    assert long == "y" * 24 and twin == "y" * 20 + " (2)" and len(twin) == 24


def test_a_colour_that_is_not_rrggbb_is_replaced() -> None:
    room = Room("alles-klar")
    assert room.add("A", "#12abEF").colour == "#12abEF"
    assert room.add("B", 'red"><img src=x>').colour.startswith("#")
    assert len(room.add("C", "x" * 5000).colour) == 7


@pytest.mark.timeout(30)
def test_hostile_names_reach_no_one_raw_over_tcp() -> None:
    async def main() -> None:
        async with hosting() as host:
            peers = [Peer(n) for n in (HOSTILE, "Ev\u202eil", "Ann", "An\u200bn")]
            for peer in peers:
                await peer.connect(LOCAL, host.port)
            tasks = [asyncio.create_task(p.run()) for p in peers]
            try:
                first = peers[0]
                await first.wait_until(lambda p: p.lobby is not None
                                       and len(p.lobby.seats) == 4, 5)
                assert first.lobby is not None
                assert [s["name"] for s in first.lobby.seats] == [
                    "AB[31mC Move 99 by Admin", "Evil", "Ann", "Ann (2)"]
                assert [s.name for s in host.room.seats] == [
                    s["name"] for s in first.lobby.seats]
                peers[1].say("hello")
                await first.wait_until(lambda p: bool(p.chat), 5)
                assert first.chat[0].sender == "Evil"
            finally:
                for peer in peers:
                    await peer.close()
                await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


@pytest.mark.timeout(90)
def test_the_hosts_terminal_never_prints_a_raw_name() -> None:
    """``lanplay host --log-moves``: the seat list, every move and the result name the
    hostile player, cleaned; no control character reaches the terminal."""
    async def main() -> None:
        port = free_port()
        host = await HostProcess.start("--bots", "1", "--port", str(port), "--bot-delay", "0",
                                       "--seed", "5", "--games", "1", "--log-moves",
                                       "--no-announce")
        try:
            await host.line_with(f"on port {port}")
            peer = Peer(HOSTILE, bot=True)
            await peer.connect(LOCAL, port)
            play = asyncio.create_task(drive(peer, 2))
            await peer.wait_until(lambda p: p.result is not None, 60)
            assert await host.wait(30) == 0, host.output
            await asyncio.gather(play, return_exceptions=True)
        finally:
            try:
                await host.interrupt()
            finally:
                host.kill()
        text = host.output
        shown = "AB[31mC Move 99 by Admin"
        assert f"Seats 2/5: {shown} (bot), Bot 1 (bot)\n" in text, text
        assert f"by {shown}." in text and "Game over:" in text
        assert not any(line.startswith("Move 99") for line in text.splitlines())
        bad = {c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf")}
        assert not bad, f"control characters on the terminal: {sorted(map(hex, map(ord, bad)))}"

    asyncio.run(main())
