"""The custom picture packs this room shares with its peers.

Each pack the game's options name is offered to every peer, now and as they
join; a peer asks for the pictures its cache lacks and is answered by hash
(``lanplay.content.transfer``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lanplay.content import discover, in_play
from lanplay.content.model import Pack
from lanplay.content.transfer import PictureServer
from lanplay.host.peers import Peers


class SharedPacks:
    def __init__(self, peers: Peers) -> None:
        self.peers = peers
        self.server = PictureServer()
        """Custom packs shared with the peers, pictures by hash."""

    def share(self, content_pack: Pack) -> None:
        """Offer a custom pack to every peer, now and as they join."""
        offer = self.server.add(content_pack)
        in_play.register(content_pack)
        for conn in self.peers.conns:
            conn.link.send(offer)

    def share_named(self, options: Mapping[str, Any]) -> None:
        """Share the custom pack the game's options name (``pack``), if not yet shared.

        ValueError says why a named pack cannot be used, so a host never starts
        a game its peers could not draw.
        """
        for pack_id in in_play.pack_ids(options):
            if any(o.pack.get("id") == pack_id for o in self.server.offers()):
                continue
            found = discover()
            try:
                content_pack = found.pack(pack_id)
            except KeyError:
                why = next((e.problem for e in found.errors if e.file.parent.name == pack_id
                            or e.file.name == pack_id), "it is not in the packs folder")
                raise ValueError(f"The pack {pack_id!r} cannot be used: {why}.") from None
            self.share(content_pack)
