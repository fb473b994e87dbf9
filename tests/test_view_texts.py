"""No game composes a sentence its laptops cannot translate: every str in every view of
every game, and every reason a game refuses with, is an id, a token, a name, a text of
the content catalogue, or a message whose key is in the core catalogue's template.

The views are those of the conformance drivers' seeded games (bot and random play,
S-tier's notes written through its laptops), and S-tier's tables as each leader's
laptop fills them with its own note (``lanplay.peer.keeper.Laptops``)."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import conformance as c
import pytest

from lanplay.game import SYSTEM, IllegalAction, resolve_options
from lanplay.games.ranking_top import cards
from lanplay.locale import CONTENT_DOMAIN, CORE_DOMAIN, po, template_path
from lanplay.messages import CONTENT_KINDS, JOINS, fields, is_message
from lanplay.peer.keeper import Laptops

TOKEN = re.compile(r"[a-z0-9][a-z0-9_.:\-]*|[A-Z]{1,3}")
"""Ids, phases, kinds, commitments, timer keys; tier letters and Roman numerals."""
CARD_LABEL = re.compile(r"\d{1,2}( \([IV]{1,3}(, [IV]{1,3})?\))?")
"""How Alles klar? names a card: '7', '7 (III)', '4 (I, V)'."""
REPR = re.compile(r"'.{0,160}'|\".{0,160}\"")
"""A refused action's own junk, quoted as it came (``Unknown action 'fly'``)."""


@functools.cache
def core() -> dict[str, str | None]:
    """Each key of the core template and its plural."""
    entries = po.parse(template_path(CORE_DOMAIN).read_text(encoding="utf-8"))
    return {e.msgid: e.plural for e in entries if e.msgid}


@functools.cache
def content() -> tuple[frozenset[tuple[str | None, str]], frozenset[str]]:
    entries = po.parse(template_path(CONTENT_DOMAIN).read_text(encoding="utf-8"))
    return frozenset(e.key for e in entries if e.msgid), frozenset(e.msgid for e in entries)


@functools.cache
def names() -> frozenset[str]:
    """What stays as the rulebook has it in every language: Ranking Top's song titles,
    artists and the labels made of them ("Severlá 3")."""
    found = {text for song in (*cards.TITLES, cards.TOP_TEXT, cards.PRIMORDIAL_TEXT)
             for text in song[:2]}
    found |= {cards.label(card) for card in range(cards.DECK_SIZE)}
    return frozenset(found)


