"""Row access for teams and their seats (members); composition reasons stored in both languages."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from yisai.i18n import Text
from yisai.record.text import clean_text
from yisai.registry.entry import EntryStatus
from yisai.registry.team import Team, TeamMember
from yisai.store.audit_rows import audit
from yisai.store.entry_rows import reason_texts, reasons_data
from yisai.store.errors import Conflict, NotFound, by_number
from yisai.store.models import EntryRow, TeamMemberRow, TeamRow
from yisai.store.player_rows import player_number, player_row
from yisai.store.records import Stamp


def _team(row: TeamRow, divisions: dict[int, str] | None = None) -> Team:
    divisions = divisions or {}
    return Team(
        id=str(row.id),
        name=row.name,
        region=row.region,
        province=row.province,
        city=row.city,
        leaders=tuple(row.leaders or ()),
        coaches=tuple(row.coaches or ()),
        members=tuple(
            TeamMember(player_id=str(m.player_id), slot=m.slot, division=divisions.get(m.player_id))
            for m in row.members
        ),
    )


def _division_of_members(s: Session, event_id: int) -> dict[int, str]:
    """The division each player entered (first active entry), shown on team members."""
    q = (
        select(EntryRow.player_id, EntryRow.division)
        .where(EntryRow.event_id == event_id, EntryRow.status != EntryStatus.WITHDRAWN.value)
        .order_by(EntryRow.id)
    )
    out: dict[int, str] = {}
    for pid, div in s.execute(q):
        out.setdefault(pid, div)
    return out


def _team_row(s: Session, team_id: str | int) -> TeamRow:
    return by_number(s, TeamRow, team_id, "队伍", "team")


def _add_member_row(s: Session, event_id: int, row: TeamRow, m: TeamMember) -> None:
    player = player_row(s, m.player_id)
    if player.event_id != event_id:
        raise NotFound(Text(f"棋手{m.player_id}不属于本比赛", f"player {m.player_id} is not in this event"))
    taken = s.scalars(select(TeamMemberRow).where(TeamMemberRow.player_id == player.id)).first()
    if taken is not None:
        raise Conflict(Text(f"{player.name}已在{taken.team.name}中",
                            f"{player.name} is already in {taken.team.name}"))
    row.members.append(TeamMemberRow(player_id=player.id, slot=m.slot))


def add_team(
    s: Session, by: Stamp, event_id: int, team: Team, reasons: Sequence[str | Text] = (), note: str = ""
) -> Team:
    """Save a team with its composition ``reasons`` (bilingual ``Text`` stored as such)."""
    if find_team(s, event_id, team.name):
        raise Conflict(Text(f"队名\u201c{team.name}\u201d已存在",
                            f"a team named \u201c{team.name}\u201d already exists"))
    row = TeamRow(
        event_id=event_id,
        name=team.name,
        region=team.region,
        province=team.province,
        city=team.city,
        leaders=list(team.leaders),
        coaches=list(team.coaches),
        reasons=reasons_data(reasons),
        note=clean_text(note),
    )
    s.add(row)
    s.flush()
    for m in team.members:
        _add_member_row(s, event_id, row, m)
    s.flush()
    s.refresh(row)
    saved = _team(row, _division_of_members(s, event_id))
    after = saved.model_dump(mode="json") | {"reasons": reasons_data(reasons)}
    audit(s, by, event_id, "create", "team", row.id, None, after, note)
    return saved


def replace_team_member(
    s: Session, by: Stamp, team_id: str | int, old_player: str, new_player: str, note: str = ""
) -> Team:
    """递补: ``new_player`` takes ``old_player``'s seat (slot) in the team, audited."""
    row = _team_row(s, team_id)
    before = _team(row).model_dump(mode="json")
    seat = next((m for m in row.members if str(m.player_id) == str(old_player)), None)
    if seat is None:
        raise NotFound(Text(f"棋手{old_player}不在该队", f"player {old_player} is not in this team"))
    if player_row(s, new_player).event_id != row.event_id:
        raise NotFound(Text(f"棋手{new_player}不属于本比赛", f"player {new_player} is not in this event"))
    seat.player_id = player_number(new_player)
    s.flush()
    s.refresh(row)
    after = _team(row, _division_of_members(s, row.event_id))
    audit(s, by, row.event_id, "replace-member", "team", row.id, before, after.model_dump(mode="json"), note)
    return after


def add_team_member(s: Session, by: Stamp, team_id: str | int, member: TeamMember, note: str = "") -> Team:
    row = _team_row(s, team_id)
    before = _team(row).model_dump(mode="json")
    _add_member_row(s, row.event_id, row, member)
    s.flush()
    s.refresh(row)
    after = _team(row, _division_of_members(s, row.event_id))
    audit(s, by, row.event_id, "update", "team", row.id, before, after.model_dump(mode="json"), note)
    return after


def get_team(s: Session, team_id: str | int) -> Team:
    row = _team_row(s, team_id)
    return _team(row, _division_of_members(s, row.event_id))


def team_reason_texts(s: Session, team_id: str | int) -> list[Text]:
    """The team's composition reasons as stored, in both languages."""
    return reason_texts(_team_row(s, team_id).reasons)


def find_team(s: Session, event_id: int, name: str) -> Team | None:
    q = select(TeamRow).where(TeamRow.event_id == event_id, TeamRow.name == name)
    row = s.scalars(q.options(selectinload(TeamRow.members))).first()
    return _team(row, _division_of_members(s, event_id)) if row else None


def list_teams(s: Session, event_id: int) -> list[Team]:
    q = (
        select(TeamRow)
        .where(TeamRow.event_id == event_id)
        .options(selectinload(TeamRow.members))
        .order_by(TeamRow.id)
    )
    divisions = _division_of_members(s, event_id)
    return [_team(r, divisions) for r in s.scalars(q)]
