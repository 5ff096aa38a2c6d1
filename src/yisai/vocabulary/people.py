"""Words regulations and registrations share: gender and professional status."""

from __future__ import annotations

from enum import StrEnum


class Gender(StrEnum):
    MALE = "M"
    FEMALE = "F"

    @property
    def label(self) -> str:
        return "男" if self is Gender.MALE else "女"

    @classmethod
    def parse(cls, text: str | Gender) -> Gender:
        if isinstance(text, Gender):
            return text
        t = str(text).strip().upper()
        if t in ("M", "男", "MALE", "男性"):
            return cls.MALE
        if t in ("F", "女", "FEMALE", "女性", "W"):
            return cls.FEMALE
        raise ValueError(f"无法识别的性别: {text!r}（应为 男/女 或 M/F）")


class ProStatus(StrEnum):
    """职业身份. ``new_pro`` = 当年新定段的职业棋手 (plays as an amateur in seed 000)."""

    AMATEUR = "amateur"
    NEW_PRO = "new_pro"
    PRO = "pro"

    @property
    def label(self) -> str:
        return {"amateur": "业余", "new_pro": "当年新定段职业", "pro": "职业"}[self.value]
