"""The window itself: its chrome and page stack (``window``), the dialogs it
opens, and the party: one connection's life and the routing of its events
to the pages.
"""
