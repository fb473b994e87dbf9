"""Replays of finished games: every state again, from any seat's view or with all open.

A finished game is all a replay needs: the seed (the host's secret and every
seat's contribution), the options and the action log, replayed with this
laptop's own rules. Two kinds of file hold one:

- the host's history save (``saves/history/`` of the data directory), and
- the audit a peer received at the game's end (``lanplay.fair``), which a
  window keeps in ``audits/`` of its own data directory, so a player who only
  joined can replay the game too.

- ``model``: pure (no files, no Qt): ``Finished`` (one finished game, from
  either kind) and ``Replay`` (its states; per step each seat's view, the
  spectator's, the log up to there, and what every seat held that the
  spectator could not see).
- ``files``: reading both kinds (a damaged or unfinished file is refused with
  a sentence), keeping a peer's audit, and listing the finished games.
- ``words``: ``lanplay replay FILE``, the game printed step by step.
"""
