"""Debian's Firefox driven over its own WebDriver BiDi (no geckodriver, nothing fetched):
``firefox-esr --headless --remote-debugging-port 0`` prints the WebSocket it listens on;
a small synchronous client sends ``session.new``, ``browsingContext.navigate`` and
``script.evaluate``. ``FirefoxPage`` gives the few page methods the browser tests'
player uses (``browserhelpers.play``), so one player drives Chromium and Firefox."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

FIREFOX = "/usr/bin/firefox-esr"
PREFS = {
    # nothing outside: no update, telemetry, studies, remote settings or safe browsing
    "app.update.disabledForTesting": True, "app.normandy.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False, "toolkit.telemetry.enabled": False,
    "services.settings.server": "http://127.0.0.1:9/",
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False, "browser.shell.checkDefaultBrowser": False,
    "extensions.update.enabled": False, "browser.region.network.url": "",
}


class BidiError(Exception):
    pass


class Bidi:
    def __init__(self, url: str) -> None:
        self.ws = connect(url, max_size=None, open_timeout=10).__enter__()
        self.next = 0

    def call(self, method: str, params: dict[str, Any], timeout: float = 30) -> Any:
        self.next += 1
        ident = self.next
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            got = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if got.get("id") != ident:
                continue  # an event
            if got.get("type") == "error":
                raise BidiError(f"{method}: {got.get('error')}: {got.get('message')}")
            return got["result"]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.call("session.end", {}, 5)
        self.ws.close()


class Missing(Exception):
    """What a Playwright timeout is to the player: nothing there to click."""


class Locator:
    def __init__(self, page: FirefoxPage, selector: str) -> None:
        self.page, self.selector = page, selector

    def count(self) -> int:
        return int(self.page.evaluate("(s) => document.querySelectorAll(s).length",
                                      self.selector))

    def click(self, force: bool = False) -> None:
        self.page.click(self.selector)

    def fill(self, value: str) -> None:
        self.page.fill(self.selector, value)


class FirefoxPage:
    """One tab of a headless Firefox, with Playwright's names for what the player needs."""

    def __init__(self, bidi: Bidi, context: str) -> None:
        self.bidi, self.context = bidi, context
        self.timeout = 3.0

    def set_default_timeout(self, ms: float) -> None:
        self.timeout = ms / 1000

    def set_viewport_size(self, size: dict[str, int]) -> None:
        self.bidi.call("browsingContext.setViewport", {"context": self.context, "viewport": size})

    def goto(self, url: str) -> None:
        self.bidi.call("browsingContext.navigate",
                       {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, function: str, arg: Any = None) -> Any:
        expression = f"({function})({json.dumps(arg)})"
        got = self.bidi.call("script.evaluate", {
            "expression": f"JSON.stringify(({expression}) ?? null)",
            "target": {"context": self.context}, "awaitPromise": True})
        if got.get("type") == "exception":
            raise BidiError(str(got.get("exceptionDetails", {}).get("text")))
        return json.loads(got["result"]["value"])

    def wait_for_function(self, function: str, arg: Any = None, timeout: float = 30_000) -> None:
        deadline = time.monotonic() + timeout / 1000
        while not self.evaluate(function, arg):
            if time.monotonic() > deadline:
                raise Missing(f"waited {timeout / 1000} s for {function[:60]}")
            time.sleep(0.03)

    def wait_for_selector(self, selector: str, timeout: float = 10_000, state: str = "") -> None:
        self.wait_for_function("(s) => document.querySelector(s) !== null", selector, timeout)

    def click(self, selector: str) -> None:
        self.wait_for_selector(selector, self.timeout * 1000)
        if not self.evaluate("(s) => { const e = document.querySelector(s);"
                             " if (!e || e.disabled) return false; e.click(); return true; }",
                             selector):
            raise Missing(selector)

    def fill(self, selector: str, value: str) -> None:
        self.wait_for_selector(selector, self.timeout * 1000)
        self.evaluate("([s, v]) => { const e = document.querySelector(s); e.value = v;"
                      " e.dispatchEvent(new Event('input', { bubbles: true })); }",
                      [selector, value])

    def locator(self, selector: str) -> Locator:
        return Locator(self, selector)

    def inner_text(self, selector: str) -> str:
        self.wait_for_selector(selector)
        return str(self.evaluate("(s) => document.querySelector(s).innerText", selector))


@contextlib.contextmanager
def firefox() -> Iterator[FirefoxPage]:
    """A headless Firefox on a free port with a fresh profile, closed after."""
    if shutil.which(FIREFOX) is None:
        import os

        import pytest

        if os.environ.get("CI"):
            pytest.fail("firefox-esr is missing: .ci/run installs Debian's firefox-esr")
        pytest.skip("Debian's firefox-esr is not installed (apt-get install firefox-esr)")
    with tempfile.TemporaryDirectory(prefix="lanplay-firefox-") as profile:
        Path(profile, "user.js").write_text("".join(
            f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items()))
        proc = subprocess.Popen([FIREFOX, "--headless", "--remote-debugging-port", "0",
                                 "--profile", profile, "--no-remote"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            url = None
            deadline = time.monotonic() + 30
            assert proc.stderr is not None
            for line in proc.stderr:
                found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
                if found:
                    url = found.group(1)
                    break
                if time.monotonic() > deadline:
                    break
            assert url, "Firefox did not say where WebDriver BiDi listens"
            # Firefox goes on writing to stderr: drain it, or a full pipe would stall it
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            bidi = Bidi(url.rstrip("/") + "/session")
            try:
                bidi.call("session.new", {"capabilities": {}})
                tree = bidi.call("browsingContext.getTree", {})
                context = tree["contexts"][0]["context"]
                yield FirefoxPage(bidi, context)
            finally:
                bidi.close()
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
