"""The games ledger shared by pairing and standings: who met whom, with which colour and result."""

from yisai.record.games import Game, Result, game_points

__all__ = ["Game", "Result", "game_points"]
