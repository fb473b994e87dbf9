"""The game page: the slim bar, the game's table, the chat drawer, and the
end screen over the table.
"""
