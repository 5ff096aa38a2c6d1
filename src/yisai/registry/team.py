"""代表队: a team with its region, staff (领队/教练) and members seated in named slots.

Pure data; whether a team may be registered is decided in ``eligibility.check_team``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class TeamMember(BaseModel):
    """One player in a team; ``slot`` is a TeamRules slot label such as 甲组男 (or None)."""

    model_config = ConfigDict(frozen=True)

    player_id: str
    slot: str | None = None
    division: str | None = Field(None, description="该队员报名的组别 id")


class Team(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str = ""
    name: str = Field(min_length=1)
    region: str | None = None  # 中国大陆 / 香港 …
    province: str | None = None
    city: str | None = None
    leaders: tuple[str, ...] = ()  # 领队 (names)
    coaches: tuple[str, ...] = ()  # 教练 (names)
    members: tuple[TeamMember, ...] = ()

    @property
    def place(self) -> str:
        """What the team represents, for messages: 浙江杭州 / 浙江."""
        return "".join(p for p in (self.province, self.city) if p) or self.name
