"""The leader's note as its own laptop keeps it: commit, count, reveal, from the view alone.

The host never holds a note before its reveal (DESIGN.md "Fair play"). A
person's table and a bot write a plain note, ``{"type": "note", "tiers":
...}``, as they always did; the laptop (``lanplay.peer.keeper``) turns it into
the commitment the host is sent (``seal``), keeps the note and its salt,
and answers by itself what the rules ask of it later (``answer``): the count
after the first cooperative attempt and the note at the reveal, and only once
the view shows the round's end (``early`` says why an ask comes too soon: a
lying host could otherwise show this laptop alone a "reveal" during the
guessing and read the note). A team leader's "Wrong" is checked against the
note before it leaves (``seal``). ``fill``
shows the leader its own note in its view; ``standin`` is what the host's
stand-in for an away leader does where a note is needed: it knows none, so
the host voids the round.

Everything here reads only the seat's view and the kept secret, so the same
code serves a window, a bot peer and the pure-rules drivers of the tests.
A secret is a plain map: ``commitment``, ``tiers`` (the note as written),
``salt`` (hex), and ``mode``, ``round`` and ``seat`` for a person reading the
laptop's file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lanplay.game import Action, IllegalAction, Seat, View
from lanplay.games.s_tier import competitive
from lanplay.games.s_tier.common import (
    GAME_ID,
    TIER_COUNT,
    TIERS,
    commitment,
    is_commitment,
    is_tier,
    picture_word,
    reveal_fields,
)
from lanplay.games.s_tier.coop import correct_count
from lanplay.messages import Msg, items, msg

Secret = dict[str, Any]
ASKING = ("count", "reveal")
"""Phases in which the host waits for a leader's laptop to answer from its note."""
WRITING = ("note", "notes")


def _leads(view: View, seat: Seat) -> int | None:
    """Which note of the view is ``seat``'s: 0 (the one leader, or Green's), 1 (Red's), None."""
    if view.get("mode") == "team":
        leaders = list(view.get("leaders") or [])
        return leaders.index(seat) if seat in leaders else None
    return 0 if view.get("leader") == seat else None


def key(view: View, seat: Seat | None) -> str | None:
    """The commitment of ``seat``'s note that the view names, if it leads and has written."""
    if seat is None or view.get("game") != GAME_ID:
        return None
    which = _leads(view, seat)
    if which is None:
        return None
    if view.get("mode") == "team":
        found = list(view.get("commitments") or [])
        value = found[which] if which < len(found) else None
    else:
        value = view.get("commitment")
    return value if is_commitment(value) else None


def writing(view: View, seat: Seat) -> bool:
    """Whether ``seat`` is asked to write its note now."""
    return (view.get("game") == GAME_ID and not view.get("over")
            and view.get("phase") in WRITING and seat in (view.get("actors") or [])
            and _leads(view, seat) is not None)


# --- writing: a plain note becomes a commitment -----------------------------------------

def note_problem(view: View, action: Mapping[str, Any]) -> Msg | None:
    """Why the plain note ``action`` is not one the rules would take for this view
    (the reasons the host gave when it still checked notes itself)."""
    tiers = action.get("tiers")
    mode = view.get("mode")
    pictures = [str(p.get("id")) for p in view.get("pictures") or [] if isinstance(p, Mapping)]
    effects = list(view.get("effects") or []) if mode == "cooperative" else []
    allowed = ("type", "tiers", "hint") if "place-one" in effects else ("type", "tiers")
    extra = [str(k)[:40] for k in action if k not in allowed]
    if extra:
        return msg("A note takes {fields}, not {field}.",
                   fields=items([repr(k) for k in allowed[1:]], "and"), field=repr(extra[0]))
    if mode == "competitive":
        return competitive.note_problem(tiers, len(pictures))
    if not isinstance(tiers, list) or len(tiers) != TIER_COUNT:
        return msg("'tiers' must list 5 entries, one per tier from S to D.")
    if not all(p is None or isinstance(p, str) for p in tiers):
        return msg("Each tier holds a picture id or nothing (null).")
    empty = sum(p is None for p in tiers)
    if "take-four" in effects:
        if empty != 1:
            return msg("With 'Take four pictures', leave exactly one tier empty.")
    elif empty:
        return msg("Every tier gets one picture.")
    written = [p for p in tiers if p is not None]
    if len(set(written)) != len(written):
        return msg("A picture goes in one tier only.")
    cards = [c for c in view.get("cards") or [] if isinstance(c, list) and len(c) == 4]
    if cards:
        for front, front_name, back, back_name in cards:
            if sum(p in (front, back) for p in written) != 1:
                return msg("Write one side of each card: {front} or {back}.",
                           front=picture_word(str(front), str(front_name)),
                           back=picture_word(str(back), str(back_name)))
        if len(written) != len(cards):
            return msg("Write only the pictures on your cards.")
    elif sorted(written) != sorted(pictures):
        names = {str(p.get("id")): str(p.get("name", "")) for p in view.get("pictures") or []
                 if isinstance(p, Mapping)}
        return msg("Write each of your pictures once: {pictures}.",
                   pictures=items([picture_word(p, names.get(p) or p) for p in pictures]))
    if "place-one" in effects:
        if "hint" not in action:
            return msg("'Place one picture' is active: name the tier ('hint') whose picture "
                       "you lay on the board.")
        hint = action["hint"]
        if not is_tier(hint) or tiers[hint] is None:
            return msg("'hint' must be a tier (0 = S .. 4 = D) that holds a picture.")
    return None


