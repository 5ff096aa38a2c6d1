"""The game itself: board rules, area scoring, SGF, byo-yomi clock and disconnections.

A pure library: no I/O, no clock reads (every time is a float passed in), no unseeded
randomness -- so a live server, the tests and a replay of a record all get the same answer.
"""

from yisai.game.board import BLACK, EMPTY, PASS, WHITE, Board, IllegalMove, Reason
from yisai.game.clock import Clock, TimeLeft
from yisai.game.deadstones import pass_alive, propose_dead
from yisai.game.flow import EndReason, GameFlow, GameOver, Outcome, Phase
from yisai.game.presence import Presence, PresenceStatus
from yisai.game.scoring import AreaCount, area_count
from yisai.game.sgf import IllegalRecord, SgfError, SgfRecord, read_sgf, replay

__all__ = [
    "BLACK",
    "EMPTY",
    "PASS",
    "WHITE",
    "AreaCount",
    "Board",
    "Clock",
    "EndReason",
    "GameFlow",
    "GameOver",
    "IllegalMove",
    "IllegalRecord",
    "Outcome",
    "Phase",
    "Presence",
    "PresenceStatus",
    "Reason",
    "SgfError",
    "SgfRecord",
    "TimeLeft",
    "area_count",
    "pass_alive",
    "propose_dead",
    "read_sgf",
    "replay",
]
