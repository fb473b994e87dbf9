"""The browser tests' shared pieces: a host running in its own thread (so one browser
per module serves every test), Debian's Chromium through Playwright, and a player
that plays a seat from the page by clicking what a person would click, choosing
each move with the game's own bot from the view the page holds.

Nothing downloads a browser: Chromium is /usr/bin/chromium (Debian's package,
installed by .ci/run); tests skip with a reason where it is missing."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import shutil
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from lanplay import games
from lanplay.host import Host, HostConfig
from lanplay.messages import render  # noqa: F401  (kept for callers' checks)

CHROMIUM = "/usr/bin/chromium"
LOCAL = "127.0.0.1"


def need_chromium() -> None:
    if shutil.which(CHROMIUM) is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run installs Debian's chromium for this test")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api")


class HostThread:
    """A host on 127.0.0.1 with its page, on an event loop of its own thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.host: Host | None = None

    def call(self, coro: Any, timeout: float = 30) -> Any:
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result(timeout)

    def do(self, fn: Any, *args: Any) -> Any:
        async def run() -> Any:
            return fn(*args)
        return self.call(run())

    def start(self, game: str, mode: str | None = None, options: dict[str, Any] | None = None,
              bots: int = 0, **config: Any) -> Host:
        config.setdefault("seed", 7)
        config.setdefault("save", False)
        config.setdefault("standin_after", None)

        async def start() -> Host:
            host = Host(game, mode, options, HostConfig(host_name="browser test", bind=LOCAL,
                                                        port=0, web_port=0, **config))
            await host.start()
            for _ in range(bots):
                host.add_bot()
            return host
        self.host = self.call(start())
        return self.host

    @property
    def url(self) -> str:
        assert self.host is not None
        return f"http://{LOCAL}:{self.host.web_port}/"

    def stop(self) -> None:
        if self.host is not None:
            self.call(self.host.stop("test over"))
            self.host = None

    def close(self) -> None:
        self.stop()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


STATE = """() => {
  const p = window.__lanplay;
  if (!p || !p.conn) return null;
  const c = p.conn;
  const view = p.keeper ? p.keeper.shown() : c.view;
  return JSON.stringify({ seat: c.seat, state: c.stateId, status: c.status,
    view, over: Boolean(c.result), lobby: c.lobby ? c.lobby.phase : null },
    (k, v) => typeof v === "bigint" ? Number(v) : v);
}"""


def state(page: Any) -> dict[str, Any] | None:
    raw = page.evaluate(STATE)
    return json.loads(raw) if raw else None


def join(page: Any, url: str, name: str, *, spectate: bool = False, password: str = "",
         extra: str = "") -> None:
    page.goto(url + ("?record=1" + extra))
    page.fill("#name", name)
    if password:
        page.fill("#password", password)
    page.click("#watch" if spectate else "#join")
    if not spectate:
        page.wait_for_selector("#ready", timeout=10_000)


def frames(page: Any) -> list[bytes]:
    """Every WebSocket message the page received, as the host sent it."""
    raw = page.evaluate("""() => window.__lanplay.conn.frames.map((f) => {
        let s = ""; for (const b of f) s += String.fromCharCode(b); return btoa(s); })""")
    return [base64.b64decode(x) for x in raw]


WAIT_TURN = """(last) => {
  const p = window.__lanplay;
  if (!p || !p.conn) return false;
  const c = p.conn;
  if (c.result && c.fair.audit) return true;
  const v = c.view;
  return Boolean(v && Array.isArray(v.may) && v.may.length && c.stateId !== last
                 && p.shownState === c.stateId && !document.querySelector('.banner:not(#end)'));
}"""

ANSWERED_BY_THE_PAGE = ("count", "reveal", "void")

HERE = Path(__file__).resolve().parent
NOW_LINE = (HERE / "browser_now.js").read_text(encoding="utf-8")
"""Issue 32: at every view the "what now" line is on screen; it is the player's (lit)
exactly when the view offers them something to do."""
IN_VIEW = (HERE / "browser_in_view.js").read_text(encoding="utf-8")
"""Issue 32: a control a move needs lies whole inside the viewport, uncovered, without
scrolling (at 360x640 too): None, or what is wrong."""


