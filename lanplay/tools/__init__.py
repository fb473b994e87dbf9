"""Tools that drive the core from outside, as a LAN would: never imported by it.

- ``selfplay``: a real host and N bot peers play one game over real TCP
  (``lanplay selfplay``).
- ``bench``: what one action costs: latency (beside a plain and a durable
  floor), bytes, host work, every game, the window (``lanplay bench``);
  ``gamebench``: its rows for every game at its largest seat count; the
  window's rows are ``ui.tools.bench``'s, run in a child process.
- ``trace``: one action's path through the real host and peers, step by step
  (``python -m lanplay.tools.trace``).
- ``loadbench``: 48 peers while one floods the host (``lanplay bench-load``).
- ``gamedoc``: docs/GAMES.md, every game's actions and view for a client, from
  the games' schemas (``python -m lanplay.tools.gamedoc``).
- ``content_pot``: the template of the ``lanplay-content`` catalogues, from the
  built-in content and the games' words, and ``--sync`` into each language.
- ``compile_locales``: the ``.mo`` files of every catalogue, for a build.

A game's own micro-benchmark stays with its rules (e.g.
``lanplay.games.ranagedon.bench``), which it measures without any host.
"""
