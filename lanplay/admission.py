"""Who may come in and how fast they may talk: the room password, the handshakes
waiting per address, the password throttle and the rate limit.

Pure and clock-free (time is a parameter), so the host's defences are tested
without sockets. The password never crosses the network, and the host does not
even keep it: it derives a room key from the password and a random salt
(PBKDF2-HMAC-SHA256), sends the salt and a fresh nonce in the challenge, and
the peer, which derives the same key, answers with HMAC-SHA256 of the nonce
under that key; the host compares in constant time. A save holds the salt and
the key, never the password.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
from collections import Counter, deque
from dataclasses import dataclass, field

NONCE_BYTES = 32
SALT_BYTES = 16
KEY_ROUNDS = 200_000
"""PBKDF2 iterations: about 35 ms once per room and per joining laptop, and as
many times that for each password someone tries offline on a recorded exchange."""
_ANSWER = re.compile(r"[0-9a-f]{64}")


def new_nonce() -> str:
    """A fresh challenge: 32 random bytes as hex (a str, easy in any language)."""
    return secrets.token_hex(NONCE_BYTES)


@functools.lru_cache(maxsize=16)
def derive_key(password: str, salt: str) -> bytes:
    """The room key: PBKDF2-HMAC-SHA256(password UTF-8, salt UTF-8, KEY_ROUNDS, 32 bytes).

    Cached, so a peer reconnecting every tenth of a second derives it once."""
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), KEY_ROUNDS, 32)


@dataclass(frozen=True)
class RoomKey:
    """What a host keeps to check answers: the salt it sends and the derived key."""

    salt: str
    key: bytes

    @classmethod
    def derive(cls, password: str, salt: str | None = None) -> RoomKey:
        salt = secrets.token_hex(SALT_BYTES) if salt is None else salt
        return cls(salt, derive_key(password, salt))

    def answer(self, nonce: str) -> str:
        """HMAC-SHA256(key, nonce as UTF-8) as 64 lower-case hex digits."""
        return hmac.new(self.key, nonce.encode(), hashlib.sha256).hexdigest()

    def verify(self, nonce: str, answer: str) -> bool:
        """Whether ``answer`` is exactly this nonce's answer (64 lower-case hex
        digits, nothing else: one spelling, so every host checks it the same way)."""
        if not _ANSWER.fullmatch(answer):
            return False
        return hmac.compare_digest(self.answer(nonce).encode(), answer.encode())


def proof(password: str | RoomKey, nonce: str, salt: str) -> str:
    """A peer's answer to a challenge ``(nonce, salt)``, from the password (or, for
    the host's own bots, the room key itself)."""
    key = password if isinstance(password, RoomKey) else RoomKey.derive(password, salt)
    return key.answer(nonce)


# --- handshakes waiting: one budget for all, a cap per address ---------------------------


