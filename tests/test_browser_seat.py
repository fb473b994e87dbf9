"""The browser seat's life beyond one game: a password room, a WebSocket cut in the
middle of a game (the page comes back to its seat by itself, with the token it kept),
a television on /watch, and ``lanplay host`` printing the page's address for a browser
that then plays the game to its end."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browserhelpers import HostThread, browser, hosting, join, play, state  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(60)
def test_a_password_room_lets_in_the_page_that_knows_it(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("alles-klar", bots=1, autostart=2, password="swordfish")
    page = browser.new_page(viewport={"width": 360, "height": 640})
    try:
        page.goto(hosting.url)
        page.fill("#name", "Ann")
        page.fill("#password", "wrong one")
        page.click("#join")
        page.wait_for_selector("#join")  # back at the form, saying why
        page.wait_for_function("() => document.body.innerText.includes('Wrong password')",
                               timeout=10_000)
        page.fill("#password", "swordfish")
        page.click("#join")
        page.wait_for_selector("#ready", timeout=15_000)
        page.click("#ready")
        end = play(page, seed=2)
        assert end["seat"] == 1 and end["over"]
    finally:
        page.close()


@pytest.mark.timeout(60)
def test_a_cut_websocket_comes_back_to_its_seat_by_itself(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    host = hosting.start("alles-klar", bots=1, autostart=2)
    page = browser.new_page(viewport={"width": 360, "height": 640})
    try:
        join(page, hosting.url, "Ann")
        page.click("#ready")
        page.wait_for_function("() => window.__lanplay.conn.view", timeout=10_000)
        token = page.evaluate("() => window.__lanplay.conn.token")
        seat = page.evaluate("() => window.__lanplay.conn.seat")
        # the network drops: the host sees the seat away, the page says so and retries
        page.evaluate("() => window.__lanplay.conn.drop()")
        page.wait_for_function("() => window.__lanplay.conn.status === 'welcomed'"
                               " && window.__lanplay.conn.view", timeout=15_000)
        assert page.evaluate("() => window.__lanplay.conn.token") == token
        assert page.evaluate("() => window.__lanplay.conn.seat") == seat
        assert hosting.do(lambda: host.room.seats[seat].connected)
        # a reload (a phone's browser dropping the tab) finds the token it kept
        page.reload()
        page.wait_for_function("() => window.__lanplay.conn && window.__lanplay.conn.view"
                               " && window.__lanplay.conn.status === 'welcomed'",
                               timeout=15_000)
        assert page.evaluate("() => window.__lanplay.conn.seat") == seat
        end = play(page, seed=4)
        assert end["over"] and len(hosting.do(lambda: host.room.seats)) == 2
    finally:
        page.close()


@pytest.mark.timeout(60)
def test_the_watch_screen_shows_the_qr_code_then_the_public_table(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("alles-klar", bots=1, autostart=2)
    tv = browser.new_page(viewport={"width": 1280, "height": 720})
    player = browser.new_page(viewport={"width": 360, "height": 640})
    try:
        tv.goto(hosting.url + "watch")
        tv.wait_for_selector("#qr", timeout=10_000)
        assert tv.evaluate("() => document.getElementById('qr').naturalWidth") > 0
        assert tv.inner_text("#address") == hosting.url
        join(player, hosting.url, "Ann")
        player.click("#ready")
        tv.wait_for_selector("#trick", state="attached", timeout=10_000)
        watching = state(tv)
        assert watching is not None and watching["seat"] is None
        assert watching["view"]["hand"] == [] and not tv.locator("#hand").count()
        play(player, seed=5)
        tv.wait_for_selector("#end", timeout=10_000)
        assert "Checked here" in tv.inner_text("#fair")
    finally:
        tv.close()
        player.close()


@pytest.mark.timeout(90)
def test_lanplay_host_prints_the_page_and_a_browser_there_plays_to_the_end(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """The issue's done-when, with free ports: the command prints the page's address."""
    env = {**os.environ, "LANPLAY_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "lanplay", "host", "alles-klar", "--headless", "--bots", "1",
         "--players", "2", "--port", "0", "--web-port", "0", "--bind", "127.0.0.1",
         "--no-announce", "--bot-delay", "0", "--seed", "3"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    page = browser.new_page(viewport={"width": 360, "height": 640})
    try:
        assert proc.stdout is not None
        url = None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            found = re.search(r"In a browser \(a phone, a laptop without lanplay\): (\S+)", line)
            if found:
                url = found.group(1).rstrip(",")
                break
        assert url, "".join(lines)
        # the address it listens on, the only one where anything answers (it printed
        # the laptop's LAN address, where nothing listened)
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), url
        assert any(line.startswith("Others can join at: 127.0.0.1:") for line in lines), lines
        join(page, url, "Ann")
        page.click("#ready")
        end = play(page, seed=6)
        assert end["over"]
        assert proc.wait(30) == 0
        assert "Game over" in proc.stdout.read()
    finally:
        page.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
