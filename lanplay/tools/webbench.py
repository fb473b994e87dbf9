"""The browser seat's aims, measured in Debian's Chromium (``python -m lanplay.tools.webbench``).

* first paint: a cold page (a fresh browser context) from the host, navigation to its
  first contentful paint, and to the join form drawn;
* code size as sent: every script, style sheet and the document the page loads;
* a delta applied and drawn: from a frame's arrival to the table rebuilt and laid out
  (the page's own ``timings``), p50 and p99, with the CPU throttled 4x through the
  DevTools protocol (``Emulation.setCPUThrottlingRate``) and without, in every game and
  mode (``GAMES``) at 360x640, its seat played by the game's own bot through the page
  (``keeper.intent``, so an S-tier note and a frog's jump are made as the page makes
  them); where the time goes: the p99 of the frame's decoding and apply, of the table's
  drawing (``draw``: build and morph) and of style and layout;
* 16 browser connections in one room (3 seats playing by themselves, as a test host's
  page does: ``HostConfig.page_autoplay``, 13 spectators) beside 2 lanplay bot peers:
  the host's CPU time per intent (``time.thread_time`` around its dispatch: apply,
  views, deltas, frames), side by side
  with the same room whose 13 spectators are lanplay peers over TCP.

Needs Playwright for Python (the test extra) and /usr/bin/chromium; reports, enforces
nothing. ``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from typing import Any

from lanplay.host import Host, HostConfig
from lanplay.peer.peer import Peer
from protocol.messages import Intent

CHROMIUM = "/usr/bin/chromium"
AIM_PAINT_MS = 1000.0
AIM_CODE_KB = 400.0
AIM_DRAW_MS = 16.0


PAINT = "() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"
SIZES = """() => {
  const out = { document: performance.getEntriesByType('navigation')[0].encodedBodySize };
  for (const r of performance.getEntriesByType('resource')) {
    const path = new URL(r.name).pathname;
    if (/[.](m?js|css)$/.test(path)) out[path] = r.encodedBodySize;
  }
  return out;
}"""
"""Every script and style sheet the page loaded, and the document, in bytes as sent."""


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


GAMES: tuple[tuple[str, str | None, int, dict[str, Any]], ...] = (
    ("alles-klar", None, 3, {}),
    ("ranking", None, 3, {"guess_seconds": 0}),
    ("s-tier", "cooperative", 3, {"coop_track": 3, "guess_seconds": 0}),
    ("s-tier", "competitive", 4, {"place_seconds": 0}),
    ("s-tier", "team", 4, {"team_track": 3}),
    ("ranking-top", None, 3, {"top_seconds": 0}),
    ("ranagedon", None, 2, {}),
)
"""Every game and mode, with options that end it within a minute or two."""

VIEW = """() => { const c = window.__lanplay.conn;
  return JSON.stringify({ seat: c.seat, state: c.stateId, over: Boolean(c.result),
                          view: window.__lanplay.keeper.shown() },
                        (k, v) => typeof v === "bigint" ? Number(v) : v); }"""


async def _host(game: str, players: int, bots: int, seed: int, mode: str | None = None,
                options: dict[str, Any] | None = None, autoplay: bool = False) -> Host:
    """A room whose page plays its seats by itself with ``autoplay`` (a test host's flag,
    never an address's)."""
    host = Host(game, mode, options, HostConfig(host_name="webbench", bind="127.0.0.1", port=0,
                                                web_port=0, seed=seed, save=False,
                                                autostart=players, standin_after=None,
                                                page_autoplay=autoplay))
    await host.start()
    for _ in range(bots):
        host.add_bot()
    return host


def _meter(host: Host) -> list[float]:
    """CPU time (ms) of the host's thread for each intent it handles."""
    spent: list[float] = []
    handle = host.dispatcher.handle

    def timed(conn: Any, msg: Any) -> None:
        if not isinstance(msg, Intent):
            handle(conn, msg)
            return
        began = time.thread_time()
        handle(conn, msg)
        spent.append((time.thread_time() - began) * 1000)

    host.dispatcher.handle = timed  # type: ignore[method-assign]
    return spent


async def first_paint(browser: Any, loads: int) -> dict[str, Any]:
    host = await _host("alles-klar", 2, 0, 1)
    url = f"http://127.0.0.1:{host.web_port}/"
    paints, ready, sizes = [], [], {}
    try:
        for _ in range(loads):
            context = await browser.new_context(viewport={"width": 360, "height": 640})
            page = await context.new_page()
            began = time.perf_counter()
            await page.goto(url)
            await page.wait_for_selector("#join")
            ready.append((time.perf_counter() - began) * 1000)
            # the paint's entry is written after the paint, a moment after the form is in
            # (read at once, it was missing now and then: a None in the median)
            await page.wait_for_function(f"() => ({PAINT[6:]}) !== undefined")
            paints.append(await page.evaluate(PAINT))
            sizes = await page.evaluate(SIZES)
            await context.close()
    finally:
        await host.stop()
    code = {k: v for k, v in sizes.items() if not k.startswith("/locale/")}
    return {"loads": loads, "first_paint_ms_median": statistics.median(paints),
            "first_paint_ms_max": max(paints), "join_form_ms_median": statistics.median(ready),
            "code_bytes": sum(code.values()), "files": len(code)}


async def _play_seat(page: Any, host: Host, seed: int) -> None:
    """The page's seat played to the end by the game's bot, through the page's keeper."""
    import random

    from lanplay import games

    rng = random.Random(seed)
    last = -2
    while not host.finished.is_set():
        try:
            await page.wait_for_function(
                "(last) => { const c = window.__lanplay.conn; const v = c.view; return Boolean("
                "c.result || (v && v.may && v.may.some((t) => !['count', 'reveal', 'void']"
                ".includes(t.type)) && c.stateId !== last)); }", arg=last, timeout=5_000)
        except Exception:  # a wait with nothing for this seat: look again
            continue
        now = json.loads(await page.evaluate(VIEW))
        if now["over"]:
            return
        action = games.load(now["view"]["game"]).bot(now["view"], now["seat"], rng)
        if action is not None:
            await page.evaluate("(a) => window.__lanplay.keeper.intent(a)", action)
        last = now["state"]


async def draw_times(browser: Any, game: str, players: int, throttle: float,
                     seed: int, mode: str | None = None,
                     options: dict[str, Any] | None = None) -> dict[str, Any]:
    host = await _host(game, players, players - 1, seed, mode, options)
    try:
        context = await browser.new_context(viewport={"width": 360, "height": 640})
        page = await context.new_page()
        if throttle > 1:
            cdp = await context.new_cdp_session(page)
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        await page.goto(f"http://127.0.0.1:{host.web_port}/")
        await page.fill("#name", "Bench")
        await page.click("#join")
        await page.click("#ready")
        player = asyncio.create_task(_play_seat(page, host, seed))
        await asyncio.wait_for(host.finished.wait(), 300)
        player.cancel()
        await asyncio.gather(player, return_exceptions=True)
        await page.wait_for_function("() => window.__lanplay.conn.result", timeout=60_000)
        timings = await page.evaluate("() => window.__lanplay.timings")
        splits = await page.evaluate("() => window.__lanplay.splits")
        # a snapshot builds the whole table: kept apart from the deltas (an older page
        # without `snapshots` counted it among them)
        await_snapshots = await page.evaluate("() => window.__lanplay.snapshots || []")
        splits = [x for x in splits if len(x) < 4 or not x[3]]
        await context.close()
    finally:
        await host.stop()
    parts = {name: pct([x[i] for x in splits], 0.99)
             for i, name in enumerate(("apply", "draw", "layout"))} if splits else {}
    snapshots = await_snapshots
    return {"game": game + (f"/{mode}" if mode else ""), "throttle": throttle,
            "snapshot_max_ms": max(snapshots) if snapshots else float("nan"),
            "views": len(timings), "p50_ms": pct(timings, 0.5), "p99_ms": pct(timings, 0.99),
            "max_ms": max(timings), "p99_parts_ms": parts}


async def crowd(browser: Any, spectators_in_browser: bool, seed: int) -> dict[str, Any]:
    """Alles klar? at 5 seats (3 browser pages playing by themselves, 2 lanplay bots) and
    13 spectators: in browsers, or lanplay peers over TCP."""
    host = await _host("alles-klar", 5, 2, seed, autoplay=True)
    spent = _meter(host)
    url = f"http://127.0.0.1:{host.web_port}/"
    context = await browser.new_context(viewport={"width": 360, "height": 640})
    peers: list[Peer] = []
    tasks: list[asyncio.Task[Any]] = []
    contexts = [context]
    try:
        pages = []
        for n in range(13):
            if spectators_in_browser:
                page = await context.new_page()
                await page.goto(f"{url}watch?name=TV{n}")
                pages.append(page)
            else:
                peer = Peer(f"Watcher {n}", spectate=True)
                await peer.connect("127.0.0.1", host.port)
                peers.append(peer)
                tasks.append(asyncio.create_task(peer.run()))
        seats = []
        for n in range(3):  # a browser each: one browser keeps one seat's token
            own = await browser.new_context(viewport={"width": 360, "height": 640})
            contexts.append(own)
            page = await own.new_page()
            await page.goto(url)
            await page.fill("#name", f"Seat {n}")
            await page.click("#join")
            await page.click("#ready")
            seats.append(page)
        await asyncio.wait_for(host.finished.wait(), 300)
        timings: list[float] = []
        for page in [*seats, *pages]:
            timings += await page.evaluate("() => window.__lanplay.timings")
    finally:
        for each in contexts:
            await each.close()
        await host.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"browser_connections": 16 if spectators_in_browser else 3,
            "tcp_connections": 2 + (0 if spectators_in_browser else 13),
            "intents": len(spent), "host_cpu_ms_p50": pct(spent, 0.5),
            "host_cpu_ms_p99": pct(spent, 0.99), "page_draw_ms_p99": pct(timings, 0.99)}


