"""The authoritative host: a TCP server around one Room and its Session.

Everything here is moving bytes and scheduling: the rules of the room live in
``lanplay.room``, the rules of the game in the game module, and what each
peer may see in ``lanplay.session``. A bad frame costs only that connection,
never the host or the other peers; every accepted action is saved before any
peer hears of it, so a host killed at any moment resumes where its peers left
off.

The parts, one job each (``server.py`` builds them and hands each only the
collaborators and callbacks it needs):

- ``server``: the ``Host`` itself: wiring, ``start``/``stop``/``kill``, ``resume``,
  and the public face (``room``, ``session``, ``conns``, ``port``, ``listeners``).
- ``config``: ``HostConfig`` and the limits; ``ports``: which pair of ports a room
  listens on (the game's and its web page's: 7531 and 7532, else the next pair up to
  7539 and 7540, and why); ``shared``: the two small records
  some parts share (``Status``: port and shutdown flags; ``Tokens``: seat keys).
- ``peers``: who is connected (``Conn``), the broadcast, the seat numbers.
- ``connections``: accepting a connection, the handshake (version, password,
  tokens), admission to a seat, and reading its messages under its rate limit.
- ``dispatch``: what each message of an admitted peer does.
- ``commands``: room commands (ready, bots, seats, the game, start) and the
  host's own bots.
- ``packs``: the custom picture packs shared with the peers.
- ``flow``: the game's flow: start, after each action (the game over and its
  audit), the game's timers and the clock; ``seeds``: the shuffle that makes each
  game's seed (the host's commitment, every seat's contribution: ``Shuffle``)
  and where the host's own random bytes come from (``SeedSource``).
- ``fanout``: the frames each connection is sent (snapshots, deltas).
- ``away``: away seats and their stand-in bots.
- ``saving``: the save file, and handing each change to the outbox (write,
  then publish).
- ``announce``: the zeroconf announcement and the heartbeats.
- ``handover``: the room outlives this laptop: handing it to another laptop, naming a
  deputy, and learning the room moved on (a term higher elsewhere); ``deputy``: the
  deputy's copy, each move sent before any peer is told of it, bounded in what it may
  leave unanswered.

When a save fails (a full disk) the outbox holds what it was for, ``Saver``
tells ``Play.hold``, which undoes the held moves, refuses them
(``disk_full``) and pauses until ``Saver.commit(full=True)`` succeeds again.
The per-address handshake caps and the password throttle are enforced by
``Reception.serve`` and ``Reception._password_ok``; their bookkeeping is the
pure ``lanplay.admission``.

Where coming work goes:

- Fair play is built (``lanplay.fair`` holds its pure logic): ``Play.start_game``
  begins ``seeds.Shuffle``, contributions come in through ``dispatch``, and the
  audit goes out after the GameOver (``Play.audit``). Replays of a finished game
  start from the same audit (seed, options, log: ``lanplay.fair.audit.replay``).
- Faster deltas: ``fanout.delta_bodies`` (and ``fanout.snapshots``) are the
  whole per-action fan-out work, pure; ``lanplay bench``'s host-work figure
  times the same steps.
"""

from lanplay.host.config import DEFAULT_PORT, MAX_PENDING, HostConfig
from lanplay.host.dispatch import MAX_CHAT
from lanplay.host.peers import Conn
from lanplay.host.seeds import LocalSeeds, SeedSource
from lanplay.host.server import Host

__all__ = ["DEFAULT_PORT", "MAX_CHAT", "MAX_PENDING", "Conn", "Host", "HostConfig",
           "LocalSeeds", "SeedSource"]
