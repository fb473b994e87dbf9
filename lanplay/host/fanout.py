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
    """Each distinct viewer's delta since what it was last sent, encoded once."""
    return {v: pack(to_wire(d)) for v, d in session.deltas(viewers).items()}


def delta_bodies(session: Session, peers: Peers) -> list[tuple[Carrier, bytes]]:
    """Each connection's delta since what it was last sent, as an encoded body:
    computed once per distinct viewer and encoded once per viewer."""
    conns = list(peers.conns)
    found = bodies(session, {peers.viewer(c) for c in conns})
    return [(c.link, found[peers.viewer(c)]) for c in conns]
