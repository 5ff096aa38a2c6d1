"""Row access for registration papers and check-in (kept apart from ``repository``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from yisai.store.side_models import CheckInRow, PaperRow


@dataclass(frozen=True)
class PaperRecord:
    id: int
    event_id: int
    team_id: int
    player_id: int | None
    kind: str
    file_type: str
    file_name: str
    uploaded_name: str
    size: int
    sha256: str
    storage_key: str | None
    status: str
    reason: str
    uploaded_at: datetime
    uploaded_by: str
    decided_at: datetime | None
    decided_by: str | None
    purged_at: datetime | None


@dataclass(frozen=True)
class CheckInRecord:
    player_id: int
    arrived: bool
    insured: bool
    at: datetime
    by: str
    note: str


def _paper(r: PaperRow) -> PaperRecord:
    return PaperRecord(r.id, r.event_id, r.team_id, r.player_id, r.kind, r.file_type, r.file_name,
                       r.uploaded_name, r.size, r.sha256, r.storage_key, r.status, r.reason,
                       r.uploaded_at, r.uploaded_by, r.decided_at, r.decided_by, r.purged_at)


class PaperRows:
    def __init__(self, session: Session) -> None:
        self.session = session

    def add(self, **values: object) -> PaperRecord:
        row = PaperRow(**values)
        self.session.add(row)
        self.session.flush()
        return _paper(row)

    def get(self, paper_id: int) -> PaperRecord | None:
        row = self.session.get(PaperRow, paper_id)
        return _paper(row) if row else None

    def list(self, event_id: int, team_id: int | None = None) -> list[PaperRecord]:
        q = select(PaperRow).where(PaperRow.event_id == event_id)
        if team_id is not None:
            q = q.where(PaperRow.team_id == team_id)
        return [_paper(r) for r in self.session.scalars(q.order_by(PaperRow.id))]

    def update(self, paper_id: int, **values: object) -> PaperRecord:
        row = self.session.get(PaperRow, paper_id)
        assert row is not None
        for k, v in values.items():
            setattr(row, k, v)
        self.session.flush()
        return _paper(row)

    # ------------------------------------------------------------ check-in

    def check_ins(self, event_id: int) -> dict[int, CheckInRecord]:
        q = select(CheckInRow).where(CheckInRow.event_id == event_id)
        return {r.player_id: CheckInRecord(r.player_id, r.arrived, r.insured, r.at, r.by, r.note)
                for r in self.session.scalars(q)}

    def set_check_in(self, event_id: int, player_id: int, *, arrived: bool, insured: bool,
                     at: datetime, by: str, note: str) -> CheckInRecord:
        row = self.session.scalars(select(CheckInRow).where(CheckInRow.player_id == player_id)).first()
        if row is None:
            row = CheckInRow(event_id=event_id, player_id=player_id)
            self.session.add(row)
        row.arrived, row.insured, row.at, row.by, row.note = arrived, insured, at, by, note
        self.session.flush()
        return CheckInRecord(player_id, arrived, insured, at, by, note)
