"""What the window's pages stand on that is not a widget: our seat's
connection and its Qt signals, the pacing of views, sounds and their cues,
and the settings remembered between runs.
"""
