"""The end screen's headline says who won in words that fit the game, and the verdict
line says what this laptop's own check of the game found."""

from __future__ import annotations

from typing import Any

from ui.pages.game.end_screen import EndScreen, headline

NAMES = ["Mia", "Ben", "Ada", "Jonas"]


def test_one_winner_and_a_shared_win() -> None:
    assert headline({"winners": [1], "scores": [1, 5]}, NAMES, 0) == "Ben wins!"
    assert headline({"winners": [1], "scores": [1, 5]}, NAMES, 1) == "You win!"
    assert headline({"winners": [0, 2]}, NAMES, 3) == "Mia and Ada share the win!"
    assert headline({"winners": [0, 2]}, NAMES, 2) == "You share the win!"
    assert headline({"winners": []}, NAMES, 0) == "Nobody wins."


def test_a_team_wins_as_a_team() -> None:
    result = {"winners": [1, 3], "detail": {"teams": [[0, 2], [1, 3]]}}
    assert headline(result, NAMES, 0) == "Red team (Ben and Jonas) wins. Your team lost."
    assert headline(result, NAMES, 3) == "Your team wins: Red team (Ben and Jonas)!"
    assert headline(result, NAMES, None) == "Red team (Ben and Jonas) wins!"
    # Equal teams both "winning" is a draw, not one team's win nor everyone's.
    drawn = {"winners": [0, 1, 2, 3], "scores": [4, 4, 4, 4],
             "detail": {"teams": [[0, 2], [1, 3]]}}
    assert headline(drawn, NAMES, None) == "A draw: each team has 4 points."


def test_a_big_team_is_named_in_short() -> None:
    """Eight names took the headline over two lines, and at 1024x640 the 16 seats' score
    rows under it were squeezed below their text's height; the rows name everyone."""
    names = [f"P{i}" for i in range(16)]
    result = {"winners": list(range(0, 16, 2)),
              "detail": {"teams": [list(range(0, 16, 2)), list(range(1, 16, 2))]}}
    assert headline(result, names, None) == "Green team (P0, P2, P4 and 5 more) wins!"
    assert headline({"winners": [0, 1, 2, 3, 4]}, names, None) == \
        "P0, P1, P2 and 2 more share the win!"


def test_a_cooperative_game_is_won_or_lost_together() -> None:
    won = {"winners": [0, 1, 2], "detail": {"outcome": "victory"}}
    lost = {"winners": [], "detail": {"outcome": "defeat"}}
    assert headline(won, NAMES, 1) == "Victory: you all win together!"
    assert headline(lost, NAMES, 1) == "Defeat: you all lose together."
    assert headline(lost, NAMES, None) == "The table lost together."


# --- issue 31: every end screen says who won ----------------------------------------------


def shown(end: EndScreen) -> list[str]:
    from PyQt6.QtWidgets import QLabel

    return [w.text() for w in end.findChildren(QLabel) if not w.isHidden() and w.text()]


def marked(end: EndScreen) -> list[str]:
    """The names the score rows show in a winner's look (bold, or the "ok" colour)."""
    out = []
    for i in range(end.grid.count()):
        row, column, _, _ = end.grid.getItemPosition(i)
        item = end.grid.itemAt(i)
        widget = item.widget() if item is not None else None
        if row > 0 and column % 3 == 1 and widget is not None \
                and widget.property("role") in ("heading", "ok"):
            out.append(widget.text().replace("  (you)", ""))  # type: ignore[attr-defined]
    return out


SEATS = [{"name": n, "colour": "#E69F00"} for n in NAMES]


def s_tier_end(mode: str, players: int, seed: int) -> dict[str, Any]:
    """A real S-tier result: the game played to its end by the screenshots' driver."""
    from ui.tools.demos import s_tier as demo

    game = demo.Game(mode, players, seed=seed)
    game.until(lambda s: False)
    result = game.mod.result(game.state)
    assert result is not None
    return result.to_wire()


def test_a_cooperative_defeat_says_the_group_lost_and_why(qtbot: Any) -> None:
    end = EndScreen()
    qtbot.addWidget(end)
    end.show()
    lost = s_tier_end("cooperative", 4, 7)
    assert lost["detail"]["outcome"] == "defeat"
    for you, line in ((1, "Defeat: you all lose together."), (None, "The table lost together.")):
        end.show_result(lost, SEATS, you)
        assert end.headline.text() == line
        assert end.reason.isVisible()
        assert end.reason.text() == "The red token reached the star before the green one."
        assert marked(end) == []  # nobody in the winner's look
        assert not any("win" in t.lower() for t in shown(end) if t != end.reason.text())
    end.show_result({"winners": [1], "scores": [1, 3, 0, 0]}, SEATS, 1)
    assert not end.reason.isVisible()  # a game that gives no reason shows none


