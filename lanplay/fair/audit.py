"""The audit at the end of a game, and its check on a peer's own laptop.

With ``game_over`` the host sends every peer the options, its secret, every
contribution and the full action log (``messages``). Each peer replays the game
with its own copy of the rules from the seed those give and checks (``check``):

(a) the secret matches the commitment the peer saw before the deal, and the
    contributions are the ones announced (its own among them);
(b) every action was legal when it was made (the seat could act, a timer was
    running for the host's own actions, and the rules' ``check`` passes);
(c) after every action the view the replay gives the peer's seat is the view
    it was sent at that state_id (compared by ``digest``);
(d) the result is the replay's result.

The first thing that does not match is the verdict, with its state_id.
Seed, options and log are also all a replay of the finished game needs
(``replay``).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lanplay import games
from lanplay.fair import digest
from lanplay.fair.seed import Fairness, commitment, derive_seed, from_hex
from lanplay.game import SYSTEM, Game, IllegalAction, mode_of, resolve_options, seats_problem
from protocol.codec import FROM_HOST, pack
from protocol.messages import Audit

PART_BYTES = 512 * 1024
"""Most packed log bytes in one audit message: a long game's log comes in parts,
each well under the 1 MiB frame limit."""
PART_ENTRIES = FROM_HOST.array_len // 2
PART_CONTAINERS = FROM_HOST.containers * 4 // 5
PART_ITEMS = FROM_HOST.items * 4 // 5
"""And well inside what a peer decodes in one frame (``protocol.codec.FROM_HOST``):
the log's array, the maps and arrays in it, their items and entries."""

MAX_MOVES = 200_000
"""More moves than any game has (the conformance suite's stuck-game limit is 20,000):
a peer gathers no longer audit, so a hostile host cannot fill its memory."""

MAX_AUDIT_BYTES = 8 * 1024 * 1024
"""Most packed log bytes a peer gathers for one audit: a real game's audit is 2-25 KB,
a 20,000-move stuck game's about 1 MB. Without it 1,500 parts of 1 MiB each took a peer
to 1.4 GB (issue 23, finding 5)."""

VERIFIED = "verified"


# --- the host's side: the audit as messages ---------------------------------------------


def messages(fair: Fairness, rules: str, mode: str, options: Mapping[str, Any],
             log: Sequence[tuple[int, Mapping[str, Any]]],
             part_bytes: int = PART_BYTES) -> list[Audit]:
    """The audit of a finished game, in as many parts as its log needs (one, mostly)."""
    entries = [[seat, dict(action)] for seat, action in log]
    parts: list[tuple[int, list[Any]]] = []
    start, size, containers, items = 0, 0, 0, 0
    for index, entry in enumerate(entries):
        cost = len(pack(entry))
        boxes, members = _shape(entry)
        if index > start and (size + cost > part_bytes or index - start >= PART_ENTRIES
                              or containers + boxes > PART_CONTAINERS
                              or items + members > PART_ITEMS):
            parts.append((start, entries[start:index]))
            start, size, containers, items = index, 0, 0, 0
        size, containers, items = size + cost, containers + boxes, items + members
    parts.append((start, entries[start:]))
    return [Audit(fair.game, rules, mode, dict(options), fair.secret.hex(), fair.hex_values(),
                  list(fair.drawn), chunk, at, len(entries)) for at, chunk in parts]


def _shape(value: Any) -> tuple[int, int]:
    """(maps and arrays, their items and entries) in ``value``, every level counted."""
    boxes = members = 0
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            boxes, members = boxes + 1, members + len(node)
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            boxes, members = boxes + 1, members + len(node)
            stack.extend(node)
    return boxes, members


# --- the peer's side: the parts put together ---------------------------------------------


