"""The wire's two ends on the LAN: one TCP connection carrying frames
(``link``, for host and peer alike) and zeroconf announcing and finding
rooms (``discovery``).
"""