def test_four_players_tied_at_zero_is_a_draw_never_you_win(qtbot: Any) -> None:
    """The reported screen: S-tier competitive, 0 points each, "Du hast gewonnen!" for all."""
    end = EndScreen()
    qtbot.addWidget(end)
    end.show()
    tie = s_tier_end("competitive", 4, 12)  # seeded: no placement is ever right
    assert tie["winners"] == [0, 1, 2, 3] and tie["scores"] == [0.0] * 4
    for you in (0, 1, 2, 3, None):
        end.show_result(tie, SEATS, you)
        assert end.headline.text() == "A draw: everyone has 0 points."
        assert not any("You win" in t or "share the win" in t for t in shown(end))
        assert marked(end) == []
        assert end.scores == ["0", "0", "0", "0"]


def test_a_team_win_names_the_team_and_whether_you_were_on_it(qtbot: Any) -> None:
    end = EndScreen()
    qtbot.addWidget(end)
    end.show()
    names = ["Mia", "Ben", "Ada", "Jonas", "Lea"]
    seats = [{"name": n} for n in names]
    won = s_tier_end("team", 5, 7)
    assert won["winners"] == [0, 2, 4] == won["detail"]["teams"][0]
    end.show_result(won, seats, 2)
    assert end.headline.text() == "Your team wins: Green team (Mia, Ada and Lea)!"
    end.show_result(won, seats, 1)
    assert end.headline.text() == "Green team (Mia, Ada and Lea) wins. Your team lost."
    end.show_result(won, seats, None)
    assert end.headline.text() == "Green team (Mia, Ada and Lea) wins!"
    assert sorted(marked(end)) == ["Ada", "Lea", "Mia"]  # the team, and only the team


def test_a_shared_win_stays_shared_and_marks_only_the_winners(qtbot: Any) -> None:
    end = EndScreen()
    qtbot.addWidget(end)
    end.show()
    shared = {"winners": [0, 3], "scores": [4.0, 1.0, 2.0, 4.0]}
    end.show_result(shared, SEATS, 3)
    assert end.headline.text() == "You share the win!"
    assert sorted(marked(end)) == ["Jonas", "Mia"]
    end.show_result(shared, SEATS, 1)
    assert end.headline.text() == "Mia and Jonas share the win!"
    end.show_result(shared, SEATS, None)
    assert end.headline.text() == "Mia and Jonas share the win!"
    assert sorted(marked(end)) == ["Jonas", "Mia"]


def test_the_verdict_line_shows_this_laptops_check_and_a_new_result_clears_it(
        qtbot: Any) -> None:
    end = EndScreen()
    qtbot.addWidget(end)
    end.show()
    seats = [{"name": n, "colour": "#E69F00"} for n in NAMES[:2]]
    end.show_result({"winners": [0], "scores": [3, 1]}, seats, 0)
    assert not end.verdict.isVisible()  # until the audit is checked
    end.show_verdict("Checked on this laptop: the shuffle came from everyone, every move "
                     "followed the rules", True)
    assert end.verdict.isVisible() and end.verdict.property("role") == "ok"
    end.show_verdict("Checked on this laptop: this game does not add up. At state 7: ...",
                     False)
    assert end.verdict.property("role") == "error" and "state 7" in end.verdict.text()
    end.show_result({"winners": [1], "scores": [1, 3]}, seats, 0)
    assert not end.verdict.isVisible()


def test_a_cooperative_defeat_gives_nobody_a_score(qtbot: Any) -> None:
    """The defeat screen gave everyone "Score 1" (the green token's step): one result
    for all, and how long the group played."""
    end = EndScreen()
    qtbot.addWidget(end)
    seats = [{"name": n} for n in NAMES[:3]]
    end.show_result({"winners": [], "scores": [1.0, 1.0, 1.0],
                     "detail": {"outcome": "defeat", "rounds": 4}}, seats, 0)
    from PyQt6.QtWidgets import QLabel

    shown = [w.text() for w in end.findChildren(QLabel) if not w.isHidden()]
    assert "Score" not in shown and "1" not in shown
    assert "You played 4 rounds together." in end.detail.text()
    end.show_result({"winners": [1], "scores": [3.0, 5.0, 1.0]}, seats, 0)
    assert "Score" in [w.text() for w in end.findChildren(QLabel) if not w.isHidden()]


def test_a_stand_in_says_so_in_the_log_and_on_the_end_screen(qtbot: Any) -> None:
    """A stand-in's moves were logged under the absent person's name, and the end screen
    said "Lea wins!" for a person who left in round 1."""
    from lanplay.messages import render
    from ui.tables import look
    from ui.tables.widgets import LogPanel

    seats = [{"name": "Mia"}, {"name": "Lea"}]
    entry = {"text": "{0} plays a card.", "seats": [1]}
    log = LogPanel()
    qtbot.addWidget(log)

    def show(entries: list[dict[str, Any]]) -> None:
        names = look.log_names(seats, 2)
        log.show_entries(entries, lambda e: render(e, names), seats)

    show([entry])
    seats[1] = {"name": "Lea", "standin": True}  # Lea left: a bot plays for her
    later = {"text": "{0} draws a card.", "seats": [1]}
    show([entry, later])
    assert log.lines() == ["Lea plays a card.", "Lea's stand-in draws a card."]
    end = EndScreen()
    qtbot.addWidget(end)
    end.show_result({"winners": [1], "scores": [2.0, 5.0]}, seats, 0)
    assert "A stand-in bot played for Lea after they left." in end.detail.text()
