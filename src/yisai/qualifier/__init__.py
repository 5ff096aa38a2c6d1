"""The online qualifier's rules (线上海选赛), pure: a live game session (``session``), matching
waves (``matching``), the points ladder (``ladder``), periods and pools (``periods``) and sign-in
codes (``otp``). Time and randomness are passed in; no I/O. ``yisai.services.live`` stores them
and ``yisai.live`` (the WebSocket server, a front end like ``yisai.web``) plays them.
"""
