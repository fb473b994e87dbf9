"""``lanplay bench-load``: 48 people play and watch while one peer floods the host.

16 players and 32 spectators connect over real TCP on 127.0.0.1 to the real
Host and play Relay, a 16-seat turn-based game defined here for the purpose
(Alles klar? seats five at most; the catalogue names it only while the
benchmark runs). A 49th connection, a spectator, sends intents at 1000 a
second. Each move is timed from the acting player's intent to the delta being
applied at all 48 other peers.

Like laptops on a LAN, the host, the flooder and the honest peers run in
separate processes (the peers split over two), and the clock is the
system-wide monotonic one, so times taken in different processes compare.
Players move as soon as it is their turn, after 20 ms of "thinking", so moves
rarely overlap. The host saves after every move, fsync included, as it always
does (``save=False`` shows the network path alone).

Three runs of the same seeded game:

* **calm**: no flood, the floor the other two compare with;
* **flood**: the flood lasts the whole game (the host's flood cut-off is set
  out of reach), so the latency shows what a flood that never stops costs the
  others while the rate limit throttles it;
* **cut-off**: the host's default admission settings: the flooder is
  throttled, then thrown out with ``refused`` "flood".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any

from lanplay import games, rng
from lanplay.game import (
    Action,
    IllegalAction,
    Mode,
    Option,
    Result,
    Seat,
    Timer,
    View,
    Viewer,
)
from lanplay.host import Host, HostConfig
from lanplay.peer.peer import Peer
from lanplay.tools.figures import percentile

GAME_ID = "relay-bench"
PLAYERS = 16
SPECTATORS = 32
FLOOD_RATE = 1000.0
AIM_P99_MS = 20.0
TIMEOUT = 30.0
"""Seconds any one awaited step may take before the run is declared stuck."""
LOG_LINES = 8


# --- Relay: the benchmark's game ------------------------------------------------------


@dataclass(frozen=True)
class RelayState:
    players: int
    rounds: int
    seed: int
    turn: int
    moves: int
    scores: tuple[int, ...]
    secrets: tuple[int, ...]
    """Each seat's hidden number (1-9), drawn again after each of its moves."""
    log: tuple[str, ...] = ()


