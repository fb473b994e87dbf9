"""Fair play every laptop can check: a shuffle nobody chose, and an audit at the end.

Pure (no sockets, no clock, no Qt), so every rule of it is tested without a
network; the host (``lanplay.host.seeds``, ``lanplay.host.flow``) and the
peer (``lanplay.peer.peer``) only move its messages.

- ``seed``: the host's commitment, the contributions, the seed they give, and
  the host's bookkeeping of one exchange (``Exchange``).
- ``digest``: a small digest of each view a peer received, per state_id
  (a peer keeps these while it plays, not the views).
- ``audit``: the audit the host sends with the game's end, and its check: the
  replay of the whole game with this laptop's own rules.
- ``witness``: what a peer notes during a game and the verdict at its end; the
  same code checks a recorded peer offline (``lanplay verify``).

The audit holds the seed's parts, the options and the full action log, which
is all a replay of the game needs (``audit.replay``).
"""