DECIDED_AT: dict[int, Any] = {}
"""The state each page's move was chosen in (``play``): a control found wanting after the
table moved on (another seat's move, the round's end) is chosen again, not a fault."""

SHOWN = "() => window.__lanplay ? window.__lanplay.shownState : null"


def tap(page: Any, selector: str, strict: bool = False) -> None:
    """Click ``selector`` as a thumb would; with ``strict``, only where it already is on
    screen (a control that needs scrolling first fails the test)."""
    if strict:
        from bidi import Missing

        page.wait_for_selector(selector, timeout=3000)
        where = page.evaluate(IN_VIEW, selector)
        if where == "missing":  # gone since (the table moved on): the move is chosen again
            raise Missing(selector)
        if where is not None and page.evaluate(SHOWN) != DECIDED_AT.get(id(page)):
            raise Missing(f"{selector} ({where}) after the table moved on")
        if where is not None and os.environ.get("LANPLAY_DEBUG_SHOTS"):
            page.screenshot(path=f"{os.environ['LANPLAY_DEBUG_SHOTS']}/not-in-view.png")
        assert where is None, f"{selector}: {where}"
    page.click(selector)


def play(page: Any, seed: int = 1, moves: int = 600,
         stop_after: int | None = None, strict: bool = False) -> dict[str, Any]:
    """Play the page's seat to the end, clicking each move the game's bot picks.

    The table may change between reading the view and the click (another seat's
    move, a window closing): a click that finds nothing to click is given up after
    a moment and the move chosen again from the new view; a view that stays the
    same through several such misses fails the test. With ``strict`` (issue 32), every
    view's "what now" line is checked and every control clicked must already be on
    screen."""
    from bidi import Missing
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    rng = random.Random(seed)
    last = -2
    missed: dict[int, int] = {}
    made = 0
    for _ in range(moves):
        try:
            page.wait_for_function(WAIT_TURN, arg=last, timeout=30_000)
        except (PlaywrightTimeout, Missing):
            stuck = state(page) or {}
            view = stuck.get("view") or {}
            raise AssertionError(
                f"the page waited 30 s for its turn: state {stuck.get('state')}, status "
                f"{stuck.get('status')}, phase {view.get('phase')}, actors "
                f"{view.get('actors')}, may {view.get('may')}, over {stuck.get('over')}, "
                f"last {last}") from None
        now = state(page)
        assert now is not None
        if strict and not now["over"]:
            problem = page.evaluate(NOW_LINE)
            if problem is not None and os.environ.get("LANPLAY_DEBUG_SHOTS"):
                page.screenshot(path=f"{os.environ['LANPLAY_DEBUG_SHOTS']}/now-line.png")
                print("NOW", page.evaluate("() => [window.__lanplay.shownState, "
                                           "window.__lanplay.conn.stateId]"))
            assert problem is None, f"state {now['state']}: {problem}"
        if now["over"]:
            page.wait_for_selector("#fair", timeout=10_000)
            return now
        view, seat = now["view"], now["seat"]
        if all(t["type"] in ANSWERED_BY_THE_PAGE for t in view["may"]):
            last = now["state"]  # the page's keeper answers by itself
            continue
        action = games.load(view["game"]).bot(view, seat, rng)
        assert action is not None, view["may"]
        DECIDED_AT[id(page)] = now["state"]
        try:
            click(page, view, seat, action, strict)
        except (PlaywrightTimeout, Missing):
            missed[now["state"]] = missed.get(now["state"], 0) + 1
            if os.environ.get("LANPLAY_DEBUG_SHOTS"):
                page.screenshot(path=f"{os.environ['LANPLAY_DEBUG_SHOTS']}/miss-{now['state']}.png")
                print("MISS", action, json.dumps(view)[:3000])
            assert missed[now["state"]] < 4, f"nothing to click for {action} at {now['state']}"
            continue
        last = now["state"]
        made += 1
        if stop_after is not None and made >= stop_after:
            page.wait_for_function("(at) => window.__lanplay.conn.stateId !== at",
                                   arg=last, timeout=10_000)
            return now
    raise AssertionError("the game did not end")


