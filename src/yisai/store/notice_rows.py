"""Row access for the SMS notices, called only by ``yisai.services.notices``.

The claim is what makes a notice go out once with several worker processes: on PostgreSQL the
queued rows are picked ``FOR UPDATE SKIP LOCKED`` (a row another worker is claiming is passed
over, not waited for) and marked ``sending`` with the claim's token; on SQLite one
``UPDATE … WHERE state = 'queued'`` statement both picks and marks (SQLite runs one writer at a
time, so two claims never see the same queued row).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from yisai.store.models import UserRow
from yisai.store.notice_models import NoticeOptOutRow, NoticeRow, NoticeSettingsRow, SendGateRow

COSTING = ("queued", "sending", "sent")  # states that count against a day's budget


def gate(s: Session, key: str) -> None:
    """Take the gate ``key`` for the rest of the transaction: one ``UPDATE`` of its row, made on
    first use. PostgreSQL holds the row lock until commit, so another worker's ``gate`` waits
    there and then reads what this one wrote (READ COMMITTED: each statement a fresh snapshot).
    SQLite begins the transaction at this first write and holds the database's write lock from
    here, so the reads that follow are the latest too. Call it before reading what it guards."""
    bump = update(SendGateRow).where(SendGateRow.key == key).values(hits=SendGateRow.hits + 1)
    if getattr(s.execute(bump.execution_options(synchronize_session=False)), "rowcount", 0):
        return
    try:
        with s.begin_nested():
            s.add(SendGateRow(key=key, hits=0))
    except IntegrityError:  # another worker made it first: its row now exists
        pass
    s.execute(bump.execution_options(synchronize_session=False))


@dataclass(frozen=True, slots=True)
class NoticeRecord:
    id: int
    key: str
    event_id: int | None
    kind: str
    phone: str
    account: str
    params: dict[str, Any]
    state: str
    reason: str
    error: str
    attempts: int
    next_at: datetime
    claimed_by: str
    provider: str
    provider_id: str
    created_at: datetime
    sent_at: datetime | None


def _record(r: NoticeRow) -> NoticeRecord:
    return NoticeRecord(r.id, r.key, r.event_id, r.kind, r.phone, r.account, dict(r.params or {}), r.state,
                        r.reason, r.error, r.attempts, r.next_at, r.claimed_by, r.provider, r.provider_id,
                        r.created_at, r.sent_at)  # fmt: skip


def add(s: Session, *, key: str, event_id: int | None, kind: str, phone: str, account: str,
        params: dict[str, Any], state: str, reason: str, now: datetime, day: date) -> int | None:  # fmt: skip
    """The new notice's id; None when a notice with this key exists (made once, whoever asks)."""
    if s.scalar(select(NoticeRow.id).where(NoticeRow.key == key)) is not None:
        return None
    row = NoticeRow(key=key, event_id=event_id, kind=kind, phone=phone, account=account, params=params,
                    state=state, reason=reason, error="", attempts=0, next_at=now, claimed_by="",
                    provider="", provider_id="", day=day, created_at=now)  # fmt: skip
    try:
        with s.begin_nested():
            s.add(row)
    except IntegrityError:  # another process made it between the look and the insert
        return None
    return row.id


def claim(s: Session, token: str, now: datetime, limit: int) -> list[NoticeRecord]:
    """Mark up to ``limit`` due queued notices ``sending`` for this claim (the first statement of
    its transaction) and return them."""
    due = (NoticeRow.state == "queued") & (NoticeRow.next_at <= now)
    if s.get_bind().dialect.name == "postgresql":
        ids = list(s.scalars(select(NoticeRow.id).where(due).order_by(NoticeRow.id).limit(limit)
                             .with_for_update(skip_locked=True)))  # fmt: skip
        if not ids:
            return []
        picked = NoticeRow.id.in_(ids)
    else:
        picked = NoticeRow.id.in_(select(NoticeRow.id).where(due).order_by(NoticeRow.id).limit(limit).scalar_subquery())
    s.execute(update(NoticeRow).where(picked & (NoticeRow.state == "queued"))
              .values(state="sending", claimed_by=token, claimed_at=now, attempts=NoticeRow.attempts + 1)
              .execution_options(synchronize_session=False))  # fmt: skip
    rows = s.scalars(select(NoticeRow).where((NoticeRow.claimed_by == token) & (NoticeRow.state == "sending"))
                     .order_by(NoticeRow.id))  # fmt: skip
    return [_record(r) for r in rows]


def finish(s: Session, notice_id: int, token: str, **values: Any) -> bool:
    """Record the outcome of this claim's send (nothing if the claim is no longer this one's)."""
    done = s.execute(update(NoticeRow).where((NoticeRow.id == notice_id) & (NoticeRow.claimed_by == token)
                                             & (NoticeRow.state == "sending"))
                     .values(**values).execution_options(synchronize_session=False))  # fmt: skip
    return bool(getattr(done, "rowcount", 0))


