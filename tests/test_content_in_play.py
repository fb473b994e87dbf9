"""A group hosts with its own pack: the game draws from it, the peers receive it,
their bots score its pictures and their tables can draw them.

Real host, real peers over TCP on 127.0.0.1; the host and the peers keep their
pictures in different folders, as on different laptops.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from content_samples import SVG, png_bytes, write_pack

from lanplay.content import bot_score, in_play
from lanplay.host import Host, HostConfig
from lanplay.peer.bots import drive
from lanplay.peer.peer import Peer

PICTURES = 30


def big_pack_toml() -> tuple[str, dict[str, bytes]]:
    """A pack of 30 pictures (so Ranking's hands surely hold some) and two questions."""
    lines = ['name = "Garden party"', ""]
    files: dict[str, bytes] = {}
    for i in range(PICTURES):
        kind = "svg" if i % 2 else "png"
        lines += ["[[pictures]]", f'id = "thing-{i}"', f'name = "Thing {i}"',
                  f'file = "thing-{i}.{kind}"', f"scores = {{ value = {i % 11} }}", ""]
        files[f"thing-{i}.{kind}"] = SVG if kind == "svg" else png_bytes(16, 16, (i, 90, 90, 255))
    lines += ["[[questions]]", 'text = "What would the gardener miss most?"', 'axis = "value"',
              "", "[[topics]]", 'text = "Best thing to find under a hedge"', 'axis = "value"']
    return "\n".join(lines) + "\n", files


@pytest.fixture
def garden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("LANPLAY_DATA_DIR", str(tmp_path / "host-data"))
    monkeypatch.setenv("LANPLAY_CACHE_DIR", str(tmp_path / "peer-cache"))
    toml, files = big_pack_toml()
    folder = write_pack(tmp_path / "host-data" / "packs" / "garden", toml, files)
    yield folder
    in_play.forget()


def test_hosting_with_a_pack_that_is_not_there_says_so_before_any_game(
        garden: Path) -> None:
    with pytest.raises(ValueError, match="'orchard' cannot be used"):
        Host("ranking", options={"pack": "orchard"}, config=HostConfig(port=0))


def test_a_broken_pack_is_refused_with_the_reason_from_its_file(garden: Path) -> None:
    (garden / "pack.toml").write_text("name = \n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"'garden' cannot be used: (?!it is not in)"):
        Host("ranking", options={"pack": "garden"}, config=HostConfig(port=0))


@pytest.mark.timeout(60)
def test_a_ranking_game_with_a_pack_is_played_by_peers_that_receive_it(garden: Path) -> None:
    seen: set[str] = set()

    async def scenario() -> tuple[Host, list[Peer]]:
        host = Host("ranking", options={"pack": "garden"},
                    config=HostConfig(bind="127.0.0.1", port=0, seed=5, autostart=3,
                                      save=False))
        assert [o.pack["id"] for o in host.pictures.offers()] == ["garden"]
        in_play.forget()  # from here on only what the peers receive is known
        port = await host.start()
        peers = [Peer(f"P{i}", bot=True) for i in range(3)]

        def watch(peer: Peer) -> Any:
            def on_event(event: str, payload: Any) -> None:
                view = peer.view
                if event == "view" and view is not None:
                    seen.update(t["id"] for t in view.get("hand", []))
                    seen.update(s["picture"] for s in view.get("row", []))
            return on_event

        tasks = []
        try:
            for i, peer in enumerate(peers):
                peer.listeners.append(watch(peer))
                await peer.connect("127.0.0.1", port)
                tasks.append(asyncio.create_task(drive(peer, seed=i)))
            await asyncio.wait_for(host.finished.wait(), 45)
        finally:
            await host.stop()
            await asyncio.gather(*tasks, return_exceptions=True)
        return host, peers

    host, peers = asyncio.run(scenario())
    assert host.results and host.results[0].winners
    mine = {i for i in seen if i.startswith("garden/")}
    assert mine, "the custom pictures never reached a hand or the row"
    for peer in peers:
        assert "garden" in peer.pictures.packs
    # The peers registered what they received: a bot on a peer scores a custom
    # picture by its own axis scores, from the peers' cache, not the host's folder.
    picture = in_play.picture("garden/thing-10")
    assert picture is not None and garden not in picture.path.parents
    high = bot_score("garden/thing-10", [["value", 1.0]], random.Random(1), noise=0)
    low = bot_score("garden/thing-0", [["value", 1.0]], random.Random(1), noise=0)
    assert (high, low) == (10, 0)
