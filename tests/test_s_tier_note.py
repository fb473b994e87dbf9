"""The S-tier leader's note stays on the leader's laptop, over real TCP.

Every game here is played by bot peers through a real host on 127.0.0.1,
each peer with its own ``Keeper`` (its laptop). The host's state, its save
and its journal are searched after every action for each note that is not
yet revealed (its salt, and the note as a list); a laptop that lies about
its count is named at the reveal; a leader whose window is closed and
reopened reveals from the note file it left; a stand-in for an away leader
voids the round.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nethelpers import LOCAL, host_until, join_tasks, run

from lanplay.game import Action, Seat, Secrets, View
from lanplay.games.s_tier.common import commitment
from lanplay.host import Host, HostConfig
from lanplay.messages import render
from lanplay.peer.bots import drive
from lanplay.peer.keeper import Keeper, NoteFiles
from lanplay.peer.peer import Peer
from lanplay.store.saves import plain

ROOT = Path(__file__).resolve().parents[1]


class Recording(Keeper):
    """A laptop that also lists every note it ever kept (the test's side of the truth)."""

    def __init__(self, folder: Path | None = None) -> None:
        super().__init__(folder)
        self.every: list[dict[str, Any]] = []

    def _keep(self, secret: dict[str, Any]) -> None:
        self.every.append(dict(secret))
        super()._keep(secret)


class Liar(Recording):
    """A dishonest laptop: it tells one more (or five fewer) than the pictures right."""

    def answer(self, secrets: Secrets, view: View, seat: Seat,
               secret: dict[str, Any] | None) -> Action | None:
        action = super().answer(secrets, view, seat, secret)
        if action is not None and action["type"] == "count":
            action = {**action, "correct": (action["correct"] + 1) % 6}
        return action


def config(tmp: Path, players: int, **kw: Any) -> HostConfig:
    kw.setdefault("seed", 3)
    return HostConfig(host_name="note test", bind=LOCAL, port=0, autostart=players,
                      bot_delay=0.0, data_dir=tmp / "host", **kw)


async def seat(host: Host, name: str, keeper: Keeper, seed: int,
               tasks: list[asyncio.Task[Any]], **kw: Any) -> Peer:
    peer = Peer(name, bot=True, **kw)
    await peer.connect(LOCAL, host.port)
    tasks.append(asyncio.create_task(drive(peer, seed, keeper=keeper)))
    return peer


def drop_once_committed(peer: Peer) -> asyncio.Future[str]:
    """Pull the peer's cable the moment its view shows its own commitment (before it can
    hear that the board is in): the commitment it sent, once dropped."""
    dropped: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def on_event(event: str, payload: Any) -> None:
        view = peer.view
        if event == "view" and view is not None and view.get("leader") == peer.seat \
                and view.get("commitment") and not dropped.done():
            peer.drop()
            dropped.set_result(view["commitment"])

    peer.listeners.insert(0, on_event)  # before its keeper or its bot can answer
    return dropped


def lists(value: Any, path: str = "") -> Iterator[list[Any]]:
    """Every list in a JSON value."""
    for found, _where in placed_lists(value, path):
        yield found


def placed_lists(value: Any, path: str = "") -> Iterator[tuple[list[Any], str]]:
    """Every list in a JSON value, with where it is."""
    if isinstance(value, list):
        yield value, path
        for i, item in enumerate(value):
            yield from placed_lists(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from placed_lists(item, f"{path}.{key}")


def saved(host: Host) -> tuple[str, list[Any]]:
    """The host's save and its journal as they are on disk now: the text, and each
    JSON document (the save, then every journal line)."""
    path = host.saver.path
    if path is None or not path.exists():
        return "", []
    text = path.read_text()
    found = [json.loads(text)]
    journal = path.with_name(path.name + ".journal")
    if journal.exists():
        lines = journal.read_text()
        text += lines
        found += [json.loads(line) for line in lines.splitlines() if line.strip()]
    return text, found


def public_orders(state: Any) -> list[list[Any]]:
    """The picture orders the table shows anyway (a note written in that order
    is found in them without being told)."""
    faces = getattr(state, "faces", ())
    return [list(f) for f in faces] if faces and isinstance(faces[0], tuple) else [list(faces)]


class Search:
    """After every action: no unrevealed note (salt or list) in the host's state, save or
    journal; every revealed one in the save (the search finds what is there)."""

    def __init__(self, host: Host, keepers: list[Recording]) -> None:
        self.host, self.keepers = host, keepers
        self.checked = self.found = 0
        self.problems: list[str] = []
        host.listeners.append(self.on_event)

    def on_event(self, what: str) -> None:
        session = self.host.session
        if what != "action" or session is None or session.result is not None:
            return
        state_text = json.dumps(plain(session.state))
        on_disk, documents = saved(self.host)
        revealed = {e.action.get("salt") for e in session.log if e.action["type"] == "reveal"}
        # The host learns a note only from what a laptop sends: every action it was sent
        # and kept (the save's log, the journal), reveals aside. The state is made from
        # those actions, so a note in it came through one; its salt is searched there too.
        homes = [e["action"] for document in documents
                 for e in (document.get("log", []) if "log" in document else [document])
                 if isinstance(e, dict) and isinstance(e.get("action"), dict)
                 and e["action"].get("type") != "reveal"]
        # A note that equals what everyone sees (a board guessed right, the faces in the
        # order dealt) is found there without being told; only the salt tells then.
        # A later note may equal an earlier round's revealed one (competitive has few
        # arrangements): what was revealed is public too.
        public = [*public_orders(session.state), *lists(session.view(None)),
                  *(found for e in session.log if e.action["type"] == "reveal"
                    for found in lists(e.action))]
        for keeper in self.keepers:
            for secret in keeper.every:
                salt, note = secret["salt"], secret["tiers"]
                if salt in revealed:
                    self.found += salt in on_disk
                    continue
                self.checked += 1
                where = f"state {session.state_id}, note {note}"
                if salt in state_text or salt in on_disk:
                    self.problems.append(f"{where}: its salt is on the host")
                if note not in public:
                    at = [w for n, home in enumerate(homes) for found, w in placed_lists(home)
                          if found == note]
                    if at:
                        self.problems.append(f"{where}: the note is on the host at {at[:3]} "
                                             f"(in the actions it kept)")


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("mode", "players"), [("cooperative", 3), ("competitive", 5),
                                               ("team", 4)])
def test_the_host_never_holds_a_note_before_its_reveal(mode: str, players: int,
                                                       tmp_path: Path) -> None:
    async def main() -> None:
        options = {"guess_seconds": 0} if mode == "cooperative" else {}
        host = Host("s-tier", mode, options, config(tmp_path, players))
        await host.start()
        keepers = [Recording(tmp_path / f"laptop-{i}") for i in range(players)]
        search = Search(host, keepers)
        tasks: list[asyncio.Task[Any]] = []
        try:
            for i, keeper in enumerate(keepers):
                await seat(host, f"Bot {i}", keeper, 40 + i, tasks)
            await asyncio.wait_for(host.finished.wait(), 40)
        finally:
            await host.stop("test over")
            await join_tasks(tasks)
        session = host.session
        assert session is not None and session.result is not None
        kinds = {e.action["type"] for e in session.log}
        assert {"commit", "reveal"} <= kinds and "note" not in kinds
        notes = sum(len(k.every) for k in keepers)
        reveals = sum(e.action["type"] == "reveal" for e in session.log)
        assert notes >= 2 and reveals == notes  # every note written was revealed
        assert not search.problems, "\n".join(search.problems[:5])
        assert search.checked > 10 and search.found > 0
        for i in range(players):  # each laptop tidied its notes away
            assert list((tmp_path / f"laptop-{i}").glob("*.json")) == [], i

    run(main())


@pytest.mark.timeout(60)
def test_a_laptop_that_lies_about_the_count_is_named_to_everyone(tmp_path: Path) -> None:
    async def main() -> None:
        host = Host("s-tier", "cooperative", {"guess_seconds": 0}, config(tmp_path, 3))
        await host.start()
        tasks: list[asyncio.Task[Any]] = []
        try:
            peers = [await seat(host, f"Bot {i}", Liar(), 60 + i, tasks) for i in range(3)]
            await asyncio.wait_for(host.finished.wait(), 40)
            session = host.session
            assert session is not None
            for peer in peers:
                await peer.wait_until(lambda p: p.state_id == session.state_id, 10)
        finally:
            await host.stop("test over")
            await join_tasks(tasks)
        state = session.state
        counts = [e for e in session.log if e.action["type"] == "count"]
        assert counts, "no first attempt was counted"
        named = [line for line in state.log if "but the note gives" in line.text]
        assert len(named) == len(counts)  # every lie caught, none missed
        leaders = [line.seats[0] for line in state.log if "leads and writes" in line.text]
        assert {line.seats[0] for line in named} <= set(leaders)
        for peer in peers:  # named to everyone: in every peer's own log
            assert peer.view is not None
            texts = [render(entry, (), "en") for entry in peer.view["log"]]
            assert sum("is named for it" in t for t in texts) == len(counts)

    run(main())


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lost", [False, True], ids=["file-kept", "file-lost"])
def test_a_leader_whose_window_closes_reveals_from_its_file_when_it_is_back(
        tmp_path: Path, lost: bool) -> None:
    """Back with its note file, the leader's laptop counts and reveals; back without it
    (another laptop, a wiped disk), it gives the round up and says so."""
    async def main() -> None:
        host = Host("s-tier", "cooperative", {"guess_seconds": 0},
                    config(tmp_path, 3, standin_after=None))
        await host.start()
        tasks: list[asyncio.Task[Any]] = []
        folders = [tmp_path / f"laptop-{i}" for i in range(3)]
        try:
            peers = []
            for i in range(3):
                peer = Peer(f"Bot {i}", bot=True, reconnect_for=0)
                await peer.connect(LOCAL, host.port)
                peers.append(peer)
            await host_until(host, lambda h: h.session is not None)
            session = host.session
            assert session is not None
            leader = session.state.leader
            gone = peers[leader]
            dropped = drop_once_committed(gone)  # the window closes: it never comes back
            for i, peer in enumerate(peers):
                tasks.append(asyncio.create_task(drive(peer, 80 + i,
                                                       keeper=Recording(folders[i]))))
            key = await asyncio.wait_for(dropped, 10)
            await asyncio.wait_for(tasks[leader], 10)
            assert NoteFiles(folders[leader]).load(key) is not None  # the note is on disk
            # The guessers lock in; the host waits for the leader's laptop to count.
            await host_until(host, lambda h: session.state.phase == "count")
            assert session.state.commitment == key
            again = Peer(gone.name, bot=True, token=gone.token)  # the window reopened
            await again.connect(LOCAL, host.port)
            folder = tmp_path / "another-laptop" if lost else folders[leader]
            tasks.append(asyncio.create_task(drive(again, 99, keeper=Recording(folder))))
            await asyncio.wait_for(host.finished.wait(), 40)
        finally:
            await host.stop("test over")
            await join_tasks(tasks)
        log = [line.text for line in session.state.log]
        if lost:
            void = next(e for e in session.log if e.action["type"] == "void")
            assert void.seat == leader and void.action == {"type": "void"}
            assert any("laptop no longer has the note: round 1 is void" in t for t in log)
            return
        assert not any("void" in t or "named" in t for t in log), log
        reveals = [e for e in session.log if e.action["type"] == "reveal"]
        first = next(e for e in reveals if e.seat == leader)
        assert commitment(first.action["tiers"], bytes.fromhex(first.action["salt"])) == key
        assert NoteFiles(folders[leader]).load(key) is None  # tidied after its round

    run(main())


@pytest.mark.timeout(60)
def test_a_stand_in_for_an_away_leader_voids_the_round_and_says_so(tmp_path: Path) -> None:
    async def main() -> None:
        host = Host("s-tier", "cooperative", {"guess_seconds": 0},
                    config(tmp_path, 3, standin_after=0.2))
        await host.start()
        tasks: list[asyncio.Task[Any]] = []
        try:
            peers = []
            for i in range(3):
                peer = Peer(f"Bot {i}", bot=True, reconnect_for=0)
                await peer.connect(LOCAL, host.port)
                peers.append(peer)
            await host_until(host, lambda h: h.session is not None)
            session = host.session
            assert session is not None
            leader = session.state.leader
            dropped = drop_once_committed(peers[leader])
            for i, peer in enumerate(peers):
                tasks.append(asyncio.create_task(drive(peer, 20 + i, keeper=Recording())))
            await asyncio.wait_for(dropped, 10)
            await asyncio.wait_for(host.finished.wait(), 40)
            watcher = peers[(leader + 1) % 3]
            await watcher.wait_until(lambda p: p.state_id == session.state_id, 10)
        finally:
            await host.stop("test over")
            await join_tasks(tasks)
        voids = [e for e in session.log if e.action["type"] == "void"]
        assert voids and all(e.seat == -1 and e.action["seat"] == leader for e in voids)
        said = [line for line in session.state.log if "cannot know a note" in line.text]
        assert len(said) == len(voids) and said[0].seats == (leader,)
        assert re.search(r"round 1 is void", said[0].text)
        assert watcher.view is not None and any(
            "cannot know a note" in render(entry, (), "en") for entry in watcher.view["log"])
        assert session.result is not None

    run(main())


def test_the_protocol_document_s_test_vector_is_what_the_code_computes() -> None:
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    section = text[text.index("### The S-tier note"):]
    salt = re.search(r"salt \(hex\): `([0-9a-f]{32})`", section)
    note = re.search(r"note: `(\[.*?\])`", section)
    hashed = re.search(r"bytes hashed \(hex\): `([0-9a-f]+)`", section)
    expected = re.search(r"commitment: `([0-9a-f]{64})`", section)
    assert salt and note and hashed and expected, "the vector is not in PROTOCOL.md"
    tiers = json.loads(note.group(1))
    from lanplay.games.s_tier.common import NOTE_TAG, note_bytes

    assert (NOTE_TAG + bytes.fromhex(salt.group(1)) + note_bytes(tiers)).hex() == \
        hashed.group(1)
    assert commitment(tiers, bytes.fromhex(salt.group(1))) == expected.group(1)


@pytest.mark.timeout(60)
def test_the_search_finds_a_planted_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A laptop that also sends its note with the commitment, and a host that takes it,
    are caught: the note is then in the journal before its reveal."""
    from lanplay.games.s_tier import coop, secret

    honest_seal, honest_check = secret.seal, coop.check_commit

    def leaky_seal(view: View, seat: Seat, action: Any, salt: bytes) -> Any:
        sealed = honest_seal(view, seat, action, salt)
        if sealed is None:
            return None
        commit, kept = sealed
        return {**commit, "leak": list(kept["tiers"])}, kept

    def lenient_check(state: Any, seat: Seat, act: Any) -> None:
        honest_check(state, seat, {k: v for k, v in act.items() if k != "leak"})

    monkeypatch.setattr(secret, "seal", leaky_seal)
    monkeypatch.setattr(coop, "check_commit", lenient_check)
    with pytest.raises(AssertionError, match="the note is on the host"):
        test_the_host_never_holds_a_note_before_its_reveal("cooperative", 3, tmp_path)


@pytest.mark.timeout(60)
def test_a_host_killed_after_a_commit_resumes_and_the_note_is_revealed(tmp_path: Path) -> None:
    """The save and journal of a killed host hold the commitment only; the resumed host
    replays it from the log, and the leader's laptop reveals when it is back."""
    from lanplay.store import folders

    async def main() -> None:
        cfg = config(tmp_path, 3)
        host = Host("s-tier", "cooperative", {"guess_seconds": 0}, cfg)
        await host.start()
        keepers = [Recording() for _ in range(3)]
        tasks: list[asyncio.Task[Any]] = []
        killed = asyncio.Event()

        def kill(what: str) -> None:
            session = host.session
            if what == "action" and session is not None and session.state.commitment \
                    and not killed.is_set():
                host.kill()
                killed.set()

        host.listeners.append(kill)
        resumed: Host | None = None
        try:
            for i, keeper in enumerate(keepers):
                await seat(host, f"Bot {i}", keeper, 10 + i, tasks)
            await asyncio.wait_for(killed.wait(), 20)
            (path,) = folders.saves_dir(cfg.data_dir).glob("*.json")
            on_disk = path.read_text() + path.with_name(path.name + ".journal").read_text()
            (secret,) = [s for k in keepers for s in k.every]
            assert secret["commitment"] in on_disk and secret["salt"] not in on_disk
            resumed = Host.resume(path, config(tmp_path, 3))
            await resumed.start()
            await asyncio.wait_for(resumed.finished.wait(), 40)
        finally:
            await host.stop("test over")
            if resumed is not None:
                await resumed.stop("test over")
            await join_tasks(tasks)
        session = resumed.session
        assert session is not None and session.result is not None
        first = next(e for e in session.log if e.action["type"] == "reveal")
        assert first.action["salt"] == secret["salt"]
        assert not any("void" in line.text for line in session.state.log)

    run(main())


@pytest.mark.timeout(60)
def test_with_nobody_left_at_the_table_the_host_waits_instead_of_voiding_every_round(
        tmp_path: Path) -> None:
    """Every laptop gone: the stand-ins play, but void no round (nobody would see it,
    and round after round would be void); the first person back lets the game go on."""
    async def main() -> None:
        host = Host("s-tier", "cooperative", {"guess_seconds": 0},
                    config(tmp_path, 3, standin_after=0.05))
        await host.start()
        tasks: list[asyncio.Task[Any]] = []
        try:
            peers = []
            for i in range(3):
                peer = Peer(f"Bot {i}", bot=True, reconnect_for=0)
                await peer.connect(LOCAL, host.port)
                peers.append(peer)
            await host_until(host, lambda h: h.session is not None)
            session = host.session
            assert session is not None
            leader = session.state.leader
            dropped = drop_once_committed(peers[leader])
            for i, peer in enumerate(peers):
                tasks.append(asyncio.create_task(drive(peer, 30 + i, keeper=Recording())))
            await asyncio.wait_for(dropped, 10)
            for peer in peers:
                peer.drop()
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
            await host_until(host, lambda h: all(s.standin for s in h.room.seats))
            await host_until(host, lambda h: session.state.phase == "count")
            waited = session.state_id
            await asyncio.sleep(0.3)  # many stand-in moves' worth: none may come
            assert session.state_id == waited and session.state.phase == "count"
            other = peers[(leader + 1) % 3]
            back = Peer(other.name, bot=True, token=other.token)
            await back.connect(LOCAL, host.port)
            tasks.append(asyncio.create_task(drive(back, 7, keeper=Recording())))
            await host_until(host, lambda h: session.state.round == 2)
        finally:
            await host.stop("test over")
            await join_tasks(tasks)
        assert any("cannot know a note" in line.text for line in session.state.log)

    run(main())
