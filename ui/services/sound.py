"""Short, gentle sounds for the moments a player should not miss.

Your turn, a card played, a top!, a trick won, the last seconds of a timer,
the end: each a WAV of ``ui/sounds`` (made by ``make_sounds.py``, CC0),
played with Qt Multimedia's ``QSoundEffect``. One click mutes them and the
choice is remembered (``Settings.sound``). No sound must never be an error:
without Qt Multimedia's libraries (Debian's ``libpulse0``) the import fails
and the window is silent; without an audio device (CI, offscreen) a
``QSoundEffect`` goes to its error status and plays nothing.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QObject, QTimer, QUrl

try:
    from PyQt6.QtMultimedia import QMediaDevices, QSoundEffect
except ImportError:  # no libpulse0 or no Qt Multimedia: a silent window, never a crash
    QSoundEffect = None  # type: ignore[misc,assignment]
    QMediaDevices = None  # type: ignore[misc,assignment]

FOLDER = Path(__file__).resolve().parents[1] / "sounds"
CUES = ("turn", "play", "top", "trick", "tick", "over")
VOLUME = 0.45


class Sound(QObject):
    def __init__(self, enabled: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.enabled = enabled
        self.played: list[str] = []
        """The cues played while sound was on (what the player would have heard)."""
        self._effects: dict[str, Any] = {}
        self._device: bool | None = None
        """Whether an audio output exists (asked once, at the first sound)."""
        self._next: list[str] = []
        self._later = QTimer(self)  # a child: it dies with us, never fires after
        self._later.setSingleShot(True)
        self._later.timeout.connect(self._play_next)

    @property
    def available(self) -> bool:
        """Whether Qt Multimedia could be loaded at all (an audio device aside)."""
        return QSoundEffect is not None

    def play(self, cue: str) -> None:
        """Play ``cue`` unless muted; silently nothing where there is no audio."""
        if not self.enabled or cue not in CUES:
            return
        self.played.append(cue)
        effect = self._effect(cue)
        if effect is not None:
            with contextlib.suppress(Exception):  # a broken audio stack stays silent
                effect.play()

    def play_later(self, cue: str, ms: int) -> None:
        """``cue`` after ``ms`` (a second sound after the first, not over it)."""
        self._next.append(cue)
        self._later.start(ms)

    def _play_next(self) -> None:
        waiting, self._next = self._next, []
        for cue in waiting[:1]:
            self.play(cue)

    @property
    def device(self) -> bool:
        """An audio output to play on; without one nothing is even loaded (CI, offscreen)."""
        if self._device is None:
            try:
                self._device = QMediaDevices is not None and bool(QMediaDevices.audioOutputs())
            except Exception:
                self._device = False
        return self._device

    def _effect(self, cue: str) -> Any:
        if QSoundEffect is None or not self.device:
            return None
        effect = self._effects.get(cue)
        if effect is None:
            path = FOLDER / f"{cue}.wav"
            if not path.is_file():
                return None
            effect = QSoundEffect(self)
            effect.setSource(QUrl.fromLocalFile(str(path)))
            effect.setVolume(VOLUME)
            self._effects[cue] = effect
        return effect


__all__ = ["CUES", "FOLDER", "Sound"]
