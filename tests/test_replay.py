"""Replays of finished games (``lanplay.replay``), compared with what the peers were sent.

Seeded bot games of every game and mode over real TCP: the replay built from the
host's history save, and the one built from the audit a peer kept, give every seat
and the spectator, at every state_id, exactly the view it received. Then the file
checks (a damaged, unfinished or foreign file is refused with a sentence), the list
of finished games, and ``lanplay replay`` printing a game.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from nethelpers import run
from replay_games import Played, play

from lanplay import cli, games
from lanplay.fair.digest import canonical
from lanplay.game import SYSTEM, resolve_options
from lanplay.replay import files
from lanplay.replay.model import Finished, Player, Replay, ReplayError, describe, result_text
from protocol.codec import pack


def same(a: Any, b: Any) -> bool:
    """Equal as the wire sees them: map order aside, types exact (1 is not 1.0)."""
    return pack(canonical(a)) == pack(canonical(b))


CASES = [("alles-klar", 3, None), ("ranking", 3, None), ("ranking-top", 3, None),
         ("ranagedon", 2, None), ("s-tier", 3, "cooperative"), ("s-tier", 4, "competitive"),
         ("s-tier", 4, "team")]


@pytest.mark.timeout(90)
@pytest.mark.parametrize(("game", "players", "mode"), CASES,
                         ids=[f"{g}-{m or 'standard'}-{p}p" for g, p, m in CASES])
def test_each_seat_and_the_spectator_replay_exactly_the_views_they_were_sent(
        game: str, players: int, mode: str | None, data_dir: Path) -> None:
    played: Played = run(play(game, players, mode, data_dir))
    assert set(played.verdicts.values()) == {"verified"}
    last = players - 1
    replays = {"history": files.open_replay(played.history)}
    for viewer in (last, None):  # a seat's laptop and a spectator's keep their audit
        path = files.keep_audit(played.audits[viewer], played.seats, viewer,
                                played.results[viewer], played.verdicts[viewer],
                                root=data_dir / f"laptop-{viewer}")
        replays[f"audit of {viewer}"] = files.open_replay(path)
    for source, replay in replays.items():
        assert replay.moves == len(played.audits[last].log)
        for viewer, views in played.views.items():
            # every state reached every laptop, from the deal to the end
            assert sorted(views) == list(range(replay.steps)), (source, viewer)
            for state_id, view in views.items():
                assert same(replay.view(state_id, viewer), view), \
                    f"{source}: {viewer}'s view at state {state_id}"
        assert same(replay.result.to_wire(), played.results[None])
    history = replays["history"]
    assert history.finished.kind == "history" and history.names == [
        s["name"] for s in played.seats]
    kept = replays[f"audit of {last}"]
    assert kept.finished.you == last and kept.finished.verdict == "verified"
    assert replays["audit of None"].finished.you is None
    # the shown views and what was hidden: each seat's table as its laptop showed it
    for step in range(history.steps):
        for seat, hidden in history.everything(step):
            view, public = history.shown(step, seat), history.view(step, None)
            for key, value in hidden.items():
                assert key not in public or not same(public[key], value)
                assert same(view[key], value)
    if game == "s-tier" and mode != "team":
        # the leader's note: never in any view before its reveal, yet its own table
        # showed it, and a replay shows it from the start of the round
        noted = [(step, seat) for step in range(history.steps) for seat in range(players)
                 if history.view(step, seat).get("note") is None
                 and history.shown(step, seat).get("note") is not None]
        assert noted, "the leader's table never showed its note"
        step, seat = noted[0]
        assert "note" in history.hidden(step, seat)
        assert all(history.view(step, s).get("note") is None for s in range(players))
    if game in ("alles-klar", "ranking", "ranking-top"):
        hands = history.everything(0)
        assert all("hand" in hidden for _, hidden in hands), hands
        assert all(history.view(0, None).get("hand") in (None, []) for _ in hands)


# --- one finished game for the file and command tests ---------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return run(play("alles-klar", 3, None, tmp_path_factory.mktemp("replay-data"), seed=5))


def edited(path: Path, out: Path, change: Any) -> Path:
    data = json.loads(path.read_text())
    change(data)
    out.write_text(json.dumps(data))
    return out


@pytest.mark.timeout(60)
def test_a_damaged_unfinished_or_foreign_file_is_refused_with_a_sentence(
        finished: Played, tmp_path: Path) -> None:
    def refused(path: Path) -> str:
        with pytest.raises(ReplayError) as caught:
            files.open_replay(path)
        reason = caught.value.reason
        assert reason.endswith(".") and "\n" not in reason and "Traceback" not in reason
        return reason

    source = finished.history
    assert "not a finished lanplay game" in refused(
        edited(source, tmp_path / "other.json", lambda d: d.clear()))
    (tmp_path / "cut.json").write_bytes(source.read_bytes()[:500])
    assert "not even JSON" in refused(tmp_path / "cut.json")
    assert "Cannot read" in refused(tmp_path / "missing.json")

    def unfinished(data: dict[str, Any]) -> None:
        data["phase"], data["result"] = "playing", None
        data["log"] = data["log"][:10]
        data["state_id"] = 10
    assert "has not finished" in refused(edited(source, tmp_path / "u.json", unfinished))

    def short(data: dict[str, Any]) -> None:  # a finished-looking save whose moves stop early
        data["log"] = data["log"][:-1]
        data["state_id"] -= 1
    assert "stop before the game ends" in refused(edited(source, tmp_path / "s.json", short))

    def gap(data: dict[str, Any]) -> None:  # the save's own check of itself
        data["log"] = data["log"][:-1]
    moves = len(finished.audits[0].log)
    assert refused(edited(source, tmp_path / "g.json", gap)) == (
        f"g.json is damaged (state_id is {moves} but the log has {moves - 1} moves).")

    def moved(data: dict[str, Any]) -> None:  # a card the seat did not hold
        first = next(e for e in data["log"] if e["action"].get("type") == "play")
        first["action"]["card"] = 10_000
    assert "does not follow the rules" in refused(edited(source, tmp_path / "m.json", moved))

    def reseeded(data: dict[str, Any]) -> None:
        data["seed"] += 1
    assert "its seed is not the one its shuffle gives" in refused(
        edited(source, tmp_path / "seed.json", reseeded))

    def rescored(data: dict[str, Any]) -> None:
        data["result"]["scores"][0] += 1
    assert "the result it records is not the one its moves give" in refused(
        edited(source, tmp_path / "r.json", rescored))

    # the peer's kept audit: the same checks
    kept = files.keep_audit(finished.audits[0], finished.seats, 0, finished.results[0],
                            "verified", root=tmp_path / "laptop")

    def swapped(data: dict[str, Any]) -> None:
        data["audit"]["values"][0] = data["audit"]["values"][1]
    reason = refused(edited(kept, tmp_path / "a1.json", swapped))
    assert "damaged" in reason or "not the one its moves give" in reason

    def broken(data: dict[str, Any]) -> None:
        data["audit"]["log"][3] = "move"
    assert "move 4 is not a seat and an action" in refused(
        edited(kept, tmp_path / "a2.json", broken))

    def no_end(data: dict[str, Any]) -> None:
        data["head"]["result"] = None
    assert "had not finished" in refused(edited(kept, tmp_path / "a3.json", no_end))


@pytest.mark.timeout(60)
def test_the_list_holds_each_finished_game_once_newest_first(finished: Played,
                                                            tmp_path: Path) -> None:
    root = finished.history.parents[2]
    assert files.finished_games(root)[0].path == finished.history
    # the host's own window kept its seat's audit of the same game: listed once
    files.keep_audit(finished.audits[0], finished.seats, 0, finished.results[0],
                     "verified", root=root)
    listed = files.finished_games(root)
    assert len(listed) == 1 and listed[0].kind == "history"
    only = listed[0]
    assert only.game == "alles-klar" and only.players == ("Bot 1", "Bot 2", "Bot 3")
    assert only.result.endswith(" won") or only.result.endswith("shared the win")
    assert only.scores.startswith(only.result + " (Bot 1 ")
    assert only.moves == len(finished.audits[0].log)
    # a laptop that only joined lists its audits; junk files are left out
    laptop = tmp_path / "laptop"
    older = files.keep_audit(finished.audits[1], finished.seats, 1, finished.results[1],
                             "verified", root=laptop, now=1_000_000)
    (files.audits_dir(laptop) / "junk.json").write_text("[1, 2]")
    other = files.keep_audit(finished.audits[2], finished.seats, 2, finished.results[2],
                             "verified", root=laptop)
    other_data = json.loads(other.read_text())
    other_data["head"]["secret"] = other_data["audit"]["secret"] = "ab" * 32  # another
    # game (it no longer replays)
    other.write_text(json.dumps(other_data))
    listed = files.finished_games(laptop)
    assert [i.path for i in listed] == [other, older]
    assert listed[1].kind == "audit" and listed[1].you == 1


# --- lanplay replay ------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_lanplay_replay_prints_the_game_as_a_seat_saw_it(
        finished: Played, capsys: pytest.CaptureFixture[str]) -> None:
    replay = files.open_replay(finished.history)
    assert cli.main(["replay", str(finished.history), "--seat", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Alles klar?, 3 players: Bot 1 (seat 1, bot)")
    assert "Seen from Bot 2's seat (seat 2)." in lines
    assert f"Move {replay.moves} (state {replay.moves}), by " \
        f"{replay.who(replay.mover(replay.moves))}" in lines
    for line in replay.log(replay.moves - 1, 1):  # every log line, with the names
        assert f"  {line}" in lines
    assert "  Bot 2 held: hand " in out and "  Bot 1 held:" not in out
    assert lines[-1] == f"The end. {replay.result_text()}."

    assert cli.main(["replay", str(finished.history), "--open"]) == 0
    opened = capsys.readouterr().out.splitlines()
    assert "Seen as a spectator saw it; everything open: what every seat held, at every " \
           "step." in opened
    for seat in range(3):  # every hand, at every step
        held = [line for line in opened if line.startswith(f"  Bot {seat + 1} held: hand ")]
        assert len(held) == replay.steps - sum(
            1 for step in range(replay.steps) if not replay.hidden(step, seat))

    assert cli.main(["replay", str(finished.history), "--seat", "4"]) == 2
    err = capsys.readouterr().err
    assert err == "lanplay: This game had 3 seats: --seat takes a number from 1 to 3.\n"


@pytest.mark.timeout(60)
def test_lanplay_replay_reads_a_kept_audit_and_refuses_a_bad_file_in_one_sentence(
        finished: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = files.keep_audit(finished.audits[None], finished.seats, None,
                            finished.results[None], "verified", host="Mia's laptop",
                            root=tmp_path)
    assert cli.main(["replay", str(kept)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("Hosted by Mia's laptop; played ")
    assert "Seen as a spectator saw it." in out
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": "world"}')
    assert cli.main(["replay", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("lanplay: notes.json is not a finished lanplay game: it is not "
                            "a host's history save nor an audit a laptop kept.\n")


# --- the model alone ---------------------------------------------------------------------


def bot_game(game_id: str, players: int, seed: int = 3) -> Finished:
    """A finished game played by the rules' bots, no host (pure)."""
    import random

    game = games.load(game_id)
    options = resolve_options(game, {})
    state = game.setup(players, game.modes[0].id, options, seed)
    rng = random.Random(seed)
    log: list[tuple[int, dict[str, Any]]] = []
    while game.result(state) is None:
        for seat in sorted(game.actors(state)):
            action = game.bot(game.view(state, seat), seat, rng)
            if action is not None:
                break
        else:
            timer = game.timer(state, options)
            assert timer is not None
            seat, action = SYSTEM, timer.action
        state = game.apply(state, seat, action)
        log.append((seat, action))
    return Finished(game_id, game.modes[0].id, {}, seed,
                    tuple(Player(n) for n in ("Ada", "Ben", "Cleo")[:players]), tuple(log))