@dataclass
class Handshakes:
    """The connections between connect and welcome (unproven: no password shown yet).

    Each address may keep ``per_address`` of them waiting, and all addresses
    together share ``total`` (less the connections already admitted). A connection
    over either count is not refused unheard, but it is "over": the host gives it a
    short time to say hello and lets it in with a seat's token, or when it can take
    another's place (``take_place``): that of a connection that has said nothing
    (the longest waiting, at its own address when that address is the one full),
    else, when the total is spent, of the one idle longest at the address holding
    the most. A connection that only holds a place never takes one, so connections
    that never speak, however many, from however many addresses and however fast
    they are opened again, cannot keep out one that speaks, nor push out a person's
    handshake; a flood that speaks costs its own connections first.
    """

    per_address: int = 8
    total: int = 80
    _since: dict[object, tuple[str, float]] = field(default_factory=dict, init=False)
    _count: Counter[str] = field(default_factory=Counter, init=False)
    _spoke: set[object] = field(default_factory=set, init=False)
    """The counted connections that have said something (their hello)."""

    def open(self, key: object, address: str, now: float, others: int = 0) -> bool:
        """Connection ``key`` from ``address`` starts its handshake at ``now``
        (``others``: admitted connections, which share ``total``): counted until
        ``close`` if within the caps, else over (False)."""
        if self._count[address] >= self.per_address \
                or len(self._since) >= self.total - others:
            return False
        self._since[key] = (address, now)
        self._count[address] += 1
        return True

    def take_place(self, key: object, address: str, now: float, others: int = 0
                   ) -> tuple[bool, object | None]:
        """Connection ``key``, over the caps, said its hello at ``now``: (whether it now
        holds a place, and the connection whose place it took, which the host must let
        go). At its own full address only a silent connection gives way."""
        if self._count[address] >= self.per_address:
            victims = [k for k, (at, _) in self._since.items()
                       if at == address and k not in self._spoke]
        elif len(self._since) < self.total - others:
            victims = []  # a place came free meanwhile
        elif self.total - others <= 0:
            return False, None
        else:
            victims = [k for k in self._since if k not in self._spoke] or list(self._since)
        evicted: object | None = None
        if victims:
            evicted = min(victims, key=lambda k: (-self._count[self._since[k][0]],
                                                  self._since[k][1]))
            self.close(evicted)
        elif self._count[address] >= self.per_address \
                or len(self._since) >= self.total - others:
            return False, None
        self._since[key] = (address, now)
        self._count[address] += 1
        self._spoke.add(key)
        return True, evicted

    def heard(self, key: object, now: float) -> None:
        """Connection ``key`` said something (its hello, its answer): not idle now."""
        entry = self._since.get(key)
        if entry is not None:
            self._since[key] = (entry[0], now)
            self._spoke.add(key)

    def holds(self, key: object) -> bool:
        """Whether ``key`` still has its slot (False once closed or evicted)."""
        return key in self._since

    def close(self, key: object) -> None:
        """A counted handshake ended (welcome, refusal, a dropped connection or an
        eviction); closing one twice is harmless."""
        entry = self._since.pop(key, None)
        if entry is None:
            return
        self._spoke.discard(key)
        self._count[entry[0]] -= 1
        if self._count[entry[0]] <= 0:
            del self._count[entry[0]]

    def waiting(self, address: str | None = None) -> int:
        return self._count[address] if address is not None else len(self._since)


# --- wrong passwords, per address ----------------------------------------------------------


@dataclass
class _Tries:
    failures: int = 0
    checking: int = 0
    next_at: float = 0.0
    locked_until: float = 0.0
    last: float = 0.0


