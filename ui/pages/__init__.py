"""The window's pages: Home, the room, the game (with its end screen), the
page for a table that is gone, and the Replay window. A page renders what
it is given and emits what the person asked for; pages never import each
other (``tests/test_layering.py``).
"""
