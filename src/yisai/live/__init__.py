"""Online play (线上海选赛): live game sessions, matchmaking, the points ladder, the WebSocket server.

``session`` and ``matching`` and ``ladder`` are pure (time and randomness passed in); the server
(``server``) and the store access (``yisai.services.live``) are the shells around them.
"""
