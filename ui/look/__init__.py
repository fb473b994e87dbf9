"""How every screen looks: the theme, fonts, drawn icons, the small widgets
every page uses, and pictures (drawn off the GUI thread).
"""