class Relay:
    """Seats take turns; a move scores 1-3 times the mover's secret number.

    Small, but shaped like a card game on the wire: every seat sees its own
    secret and nobody else's, so the host diffs 17 different views per move.
    """

    id = GAME_ID
    name = "Relay (benchmark)"
    summary = "In turn, each seat plays 1, 2 or 3 times its secret number."
    modes = (Mode("standard", "Standard", 2, PLAYERS),)
    options = (Option("rounds", "Rounds", 10, (1, 2, 4, 10, 20, 40)),)
    rules_help = summary

    def setup(self, players: int, mode: str, options: Mapping[str, Any], seed: int
              ) -> RelayState:
        secrets = tuple(_draw(seed, seat, 0) for seat in range(players))
        return RelayState(players, int(options["rounds"]), seed, 0, 0, (0,) * players, secrets)

    def _over(self, state: RelayState) -> bool:
        return state.moves >= state.players * state.rounds

    def actors(self, state: RelayState) -> frozenset[Seat]:
        return frozenset() if self._over(state) else frozenset({state.turn})

    def legal(self, state: RelayState, seat: Seat) -> list[Action]:
        if seat not in self.actors(state):
            return []
        return [{"type": "play", "n": n} for n in (1, 2, 3)]

    def check(self, state: RelayState, seat: Seat, action: Action) -> None:
        if self._over(state):
            raise IllegalAction("The game is over.")
        if seat != state.turn:
            raise IllegalAction(f"It is seat {state.turn + 1}'s turn.")
        if not isinstance(action, dict) or action.get("type") != "play":
            raise IllegalAction("Play a number: {'type': 'play', 'n': 1, 2 or 3}.")
        n = action.get("n")
        if type(n) is not int or n not in (1, 2, 3):
            raise IllegalAction("Play 1, 2 or 3.")

    def apply(self, state: RelayState, seat: Seat, action: Action) -> RelayState:
        self.check(state, seat, action)
        n = action["n"]
        gain = n * state.secrets[seat]
        scores = list(state.scores)
        scores[seat] += gain
        secrets = list(state.secrets)
        secrets[seat] = _draw(state.seed, seat, state.moves + 1)
        log = (*state.log, f"Seat {seat + 1} played {n} for {gain}.")[-LOG_LINES:]
        return replace(state, turn=(state.turn + 1) % state.players, moves=state.moves + 1,
                       scores=tuple(scores), secrets=tuple(secrets), log=log)

    def view(self, state: RelayState, viewer: Viewer) -> View:
        over = self._over(state)
        mine = state.secrets[viewer] if viewer is not None and 0 <= viewer < state.players \
            else None
        return {"game": GAME_ID, "turn": None if over else state.turn,
                "round": state.moves // state.players, "rounds": state.rounds,
                "scores": list(state.scores), "log": list(state.log), "mine": mine,
                "over": over}

    def result(self, state: RelayState) -> Result | None:
        if not self._over(state):
            return None
        best = max(state.scores)
        return Result(tuple(s for s, v in enumerate(state.scores) if v == best),
                      tuple(float(v) for v in state.scores))

    def timer(self, state: RelayState, options: Mapping[str, Any]) -> Timer | None:
        return None

    def order_independent(self, state: RelayState, seat: Seat, action: Action) -> bool:
        return False

    def hidden_variant(self, state: RelayState, viewer: Viewer, rnd: random.Random
                       ) -> RelayState:
        secrets = tuple(v if s == viewer else 1 + int(rnd.random() * 9)
                        for s, v in enumerate(state.secrets))
        return replace(state, secrets=secrets)

    def bot(self, view: View, seat: Seat, rnd: random.Random) -> Action | None:
        if view.get("over") or view.get("turn") != seat:
            return None
        mine = view.get("mine") or 1
        return {"type": "play", "n": 3 if mine >= 5 else 1 + int(rnd.random() * 3)}


def _draw(seed: int, seat: int, move: int) -> int:
    return 1 + rng.choice_index(9, rng.stream(seed, "secret", seat, move))


GAME = Relay()


@contextlib.contextmanager
def registered() -> Iterator[None]:
    """Relay in the catalogue for as long as the benchmark runs (in this process)."""
    saved = games.CATALOGUE
    if all(e.id != GAME_ID for e in saved):
        games.CATALOGUE = (*saved, games.Entry(GAME_ID, GAME.name, (2, PLAYERS),
                                               ("standard",), __name__))
    try:
        yield
    finally:
        games.CATALOGUE = saved


# --- the laptops, each a process ----------------------------------------------------


def _child(role: str, args: dict[str, Any], pipe: Connection) -> None:
    """A process's entry point: play ``role`` and send back what it measured."""
    with registered():
        try:
            result = asyncio.run(_ROLES[role](args, pipe))
        except BaseException as exc:  # the parent must hear why, not wait for ever
            pipe.send(("error", f"{role}: {type(exc).__name__}: {exc}"))
            raise
    pipe.send(("done", result))


async def _order(pipe: Connection) -> Any:
    """The parent's next word, without blocking the loop."""
    return await asyncio.get_running_loop().run_in_executor(None, pipe.recv)


async def _host_role(args: dict[str, Any], pipe: Connection) -> dict[str, Any]:
    config = HostConfig(host_name="load bench", bind="127.0.0.1", port=0, seed=args["seed"],
                        autostart=PLAYERS, data_dir=args["data_dir"], save=args["save"])
    if args["flood"] == "sustained":
        config.flood_after = 10**9
    host = Host(GAME_ID, options={"rounds": args["rounds"]}, config=config)
    pipe.send(("port", await host.start()))
    await _order(pipe)  # "stop"
    finished = host.session is not None and host.session.result is not None
    await host.stop("benchmark finished")
    return {"finished": finished, "flood_after": config.flood_after}


