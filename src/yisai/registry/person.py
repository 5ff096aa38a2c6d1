"""A player as the regulations see him: gender, birth date, rank, professional status, region.

Pure data; eligibility rules live in ``eligibility.py`` and read these fields only. Gender,
professional status and rank are the shared vocabulary (``yisai.vocabulary``) that regulations
speak too. Text fields (name, club, city …) keep any script but never control characters: they
are cleaned on the way in by ``yisai.record.text.clean_text`` (terminal escapes, bidi overrides
and the like removed, whitespace tidied), so every front end stores and shows the same clean text.
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict, Field, field_validator

from yisai.record.text import clean_text
from yisai.vocabulary import Gender, ProStatus, RankField

MAX_NAME_LENGTH = 100  # characters after cleaning (checked on input); real names are far shorter


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

    @field_validator("name", mode="before")
    @classmethod
    def _clean_name(cls, v: object) -> object:
        if not isinstance(v, str):
            return v
        # Input paths (roster, forms) check emptiness and MAX_NAME_LENGTH on the cleaned name and
        # say which cell is wrong; here a name made only of controls (never accepted as input)
        # reads back as U+FFFD instead of failing.
        return clean_text(v) or ("\ufffd" if v.strip() else v)

    @field_validator(
        "id_number", "certificate_no", "region", "province", "city", "club", "phone", mode="before"
    )
    @classmethod
    def _clean_text(cls, v: object) -> object:
        return (clean_text(v) or None) if isinstance(v, str) else v

    @field_validator("gender", mode="before")
    @classmethod
    def _parse_gender(cls, v: object) -> object:
        return Gender.parse(v) if isinstance(v, str) else v

    def age_on(self, day: date) -> int | None:
        if self.birth_date is None:
            return None
        b = self.birth_date
        return day.year - b.year - ((day.month, day.day) < (b.month, b.day))
