"""The chief referee's decisions on prizes, as plain data the prize engine applies.

Three kinds, each stored (audited) with the event and read back here:

* a docking (扣除部分奖金): a prize winner missed the 颁奖仪式; the regulation's
  ``prizes.ceremony_absence`` says whether a fixed share is docked or the referee decides how
  much (never more than the share it allows);
* a judged award (最佳进步奖, 体育道德风尚奖): the referee names who receives an award the
  regulation lists in ``prizes.judged`` (no place, no ranking);
* the decision on a pool overrun: tied places paid in full came to more than ``prizes.pool``;
  the referee writes down what is done (the organisers make up the difference, ...).

Money is in 分 (integers), as the prize engine computes docking and tax.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Docking:
    """``holder`` (a player or team id) missed the ceremony: its line of ``list_id`` is docked
    ``fen`` (None: the regulation's fixed share)."""

    list_id: str
    holder: str
    fen: int | None
    note: str
    by: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"list": self.list_id, "holder": self.holder, "fen": self.fen, "note": self.note, "by": self.by}


@dataclass(frozen=True, slots=True)
class JudgedWinner:
    """The referee names ``player_id`` for the judged award ``award_id``."""

    award_id: str
    player_id: str
    note: str
    by: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"award": self.award_id, "player": self.player_id, "note": self.note, "by": self.by}


@dataclass(frozen=True, slots=True)
class PrizeDecisions:
    docked: tuple[Docking, ...] = ()
    judged: tuple[JudgedWinner, ...] = ()
    pool_note: str = ""  # the decision on a pool overrun ("" = none yet)
    pool_by: str = ""

    def docking_for(self, list_id: str, holder: str | None) -> Docking | None:
        return next((d for d in self.docked if d.list_id == list_id and d.holder == holder), None)

    def to_settings(self) -> dict[str, Any]:
        """The event setting ``prizes`` holds this (JSON)."""
        return {"docked": [d.to_dict() for d in self.docked], "judged": [j.to_dict() for j in self.judged],
                "pool": {"note": self.pool_note, "by": self.pool_by}}

    @classmethod
    def from_settings(cls, data: Mapping[str, Any] | None) -> PrizeDecisions:
        if not data:
            return cls()
        pool = data.get("pool") or {}
        return cls(
            docked=tuple(Docking(str(d["list"]), str(d["holder"]), None if d.get("fen") is None else int(d["fen"]),
                                 str(d.get("note", "")), str(d.get("by", ""))) for d in data.get("docked", ())),
            judged=tuple(JudgedWinner(str(j["award"]), str(j["player"]), str(j.get("note", "")),
                                      str(j.get("by", ""))) for j in data.get("judged", ())),
            pool_note=str(pool.get("note", "")), pool_by=str(pool.get("by", "")),
        )
