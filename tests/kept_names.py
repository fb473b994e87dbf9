"""H1 of issue 33: an audit kept from a hostile host, its seats named with 200,000
characters each, opened from Help -> Replays. For the test and for measuring:
``PYTHONPATH=TREE:tests python tests/kept_names.py PLAYED_DIR`` prints how long each
step held the window's thread (the list, the dialog, the replay window shown and
painted, a step forward), so the code before and after a change can be compared."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from lanplay.replay import files

LONG = 200_000
"""Characters in each hostile name (the finding's file: three of them, 592 KB)."""


def hostile_audit(played: Any, root: Path, length: int = LONG) -> Path:
    """``played``'s audit kept as format 1 (read whole, as an older lanplay kept it), its
    seats renamed to ``length`` characters each, in ``root``'s audits folder."""
    record = files.audit_record(played.audits[0], played.seats, 0, played.results[0],
                                "verified", now=1_000_000)
    head = record["head"]
    seats = [{**s, "name": chr(ord("A") + i) * length} for i, s in enumerate(head["seats"])]
    data = {"kind": files.KIND, "format": 1, "saved": head["saved"], "host": "H" * length,
            "you": head["you"], "seats": seats, "result": head["result"],
            "verdict": head["verdict"], "audit": record["audit"]}
    folder = files.audits_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "19700112-alles-klar-hostile.json"
    path.write_text(json.dumps(data))
    return path


def open_in_window(root: Path) -> dict[str, float]:
    """Help -> Replays on ``root``'s data, then Replay on its one game: the
    milliseconds each step held the thread (QApplication must exist)."""
    from PyQt6.QtWidgets import QApplication

    from ui.dialogs.replays import ReplaysDialog
    from ui.window.dialogs import open_replay

    app = QApplication.instance()
    assert app is not None
    out: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        began = time.perf_counter()
        value = fn()
        app.processEvents()
        out[name] = round((time.perf_counter() - began) * 1000, 1)
        return value

    listed = timed("list", lambda: files.finished_games(root))
    dialog = timed("dialog", lambda: _shown(ReplaysDialog(listed)))
    path = dialog.selected()
    assert path is not None
    replay = timed("read", lambda: files.open_replay(path))
    window = timed("replay_window", lambda: _shown(open_replay(dialog, replay)))
    timed("paint", lambda: window.grab())
    timed("step", lambda: window.go(min(3, replay.moves)))
    timed("paint_step", lambda: window.grab())
    timed("last", lambda: window.go(replay.moves))
    timed("paint_last", lambda: window.grab())
    window.close()
    dialog.close()
    return out


def _shown(widget: Any) -> Any:
    widget.show()
    return widget


def main() -> None:
    """Play a game into a temporary folder, keep it twice (plain names, hostile names),
    and print what opening each cost."""
    import asyncio
    import tempfile

    from PyQt6.QtWidgets import QApplication
    from replay_games import play

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication(sys.argv[:1])
    base = Path(tempfile.mkdtemp(prefix="lanplay-h1-"))
    played = asyncio.run(play("alles-klar", 3, None, base / "played", seed=5))
    figures: dict[str, Any] = {}
    for label, length in (("plain names", 0), ("200,000-character names", LONG)):
        root = base / label.replace(" ", "-").replace(",", "")
        if length:
            hostile_audit(played, root, length)
        else:
            files.keep_audit(played.audits[0], played.seats, 0, played.results[0],
                             "verified", root=root, now=1_000_000)
        figures[label] = open_in_window(root)
    figures["load"] = os.getloadavg()
    print(json.dumps(figures))
    app.quit()
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
