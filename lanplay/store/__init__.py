"""What lasts on disk: saved games and their journal (``saves``), the
write-ahead that tells a move only once it is durable (``outbox``), and
the validator every file read back goes through (``schema``).
"""
