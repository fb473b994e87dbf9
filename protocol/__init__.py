"""The lanplay wire format, sans-IO: messages, msgpack framing and view deltas.

Imports neither ``lanplay`` nor ``ui``; nothing here touches a socket.
"""

from protocol.codec import MAX_FRAME, FrameReader, decode_body, encode
from protocol.delta import apply, diff
from protocol.messages import PROTOCOL_VERSION, Message, ProtocolError

__all__ = ["MAX_FRAME", "PROTOCOL_VERSION", "FrameReader", "Message", "ProtocolError",
           "apply", "decode_body", "diff", "encode"]