@dataclass
class Gathered:
    """An audit's parts as they arrive; ``whole`` once the log is complete."""

    first: Audit | None = None
    log: list[Any] = field(default_factory=list)
    size: int = 0
    """Packed bytes of the log gathered so far (``MAX_AUDIT_BYTES`` at most)."""

    def add(self, msg: Audit) -> Audit | None:
        """Add a part; the whole audit once the last part is in, else None. A part
        out of order or disagreeing with the first starts the gathering over; an
        audit longer than any game (in moves or in bytes) raises ValueError."""
        if msg.moves > MAX_MOVES or msg.at + len(msg.log) > MAX_MOVES:
            self.drop()
            raise ValueError(f"The host's audit claims {max(msg.moves, msg.at)} moves, "
                             f"more than any game has.")
        head = self.first
        if msg.at == 0 or head is None or _header(head) != _header(msg) \
                or msg.at != len(self.log):
            self.drop()
            self.first = head = msg
            if msg.at != 0:
                self.first = None
                return None
        self.size += len(pack(msg.log))
        if self.size > MAX_AUDIT_BYTES:
            self.drop()
            raise ValueError(f"The host's audit is larger than {MAX_AUDIT_BYTES // 2**20} "
                             f"MB, more than any game needs.")
        self.log.extend(msg.log)
        if len(self.log) < head.moves:
            return None
        whole = Audit(head.game, head.rules, head.mode, head.options, head.secret,
                      head.values, head.drawn, self.log, 0, len(self.log))
        self.first, self.log, self.size = None, [], 0
        return whole

    def drop(self) -> None:
        """Forget the parts gathered (a new audit, a lost connection, one too big)."""
        self.first, self.log, self.size = None, [], 0


def _header(msg: Audit) -> tuple[Any, ...]:
    return (msg.game, msg.rules, msg.mode, pack(digest.canonical(msg.options)), msg.secret,
            tuple(msg.values), tuple(msg.drawn), msg.moves)


# --- what the peer saw, and the verdict -------------------------------------------------


@dataclass
class Seen:
    """What one peer noted during one game: all its check compares the audit with."""

    game: int
    commitment: str | None = None
    before_deal: bool = False
    """The commitment came before the contributions: the peer can vouch for the shuffle."""
    announced: list[str] | None = None
    drawn: list[int] | None = None
    sent: bytes | None = None
    """This laptop's own contribution (None: it sent none, or it is not known offline)."""
    viewer: int | None = None
    views: dict[int, bytes] = field(default_factory=dict)
    """state_id -> the digest of the view received at it."""
    conflicts: list[tuple[int, bytes]] = field(default_factory=list)
    """A second, different view received for a state_id already noted."""
    problems: list[tuple[int, str]] = field(default_factory=list)
    """Mismatches seen while playing (the commitment changed, ...): (state_id, what)."""
    final: int | None = None
    """The state_id the game_over named."""
    result: Any = None

    def saw(self, state_id: int, record: bytes) -> None:
        if len(self.views) > MAX_MOVES:  # a hostile host's endless game: note no more
            if not self.problems:
                self.problems.append((state_id, f"the host showed more than {MAX_MOVES} "
                                                f"states, more than any game has."))
            return
        old = self.views.setdefault(state_id, record)
        if old != record and len(self.conflicts) < 64 \
                and (state_id, record) not in self.conflicts:  # the first few tell enough
            self.conflicts.append((state_id, record))


@dataclass(frozen=True)
class Verdict:
    """The outcome of one peer's check of one game."""

    ok: bool
    reason: str = ""
    """What does not match, in a sentence (empty when ``ok``)."""
    state_id: int | None = None
    """The first state_id that diverges (0: the deal or the shuffle)."""
    moves: int = 0
    states: int = 0
    """How many views were compared with the replay."""
    late: bool = False
    """This laptop did not see the commitment before the contributions."""
    drawn: tuple[int, ...] = ()
    game: int = 0
    """The game's number in its room."""

    def summary(self) -> str:
        """``"verified"``, or where and what does not match (selfplay's ``audit`` key)."""
        return VERIFIED if self.ok else self.reason

    def line(self, names: Sequence[str] = ()) -> str:
        """The verdict for the person, as the end screen shows it."""
        if not self.ok:
            return f"Checked on this laptop: this game does not add up. {self.reason}"
        if self.late:
            return ("Checked on this laptop: every move followed the rules (this laptop "
                    "joined after the shuffle, so it cannot vouch for it)")
        if self.drawn:
            who = [names[s] if 0 <= s < len(names) else f"seat {s + 1}" for s in self.drawn]
            return ("Checked on this laptop: every move followed the rules; the shuffle "
                    f"came from everyone but {_and(who)}, for whom the host drew (no "
                    "answer in time)")
        return ("Checked on this laptop: the shuffle came from everyone, every move "
                "followed the rules")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


class _Mismatch(Exception):
    def __init__(self, state_id: int | None, reason: str) -> None:
        super().__init__(reason)
        self.state_id = state_id
        self.reason = reason


def _at(state_id: int) -> str:
    return "At the deal (state 0)" if state_id == 0 else f"At state {state_id}"