@dataclass
class PasswordThrottle:
    """Wrong passwords from one address cost it more and more time; other
    addresses are never slowed.

    The first ``free`` answers are checked at once. After that each answer is
    checked only after a delay that doubles from ``first_delay`` up to
    ``max_delay``, one after another (answers sent in parallel queue up, and
    count as tries while they wait). ``lock_after`` wrong answers lock the
    address out for ``lock_for`` seconds; after that every try is delayed again
    and ``lock_after - free`` more wrong ones lock it again. A right answer
    forgets the address; so does ``forget_after`` seconds without a try.

    Many addresses together are bounded too: each check (right or wrong) takes a
    token from one of two host-wide buckets before it is made, ``fresh_*`` for an
    address with nothing on record (no wrong answer remembered, none waiting: a
    person's first try; an attacker's address is fresh once per ``forget_after``),
    ``known_*`` for the rest. A flood from forty addresses then gets about sixty
    answers checked in fifteen seconds instead of four hundred, and a newcomer with
    the password, being fresh, never queues behind the flood's known addresses.
    """

    free: int = 5
    first_delay: float = 0.5
    max_delay: float = 4.0
    lock_after: int = 10
    lock_for: float = 60.0
    forget_after: float = 600.0
    max_addresses: int = 4096
    fresh_rate: float = 20.0
    fresh_burst: float = 20.0
    known_rate: float = 0.5
    known_burst: float = 10.0
    _tries: dict[str, _Tries] = field(default_factory=dict, init=False)
    _buckets: dict[bool, tuple[float, float]] = field(default_factory=dict, init=False)
    """Per lane (fresh or not): the tokens left and when they were counted."""

    def _of(self, address: str, now: float) -> _Tries:
        tries = self._tries.get(address)
        if tries is not None and tries.checking == 0 and tries.locked_until <= now \
                and now - tries.last > self.forget_after:
            tries = None
        if tries is None:
            if len(self._tries) >= self.max_addresses:
                self._prune(now)
            tries = self._tries[address] = _Tries(last=now)
        return tries

    def _prune(self, now: float) -> None:
        """Drop the addresses that are neither locked nor waiting, oldest first."""
        idle = sorted((t.last, a) for a, t in self._tries.items()
                      if t.checking == 0 and t.locked_until <= now)
        for _, address in idle[:max(1, len(idle) // 2)]:
            del self._tries[address]

    def locked(self, address: str, now: float) -> float:
        """Seconds the address is still locked out (0.0: it is not)."""
        tries = self._tries.get(address)
        return max(0.0, tries.locked_until - now) if tries is not None else 0.0

    def reserve(self, address: str, now: float) -> float | None:
        """An answer from ``address`` arrived at ``now``: the time to check it, or
        None when the address is locked out (refuse it unchecked)."""
        tries = self._of(address, now)
        tries.last = now
        if tries.locked_until > now:
            return None
        before = tries.failures + tries.checking
        tries.checking += 1
        if before < self.free:
            return now
        delay = min(self.max_delay, self.first_delay * 2 ** (before - self.free))
        tries.next_at = max(now, tries.next_at) + delay
        return tries.next_at

    def fresh(self, address: str, now: float) -> bool:
        """Whether ``address`` has nothing on record: no wrong answer remembered, no
        answer waiting (ask before ``reserve``, which puts one on record)."""
        tries = self._tries.get(address)
        if tries is None:
            return True
        forgotten = tries.checking == 0 and tries.locked_until <= now \
            and now - tries.last > self.forget_after
        return forgotten or (tries.failures == 0 and tries.checking == 0)

    def pace(self, fresh: bool, now: float) -> float:
        """A reserved answer is due at ``now``: ``now`` if its lane's host-wide bucket
        had a token (taken: check it), else the time the next token comes (ask again
        then; answers waiting together take turns, none books a time ahead)."""
        rate, burst = (self.fresh_rate, self.fresh_burst) if fresh \
            else (self.known_rate, self.known_burst)
        tokens, then = self._buckets.get(fresh, (burst, now))
        tokens = min(burst, tokens + max(0.0, now - then) * rate)
        if tokens >= 1.0 - 1e-9:  # a token's worth, give or take a rounding
            self._buckets[fresh] = (max(0.0, tokens - 1.0), now)
            return now
        self._buckets[fresh] = (tokens, now)
        return now + (1.0 - tokens) / rate

    def failed(self, address: str, now: float) -> None:
        """A reserved answer was checked and was wrong."""
        tries = self._of(address, now)
        tries.checking = max(0, tries.checking - 1)
        tries.failures += 1
        tries.last = now
        if tries.failures >= self.lock_after:
            tries.locked_until = now + self.lock_for
            tries.failures = self.free
            tries.next_at = tries.locked_until

    def passed(self, address: str) -> None:
        """A reserved answer was right: the address starts afresh."""
        self._tries.pop(address, None)

    def dropped(self, address: str) -> None:
        """A reserved answer was never checked (its connection went away)."""
        tries = self._tries.get(address)
        if tries is not None:
            tries.checking = max(0, tries.checking - 1)


# --- how fast an admitted peer may talk ---------------------------------------------------


@dataclass
class RateLimit:
    """A token bucket per connection, plus a flood detector over what it refused.

    ``rate`` tokens a second refill a bucket of ``burst``; each message a peer
    sends costs one. A message that finds the bucket empty is refused (the host
    answers it with ``rejected`` "rate" and does nothing else); more than
    ``flood_after`` refusals within ``flood_window`` seconds mark a flood, and
    the host closes that connection.
    """

    rate: float = 20.0
    burst: float = 40.0
    flood_after: int = 200
    flood_window: float = 10.0
    tokens: float = field(init=False)
    _last: float | None = field(default=None, init=False)
    _refused: deque[float] = field(default_factory=deque, init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def allow(self, now: float) -> bool:
        """Take one token if there is one; remember the refusal otherwise."""
        if self._last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self._refused.append(now)
        while self._refused and now - self._refused[0] >= self.flood_window:
            self._refused.popleft()
        return False

    def refund(self) -> None:
        """Give the token back: a move the game accepted is paced by the turn order
        already, so a fast but honest player (a bot) is never throttled."""
        self.tokens = min(self.burst, self.tokens + 1.0)

    def flooding(self) -> bool:
        """More than ``flood_after`` refusals inside the window."""
        return len(self._refused) > self.flood_after
