"""The browser seat: the host serves a page and a WebSocket next to its TCP port.

``server`` is the HTTP and WebSocket server (websockets' ``process_request``
serves the files; ``/ws`` hands each WebSocket, as a ``lanplay.net.ws_link.WsLink``,
to the same connection handling as TCP: the browser is one more peer). ``assets``
holds what may be served: the packaged page, the pictures of the content in
play, the catalogues as JSON (``catalogues``). ``address`` says where the page is
(the URL the room and ``lanplay host`` show, and its QR code). What keeps the page
from being turned against the room: ``hosts`` (the Host header read strictly, the
host's own names), ``budget`` (which connection makes room for a newcomer) and
``worker`` (slow work off the host's loop, with a bound queue). The page itself is
``page/``: plain ES modules, no build step.
"""