async def _peers_role(args: dict[str, Any], pipe: Connection) -> dict[str, Any]:
    """Some of the 48 honest peers: spectators first, then (when told) players."""
    port, think = args["port"], args["think"]
    sent: dict[int, int] = {}
    reached: dict[int, int] = {}
    count: dict[int, int] = {}
    members: list[Peer] = []
    tasks: list[asyncio.Task[None]] = []

    def follow(peer: Peer) -> None:
        last = [peer.state_id]

        def on_event(event: str, payload: Any) -> None:
            if event != "view":
                return
            now = time.monotonic_ns()
            for k in range(max(last[0] + 1, 1), peer.state_id + 1):
                reached[k] = max(reached.get(k, 0), now)
                count[k] = count.get(k, 0) + 1
            last[0] = max(last[0], peer.state_id)
        peer.listeners.append(on_event)

    async def join(name: str, spectate: bool) -> Peer:
        peer = Peer(name, spectate=spectate, bot=not spectate, reconnect_for=0,
                    contribution_seed=args["seed"] * 1000 + len(members))
        follow(peer)
        await peer.connect("127.0.0.1", port)
        members.append(peer)
        tasks.append(asyncio.create_task(peer.run()))
        return peer

    try:
        for i in range(args["spectators"]):
            await join(f"Watcher {args['tag']}.{i + 1}", True)
        pipe.send(("ready", None))
        await _order(pipe)  # "players"
        players = [await join(f"Player {args['tag']}.{i + 1}", False)
                   for i in range(args["players"])]
        tasks += [asyncio.create_task(_play(p, sent, think, args["seed"])) for p in players]
        await asyncio.wait_for(asyncio.gather(*(
            p.wait_until(lambda q: q.result is not None, args["timeout"]) for p in members)),
            args["timeout"])
        return {"sent": sent, "reached": reached, "count": count, "peers": len(members),
                "rejected": sum(len(p.rejections) for p in members),
                "resyncs": sum(p.resyncs for p in members)}
    finally:
        for peer in members:
            await peer.close("benchmark finished")
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _play(peer: Peer, sent: dict[int, int], think: float, seed: int) -> None:
    """Play ``peer``'s seat: on its turn, think a moment, then send the move."""
    chooser = random.Random(seed * 100 + (peer.seat or 0))
    acted = -1

    def on_event(event: str, payload: Any) -> None:
        nonlocal acted
        if event == "rejected":
            acted = -1

    def my_turn(p: Peer) -> bool:
        view = p.view
        return p.result is not None or (view is not None and view.get("turn") == p.seat
                                        and p.state_id != acted)

    peer.listeners.append(on_event)
    while True:
        await peer.wait_until(my_turn, TIMEOUT)
        if peer.result is not None:
            return
        await asyncio.sleep(think)
        assert peer.view is not None and peer.seat is not None
        action = GAME.bot(peer.view, peer.seat, chooser)
        if action is None:
            raise RuntimeError(f"seat {peer.seat} has no move on its turn")
        acted = peer.state_id
        sent[peer.state_id + 1] = time.monotonic_ns()
        peer.intent(action)


async def _flood_role(args: dict[str, Any], pipe: Connection) -> dict[str, Any]:
    """The hostile spectator: intents at ``rate`` a second from the first move on."""
    peer = Peer("Cousin", spectate=True, reconnect_for=0)
    await peer.connect("127.0.0.1", args["port"])
    runner = asyncio.create_task(peer.run())
    pipe.send(("ready", None))
    loop = asyncio.get_running_loop()
    ended: list[tuple[float, str]] = []  # when the host ended the connection, and how
    codes: dict[str, int] = {}  # every rejection (the peer keeps only its last 1000)

    def on_event(event: str, payload: Any) -> None:
        if event in ("refused", "closed") and not ended and peer.result is None:
            ended.append((loop.time(), event))
        elif event == "rejected":
            codes[payload.code] = codes.get(payload.code, 0) + 1

    peer.listeners.append(on_event)
    sent = 0
    try:
        await peer.wait_until(lambda p: p.view is not None, args["timeout"])
        started = loop.time()
        action = {"type": "play", "n": 3}
        while peer.result is None and not ended:
            due = int((loop.time() - started) * args["rate"])
            while sent < due:
                peer.intent(action)
                sent += 1
            await asyncio.sleep(0.002)
        seconds = loop.time() - started
        thrown = list(ended)  # our own goodbye below ends the connection too
        if not thrown:
            # The host answers every intent (a rejection: rate, or spectator), in order;
            # those still in flight when the game ended are counted too, not lost with
            # the goodbye (on a loaded machine the host lags by a hundred or more).
            with contextlib.suppress(TimeoutError):
                await peer.wait_until(lambda p: sum(codes.values()) >= sent, 10)
    finally:
        await peer.close("benchmark finished")
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    thrown_out = None
    if thrown:
        # "told": the refusal arrived. A host that closes a socket with the flood
        # still unread in it resets the connection, and the reset may overtake it.
        thrown_out = {"after_ms": round((thrown[0][0] - started) * 1e3, 1),
                      "told": thrown[0][1] == "refused", "reason": peer.closed_reason}
    return {"rate_per_s": args["rate"], "sent": sent, "seconds": round(seconds, 2),
            "rejected": codes, "thrown_out": thrown_out}


