"""The games ledger shared by pairing and standings: who met whom, with which colour and result."""

from yisai.record.games import Game, Result

__all__ = ["Game", "Result"]
