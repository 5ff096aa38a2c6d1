"""Row access for team line-ups (出场名单), kept apart from ``repository``; every write is audited."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from yisai.store.repository import Repository
from yisai.store.side_models import LineupRow


@dataclass(frozen=True)
class LineupRecord:
    team_id: str
    stage: str
    round: int
    players: tuple[str, ...]  # player ids, board 1 first
    submitted_by: str
    submitted_at: datetime


def _record(r: LineupRow) -> LineupRecord:
    return LineupRecord(str(r.team_id), r.stage, r.number, tuple(r.players), r.submitted_by,
                        r.submitted_at)


class LineupRows:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.session = repo.session

    def save(self, event_id: int, team_id: str, stage: str, round_no: int,
             players: list[str], note: str = "") -> LineupRecord:
        """Store (or replace) a team's line-up for one round, audited with the one before."""
        q = select(LineupRow).where(LineupRow.team_id == int(team_id), LineupRow.stage == stage,
                                    LineupRow.number == round_no)
        row = self.session.scalars(q).first()
        before = {"players": list(row.players)} if row else None
        if row is None:
            row = LineupRow(event_id=event_id, team_id=int(team_id), stage=stage, number=round_no)
            self.session.add(row)
        row.players = list(players)
        row.submitted_by = self.repo.actor
        row.submitted_at = self.repo.now
        self.session.flush()
        self.repo.audit(event_id, "update" if before else "create", "lineup", row.id, before,
                        {"team": team_id, "stage": stage, "round": round_no, "players": list(players)},
                        note)
        return _record(row)

    def for_round(self, event_id: int, stage: str, round_no: int) -> dict[str, LineupRecord]:
        """team id → its line-up for the round (teams that submitted none are absent)."""
        q = select(LineupRow).where(LineupRow.event_id == event_id, LineupRow.stage == stage,
                                    LineupRow.number == round_no)
        return {str(r.team_id): _record(r) for r in self.session.scalars(q)}
