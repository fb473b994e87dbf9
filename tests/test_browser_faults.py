"""Issue 32's faults of the page, each as a person met it at 360x640, in a real Chromium:
the join page names the game; a seat's badge is the window's (its colour, "Bot 1" is B1
at any seat) on the players and under each trick card; Alles klar?'s turn-down choice
marks the card and says so; S-tier names your team, the leader, the track in words, one
of Lock in and Unlock, and says why the other team's side takes nothing; Ranking Top's
whole hand is on screen at your turn and a card's choice says its effect; Ranagedon's
frogs wear their owners' badges, the abilities have a legend, the pond fills the page
(on /watch too) and the last jump shows on it; Rules opens the mode's own help; after the
host closed the room the end screen offers no room to go back to."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browserhelpers import (  # noqa: F401
    IN_VIEW,
    HostThread,
    browser,
    click,
    hosting,
    join,
    play,
    state,
)

from lanplay import games
from lanplay.badges import badges


def fresh(browser: Any, width: int = 360, height: int = 640) -> Any:  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def until_mine(page: Any, test: Any, seed: int = 4, moves: int = 200) -> dict[str, Any]:
    """Play the page's seat (as browserhelpers.play does) until ``test(view)`` holds at a
    view of this seat's turn; that view."""
    import random

    rng = random.Random(seed)
    last = -2
    for _ in range(moves):
        page.wait_for_function(
            "(last) => { const p = window.__lanplay; const c = p.conn; const v = c.view;"
            " return Boolean(c.result || (v && v.may && v.may.length && c.stateId !== last"
            " && p.shownState === c.stateId)); }",
            arg=last, timeout=30_000)
        now = state(page)
        assert now is not None and not now["over"], "the game ended first"
        view = now["view"]
        if test(view):
            return view
        action = games.load(view["game"]).bot(view, now["seat"], rng)
        try:
            click(page, view, now["seat"], action)
        except Exception:  # the table moved on: the move is chosen again
            continue
        last = now["state"]
    raise AssertionError("never came")


