"""Where this laptop keeps lanplay's files: the data directory and the saves in it.

``--data-dir`` (``override``, or for a whole run ``chosen``), else
$LANPLAY_DATA_DIR, else the user's data directory (``~/.local/share/lanplay``
on Linux). Saves of unfinished games lie in ``saves/``, finished ones in
``saves/history/``. A data folder that was chosen (not the user's own) also
holds the window's settings (``ui.services.settings``): two windows on one
laptop with two data folders are two people.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

ENV = "LANPLAY_DATA_DIR"

_chosen: Path | None = None
"""``--data-dir`` of this run (``chosen``), which every ``data_dir()`` then returns."""


@contextlib.contextmanager
def chosen(folder: str | os.PathLike[str] | None) -> Iterator[None]:
    """For the duration of a command, ``data_dir()`` is ``folder`` (None: unchanged)."""
    global _chosen
    if not folder:
        yield
        return
    before, _chosen = _chosen, Path(folder)
    try:
        yield
    finally:
        _chosen = before


def chosen_dir() -> Path | None:
    """The data folder a person chose (``--data-dir`` or $LANPLAY_DATA_DIR), else None."""
    if _chosen is not None:
        return _chosen
    env = os.environ.get(ENV)
    return Path(env) if env else None


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """``override``, else the folder chosen for this run or in $LANPLAY_DATA_DIR, else
    the user's data directory."""
    if override:
        return Path(override)
    chosen_folder = chosen_dir()
    if chosen_folder is not None:
        return chosen_folder
    from platformdirs import user_data_dir

    return Path(user_data_dir("lanplay"))


def saves_dir(root: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(root) / "saves"


def history_dir(root: str | os.PathLike[str] | None = None) -> Path:
    return saves_dir(root) / "history"
