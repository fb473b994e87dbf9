"""The game outlives its host's laptop (issue 34): the host is killed mid-game and its
deputy takes the room over.

A headless ``lanplay host`` with one of its own bots, a deputy bot (``lanplay join
--bot --deputy``, its frames recorded), another bot (``lanplay join --bot``) and a
page in Chromium, all on 127.0.0.1 in processes of their own. Mid-game the host gets
SIGKILL. After ``--takeover-after 2`` seconds of silence (and a peer that lost the
host too at its door) the deputy referees the room one term up; the page moves to
the deputy's page with its seat's token, the bots come back to their seats, the
host's bot plays on at the deputy; the game plays to its end. Every peer's audit says
verified (the page's own check too, and ``lanplay verify`` on the deputy's recorded
frames, across the hand-over), and no move any peer saw is missing from the final
journal. Then the old host comes back (``--resume``): it learns the room moved and
joins it as a peer, watching.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browserhelpers import HostThread, browser, hosting, join, play, state  # noqa: F401

from lanplay.host import HostConfig
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer
from lanplay.peer.successor import Successor

ROOT = Path(__file__).resolve().parents[1]
LOCAL = "127.0.0.1"
TAKEOVER = 2.0


class Proc:
    """A lanplay command in a process of its own, its lines read as they come."""

    def __init__(self, args: list[str], data: Path) -> None:
        env = {**os.environ, "LANPLAY_DATA_DIR": str(data), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "lanplay", *args], cwd=ROOT,
                                     env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._seen:
                self.lines.append(line.rstrip("\n"))
                self._seen.notify_all()
        with self._seen:
            self._seen.notify_all()

    def line(self, match: Callable[[str], Any], timeout: float) -> Any:
        """The first line ``match`` finds something in (its result), within ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._seen:
            while True:
                for line in self.lines:
                    found = match(line)
                    if found:
                        return found
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._more()):
                    raise AssertionError(f"no such line within {timeout} s:\n" +
                                         "\n".join(self.lines[-30:]))
                self._seen.wait(min(left, 0.5))

    def _more(self) -> bool:
        return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


def page_state(page: Any) -> dict[str, Any] | None:
    """The page's state (with the room's term it knows), or None while it is between two
    documents (moving)."""
    try:
        now = state(page)
        if now is not None:
            now["term"] = page.evaluate(TERM)
        return now
    except Exception:  # the document it evaluates in is being replaced
        return None


def wait_page(page: Any, check: Callable[[dict[str, Any]], bool], timeout: float,
              extra: str = "") -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = page_state(page)
        if now is not None and check(now):
            return now
        page.wait_for_timeout(100)
    raise AssertionError(f"the page did not get there: {page_state(page)} {extra}")


TERM = "() => window.__lanplay && window.__lanplay.conn ? window.__lanplay.conn.term : -1"


