"""The page at a phone's size (360x640) and a laptop's (1366x768, 1920x1080), in English,
German and Spanish: every game with its first-round guide on screen and in mid-play, a
choice open (Ranking Top's card, Alles klar?'s turn-down), the room, the end screen and
S-tier's last reveal on the table, with a fit check like the
window's (no text cut off, clipped, overflowing the page or overlapping another); mid-play
also on a phone on its side (640x360) and an upright tablet (768x1024), issue 32.

``LANPLAY_SCREENSHOTS=DIR`` keeps the pictures in DIR (docs/screenshots/web was made so);
otherwise they go to a temporary folder."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from browserhelpers import HostThread, browser, hosting, join, play  # noqa: F401

SIZES = [(360, 640), (1366, 768), (1920, 1080)]
MORE = [(640, 360), (768, 1024)]
"""Mid-play also on a phone on its side and an upright tablet."""
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
        ("ranagedon", 360, "en"), ("alles-klar", 1366, "en"), ("room", 360, "en"),
        ("end", 360, "en"), ("ranking", 360, "de"), ("s-tier-cooperative", 360, "es"),
        ("ranking", 1366, "de"), ("join", 360, "es"), ("watch", 1920, "en")}

TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
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


def at_sizes(page: Any, out: Path, name: str, lang: str, found: dict[str, Any],
             sizes: list[tuple[int, int]] = SIZES) -> None:
    """``shoot`` at each size, back to a phone's after."""
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(TWO_FRAMES)  # the page redraws for its new size
        shoot(page, out, name, width, lang, found)
    page.set_viewport_size({"width": 360, "height": 640})


def open_a_choice(page: Any) -> bool:
    """A card whose play asks which way: Ranking Top's places (with their effects), Alles
    klar?'s ranking card to turn down; tapped, so the choice is on screen."""
    card = page.evaluate("""() => { const v = window.__lanplay.keeper.shown();
        const plays = (v.may || []).filter((m) => m.type === 'play').map((m) => m.card);
        const two = plays.find((c, i) => plays.indexOf(c) !== i);
        return v.game === 'ranking-top' ? (plays.length ? plays[0] : null) : two ?? null; }""")
    if card is None:
        return False
    page.click(f"#hand [data-card='{card}']")
    page.wait_for_selector("#actions [data-to], #actions [data-numeral]", timeout=5000)
    return True


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
        tv = browser.new_page(viewport={"width": 1920, "height": 1080})  # a television
        try:
            if game == "alles-klar":
                page.goto(hosting.url + f"?lang={lang}")
                page.wait_for_selector("#join")
                shoot(page, out, "join", 360, lang, found)
            join(page, hosting.url, "Annemarie", extra=f"&lang={lang}")
            if game == "alles-klar":
                shoot(page, out, "room", 360, lang, found)
            page.click("#ready")
            page.wait_for_selector("#tour", timeout=10_000)  # a first-time browser
            # The guide's count and buttons on one row: German's "Tour überspringen" beside
            # "Schritt 1 von 3" pushed "Verstanden" onto a row of its own on a phone.
            tops = page.evaluate("() => ['tour-skip', 'tour-next'].map((id) => Math.round("
                                 "document.getElementById(id).getBoundingClientRect().top))")
            assert tops[0] == tops[1], f"{name} in {lang}: the guide's buttons take two rows"
            at_sizes(page, out, f"{name}-guide", lang, found)
            play(page, seed=9, stop_after=moves)
            at_sizes(page, out, name, lang, found, SIZES + MORE)
            if game in ("ranking-top", "alles-klar"):
                for _ in range(20):
                    if open_a_choice(page):
                        at_sizes(page, out, f"{name}-choice", lang, found)
                        break
                    play(page, seed=9, stop_after=1)
            if game in ("alles-klar", "ranking-top"):  # a television's watch screen
                tv.goto(hosting.url + f"watch?lang={lang}")
                tv.wait_for_selector("#table", timeout=10_000)
                shoot(tv, out, "watch" if game == "alles-klar" else f"{name}-watch", 1920, lang,
                      found)
            if game == "alles-klar":
                page.keyboard.press("Escape")  # the choice closed: played as the bot likes
                page.set_viewport_size({"width": 360, "height": 640})
                play(page, seed=9)
                at_sizes(page, out, "end", lang, found)
            if mode == "cooperative":  # the end, and under it the last reveal on the table
                play(page, seed=9)
                at_sizes(page, out, f"{name}-end", lang, found)
                page.click("#to-room")
                page.wait_for_selector("#reveal", timeout=5000)
                at_sizes(page, out, f"{name}-reveal", lang, found)
        finally:
            page.close()
            tv.close()
            hosting.stop()
    (out / f"fit-{lang}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    bad = {k: v for k, v in found.items() if v}
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)[:3000]
