"""Many addresses do not beat the per-address caps (issue 23, finding 9).

On today's main, forty loopback addresses got 400 password answers checked in 15 s
(ten each before the per-address lockout), and 40 x 8 idle handshakes kept a new
player with the right password out ("full" every time). Here the guessing runs on a
simulated clock against the host's own throttle, and the flood runs for real on
127.0.0.2 ... 127.0.0.41 while a newcomer joins from 127.0.0.1, bounded in count
and time.
"""

from __future__ import annotations

import asyncio
import heapq
import time
from pathlib import Path

import pytest
from flood import address, admissions, flooding
from nethelpers import run
from resilience import GAME, config

from lanplay.admission import PasswordThrottle
from lanplay.host import Host

PASSWORD = "Kartoffelsalat mit Gurke"


def checks_in(throttle: PasswordThrottle, addresses: list[str], seconds: float) -> int:
    """Wrong answers checked within ``seconds`` when every address sends its next one
    the moment the verdict on the last arrives (or its lockout ends), all at once."""
    due: list[tuple[float, int, str, str, bool]] = [(0.0, i, a, "send", False)
                                                     for i, a in enumerate(addresses)]
    heapq.heapify(due)
    checked = 0
    while due:
        now, i, source, stage, fresh = heapq.heappop(due)
        if now > seconds:
            break
        if stage == "send":
            fresh = throttle.fresh(source, now)
            at = throttle.reserve(source, now)
            if at is None:
                heapq.heappush(due, (now + throttle.locked(source, now), i, source, "send",
                                     False))
            else:
                heapq.heappush(due, (at, i, source, "pace", fresh))
            continue
        turn = throttle.pace(fresh, now)
        if turn > now:
            heapq.heappush(due, (turn, i, source, "pace", fresh))
            continue
        throttle.failed(source, now)
        checked += 1
        heapq.heappush(due, (now, i, source, "send", False))
    return checked


def test_forty_addresses_get_a_bounded_number_of_answers_checked() -> None:
    forty = [address(i) for i in range(40)]
    checked = checks_in(PasswordThrottle(), forty, 15.0)
    # one fresh try per address, ten at once from the known ones, then one each 2 s
    assert checked <= 40 + 10 + 8, checked  # main: 400
    # however many addresses: beyond one try each, the host checks one answer each 2 s
    many = [address(i) for i in range(300)]
    assert checks_in(PasswordThrottle(), many, 30.0) <= 300 + 10 + 16
    # and one address alone still has its own free tries and delays, as before
    assert checks_in(PasswordThrottle(), forty[:1], 15.0) == 10


def test_a_fresh_address_never_waits_behind_known_ones() -> None:
    throttle = PasswordThrottle()
    for _ in range(10):  # the known lane's burst, spent by a guesser
        throttle.reserve("10.0.0.66", 0.0)
    for _ in range(10):
        assert throttle.pace(False, 0.0) == 0.0
    assert throttle.pace(False, 0.0) == pytest.approx(2.0)  # the next known answer waits
    assert throttle.fresh("10.0.0.7", 0.0) and not throttle.fresh("10.0.0.66", 0.0)
    assert throttle.pace(True, 0.0) == 0.0  # a newcomer's is checked at once
    throttle.passed("10.0.0.66")
    assert throttle.fresh("10.0.0.66", 1.0)  # a right answer clears the record


@pytest.mark.timeout(60)
def test_a_new_player_with_the_password_gets_in_under_a_forty_address_flood(
        data_dir: Path) -> None:
    async def main() -> None:
        host = Host(GAME, config=config(data_dir, password=PASSWORD))
        port = await host.start()
        budget = host.reception.handshakes.total
        try:
            async with flooding(port, addresses=40, idle=4, guessing=4) as tally:
                # the flood has spent the host's budget of unproven connections
                deadline = time.monotonic() + 10
                while host.reception.handshakes.waiting() < budget - 4:
                    assert time.monotonic() < deadline, host.reception.handshakes.waiting()
                    await asyncio.sleep(0.05)
                began = time.monotonic()
                got = await admissions(port, PASSWORD, 5)
                spent = time.monotonic() - began
                assert got == ["in"] * 5, got  # main: ["full"] * 5
                assert spent < 10, spent
                # no address holds more than its share; the flood's answers are bounded
                assert max(host.reception.handshakes.waiting(address(i))
                           for i in range(40)) <= 8
            assert tally.connects > budget  # the flood did reconnect as it was let go
            assert tally.verdicts["password"] <= 40 + 10 + int(spent) + 20, tally.verdicts
        finally:
            await host.stop("test over")

    run(main())
