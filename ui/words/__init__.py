"""The window's words: the gettext catalogues (``i18n``) and the helpers that
put a game's options, results and times into them.
"""
