"""Where this laptop keeps lanplay's files: the data directory and the saves in it.

``--data-dir`` (``override``), else $LANPLAY_DATA_DIR, else the user's data
directory (``~/.local/share/lanplay`` on Linux). Saves of unfinished games lie
in ``saves/``, finished ones in ``saves/history/``.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "LANPLAY_DATA_DIR"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """``override``, else $LANPLAY_DATA_DIR, else the user's data directory."""
    if override:
        return Path(override)
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("lanplay"))


def saves_dir(root: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(root) / "saves"


def history_dir(root: str | os.PathLike[str] | None = None) -> Path:
    return saves_dir(root) / "history"
