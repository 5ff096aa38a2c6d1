"""The live server (线上海选赛): a front end like ``yisai.web``. Sockets, game ownership, the
frame protocol, spectators' delay and the cluster link; it calls ``yisai.services`` (never the
store) and plays the pure rules of ``yisai.qualifier``. Services never import it.
"""