def wrong_problem(view: View, seat: Seat) -> Msg | None:
    """Why this team leader may not say "Wrong" now: its own note (in ``view`` as
    ``fill`` shows it) has the picture just placed on the very tier it lies on."""
    note, pending = view.get("note"), view.get("pending")
    if view.get("mode") != "team" or not isinstance(note, list) \
            or not isinstance(pending, Mapping):
        return None
    picture = pending.get("picture")
    found = next((p for p in view.get("pictures") or []
                  if isinstance(p, Mapping) and p.get("id") == picture), None)
    if found is None or picture not in note or not is_tier(found.get("tier")) \
            or note.index(picture) != found["tier"]:
        return None
    return msg("Your note has {picture} on {tier}: it lies right, so you cannot say "
               "\u201cWrong\u201d.", picture=picture_word(str(picture),
                                                         str(found.get("name") or picture)),
               tier=TIERS[found["tier"]])


def seal(view: View, seat: Seat, action: Mapping[str, Any],
         salt: bytes) -> tuple[Action, Secret] | None:
    """A plain note turned into what the host is sent (its commitment, with the faces
    and hint the table must see) and the secret the laptop keeps; None for any other
    action. IllegalAction, before anything is sent, for a note the rules would not take,
    and for a team leader's "Wrong" that its note (in ``view``, filled) gives the lie."""
    if action.get("type") == "wrong" and view.get("game") == GAME_ID:
        problem = wrong_problem(view, seat)
        if problem:
            raise IllegalAction(problem)
        return None
    if action.get("type") != "note" or view.get("game") != GAME_ID:
        return None
    if _leads(view, seat) is None:
        raise IllegalAction(msg("Only the leader writes the note.") if view.get("mode") != "team"
                            else msg("Only the two leaders write notes."))
    if not writing(view, seat):
        raise IllegalAction(msg("The note for this round is already written.")
                            if view.get("phase") not in WRITING
                            else msg("You have already written your note."))
    problem = note_problem(view, action)
    if problem:
        raise IllegalAction(problem)
    tiers = list(action["tiers"])
    sealed = commitment(tiers, salt)
    commit: Action = {"type": "commit", "commitment": sealed}
    cards = [c for c in view.get("cards") or [] if isinstance(c, list) and len(c) == 4]
    if view.get("mode") == "cooperative":
        if cards:
            commit["faces"] = [front if front in tiers else back for front, _, back, _ in cards]
        if "hint" in action:
            commit["hint"] = {"tier": action["hint"], "picture": tiers[action["hint"]]}
    secret: Secret = {"commitment": sealed, "tiers": tiers, "salt": salt.hex(),
                      "mode": view.get("mode"), "round": view.get("round"), "seat": seat}
    return commit, secret


# --- answering what the rules ask -------------------------------------------------------

TIME_UP = {"cooperative": "Time is up: the board is submitted as it lies.",
           "competitive": "Time is up for {late}: unplaced pictures count as wrong."}
"""The log line each mode's timer leaves when it ends the guessing (the keys)."""


def timed_out(view: View) -> str | None:
    """The key of the timer whose end the view's last log line tells (``"guess-2-1"``),
    or None: a laptop that saw that timer start can hold the host to its length."""
    log = view.get("log")
    last = log[-1] if isinstance(log, list) and log else None
    if not isinstance(last, Mapping) or last.get("key") != TIME_UP.get(str(view.get("mode"))):
        return None
    if view.get("mode") == "cooperative":
        return f"guess-{view.get('round')}-{view.get('attempt')}"
    return f"place-{view.get('round')}"


