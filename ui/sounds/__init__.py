"""The window's sounds: short WAV files made by ``make_sounds.py`` beside them.

Synthesised here from sine tones with the standard library (no recording, no
third-party sample), so they are the project's own: CC0 1.0 (public domain
dedication, https://creativecommons.org/publicdomain/zero/1.0/). Run
``python -m ui.sounds.make_sounds`` to write them again; the same bytes come out.
"""