def _css(value: Any) -> str:
    return json.dumps(str(value))


def click(page: Any, view: dict[str, Any], seat: int, action: dict[str, Any],
          strict: bool = False) -> None:
    """The clicks a person makes for ``action`` on the page."""
    page.set_default_timeout(3000)
    game, kind = view["game"], action["type"]
    if game == "alles-klar":
        tap(page, f"#hand [data-card={_css(action['card'])}]", strict)
        choice = page.locator("#actions [data-numeral]")
        if choice.count():
            tap(page, f"#actions [data-numeral={_css(action.get('numeral', 'none'))}]", strict)
    elif game == "ranking":
        row = {t["slot"]: t["picture"] for t in view["row"]}
        if kind == "place":
            tap(page, f"#hand [data-picture={_css(action['tile'])}]", strict)
        elif kind == "compare":
            tap(page, f"#tower [data-picture={_css(row[action['up']])}]", strict)
            tap(page, f"#tower [data-picture={_css(row[action['down']])}]", strict)
        elif kind == "guess":
            tap(page, f"#tower [data-picture={_css(row[action['slot']])}]", strict)
        else:
            tap(page, f"button.may[data-type={_css(kind)}]", strict)
    elif game == "s-tier":
        _s_tier(page, view, seat, action, strict)
    elif game == "ranking-top":
        if kind in ("play", "keep"):
            tap(page, f"#hand [data-card={_css(action['card'])}]", strict)
            if kind == "play" and page.locator("#actions [data-to]").count():
                tap(page, f"#actions [data-to={_css(action['to'])}]", strict)
        elif kind == "top":
            tap(page, f"#actions [data-type=top][data-card={_css(action['card'])}]", strict)
        else:
            tap(page, f"#actions [data-type={_css(kind)}]", strict)
    elif game == "ranagedon":
        if kind == "deploy":
            tap(page, f"#actions [data-cluster={_css(action.get('cluster', 0))}]", strict)
        elif kind in ("jump", "dive"):
            frog = f"#pond [data-frog={_css(action['frog'])}]"
            if strict:
                page.wait_for_selector(frog, timeout=3000)
                where = page.evaluate(IN_VIEW, frog)
                assert where is None, f"{frog}: {where}"
            page.locator(frog).click(force=True)
            page.wait_for_selector("#jump")
            page.locator("#angle").fill(str(action["theta"]))
            page.locator("#strength").fill(str(action["s"]))
            tap(page, "#jump", strict)
        else:
            tap(page, f"button.may[data-type={_css(kind)}]", strict)
    else:
        raise AssertionError(game)


def _s_tier(page: Any, view: dict[str, Any], seat: int, action: dict[str, Any],
            strict: bool = False) -> None:
    kind = action["type"]
    if kind == "note":
        tiers = action["tiers"]
        if view["mode"] == "competitive":
            for picture, tier in zip([p["id"] for p in view["pictures"]], tiers, strict=True):
                row = f"#note .row[data-picture={_css(picture)}]"
                tap(page, f"{row} [data-tier={_css(tier)}]", strict)
        else:
            for tier, picture in enumerate(tiers):
                if picture is None:
                    continue
                tap(page, f"#note-pool [data-picture={_css(picture)}]", strict)
                tap(page, f"#note-tiers [data-tier={_css(tier)}]", strict)
            if "hint" in action:
                tap(page, f"#note-tiers [data-hint={_css(action['hint'])}]", strict)
        tap(page, "#write-note", strict)
    elif kind in ("move", "take"):
        tap(page, f"[data-picture={_css(action['picture'])}].legal", strict)
        if action["tier"] is None:
            tap(page, "#back-to-pool", strict)
        else:
            tap(page, f".tier.drop[data-tier={_css(action['tier'])}]", strict)
    elif kind == "place":
        tap(page, f"#actions [data-tier={_css(action['tier'])}]", strict)
    elif kind in ("lock", "unlock"):
        tap(page, f"#actions [data-type={_css(kind)}]", strict)
    else:
        tap(page, f"button.may[data-type={_css(kind)}]", strict)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture()
def hosting() -> Iterator[HostThread]:
    thread = HostThread()
    try:
        yield thread
    finally:
        thread.close()