def _all_in(view: View, field: str) -> bool:
    """Whether every guesser is in ``field`` (cooperative: locked in; competitive:
    answered, a list of flags by seat)."""
    leader, players = view.get("leader"), view.get("players")
    if not isinstance(players, int) or not 0 < players <= 64:
        return False
    guessers = [s for s in range(players) if s != leader]
    found = view.get(field)
    if field == "answered":
        return isinstance(found, list) and len(found) == players \
            and all(found[s] is True for s in guessers)
    return isinstance(found, list) and set(guessers) <= set(
        s for s in found if isinstance(s, int))


def early(view: View, seat: Seat) -> Msg | None:
    """Why the host asks ``seat``'s laptop for its count or note before the public view
    shows the round's end (None when it does): every guesser locked in or placed, or
    the time up; cooperative, the count only after attempt 1 and the note only after
    the last attempt; team, both notes written and every picture taken."""
    mode, phase = view.get("mode"), view.get("phase")
    if mode == "team":
        commitments = view.get("commitments")
        if not (isinstance(commitments, list) and len(commitments) == 2
                and all(is_commitment(c) for c in commitments)):
            return msg("the other leader has not written their note yet")
        pictures = view.get("pictures")
        if not (isinstance(pictures, list) and len(pictures) == 2 * TIER_COUNT and all(
                isinstance(p, Mapping) and p.get("taken") is not None for p in pictures)) \
                or view.get("pending") is not None:
            return msg("not every picture is taken yet")
        return None
    if mode == "competitive":
        if not _all_in(view, "answered") and timed_out(view) is None:
            return msg("not every guesser has placed their picture yet")
        return None
    if not _all_in(view, "locked") and timed_out(view) is None:
        return msg("not every guesser has locked in yet")
    last_try = view.get("attempt") == 2 or "no-second" in (view.get("effects") or [])
    if phase == "count" and (last_try or view.get("attempt") != 1):
        return msg("no count is due in this attempt")
    if phase == "reveal" and not last_try and view.get("count") != TIER_COUNT:
        return msg("the second attempt has not been made yet")
    return None


def answer(view: View, seat: Seat, secret: Secret | None) -> Action | None:
    """What the laptop sends by itself now: the count or the note when the host asks
    ``seat``'s laptop for it, or a void when it has no note to answer from.
    IllegalAction (the laptop sends nothing) when the view does not show the round's
    end (``early``)."""
    if (view.get("game") != GAME_ID or view.get("over") or view.get("phase") not in ASKING
            or seat not in (view.get("actors") or []) or _leads(view, seat) is None):
        return None
    if secret is None or secret.get("commitment") != key(view, seat):
        return {"type": "void"}
    why = early(view, seat)
    if why is not None:
        raise IllegalAction(why)
    tiers = list(secret["tiers"])
    if view["phase"] == "count":
        board: Sequence[str | None] = list(view.get("board") or [None] * TIER_COUNT)
        return {"type": "count", "correct": correct_count(tiers, board)}
    return {"type": "reveal", "tiers": tiers, "salt": secret["salt"]}


def fill(view: View, seat: Seat | None, secret: Secret | None) -> View:
    """The view as the leader's table shows it: with the leader's own note."""
    if (secret is None or seat is None or view.get("note") is not None
            or secret.get("commitment") != key(view, seat)):
        return view
    return {**view, "note": list(secret["tiers"])}


def revealed(action: Mapping[str, Any]) -> Secret | None:
    """The secret a reveal in the log makes public, as the leader's laptop kept it (a
    replay of the finished game shows the leader's table with its note from the start
    of the round); None for any other action or a reveal that is not well formed."""
    if action.get("type") != "reveal":
        return None
    try:
        tiers, salt = reveal_fields(action)
    except IllegalAction:
        return None
    return {"commitment": commitment(tiers, bytes.fromhex(salt)), "tiers": list(tiers),
            "salt": salt}


def standin(view: View, seat: Seat) -> Action | None:
    """What the host does (as SYSTEM) for a stood-in leader whose note is needed now:
    the stand-in cannot know a note kept on the leader's laptop, so the round is void."""
    if (view.get("game") != GAME_ID or view.get("over")
            or view.get("phase") not in (*WRITING, *ASKING)
            or seat not in (view.get("actors") or []) or _leads(view, seat) is None):
        return None
    return {"type": "void", "seat": seat}


__all__ = ["Secret", "answer", "early", "fill", "key", "note_problem", "revealed", "seal",
           "standin", "timed_out", "writing", "wrong_problem"]
