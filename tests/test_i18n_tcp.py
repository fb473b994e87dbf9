"""One game over real TCP with one laptop in German and one in Spanish: the host sends
keys, never a sentence in either language, and each laptop reads its log and the
refusal it gets in its own language, with the names it shows."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from nethelpers import Tasks, all_agree, hosting, play_out, rejected, run, seat

from lanplay.locale import CORE_DOMAIN, catalogue_path, po
from lanplay.messages import is_message, render
from protocol.codec import decode_body
from protocol.messages import Delta, Snapshot, to_wire


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def translations(lang: str) -> set[str]:
    """Every German (Spanish) text of the core catalogue that is not also the English."""
    entries = po.parse(catalogue_path(lang, CORE_DOMAIN).read_text(encoding="utf-8"))
    return {s for e in entries if e.msgid for s in e.msgstr
            if s not in (e.msgid, e.plural) and len(s) > 12}


@pytest.mark.timeout(60)
def test_a_german_and_a_spanish_laptop_read_one_game_each_in_its_language() -> None:
    async def main() -> None:
        tasks = Tasks()
        async with hosting(autostart=2, seed=11) as host:
            frames: list[bytes] = []
            anna = await seat(host, "Anna", tasks, lang="de", recorder=frames.append)
            bruno = await seat(host, "Bruno", tasks, lang="es")
            for peer in (anna, bruno):
                peer.control("ready")
            await anna.wait_until(lambda p: p.view is not None, 10)
            await bruno.wait_until(lambda p: p.view is not None, 10)
            assert anna.view is not None
            lead = anna.view["turn"]
            early = anna if lead == 1 else bruno
            names = ["Anna", "Bruno"]

            # Whoever may not play yet tries to, and reads why in their own language.
            assert early.view is not None
            card = early.view["hand"][0]["id"]
            refusal = await rejected(early, lambda: early.intent({"type": "play",
                                                                  "card": card}))
            assert refusal.code == "not_your_turn"
            assert refusal.message == {"key": "It is not your turn: waiting for {waiting}.",
                                       "args": {"waiting": {"seats": [lead]}}}
            assert refusal.reason == f"It is not your turn: waiting for {names[lead]}."
            heard = early.heard(refusal.message, refusal.reason)
            assert heard == ({"de": f"Du bist nicht dran: Es wird auf {names[lead]} gewartet.",
                              "es": f"No es tu turno: se espera a {names[lead]}."}[early.lang
                                                                                    or ""])

            rng = random.Random(3)
            tasks.add(play_out(anna, rng))
            tasks.add(play_out(bruno, random.Random(4)))
            await all_agree(host, [anna, bruno])

            for peer in (anna, bruno):
                assert peer.view is not None
                log = peer.view["log"]
                assert log and all(is_message(entry) for entry in log)
                said = [render(entry, names, peer.lang) for entry in log]
                english = [render(entry, names, "en") for entry in log]
                # every line is in the laptop's language, none is left in English
                assert all(mine != en for mine, en in zip(said, english, strict=True)), \
                    [(m, e) for m, e in zip(said, english, strict=True) if m == e][:3]
                first = names[lead]
                if peer.lang == "de":
                    assert said[0] == f"{first} spielt den ersten Stich an."
                    assert said[-1].startswith("Spielende: ")
                    assert any(" spielte " in line for line in said)
                else:
                    assert said[0] == f"{first} abre la primera baza."
                    assert said[-1].startswith("Fin de la partida: ")
                    assert any(" jugó " in line for line in said)

            # The host sent keys: no German or Spanish text crossed the wire.
            views = [m for m in map(decode_body, frames) if isinstance(m, Snapshot | Delta)]
            assert views
            sent = {s for m in map(decode_body, frames) for s in strings(to_wire(m))}
            foreign = translations("de") | translations("es")
            assert not sent & foreign, sorted(sent & foreign)[:3]
            assert "{actor} leads the first trick." in sent
            final = anna.view
            assert final is not None
            assert not {render(e, names, "de") for e in final["log"]} & sent
        await tasks.join()

    run(main())
