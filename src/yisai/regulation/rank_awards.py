"""段位申报/授予: preconditions on entrant counts, grants by place, and 顺延 limits."""

from __future__ import annotations

from pydantic import Field

from yisai.regulation.prizes import MAX_PLACE
from yisai.regulation.rules import Strict
from yisai.vocabulary.rank import RankField


class CountCondition(Strict):
    """参赛(min_rank以上)棋手达到 at_least 人 [且不足 below 人]."""

    min_rank: RankField | None = Field(None, description="只数该段位(含)以上的参赛棋手; 不填数全部")
    at_least: int | None = Field(None, ge=0, le=MAX_PLACE)
    below: int | None = Field(None, ge=1, le=MAX_PLACE)


class Grant(Strict):
    """个人第 from–to 名可申报 rank (顺延到前 extend_to 名)."""

    place_from: int = Field(ge=1, le=MAX_PLACE, alias="from")
    place_to: int = Field(ge=1, le=MAX_PLACE, alias="to")
    rank: str = Field(description="如 8段, 7段, 职业初段")
    professional: bool = Field(False, description="职业段位 (如 职业初段)")
    extend_to: int | None = Field(None, ge=1, le=MAX_PLACE, description="顺延到前m名; 不填则不顺延")
    alternative_to: str | None = Field(
        None, description="与同名次的另一授予二选一 (如 业余8段 或 职业初段)"
    )
    note: str | None = Field(None, description="如 申报期限为夺冠之日起的一年内")
    when: list[CountCondition] = Field(default_factory=list, description="全部满足才授予")
    tier_group: str | None = Field(
        None,
        description="分档: 同组内按出现顺序取第一个条件全部成立的档; 与该档 when 相同的授予全部适用, 其余档不适用",
    )

    model_config = Strict.model_config | {"populate_by_name": True}


class RankAwardRule(Strict):
    division: str
    ranking: str = Field(description="按哪个名次表授予 (如 男女混合)")
    amateurs_only: bool = Field(True, description="名次和顺延仅限业余棋手的排名")
    exclude_new_pros: bool = Field(True, description="不含当年新定段的职业棋手")
    places_among_amateurs: bool = Field(
        True, description="名次按业余棋手重新排列 (排除职业棋手后的名次)"
    )
    skip_if_already_holding: bool = Field(True, description="已持有该段位或更高者顺延给下一名")
    grants: list[Grant] = Field(min_length=1)
    procedure: str = Field(
        "段位资格审核、证书颁发按照《中国围棋业余等级制及管理办法》执行", description="审核办法"
    )