@pytest.mark.timeout(30)
def test_the_model_names_what_each_seat_held_in_words() -> None:
    replay = Replay(bot_game("ranking", 3))
    hidden = replay.hidden(0, 0)
    assert set(hidden) >= {"hand"} and "you" not in hidden
    words = replay.describe(hidden["hand"], 0)
    assert words == ", ".join(card["name"] for card in replay.view(0, 0)["hand"])
    assert replay.hidden(0, 1)["hand"] != hidden["hand"]
    assert replay.added(0) == replay.log(0)
    assert replay.log(replay.moves)[:len(replay.log(3))] == replay.log(3)
    assert all("{" not in line for line in replay.log(replay.moves))  # names filled in
    with pytest.raises(IndexError):
        replay.view(replay.steps, None)


def test_describe_and_the_result_line() -> None:
    assert describe([{"id": 3, "value": 7, "numerals": [3]}, None, True]) == \
        "7 (III), nothing, yes"
    assert describe(["pic-1", "pic-9"], {"pic-1": "Tiger"}) == "Tiger, pic-9"
    assert describe({"title": "Song", "number": 4}) == "Song 4"
    assert describe(list(range(500))).endswith("\u2026")
    names = ["Ada", "Ben", "Cleo"]
    assert result_text({"winners": [1], "scores": [3, 5, 1]}, names) == \
        "Ben won (Ada 3, Ben 5, Cleo 1)"
    assert result_text({"winners": [0, 2], "scores": [2.5, 1, 2.5]}, names) == \
        "Ada and Cleo shared the win (Ada 2.5, Ben 1, Cleo 2.5)"
    assert result_text({"winners": [0, 2], "scores": [4, 1, 4],
                        "detail": {"teams": [[0, 2], [1]]}}, names).startswith(
        "Green team (Ada and Cleo) won")
    assert result_text({"winners": [0, 1, 2], "scores": [0, 0, 0]}, names) == \
        "A draw (Ada 0, Ben 0, Cleo 0)"  # not "Ada, Ben and Cleo shared the win"
    assert result_text({"winners": [0, 1, 2], "scores": [1, 1, 1],
                        "detail": {"outcome": "victory"}}, names) == \
        "Victory: everyone won together"
    assert result_text({"winners": [], "scores": []}, names) == "Nobody won"


