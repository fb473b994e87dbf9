"""Write the window's sounds: soft sine tones with gentle envelopes, 22.05 kHz mono.

Licence of the WAV files this writes: CC0 1.0 (made here, from nothing but
arithmetic). Deterministic: no randomness, no timestamps, so running it again
gives the same bytes (tests/test_ui_sound.py checks it).

    python -m ui.sounds.make_sounds [DIR]    (default: this folder)
"""

from __future__ import annotations

import math
import struct
import sys
import wave
from pathlib import Path

RATE = 22050
Note = tuple[float, float, float, float]
"""(start s, frequency Hz, length s, loudness 0..1)."""

SOUNDS: dict[str, list[Note]] = {
    # Your turn: a rising two-note chime.
    "turn": [(0.0, 659.3, 0.22, 0.32), (0.11, 987.8, 0.30, 0.28)],
    # A card played: a soft low knock.
    "play": [(0.0, 220.0, 0.09, 0.30), (0.0, 440.0, 0.05, 0.12)],
    # Top!: a bright rising triad, quick.
    "top": [(0.0, 784.0, 0.12, 0.26), (0.05, 987.8, 0.12, 0.24), (0.10, 1174.7, 0.20, 0.24)],
    # A trick won: two notes falling to rest.
    "trick": [(0.0, 587.3, 0.16, 0.26), (0.09, 440.0, 0.26, 0.26)],
    # The timer's last seconds: a short, quiet wood tick.
    "tick": [(0.0, 1318.5, 0.04, 0.20), (0.0, 659.3, 0.05, 0.10)],
    # Game over: a calm three-note arpeggio.
    "over": [(0.0, 523.3, 0.40, 0.24), (0.14, 659.3, 0.40, 0.22), (0.28, 784.0, 0.55, 0.22)],
}


def samples(notes: list[Note]) -> list[int]:
    """16-bit samples: each note a sine with a 6 ms attack and an exponential fade."""
    end = max(start + length for start, _, length, _ in notes) + 0.02
    out = [0.0] * int(end * RATE)
    for start, freq, length, loud in notes:
        first = int(start * RATE)
        count = int(length * RATE)
        attack = max(1, int(0.006 * RATE))
        for i in range(count):
            t = i / RATE
            rise = min(1.0, i / attack)
            fade = math.exp(-5.0 * t / length) * (1 - i / count)
            out[first + i] += loud * rise * fade * math.sin(2 * math.pi * freq * t)
    return [max(-32767, min(32767, round(v * 32767))) for v in out]


def write(name: str, folder: Path) -> Path:
    path = folder / f"{name}.wav"
    data = samples(SOUNDS[name])
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{len(data)}h", *data))
    return path


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).parent
    folder.mkdir(parents=True, exist_ok=True)
    for name in SOUNDS:
        print(write(name, folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
