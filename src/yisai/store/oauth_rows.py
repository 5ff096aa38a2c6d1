"""Row access for WeChat/QQ identity links; called only by ``yisai.services.oauth_links``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from yisai.store.audit_rows import audit
from yisai.store.records import Stamp
from yisai.store.side_models import OAuthLinkRow, OAuthStateRow


@dataclass(frozen=True, slots=True)
class LinkRecord:
    id: int
    provider: str
    openid: str
    unionid: str | None
    user_id: int
    created_at: datetime
    last_used_at: datetime


def _record(r: OAuthLinkRow) -> LinkRecord:
    return LinkRecord(r.id, r.provider, r.openid, r.unionid, r.user_id, r.created_at, r.last_used_at)


def find_link(s: Session, provider: str, openid: str) -> LinkRecord | None:
    r = s.scalars(select(OAuthLinkRow).where(OAuthLinkRow.provider == provider,
                                             OAuthLinkRow.openid == openid)).first()  # fmt: skip
    return _record(r) if r is not None else None


def link_of_user(s: Session, user_id: int, provider: str) -> LinkRecord | None:
    r = s.scalars(select(OAuthLinkRow).where(OAuthLinkRow.user_id == user_id,
                                             OAuthLinkRow.provider == provider)).first()  # fmt: skip
    return _record(r) if r is not None else None


def links_of_user(s: Session, user_id: int) -> list[LinkRecord]:
    found = s.scalars(select(OAuthLinkRow).where(OAuthLinkRow.user_id == user_id).order_by(OAuthLinkRow.provider))
    return [_record(r) for r in found]


def add_link(s: Session, by: Stamp, provider: str, openid: str, unionid: str | None, user_id: int) -> LinkRecord:
    """Link the identity to the account (audited: provider and account, the ids themselves not)."""
    r = OAuthLinkRow(provider=provider, openid=openid, unionid=unionid, user_id=user_id,
                     created_at=by.at, last_used_at=by.at)  # fmt: skip
    s.add(r)
    s.flush()
    audit(s, by, None, "link", "oauth_link", r.id, None, {"provider": provider, "user_id": user_id})
    return _record(r)


def touch_link(s: Session, link_id: int, at: datetime, unionid: str | None) -> None:
    """A sign-in through the link: when, and the unionid if the provider now grants it."""
    r = s.get(OAuthLinkRow, link_id)
    if r is not None:
        r.last_used_at = at
        if unionid and r.unionid != unionid:
            r.unionid = unionid
        s.flush()


# ----- sign-in states (the OAuth ``state`` of a redirect not yet come back) -------------------------
def add_state(s: Session, token: str, provider: str, at: datetime, *, older_than: datetime) -> None:
    """Keep a new state's digest; states issued before ``older_than`` are dropped on the way, so
    the table holds only the live ones."""
    s.execute(delete(OAuthStateRow).where(OAuthStateRow.created_at < older_than)
              .execution_options(synchronize_session=False))  # fmt: skip
    s.add(OAuthStateRow(token=token, provider=provider, created_at=at))
    s.flush()


def live_states(s: Session, since: datetime) -> int:
    return int(s.scalar(select(func.count()).select_from(OAuthStateRow).where(OAuthStateRow.created_at >= since)) or 0)


def take_state(s: Session, token: str, provider: str, since: datetime) -> bool:
    """Remove the state in one ``DELETE``: True for the one caller whose statement removed it
    (another worker presenting the same state at once deletes nothing: the row lock decides)."""
    done = s.execute(delete(OAuthStateRow).where(OAuthStateRow.token == token, OAuthStateRow.provider == provider,
                                                 OAuthStateRow.created_at >= since)
                     .execution_options(synchronize_session=False))  # fmt: skip
    return bool(getattr(done, "rowcount", 0) == 1)