def problems(value: Any, path: str = "") -> Iterator[str]:
    """Where ``value`` (a view) holds a str no catalogue could translate."""
    if is_message(value):
        yield from message_problems(value, path)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from problems(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from problems(item, f"{path}[{i}]")
    elif isinstance(value, str) and not plain_ok(value):
        yield f"{path}: {value!r} is a free text, not an id, a name or a message"


def plain_ok(text: str) -> bool:
    return (TOKEN.fullmatch(text) is not None or text in content()[1] or text in names()
            or text in core())


def message_problems(said: Mapping[str, Any], path: str) -> Iterator[str]:
    key = said["key"]
    if key not in core():
        yield f"{path}: the key {key!r} is not in lanplay/locale/lanplay.pot"
        return
    if said.get("plural") != core()[key]:
        yield f"{path}: {key!r} comes with the plural {said.get('plural')!r}"
    args = said.get("args", {})
    missing = fields(key) - set(args)
    if missing:
        yield f"{path}: {key!r} lacks its arguments {sorted(missing)}"
    for name, arg in args.items():
        yield from arg_problems(arg, f"{path}.args.{name}")


def arg_problems(arg: Any, path: str) -> Iterator[str]:
    if isinstance(arg, bool) or arg is None:
        yield f"{path}: {arg!r} is no argument"
    elif isinstance(arg, int | float):
        return
    elif isinstance(arg, str):
        if not (plain_ok(arg) or CARD_LABEL.fullmatch(arg) or REPR.fullmatch(arg)):
            yield f"{path}: the argument {arg!r} is a free text (pass a message)"
    elif is_message(arg):
        yield from message_problems(arg, path)
    elif isinstance(arg, Mapping) and set(arg) == {"seat"}:
        if not isinstance(arg["seat"], int):
            yield f"{path}: a seat is a number"
    elif isinstance(arg, Mapping) and set(arg) == {"seats"}:
        if not all(isinstance(s, int) for s in arg["seats"]):
            yield f"{path}: seats are numbers"
    elif isinstance(arg, Mapping) and "list" in arg:
        if arg.get("join", "comma") not in JOINS or not set(arg) <= {"list", "join"}:
            yield f"{path}: a list is 'list' and maybe a 'join' of {JOINS}"
        for i, item in enumerate(arg["list"]):
            yield from arg_problems(item, f"{path}[{i}]")
    elif isinstance(arg, Mapping) and len(arg) == 2 and "text" in arg:
        kind = next(k for k in arg if k != "text")
        if kind not in CONTENT_KINDS:
            yield f"{path}: {kind!r} is no kind of content"
        elif (f"{kind}:{arg[kind]}", arg["text"]) not in content()[0]:
            yield f"{path}: {arg['text']!r} is not the built-in text of {kind}:{arg[kind]}"
    else:
        yield f"{path}: {arg!r} is no argument a laptop can render"


def view_problems(view: Any, where: str) -> list[str]:
    found = [f"{where}{p}" for p in problems(view)]
    for i, entry in enumerate(view.get("log", [])):
        if not (is_message(entry) and isinstance(entry.get("seats"), list)):
            found.append(f"{where}.log[{i}]: not a message with its seats: {entry!r}")
    return found


CASES = c.cases()


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_no_view_of_any_game_carries_a_free_sentence(case: c.Case) -> None:
    found: list[str] = []
    for run in (c.bot_run(case, 1), c.random_run(case, 1)):
        for i in c.walk(run.states, 60):
            for viewer in run.viewers():
                view = case.game.view(run.states[i], viewer)
                found += view_problems(view, f"{case.id} state {i} viewer {viewer}")
                if len(found) > 5:
                    break
    assert not found, "\n".join(found[:6])


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_every_reason_a_game_refuses_with_is_a_catalogued_message(case: c.Case) -> None:
    found: list[str] = []
    refused = 0
    run = c.random_run(case, 2)
    for i in c.walk(run.states, 12):
        state = run.states[i]
        for seat in (*range(case.players), SYSTEM):
            other = case.game.legal(state, (seat + 1) % case.players)[:4]
            for action in (*c.JUNK_ACTIONS, *other, *(j for a in other[:1]
                                                     for j in c.junk_variants(a))):
                try:
                    case.game.check(state, seat, action)
                except IllegalAction as exc:
                    refused += 1
                    found += [f"{case.id} state {i} seat {seat} {action!r:.80}: {p}"
                              for p in message_problems(exc.message.to_wire(), "")]
    assert refused > 0
    assert not found, "\n".join(found[:6])


SECRET_CASES = [case for case in CASES if case.game.id == "s-tier"]


@pytest.mark.parametrize("case", SECRET_CASES, ids=[case.id for case in SECRET_CASES])
def test_s_tier_tables_as_each_laptop_fills_them_carry_no_free_sentence(case: c.Case) -> None:
    """Bots play through their laptops (a note leaves as its commitment, the laptop
    counts and reveals); every seat's table, its own note filled in, is checked."""
    game = case.game
    options = resolve_options(game, {})
    state = game.setup(case.players, case.mode, options, 3)
    laptops = Laptops(game, random.Random(3))
    rng = random.Random(3)
    found: list[str] = []
    for step in range(400):
        if game.result(state) is not None:
            break
        for seat in range(case.players):
            found += view_problems(laptops.shown(state, seat), f"step {step} seat {seat}")
        due = laptops.due(state)
        if due is not None:
            state = game.apply(state, *due)
            continue
        for seat in sorted(game.actors(state)):
            action = game.bot(laptops.shown(state, seat), seat, rng)
            if action is not None:
                sent = laptops.send(state, seat, action)
                game.check(state, seat, sent)
                state = game.apply(state, seat, sent)
                break
        else:
            timer = game.timer(state, options)
            assert timer is not None, f"step {step}: stuck"
            state = game.apply(state, SYSTEM, timer.action)
    assert game.result(state) is not None
    assert not found, "\n".join(found[:6])


def test_the_check_catches_a_free_sentence() -> None:
    """The walk is not vacuous: a view with an English sentence, a key from nowhere or
    a sentence passed as an argument fails it."""
    assert list(problems({"last": {"effect": "they draw 2 cards and play one more."}}))
    assert list(problems({"log": [{"key": "{actor} invents a rule.", "args": {}}]}))
    said = {"key": "{actor} jumped {frog}: {outcome}.",
            "args": {"actor": {"seat": 0}, "frog": "a green frog", "outcome": "landed"}}
    assert [p for p in problems(said) if "free text" in p]
    assert not list(problems({"name": "Dog", "id": "dog", "title": "Severlá",
                              "cluster": "Block", "tier": "S"}))