@pytest.mark.timeout(60)
def test_the_join_page_names_the_game_and_badges_are_the_windows(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    host = hosting.start("alles-klar", options={}, autostart=3, seed=5)
    page = fresh(browser)
    try:
        page.goto(hosting.url)
        page.wait_for_selector("#join")
        assert page.inner_text("#join-title") == "Join Alles klar? · Standard on browser test"
        join(page, hosting.url, "Ann")  # seat 0: the bots after, Bot 1 on seat 1
        hosting.do(host.add_bot)
        hosting.do(host.add_bot)
        page.click("#ready")
        play(page, seed=1, stop_after=1)
        page.wait_for_selector("#trick .played", timeout=15_000)
        seats = page.evaluate("() => window.__lanplay.conn.lobby.seats.map((s) => ({...s}))")
        want = [(b.text, b.colour) for b in badges(seats)]
        assert [s["name"] for s in seats] == ["Ann", "Bot 1", "Bot 2"]
        strip = page.evaluate("""() => [...document.querySelectorAll('#players .badge')].map((b) =>
            [b.textContent, getComputedStyle(b).backgroundColor])""")
        assert [t for t, _ in strip] == [t for t, _ in want]  # Bot 1 is B1 (was B2)
        chips = page.evaluate("""() => [...document.querySelectorAll('#trick .played')].map((p) =>
            [Number(p.dataset.seat), p.querySelector('.badge').textContent,
             getComputedStyle(p.querySelector('.badge')).backgroundColor])""")
        assert chips
        for seat, text, colour in chips:  # each card over its player's own badge
            assert text == want[seat][0] and colour == strip[seat][1], (seat, text, colour)
        assert not page.errors, page.errors
    finally:
        page.close()


@pytest.mark.timeout(90)
def test_alles_klar_marks_the_card_whose_turn_down_it_asks_and_shows_the_trick_taken(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("alles-klar", bots=1, autostart=2, seed=9)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Ann")
        page.click("#ready")

        def two_ways(view: dict[str, Any]) -> bool:
            cards = [t["card"] for t in view["may"] if t["type"] == "play"]
            return any(cards.count(c) > 1 for c in cards)
        view = until_mine(page, two_ways)
        cards = [t["card"] for t in view["may"] if t["type"] == "play"]
        card = next(c for c in cards if cards.count(c) > 1)
        assert "play a lit card" in page.inner_text("#status")
        page.click(f"#hand [data-card='{card}']")
        page.wait_for_selector("#actions [data-numeral]")
        assert "which ranking card does it turn down?" in page.inner_text("#status")
        assert "chosen" in page.get_attribute(f"#hand [data-card='{card}']", "class")
        meaning = page.inner_text("#ranking-meaning")  # the ranking cards say what they do
        assert "trick" in meaning
        page.keyboard.press("Escape")  # the choice closed: the card is played another time

        def taken(view: dict[str, Any]) -> bool:  # a trick this seat won: it leads the next
            last = view.get("last") or {}
            return last.get("result") == "won" and not any(view["table"])
        view = until_mine(page, taken)
        names = page.evaluate("() => window.__lanplay.conn.lobby.seats.map((s) => s.name)")
        winner = names[view["last"]["winner"]]
        assert page.inner_text("#trick-taken") == f"{winner} takes the trick."
        assert page.locator("#trick.taken .played").count() >= 2  # its cards, on their way
    finally:
        page.close()


@pytest.mark.timeout(90)
def test_s_tier_team_names_your_team_and_says_why_the_other_side_takes_nothing(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("s-tier", "team", {"team_track": 3}, bots=3, autostart=4, seed=3)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Ann")
        page.click("#ready")
        view = until_mine(page, lambda v: v.get("phase") == "take")
        seat = page.evaluate("() => window.__lanplay.conn.seat")
        team = next(i for i, t in enumerate(view["teams"]) if seat in t)
        words = page.inner_text("#your-team")
        assert words.startswith(f"Your team: {['Green', 'Red'][team]} (") and "Ann" in words
        page.click(f"[data-team='{1 - team}'] .tier[data-tier='0']")
        page.wait_for_selector("#notice")
        assert page.inner_text("#notice").startswith(f"That is {['Green', 'Red'][1 - team]}'s side")
        assert "Green" in page.inner_text("#track") and "steps" in page.inner_text("#track")
    finally:
        page.close()


@pytest.mark.timeout(90)
def test_s_tier_competitive_names_the_leader_and_the_rules_open_at_the_mode(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("s-tier", "competitive", {"place_seconds": 0}, bots=3, autostart=4, seed=3)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Ann", extra="&lang=de")
        page.click("#ready")
        page.wait_for_selector("#round-line", timeout=15_000)
        line = page.inner_text("#round-line")
        view = state(page)["view"]
        names = page.evaluate("() => window.__lanplay.conn.lobby.seats.map((s) => s.name)")
        leads = view["leader"] == view["you"]
        leader = "du leitest" if leads else f"{names[view['leader']]} leitet"
        assert line == f"Runde {view['round']} · {leader}", line  # was "Runde 1 ·"
        page.click("#rules-open")
        page.wait_for_selector("#rules-mode", timeout=10_000)
        assert page.inner_text("#rules-mode") == "Kompetitiv"
        page.wait_for_function("() => { const m = document.getElementById('rules-mode');"
                               " const box = document.getElementById('rules-text');"
                               " return Math.abs(m.getBoundingClientRect().top"
                               " - box.getBoundingClientRect().top) < 40; }", timeout=5000)
        page.keyboard.press("Escape")
        assert page.locator("#rules").count() == 0
    finally:
        page.close()


@pytest.mark.timeout(120)
def test_s_tier_cooperative_offers_lock_or_unlock_and_ends_with_the_verdict_and_reveal(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("s-tier", "cooperative", {"coop_track": 3, "guess_seconds": 0}, bots=2,
                  autostart=3, seed=3)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Ann")
        page.click("#ready")
        until_mine(page, lambda v: any(t["type"] == "lock" for t in v["may"]))
        assert page.locator("#unlock").count() == 0  # not both side by side
        track = page.inner_text("#track")
        assert "Three or more right move green on" in track and "you all lose" in track
        at = page.evaluate("() => window.__lanplay.conn.stateId")
        page.click("#lock")  # locked: Unlock instead (a bot's move may unlock it at once)
        page.wait_for_function("(at) => window.__lanplay.conn.stateId !== at", arg=at,
                               timeout=10_000)
        both = "() => Boolean(document.getElementById('lock') && document.getElementById('unlock'))"
        assert not page.evaluate(both)
        end = play(page, seed=5)
        assert end["over"]
        page.wait_for_selector("#verdict")
        assert page.inner_text("#status") == page.inner_text("#verdict")  # not "The game is over."
        page.click("#to-room")  # the table under the end screen: the last reveal on it
        reveal = page.inner_text("#reveal")
        assert "of 5 right" in reveal and reveal.count("note: ") == 5
        assert page.locator("#reveal .right, #reveal .wrong").count() == 5
    finally:
        page.close()


@pytest.mark.timeout(120)
def test_ranking_top_shows_the_whole_hand_and_what_a_card_does(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("ranking-top", options={"top_seconds": 0}, bots=2, autostart=3, seed=4)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Ann")
        page.click("#ready")
        view = until_mine(page, lambda v: v["phase"] == "turn" and len(v["hand"]) >= 5)
        for card in view["hand"]:  # every card of the hand on screen, none scrolled away
            assert page.evaluate(IN_VIEW, f"#hand [data-card='{card['id']}']") is None, card
        played = next(t for t in view["may"] if t["type"] == "play" and t["to"] == "discard")
        card = next(c for c in view["hand"] if c["id"] == played["card"])
        page.click(f"#hand [data-card='{card['id']}']")
        page.wait_for_selector("#actions [data-to='discard']")
        assert page.inner_text("#actions [data-to='discard']") == \
            f"Onto the discard pile: {card['effect']}"
        assert "next 5" in page.inner_text("#players")  # was "needs 5 · 5"
    finally:
        page.close()


HOPS = """(() => {
  // Every Web Animation the page starts on a frog, as it starts it (the flight is gone
  // from getAnimations() once it has played).
  window.__hops = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    if (this.dataset && this.dataset.frog !== undefined) {
      window.__hops.push({ frog: Number(this.dataset.frog), anim: this.getAttribute("data-anim"),
        first: frames[0].transform, last: frames[frames.length - 1].transform,
        steps: frames.length, duration: options.duration, inPond: false });
      requestAnimationFrame(() => {  // by the next frame the page has put it on the pond
        window.__hops[window.__hops.length - 1].inPond = this.isConnected;
      });
    }
    return animate.call(this, frames, options);
  };
})();"""


def _translate(transform: str) -> tuple[float, float]:
    inner = transform.split("translate(", 1)[1].split(")", 1)[0]
    x, y = (float(part.strip().removesuffix("px")) for part in inner.split(","))
    return x, y


POND = """() => {
  const pond = document.getElementById('pond').getBoundingClientRect();
  const pub = document.querySelector('.public').getBoundingClientRect();
  return { top: pond.top, height: pond.height, width: pond.width, publicBottom: pub.bottom,
           inner: innerHeight };
}"""


@pytest.mark.timeout(120)
def test_ranagedon_frogs_wear_their_owners_badges_on_a_pond_that_fills_the_page(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("ranagedon", bots=1, autostart=2, seed=6)
    page = fresh(browser)
    page.add_init_script(HOPS)
    tv = fresh(browser, 1366, 768)
    try:
        join(page, hosting.url, "Ann")
        page.click("#ready")
        # a jump whose frog came down on the table (one that left it flies nowhere)
        view = until_mine(page, lambda v: v["phase"] in ("jump", "again") and v.get("last")
                          and v["last"]["kind"] == "jump"
                          and any(f["id"] == v["last"]["frog"] and f.get("x") is not None
                                  for f in v["frogs"]))
        # The jumper flew from where it left to where it rests (the window's arc), once.
        last = view["last"]
        try:
            page.wait_for_function("(n) => window.__hops.some((h) => h.anim === `hop-${n}`"
                                   " && h.inPond)", arg=last["n"], timeout=5_000)
        except Exception as e:
            raise AssertionError(("no flight", page.evaluate("() => window.__hops"), last,
                                  view["frogs"])) from e
        hops = [h for h in page.evaluate("() => window.__hops") if h["anim"] == f"hop-{last['n']}"]
        assert len(hops) == 1, hops
        (hop,) = hops
        jumper = next(f for f in view["frogs"] if f["id"] == last["frog"])
        assert hop["frog"] == last["frog"]
        dx, dy = _translate(hop["first"])
        assert abs(dx - (last["start"][0] - jumper["x"])) < 0.5, (hop, last, jumper)
        assert abs(dy - (last["start"][1] - jumper["y"])) < 0.5, (hop, last, jumper)
        assert _translate(hop["last"]) == (0.0, 0.0)
        assert hop["steps"] >= 12 and 320 <= hop["duration"] <= 900
        colours = page.evaluate("() => window.__lanplay.conn.lobby.seats.map((s) => s.colour)")
        owners = page.evaluate("""() => [...document.querySelectorAll('#pond .owner')].map((o) =>
            [Number(o.dataset.seat), o.querySelector('circle').getAttribute('fill')])""")
        assert len(owners) == 18
        assert {seat for seat, _ in owners} == {0, 1}
        for seat, fill in owners:
            assert fill.lower() == colours[seat].lower()
        assert page.locator("#legend li").count() >= 1
        assert page.locator("#last-move").count() == 1  # the jump shows on the pond
        box = page.evaluate(POND)
        assert box["top"] - box["publicBottom"] < 20, box  # no empty band above the pond
        assert box["height"] > 0.4 * box["inner"], box
        mine = page.evaluate("() => window.__lanplay.conn.view.your_side")
        other = next(f for f in state(page)["view"]["frogs"] if f["side"] != mine)
        page.locator(f"#pond [data-frog='{other['id']}']").click(force=True)
        page.wait_for_selector("#notice")
        assert "not yours" in page.inner_text("#notice")
        tv.goto(hosting.url + "watch")
        tv.wait_for_selector("#pond", timeout=10_000)
        box = tv.evaluate(POND)
        assert box["height"] > 0.55 * box["inner"], box  # a television sees the pond large
    finally:
        page.close()
        tv.close()


@pytest.mark.timeout(90)
def test_after_the_room_closed_the_end_screen_offers_no_room(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    hosting.start("alles-klar", bots=1, autostart=2, seed=2)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Ann")
        page.click("#ready")
        play(page, seed=1)
        page.wait_for_selector("#back-to-room")  # the room is there: the way back too
        hosting.stop()
        page.wait_for_selector("#closed", timeout=10_000)
        assert page.locator("#back-to-room").count() == 0
        assert page.locator("#verdict").count() == 1
        assert json.loads(json.dumps(page.errors)) == []
    finally:
        page.close()


def test_a_game_over_before_its_tour_ends_the_tour(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    """A seat that made fewer moves than its tour has steps (a short game, a stand-in
    playing it) met the game's end with the guide's bubble over the end screen; the end
    ends the tour, and the game counts as taught (the page's own Tour, in the browser)."""
    hosting.start("ranking", bots=1, autostart=2, seed=2)
    page = fresh(browser)
    try:
        page.goto(hosting.url)
        found = page.evaluate("""async () => {
          const { Tour, loadTours } = await import('/teach.js');
          await loadTours();
          localStorage.removeItem('lanplay:taught');
          const tour = new Tour();
          tour.begin({ game: 'ranking', mode: null, over: false }, true);
          const before = tour.active;
          tour.acted();
          tour.begin({ game: 'ranking', mode: null, over: true }, true);
          return [before, tour.active, tour.bubble(() => null) === null,
                  JSON.parse(localStorage.getItem('lanplay:taught'))];
        }""")
        assert found == [True, False, True, ["ranking"]]
        assert json.loads(json.dumps(page.errors)) == []
    finally:
        page.close()



def test_a_frog_that_jumps_straight_up_hops_where_it_is(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    # A jump that came down flipped where it left (met in a real game: no flight was
    # played, the board looked unchanged, the log said "flipped over").
    hosting.start("ranagedon", bots=1)
    page = fresh(browser)
    try:
        page.goto(hosting.url)
        flying = page.evaluate("""async () => {
          const { flightFrames } = await import('/tables/ranagedon.js');
          return flightFrames({ n: 2, frog: 2, start: [400, 600], ctrl: [400, 600],
                                to: [400, 600], end: [400, 600], height: 25 });
        }""")
        assert flying is not None
        frames = flying["frames"]
        assert len(frames) >= 12 and flying["duration"] == 320
        assert [f["offset"] for f in frames] == sorted(f["offset"] for f in frames)
        assert frames[-1] == {"transform": "translate(0px, 0px) scale(1)", "offset": 1}
        middle = frames[len(frames) // 2]["transform"]
        assert float(middle.split("scale(", 1)[1].rstrip(")")) > 1.5, middle  # up it goes
    finally:
        page.close()


SCROLLED = """() => { const el = document.querySelector('.public');
  return { hidden: el.scrollHeight - el.clientHeight, top: el.scrollTop,
           more: el.dataset.more || null, mask: getComputedStyle(el).maskImage }; }"""


@pytest.mark.timeout(60)
def test_a_part_that_hides_some_of_its_lines_fades_out_where_more_lies(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    # Met at 360x640 with the guide open: S-tier team's "Your team: Red (Bot 2 and" ended
    # at the public part's edge as if cut off; nothing said the part scrolls.
    hosting.start("s-tier", "team", bots=3, autostart=4, seed=3)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Annabelle")
        page.click("#ready")
        page.wait_for_selector(".tour")
        page.wait_for_selector("#your-team")
        page.wait_for_selector(".public[data-more]")
        now = page.evaluate(SCROLLED)
        assert now["hidden"] > 8, now  # the guide leaves the public part too little room
        assert now["more"] == "below" and "linear-gradient" in now["mask"], now
        page.evaluate("() => { const el = document.querySelector('.public');"
                      " el.scrollTop = el.scrollHeight; }")
        page.wait_for_selector(".public[data-more='above']")
        # drawn again (a resize draws at the next frame): the mark is still there right
        # after, before it is read again (no frame without it, no flicker)
        after = page.evaluate("""async () => {
          window.dispatchEvent(new Event('resize'));
          await new Promise((done) => requestAnimationFrame(done));
          return document.querySelector('.public').dataset.more || null; }""")
        assert after == "above"
    finally:
        page.close()


@pytest.mark.timeout(60)
def test_ranking_names_its_tower_before_the_row_is_laid_out(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    # While everyone picks a picture the row is not laid out: the phone showed the
    # players over an empty band, and the guide's step about the tower framed nothing.
    hosting.start("ranking", bots=3, autostart=4, seed=3)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Annabelle")
        page.click("#ready")
        page.wait_for_selector(".tour")
        assert page.evaluate("() => window.__lanplay.conn.view.row.length") == 0
        assert page.inner_text("#tower-empty") == \
            "The 7 pictures start here, on floor 3, once everyone has picked one."
        page.click(".tour button.primary")  # step 2: the tower
        page.wait_for_selector("#tower.teach-spot")
        assert page.inner_text(".tour p").startswith("The tower:")
    finally:
        page.close()


@pytest.mark.timeout(60)
def test_the_guides_placing_step_frames_the_board_when_the_pool_is_empty(
        browser: Any, hosting: HostThread) -> None:  # noqa: F811
    # S-tier cooperative: the bots had placed every picture before the person read the
    # guide's first step; its second ("put each picture on a tier") framed the empty
    # pool, a dashed line of no height.
    import random

    hosting.start("s-tier", "cooperative", bots=3, autostart=4, seed=3)
    page = fresh(browser)
    try:
        join(page, hosting.url, "Annabelle")
        page.click("#ready")
        page.wait_for_selector(".tour")
        now = state(page)
        assert now is not None
        if any(m["type"] == "commit" for m in now["view"].get("may") or []):
            # this seat leads (the shuffle decides): its note first; the move takes the
            # guide to its second step
            action = games.load("s-tier").bot(now["view"], now["seat"], random.Random(1))
            assert action is not None and action["type"] in ("note", "commit"), action
            click(page, now["view"], now["seat"], action)
        page.wait_for_function("() => { const v = window.__lanplay.conn.view;"
                               " return v && Array.isArray(v.board)"
                               " && v.board.filter(Boolean).length === 5; }", timeout=20_000)
        if page.locator(".tour .count:has-text('1/3')").count():
            page.click(".tour button.primary")  # step 2: placing
        page.wait_for_selector(".tour .count:has-text('2/3')")
        page.wait_for_function("() => window.__lanplay.shownState"
                               " === window.__lanplay.conn.stateId")
        spot = page.evaluate("""() => { const s = document.querySelector('.teach-spot');
          return s && [s.id, s.getBoundingClientRect().height]; }""")
        assert spot is not None and spot[1] > 20, spot
    finally:
        page.close()
