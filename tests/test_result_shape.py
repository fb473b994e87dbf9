"""Issue 23, finding 2: a mis-shaped ``game_over`` from a hostile host (``winners:
1.5``, ``scores: 7``, no ``winners``) crashed the window's end screen and the bot
(``TypeError`` in the end screen's headline, ``KeyError: 'winners'`` in the CLI). The
peer now checks the result's shape (``lanplay/store/results.py``) before any code reads
it, and leaves such a host with one sentence. Real TCP on 127.0.0.1 against a small
hostile host."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import hostile
import pytest

from lanplay.peer.peer import Peer
from lanplay.store.results import result_fault

SENTENCE = ("The host sent a result this version cannot read; the game is saved on "
            "the host.")
BAD = [
    {"winners": 1.5, "scores": [1, 2]},
    {"winners": [0], "scores": 7},
    {"scores": [1, 2]},
    {"winners": [0]},
    {"winners": [True], "scores": [1]},
    {"winners": [-1], "scores": [1]},
    {"winners": [0], "scores": ["7"]},
    {"winners": [0], "scores": [float("nan")]},
    {"winners": [0], "scores": [1], "detail": 3},
    {"winners": [0], "scores": [1], "detail": {1: 2}},
    {"winners": list(range(65)), "scores": [1]},
    [0, 1],
]


def script_sending(result: Any) -> hostile.Script:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await hostile.read_hello(reader)
        writer.write(hostile.welcome())
        writer.write(hostile.raw({"type": "game_over", "state_id": 1, "result": result}))
        await writer.drain()
        await reader.read()
    return script


@pytest.mark.parametrize("result", BAD, ids=range(len(BAD)))
def test_each_mis_shaped_result_is_refused_by_the_check(result: Any) -> None:
    assert result_fault(result) is not None


def test_a_real_result_passes_the_check() -> None:
    assert result_fault({"winners": [0, 2], "scores": [3, 1.5, 3],
                         "detail": {"seed": 2**63 - 1}}) is None
    assert result_fault({"winners": [], "scores": []}) is None


@pytest.mark.parametrize("result", BAD[:4], ids=range(4))
def test_the_peer_leaves_a_host_with_a_mis_shaped_result_in_one_sentence(
        result: Any) -> None:
    async def main() -> Peer:
        async with hostile.hostile_host(script_sending(result)) as port:
            peer = Peer("Ann", reconnect_for=0, dead_after=30)
            await peer.connect("127.0.0.1", port, timeout=5)
            await asyncio.wait_for(peer.run(), 10)
            return peer

    peer = asyncio.run(asyncio.wait_for(main(), 20))
    assert peer.result is None
    assert peer.closed_reason == SENTENCE


def test_the_bot_says_the_sentence_instead_of_a_traceback() -> None:
    """``lanplay join --bot`` against the host of ``winners: 1.5``: a failing exit, one line."""
    async def main() -> subprocess.CompletedProcess[str]:
        async with hostile.hostile_host(script_sending({"winners": 1.5})) as port:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "lanplay", "join", "--bot", "--lang", "en",
                f"127.0.0.1:{port}", stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(proc.communicate(), 30)
            assert proc.returncode is not None
            return subprocess.CompletedProcess([], proc.returncode, out.decode(), err.decode())

    done = asyncio.run(main())
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert done.returncode != 0
    assert SENTENCE in done.stdout + done.stderr
