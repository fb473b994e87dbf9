"""The peer's side: one connection to a host (``peer``, built on its parts ``core``,
``following``, ``joining``, ``fairness`` and ``receiving``), the secrets a seat
keeps on its own laptop (``keeper``) and the bots that play a seat
(``bots``). Everything here holds only what its own seat may see.
"""