def check(audit: Audit, seen: Seen) -> Verdict:
    """Replay ``audit`` with this laptop's rules and compare it with ``seen``, at once
    (``lanplay verify``, selfplay); a window's peer runs ``checking`` in slices."""
    steps = checking(audit, seen)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            verdict: Verdict = done.value
            return verdict


def checking(audit: Audit, seen: Seen) -> Generator[None, None, Verdict]:
    """``check``, yielding after every move, so that whoever runs it can stop between
    any two and let an event loop turn: a legal game of 200,000 moves takes seconds to
    replay (16 s in one piece on the thread a window shares with its connection)."""
    compared = [0]
    late = seen.commitment is None or not seen.before_deal
    try:
        for state_id, problem in seen.problems:
            raise _Mismatch(state_id, f"{_at(state_id)}: {problem}")
        fair = _shuffle(audit, seen)
        moves = yield from _replay_and_compare(audit, fair, seen, compared)
    except _Mismatch as exc:
        return Verdict(False, exc.reason, exc.state_id, len(audit.log), compared[0],
                       late, game=audit.game)
    return Verdict(True, "", None, moves, compared[0], late, tuple(audit.drawn), audit.game)


def _shuffle(audit: Audit, seen: Seen) -> Fairness:
    """(a): the secret against the commitment, the contributions against the announced."""
    deal = "At the deal (state 0)"
    if audit.game != seen.game:
        raise _Mismatch(0, f"{deal}: the audit is for game {audit.game}, not game "
                           f"{seen.game}.")
    secret = from_hex(audit.secret)
    if secret is None:
        raise _Mismatch(0, f"{deal}: the host's secret is not 32 bytes of hex.")
    if seen.commitment is not None and commitment(secret) != seen.commitment:
        raise _Mismatch(0, f"{deal}: the secret the host revealed does not match the "
                           f"commitment it made before the deal.")
    values = [from_hex(v) for v in audit.values]
    if not values or any(v is None for v in values):
        raise _Mismatch(0, f"{deal}: a contribution in the audit is not 32 bytes of hex.")
    if seen.announced is not None:
        for index in range(max(len(values), len(seen.announced))):
            mine = seen.announced[index] if index < len(seen.announced) else None
            theirs = audit.values[index] if index < len(audit.values) else None
            if mine != theirs:
                raise _Mismatch(0, f"{deal}: seat {index + 1}'s contribution in the audit "
                                   f"is not the one announced before the deal.")
    if seen.drawn is not None and sorted(seen.drawn) != sorted(audit.drawn):
        raise _Mismatch(0, f"{deal}: the audit names other drawn contributions than were "
                           f"announced before the deal.")
    seat = seen.viewer
    if seen.sent is not None and seat is not None:
        if seat in audit.drawn:
            raise _Mismatch(0, f"{deal}: the host drew this laptop's contribution itself, "
                               f"though this laptop sent one.")
        if seat >= len(values) or values[seat] != seen.sent:
            raise _Mismatch(0, f"{deal}: the shuffle does not use this laptop's "
                               f"contribution.")
    drawn = [s for s in audit.drawn if isinstance(s, int)]
    return Fairness(audit.game, secret, tuple(v for v in values if v is not None),
                    tuple(drawn))


def _rules(audit: Audit, players: int) -> tuple[Game, str, dict[str, Any]]:
    try:
        game = games.load(audit.rules)
    except KeyError:
        raise _Mismatch(0, f"At the deal (state 0): this laptop does not have the rules "
                           f"of {audit.rules[:40]!r}.") from None
    try:
        mode = mode_of(game, audit.mode).id
        options = resolve_options(game, audit.options)
    except ValueError as exc:
        raise _Mismatch(0, f"At the deal (state 0): the audit's game settings are not "
                           f"valid ({exc}).") from None
    problem = seats_problem(game, mode, players)
    if problem:
        raise _Mismatch(0, f"At the deal (state 0): {problem}")
    return game, mode, options


def replay(audit: Audit) -> Iterator[tuple[int, Game, Any]]:
    """(state_id, rules, state) from the deal to the end, without checks: a finished
    game's replay (the audit is assumed to have been verified)."""
    values = [from_hex(v) or b"" for v in audit.values]
    secret = from_hex(audit.secret) or b""
    game, mode, options = _rules(audit, len(values))
    state = game.setup(len(values), mode, options, derive_seed(secret, values))
    yield 0, game, state
    for index, (seat, action) in enumerate(audit.log, start=1):
        state = game.apply(state, seat, action)
        yield index, game, state


