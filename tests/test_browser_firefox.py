"""The page in Debian's Firefox, driven over Firefox's own WebDriver BiDi: a seat plays
Alles klar? and S-tier (its note written and kept in the browser) to the end screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from bidi import FirefoxPage, firefox
from browserhelpers import HostThread, hosting, play  # noqa: F401


@pytest.fixture(scope="module")
def tab() -> Iterator[FirefoxPage]:
    with firefox() as page:
        page.set_viewport_size({"width": 360, "height": 640})
        yield page


@pytest.mark.timeout(90)
@pytest.mark.parametrize(("game", "mode", "options"), [
    ("alles-klar", None, {}),
    ("s-tier", "cooperative", {"coop_track": 3, "guess_seconds": 0}),
])
def test_firefox_plays_a_game_to_its_end(tab: FirefoxPage, hosting: HostThread,  # noqa: F811
                                        game: str, mode: str | None,
                                        options: dict[str, Any]) -> None:
    hosting.start(game, mode, options, bots=1, autostart=2, seed=17)
    tab.goto(hosting.url + "?record=1")
    tab.fill("#name", "Fox")
    tab.click("#join")
    tab.wait_for_selector("#ready")
    tab.click("#ready")
    end = play(tab, seed=8, strict=True)  # issue 32: the what-now line, controls on screen
    assert end["over"]
    assert tab.inner_text("#fair").startswith("Checked here: the shuffle came from everyone")
    assert tab.evaluate("() => navigator.userAgent").count("Firefox") == 1


@pytest.mark.timeout(60)
def test_firefox_fades_out_a_part_of_the_table_that_hides_some_lines(
        hosting: HostThread) -> None:  # noqa: F811
    # As in Chromium (test_browser_faults.py): the guide open at 360x640 leaves S-tier
    # team's public part too little room; its last line fades out where more lies.
    hosting.start("s-tier", "team", bots=3, autostart=4, seed=3)
    with firefox() as page:  # a browser of its own: its guide not yet seen
        page.set_viewport_size({"width": 360, "height": 640})
        page.goto(hosting.url)
        page.fill("#name", "Annabelle")
        page.click("#join")
        page.wait_for_selector("#ready")
        page.click("#ready")
        page.wait_for_selector(".tour")
        page.wait_for_selector(".public[data-more]")
        hidden, more, mask = page.evaluate("""() => { const el = document.querySelector('.public');
          return [el.scrollHeight - el.clientHeight, el.dataset.more,
                  getComputedStyle(el).maskImage]; }""")
        assert hidden > 8 and more == "below" and "linear-gradient" in mask, (hidden, more, mask)