async def transport(over_websocket: bool, seed: int, watchers: int = 16) -> dict[str, Any]:
    """The transport alone: Alles klar? played by 5 lanplay bots, watched by 16 plain
    protocol clients over WebSockets (what a page sends and reads, without a browser
    competing for the CPU) or by 16 lanplay peers over TCP."""
    from websockets.asyncio.client import connect

    from protocol.codec import decode_body, pack
    from protocol.messages import PROTOCOL_VERSION, Hello, Ping, Pong, to_wire

    host = await _host("alles-klar", 5, 5, seed)
    spent = _meter(host)
    tasks: list[asyncio.Task[Any]] = []

    async def watch_ws(n: int) -> None:
        origin = f"http://127.0.0.1:{host.web_port}"
        async with connect(f"ws://127.0.0.1:{host.web_port}/ws", origin=origin,  # type: ignore[arg-type]
                           compression=None) as ws:
            await ws.send(pack(to_wire(Hello(PROTOCOL_VERSION, f"Watcher {n}", spectate=True))))
            async for data in ws:
                msg = decode_body(data if isinstance(data, bytes) else data.encode())
                if isinstance(msg, Ping):
                    await ws.send(pack(to_wire(Pong(msg.nonce))))

    try:
        for n in range(watchers):
            if over_websocket:
                tasks.append(asyncio.create_task(watch_ws(n)))
            else:
                peer = Peer(f"Watcher {n}", spectate=True)
                await peer.connect("127.0.0.1", host.port)
                tasks.append(asyncio.create_task(peer.run()))
        await asyncio.wait_for(host.finished.wait(), 300)
    finally:
        await host.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"watchers": watchers, "over": "websocket" if over_websocket else "tcp",
            "intents": len(spent), "host_cpu_ms_p50": pct(spent, 0.5),
            "host_cpu_ms_p99": pct(spent, 0.99)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            report: dict[str, Any] = {"machine": {"cpus": os.cpu_count(),
                                                  "load": os.getloadavg()}}
            if not args.draw_only:  # as its help says: the drawing figures alone
                report["paint"] = await first_paint(browser, args.loads)
            chosen = [g for g in GAMES if not args.games
                      or (g[0] + (f"/{g[1]}" if g[1] else "")) in args.games or g[0] in args.games]
            report["draw"] = [await draw_times(browser, g, n, t, args.seed, m, o)
                              for g, m, n, o in chosen for t in args.throttle]
            if args.draw_only:
                return report
            report["transport"] = [await transport(True, args.seed),
                                   await transport(False, args.seed)]
            report["transport_ratio_p99"] = (report["transport"][0]["host_cpu_ms_p99"]
                                             / report["transport"][1]["host_cpu_ms_p99"])
            if not args.no_crowd:
                report["crowd"] = [await crowd(browser, True, args.seed),
                                   await crowd(browser, False, args.seed)]
                tcp, web = report["crowd"][1], report["crowd"][0]
                report["crowd_ratio_p99"] = web["host_cpu_ms_p99"] / tcp["host_cpu_ms_p99"]
        finally:
            await browser.close()
    paint = report["paint"]
    throttled = [d["p99_ms"] for d in report["draw"] if d["throttle"] == 4.0] or [float("nan")]
    report["aims"] = [
        {"aim": "first paint under 1 s", "value": paint["first_paint_ms_median"],
         "limit": AIM_PAINT_MS},
        {"aim": "code and styles under 400 KB as sent", "value": paint["code_bytes"] / 1000,
         "limit": AIM_CODE_KB},
        {"aim": "a delta applied and drawn under 16 ms at p99, CPU 4x slower",
         "value": max(throttled), "limit": AIM_DRAW_MS},
        {"aim": "host work per action under 1 ms at p99 with 16 WebSocket watchers",
         "value": report["transport"][0]["host_cpu_ms_p99"], "limit": 1.0},
    ]
    for aim in report["aims"]:
        aim["met"] = aim["value"] <= aim["limit"]
    return report


