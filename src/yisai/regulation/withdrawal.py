"""退赛与取消资格: what becomes of a player who leaves an event after it has started.

The games already played stay in the ledger (they count in the opponents' 对手分 and for the
team); the player is never paired again. What the 规程 may say differently is data here:
whether a withdrawn player keeps a place in the ranking lists, and whether the games of a
disqualified player stand or are all scored as his forfeits.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from yisai.regulation.rules import Strict

LeftStatus = Literal["withdrawn", "disqualified"]


class Withdrawal(Strict):
    withdrawn_ranked: bool = Field(
        True,
        description="中途退赛者保留名次 (名单中标注“退赛”); false: 不计名次、不参加录取, 列在名单末尾",
    )
    disqualified_games: Literal["stand", "forfeit"] = Field(
        "stand",
        description="被取消资格者已赛对局: stand 成绩有效; forfeit 全部判其负、对手胜 (仍算下过的棋: 执色与对手分照旧)",
    )

    exclude_after_forfeits: int | None = Field(
        None, ge=1, le=50,
        description="弃权满N轮者取消其后比赛资格、不再编排 (已赛成绩有效), 如 两轮无故弃权者取消其后比赛资格",
    )
    excluded_as: LeftStatus = Field(
        "withdrawn",
        description="弃权满N轮者记为: withdrawn 按退赛处理 (名次见 withdrawn_ranked); disqualified 按取消资格处理",
    )

    def keeps_place(self, status: str) -> bool:
        """Does a player of this entry status take a place (and so prizes) in the lists?

        A disqualified player never does; a withdrawn one as the regulation says."""
        if status == "disqualified":
            return False
        if status == "withdrawn":
            return self.withdrawn_ranked
        return True
