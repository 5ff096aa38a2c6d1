"""Row access for entries (报名): one player in one division and stage, with fees and reasons.

Reasons are stored in both languages (``{"zh", "en"}`` objects) and read back as ``Text``: the
store words nothing in a reader's language, so what it reads (and what ``roster_rows`` caches)
is the same for every language.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from yisai.i18n import Text
from yisai.record.text import clean_text
from yisai.registry.entry import Entry, EntryStatus
from yisai.store.audit_rows import audit
from yisai.store.errors import Conflict, NotFound, by_number
from yisai.store.models import EntryRow
from yisai.store.player_rows import player_event, player_number
from yisai.store.records import Stamp


def reasons_data(reasons: Iterable[str | Text]) -> list[Any]:
    """Reasons as stored in a JSON column: ``{"zh", "en"}`` objects (plain strings as given)."""
    return [r.as_dict() if isinstance(r, Text) else r for r in reasons]


def reason_texts(stored: Iterable[object] | None) -> list[Text]:
    """Stored reasons back to Texts; rows written before reasons were bilingual hold Chinese strings."""
    return [Text.from_data(r) for r in stored or ()]


def entry_value(row: EntryRow) -> Entry:
    return Entry(
        id=str(row.id),
        player_id=str(row.player_id),
        division=row.division,
        stage=row.stage,
        status=EntryStatus(row.status),
        fee_due=row.fee_due,
        fee_paid=row.fee_paid,
        reasons=tuple(reason_texts(row.reasons)),
        note=row.note,
        forced=row.forced,
    )


def _entry_data(row: EntryRow) -> dict[str, Any]:
    """An entry for the audit log: reasons as stored (both languages)."""
    return entry_value(row).model_dump(mode="json") | {"reasons": list(row.reasons or [])}


def _entry_row(s: Session, entry_id: str | int) -> EntryRow:
    return by_number(s, EntryRow, entry_id, "报名", "entry")


def add_entry(s: Session, by: Stamp, event_id: int, entry: Entry, note: str = "") -> Entry:
    """Save a new entry with its reasons in both languages."""
    if player_event(s, entry.player_id) != event_id:
        raise NotFound(Text(f"棋手{entry.player_id}不属于本比赛",
                            f"player {entry.player_id} is not in this event"))
    if find_entry(s, entry.player_id, entry.division, entry.stage):
        raise Conflict(Text(f"棋手{entry.player_id}已报名{entry.division}",
                            f"player {entry.player_id} has already entered {entry.division}"))
    row = EntryRow(
        event_id=event_id,
        player_id=player_number(entry.player_id),
        division=entry.division,
        stage=entry.stage,
        status=entry.status.value,
        fee_due=entry.fee_due,
        fee_paid=entry.fee_paid,
        reasons=reasons_data(entry.reasons),
        note=clean_text(entry.note),
        forced=entry.forced,
        updated_at=by.at,
    )
    s.add(row)
    s.flush()
    saved = entry_value(row)
    audit(s, by, event_id, "create", "entry", row.id, None, _entry_data(row), note)
    return saved


def get_entry(s: Session, entry_id: str | int) -> Entry:
    return entry_value(_entry_row(s, entry_id))


def entry_event(s: Session, entry_id: str | int) -> int:
    return _entry_row(s, entry_id).event_id


def update_entry(s: Session, by: Stamp, entry: Entry, action: str = "update", note: str = "") -> Entry:
    """Save ``entry``'s changes; its reasons are written only when they differ from the stored
    ones (a row from before reasons were bilingual keeps its Chinese strings until then)."""
    row = _entry_row(s, entry.id)
    before = _entry_data(row)
    row.status = entry.status.value
    row.fee_due = entry.fee_due
    row.fee_paid = entry.fee_paid
    if list(entry.reasons) != reason_texts(row.reasons):
        row.reasons = reasons_data(entry.reasons)
    row.note = clean_text(entry.note)
    row.forced = entry.forced
    row.updated_at = by.at
    s.flush()
    after = entry_value(row)
    audit(s, by, row.event_id, action, "entry", row.id, before, _entry_data(row), note)
    return after


def find_entry(s: Session, player_id: str | int, division: str, stage: str = "") -> Entry | None:
    q = select(EntryRow).where(
        EntryRow.player_id == player_number(player_id),
        EntryRow.division == division,
        EntryRow.stage == stage,
    )
    row = s.scalars(q).first()
    return entry_value(row) if row else None


def player_entries(
    s: Session,
    event_id: int,
    player_id: str | int,
    *,
    division: str | None = None,
    stage: str | None = None,
    status: EntryStatus | Iterable[EntryStatus] | None = None,
) -> list[Entry]:
    """One player's entries in id order, read from the rows (a single lookup need not build the
    whole roster). The event's entries are listed once, by ``roster_rows.list_entries``."""
    q = select(EntryRow).where(EntryRow.event_id == event_id, EntryRow.player_id == player_number(player_id))
    if division is not None:
        q = q.where(EntryRow.division == division)
    if stage is not None:
        q = q.where(EntryRow.stage == stage)
    if isinstance(status, EntryStatus):
        q = q.where(EntryRow.status == status.value)
    elif status is not None:
        q = q.where(EntryRow.status.in_([st.value for st in status]))
    return [entry_value(r) for r in s.scalars(q.order_by(EntryRow.id))]


def count_entries(s: Session, event_id: int) -> dict[tuple[str, str], int]:
    """(division, status) → number of entries, for summaries."""
    q = (
        select(EntryRow.division, EntryRow.status, func.count())
        .where(EntryRow.event_id == event_id)
        .group_by(EntryRow.division, EntryRow.status)
    )
    return {(d, st): n for d, st, n in s.execute(q)}