def _draw_line(d: dict[str, Any]) -> str:
    parts = d.get("p99_parts_ms") or {}
    where = ", ".join(f"{k} {v:.1f}" for k, v in parts.items())
    return (f"{d['game']}, CPU {d['throttle']:g}x slower: {d['views']} views, applied and "
            f"drawn p50 {d['p50_ms']:.2f} ms, p99 {d['p99_ms']:.2f} ms, max {d['max_ms']:.2f}"
            + (f" (p99 of each part: {where})" if where else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lanplay.tools.webbench",
                                     description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--no-crowd", action="store_true", help="skip the 16 browsers")
    parser.add_argument("--games", nargs="*", default=[],
                        help="only these games (alles-klar, s-tier/team, ...): default every one")
    parser.add_argument("--throttle", nargs="*", type=float, default=[1.0, 4.0],
                        help="CPU slow-downs to draw at (default 1 and 4)")
    parser.add_argument("--draw-only", action="store_true",
                        help="only the drawing figures (no first paint, transport or crowd)")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args))
    if args.draw_only:
        if args.json:
            print(json.dumps(report, indent=1))
            return 0
        for d in report["draw"]:
            print(_draw_line(d))
        return 0
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    paint = report["paint"]
    print(f"first paint: median {paint['first_paint_ms_median']:.0f} ms (max "
          f"{paint['first_paint_ms_max']:.0f}), join form drawn {paint['join_form_ms_median']:.0f}"
          f" ms; code as sent {paint['code_bytes'] / 1000:.1f} KB in {paint['files']} files")
    for d in report["draw"]:
        print(_draw_line(d))
    for c in report.get("crowd", []):
        print(f"{c['browser_connections']} browser + {c['tcp_connections']} TCP connections: "
              f"{c['intents']} intents, host CPU per intent p50 {c['host_cpu_ms_p50']:.3f} ms, "
              f"p99 {c['host_cpu_ms_p99']:.3f} ms; pages' draw p99 {c['page_draw_ms_p99']:.2f} ms")
    for t in report["transport"]:
        print(f"5 bots, {t['watchers']} watchers over {t['over']}: {t['intents']} intents, host "
              f"CPU per intent p50 {t['host_cpu_ms_p50']:.3f} ms, "
              f"p99 {t['host_cpu_ms_p99']:.3f} ms")
    print(f"host CPU p99, WebSocket watchers / TCP watchers: {report['transport_ratio_p99']:.2f}")
    if "crowd_ratio_p99" in report:
        print(f"host CPU p99, browser spectators / TCP spectators: "
              f"{report['crowd_ratio_p99']:.2f}")
    for aim in report["aims"]:
        print(f"{'met' if aim['met'] else 'NOT met'}: {aim['aim']} ({aim['value']:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