def test_a_card_s_numerals_are_said_as_the_card_prints_them() -> None:
    """"Everything open" read "3 (numerals 2)" for Alles klar?'s 3 with a II."""
    from lanplay.replay.model import describe

    assert describe({"id": 4, "value": 3, "numerals": [2]}) == "3 (II)"
    assert describe([{"value": 9, "numerals": [1, 4]}, {"value": 5}]) == "9 (I, IV), 5"


def test_a_list_of_games_names_the_mode_of_a_game_that_has_several() -> None:
    """Help -> Replays listed "S-tier" three times without the mode."""
    from ui.words.game_words import game_and_mode

    assert game_and_mode("s-tier", "team") == "S-tier (Team)"
    assert game_and_mode("s-tier", "cooperative") == "S-tier (Cooperative)"
    assert game_and_mode("ranking", "standard") == "Ranking"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("change", [
    ("result", "winners", 1.5), ("result", "scores", 7), ("saved", None, 1e308),
    ("saved", None, float("nan")), ("result", "winners", None)],
    ids=["winners-float", "scores-int", "saved-1e308", "saved-nan", "no-winners"])
def test_one_damaged_kept_audit_is_left_out_of_the_list_and_refused_in_a_sentence(
        finished: Played, tmp_path: Path, change: tuple[str, str | None, Any]) -> None:
    """Issue 23, finding 7: an audit file with winners a float, scores an int, or its
    time 1e308 or NaN aborted the window's Help -> Replays (TypeError, OverflowError,
    ValueError) on every opening, and ``lanplay replay`` printed a traceback. The list
    now leaves it out, the good one beside it stays, and opening it says why."""
    laptop = tmp_path / "laptop"
    good = files.keep_audit(finished.audits[1], finished.seats, 1, finished.results[1],
                            "verified", root=laptop, now=1_000_000)
    bad = files.keep_audit(finished.audits[2], finished.seats, 2, finished.results[2],
                           "verified", root=laptop)
    data = json.loads(bad.read_text())
    head = data["head"]  # what a list reads of a kept audit
    part, key, value = change
    if key is None:
        head[part] = value
    elif value is None:
        del head[part][key]
    else:
        head[part][key] = value
    bad.write_text(json.dumps(data))  # (NaN as JSON's NaN, as Python writes it)
    listed = files.finished_games(laptop)
    assert [i.path for i in listed] == [good]
    for item in listed:  # what the window's list does with each
        time.strftime("%Y-%m-%d %H:%M", time.localtime(item.played))
    with pytest.raises(ReplayError, match="damaged audit"):
        files.open_replay(bad)
    done = subprocess.run([sys.executable, "-m", "lanplay", "replay", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "Traceback" not in done.stderr + done.stdout
