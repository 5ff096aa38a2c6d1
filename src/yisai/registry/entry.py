"""报名 (entry): one player in one division (and stage), and the director's decision on it."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

from yisai.i18n import Text


class EntryStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"  # 取消资格: by the chief referee, never by the player

    @property
    def label(self) -> str:
        return {"pending": "待审核", "approved": "已通过", "rejected": "未通过", "withdrawn": "已退赛",
                "disqualified": "取消资格"}[self.value]

    @property
    def has_left(self) -> bool:
        """Withdrawn or disqualified: not paired again, but games already played still stand."""
        return self in (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED)


# Which decisions may follow which. A withdrawn or disqualified entry is never simply approved:
# the way back is 恢复参赛, the chief referee's decision with a reason (services.withdrawal).
TRANSITIONS: dict[EntryStatus, frozenset[EntryStatus]] = {
    EntryStatus.PENDING: frozenset({EntryStatus.APPROVED, EntryStatus.REJECTED, EntryStatus.WITHDRAWN}),
    EntryStatus.APPROVED: frozenset({EntryStatus.REJECTED, EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED}),
    EntryStatus.REJECTED: frozenset({EntryStatus.APPROVED, EntryStatus.WITHDRAWN}),
    EntryStatus.WITHDRAWN: frozenset({EntryStatus.DISQUALIFIED}),
    EntryStatus.DISQUALIFIED: frozenset(),
}


class Entry(BaseModel):
    """``reasons`` are the eligibility findings recorded at the last check/decision, each in
    both languages (``Text``) as the store keeps them: whoever shows an entry words it in the
    reader's language, so an entry read once serves every language (see ``services.eligibility``)."""

    model_config = ConfigDict(frozen=True)

    id: str = ""
    player_id: str
    division: str
    stage: str = ""  # "" = the division's whole event
    status: EntryStatus = EntryStatus.PENDING
    fee_due: int = Field(0, ge=0, description="应缴费用(元)")
    fee_paid: bool = False
    reasons: tuple[Text, ...] = ()
    note: str = ""  # director's note (reject reason, forced approval note ...)
    forced: bool = False  # approved despite reasons, by the director's audited decision

    @field_validator("reasons", mode="before")
    @classmethod
    def _texts(cls, value: object) -> object:
        """A reason given as stored (``{"zh", "en"}``), as dumped (``[zh, en]``) or as one plain
        string reads as a ``Text``."""
        if isinstance(value, list | tuple):
            return tuple(v if isinstance(v, Text) else Text(*v) if isinstance(v, list | tuple) and len(v) == 2
                         else Text.from_data(v) for v in value)
        return value
