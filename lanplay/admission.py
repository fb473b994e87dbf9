"""Who may come in and how fast they may talk: the room password and the rate limit.

Pure and clock-free (time is a parameter), so the host's defences are tested
without sockets. The password never crosses the network: the host sends a
fresh nonce, the peer answers with HMAC-SHA256 keyed by the password, and the
host compares in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import deque
from dataclasses import dataclass, field

NONCE_BYTES = 32


def new_nonce() -> str:
    """A fresh challenge: 32 random bytes as hex (a str, easy in any language)."""
    return secrets.token_hex(NONCE_BYTES)


def proof(password: str, nonce: str) -> str:
    """HMAC-SHA256(key = password as UTF-8, message = nonce as UTF-8), lower-case hex."""
    return hmac.new(password.encode(), nonce.encode(), hashlib.sha256).hexdigest()


def verify(password: str, nonce: str, answer: str) -> bool:
    """Whether ``answer`` proves knowledge of ``password`` for this ``nonce``."""
    return hmac.compare_digest(proof(password, nonce).encode(), answer.strip().lower()
                               .encode(errors="replace"))


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
