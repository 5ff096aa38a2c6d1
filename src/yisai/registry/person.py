"""A player as the regulations see him: gender, birth date, rank, professional status, region.

Pure data; eligibility rules live in ``eligibility.py`` and read these fields only. Gender,
professional status and rank are the shared vocabulary (``yisai.vocabulary``) that regulations
speak too.
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict, Field, field_validator

from yisai.vocabulary import Gender, ProStatus, RankField


class Player(BaseModel):
    """One person; ``id`` is the store's key (ID-card number when known)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str = Field(min_length=1)
    gender: Gender
    birth_date: date | None = None
    id_number: str | None = None  # 身份证号: text, never a number
    rank: RankField | None = None  # 业余段级位
    pro_status: ProStatus = ProStatus.AMATEUR
    certificate_no: str | None = None  # 业余段级位证书编号
    region: str | None = None  # 地区: 中国大陆 / 香港 / 澳门 / 台湾 / 国外
    province: str | None = None
    city: str | None = None
    club: str | None = None  # 俱乐部/学校
    phone: str | None = None
    rating: int | None = None

    @field_validator("gender", mode="before")
    @classmethod
    def _parse_gender(cls, v: object) -> object:
        return Gender.parse(v) if isinstance(v, str) else v

    def age_on(self, day: date) -> int | None:
        if self.birth_date is None:
            return None
        b = self.birth_date
        return day.year - b.year - ((day.month, day.day) < (b.month, b.day))