def claims_in_flight(s: Session) -> list[NoticeRecord]:
    """Every notice some worker claimed and has not finished (state ``sending``)."""
    rows = s.scalars(select(NoticeRow).where(NoticeRow.state == "sending").order_by(NoticeRow.id))
    return [_record(r) for r in rows]


def finish_delivered(s: Session, notice_id: int, token: str, **values: Any) -> bool:
    """Record a delivery of this claim: also over a sweep that closed the claim as "delivery
    unknown" meanwhile (the message did leave, so it is sent, never failed), but not over
    anything newer (an operator's 重发 queued it under no claim)."""
    mine = (NoticeRow.id == notice_id) & (NoticeRow.claimed_by == token)
    open_or_unknown = (NoticeRow.state == "sending") | ((NoticeRow.state == "failed") & (NoticeRow.reason == "unknown"))
    done = s.execute(update(NoticeRow).where(mine & open_or_unknown)
                     .values(**values).execution_options(synchronize_session=False))  # fmt: skip
    return bool(getattr(done, "rowcount", 0))


def set_state(s: Session, notice_id: int, **values: Any) -> None:
    s.execute(update(NoticeRow).where(NoticeRow.id == notice_id).values(**values)
              .execution_options(synchronize_session=False))  # fmt: skip


def get(s: Session, notice_id: int) -> NoticeRecord | None:
    row = s.get(NoticeRow, notice_id)
    return _record(row) if row is not None else None


def listing(s: Session, event_id: int | None, state: str | None, limit: int) -> list[NoticeRecord]:
    q = select(NoticeRow)
    if event_id is not None:
        q = q.where(NoticeRow.event_id == event_id)
    if state is not None:
        q = q.where(NoticeRow.state == state)
    return [_record(r) for r in s.scalars(q.order_by(NoticeRow.id.desc()).limit(limit))]


def counts(s: Session, event_id: int | None) -> dict[str, int]:
    q = select(NoticeRow.state, func.count()).group_by(NoticeRow.state)
    if event_id is not None:
        q = q.where(NoticeRow.event_id == event_id)
    return {str(state): int(n) for state, n in s.execute(q).all()}


def used_on(s: Session, event_id: int, day: date) -> int:
    """Notices of an event made on ``day`` that cost (or will cost) a message."""
    return s.scalar(select(func.count()).select_from(NoticeRow).where(
        (NoticeRow.event_id == event_id) & (NoticeRow.day == day) & NoticeRow.state.in_(COSTING))) or 0


def opted_out(s: Session, user_id: int) -> bool:
    return s.get(NoticeOptOutRow, user_id) is not None


def phone_opted_out(s: Session, phone: str) -> bool:
    """Whether an account with this mobile number opted out (a registered player who also signs
    in on the site with that number)."""
    q = select(NoticeOptOutRow.user_id).join(UserRow, UserRow.id == NoticeOptOutRow.user_id).where(UserRow.phone == phone)
    return s.scalar(q.limit(1)) is not None


def set_opt_out(s: Session, user_id: int, out: bool, now: datetime) -> None:
    row = s.get(NoticeOptOutRow, user_id)
    if out and row is None:
        s.add(NoticeOptOutRow(user_id=user_id, at=now))
    elif not out and row is not None:
        s.delete(row)


@dataclass(frozen=True, slots=True)
class NoticeSettings:
    off: frozenset[str]
    daily_budget: int | None
    alerted_on: date | None


def settings(s: Session, event_id: int) -> NoticeSettings:
    row = s.get(NoticeSettingsRow, event_id)
    if row is None:
        return NoticeSettings(frozenset(), None, None)
    return NoticeSettings(frozenset(row.off or []), row.daily_budget, row.alerted_on)


def save_settings(s: Session, event_id: int, **values: Any) -> None:
    row = s.get(NoticeSettingsRow, event_id)
    if row is None:
        row = NoticeSettingsRow(event_id=event_id, off=[], daily_budget=None, alerted_on=None)
        s.add(row)
    for k, v in values.items():
        setattr(row, k, sorted(v) if k == "off" else v)


def mark_alerted(s: Session, event_id: int, day: date) -> bool:
    """Note that the operator was alerted today; False when someone already did (once a day)."""
    if s.get(NoticeSettingsRow, event_id) is None:
        save_settings(s, event_id)
        s.flush()
    done = s.execute(update(NoticeSettingsRow).where(
        (NoticeSettingsRow.event_id == event_id)
        & ((NoticeSettingsRow.alerted_on.is_(None)) | (NoticeSettingsRow.alerted_on != day))
    ).values(alerted_on=day).execution_options(synchronize_session=False))
    return bool(getattr(done, "rowcount", 0))
