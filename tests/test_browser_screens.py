"""The page at a phone's size (360x640) and a laptop's (1280x800), in English, German and
Spanish: every game in mid-play, the room and the end screen, with a fit check like the
window's (no text cut off, clipped, overflowing the page or overlapping another).

``LANPLAY_SCREENSHOTS=DIR`` keeps the pictures in DIR (docs/screenshots/web was made so);
otherwise they go to a temporary folder."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from browserhelpers import HostThread, browser, hosting, join, play  # noqa: F401

SIZES = [(360, 640), (1280, 800)]
LANGS = ["en", "de", "es"]
GAMES = [
    ("alles-klar", None, 3, {}, 3),
    ("ranking", None, 4, {"guess_seconds": 0}, 2),
    ("s-tier", "cooperative", 3, {"guess_seconds": 0}, 2),
    ("s-tier", "competitive", 5, {"place_seconds": 0}, 1),
    ("s-tier", "team", 6, {}, 1),
    ("ranking-top", None, 4, {"top_seconds": 0}, 3),
    ("ranagedon", None, 2, {}, 2),
]
KEEP = {("alles-klar", 360, "en"), ("ranking", 360, "en"), ("s-tier-cooperative", 360, "en"),
        ("s-tier-competitive", 360, "en"), ("s-tier-team", 360, "en"), ("ranking-top", 360, "en"),
        ("ranagedon", 360, "en"), ("alles-klar", 1280, "en"), ("room", 360, "en"),
        ("end", 360, "en"), ("ranking", 360, "de"), ("s-tier-cooperative", 360, "es"),
        ("ranking", 1280, "de"), ("join", 360, "es"), ("watch", 1280, "en")}

FIT = (Path(__file__).with_name("browser_fit.js")).read_text(encoding="utf-8")


def folder(tmp_path: Path) -> Path:
    keep = os.environ.get("LANPLAY_SCREENSHOTS")
    out = Path(keep) if keep else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out


def shoot(page: Any, out: Path, name: str, width: int, lang: str, found: dict[str, Any]) -> None:
    problems = page.evaluate(FIT)
    found[f"{name}-{width}-{lang}"] = problems
    keep = os.environ.get("LANPLAY_SCREENSHOTS") is None or (name, width, lang) in KEEP
    if keep:
        page.screenshot(path=str(out / f"{name}-{width}x{page.viewport_size['height']}-{lang}.png"))


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", LANGS)
def test_every_screen_fits_a_phone_and_a_laptop(browser: Any, hosting: HostThread,  # noqa: F811
                                                 lang: str, tmp_path: Path) -> None:
    out = folder(tmp_path)
    found: dict[str, Any] = {}
    # English shows every game; German and Spanish the longest words (and stay quick)
    for game, mode, players, options, moves in GAMES if lang == "en" else GAMES[:3]:
        name = game + (f"-{mode}" if mode else "")
        hosting.start(game, mode, options, bots=players - 1, autostart=players, seed=13)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        tv = browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            if game == "alles-klar":
                page.goto(hosting.url + f"?lang={lang}")
                page.wait_for_selector("#join")
                shoot(page, out, "join", 360, lang, found)
            join(page, hosting.url, "Annemarie", extra=f"&lang={lang}")
            if game == "alles-klar":
                shoot(page, out, "room", 360, lang, found)
            page.click("#ready")
            play(page, seed=9, stop_after=moves)
            shoot(page, out, name, 360, lang, found)
            page.set_viewport_size({"width": 1280, "height": 800})
            shoot(page, out, name, 1280, lang, found)
            if game in ("alles-klar", "ranking-top"):  # a television's watch screen
                tv.goto(hosting.url + f"watch?lang={lang}")
                tv.wait_for_selector("#table", timeout=10_000)
                shoot(tv, out, "watch" if game == "alles-klar" else f"{name}-watch", 1280, lang,
                      found)
            if game == "alles-klar":
                page.set_viewport_size({"width": 360, "height": 640})
                play(page, seed=9)
                shoot(page, out, "end", 360, lang, found)
        finally:
            page.close()
            tv.close()
            hosting.stop()
    (out / f"fit-{lang}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    bad = {k: v for k, v in found.items() if v}
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)[:3000]
