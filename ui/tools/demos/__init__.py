"""Each table's demo scenes (seeded games at named moments) for the
screenshots and the sets checked by eye: ``python -m
ui.tools.demos.<game> DIR``.
"""