_ROLES = {"host": _host_role, "peers": _peers_role, "flood": _flood_role}


class _Laptop:
    """One child process and the pipe to it."""

    def __init__(self, role: str, args: dict[str, Any]) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.role = role
        self.pipe, theirs = ctx.Pipe()
        self.process = ctx.Process(target=_child, args=(role, args, theirs), daemon=True)
        self.process.start()

    def expect(self, what: str, timeout: float) -> Any:
        if not self.pipe.poll(timeout):
            raise RuntimeError(f"the {self.role} process sent no {what} in {timeout:g} s")
        kind, value = self.pipe.recv()
        if kind == "error":
            raise RuntimeError(value)
        if kind != what:
            raise RuntimeError(f"the {self.role} process sent {kind}, not {what}")
        return value

    def end(self) -> None:
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


def run_once(name: str, rounds: int, seed: int, flood: str | None, workers: int = 2,
             think: float = 0.02, save: bool = True) -> dict[str, Any]:
    """One game of Relay: a host, ``workers`` processes sharing the 48 honest peers, and
    (``flood``: "sustained" or "default") a flooding peer, each a process of its own.

    "sustained" sets the host's flood cut-off out of reach; "default" keeps the
    host's own admission settings.
    """
    timeout = TIMEOUT + rounds * PLAYERS * (think + 0.2)
    laptops: list[_Laptop] = []
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="lanplay-load-") as folder:
            host = _Laptop("host", {"seed": seed, "rounds": rounds, "flood": flood,
                                    "data_dir": folder, "save": save})
            laptops.append(host)
            port = host.expect("port", TIMEOUT)
            crowd = []
            for w in range(workers):
                share = {"spectators": _share(SPECTATORS, workers, w),
                         "players": _share(PLAYERS, workers, w)}
                crowd.append(_Laptop("peers", {"port": port, "think": think, "seed": seed,
                                               "tag": w + 1, "timeout": timeout, **share}))
            laptops += crowd
            for laptop in crowd:
                laptop.expect("ready", TIMEOUT)
            flooder = None
            if flood is not None:
                flooder = _Laptop("flood", {"port": port, "rate": FLOOD_RATE,
                                            "timeout": timeout})
                laptops.append(flooder)
                flooder.expect("ready", TIMEOUT)
            for laptop in crowd:
                laptop.pipe.send("players")
            parts = [laptop.expect("done", timeout) for laptop in crowd]
            flood_report = flooder.expect("done", timeout) if flooder is not None else None
            host.pipe.send("stop")
            hosted = host.expect("done", TIMEOUT)
    finally:
        for laptop in laptops:
            laptop.end()
    return _summary(name, parts, flood_report, hosted, time.perf_counter() - started)


def _share(total: int, parts: int, index: int) -> int:
    return total // parts + (1 if index < total % parts else 0)


