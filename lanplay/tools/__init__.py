"""Tools that drive the core from outside, as a LAN would: never imported by it.

- ``selfplay``: a real host and N bot peers play one game over real TCP
  (``lanplay selfplay``).
- ``bench``: what one action costs: latency, bytes, host work
  (``lanplay bench``).
- ``loadbench``: 48 peers while one floods the host (``lanplay bench-load``).
- ``gamedoc``: docs/GAMES.md, every game's actions and view for a client, from
  the games' schemas (``python -m lanplay.tools.gamedoc``).
- ``content_pot``: the template of the ``lanplay-content`` catalogues, from the
  built-in content and the games' words, and ``--sync`` into each language.
- ``compile_locales``: the ``.mo`` files of every catalogue, for a build.

A game's own micro-benchmark stays with its rules (e.g.
``lanplay.games.ranagedon.bench``), which it measures without any host.
"""