def _replay_and_compare(audit: Audit, fair: Fairness, seen: Seen,
                        compared: list[int]) -> Generator[None, None, int]:
    """(b), (c) and (d), a move at a time; returns the number of moves checked."""
    players = len(fair.values)
    game, mode, options = _rules(audit, players)
    viewer = seen.viewer
    try:
        state = game.setup(players, mode, options, fair.seed)
    except Exception as exc:  # a rules bug, or settings the rules cannot deal
        raise _Mismatch(0, f"At the deal (state 0): the rules could not deal this game "
                           f"({type(exc).__name__}).") from None
    hashed = digest.Replayed()
    conflicts: dict[int, list[bytes]] = {}
    for sid, rec in seen.conflicts:
        conflicts.setdefault(sid, []).append(rec)

    def compare(state_id: int, state: Any) -> None:
        records = [*([seen.views[state_id]] if state_id in seen.views else []),
                   *conflicts.get(state_id, [])]
        if not records:
            return
        view = game.view(state, viewer)
        parts = hashed.parts(view)
        compared[0] += 1
        for rec in records:
            differ = digest.differences(rec, view, parts)
            if differ:
                whose = "the public view" if viewer is None else f"seat {viewer + 1}'s view"
                raise _Mismatch(state_id, f"{_at(state_id)}: {whose} this laptop was sent "
                                          f"differs from the replay in: {', '.join(differ)}.")

    compare(0, state)
    for state_id, entry in enumerate(audit.log, start=1):
        seat, action = _entry(entry, state_id)
        who = "the host's timer" if seat == SYSTEM else f"seat {seat + 1}"
        if game.result(state) is not None:
            raise _Mismatch(state_id, f"{_at(state_id)}: move {state_id} came after the "
                                      f"game had ended.")
        if seat == SYSTEM:
            if game.timer(state, options) is None:
                raise _Mismatch(state_id, f"{_at(state_id)}: move {state_id} is a timer's, "
                                          f"but no timer was running.")
        elif not 0 <= seat < players or seat not in game.actors(state):
            raise _Mismatch(state_id, f"{_at(state_id)}: move {state_id} by {who} was made "
                                      f"when it was not that seat's turn.")
        try:
            game.check(state, seat, action)
        except IllegalAction as exc:
            raise _Mismatch(state_id, f"{_at(state_id)}: move {state_id} by {who} was not "
                                      f"legal ({exc.reason})") from None
        except Exception as exc:
            raise _Mismatch(state_id, f"{_at(state_id)}: move {state_id} by {who} could not "
                                      f"be checked ({type(exc).__name__}).") from None
        try:
            state = game.apply(state, seat, action)
        except Exception as exc:
            raise _Mismatch(state_id, f"{_at(state_id)}: move {state_id} by {who} could not "
                                      f"be applied ({type(exc).__name__}).") from None
        compare(state_id, state)
        yield
    moves = len(audit.log)
    later = [sid for sid in [*seen.views, *conflicts] if sid > moves]
    if later:
        raise _Mismatch(moves + 1, f"{_at(moves + 1)}: this laptop was shown state "
                                   f"{min(later)}, but the audit's log ends at {moves}.")
    result = game.result(state)
    if result is None:
        raise _Mismatch(moves, f"{_at(moves)}: the audit's log ends before the game does.")
    if seen.final is not None and seen.final != moves:
        raise _Mismatch(min(seen.final, moves), f"{_at(min(seen.final, moves))}: the game "
                        f"ended at state {seen.final}, but the audit's log has {moves} moves.")
    if seen.result is not None and pack(digest.canonical(result.to_wire())) \
            != pack(digest.canonical(seen.result)):
        raise _Mismatch(moves, f"{_at(moves)}: the result the host announced is not the "
                               f"replay's (winners {list(result.winners)}, scores "
                               f"{[round(s, 3) for s in result.scores]}).")
    return moves


def _entry(entry: Any, state_id: int) -> tuple[int, dict[str, Any]]:
    if (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
            and not isinstance(entry[0], bool) and isinstance(entry[1], dict)
            and isinstance(entry[1].get("type"), str)):
        return entry[0], entry[1]
    raise _Mismatch(state_id, f"{_at(state_id)}: move {state_id} in the audit is not a "
                              f"seat and an action.")
