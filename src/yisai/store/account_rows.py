"""Row access for accounts (users): login, role, binding to an event or team, password hash."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from yisai.i18n import Text
from yisai.store.audit_rows import audit
from yisai.store.errors import Conflict, NotFound
from yisai.store.models import TeamRow, UserRow
from yisai.store.records import Stamp, UserRecord


def _user(row: UserRow) -> UserRecord:
    return UserRecord(
        id=row.id, login=row.login, display_name=row.display_name, role=row.role,
        event_id=row.event_id, team_id=row.team_id, phone=row.phone, active=row.active,
        created_at=row.created_at, session_epoch=row.session_epoch or 0,
        max_teams=row.max_teams if row.max_teams is not None else 1,
    )  # fmt: skip


def _user_row(s: Session, user_id: int) -> UserRow:
    row = s.get(UserRow, user_id)
    if row is None:
        raise NotFound(Text(f"没有编号为{user_id}的账号", f"no account numbered {user_id}"))
    return row


def add_user(
    s: Session,
    by: Stamp,
    login: str,
    display_name: str,
    role: str,
    password_hash: str | None = None,
    *,
    event_id: int | None = None,
    team_id: int | None = None,
    phone: str | None = None,
) -> UserRecord:
    if s.scalars(select(UserRow).where(UserRow.login == login)).first():
        raise Conflict(Text(f"账号 {login} 已存在", f"account {login} already exists"))
    row = UserRow(
        login=login, display_name=display_name, role=role, password_hash=password_hash,
        event_id=event_id, team_id=team_id, phone=phone, active=True, created_at=by.at,
    )  # fmt: skip
    s.add(row)
    s.flush()
    after = {"login": login, "role": role, "event_id": event_id, "team_id": team_id}
    audit(s, by, event_id, "create", "user", row.id, None, after)
    return _user(row)


def get_user(s: Session, user_id: int) -> UserRecord:
    return _user(_user_row(s, user_id))


def find_user(s: Session, login: str) -> tuple[UserRecord, str | None] | None:
    """The account and its password hash (only the accounts service sees hashes)."""
    row = s.scalars(select(UserRow).where(UserRow.login == login)).first()
    return (_user(row), row.password_hash) if row else None


def list_users(s: Session, event_id: int | None = None, *, without_role: str | None = None) -> list[UserRecord]:
    q = select(UserRow)
    if event_id is not None:
        q = q.where(UserRow.event_id == event_id)
    if without_role is not None:
        q = q.where(UserRow.role != without_role)
    return [_user(r) for r in s.scalars(q.order_by(UserRow.id))]


def set_password_hash(s: Session, by: Stamp, user_id: int, password_hash: str, *, end_sessions: bool = True) -> None:
    """A new password ends the account's sessions (not for a rehash of the same password)."""
    row = _user_row(s, user_id)
    row.password_hash = password_hash
    if end_sessions:
        row.session_epoch = (row.session_epoch or 0) + 1
        audit(s, by, row.event_id, "update", "user", row.id, None, {"password": "changed", "sessions": "ended"})


def end_sessions(s: Session, by: Stamp, user_id: int) -> None:
    """Every session cookie and API token of the account stops working (logout, in every worker)."""
    row = _user_row(s, user_id)
    row.session_epoch = (row.session_epoch or 0) + 1
    audit(s, by, row.event_id, "logout", "user", row.id, None, {"sessions": "ended"})


def set_user_active(s: Session, by: Stamp, user_id: int, active: bool) -> None:
    """Disable (or enable again) an account; a disabled one cannot sign in or keep a session."""
    row = _user_row(s, user_id)
    before = {"active": row.active}
    row.active = active
    row.session_epoch = (row.session_epoch or 0) + 1
    audit(s, by, row.event_id, "update", "user", row.id, before, {"active": active})


def count_users(s: Session, *, active_only: bool = True, without_role: str | None = None) -> int:
    q = select(func.count()).select_from(UserRow)
    if active_only:
        q = q.where(UserRow.active.is_(True))
    if without_role is not None:
        q = q.where(UserRow.role != without_role)
    return int(s.scalar(q) or 0)


def set_user_team(s: Session, by: Stamp, user_id: int, team_id: int, event_id: int) -> None:
    """Bind a team leader's account to the team it registered (and that team's event)."""
    row = _user_row(s, user_id)
    before = {"team_id": row.team_id, "event_id": row.event_id}
    row.team_id, row.event_id = team_id, event_id
    audit(s, by, event_id, "update", "user", row.id, before, {"team_id": team_id, "event_id": event_id})


def set_user_event(s: Session, by: Stamp, user_id: int, event_id: int | None) -> None:
    """Limit an account to one event (a referee or chief referee), or lift the limit (None)."""
    row = _user_row(s, user_id)
    before = {"event_id": row.event_id}
    row.event_id = event_id
    audit(s, by, event_id if event_id is not None else before["event_id"], "update", "user", row.id,
          before, {"event_id": event_id})


def set_user_max_teams(s: Session, by: Stamp, user_id: int, max_teams: int) -> None:
    """How many teams a 领队 account may register (1 unless the operator allows more)."""
    row = _user_row(s, user_id)
    before = {"max_teams": row.max_teams}
    row.max_teams = max_teams
    audit(s, by, row.event_id, "update", "user", row.id, before, {"max_teams": max_teams})


def set_team_account(s: Session, team_id: int, user_id: int) -> None:
    """Record which 领队 account registered a team (its own team from then on)."""
    row = s.get(TeamRow, team_id)
    if row is None:
        raise NotFound(Text(f"没有编号为{team_id}的队伍", f"no team numbered {team_id}"))
    row.account_id = user_id


def teams_of_account(s: Session, user_id: int) -> list[int]:
    """The teams an account registered (ids, in the order they were made)."""
    q = select(TeamRow.id).where(TeamRow.account_id == user_id).order_by(TeamRow.id)
    return [int(i) for i in s.scalars(q)]
