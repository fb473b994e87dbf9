"""What the window remembers between runs: your name, your colour, the text size,
sound, the language, and whether it has told you what hosting needs from your firewall.

One small JSON file, written atomically, with the window's size and place
beside it (``window.ini``): in the data folder when one was chosen
(``--data-dir`` or ``LANPLAY_DATA_DIR``), so two windows on one laptop with
two data folders are two people; else in the platform's config folder
(platformdirs). ``LANPLAY_CONFIG_DIR`` names the settings' folder alone and
wins over both. A damaged file is treated as a first run rather than a crash:
losing a name is better than not opening.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lanplay.locale import LANGUAGES
from lanplay.room import PALETTE
from lanplay.store import folders

MIN_SCALE, MAX_SCALE = 0.7, 2.0


CONFIG_ENV = "LANPLAY_CONFIG_DIR"


def default_dir() -> Path:
    """``LANPLAY_CONFIG_DIR`` if set, else the data folder chosen for this run
    (``--data-dir``, ``LANPLAY_DATA_DIR``), else the platform's config folder."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    chosen = folders.chosen_dir()
    if chosen is not None:
        return chosen
    import platformdirs

    return Path(platformdirs.user_config_dir("lanplay", appauthor=False))


@dataclass
class Settings:
    name: str = ""
    colour: str = PALETTE[0]
    scale: float = 1.0
    sound: bool = True
    """Sounds on (one click in the game's bar turns them off, and it is remembered)."""
    language: str = ""
    """The language chosen in the window ("": the system's); ``--lang`` and
    ``LANPLAY_LANG`` still win for the run they are given to."""
    host_hint_seen: bool = False
    """The first-hosting notice (firewall prompts) was shown; it is shown once."""
    taught: list[str] = field(default_factory=list)
    """The games whose first turn the table has walked this person through."""
    path: Path | None = field(default=None, repr=False, compare=False)

    @property
    def first_run(self) -> bool:
        return not self.name.strip()

    @classmethod
    def load(cls, folder: Path | None = None) -> Settings:
        path = (folder or default_dir()) / "settings.json"
        data: dict[str, Any] = {}
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(raw, dict):
                data = raw
        except (OSError, ValueError):
            pass
        name = data.get("name")
        colour = data.get("colour")
        scale = data.get("scale")
        sound = data.get("sound")
        language = data.get("language")
        return cls(
            name=name.strip()[:24] if isinstance(name, str) else "",
            colour=colour if colour in PALETTE else PALETTE[0],
            scale=min(MAX_SCALE, max(MIN_SCALE, float(scale)))
            if isinstance(scale, int | float) and not isinstance(scale, bool) else 1.0,
            sound=sound if isinstance(sound, bool) else True,
            language=language if isinstance(language, str) and language in LANGUAGES else "",
            host_hint_seen=data.get("host_hint_seen") is True,
            taught=[g for g in data.get("taught") or [] if isinstance(g, str)][:20]
            if isinstance(data.get("taught"), list) else [],
            path=path)

    def save(self) -> None:
        if self.path is None:
            return
        data = {k: v for k, v in asdict(self).items() if k != "path"}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".settings-")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1)
            os.replace(tmp, self.path)
        except OSError:
            pass  # a read-only home must not stop anyone from playing
