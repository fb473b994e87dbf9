"""Shared pieces of the web tests: a host that serves the page, raw HTTP requests, a
WebSocket seat that chooses from ``may``, and the check of what a seat was sent."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from lanplay import games
from lanplay.host import Host, HostConfig
from lanplay.session import Session
from protocol import delta
from protocol.codec import decode_body, pack
from protocol.messages import Delta, Snapshot

LOCAL = "127.0.0.1"


@contextlib.asynccontextmanager
async def web_host(game: str = "alles-klar", mode: str | None = None,
                   options: dict[str, Any] | None = None,
                   **config: Any) -> AsyncIterator[Host]:
    """A host on 127.0.0.1 serving its page on a free port, stopped after."""
    config.setdefault("seed", 5)
    host = Host(game, mode, options, HostConfig(host_name="web test", bind=LOCAL, port=0,
                                                web_port=0, save=False, **config))
    await host.start()
    try:
        yield host
    finally:
        await host.stop("test over")


async def until(condition: Callable[[], bool], timeout: float = 5) -> None:
    """Wait for ``condition`` (checked as the loop turns), failing after ``timeout``."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def http_get(port: int, path: str, headers: dict[str, str] | None = None,
                   source: str = LOCAL, timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    """One raw GET; the status, the headers (lower-case names) and the body."""
    head = {"Host": f"{LOCAL}:{port}", **(headers or {})}
    lines = [f"GET {path} HTTP/1.1", *(f"{k}: {v}" for k, v in head.items()), "", ""]
    return await raw_request(port, "\r\n".join(lines).encode(), source, timeout)


async def raw_request(port: int, data: bytes, source: str = LOCAL,
                      timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection(LOCAL, port, local_addr=(source, 0))
    try:
        writer.write(data)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    if not head:
        return 0, {}, b""
    status_line, *rest = head.decode("latin-1").split("\r\n")
    fields = {k.strip().lower(): v.strip() for k, _, v in (r.partition(":") for r in rest)}
    return int(status_line.split()[1]), fields, body


async def ws_connect(port: int, origin: str | None = "own") -> ClientConnection:
    own = f"http://{LOCAL}:{port}"
    return await connect(f"ws://{LOCAL}:{port}/ws", compression=None,
                         origin=own if origin == "own" else origin)  # type: ignore[arg-type]


def fill(template: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """An action from a ``may`` template, its numbers drawn at random (None: a choice a
    simple client cannot make, such as an S-tier note)."""
    action = {k: v for k, v in template.items() if k != "choose"}
    for name, choice in template.get("choose", {}).items():
        if choice["kind"] != "number":
            return None
        low = choice["min"] if choice["min"] is not None else -3.0
        high = choice["max"] if choice["max"] is not None else 3.0
        action[name] = rng.uniform(low, high)
    return action


def check_frames(session: Session, seat: int | None, bodies: list[bytes]) -> int:
    """Every view the seat rebuilt from its snapshots and deltas is exactly its
    ``view`` of the true state (replayed from the host's log): it was sent nothing
    more. Returns how many views were checked."""
    rules = games.load(session.game.id)
    replay = Session(rules, session.players, session.mode, session.options, session.seed)
    states = {0: replay.state}
    for entry in session.log:
        replay.submit(entry.seat, entry.action)
        states[replay.state_id] = replay.state
    view: dict[str, Any] | None = None
    at, checked = -1, 0
    for n, body in enumerate(bodies):
        msg = decode_body(body)
        if isinstance(msg, Snapshot):
            view, at = msg.view, msg.state_id
        elif isinstance(msg, Delta):
            assert view is not None and msg.base == at, f"frame {n}: a gap"
            view, at = delta.apply(view, msg.ops), msg.state_id
        else:
            continue
        assert pack(view) == pack(rules.view(states[at], seat)), f"frame {n} (state {at})"
        checked += 1
    return checked
