"""What the game sends each connection: a snapshot each, or the delta after an action.

Pure (no sockets, no clock): given the session and the peers, it returns
(link, message or encoded body) pairs in the order they are to be sent, so
the work per action (one view per distinct viewer, one encoding per body) is
in one place to measure and to make faster.
"""

from __future__ import annotations

from collections.abc import Collection

from lanplay.game import Viewer
from lanplay.host.peers import Peers
from lanplay.net.carrier import Carrier
from lanplay.session import Session
from protocol.codec import pack
from protocol.messages import Snapshot, to_wire


def snapshots(session: Session, peers: Peers) -> list[tuple[Carrier, Snapshot]]:
    """Each connection's whole view, taken now (the next delta builds on it)."""
    return [(c.link, session.snapshot(peers.viewer(c))) for c in peers.conns]


def bodies(session: Session, viewers: Collection[Viewer]) -> dict[Viewer, bytes]:
    """Each distinct viewer's delta since what it was last sent, encoded once; viewers
    whose deltas are made of the very same op objects from the same base (a change they
    all see alike: ``Session.deltas`` shares the ops) share one body, packed once."""
    out: dict[Viewer, bytes] = {}
    made: dict[tuple[int, ...], bytes] = {}
    for viewer, d in session.deltas(viewers).items():
        same = (d.base, *map(id, d.ops))  # the deltas keep their ops alive: ids hold
        body = made.get(same)
        if body is None:
            body = made[same] = pack(to_wire(d))
        out[viewer] = body
    return out


def delta_bodies(session: Session, peers: Peers) -> list[tuple[Carrier, bytes]]:
    """Each connection's delta since what it was last sent, as an encoded body:
    computed once per distinct viewer and encoded once per viewer."""
    conns = list(peers.conns)
    found = bodies(session, {peers.viewer(c) for c in conns})
    return [(c.link, found[peers.viewer(c)]) for c in conns]
