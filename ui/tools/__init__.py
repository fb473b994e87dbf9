"""Tools that use the window but are not it: screenshots and the fit check,
the window's benchmark, the catalogue template, the desktop entry and the
tables' demo scenes. They import the window; the window never imports them.
"""