@pytest.mark.timeout(120)
def test_the_host_killed_mid_game_its_deputy_takes_over_and_the_game_plays_to_its_end(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    host = Proc(["host", "alles-klar", "--headless", "--bots", "1", "--players", "4",
                 "--port", "0", "--web-port", "0", "--bind", LOCAL, "--no-announce",
                 "--bot-delay", "0.2", "--seed", "11", "--takeover-after", str(TAKEOVER),
                 "--allow-deputy",
                 "--standin-after", "30", "--log-moves"], tmp_path / "host")
    procs = [host]
    page = browser.new_page(viewport={"width": 360, "height": 640})
    try:
        port = int(host.line(lambda s: re.search(r"on port (\d+)", s) and
                             re.search(r"on port (\d+)", s).group(1), 20))  # type: ignore[union-attr]
        web = host.line(lambda s: re.search(r"In a browser .*?: http://[^:]+:(\d+)/", s), 20)
        web_port = int(web.group(1))
        deputy = Proc(["join", f"{LOCAL}:{port}", "--bot", "--deputy", "--name", "Dep",
                       "--delay", "0.2", "--seed", "1", "--bind", LOCAL, "--port", "0",
                       "--web-port", "0", "--no-announce", "--record",
                       str(tmp_path / "rec"), "--json"], tmp_path / "deputy")
        other = Proc(["join", f"{LOCAL}:{port}", "--bot", "--name", "Ann", "--delay", "0.2",
                      "--seed", "2", "--json"], tmp_path / "other")
        procs += [deputy, other]
        deputy.line(lambda s: "Standing by as the room's deputy" in s, 20)
        join(page, f"http://{LOCAL}:{web_port}/", "Pia")
        page.click("#ready")
        play(page, seed=4, stop_after=2)  # a few rounds into the game
        page.wait_for_function("() => window.__lanplay.conn.deputy !== null", timeout=10_000)
        seat = page_state(page)["seat"]  # type: ignore[index]

        seen = page_state(page)["state"]  # type: ignore[index]
        killed = time.monotonic()
        os.kill(host.proc.pid, signal.SIGKILL)
        host.proc.wait(10)

        hosting = deputy.line(lambda s: re.search(r"referees the room now \(term 2, port "
                                                  r"(\d+)\)", s), 20)
        took = time.monotonic() - killed
        back = wait_page(page, lambda s: s["status"] == "welcomed" and s["term"] == 2
                         and s["state"] >= seen, 20, "(back at the deputy's page)")
        assert back["seat"] == seat
        assert f":{web_port}/" not in page.url  # it moved to the deputy's own page
        other.line(lambda s: s.startswith("Back in seat"), 20)
        print(f"take-over {took:.2f} s after the kill, deputy port {hosting.group(1)}")

        # The old host comes back: it learns the room moved on and watches it there.
        again = Proc(["host", "--resume", "--headless", "--bind", LOCAL, "--no-announce",
                      "--web-port", "0"], tmp_path / "host")
        procs.append(again)
        again.line(lambda s: "The room moved on: Dep referees it at" in s, 20)

        end = play(page, seed=5)
        assert end["over"]
        fair = page.inner_text("#fair")
        assert "Checked here" in fair and "problem" not in fair, fair
        # no move this page made or saw is missing from the audit's (the final journal's) log
        log_length = page.evaluate("() => window.__lanplay.conn.fair.audit.log.length")
        assert log_length >= seen
        mine = page.evaluate("() => window.__lanplay.conn.accepted.length")
        assert mine > 0

        for proc in (deputy, other):
            summary = proc.line(lambda s: s.startswith("{") and json.loads(s), 40)
            assert summary["audit"] == "verified", summary
        again.line(lambda s: s == "Game over.", 30)
        assert again.proc.wait(20) == 0
        assert deputy.proc.wait(20) == 0 and other.proc.wait(20) == 0
        recorded = next((tmp_path / "rec").glob("peer-*.frames"))
        verified = subprocess.run([sys.executable, "-m", "lanplay", "verify", str(recorded)],
                                  cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert verified.returncode == 0 and "verified" in verified.stdout, verified.stdout
    finally:
        page.close()
        for proc in procs:
            proc.stop()


@pytest.mark.timeout(60)
def test_a_page_follows_a_room_handed_over_to_its_new_laptops_page(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    """The graceful way: the host hands its room to another laptop (a peer that says
    yes); the page is told where (``moved``), goes to that laptop's page with its seat's
    token and plays there to the end, its own check of the audit clean."""
    host = hosting.start("alles-klar", bots=1, autostart=3, bot_delay=0.1)
    jonas = Peer("Jonas", bot=True, contribution_seed=3)
    successor = Successor(jonas, HostConfig(host_name="Jonas", bind=LOCAL, port=0,
                                            web_port=0, save=False, bot_delay=0.1))

    async def sit() -> asyncio.Task[Any]:
        await jonas.connect(LOCAL, host.port)
        return asyncio.create_task(drive(jonas, 3, 0.1))
    task = hosting.call(sit())
    page = browser.new_page(viewport={"width": 360, "height": 640})
    try:
        join(page, hosting.url, "Pia")
        page.click("#ready")
        play(page, seed=2, stop_after=2)
        old_url = page.url
        seat = page_state(page)["seat"]  # type: ignore[index]

        def hand() -> None:
            conn = next(c for c in host.handover.candidates() if c.name == "Jonas")
            host.handover.offer(conn, "host")
        hosting.do(hand)
        back = wait_page(page, lambda s: s["status"] == "welcomed" and s["term"] == 2
                         and s["view"] is not None, 20, "(at Jonas's page)")
        assert page.url != old_url
        new_host = successor.host
        assert new_host is not None and f":{new_host.web_port}/" in page.url
        assert back["seat"] == seat
        end = play(page, seed=6)
        assert end["over"]
        fair = page.inner_text("#fair")
        assert "Checked here" in fair and "problem" not in fair, fair
    finally:
        page.close()

        async def done() -> None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await successor.close()
            if successor.host is not None:
                await successor.host.stop("test over")
        hosting.call(done())