def _summary(name: str, parts: list[dict[str, Any]], flood: dict[str, Any] | None,
             hosted: dict[str, Any], seconds: float) -> dict[str, Any]:
    sent: dict[int, int] = {}
    reached: dict[int, int] = {}
    count: dict[int, int] = {}
    for part in parts:
        sent.update(part["sent"])
        for k, t in part["reached"].items():
            reached[k] = max(reached.get(k, 0), t)
            count[k] = count.get(k, 0) + part["count"][k]
    peers = sum(p["peers"] for p in parts)
    missing = [k for k in sent if count.get(k) != peers]
    if missing or not hosted["finished"]:
        raise RuntimeError(f"moves {missing[:5]} did not reach all {peers} peers"
                           if missing else "the game did not finish")
    samples = [(reached[k] - sent[k]) / 1e6 for k in sorted(sent)]
    out: dict[str, Any] = {
        "run": name, "players": PLAYERS, "spectators": SPECTATORS, "moves": len(samples),
        "p50_ms": round(percentile(samples, 50), 2), "p99_ms": round(percentile(samples, 99), 2),
        "max_ms": round(max(samples), 2), "mean_ms": round(sum(samples) / len(samples), 2),
        "others_rejected": sum(p["rejected"] for p in parts),
        "resyncs": sum(p["resyncs"] for p in parts), "seconds": round(seconds, 2),
    }
    if flood is not None:
        flood["cut_off_on"] = hosted["flood_after"] < 10**9
        out["flood"] = flood
    return out


# --- the command ----------------------------------------------------------------------


def measure(quick: bool = False, seed: int = 7, save: bool = True) -> dict[str, Any]:
    from lanplay.tools.figures import machine_info

    rounds = 2 if quick else 20
    started = time.perf_counter()
    machine = machine_info()
    runs = [run_once(name, rounds, seed, flood, save=save)
            for name, flood in (("calm", None), ("flood", "sustained"), ("cut-off", "default"))]
    worst = max(r["p99_ms"] for r in runs if r["run"] != "calm")
    machine["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    return {"bench": "lanplay-load", "game": GAME_ID, "mode": "quick" if quick else "full",
            "rounds": rounds, "saves": save, "flood_rate_per_s": FLOOD_RATE,
            "aim_p99_ms": AIM_P99_MS, "aim_met": worst < AIM_P99_MS, "machine": machine,
            "runs": runs, "seconds": round(time.perf_counter() - started, 2)}


def render(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [f"lanplay bench-load ({report['mode']}): {PLAYERS} players, {SPECTATORS} "
             f"spectators, 1 peer flooding {report['flood_rate_per_s']:g} intents/s; "
             f"{report['rounds']} rounds of {GAME_ID}; the host saves after each move: "
             f"{'yes' if report['saves'] else 'no'}",
             f"machine: {m['cpu']}, {m['nproc']} cores, {m['python']}; load "
             f"{m['loadavg_start']} -> {m['loadavg_end']}", "",
             f"{'run':<8} {'moves':>5} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}  flood"]
    for r in report["runs"]:
        flood = r.get("flood")
        text = "none"
        if flood:
            codes = ", ".join(f"{k} {v}" for k, v in sorted(flood["rejected"].items()))
            text = f"sent {flood['sent']}, rejected: {codes or 'none'}"
            out = flood["thrown_out"]
            if out:
                how = "refused: " + str(out["reason"]) if out["told"] else \
                    "connection reset before the refusal arrived"
                text += f"; thrown out after {out['after_ms']:g} ms ({how})"
        lines.append(f"{r['run']:<8} {r['moves']:>5} {r['p50_ms']:>7.2f} {r['p99_ms']:>7.2f} "
                     f"{r['max_ms']:>7.2f}  {text}")
    verdict = "met" if report["aim_met"] else "NOT met"
    lines += ["", f"aim: the others' p99 under {report['aim_p99_ms']:g} ms while flooded: "
                  f"{verdict}"]
    return "\n".join(lines)


def run_load_bench(as_json: bool = False, quick: bool = False, save: bool = True) -> int:
    """Measure and print; 0 unless the run broke (a missed aim is reported, not an error)."""
    report = measure(quick, save=save)
    print(json.dumps(report, indent=1) if as_json else render(report))
    return 0
