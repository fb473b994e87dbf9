"""Issue 33: the page cannot be turned against the room. Each attack a hostile guest on
the LAN made, bounded in count and time, against a real headless host on loopback
(``lanplay host`` in a process of its own, the attack in another, from many addresses
of 127.0.0.0/8; ``tests/webattack.py``), asserting what a person at the party meets:

- W1: a flood of ``/qr.svg`` with a new ``.local`` Host each time costs the host
  about nothing per request, and a seated TCP player and a seated page keep their
  round trips under 250 ms; no request of any path costs the host a millisecond;
- W2: a seated page comes back with its token within 5 s while 9 x 32 half-open
  requests hold the room, and a new guest still gets the page;
- W3: a megabyte of headers per half-open request leaves the host under 200 MB;
- W5: a duplicate or malformed Host header is a 400, never a 500, and nothing a
  client sent puts a traceback in the host's log;
- W4: in Chromium, a link from another site opening the page with ``?autoplay``,
  ``?join&name=`` and ``?password=`` moves nothing, and the seated tab stays seated;
  a second tab asks before it takes the seat, and the tab that lost it offers to take
  it back;
- point 8: a host whose own loop stood still is not fooled into dropping its peers;
- H1: a kept audit with 200,000-character names opens in Replay with no stall the
  names cost, and fitting any text costs less than a frame.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import http.server
import logging
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserhelpers import HostThread, browser, hosting, join  # noqa: F401
from webattack import LOCAL, Seat, come_back, flooding, host_process, pinging
from webhelpers import raw_request, web_host

QUIET = 0.25
"""Seconds a round trip may take while an attack runs (the issue's bound)."""


def run(coro: Any) -> Any:
    """``coro`` on a loop of a thread of its own (Playwright's sync API keeps one running
    in this thread while the module's browser is open)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


# --- the pieces, without sockets ---------------------------------------------------------------


def test_the_budget_makes_room_from_the_most_crowded_address_and_keeps_the_trusted() -> None:
    from lanplay.web.budget import Budget

    room = Budget(total=4, per_address=3, grace=2.0)
    assert room.open("a1", "10.0.0.1", 0.0) == (True, [])
    room.trust("a1")  # a welcomed page
    for key in ("b1", "b2", "b3"):
        assert room.open(key, "10.0.0.2", 0.5) == (True, [])
    # full: a newcomer from elsewhere closes the oldest of the most crowded address, at once
    assert room.open("c1", "10.0.0.3", 0.6) == (True, ["b1"])
    # no address holds more than the newcomer's would: only one past its grace goes
    assert room.open("b4", "10.0.0.2", 1.0) == (False, [])
    assert room.open("b4", "10.0.0.2", 2.6) == (True, ["b2"])  # a1 is trusted, b2 is next
    # at its own full address a newcomer only replaces one of its own that had its grace
    own = Budget(total=10, per_address=2, grace=2.0)
    assert own.open("p1", "10.0.0.1", 0.0)[0] and own.open("p2", "10.0.0.1", 0.5)[0]
    assert own.open("p3", "10.0.0.1", 1.0) == (False, [])
    assert own.open("p3", "10.0.0.1", 2.5) == (True, ["p1"])
    # equal shares and nobody past the grace: the newcomer is refused
    equal = Budget(total=2, per_address=2, grace=2.0)
    assert equal.open("x", "10.0.0.1", 0.0)[0] and equal.open("y", "10.0.0.2", 0.0)[0]
    assert equal.open("z", "10.0.0.3", 1.0) == (False, [])
    assert equal.open("z", "10.0.0.3", 2.5) == (True, ["x"])  # the oldest, once it had 2 s
    # a trusted connection is never the one closed, however old
    kept = Budget(total=1, per_address=1, grace=0.0)
    kept.open("seat", "10.0.0.1", 0.0)
    kept.trust("seat")
    assert kept.open("new", "10.0.0.2", 99.0) == (False, [])


@pytest.mark.parametrize(("value", "read"), [
    ("192.168.1.20:7532", ("192.168.1.20", 7532)), ("Party.LOCAL", ("party.local", None)),
    ("[::1]:7532", ("::1", 7532)), ("laptop.local.:80", ("laptop.local.", 80)),
    ("", None), ("a b.local", None), ("x" * 64 + ".local", None), ("a.local:99999", None),
    ("a.local:http", None), ("-a.local", None), ("[::1", None), ("[zz]:1", None),
    ("q" * 250 + ".local", None), ("tëst.local", None),
])
def test_a_host_header_is_read_strictly(value: str, read: tuple[str, int | None] | None
                                        ) -> None:
    from lanplay.web import hosts

    got = hosts.parse(value)
    assert (got.name, got.port) == read if read is not None else got is None, got


def test_the_qr_code_is_drawn_for_the_hosts_own_names_only() -> None:
    from lanplay.web import hosts

    names = hosts.Names(["192.168.1.20"], 7532, "Laptop")
    assert names.own() == ["192.168.1.20:7532", "127.0.0.1:7532", "localhost:7532",
                           "laptop:7532", "laptop.local:7532"]
    parsed = hosts.parse("evil.example:7532")
    assert parsed is not None and not names.local(parsed)
    parsed = hosts.parse("anything.local:7532")
    assert parsed is not None and names.local(parsed)  # the page, yes; a QR code, no


# --- W1: the QR flood, and what each request costs ------------------------------------------


async def cpu_per_request(host: Any, request: bytes, count: int) -> float:
    """Milliseconds of the host's CPU per request, over ``count`` of them in turn."""
    before = host.cpu()
    for _ in range(count):
        reader, writer = await asyncio.open_connection(LOCAL, host.web_port)
        writer.write(request)
        await reader.read()
        writer.close()
    return (host.cpu() - before) * 1000 / count


@pytest.mark.timeout(60)
def test_a_qr_flood_costs_the_host_nothing_and_the_room_plays_on() -> None:
    async def main() -> None:
        async with host_process() as host:
            w = host.web_port
            player, page = Seat("Ann"), Seat("Page", web=True)
            await player.join(host.port)
            await page.join(w)
            # every path the page's server answers, each well under a millisecond of CPU
            # (the first picture and catalogue were read off the loop, at start or once)
            costs = {}
            for name, head in (("page", "GET / "), ("picture", "GET /pictures/dog "),
                               ("catalogue", "GET /locale/de.json "),
                               ("own QR code", "GET /qr.svg "), ("missing", "GET /nothing ")):
                request = f"{head}HTTP/1.1\r\nHost: 127.0.0.1:{w}\r\n\r\n".encode()
                costs[name] = await cpu_per_request(host, request, 100)
            foreign = [f"GET /qr.svg HTTP/1.1\r\nHost: {'q' * 50}{i}.local:{w}\r\n\r\n".encode()
                       for i in range(100)]
            before = host.cpu()
            for request in foreign:
                await raw_request(w, request, timeout=30)
            costs["foreign QR code"] = (host.cpu() - before) * 1000 / len(foreign)
            assert max(costs.values()) < 1.0, costs  # main: a foreign QR code 13 ms each
            # the flood: 3 addresses x 32 at once, as fast as the host answers
            stop = asyncio.Event()
            cpu = host.cpu()
            async with flooding("qr", w, 3, 32) as flood:
                await flood.ready()
                trips = asyncio.create_task(pinging([player, page], stop))
                joined = await Seat("Bea", web=True).join(w, timeout=5)
                await asyncio.sleep(6)
                stop.set()
                rounds = await trips
            requests = sum(flood.tally.statuses.values())
            spent = (host.cpu() - cpu) * 1000
            assert requests > 500 and set(flood.tally.statuses) <= {421, 0}, flood.tally
            assert spent / requests < 1.0, (spent, requests)  # main: about 13 ms each
            for name, seconds in rounds.items():
                assert len(seconds) >= 10, rounds
                # main: 2.4 s at the median, 3.2 s at worst
                assert p95(seconds) < QUIET and statistics.median(seconds) < QUIET / 2, \
                    (name, sorted(seconds)[-5:])
            assert joined < 2, joined
            assert not player.closed.is_set() and not page.closed.is_set()
            for seat in (player, page):
                await seat.close()
            assert "Traceback" not in host.log()

    run(main())


# --- W2: half-open requests hold the room ----------------------------------------------------


@pytest.mark.timeout(60)
def test_a_seated_page_comes_back_while_half_open_requests_hold_the_room() -> None:
    async def main() -> None:
        async with host_process() as host:
            page = Seat("Page", web=True)
            await page.join(host.web_port)
            token = page.token
            await page.close()  # the phone's screen locked; its seat waits for it
            async with flooding("halfopen", host.web_port, 9, 32) as flood:
                await flood.ready()  # 288 half-open requests for 256 places
                for _ in range(3):
                    seconds, tries = await come_back(host.web_port, token, within=5)
                    assert seconds is not None, f"not back in 5 s ({tries} tries)"  # main
                    assert seconds < 5
                status, _, body = await raw_request(
                    host.web_port, f"GET / HTTP/1.1\r\nHost: {LOCAL}\r\n\r\n".encode(),
                    source="127.0.0.3")
                assert status == 200 and b"lanplay" in body  # a new guest gets the page
            assert flood.tally.connects >= 288

    run(main())


# --- W3: headers hold memory -----------------------------------------------------------------


@pytest.mark.timeout(60)
def test_headers_cannot_fill_the_hosts_memory() -> None:
    async def main() -> None:
        async with host_process() as host:
            base = host.memory("VmRSS")
            for header_bytes in (127 * 8000, 7000):  # the finding's, and just under the cap
                async with flooding("halfopen", host.web_port, 9, 32,
                                    header_bytes=header_bytes) as flood:
                    await flood.ready()
                    await asyncio.sleep(3)
                    peak = host.memory("VmHWM")
                    assert peak < 200, (header_bytes, base, peak)  # main: 602 MB
            # a megabyte of headers is refused once its first 8 KiB are read
            assert 431 in flood.tally.statuses or header_bytes < 8192
            status, _, _ = await raw_request(
                host.web_port, f"GET / HTTP/1.1\r\nHost: {LOCAL}\r\n\r\n".encode())
            assert status == 200

    run(main())


# --- W5: bad requests --------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_bad_host_headers_get_400_and_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)  # as verbose as a window's log gets (ui.quiet)

    async def main() -> None:
        async with web_host() as host:
            p = host.web_port

            def request(path: str, *headers: str) -> bytes:
                return "\r\n".join([f"GET {path} HTTP/1.1", *headers, "", ""]).encode()

            ws = ("Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==")
            bad = {
                "two Hosts": request("/", f"Host: {LOCAL}:{p}", f"Host: {LOCAL}:{p}"),
                "two Hosts, QR": request("/qr.svg", f"Host: {LOCAL}:{p}", f"Host: x.local:{p}"),
                "a .local name too long for a QR code":
                    request("/qr.svg", f"Host: {'q' * 3000}.local:{p}"),
                "a label too long": request("/", f"Host: {'q' * 64}.local:{p}"),
                "a port too large": request("/", f"Host: {LOCAL}:99999"),
                "a port of letters": request("/", f"Host: {LOCAL}:http"),
                "no Host": request("/"),
                "a Host with a space": request("/", "Host: a b.local"),
                "two Origins": request("/ws", f"Host: {LOCAL}:{p}", f"Origin: http://{LOCAL}:{p}",
                                       f"Origin: http://{LOCAL}:{p}", *ws),
                "two keys": request("/ws", f"Host: {LOCAL}:{p}", f"Origin: http://{LOCAL}:{p}",
                                    *ws, "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="),
                "40 headers": request("/", f"Host: {LOCAL}:{p}",
                                      *(f"X-{i}: {i}" for i in range(40))),
            }
            got = {name: (await raw_request(p, data))[0] for name, data in bad.items()}
            assert got == dict.fromkeys(bad, 400), got  # main: 500 for the first three
            # well formed but another machine's name: misdirected, as before
            other = request("/qr.svg", f"Host: party-{'q' * 40}.local:{p}")
            assert (await raw_request(p, other))[0] == 421

    run(main())
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not tracebacks, [(r.name, r.getMessage()) for r in tracebacks]


# --- point 8: the host's own stall -------------------------------------------------------------


@pytest.mark.timeout(30)
def test_a_stall_of_the_host_is_not_its_peers_silence() -> None:
    """The host's loop stands still 2.5 s (its silence rule: 1 s): the seated player
    answered all along, so it stays; a connection that really is silent is dropped."""
    async def main() -> None:
        async with web_host(heartbeat=0.2, dead_after=1.0) as host:
            ann, page = Seat("Ann"), Seat("Page", web=True)
            await ann.join(host.port)
            await page.join(host.web_port)
            silent = Seat("Silent")
            await silent.join(host.port)
            silent._send = lambda msg: None  # type: ignore[method-assign]  # never pongs
            loop = asyncio.get_running_loop()
            stalled = asyncio.Event()
            loop.call_soon(lambda: (time.sleep(2.5), stalled.set()))
            await stalled.wait()
            await asyncio.wait_for(silent.closed.wait(), 5)  # dropped: it said nothing
            trips = [await ann.round_trip(2), await page.round_trip(2)]
            assert max(trips) < 1, trips
            assert not ann.closed.is_set() and not page.closed.is_set()  # main: both dropped
            assert all(s.connected for s in host.room.seats[:2]), host.room.seats
            for seat in (ann, page, silent):
                await seat.close()

    run(main())


# --- W4: a link from another site --------------------------------------------------------------


@pytest.fixture()
def other_site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A web site of another origin (127.0.0.2, a port of its own), serving ``tmp_path``."""
    handler = functools.partial(_Quiet, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.2", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield tmp_path, f"http://127.0.0.2:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


SEATED = "() => window.__lanplay.conn && window.__lanplay.conn.status === 'welcomed'"


@pytest.mark.timeout(60)
def test_a_link_from_another_site_moves_nothing_and_a_second_tab_asks(
        browser: Any, hosting: HostThread, other_site: tuple[Path, str]) -> None:  # noqa: F811
    host = hosting.start("alles-klar", bots=1, autostart=2)
    folder, evil_url = other_site
    link = hosting.url + "?autoplay=1&join&name=Eve&password=hunter2&spectate"
    (folder / "evil.html").write_text(
        f'<!doctype html><a id="go" href="{link}" target="_blank">cute cats</a>')
    context = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        mine = context.new_page()
        join(mine, hosting.url, "Ann")
        mine.click("#ready")
        mine.wait_for_function("() => window.__lanplay.conn.view", timeout=10_000)
        seat = mine.evaluate("() => window.__lanplay.conn.seat")
        moves = hosting.do(lambda: len(host.session.log))  # type: ignore[union-attr]

        evil = context.new_page()
        evil.goto(evil_url + "evil.html")
        with context.expect_page() as opened:
            evil.click("#go")
        other = opened.value
        # the new tab asks before taking anything (main: it took the seat and played it)
        other.wait_for_selector("#ask-seat", timeout=10_000)
        assert other.evaluate("() => window.__lanplay.conn") is None
        assert mine.evaluate(SEATED) and mine.evaluate("() => window.__lanplay.conn.seat") == seat
        assert hosting.do(lambda: len(host.session.log)) == moves  # type: ignore[union-attr]
        assert hosting.do(lambda: len(host.room.seats)) == 2

        # a person's tap moves the seat: the first tab says so and offers it back
        other.click("#play-here")
        other.wait_for_function(SEATED, timeout=10_000)
        assert other.evaluate("() => window.__lanplay.conn.seat") == seat
        mine.wait_for_selector("#lost-seat", timeout=10_000)
        mine.click("#take-back")
        mine.wait_for_function(SEATED, timeout=10_000)
        assert mine.evaluate("() => window.__lanplay.conn.seat") == seat
        other.wait_for_selector("#lost-seat", timeout=10_000)
        # nothing played the seat: no tab made a move for it (the person made none)
        later = hosting.do(lambda: host.session.log[moves:])  # type: ignore[union-attr]
        assert all(entry.seat != seat for entry in later), later
    finally:
        context.close()


# --- H1: a kept audit's names ---------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from replay_games import play

    return run(play("alles-klar", 3, None, tmp_path_factory.mktemp("h1-played"), seed=5))


@pytest.mark.timeout(60)
def test_a_kept_audit_with_huge_names_opens_in_replay_without_a_stall(
        qapp: Any, played: Any, tmp_path: Path) -> None:
    from kept_names import LONG, hostile_audit, open_in_window

    from lanplay.replay import files

    plain = tmp_path / "plain"
    files.keep_audit(played.audits[0], played.seats, 0, played.results[0], "verified",
                     root=plain, now=1_000_000)
    hostile = tmp_path / "hostile"
    path = hostile_audit(played, hostile, LONG)
    assert path.stat().st_size > 3 * LONG
    open_in_window(plain)  # the first window of the run pays for what loads once
    first = open_in_window(hostile)
    assert max(first.values()) < 1000, first  # main: the replay window 11.6 s
    # each step at its quickest of three (a busy machine only ever adds time)
    usual = quickest(open_in_window(plain) for _ in range(3))
    costs = quickest([first, *(open_in_window(hostile) for _ in range(2))])
    # no step costs more than it does with plain names, give or take 50 ms
    # (main: the replay window 11.6 s, its first paint 1.7 s, each step 4 s)
    extra = {step: costs[step] - usual[step] for step in costs}
    assert max(extra.values()) < 50, (costs, usual)
    # the names were held to the lobby's 24 characters before any widget saw them
    assert [len(n) for n in files.finished_games(hostile)[0].players] == [24, 24, 24]


def quickest(runs: Any) -> dict[str, float]:
    out: dict[str, float] = {}
    for costs in runs:
        for step, ms in costs.items():
            out[step] = min(ms, out.get(step, ms))
    return out


def test_fitting_any_text_costs_less_than_a_frame(qapp: Any) -> None:
    from ui.tables import textfit

    textfit.fit("Schildkröte", 80, 18, 2)  # the dictionary, loaded once
    for text in ("A" * 200_000, "Donaudampfschifffahrtsgesellschaft" * 60, "A " * 100_000,
                 "\u0301" * 100_000):
        for width, lines in ((120, 2), (400, 3), (900, 1)):
            began = time.perf_counter()
            fitted = textfit.fit(text, width, 18, lines)
            spent = time.perf_counter() - began
            assert spent < 0.016, (text[:20], width, lines, spent)  # main: 9.2 s for one
            assert not fitted.fits and len(fitted.lines) <= lines
            assert fitted.lines[-1].endswith("…")

