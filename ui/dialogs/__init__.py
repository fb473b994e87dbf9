"""The dialogs the window opens (host, join, resume, the questions before what
cannot be undone, identity, network help, pictures, rules, replays). A
dialog imports no page (``tests/test_layering.py``).
"""
