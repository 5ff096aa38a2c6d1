"""Row access for player profiles; called only by ``yisai.services.profiles`` in its transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from yisai.store.models import UserRow
from yisai.store.side_models import PlayerProfileRow


@dataclass(frozen=True, slots=True)
class ProfileRecord:
    user_id: int
    name: str
    gender: str
    birth: date
    region: str
    rank: str
    guardian_phone: str | None
    updated_at: datetime


def get_profile(s: Session, user_id: int) -> ProfileRecord | None:
    r = s.scalars(select(PlayerProfileRow).where(PlayerProfileRow.user_id == user_id)).first()
    if r is None:
        return None
    return ProfileRecord(r.user_id, r.name, r.gender, r.birth, r.region, r.rank, r.guardian_phone,
                         r.updated_at)  # fmt: skip


def put_profile(s: Session, record: ProfileRecord) -> None:
    """Insert or replace the account's profile; the account's display name follows the profile."""
    r = s.scalars(select(PlayerProfileRow).where(PlayerProfileRow.user_id == record.user_id)).first()
    if r is None:
        r = PlayerProfileRow(user_id=record.user_id)
        s.add(r)
    r.name, r.gender, r.birth, r.region = record.name, record.gender, record.birth, record.region
    r.rank, r.guardian_phone, r.updated_at = record.rank, record.guardian_phone, record.updated_at
    user = s.get(UserRow, record.user_id)
    if user is not None:
        user.display_name = record.name
    s.flush()


def user_phone(s: Session, user_id: int) -> str | None:
    user = s.get(UserRow, user_id)
    return user.phone if user is not None else None
